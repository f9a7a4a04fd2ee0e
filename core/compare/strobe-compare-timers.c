/* strobe-compare-timers.c — timers and frame times of two traces, matched by name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-compare-timers.h"
#include "strobe-durations.h"

static const char *const metric_names[STROBE_COMPARE_N_METRICS] = {
  "count", "incl", "excl", "mean", "median", "p95", "max", "min",
};

const char *
strobe_compare_metric_name (StrobeCompareMetric metric)
{
  g_return_val_if_fail (metric < STROBE_COMPARE_N_METRICS, "?");
  return metric_names[metric];
}

StrobeCompareMetric
strobe_compare_metric_parse (const char *name)
{
  for (guint i = 0; name && i < STROBE_COMPARE_N_METRICS; i++)
    if (g_str_equal (name, metric_names[i]))
      return i;
  return STROBE_COMPARE_N_METRICS;
}

gboolean
strobe_compare_metric_is_time (StrobeCompareMetric metric)
{
  return metric != STROBE_COMPARE_COUNT;
}

static void
timer_clear (gpointer data)
{
  g_free (((StrobeCompareTimer *) data)->name);
}

static gint
by_name (gconstpointer x, gconstpointer y)
{
  return strcmp (((const StrobeTimerStat *) x)->name, ((const StrobeTimerStat *) y)->name);
}

static GArray *
new_rows (void)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (StrobeCompareTimer));

  g_array_set_clear_func (rows, timer_clear);
  return rows;
}

/* Both sorted by name: one merge. The rows have copies of the names. */
static void
merge (GArray *rows, GArray *sa, GArray *sb)
{
  guint i = 0, j = 0;

  while (i < sa->len || j < sb->len)
    {
      StrobeTimerStat *x = i < sa->len ? &g_array_index (sa, StrobeTimerStat, i) : NULL;
      StrobeTimerStat *y = j < sb->len ? &g_array_index (sb, StrobeTimerStat, j) : NULL;
      int c = x && y ? strcmp (x->name, y->name) : x ? -1 : 1;
      StrobeCompareTimer row = { 0 };

      if (c <= 0)
        {
          row.a = *x;
          row.in |= STROBE_COMPARE_IN_A;
          i++;
        }
      if (c >= 0)
        {
          row.b = *y;
          row.in |= STROBE_COMPARE_IN_B;
          j++;
        }
      row.name = g_strdup (c <= 0 ? x->name : y->name);
      row.a.name = row.b.name = NULL;
      g_array_append_val (rows, row);
    }
}

GArray *
strobe_compare_timers_from_stats (GArray *a, GArray *b)
{
  GArray *rows;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  g_return_val_if_fail (g_array_get_element_size (a) == sizeof (StrobeTimerStat), NULL);
  g_return_val_if_fail (g_array_get_element_size (b) == sizeof (StrobeTimerStat), NULL);

  g_array_sort (a, by_name);
  g_array_sort (b, by_name);
  rows = new_rows ();
  merge (rows, a, b);
  return rows;
}

/* One trace's statistics; B's on a thread of its own while A's run on the caller, so two
 * traces take the time of one (each pass shares its threads out itself when the trace has
 * several; a single-threaded trace's pass is one core's work). */
typedef struct
{
  StrobeTimelineModel *timeline;
  const StrobeCompareSpan *span;
  gboolean             keep;
  gint                *progress;
  GCancellable        *cancellable;
  GArray              *stats;
  GPtrArray           *sketches;
  GError              *error;
} Side;

static gpointer
side_run (gpointer data)
{
  Side *s = data;

  s->stats = strobe_timer_stats_compute_sketched (s->timeline, s->span->t0, s->span->t1,
                                                  STROBE_TIMER_STATS_ALL_THREADS, s->keep ? &s->sketches : NULL,
                                                  s->progress, s->cancellable, &s->error);
  return NULL;
}

struct _StrobeCompareSketches
{
  gint       ref_count;
  GPtrArray *a, *b;      /* by name id of each trace */
};

