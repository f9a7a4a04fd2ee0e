/* strobe-counter-series.c — one counter's samples and their min/max summary
 * (strobe-counter-series.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-counter-series.h"

#include <math.h>

/* Samples are summarised per run of SUMMARY samples (min and max), so a series query over
 * millions of samples reads the summary, not the samples. */
#define SUMMARY_SHIFT 6
#define SUMMARY       (1u << SUMMARY_SHIFT)

/* Samples are kept in time order. They come in serial order, which follows time closely
 * but not exactly across threads, so a late one is inserted a few places back. One later
 * than LATE_MAX places is appended and the series sorted before the next query: a
 * trace's samples in reverse order cost n log n, not n². */
#define LATE_MAX 256

typedef struct
{
  gdouble min;
  gdouble max;
} SummaryRec;

void
strobe_counter_series_init (StrobeCounterSeries *c, guint32 id)
{
  c->id = id;
  c->name = g_strdup_printf ("(counter %u)", id);
  c->samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
  c->summary = g_array_new (FALSE, FALSE, sizeof (SummaryRec));
  c->unsorted = FALSE;
}

void
strobe_counter_series_clear (StrobeCounterSeries *c)
{
  g_clear_pointer (&c->name, g_free);
  g_clear_pointer (&c->samples, g_array_unref);
  g_clear_pointer (&c->summary, g_array_unref);
}

/* Recomputes the summary from the run that holds sample @from on. */
static void
summary_update (StrobeCounterSeries *c, guint from)
{
  const StrobeCounterSample *v = (const StrobeCounterSample *) (gpointer) c->samples->data;
  guint n = c->samples->len;
  guint r = from >> SUMMARY_SHIFT;

  g_array_set_size (c->summary, (n + SUMMARY - 1) >> SUMMARY_SHIFT);
  for (; r < c->summary->len; r++)
    {
      SummaryRec *s = &g_array_index (c->summary, SummaryRec, r);
      guint i = r << SUMMARY_SHIFT, end = MIN (i + SUMMARY, n);

      s->min = s->max = v[i].value;
      for (i++; i < end; i++)
        {
          s->min = MIN (s->min, v[i].value);
          s->max = MAX (s->max, v[i].value);
        }
    }
}

gboolean
strobe_counter_series_add (StrobeCounterSeries *c, const StrobeCounterSample *s)
{
  guint n = c->samples->len;
  gboolean unsorted = FALSE;

  if (n && !c->unsorted && g_array_index (c->samples, StrobeCounterSample, n - 1).time > s->time)
    {
      guint lo = n > LATE_MAX ? n - LATE_MAX : 0, hi = n;

      if (g_array_index (c->samples, StrobeCounterSample, lo).time > s->time)
        c->unsorted = unsorted = TRUE;
      else
        {
          while (lo < hi)
            {
              guint mid = lo + (hi - lo) / 2;
              if (g_array_index (c->samples, StrobeCounterSample, mid).time > s->time)
                hi = mid;
              else
                lo = mid + 1;
            }
          g_array_insert_val (c->samples, lo, *s);
          summary_update (c, lo);
          return FALSE;
        }
    }
  g_array_append_val (c->samples, *s);
  if (!c->unsorted)
    {
      SummaryRec *r;

      if ((n & (SUMMARY - 1)) == 0)
        {
          SummaryRec z = { s->value, s->value };
          g_array_append_val (c->summary, z);
        }
      r = &g_array_index (c->summary, SummaryRec, c->summary->len - 1);
      r->min = MIN (r->min, s->value);
      r->max = MAX (r->max, s->value);
    }
  /* else the summary is rebuilt with the sort */
  return unsorted;
}

static gint
sample_cmp (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const StrobeCounterSample *) a)->time, y = ((const StrobeCounterSample *) b)->time;
  return x < y ? -1 : x > y;
}

void
strobe_counter_series_sort (StrobeCounterSeries *c)
{
  g_array_sort (c->samples, sample_cmp);
  summary_update (c, 0);
  c->unsorted = FALSE;
}

/* First sample at or after @t. */
static guint
sample_lower_bound (GArray *v, guint lo, guint hi, guint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (v, StrobeCounterSample, mid).time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First sample after @t. */
static guint
sample_upper_bound (GArray *v, guint lo, guint hi, guint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (v, StrobeCounterSample, mid).time <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
strobe_counter_series_samples (const StrobeCounterSeries *c, guint64 t0, guint64 t1, GArray *out)
{
  GArray *s = c->samples;
  guint lo = sample_lower_bound (s, 0, s->len, t0);
  guint hi = sample_upper_bound (s, lo, s->len, t1);

  if (hi > lo)
    g_array_append_vals (out, &g_array_index (s, StrobeCounterSample, lo), hi - lo);
  return hi - lo;
}

/* Min and max of samples [lo, hi): whole summary runs where they fit, samples at the
 * ragged ends. */
static void
range_min_max (const StrobeCounterSeries *c, guint lo, guint hi, gdouble *min, gdouble *max)
{
  const StrobeCounterSample *v = (const StrobeCounterSample *) (gpointer) c->samples->data;
  gdouble a = v[lo].value, b = v[lo].value;
  guint i = lo;

  while (i < hi)
    {
      if ((i & (SUMMARY - 1)) == 0 && i + SUMMARY <= hi)
        {
          const SummaryRec *r = &g_array_index (c->summary, SummaryRec, i >> SUMMARY_SHIFT);
          a = MIN (a, r->min);
          b = MAX (b, r->max);
          i += SUMMARY;
        }
      else
        {
          a = MIN (a, v[i].value);
          b = MAX (b, v[i].value);
          i++;
        }
    }
  *min = a;
  *max = b;
}

guint
strobe_counter_series_buckets (const StrobeCounterSeries *c, guint64 t0, guint64 t1, guint n_buckets,
                               StrobeCounterSample *before, StrobeCounterSample *after, GArray *out)
{
  GArray *s = c->samples;
  guint start = out->len;
  guint lo = sample_lower_bound (s, 0, s->len, t0);
  guint hi = sample_upper_bound (s, lo, s->len, t1);
  /* Bucket b covers [t0 + b * span / n, t0 + (b + 1) * span / n). */
  gdouble span = (gdouble) (t1 - t0) + 1.0;

  if (before && lo > 0)
    *before = g_array_index (s, StrobeCounterSample, lo - 1);
  if (after && hi < s->len)
    *after = g_array_index (s, StrobeCounterSample, hi);
  while (lo < hi)
    {
      const StrobeCounterSample *first = &g_array_index (s, StrobeCounterSample, lo);
      guint b = (guint) MIN ((gdouble) (first->time - t0) * n_buckets / span, n_buckets - 1);
      gdouble next_edge = (gdouble) t0 + span * (b + 1) / n_buckets;
      guint64 next = next_edge >= (gdouble) G_MAXUINT64 ? G_MAXUINT64 : (guint64) ceil (next_edge);
      guint end = next > t1 ? hi : sample_lower_bound (s, lo + 1, hi, next);
      StrobeCounterBucket k;

      if (end <= lo)
        end = lo + 1;
      k.bucket = b;
      k.count = end - lo;
      k.first_time = first->time;
      k.last_time = g_array_index (s, StrobeCounterSample, end - 1).time;
      k.first = first->value;
      k.last = g_array_index (s, StrobeCounterSample, end - 1).value;
      range_min_max (c, lo, end, &k.min, &k.max);
      g_array_append_val (out, k);
      lo = end;
    }
  return out->len - start;
}
