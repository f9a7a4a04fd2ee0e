/* strobe-compare-histogram.h — the distributions behind a compare row, as Tracy draws
 * them: the durations of one timer (or of frames) in each trace, binned on one shared
 * axis (linear or logarithmic) with each trace's median.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-timers.h"

G_BEGIN_DECLS

/* Ticks (guint64) of every completed scope named @name in @span, clipped to it as the
 * timer statistics clip them (so the median is the table's), or of every finished frame
 * of a kind for "frame.game" / "frame.render" (strobe_timer_stats_durations); NULL with
 * @error when cancelled. */
GArray *strobe_compare_durations (StrobeDocument *document, const char *name, const StrobeCompareSpan *span,
                                  GCancellable *cancellable, GError **error);

typedef struct
{
  guint    n_bins;
  gboolean log;            /* bin edges evenly spaced in log10 of the seconds */
  gdouble  lo, hi;         /* seconds at the first bin's left edge and the last's right */
  guint64 *a, *b;          /* counts per bin */
  guint64  max;            /* the largest count of either */
  gdouble  median_a, median_b;   /* seconds; NaN when that trace has none */
  guint64  n_a, n_b;
} StrobeCompareHistogram;

/* Bins both sets (ticks of each trace's clock, reordered) on one axis of seconds: one pass
 * for the ends, the statistics' selection for the medians, a binary search among the
 * bins' edges per value. @n_bins ≥ 1. */
StrobeCompareHistogram *strobe_compare_histogram_new  (GArray *a, const StrobeTraceClock *clock_a,
                                                       GArray *b, const StrobeTraceClock *clock_b,
                                                       guint n_bins, gboolean log);
/* The histograms of @row from the durations its statistics' pass kept (no walk over the
 * scopes: microseconds, however many there are); counts, ends and medians are the row's. A
 * bucket of a sketch past its exact size lands in the bin of its middle (within 1/256). */
StrobeCompareHistogram *strobe_compare_histogram_new_sketched (StrobeCompareSketches *sketches,
                                                               const StrobeCompareTimer *row,
                                                               const StrobeTraceClock *clock_a,
                                                               const StrobeTraceClock *clock_b,
                                                               guint n_bins, gboolean log);
void                    strobe_compare_histogram_free (StrobeCompareHistogram *self);
/* Where @seconds falls on the axis, 0 to 1 (clamped). */
gdouble                 strobe_compare_histogram_position (const StrobeCompareHistogram *self, gdouble seconds);
/* The left edge of bin @i in seconds (@i = n_bins: the right edge). */
gdouble                 strobe_compare_histogram_edge (const StrobeCompareHistogram *self, guint i);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCompareHistogram, strobe_compare_histogram_free)

G_END_DECLS
