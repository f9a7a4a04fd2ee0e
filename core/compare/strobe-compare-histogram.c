/* strobe-compare-histogram.c — durations of one timer in two traces, binned together.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-compare-histogram.h"
#include "strobe-durations.h"
#include "strobe-timer-stats.h"

static void
frame_durations (StrobeTimelineModel *timeline, guint kind, const StrobeCompareSpan *span, GArray *out)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));

  strobe_timeline_model_get_frames (timeline, kind, span->t0, span->t1, frames);
  for (guint i = 0; i < frames->len; i++)
    {
      const StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, i);
      guint64 d = f->end - f->begin;

      if (strobe_compare_span_has_frame (span, f))
        g_array_append_val (out, d);
    }
}

GArray *
strobe_compare_durations (StrobeDocument *document, const char *name, const StrobeCompareSpan *span,
                          GCancellable *cancellable, GError **error)
{
  StrobeTimelineModel *timeline;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint32 id;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (name != NULL && span != NULL, NULL);
  timeline = strobe_document_get_timeline (document);
  g_return_val_if_fail (timeline != NULL, NULL);

  if (g_str_equal (name, "frame.game") || g_str_equal (name, "frame.render"))
    {
      frame_durations (timeline, g_str_equal (name, "frame.game") ? STROBE_TIMELINE_FRAME_GAME
                                                                   : STROBE_TIMELINE_FRAME_RENDER, span, out);
      return g_steal_pointer (&out);
    }
  if (!strobe_timeline_model_find_name (timeline, name, &id))
    return g_steal_pointer (&out);
  return strobe_timer_stats_durations (timeline, id, span->t0, span->t1, cancellable, error);
}

gdouble
strobe_compare_histogram_edge (const StrobeCompareHistogram *self, guint i)
{
  gdouble f = (gdouble) i / self->n_bins;

  if (self->log)
    return pow (10, log10 (self->lo) + f * (log10 (self->hi) - log10 (self->lo)));
  return self->lo + f * (self->hi - self->lo);
}

gdouble
strobe_compare_histogram_position (const StrobeCompareHistogram *self, gdouble s)
{
  gdouble f;

  g_return_val_if_fail (self != NULL, 0);
  if (self->log)
    f = (log10 (MAX (s, self->lo)) - log10 (self->lo)) / (log10 (self->hi) - log10 (self->lo));
  else
    f = (s - self->lo) / (self->hi - self->lo);
  return CLAMP (f, 0, 1);
}

/* The bin of @seconds: a binary search among the edges (no logarithm per value). */
static guint
bin_of (const gdouble *edges, guint n_bins, gdouble seconds)
{
  guint lo = 0, hi = n_bins;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (seconds >= edges[mid])
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static void
fill (StrobeCompareHistogram *self, const gdouble *edges, GArray *v, const StrobeTraceClock *clock, guint64 *bins)
{
  for (guint i = 0; i < v->len; i++)
    bins[bin_of (edges, self->n_bins, strobe_trace_clock_duration (clock, g_array_index (v, guint64, i)))]++;
  for (guint k = 0; k < self->n_bins; k++)
    self->max = MAX (self->max, bins[k]);
}

static void
ends (GArray *v, const StrobeTraceClock *clock, gdouble *lo, gdouble *hi)
{
  guint64 min = G_MAXUINT64, max = 0;

  if (v->len == 0)
    return;
  for (guint i = 0; i < v->len; i++)
    {
      guint64 x = g_array_index (v, guint64, i);
      min = MIN (min, x);
      max = MAX (max, x);
    }
  *lo = MIN (*lo, strobe_trace_clock_duration (clock, min));
  *hi = MAX (*hi, strobe_trace_clock_duration (clock, max));
}

static gdouble
median_seconds (GArray *v, const StrobeTraceClock *clock)
{
  if (v->len == 0)
    return NAN;
  /* The statistics' own median, so the chart's mark is the table's figure. */
  return strobe_trace_clock_ticks_to_seconds (clock, strobe_durations_median ((guint64 *) (gpointer) v->data, v->len));
}

/* The axis from the shortest and longest durations of either (seconds), its edges. */
static StrobeCompareHistogram *
axis_new (gdouble lo, gdouble hi, guint n_bins, gboolean log, gdouble **edges)
{
  StrobeCompareHistogram *self = g_new0 (StrobeCompareHistogram, 1);

  self->n_bins = n_bins;
  self->log = log;
  self->a = g_new0 (guint64, n_bins);
  self->b = g_new0 (guint64, n_bins);
  if (lo > hi)
    lo = hi = 0;
  /* A log axis starts at the shortest positive duration (a nanosecond at least). */
  if (log)
    {
      lo = MAX (lo, 1e-9);
      hi = MAX (hi, lo);
    }
  if (hi <= lo)
    hi = lo > 0 ? lo * (log ? 10 : 2) : 1e-6;
  self->lo = lo;
  self->hi = hi;
  *edges = g_new (gdouble, n_bins + 1);
  for (guint k = 0; k <= n_bins; k++)
    (*edges)[k] = strobe_compare_histogram_edge (self, k);
  return self;
}

StrobeCompareHistogram *
strobe_compare_histogram_new (GArray *a, const StrobeTraceClock *clock_a, GArray *b, const StrobeTraceClock *clock_b,
                              guint n_bins, gboolean log)
{
  StrobeCompareHistogram *self;
  g_autofree gdouble *edges = NULL;
  gdouble lo = G_MAXDOUBLE, hi = 0;

  g_return_val_if_fail (a != NULL && b != NULL && clock_a != NULL && clock_b != NULL && n_bins >= 1, NULL);

  ends (a, clock_a, &lo, &hi);
  ends (b, clock_b, &lo, &hi);
  self = axis_new (lo, hi, n_bins, log, &edges);
  self->n_a = a->len;
  self->n_b = b->len;
  self->median_a = median_seconds (a, clock_a);
  self->median_b = median_seconds (b, clock_b);
  fill (self, edges, a, clock_a, self->a);
  fill (self, edges, b, clock_b, self->b);
  return self;
}

typedef struct
{
  StrobeCompareHistogram *self;
  const gdouble          *edges;
  const StrobeTraceClock *clock;
  guint64                *bins;
} Fill;

/* A run of values goes to the bin of its middle: exact for single values, and a bucket of
 * the sketch is narrower than its 1/256 of the value, far below a bin. */
static void
fill_run (guint64 low, guint64 width, guint64 count, gpointer data)
{
  Fill *f = data;
  gdouble s = strobe_trace_clock_ticks_to_seconds (f->clock, (gdouble) low + (gdouble) (width - 1) / 2);

  f->bins[bin_of (f->edges, f->self->n_bins, s)] += count;
}

static void
fill_sketch (StrobeCompareHistogram *self, const gdouble *edges, const StrobeDurationSketch *sketch,
             const StrobeTraceClock *clock, guint64 *bins)
{
  Fill f = { self, edges, clock, bins };

  if (sketch)
    strobe_duration_sketch_foreach (sketch, fill_run, &f);
  for (guint k = 0; k < self->n_bins; k++)
    self->max = MAX (self->max, bins[k]);
}

StrobeCompareHistogram *
strobe_compare_histogram_new_sketched (StrobeCompareSketches *sketches, const StrobeCompareTimer *row,
                                       const StrobeTraceClock *clock_a, const StrobeTraceClock *clock_b,
                                       guint n_bins, gboolean log)
{
  const StrobeDurationSketch *sa, *sb;
  StrobeCompareHistogram *self;
  g_autofree gdouble *edges = NULL;
  gdouble lo = G_MAXDOUBLE, hi = 0;

  g_return_val_if_fail (sketches != NULL && row != NULL && clock_a != NULL && clock_b != NULL && n_bins >= 1, NULL);

  sa = strobe_compare_sketches_get (sketches, row, STROBE_COMPARE_IN_A);
  sb = strobe_compare_sketches_get (sketches, row, STROBE_COMPARE_IN_B);
  /* The ends, counts and medians are the table's own exact figures. */
  if (sa)
    {
      lo = MIN (lo, strobe_trace_clock_duration (clock_a, row->a.min));
      hi = MAX (hi, strobe_trace_clock_duration (clock_a, row->a.max));
    }
  if (sb)
    {
      lo = MIN (lo, strobe_trace_clock_duration (clock_b, row->b.min));
      hi = MAX (hi, strobe_trace_clock_duration (clock_b, row->b.max));
    }
  self = axis_new (lo, hi, n_bins, log, &edges);
  self->n_a = sa ? row->a.count : 0;
  self->n_b = sb ? row->b.count : 0;
  self->median_a = sa ? strobe_trace_clock_ticks_to_seconds (clock_a, row->a.median) : NAN;
  self->median_b = sb ? strobe_trace_clock_ticks_to_seconds (clock_b, row->b.median) : NAN;
  fill_sketch (self, edges, sa, clock_a, self->a);
  fill_sketch (self, edges, sb, clock_b, self->b);
  return self;
}

void
strobe_compare_histogram_free (StrobeCompareHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->a);
  g_free (self->b);
  g_free (self);
}
