/* strobe-threads-model.h — the threads of a trace (stream id, OS id, name, group, sort
 * order) and the process name. Safe to query from any thread while it grows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef struct
{
  guint16  id;            /* stream id (16..), as in the trace */
  guint64  system_id;     /* OS thread id */
  char    *name;          /* "" when the thread never named itself */
  char    *group;         /* "" when none */
  gint32   sort_hint;
  guint    order;         /* position in display order, from 0 */
  gboolean ended;
  guint64  end_time;      /* ticks, when ended */
} StrobeThreadInfo;

#define STROBE_TYPE_THREADS_MODEL (strobe_threads_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeThreadsModel, strobe_threads_model, STROBE, THREADS_MODEL, GObject)

StrobeThreadsModel *strobe_threads_model_new              (void);
/* A new array of StrobeThreadInfo (copies, freed with the array) in display order: groups
 * ordered by the smallest sort hint of their threads, then by name (threads without a
 * group are groups of their own); within a group by sort hint, then stream id. */
GArray             *strobe_threads_model_get_threads      (StrobeThreadsModel *self);
/* Copy of one thread's info into @out (free its strings with strobe_thread_info_clear). */
gboolean            strobe_threads_model_lookup           (StrobeThreadsModel *self,
                                                           guint16             id,
                                                           StrobeThreadInfo   *out);
void                strobe_thread_info_clear              (StrobeThreadInfo   *info);
/* Misc.ProcessInfo's name, else the program name of the handshake, else "". Newly allocated. */
char               *strobe_threads_model_dup_process_name (StrobeThreadsModel *self);
guint32             strobe_threads_model_get_process_id   (StrobeThreadsModel *self);

G_END_DECLS
