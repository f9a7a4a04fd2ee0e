/* strobe-memory-livemap.h — (key, space) → record index, for the memory model's live
 * allocations: keyed by (address, heap) for traces that name blocks by address, and by
 * (thread << 48 | id, thread space) for traces that name allocations by id. Not installed.
 *
 * Open addressing with linear probing and backward-shift deletion, hashed with a random
 * per-map key: addresses a trace chooses cannot be made to land in one slot (the model
 * reads untrusted files). Grows by doubling; holds live entries only.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 key;
  guint32 space;
  guint32 value_plus1;   /* 0: empty */
} StrobeLiveSlot;

typedef struct
{
  StrobeLiveSlot *slots;
  gsize           cap;     /* power of two */
  gsize           count;
  guint64         seed[2];
} StrobeLiveMap;

void     strobe_live_map_init   (StrobeLiveMap *m);
void     strobe_live_map_clear  (StrobeLiveMap *m);
/* The value for (key, space), or FALSE. */
gboolean strobe_live_map_lookup (const StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value);
/* Sets (key, space) → value; returns TRUE and *old when it replaced one. */
gboolean strobe_live_map_insert (StrobeLiveMap *m, guint64 key, guint32 space, guint32 value, guint32 *old);
gboolean strobe_live_map_remove (StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value);
/* Calls @fn for each entry (the map must not change meanwhile). */
void     strobe_live_map_foreach (const StrobeLiveMap *m,
                                  void (*fn) (guint64 key, guint32 space, guint32 value, gpointer user),
                                  gpointer user);
gsize    strobe_live_map_bytes  (const StrobeLiveMap *m);

G_END_DECLS
