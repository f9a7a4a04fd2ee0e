/* strobe-scope-search.h — find every CPU scope whose name contains a text, over every
 * thread and depth of a timeline (the timeline's Ctrl+F).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 name_id;
  guint16 thread_id;
  guint16 depth;
} StrobeScopeMatch;

/* Completed scopes whose name contains @text (case-insensitively), in order of begin time
 * (then thread, then depth): a new array of StrobeScopeMatch holding at most @max of them
 * (the earliest), and in @total how many there are. NULL when cancelled. Runs on any
 * thread; the model's read lock is held for one track's count or walk at a time. */
GArray *strobe_scope_search (StrobeTimelineModel *model,
                             const char          *text,
                             guint                max,
                             guint64             *total,
                             GCancellable        *cancellable,
                             GError             **error);

/* The same, with @progress (when not NULL) increased atomically by one for every
 * STROBE_TIMER_STATS_PROGRESS_SCOPES scopes passed, walked or jumped over with their
 * summary block, on every thread of the trace: it ends at strobe_scope_search_steps() for
 * a trace that did not grow meanwhile (and stays at 0 when no name matches: nothing is
 * walked). The tracks are shared out among the caller and a helper per extra core (up to
 * 4), which inherit the caller's priority; the answer is the same as one walk's. */
GArray *strobe_scope_search_full (StrobeTimelineModel *model,
                                  const char          *text,
                                  guint                max,
                                  guint64             *total,
                                  gint                *progress,
                                  GCancellable        *cancellable,
                                  GError             **error);

/* Where the progress of a search of the whole of @model ends: its scopes over a step. */
guint64 strobe_scope_search_steps (StrobeTimelineModel *model);

/* For tests: a progress step every @step_scopes scopes (0: the real step) and a sleep of
 * @step_delay_us at each (a slow search, to watch its progress), on @workers threads (0:
 * one per core). */
void strobe_scope_search_set_test_pace (guint step_scopes,
                                        guint step_delay_us,
                                        guint workers);

/* The longest completed scope named @name_id that overlaps [t0, t1] (its whole length, not
 * clipped; of equal ones the first by thread, depth and time): FALSE when there is none
 * (or on cancel, with @error set). The tracks are shared out as for a search. */
gboolean strobe_scope_search_longest (StrobeTimelineModel *model,
                                      guint32              name_id,
                                      guint64              t0,
                                      guint64              t1,
                                      StrobeScopeMatch    *out,
                                      GCancellable        *cancellable,
                                      GError             **error);

G_END_DECLS
