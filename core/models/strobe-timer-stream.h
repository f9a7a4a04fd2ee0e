/* strobe-timer-stream.h — timer statistics of a whole trace computed as it is decoded,
 * without a timeline model: per thread only the scopes open now, per name an accumulator
 * (count, inclusive and exclusive totals, min, max exact; the median from a sketch,
 * strobe-duration-sketch.h). What `strobe-cli stats` runs: a billion scopes in a few MB.
 *
 * The answers equal strobe_timer_stats_compute() over a StrobeTimelineModel fed the same
 * trace (the same nesting limits, the same closing of scopes still open at the end).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-timer-stats.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMER_STREAM (strobe_timer_stream_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimerStream, strobe_timer_stream, STROBE, TIMER_STREAM, GObject)

/* Scopes overlapping [@t0, @t1] (ticks; their time clipped to it) on @thread_id or on
 * every thread (STROBE_TIMER_STATS_ALL_THREADS). */
StrobeTimerStream *strobe_timer_stream_new       (guint64            t0,
                                                  guint64            t1,
                                                  gint               thread_id);
/* Only the nesting: which scopes the timeline model would not keep
 * (strobe_timer_stream_get_overflows), no scope timed — `strobe-cli info` without a model.
 * Its statistics are an empty array. */
StrobeTimerStream *strobe_timer_stream_new_nesting_only (void);
/* Once the decoder ended: the StrobeTimerStat array of strobe_timer_stats_compute()
 * (a new reference). NULL before. */
GArray            *strobe_timer_stream_get_stats (StrobeTimerStream *self);
/* Scopes not kept, as the timeline model counts them (StrobeTimelineStats). */
void               strobe_timer_stream_get_overflows (StrobeTimerStream *self,
                                                      guint64           *depth_overflows,
                                                      guint64           *budget_overflows);

/* Before loading: walk the batches on @lanes worker threads (at most 4; 0, the default:
 * in the decoder's callback), each trace thread on one lane, the decoder's thread copying
 * them ahead by at most 2 MiB a lane. The statistics are the single walk's — unless a
 * limit shared by every thread was reached (the nesting budget, the name ids), where the
 * order across threads decides: strobe_timer_stream_is_contested() then says to read the
 * trace again without lanes. */
void               strobe_timer_stream_set_lanes (StrobeTimerStream *self,
                                                  guint              lanes);
gboolean           strobe_timer_stream_is_contested (StrobeTimerStream *self);

G_END_DECLS
