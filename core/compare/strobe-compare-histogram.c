/* strobe-compare-histogram.c — durations of one timer in two traces, binned together.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-compare-histogram.h"

static gboolean
frame_durations (StrobeTimelineModel *timeline, guint kind, const StrobeCompareSpan *span,
                 const StrobeTraceClock *clock, GArray *out)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));

  strobe_timeline_model_get_frames (timeline, kind, span->t0, span->t1, frames);
  for (guint i = 0; i < frames->len; i++)
    {
      const StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, i);
      gdouble s;

      if (!strobe_compare_span_has_frame (span, f))
        continue;
      s = strobe_trace_clock_duration (clock, f->end - f->begin);
      g_array_append_val (out, s);
    }
  return TRUE;
}

GArray *
strobe_compare_durations (StrobeDocument *document, const char *name, const StrobeCompareSpan *span,
                          GCancellable *cancellable, GError **error)
{
  StrobeTimelineModel *timeline;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GArray) threads = NULL;
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  StrobeTraceClock clock;
  guint n_names;
  gint64 id = -1;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (name != NULL && span != NULL, NULL);
  timeline = strobe_document_get_timeline (document);
  g_return_val_if_fail (timeline != NULL, NULL);

  strobe_document_get_clock (document, &clock);
  if (g_str_equal (name, "frame.game") || g_str_equal (name, "frame.render"))
    {
      frame_durations (timeline, g_str_equal (name, "frame.game") ? STROBE_TIMELINE_FRAME_GAME
                                                                   : STROBE_TIMELINE_FRAME_RENDER, span, &clock, out);
      return g_steal_pointer (&out);
    }
  n_names = strobe_timeline_model_get_n_names (timeline);
  for (guint n = 0; n < n_names && id < 0; n++)
    if (g_strcmp0 (strobe_timeline_model_get_name (timeline, n), name) == 0)
      id = n;
  if (id < 0)
    return g_steal_pointer (&out);
  threads = strobe_timeline_model_get_threads (timeline);
  for (guint t = 0; t < threads->len; t++)
    {
      guint16 thread = g_array_index (threads, guint16, t);
      guint depths = strobe_timeline_model_get_depth_count (timeline, thread);

      for (guint d = 0; d < depths; d++)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return NULL;
          g_array_set_size (scopes, 0);
          strobe_timeline_model_get_scopes (timeline, thread, d, span->t0, span->t1, scopes);
          for (guint i = 0; i < scopes->len; i++)
            {
              const StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, i);
              guint64 lo = MAX (s->begin, span->t0), hi = MIN (s->end, span->t1);
              gdouble secs;

              if (s->name_id != id || (s->flags & STROBE_SCOPE_OPEN))
                continue;
              /* The statistics' rule: clipped to the span, touching is not inside. */
              if (hi <= lo && s->end > s->begin)
                continue;
              secs = strobe_trace_clock_duration (&clock, hi > lo ? hi - lo : 0);
              g_array_append_val (out, secs);
            }
        }
    }
  return g_steal_pointer (&out);
}

static gdouble
median_of (GArray *v)
{
  gdouble *x = (gdouble *) (gpointer) v->data;
  guint n = v->len;

  /* Sorted already (below): the statistics' median, the mean of the middle two. */
  if (n == 0)
    return NAN;
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static gint
cmp_double (gconstpointer x, gconstpointer y)
{
  gdouble a = *(const gdouble *) x, b = *(const gdouble *) y;
  return (a > b) - (a < b);
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

static void
fill (StrobeCompareHistogram *self, GArray *v, guint64 *bins)
{
  for (guint i = 0; i < v->len; i++)
    {
      guint k = (guint) (strobe_compare_histogram_position (self, g_array_index (v, gdouble, i)) * self->n_bins);

      bins[MIN (k, self->n_bins - 1)]++;
    }
  for (guint k = 0; k < self->n_bins; k++)
    self->max = MAX (self->max, bins[k]);
}

StrobeCompareHistogram *
strobe_compare_histogram_new (GArray *a, GArray *b, guint n_bins, gboolean log)
{
  StrobeCompareHistogram *self;
  gdouble lo = G_MAXDOUBLE, hi = 0;

  g_return_val_if_fail (a != NULL && b != NULL && n_bins >= 1, NULL);

  g_array_sort (a, cmp_double);
  g_array_sort (b, cmp_double);
  self = g_new0 (StrobeCompareHistogram, 1);
  self->n_bins = n_bins;
  self->log = log;
  self->a = g_new0 (guint64, n_bins);
  self->b = g_new0 (guint64, n_bins);
  self->n_a = a->len;
  self->n_b = b->len;
  self->median_a = median_of (a);
  self->median_b = median_of (b);
  if (a->len)
    lo = MIN (lo, g_array_index (a, gdouble, 0)), hi = MAX (hi, g_array_index (a, gdouble, a->len - 1));
  if (b->len)
    lo = MIN (lo, g_array_index (b, gdouble, 0)), hi = MAX (hi, g_array_index (b, gdouble, b->len - 1));
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
  fill (self, a, self->a);
  fill (self, b, self->b);
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
