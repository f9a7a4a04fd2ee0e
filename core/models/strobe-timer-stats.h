/* strobe-timer-stats.h — per scope name statistics over the whole trace or a time range,
 * computed from a StrobeTimelineModel (which may still be growing).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

/* All times in clock ticks. A scope that overlaps the range counts with its duration
 * clipped to the range (one that only touches it, ending at t0 or beginning at t1, does
 * not); exclusive time is the (clipped) inclusive time minus that of its
 * direct children. min, max, mean and median are of the inclusive times. */
typedef struct
{
  guint32 name_id;
  char   *name;
  guint64 count;
  guint64 inclusive;       /* total */
  guint64 exclusive;       /* total */
  guint64 min;
  guint64 max;
  gdouble mean;
  gdouble median;          /* the middle value, or the mean of the two middle ones */
  guint64 p95;             /* the nearest-rank 95th percentile (the ⌈0.95 n⌉-th smallest);
                            * both exact for up to STROBE_DURATION_SKETCH_EXACT scopes a name
                            * when every scope was walked, else within 1/256
                            * (strobe-duration-sketch.h, strobe-timer-summary.h) */
} StrobeTimerStat;

#define STROBE_TIMER_STATS_ALL_THREADS (-1)

/* A new array of StrobeTimerStat (names freed with it) for scopes overlapping [t0, t1] on
 * @thread_id (or every thread), sorted by inclusive total, largest first, then by name.
 * Completed scopes only (and those closed at the end of the trace). Per thread and depth:
 * O(log n) to find the range, the summary blocks wholly inside it merged (one per
 * STROBE_TIMER_SUMMARY_SCOPES scopes) and the scopes at its two ends walked. */
GArray *strobe_timer_stats_compute (StrobeTimelineModel *model,
                                    guint64              t0,
                                    guint64              t1,
                                    gint                 thread_id);
/* The same, for a worker thread: NULL (and @error set) when @cancellable was cancelled.
 * The model's read lock is taken per thread of the trace, not for the whole computation,
 * so a live decoder is held back for one thread's pass at most. */
GArray *strobe_timer_stats_compute_full (StrobeTimelineModel *model,
                                         guint64              t0,
                                         guint64              t1,
                                         gint                 thread_id,
                                         GCancellable        *cancellable,
                                         GError             **error);
/* How many scopes a pass walks for each step of its progress counter. */
#define STROBE_TIMER_STATS_PROGRESS_SCOPES 16384
/* The steps a pass over [@t0, @t1] makes, estimated: the trace's scopes times the share
 * of its time the range covers, over STROBE_TIMER_STATS_PROGRESS_SCOPES (a progress bar's
 * total). Takes the model's read lock: for a worker while a trace loads. */
guint64 strobe_timer_stats_estimate_steps (StrobeTimelineModel *model, guint64 t0, guint64 t1);

/* The same, with in @sketches (when not NULL) a new array indexed by name id of each
 * counted name's durations (StrobeDurationSketch, strobe-duration-sketch.h; NULL for a
 * name not counted): the same pass gives a timer's histogram, no second walk. When
 * @progress is not NULL, it is increased atomically by one for every
 * STROBE_TIMER_STATS_PROGRESS_SCOPES scopes walked on a thread of the trace (another
 * thread may read it while the pass runs: a progress bar of a pass over millions). */
GArray *strobe_timer_stats_compute_sketched (StrobeTimelineModel *model,
                                             guint64              t0,
                                             guint64              t1,
                                             gint                 thread_id,
                                             GPtrArray          **sketches,
                                             gint                *progress,
                                             GCancellable        *cancellable,
                                             GError             **error);

/* The inclusive times (guint64 ticks, clipped as the statistics clip them, so their median
 * is the statistics' one) of every completed scope named @name_id in [t0, t1] on every
 * thread, in no particular order: for a timer's histogram. NULL (and @error set) when
 * @cancellable was cancelled. */
GArray *strobe_timer_stats_durations (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1,
                                      GCancellable *cancellable, GError **error);

G_END_DECLS