StrobeCompareSketches *
strobe_compare_sketches_ref (StrobeCompareSketches *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
strobe_compare_sketches_unref (StrobeCompareSketches *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_clear_pointer (&self->a, g_ptr_array_unref);
  g_clear_pointer (&self->b, g_ptr_array_unref);
  g_free (self);
}

const StrobeDurationSketch *
strobe_compare_sketches_get (StrobeCompareSketches *self, const StrobeCompareTimer *row, StrobeCompareIn side)
{
  GPtrArray *v;
  const StrobeTimerStat *stat;

  g_return_val_if_fail (self != NULL && row != NULL, NULL);
  g_return_val_if_fail (side == STROBE_COMPARE_IN_A || side == STROBE_COMPARE_IN_B, NULL);
  if (!(row->in & side))
    return NULL;
  v = side == STROBE_COMPARE_IN_A ? self->a : self->b;
  stat = side == STROBE_COMPARE_IN_A ? &row->a : &row->b;
  return stat->name_id < v->len ? g_ptr_array_index (v, stat->name_id) : NULL;
}

/* The steps of one trace's pass (it walks the scopes of the span only). */
static guint64
expected_steps (StrobeDocument *doc, const StrobeCompareSpan *span)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (doc);

  if (timeline == NULL)
    return 0;
  return strobe_timer_stats_estimate_steps (timeline, span->t0, span->t1);
}

void
strobe_compare_progress_init (StrobeCompareProgress *progress, StrobeDocument *a, const StrobeCompareSpan *span_a,
                              StrobeDocument *b, const StrobeCompareSpan *span_b)
{
  g_return_if_fail (progress != NULL && STROBE_IS_DOCUMENT (a) && STROBE_IS_DOCUMENT (b));
  g_return_if_fail (span_a != NULL && span_b != NULL);

  g_atomic_int_set (&progress->done, 0);
  g_atomic_int_set (&progress->total, (gint) MIN (expected_steps (a, span_a) + expected_steps (b, span_b), G_MAXINT));
}

gdouble
strobe_compare_progress_fraction (StrobeCompareProgress *progress)
{
  gint total;

  g_return_val_if_fail (progress != NULL, 0);
  total = g_atomic_int_get (&progress->total);
  if (total <= 0)
    return 0;
  return MIN ((gdouble) g_atomic_int_get (&progress->done) / total, 1.0);
}

GArray *
strobe_compare_timers_full (StrobeDocument *a, const StrobeCompareSpan *span_a,
                            StrobeDocument *b, const StrobeCompareSpan *span_b,
                            StrobeCompareSketches **sketches, StrobeCompareProgress *progress,
                            GCancellable *cancellable, GError **error)
{
  Side sa = { 0 }, sb = { 0 };
  GThread *thread;
  GArray *rows = NULL;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (a) && STROBE_IS_DOCUMENT (b), NULL);
  g_return_val_if_fail (span_a != NULL && span_b != NULL, NULL);
  g_return_val_if_fail (strobe_document_get_timeline (a) && strobe_document_get_timeline (b), NULL);

  sa = (Side) { strobe_document_get_timeline (a), span_a, sketches != NULL, progress ? &progress->done : NULL,
                cancellable };
  sb = (Side) { strobe_document_get_timeline (b), span_b, sketches != NULL, progress ? &progress->done : NULL,
                cancellable };
  thread = g_thread_new ("strobe-compare", side_run, &sb);
  side_run (&sa);
  g_thread_join (thread);
  if (sa.stats == NULL || sb.stats == NULL)
    {
      g_propagate_error (error, sa.error ? sa.error : sb.error);
      g_clear_error (sa.error ? &sb.error : &sa.error);
      goto out;
    }
  rows = strobe_compare_timers_from_stats (sa.stats, sb.stats);
  if (sketches)
    {
      *sketches = g_new0 (StrobeCompareSketches, 1);
      (*sketches)->ref_count = 1;
      (*sketches)->a = g_steal_pointer (&sa.sketches);
      (*sketches)->b = g_steal_pointer (&sb.sketches);
    }
out:
  g_clear_pointer (&sa.stats, g_array_unref);
  g_clear_pointer (&sb.stats, g_array_unref);
  g_clear_pointer (&sa.sketches, g_ptr_array_unref);
  g_clear_pointer (&sb.sketches, g_ptr_array_unref);
  return rows;
}

GArray *
strobe_compare_timers (StrobeDocument *a, const StrobeCompareSpan *span_a,
                       StrobeDocument *b, const StrobeCompareSpan *span_b,
                       GCancellable *cancellable, GError **error)
{
  return strobe_compare_timers_full (a, span_a, b, span_b, NULL, NULL, cancellable, error);
}

