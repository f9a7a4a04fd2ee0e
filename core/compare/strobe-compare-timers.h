/* strobe-compare-timers.h — timers A vs B: per scope name the timer statistics of each
 * trace (strobe_timer_stats_compute, exactly what `strobe-cli stats` prints), matched by
 * name; and the frame times of each frame kind as rows of the same shape.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-range.h"
#include "strobe-duration-sketch.h"
#include "strobe-timer-stats.h"

G_BEGIN_DECLS

/* Which traces a row is in. */
typedef enum /*< flags >*/
{
  STROBE_COMPARE_IN_A    = 1 << 0,
  STROBE_COMPARE_IN_B    = 1 << 1,
  STROBE_COMPARE_IN_BOTH = STROBE_COMPARE_IN_A | STROBE_COMPARE_IN_B,
} StrobeCompareIn;

typedef enum
{
  STROBE_COMPARE_COUNT,
  STROBE_COMPARE_INCL,
  STROBE_COMPARE_EXCL,
  STROBE_COMPARE_MEAN,
  STROBE_COMPARE_MEDIAN,
  STROBE_COMPARE_P95,
  STROBE_COMPARE_MAX,
  STROBE_COMPARE_MIN,
  STROBE_COMPARE_N_METRICS,
} StrobeCompareMetric;

/* How totals are put on one footing when the two captures differ in length. */
typedef enum
{
  STROBE_COMPARE_NORM_TOTAL,       /* as measured */
  STROBE_COMPARE_NORM_PER_FRAME,   /* count, incl and excl divided by the span's game frames */
  STROBE_COMPARE_NORM_PER_CALL,    /* incl and excl divided by the count */
} StrobeCompareNorm;

typedef struct
{
  char            *name;      /* a scope's name, or "frame.game" / "frame.render" */
  StrobeCompareIn  in;
  StrobeTimerStat  a, b;      /* all zero where the name is not in that trace (their names are NULL) */
} StrobeCompareTimer;

/* "count", "incl", "excl", "mean", "median", "p95", "max", "min"; parse: N_METRICS when unknown. */
const char          *strobe_compare_metric_name  (StrobeCompareMetric metric);
StrobeCompareMetric  strobe_compare_metric_parse (const char *name);
/* Counts are not times. */
gboolean             strobe_compare_metric_is_time (StrobeCompareMetric metric);

/* A new array of StrobeCompareTimer for the scopes of @a in @span_a and of @b in
 * @span_b, sorted by name; NULL with @error when cancelled. Both documents need their
 * timeline model. The two computations run at once, B's on a thread of its own (each on
 * up to 4 threads of its own when its trace has several). */
GArray  *strobe_compare_timers       (StrobeDocument *a, const StrobeCompareSpan *span_a,
                                      StrobeDocument *b, const StrobeCompareSpan *span_b,
                                      GCancellable *cancellable, GError **error);

/* The same rows from each trace's StrobeTimerStat array, however they were computed (a
 * StrobeTimerStream's give the same figures: `strobe-cli compare` without a timeline
 * model); @a and @b are sorted by name, their names copied. */
GArray  *strobe_compare_timers_from_stats (GArray *a, GArray *b);

/* Each trace's durations per scope name, kept from the statistics' pass (sketches: exact
 * up to STROBE_DURATION_SKETCH_EXACT scopes a name, then within 1/256), so a timer's
 * histogram needs no second walk over the scopes. Refcounted; read-only, any thread. */
typedef struct _StrobeCompareSketches StrobeCompareSketches;

StrobeCompareSketches      *strobe_compare_sketches_ref   (StrobeCompareSketches *self);
void                        strobe_compare_sketches_unref (StrobeCompareSketches *self);
/* @row's durations in trace @side (STROBE_COMPARE_IN_A or _IN_B); NULL when it is not in it. */
const StrobeDurationSketch *strobe_compare_sketches_get   (StrobeCompareSketches *self, const StrobeCompareTimer *row,
                                                           StrobeCompareIn side);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCompareSketches, strobe_compare_sketches_unref)

/* How far a timers pass has come, for a progress bar read on another thread while the
 * pass runs: @done (atomic) counts the steps of STROBE_TIMER_STATS_PROGRESS_SCOPES scopes
 * walked in either trace, @total (atomic too) the steps both spans are expected to take (from each
 * trace's scope count and the share of its time the span covers). */
typedef struct
{
  gint done;
  gint total;
} StrobeCompareProgress;

void     strobe_compare_progress_init     (StrobeCompareProgress *progress,
                                           StrobeDocument *a, const StrobeCompareSpan *span_a,
                                           StrobeDocument *b, const StrobeCompareSpan *span_b);
/* In [0, 1]; any thread. */
gdouble  strobe_compare_progress_fraction (StrobeCompareProgress *progress);

/* strobe_compare_timers(), also giving in @sketches (when not NULL) the durations the rows
 * rest on, and counting its steps in @progress (when not NULL, set up with
 * strobe_compare_progress_init()). */
GArray  *strobe_compare_timers_full  (StrobeDocument *a, const StrobeCompareSpan *span_a,
                                      StrobeDocument *b, const StrobeCompareSpan *span_b,
                                      StrobeCompareSketches **sketches,
                                      StrobeCompareProgress *progress,
                                      GCancellable *cancellable, GError **error);
/* The frame times of each kind (rows "frame.game", "frame.render"; a kind neither trace
 * has is left out): frames ending inside each span, count, total, min, max, mean, median
 * and p95 of their durations (incl and excl both the total). */
GArray  *strobe_compare_frames       (StrobeDocument *a, const StrobeCompareSpan *span_a,
                                      StrobeDocument *b, const StrobeCompareSpan *span_b);

/* @metric of @stat under @norm (in ticks for times); NaN when the normalisation has
 * nothing to divide by (no frames, no calls). */
gdouble  strobe_compare_timer_value  (const StrobeTimerStat *stat, StrobeCompareMetric metric,
                                      StrobeCompareNorm norm, const StrobeCompareSpan *span);
/* B − A and (B − A) / A in percent (NaN when A is 0 or either is missing). */
void     strobe_compare_delta        (gdouble a, gdouble b, gdouble *delta, gdouble *percent);

G_END_DECLS
