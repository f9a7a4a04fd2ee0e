/* strobe-threads-model.h — the threads of a trace (stream id, OS id, name, group, sort
 * order) and the process name. Safe to query from any thread while it grows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_THREAD_RUNNING,          /* no $Trace.ThreadEnd yet, and the trace goes on */
  STROBE_THREAD_ENDED,            /* its $Trace.ThreadEnd was read */
  STROBE_THREAD_RUNNING_AT_END,   /* the trace ended (or broke off) before the thread did */
} StrobeThreadState;

typedef struct
{
  guint16  id;            /* stream id (16..), as in the trace */
  guint64  system_id;     /* OS thread id */
  char    *name;          /* "" when the thread never named itself */
  char    *group;         /* "" when none */
  gint32   sort_hint;
  guint    order;         /* position in display order, from 0 */
  guint8   state;         /* StrobeThreadState */
  gboolean ended;         /* state != STROBE_THREAD_RUNNING */
  guint64  end_time;      /* ticks: its ThreadEnd's, or the trace's last for RUNNING_AT_END */
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
/* The OS thread id of stream thread @id (its ThreadInfo's SystemId), 0 when unknown. */
guint64             strobe_threads_model_get_system_id    (StrobeThreadsModel *self,
                                                           guint16             id);
/* The stream thread whose OS id is @system_id (the latest ThreadInfo naming it: the
 * kernel reuses ids), 0 when none: what ties the Sampling channel's threads, named by OS
 * id, to the timeline's. */
guint16             strobe_threads_model_find_system      (StrobeThreadsModel *self,
                                                           guint64             system_id);
/* Misc.ProcessInfo's name, else the program name of the handshake, else "". Newly allocated. */
char               *strobe_threads_model_dup_process_name (StrobeThreadsModel *self);
guint32             strobe_threads_model_get_process_id   (StrobeThreadsModel *self);
/* Grows whenever a thread is added or changes. */
guint64             strobe_threads_model_get_generation   (StrobeThreadsModel *self);
/* Called by whoever reads the trace when it is over: threads without a ThreadEnd become
 * RUNNING_AT_END at @last_time (the trace's last timestamp). */
void                strobe_threads_model_set_trace_end    (StrobeThreadsModel *self,
                                                           guint64             last_time);
/* "running", "ended", "running at the end of the trace", translated. */
const char         *strobe_thread_state_to_string         (StrobeThreadState   state);

G_END_DECLS