/* FALSE when the trace has no finished frame of @kind in the span. */
static gboolean
frame_stat (StrobeDocument *document, const StrobeCompareSpan *span, guint kind, const char *name,
            StrobeTimerStat *out)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  g_autoptr(GArray) d = g_array_new (FALSE, FALSE, sizeof (guint64));

  memset (out, 0, sizeof *out);
  strobe_timeline_model_get_frames (timeline, kind, span->t0, span->t1, frames);
  for (guint i = 0; i < frames->len; i++)
    {
      const StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, i);
      guint64 v = f->end - f->begin;

      if (!strobe_compare_span_has_frame (span, f))
        continue;
      g_array_append_val (d, v);
      out->inclusive += v;
      out->min = out->count == 0 ? v : MIN (out->min, v);
      out->max = MAX (out->max, v);
      out->count++;
    }
  if (out->count == 0)
    return FALSE;
  out->name = g_strdup (name);
  out->exclusive = out->inclusive;
  out->mean = (gdouble) out->inclusive / (gdouble) out->count;
  out->median = strobe_durations_median ((guint64 *) (gpointer) d->data, d->len);
  out->p95 = strobe_durations_quantile ((guint64 *) (gpointer) d->data, d->len, 0.95);
  return TRUE;
}

GArray *
strobe_compare_frames (StrobeDocument *a, const StrobeCompareSpan *span_a,
                       StrobeDocument *b, const StrobeCompareSpan *span_b)
{
  static const char *const names[STROBE_TIMELINE_FRAME_KINDS] = { "frame.game", "frame.render" };
  GArray *rows;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (a) && STROBE_IS_DOCUMENT (b), NULL);
  g_return_val_if_fail (strobe_document_get_timeline (a) && strobe_document_get_timeline (b), NULL);

  rows = new_rows ();
  for (guint k = 0; k < STROBE_TIMELINE_FRAME_KINDS; k++)
    {
      StrobeCompareTimer row = { 0 };

      if (frame_stat (a, span_a, k, names[k], &row.a))
        row.in |= STROBE_COMPARE_IN_A;
      if (frame_stat (b, span_b, k, names[k], &row.b))
        row.in |= STROBE_COMPARE_IN_B;
      if (row.in == 0)
        continue;
      row.name = g_strdup (names[k]);
      g_clear_pointer (&row.a.name, g_free);
      g_clear_pointer (&row.b.name, g_free);
      g_array_append_val (rows, row);
    }
  return rows;
}

gdouble
strobe_compare_timer_value (const StrobeTimerStat *s, StrobeCompareMetric metric, StrobeCompareNorm norm,
                            const StrobeCompareSpan *span)
{
  gdouble v, by = 1;

  g_return_val_if_fail (s != NULL && span != NULL, NAN);

  switch (metric)
    {
    case STROBE_COMPARE_COUNT: v = (gdouble) s->count; break;
    case STROBE_COMPARE_INCL: v = (gdouble) s->inclusive; break;
    case STROBE_COMPARE_EXCL: v = (gdouble) s->exclusive; break;
    case STROBE_COMPARE_MEAN: return s->mean;
    case STROBE_COMPARE_MEDIAN: return s->median;
    case STROBE_COMPARE_P95: return (gdouble) s->p95;
    case STROBE_COMPARE_MAX: return (gdouble) s->max;
    case STROBE_COMPARE_MIN: return (gdouble) s->min;
    case STROBE_COMPARE_N_METRICS:
    default: g_return_val_if_reached (NAN);
    }
  if (norm == STROBE_COMPARE_NORM_PER_FRAME)
    by = (gdouble) span->frames[STROBE_TIMELINE_FRAME_GAME];
  else if (norm == STROBE_COMPARE_NORM_PER_CALL && metric != STROBE_COMPARE_COUNT)
    by = (gdouble) s->count;
  return by > 0 ? v / by : NAN;
}

void
strobe_compare_delta (gdouble a, gdouble b, gdouble *delta, gdouble *percent)
{
  *delta = b - a;
  *percent = a != 0 && !isnan (a) && !isnan (b) ? (b - a) / a * 100.0 : NAN;
}
