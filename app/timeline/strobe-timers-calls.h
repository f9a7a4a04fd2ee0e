/* strobe-timers-calls.h — what the timers panel shows besides its table, computed on the
 * timeline's background pool: the chosen timer's callers and callees (one walk of the
 * range's scopes, strobe_call_tree_links()) and the range's call tree for the flame graph
 * (strobe_call_tree_compute_full()). Each is asked for with what it is of; a request for
 * something else cancels the one running, and each says how far it is. When a timer's
 * callers took long (a fifth of a second) in a trace read to its end, every timer's of the
 * range are found next (strobe_call_tree_pairs()) and kept: the next timers chosen there
 * are answered at once.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

#include "strobe-cost-tree.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMERS_CALLS (strobe_timers_calls_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimersCalls, strobe_timers_calls, STROBE, TIMERS_CALLS, GObject)

typedef enum
{
  STROBE_TIMERS_CALLS_LINKS,
  STROBE_TIMERS_CALLS_TREE,
} StrobeTimersCallsKind;

/* "changed" (kind): a result came, or (every quarter second while one runs long) its
 * progress moved. */
StrobeTimersCalls *strobe_timers_calls_new            (void);
/* Cancels what runs; no more "changed". */
void               strobe_timers_calls_stop           (StrobeTimersCalls     *self);
/* The callers and callees of @name_id in [@t0, @t1] of @model as it was at @generation:
 * nothing when that is what is shown or being found; there on return (no "changed") when
 * every timer's of the range were found; waiting for those when they are being found. */
void               strobe_timers_calls_want_links     (StrobeTimersCalls     *self,
                                                       StrobeTimelineModel   *model,
                                                       guint32                name_id,
                                                       guint64                t0,
                                                       guint64                t1,
                                                       guint64                generation);
/* The call tree of [@t0, @t1], likewise. */
void               strobe_timers_calls_want_tree      (StrobeTimersCalls     *self,
                                                       StrobeTimelineModel   *model,
                                                       guint64                t0,
                                                       guint64                t1,
                                                       guint64                generation);
/* Something is being found for another name or range than the last result's (not merely
 * for more of a growing trace, whose last result stays meanwhile). */
gboolean           strobe_timers_calls_is_waited      (StrobeTimersCalls     *self,
                                                       StrobeTimersCallsKind  kind,
                                                       guint32                name_id,
                                                       guint64                t0,
                                                       guint64                t1);
gboolean           strobe_timers_calls_is_busy        (StrobeTimersCalls     *self);
/* How far what runs is, 0–99; -1 until it has run a quarter second. */
gint               strobe_timers_calls_get_percent    (StrobeTimersCalls     *self,
                                                       StrobeTimersCallsKind  kind);
/* The last results (StrobeCallLink arrays, largest first; NULL before the first); for
 * @name_id, or the tree's. */
GArray            *strobe_timers_calls_get_callers    (StrobeTimersCalls     *self,
                                                       guint32               *name_id);
GArray            *strobe_timers_calls_get_callees    (StrobeTimersCalls     *self);
StrobeCostTree    *strobe_timers_calls_get_tree       (StrobeTimersCalls     *self);
/* For tests: every timer's links are found after a timer's took @us (-1: the default). */
void               strobe_timers_calls_set_test_pairs_after (gint64             us);

G_END_DECLS
