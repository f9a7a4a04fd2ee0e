/* strobe-memory-frame.h — what a call stack is made of: its frames and the modules they
 * were in. Apart from the model's header so the stacks' own file (which the model calls)
 * can use them without reaching back up into the model.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A loaded module, as the trace's module map says (Memory.Module). */
typedef struct
{
  guint32       id;          /* the trace's */
  guint64       bias;        /* what its file's addresses were relocated by */
  guint64       start;       /* the range its segments covered */
  guint64       end;
  const char   *path;
  const guint8 *build_id;
  gsize         build_id_len;
  gboolean      unloaded;    /* a Memory.ModuleUnload followed */
} StrobeMemoryModule;

/* One frame of a call stack (innermost first): a return address, and the module it was
 * in when the stack was recorded (index into get_modules() + 1; 0 when none). */
typedef struct
{
  guint64 address;
  guint32 module;
} StrobeMemoryFrame;

G_END_DECLS
