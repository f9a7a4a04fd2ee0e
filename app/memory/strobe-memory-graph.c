/* strobe-memory-graph.c
 *
 * Three layers. The samples' drawing (areas, lines, stacked bands; cairo paths) goes into
 * an image surface once per new samples or size, and a cairo render node that paints it
 * is kept: the cairo renderer then composites one image a frame (a cairo node of the
 * paths would be rasterized path by path every frame, and a texture node is converted
 * pixel by pixel into a new surface every frame under GTK 4.8). The gutter (lane
 * titles, scales, legends) is a second image, so the plot alone is stretched while
 * samples for a new range are on their way. The time axis is a
 * render node kept per range and width. Selection, markers, cursor and hover are drawn
 * on top every frame.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "strobe-chart-layers.h"
#include "strobe-format.h"
#include "strobe-memory-graph-private.h"
#include "strobe-memory-job.h"

#define AXIS_H        22.0
#define LANE_GAP      6.0
#define MAX_GROUPS    8
#define RULER_STEP    110.0 /* pixels at least between two labelled ticks */
#define LIVE_INTERVAL 1000  /* ms between two refreshes while the model grows (at 250, the
                             * series that follow the reading slowed it) */
#define LIVE_SHARE    4     /* and at least this many times what the last one cost */
#define NOTE_DELAY_US 300000 /* a series made for longer says so on the graphs */

static const struct { double weight; double min_h; const char *title; } lane_info[STROBE_MEMORY_N_LANES] = {
  [STROBE_MEMORY_LANE_BYTES] = { 3, 60, N_("Live bytes") },
  [STROBE_MEMORY_LANE_COUNT] = { 2, 44, N_("Live allocations") },
  [STROBE_MEMORY_LANE_RATE]  = { 2, 44, N_("Rate per second") },
  [STROBE_MEMORY_LANE_TAGS]  = { 3, 60, N_("By tag") },
  [STROBE_MEMORY_LANE_HEAPS] = { 2, 60, N_("By heap") },
};

/* Tableau 10: told apart in light and dark themes. */
static const GdkRGBA palette[] = {
  { 0.306f, 0.475f, 0.655f, 1 }, { 0.949f, 0.557f, 0.169f, 1 }, { 0.882f, 0.341f, 0.349f, 1 },
  { 0.463f, 0.718f, 0.698f, 1 }, { 0.349f, 0.631f, 0.310f, 1 }, { 0.929f, 0.788f, 0.282f, 1 },
  { 0.690f, 0.478f, 0.631f, 1 }, { 1.000f, 0.616f, 0.655f, 1 }, { 0.612f, 0.459f, 0.373f, 1 },
  { 0.729f, 0.690f, 0.675f, 1 },
};
#define COLOR_BYTES  palette[0]
#define COLOR_COUNT  palette[4]
#define COLOR_ALLOCS palette[1]
#define COLOR_FREES  palette[3]

G_DEFINE_FINAL_TYPE (StrobeMemoryGraph, strobe_memory_graph, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void request_series (StrobeMemoryGraph *self);

/* ---- geometry -------------------------------------------------------------------------- */

gboolean
strobe_memory_graph_get_range (StrobeMemoryGraph *self,
                               guint64           *start,
                               guint64           *end)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), FALSE);
  return _strobe_memory_graph_range (self, start, end);
}

typedef struct
{
  double y, h;
} LaneBox;

/* Lanes share the height by weight, none below its minimum. */
static guint
layout_lanes (StrobeMemoryGraph *self, double height, LaneBox boxes[STROBE_MEMORY_N_LANES])
{
  double avail = height - AXIS_H, weights = 0, y = 4;
  guint n = 0;

  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    if (self->visible[l])
      {
        weights += lane_info[l].weight;
        n++;
      }
  if (n == 0)
    return 0;
  avail -= LANE_GAP * n + 4;
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    {
      boxes[l].h = 0;
      if (!self->visible[l])
        continue;
      boxes[l].y = y;
      boxes[l].h = MAX (lane_info[l].min_h, avail * lane_info[l].weight / weights);
      y += boxes[l].h + LANE_GAP;
    }
  return n;
}

static void
strobe_memory_graph_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int) GUTTER + 120;
      *natural = (int) GUTTER + 800;
      return;
    }
  *minimum = (int) AXIS_H + 8;
  *natural = (int) AXIS_H + 8;
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    if (self->visible[l])
      {
        *minimum += (int) (lane_info[l].min_h + LANE_GAP);
        *natural += (int) (lane_info[l].min_h * 1.6 + LANE_GAP);
      }
}

/* ---- values ---------------------------------------------------------------------------- */

static const StrobeMemorySeriesPoint *
point_at (StrobeMemorySeries *series, guint64 t, guint *index)
{
  guint n = strobe_memory_series_get_n_points (series);
  const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (series);
  guint64 a = strobe_memory_series_get_start (series), b = strobe_memory_series_get_end (series);
  guint i;

  if (n == 0 || t < a || t >= b)
    return NULL;
  i = (guint) MIN ((double) (t - a) / (double) (b - a) * n, (double) (n - 1));
  /* Samples are evenly spaced but the last may be longer: find the one holding @t. */
  while (i + 1 < n && p[i + 1].time <= t)
    i++;
  while (i > 0 && p[i].time > t)
    i--;
  if (index)
    *index = i;
  return &p[i];
}

/* The samples as chart series: their times, values and each one's length in seconds (the
 * clock taken once, not once a sample). */
typedef struct
{
  const StrobeMemorySeriesPoint *p;
  guint                          n;
  guint64                        end;
  StrobeTraceClock               clock;
  const gint64                  *group;   /* a tag's or heap's live bytes, stacked */
} Samples;

static void
samples_init (StrobeMemoryGraph *self, StrobeMemorySeries *series, Samples *s)
{
  s->p = strobe_memory_series_get_points (series);
  s->n = strobe_memory_series_get_n_points (series);
  s->end = strobe_memory_series_get_end (series);
  s->group = NULL;
  strobe_time_axis_get_clock (self->axis, &s->clock);
}

static double
samples_seconds (const Samples *s, guint i)
{
  guint64 end = i + 1 < s->n ? s->p[i + 1].time : s->end;

  return MAX (strobe_trace_clock_duration (&s->clock, end - s->p[i].time), 1e-12);
}

static guint64
sample_time (gconstpointer data, guint i)
{
  return ((const Samples *) data)->p[i].time;
}

static double
value_max_bytes (gconstpointer data, guint i)
{
  return (double) MAX (((const Samples *) data)->p[i].max_bytes, 0);
}

static double
value_last_bytes (gconstpointer data, guint i)
{
  return (double) MAX (((const Samples *) data)->p[i].last_bytes, 0);
}

static double
value_count (gconstpointer data, guint i)
{
  return (double) MAX (((const Samples *) data)->p[i].last_count, 0);
}

static double
value_allocs_rate (gconstpointer data, guint i)
{
  const Samples *s = data;

  return (double) s->p[i].allocs / samples_seconds (s, i);
}

static double
value_frees_rate (gconstpointer data, guint i)
{
  const Samples *s = data;

  return (double) s->p[i].frees / samples_seconds (s, i);
}

static double
value_group (gconstpointer data, guint i)
{
  return (double) ((const Samples *) data)->group[i];
}

static StrobeChartSeries
series_of (const Samples *s, double (*value) (gconstpointer data, guint i))
{
  return (StrobeChartSeries) { s->n, s->end, sample_time, value, s };
}

static char *
group_name (StrobeMemoryGraph *self, StrobeMemoryGroupBy by, guint64 key)
{
  if (key == STROBE_MEMORY_SERIES_OTHER)
    /* Translators: the sum of the tags (or heaps) not shown on their own */
    return g_strdup (_("Others"));
  return by == STROBE_MEMORY_BY_TAG ? strobe_memory_names_tag (self->names, (guint32) key)
                                    : strobe_memory_names_heap (self->names, (guint32) key);
}

char *
strobe_memory_graph_describe_at (StrobeMemoryGraph *self,
                                 guint64            time)
{
  const StrobeMemorySeriesPoint *p;
  g_autofree char *when = NULL, *bytes = NULL, *count = NULL, *lo = NULL, *hi = NULL;
  GString *out;
  guint i;

  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), NULL);
  for (guint k = 0; self->gaps && k < self->gaps->len; k++)
    {
      const StrobeInfoGap *g = &g_array_index (self->gaps, StrobeInfoGap, k);
      g_autofree char *from = NULL, *to = NULL;

      if (time < g->begin || time >= g->end)
        continue;
      from = strobe_time_axis_format_time (self->axis, g->begin);
      if (g->end == G_MAXUINT64)
        /* Translators: the memory graph's hover over a span the Memory channel was off */
        return g_strdup_printf (_("Not recorded: the Memory channel is off since %s"), from);
      to = strobe_time_axis_format_time (self->axis, g->end);
      /* Translators: the memory graph's hover over a span the Memory channel was off */
      return g_strdup_printf (_("Not recorded: the Memory channel was off from %s to %s"), from, to);
    }
  if (time >= self->not_analysed_from)
    {
      g_autofree char *from = strobe_time_axis_format_time (self->axis, self->not_analysed_from);

      /* Translators: the memory graph's hover past where the memory model stopped reading */
      return g_strdup_printf (_("Not analysed from %s on: the memory model reached its memory budget"), from);
    }
  if (self->series == NULL || (p = point_at (self->series, time, &i)) == NULL)
    return NULL;
  out = g_string_new (NULL);
  when = strobe_time_axis_format_time (self->axis, time);
  bytes = strobe_format_size ((guint64) MAX (p->last_bytes, 0));
  count = strobe_format_count ((guint64) MAX (p->last_count, 0));
  g_string_append (out, when);
  g_string_append_c (out, '\n');
  /* Translators: the graph's values at the pointer: live bytes and allocations */
  g_string_append_printf (out, _("Live: %s in %s allocations"), bytes, count);
  if (p->min_bytes != p->max_bytes)
    {
      lo = strobe_format_size ((guint64) MAX (p->min_bytes, 0));
      hi = strobe_format_size ((guint64) MAX (p->max_bytes, 0));
      /* Translators: live bytes went from the first to the second within one pixel */
      g_string_append_printf (out, _(" (%s to %s here)"), lo, hi);
    }
  {
    Samples samples;
    double secs;

    samples_init (self, self->series, &samples);
    secs = samples_seconds (&samples, i);
    g_autofree char *allocs = strobe_format_count ((guint64) (p->allocs / secs + 0.5));
    g_autofree char *frees = strobe_format_count ((guint64) (p->frees / secs + 0.5));

    g_string_append_c (out, '\n');
    /* Translators: allocations and frees per second at the pointer */
    g_string_append_printf (out, _("%s allocations/s, %s frees/s"), allocs, frees);
  }
  for (guint k = 0; k < 2; k++)
    {
      StrobeMemoryGroupBy by = k == 0 ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP;
      StrobeMemoryLane lane = k == 0 ? STROBE_MEMORY_LANE_TAGS : STROBE_MEMORY_LANE_HEAPS;
      guint n = strobe_memory_series_get_n_groups (self->series, by);

      if (!self->visible[lane])
        continue;
      for (guint g = 0; g < n && g < 4; g++)
        {
          const gint64 *v = strobe_memory_series_get_group_values (self->series, by, g);
          g_autofree char *name = group_name (self, by, strobe_memory_series_get_group_key (self->series, by, g));
          g_autofree char *size = strobe_format_size ((guint64) MAX (v[i], 0));

          if (v[i] == 0)
            continue;
          g_string_append_c (out, '\n');
          /* Translators: a tag's (or heap's) live bytes at the pointer */
          g_string_append_printf (out, k == 0 ? _("Tag %s: %s") : _("Heap %s: %s"), name, size);
        }
    }
  return g_string_free (out, FALSE);
}

/* ---- the samples ------------------------------------------------------------------------ */

typedef struct
{
  StrobeMemoryModel *model;
  guint64            a, b;
  guint              n;
} SeriesTask;

static void
series_task_free (gpointer data)
{
  SeriesTask *t = data;

  g_clear_object (&t->model);
  g_free (t);
}

static GObject *
series_thread (gpointer data, GCancellable *cancellable, StrobeMemoryProgressFunc progress, gpointer progress_data,
               GError **error)
{
  SeriesTask *t = data;

  return G_OBJECT (strobe_memory_model_build_series (t->model, t->a, t->b, t->n, MAX_GROUPS, cancellable,
                                                     progress, progress_data, error));
}

static void
update_description (StrobeMemoryGraph *self)
{
  const StrobeMemorySeriesPoint *p;
  guint n;
  gint64 hi = 0;
  guint at = 0;
  g_autofree char *from = NULL, *to = NULL, *peak = NULL, *when = NULL, *text = NULL;

  if (self->series == NULL || (n = strobe_memory_series_get_n_points (self->series)) == 0)
    return;
  p = strobe_memory_series_get_points (self->series);
  for (guint i = 0; i < n; i++)
    if (p[i].max_bytes > hi)
      {
        hi = p[i].max_bytes;
        at = i;
      }
  from = strobe_time_axis_format_time (self->axis, strobe_memory_series_get_start (self->series));
  to = strobe_time_axis_format_time (self->axis, strobe_memory_series_get_end (self->series));
  peak = strobe_format_size ((guint64) hi);
  when = strobe_time_axis_format_time (self->axis, p[at].time);
  /* Translators: what the memory graphs show, for screen readers */
  text = g_strdup_printf (_("From %s to %s: at most %s live, at %s"), from, to, peak, when);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
series_done (GObject      *result,
             const GError *error,
             gpointer      user_data)
{
  StrobeMemoryGraph *self = user_data;

  if (result == NULL)
    return;
  self->last_done_us = g_get_monotonic_time ();
  self->last_cost_us = self->last_done_us - self->last_request_us;
  g_set_object (&self->series, STROBE_MEMORY_SERIES (result));
  /* The job drops every run but the last: this is the one asked for last. */
  self->shown_a = self->want_a;
  self->shown_b = self->want_b;
  self->shown_n = self->want_n;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  /* The range moved again while this one was made. */
  request_series (self);
}

static gboolean
refresh_cb (gpointer data)
{
  StrobeMemoryGraph *self = data;

  self->refresh_source = 0;
  request_series (self);
  return G_SOURCE_REMOVE;
}

static gboolean
series_matches (StrobeMemorySeries *s, guint64 a, guint64 b, guint n, guint64 generation)
{
  return s != NULL && strobe_memory_series_get_start (s) == a && strobe_memory_series_get_end (s) == b &&
         strobe_memory_series_get_n_points (s) == MIN ((guint64) n, b - a) &&
         strobe_memory_series_get_generation (s) == generation;
}

/* [@a, @b) at @n pixels is what was asked for before (from @was_a to @was_b at @was_n)
 * with only the end moved on: the view following a trace as it is read. */
static gboolean
only_grew (guint64 was_a, guint64 was_b, guint was_n, guint64 a, guint64 b, guint n)
{
  return was_a == a && was_n == n && b >= was_b;
}

static void
request_series (StrobeMemoryGraph *self)
{
  StrobeMemoryModel *model = self->names ? strobe_memory_names_get_model (self->names) : NULL;
  guint64 a, b, generation;
  guint n;
  SeriesTask *t;
  gint64 now, wait_us;

  if (model == NULL || !strobe_memory_graph_get_range (self, &a, &b) || !gtk_widget_get_realized (GTK_WIDGET (self)))
    return;
  n = (guint) MAX (_strobe_memory_graph_plot_width (self), 1.0);
  generation = strobe_memory_model_get_generation (model);
  if (series_matches (self->series, a, b, n, generation))
    return;
  /* The trace grew: a series walks a few thousand events a sample from the model's
   * checkpoints (0.1 s at 100 M allocations; it walked every event of its range, seconds,
   * before them), yet while it grows they are made at most a fifth of the time
   * (LIVE_SHARE), never back to back, and one being made is let finish: the graphs must
   * not hold a core and the model's lock while the trace is read. A range the user chose
   * is made at once, and so is the whole trace once it is read (the wait after a series
   * made while reading, four times its cost, left the 100 M-allocation trace's graphs a
   * minute short of its end after it was read). */
  if (strobe_memory_job_is_running (self->job))
    {
      if (self->growing && only_grew (self->want_a, self->want_b, self->want_n, a, b, n))
        return;
    }
  else if (self->growing && self->series != NULL && self->want_generation != generation
           && only_grew (self->want_a, self->want_b, self->want_n, a, b, n))
    {
      now = g_get_monotonic_time ();
      wait_us = MAX ((gint64) LIVE_INTERVAL * 1000, LIVE_SHARE * self->last_cost_us) - (now - self->last_done_us);
      if (wait_us > 0)
        {
          if (self->refresh_source == 0)
            self->refresh_source = g_timeout_add ((guint) MAX (wait_us / 1000, 1), refresh_cb, self);
          return;
        }
    }
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  now = g_get_monotonic_time ();
  self->want_a = a;
  self->want_b = b;
  self->want_n = n;
  self->want_generation = generation;
  self->last_request_us = now;
  t = g_new0 (SeriesTask, 1);
  t->model = g_object_ref (model);
  t->a = a;
  t->b = b;
  t->n = n;
  strobe_memory_job_run (self->job, series_thread, t, series_task_free, series_done, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

gboolean
strobe_memory_graph_is_ready (StrobeMemoryGraph *self)
{
  StrobeMemoryModel *model;
  guint64 a, b;

  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), FALSE);
  model = self->names ? strobe_memory_names_get_model (self->names) : NULL;
  /* Not on screen: nothing is drawn, nothing waited for. */
  if (model == NULL || !strobe_memory_graph_get_range (self, &a, &b) || !gtk_widget_get_realized (GTK_WIDGET (self)))
    return TRUE;
  return series_matches (self->series, a, b, (guint) MAX (_strobe_memory_graph_plot_width (self), 1.0),
                         strobe_memory_model_get_generation (model)) && !strobe_memory_job_is_running (self->job);
}

StrobeMemorySeries *
strobe_memory_graph_get_series (StrobeMemoryGraph *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), NULL);
  return self->series;
}

/* ---- drawing the samples ---------------------------------------------------------------- */

static void
set_source (cairo_t *cr, const GdkRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

static double
nice_max (double v)
{
  return v <= 0 ? 1 : v * 1.08;
}

/* A tag's or heap's series, one per group, stacked. */
static guint
group_series (StrobeMemorySeries *series, StrobeMemoryGroupBy by, const Samples *samples, Samples **groups,
              StrobeChartSeries **out)
{
  guint n = strobe_memory_series_get_n_groups (series, by);

  *groups = g_new (Samples, MAX (n, 1));
  *out = g_new (StrobeChartSeries, MAX (n, 1));
  for (guint g = 0; g < n; g++)
    {
      (*groups)[g] = *samples;
      (*groups)[g].group = strobe_memory_series_get_group_values (series, by, g);
      (*out)[g] = series_of (&(*groups)[g], value_group);
    }
  return n;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
_strobe_memory_graph_robust_max (const double *values,
                                 guint         n,
                                 double       *peak)
{
  g_autofree double *v = g_new (double, MAX (n, 1));
  guint m = 0;
  double p;

  for (guint i = 0; i < n; i++)
    if (values[i] > 0)
      v[m++] = values[i];
  if (m == 0)
    {
      *peak = 0;
      return 0;
    }
  qsort (v, m, sizeof *v, compare_double);
  *peak = v[m - 1];
  p = v[(guint) floor (0.98 * (m - 1))];
  /* Too few samples to tell a spike from the shape, or no spike: the largest. */
  if (m < 20 || v[m - 1] <= 3 * p)
    return v[m - 1];
  return 1.5 * p;
}

/* The rate lane's scale: the two rates' samples without their spikes (above). */
static double
rate_max (const StrobeChartSeries *a, const StrobeChartSeries *b, double *peak)
{
  g_autofree double *values = g_new (double, MAX (a->n + b->n, 1));

  for (guint i = 0; i < a->n; i++)
    values[i] = a->value (a->data, i);
  for (guint i = 0; i < b->n; i++)
    values[a->n + i] = b->value (b->data, i);
  return _strobe_memory_graph_robust_max (values, a->n + b->n, peak);
}

/* The top of @lane's scale; *@peak (may be NULL): the largest value, above the scale when
 * a spike was left out of it (the rate lane's) — those samples are drawn at the top. */
static double
lane_max (StrobeMemoryGraph *self, StrobeMemorySeries *series, StrobeMemoryLane lane, double *peak)
{
  Samples s;
  StrobeChartSeries a, b;
  double max = 0, top = -1;

  samples_init (self, series, &s);
  switch (lane)
    {
    case STROBE_MEMORY_LANE_BYTES:
      a = series_of (&s, value_max_bytes);
      max = strobe_chart_series_max (&a);
      break;
    case STROBE_MEMORY_LANE_COUNT:
      a = series_of (&s, value_count);
      max = strobe_chart_series_max (&a);
      break;
    case STROBE_MEMORY_LANE_RATE:
      a = series_of (&s, value_allocs_rate);
      b = series_of (&s, value_frees_rate);
      max = rate_max (&a, &b, &top);
      break;
    case STROBE_MEMORY_LANE_TAGS:
    case STROBE_MEMORY_LANE_HEAPS:
      {
        g_autofree Samples *groups = NULL;
        g_autofree StrobeChartSeries *stack = NULL;
        guint n = group_series (series, lane == STROBE_MEMORY_LANE_TAGS ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP,
                                &s, &groups, &stack);

        max = strobe_chart_stacked_max (stack, n);
      }
      break;
    case STROBE_MEMORY_N_LANES:
    default:
      break;
    }
  if (peak)
    *peak = top < 0 ? max : top;
  return nice_max (max);
}

/* One lane's samples: an area and a line, two lines, or stacked bands. */
static void
draw_lane (StrobeMemoryGraph *self, StrobeChartCanvas *canvas, const StrobeTimeScale *scale, const LaneBox *box,
           StrobeMemoryLane lane)
{
  StrobeMemorySeries *series = self->series;
  StrobeChartLane l = { box->y, box->h, lane_max (self, series, lane, NULL) };
  StrobeChartSeries a, b;
  Samples s;

  samples_init (self, series, &s);
  switch (lane)
    {
    case STROBE_MEMORY_LANE_BYTES:
    case STROBE_MEMORY_LANE_COUNT:
      {
        const GdkRGBA *c = lane == STROBE_MEMORY_LANE_BYTES ? &COLOR_BYTES : &COLOR_COUNT;

        a = series_of (&s, lane == STROBE_MEMORY_LANE_BYTES ? value_max_bytes : value_count);
        b = series_of (&s, lane == STROBE_MEMORY_LANE_BYTES ? value_last_bytes : value_count);
        strobe_chart_canvas_color (canvas, c, lane == STROBE_MEMORY_LANE_BYTES ? 0.35 : 0.3);
        strobe_chart_area (canvas, scale, &l, &a);
        strobe_chart_canvas_color (canvas, c, 1.0);
        strobe_chart_line (canvas, scale, &l, &b, 2);
      }
      break;
    case STROBE_MEMORY_LANE_RATE:
      /* Wider under the frees: at equal rates both show. */
      a = series_of (&s, value_allocs_rate);
      b = series_of (&s, value_frees_rate);
      strobe_chart_canvas_color (canvas, &COLOR_ALLOCS, 1.0);
      strobe_chart_line (canvas, scale, &l, &a, 3);
      strobe_chart_canvas_color (canvas, &COLOR_FREES, 1.0);
      strobe_chart_line (canvas, scale, &l, &b, 1);
      break;
    case STROBE_MEMORY_LANE_TAGS:
    case STROBE_MEMORY_LANE_HEAPS:
      {
        g_autofree Samples *groups = NULL;
        g_autofree StrobeChartSeries *stack = NULL;
        guint n = group_series (series, lane == STROBE_MEMORY_LANE_TAGS ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP,
                                &s, &groups, &stack);

        /* The first (largest) group at the bottom. */
        strobe_chart_stacked (canvas, scale, &l, stack, n, palette, G_N_ELEMENTS (palette), 0.9);
      }
      break;
    case STROBE_MEMORY_N_LANES:
    default:
      break;
    }
}

static void
draw_plot (StrobeMemoryGraph *self, cairo_t *cr, double w, double h, const GdkRGBA *fg)
{
  StrobeMemorySeries *s = self->series;
  LaneBox boxes[STROBE_MEMORY_N_LANES];
  StrobeChartCanvas canvas;
  StrobeTimeScale scale;

  layout_lanes (self, h, boxes);
  /* The lanes' frames and middle lines with cairo, the samples on top in pixels. */
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    {
      const LaneBox *box = &boxes[l];

      if (!self->visible[l])
        continue;
      set_source (cr, fg, 0.05);
      cairo_rectangle (cr, 0, box->y, w, box->h);
      cairo_fill (cr);
      set_source (cr, fg, 0.12);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, 0, floor (box->y + box->h / 2) + 0.5);
      cairo_line_to (cr, w, floor (box->y + box->h / 2) + 0.5);
      cairo_stroke (cr);
    }
  if (s == NULL || strobe_memory_series_get_n_points (s) == 0)
    return;
  /* The samples' own range over the plot: the image is stretched onto other ranges. */
  strobe_time_scale_init (&scale, strobe_memory_series_get_start (s), strobe_memory_series_get_end (s), (int) w);
  strobe_chart_canvas_init (&canvas, cairo_get_target (cr), w);
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    if (self->visible[l])
      draw_lane (self, &canvas, &scale, &boxes[l], l);
  cairo_surface_mark_dirty (cairo_get_target (cr));
}

static void
show_text (GtkWidget *widget, cairo_t *cr, double x, double y, double max_w, const char *text, gboolean bold,
           double scale)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);

  if (bold || scale != 1.0)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      if (bold)
        pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      if (scale != 1.0)
        pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  pango_layout_set_width (layout, (int) (max_w * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_move_to (cr, x, y);
  pango_cairo_update_layout (cr, layout);
  pango_cairo_show_layout (cr, layout);
}

static char *
scale_label (StrobeMemoryGraph *self, StrobeMemoryLane lane, double max)
{
  switch (lane)
    {
    case STROBE_MEMORY_LANE_COUNT:
      return strobe_format_count ((guint64) max);
    case STROBE_MEMORY_LANE_RATE:
      {
        g_autofree char *n = strobe_format_count ((guint64) max);
        /* Translators: a scale of the rate graph: so many per second */
        return g_strdup_printf (_("%s/s"), n);
      }
    default:
      return strobe_format_size ((guint64) max);
    }
}

static void
draw_gutter (StrobeMemoryGraph *self, cairo_t *cr, double h, const GdkRGBA *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  StrobeMemorySeries *s = self->series;
  LaneBox boxes[STROBE_MEMORY_N_LANES];
  double w = GUTTER - 12;

  layout_lanes (self, h, boxes);
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    {
      const LaneBox *box = &boxes[l];
      double y = box->y + 1;

      if (!self->visible[l])
        continue;
      gdk_cairo_set_source_rgba (cr, fg);
      show_text (widget, cr, 6, y, w, _(lane_info[l].title), TRUE, 0.85);
      y += 15;
      if (s != NULL && strobe_memory_series_get_n_points (s) > 0)
        {
          double peak = 0, max = lane_max (self, s, l, &peak) / 1.08;
          g_autofree char *top = scale_label (self, l, max);

          set_source (cr, fg, 0.7);
          /* Translators: the highest value a graph shows */
          {
            g_autofree char *text = g_strdup_printf (_("max %s"), top);
            show_text (widget, cr, 6, y, w, text, FALSE, 0.8);
          }
          y += 14;
          /* The scale left a spike out: its height, the samples drawn at the top. */
          if (peak > max * 1.001 && y + 26 < box->y + box->h)
            {
              g_autofree char *peak_text = scale_label (self, l, peak);
              /* Translators: a spike above the graph's scale, drawn cut off at its top */
              g_autofree char *text = g_strdup_printf (_("peak %s, cut off"), peak_text);

              show_text (widget, cr, 6, y, w, text, FALSE, 0.8);
              y += 14;
            }
        }
      if (l == STROBE_MEMORY_LANE_RATE && y + 12 < box->y + box->h)
        {
          static const char *const names[2] = { N_("allocations"), N_("frees") };
          double x = 8;

          /* On one line: the lane is short. */
          for (guint k = 0; k < 2; k++)
            {
              g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, _(names[k]));
              PangoAttrList *attrs = pango_attr_list_new ();
              int tw, th;

              pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
              pango_layout_set_attributes (layout, attrs);
              pango_attr_list_unref (attrs);
              pango_layout_get_pixel_size (layout, &tw, &th);
              gdk_cairo_set_source_rgba (cr, k == 0 ? &COLOR_ALLOCS : &COLOR_FREES);
              cairo_rectangle (cr, x, y + 5, 8, 3);
              cairo_fill (cr);
              set_source (cr, fg, 0.85);
              cairo_move_to (cr, x + 11, y);
              pango_cairo_update_layout (cr, layout);
              pango_cairo_show_layout (cr, layout);
              x += 11 + tw + 8;
            }
        }
      if ((l == STROBE_MEMORY_LANE_TAGS || l == STROBE_MEMORY_LANE_HEAPS) && s != NULL)
        {
          StrobeMemoryGroupBy by = l == STROBE_MEMORY_LANE_TAGS ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP;
          guint n = strobe_memory_series_get_n_groups (s, by);

          /* As many as the lane has room for: in two columns when one is too short,
           * the last place saying how many are left out (the tooltip has them all). */
          guint rows = y + 12 < box->y + box->h ? (guint) ((box->y + box->h - 12 - y) / 13) + 1 : 0;
          guint columns = n > rows ? 2 : 1, places = rows * columns;
          double cw = columns == 1 ? w : w / 2;

          for (guint g = 0; g < n && g < places; g++)
            {
              double gx = 8 + (double) (g / MAX (rows, 1)) * cw, gy = y + 13.0 * (g % MAX (rows, 1));
              g_autofree char *name = NULL;

              if (g == places - 1 && n > places)
                {
                  /* Translators: in a graph's legend, for the groups there is no room for */
                  name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "+%u more", "+%u more", n - g), n - g);
                  set_source (cr, fg, 0.6);
                  show_text (widget, cr, gx, gy, cw - 4, name, FALSE, 0.8);
                  break;
                }
              name = group_name (self, by, strobe_memory_series_get_group_key (s, by, g));
              gdk_cairo_set_source_rgba (cr, &palette[g % G_N_ELEMENTS (palette)]);
              cairo_rectangle (cr, gx, gy + 3, 8, 8);
              cairo_fill (cr);
              set_source (cr, fg, 0.85);
              show_text (widget, cr, gx + 12, gy, cw - 16, name, FALSE, 0.8);
            }
        }
    }
}

static void
fg_color (GtkWidget *widget, GdkRGBA *fg)
{
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
G_GNUC_END_IGNORE_DEPRECATIONS
}

/* A render node that paints @surface (@scale device pixels a pixel) at @w × @h. */
static GskRenderNode *
node_for (cairo_surface_t *surface, int w, int h, int scale)
{
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, (float) w, (float) h));

  cairo_scale (cr, 1.0 / scale, 1.0 / scale);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

/* The samples and the gutter, drawn once per samples and size. */
static void
ensure_textures (StrobeMemoryGraph *self, int w, int h, int scale)
{
  GdkRGBA fg;
  gboolean dark;
  int pw = MAX ((int) _strobe_memory_graph_plot_width (self), 1);

  fg_color (GTK_WIDGET (self), &fg);
  dark = fg.red + fg.green + fg.blue > 1.5f;
  if (self->plot != NULL && self->plot_series == self->series && self->plot_w == pw && self->plot_h == h &&
      self->plot_scale == scale && self->plot_dark == dark)
    return;
  g_clear_pointer (&self->plot, gsk_render_node_unref);
  g_clear_pointer (&self->gutter, gsk_render_node_unref);
  self->plot_series = self->series;
  self->plot_w = pw;
  self->plot_h = h;
  self->plot_scale = scale;
  self->plot_dark = dark;
  for (guint k = 0; k < 2; k++)
    {
      int tw = k == 0 ? pw : (int) GUTTER;
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, tw * scale, h * scale);
      cairo_t *cr = cairo_create (surface);

      cairo_scale (cr, scale, scale);
      if (k == 0)
        draw_plot (self, cr, tw, h, &fg);
      else
        draw_gutter (self, cr, h, &fg);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      if (k == 0)
        self->plot = node_for (surface, tw, h, scale);
      else
        self->gutter = node_for (surface, tw, h, scale);
      cairo_surface_destroy (surface);
    }
}

/* ---- the ruler ---------------------------------------------------------------------------- */

static GskRenderNode *
make_ruler (StrobeMemoryGraph *self, const StrobeTimeScale *scale, int h, const GdkRGBA *fg)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GArray) ticks = NULL;
  double y = h - AXIS_H, step = 0;
  GdkRGBA line = *fg, text = *fg;

  line.alpha *= 0.25f;
  text.alpha *= 0.75f;
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT ((float) GUTTER, (float) y, (float) scale->width, 1));
  ticks = strobe_time_axis_ticks (self->axis, scale, RULER_STEP, &step);
  for (guint i = 0; i < ticks->len; i++)
    {
      const StrobeRulerTick *t = &g_array_index (ticks, StrobeRulerTick, i);
      double x = strobe_memory_graph_time_to_x (scale, t->time);
      g_autofree char *label = NULL;
      g_autoptr (PangoLayout) layout = NULL;
      PangoAttrList *attrs;

      if (!t->major)
        continue;
      label = strobe_time_axis_tick_label (self->axis, scale, t, step);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), label);
      attrs = pango_attr_list_new ();
      gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT ((float) x, (float) y, 1, 4));
      pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x + 3, (float) y + 4));
      gtk_snapshot_append_layout (snapshot, layout, &text);
      gtk_snapshot_restore (snapshot);
    }
  return gtk_snapshot_free_to_node (snapshot);
}

/* ---- the frame ----------------------------------------------------------------------------- */

static void
draw_label (StrobeMemoryGraph *self, GtkSnapshot *snapshot, double x, double y, const char *text,
            const GdkRGBA *bg, const GdkRGBA *fg)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);

  strobe_chart_mark_label (snapshot, layout, x, y, gtk_widget_get_width (GTK_WIDGET (self)),
                           gtk_widget_get_height (GTK_WIDGET (self)), bg, fg);
}

/* A span hatched over the plot, labelled when there is room: what the samples say there (a
 * flat line) is not what the program did. */
static void
draw_hatched (StrobeMemoryGraph *self, GtkSnapshot *snapshot, const StrobeTimeScale *scale, double top,
              double bottom, const GdkRGBA *fg, guint64 begin, guint64 end, const char *label)
{
  guint64 a = scale->start, b = strobe_time_scale_end (scale);
  double x0, x1;
  cairo_t *cr;
  GdkRGBA fill = *fg, edge = *fg;

  if (end <= a || begin >= b)
    return;
  x0 = strobe_memory_graph_time_to_x (scale, MAX (begin, a));
  x1 = strobe_memory_graph_time_to_x (scale, MIN (end, b));
  fill.alpha *= 0.10f;
  edge.alpha *= 0.45f;
  strobe_chart_span (snapshot, x0, x1, top, bottom, &fill, &edge);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) MAX (x1 - x0, 1),
                                                                 (float) (bottom - top)));
  cairo_rectangle (cr, x0, top, MAX (x1 - x0, 1), bottom - top);
  cairo_clip (cr);
  set_source (cr, fg, 0.22);
  cairo_set_line_width (cr, 1);
  for (double x = x0 - (bottom - top); x < x1; x += 8)
    {
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x + (bottom - top), top);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
  if (x1 - x0 > 90)
    {
      GdkRGBA bg = { fg->red > 0.5f ? 0.12f : 1, fg->red > 0.5f ? 0.12f : 1, fg->red > 0.5f ? 0.14f : 1, 0.9f };

      draw_label (self, snapshot, x0 + 4, top + 4, label, &bg, fg);
    }
}

/* The spans the Memory channel was off, and what the model did not read. */
static void
draw_gaps (StrobeMemoryGraph *self, GtkSnapshot *snapshot, const StrobeTimeScale *scale, double top,
           double bottom, const GdkRGBA *fg)
{
  for (guint k = 0; self->gaps && k < self->gaps->len; k++)
    {
      const StrobeInfoGap *g = &g_array_index (self->gaps, StrobeInfoGap, k);

      /* Translators: in the memory graph, over a span the Memory channel was off */
      draw_hatched (self, snapshot, scale, top, bottom, fg, g->begin, g->end, _("Not recorded"));
    }
  /* Translators: in the memory graph, past where the memory model stopped reading (its budget) */
  draw_hatched (self, snapshot, scale, top, bottom, fg, self->not_analysed_from, G_MAXUINT64, _("Not analysed"));
}

void
strobe_memory_graph_set_not_analysed_from (StrobeMemoryGraph *self, guint64 time)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));

  if (self->not_analysed_from == time)
    return;
  self->not_analysed_from = time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
strobe_memory_graph_set_gaps (StrobeMemoryGraph *self, GArray *gaps)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));

  if (strobe_info_gaps_equal (self->gaps, gaps))
    return;
  g_clear_pointer (&self->gaps, g_array_unref);
  if (gaps != NULL && gaps->len > 0)
    {
      self->gaps = g_array_sized_new (FALSE, FALSE, sizeof (StrobeInfoGap), gaps->len);
      g_array_append_vals (self->gaps, gaps->data, gaps->len);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strobe_memory_graph_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale_factor = gtk_widget_get_scale_factor (widget);
  double pw = _strobe_memory_graph_plot_width (self), top = 2, bottom = h - AXIS_H;
  StrobeTimeScale scale;
  guint64 a, b;
  GdkRGBA fg, dim;

  if (!_strobe_memory_graph_plot_scale (self, &scale) || w <= GUTTER)
    return;
  a = scale.start;
  b = strobe_time_scale_end (&scale);
  fg_color (widget, &fg);
  dim = fg;
  ensure_textures (self, w, h, scale_factor);

  /* The samples, stretched onto the current range when they are of another. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT ((float) GUTTER, 0, (float) pw, (float) h));
  if (self->plot != NULL && self->plot_series != NULL)
    {
      guint64 sa = strobe_memory_series_get_start (self->plot_series), sb = strobe_memory_series_get_end (self->plot_series);
      double x0 = strobe_memory_graph_time_to_x (&scale, sa), x1 = strobe_memory_graph_time_to_x (&scale, sb);

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x0, 0));
      if (sa != a || sb != b)
        gtk_snapshot_scale (snapshot, (float) (MAX (x1 - x0, 1) / MAX (self->plot_w, 1)), 1);
      gtk_snapshot_append_node (snapshot, self->plot);
      gtk_snapshot_restore (snapshot);
    }
  else if (self->plot != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) GUTTER, 0));
      gtk_snapshot_append_node (snapshot, self->plot);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_pop (snapshot);
  if (self->gutter != NULL)
    gtk_snapshot_append_node (snapshot, self->gutter);

  if (self->ruler == NULL || self->ruler_a != a || self->ruler_b != b || self->ruler_w != w)
    {
      g_clear_pointer (&self->ruler, gsk_render_node_unref);
      self->ruler = make_ruler (self, &scale, h, &fg);
      self->ruler_a = a;
      self->ruler_b = b;
      self->ruler_w = w;
    }
  if (self->ruler)
    gtk_snapshot_append_node (snapshot, self->ruler);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT ((float) GUTTER, 0, (float) pw, (float) h));
  draw_gaps (self, snapshot, &scale, top, bottom, &fg);
  {
    g_autofree char *note = strobe_memory_graph_dup_drawing_note (self);

    if (note != NULL)
      {
        GdkRGBA bg = { fg.red > 0.5f ? 0.12f : 1, fg.red > 0.5f ? 0.12f : 1, fg.red > 0.5f ? 0.14f : 1, 0.9f };

        draw_label (self, snapshot, GUTTER + 6, top + 4, note, &bg, &fg);
      }
  }
  /* The selection. */
  if (self->state)
    {
      guint64 s0, s1;

      if (strobe_view_state_get_selection (self->state, &s0, &s1))
        {
          GdkRGBA sel = { 0.21f, 0.52f, 0.89f, 0.18f }, edge = { 0.21f, 0.52f, 0.89f, 0.8f };
          double x0 = strobe_memory_graph_time_to_x (&scale, s0), x1 = strobe_memory_graph_time_to_x (&scale, s1);

          strobe_chart_span (snapshot, x0, x1, top, bottom, &sel, &edge);
        }
    }
  /* Markers A, B, C. */
  for (guint m = 0; m < 3; m++)
    {
      static const GdkRGBA colors[3] = { { 0.90f, 0.38f, 0.0f, 1 }, { 0.60f, 0.25f, 0.75f, 1 }, { 0.15f, 0.60f, 0.30f, 1 } };
      static const char *const letters[3] = { "A", "B", "C" };
      GdkRGBA white = { 1, 1, 1, 1 };
      double x;

      if (self->markers[m] == STROBE_VIEW_STATE_NONE || self->markers[m] < a || self->markers[m] > b)
        continue;
      x = strobe_memory_graph_time_to_x (&scale, self->markers[m]);
      strobe_chart_mark (snapshot, x, top, bottom, &colors[m], 1.5);
      draw_label (self, snapshot, x - 8, bottom - 18 - 18 * m, letters[m], &colors[m], &white);
    }
  /* The cursor. */
  if (self->state)
    {
      guint64 cursor = strobe_view_state_get_cursor (self->state);

      if (cursor != STROBE_VIEW_STATE_NONE && cursor >= a && cursor <= b)
        {
          GdkRGBA c = fg;
          c.alpha *= 0.8f;
          strobe_chart_mark (snapshot, strobe_memory_graph_time_to_x (&scale, cursor), top, bottom, &c, 1.5);
        }
    }
  gtk_snapshot_pop (snapshot);

  /* The hover and its values. */
  if (self->hovering && self->hover_x >= GUTTER && self->hover_x <= GUTTER + pw)
    {
      guint64 t = _strobe_memory_graph_x_to_time (self, self->hover_x);
      g_autofree char *text = strobe_memory_graph_describe_at (self, t);
      GdkRGBA c = fg, bg;

      c.alpha *= 0.5f;
      strobe_chart_mark (snapshot, self->hover_x, top, bottom, &c, 1);
      if (text != NULL)
        {
          gboolean dark = fg.red + fg.green + fg.blue > 1.5f;

          bg = dark ? (GdkRGBA) { 0.12f, 0.12f, 0.14f, 0.92f } : (GdkRGBA) { 1, 1, 1, 0.94f };
          draw_label (self, snapshot, self->hover_x, self->hover_y + 12, text, &bg, &fg);
        }
    }
  if (gtk_widget_has_visible_focus (widget))
    {
      GdkRGBA focus = { 0.21f, 0.52f, 0.89f, 0.7f };
      GskRoundedRect rr;
      float widths[4] = { 2, 2, 2, 2 };
      GdkRGBA colors[4] = { focus, focus, focus, focus };

      gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (1, 1, (float) w - 2, (float) h - 2), 3);
      gtk_snapshot_append_border (snapshot, &rr, widths, colors);
    }
  (void) dim;
}

static void
strobe_memory_graph_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
  request_series (self);
}

static void
strobe_memory_graph_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (strobe_memory_graph_parent_class)->realize (widget);
  request_series (STROBE_MEMORY_GRAPH (widget));
}

/* ---- the widget ------------------------------------------------------------------------ */

static void
range_changed_cb (StrobeMemoryGraph *self)
{
  /* The bounds may have moved the clock's base: the ruler's labels with them. */
  g_clear_pointer (&self->ruler, gsk_render_node_unref);
  request_series (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
strobe_memory_graph_set_sources (StrobeMemoryGraph *self,
                                 StrobeMemoryNames *names,
                                 StrobeTimeAxis    *axis)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));
  g_return_if_fail (STROBE_IS_MEMORY_NAMES (names));
  g_return_if_fail (STROBE_IS_TIME_AXIS (axis));

  g_set_object (&self->names, names);
  if (self->axis != NULL)
    g_signal_handlers_disconnect_by_data (self->axis, self);
  g_set_object (&self->axis, axis);
  g_set_object (&self->state, strobe_time_axis_get_state (axis));
  g_signal_connect_object (axis, "range-changed", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (axis, "marks-changed", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  range_changed_cb (self);
}

void
strobe_memory_graph_model_changed (StrobeMemoryGraph *self,
                                   gboolean           growing)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));
  self->growing = growing;
  request_series (self);
}

/* A series has been made for a while and what is drawn is not the same range grown a
 * little (what a trace being read shows between two refreshes): nothing yet, another
 * range, or the trace as it was before it was read whole. */
static gboolean
drawing_for_long (StrobeMemoryGraph *self)
{
  if (!strobe_memory_job_is_running (self->job) ||
      g_get_monotonic_time () - self->last_request_us < NOTE_DELAY_US)
    return FALSE;
  return self->series == NULL || !self->growing ||
         !only_grew (self->shown_a, self->shown_b, self->shown_n, self->want_a, self->want_b, self->want_n);
}

char *
strobe_memory_graph_dup_drawing_note (StrobeMemoryGraph *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), NULL);

  if (!drawing_for_long (self))
    return NULL;
  /* Translators: over the memory graphs while they are computed; %.0f is a percentage */
  return g_strdup_printf (_("Drawing the graphs… %.0f %%"), 100 * strobe_memory_job_get_progress (self->job));
}

static void
job_progress_cb (StrobeMemoryGraph *self)
{
  if (drawing_for_long (self))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
strobe_memory_graph_set_marker (StrobeMemoryGraph *self,
                                guint              which,
                                guint64            time)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));
  g_return_if_fail (which < 3);

  if (self->markers[which] == time)
    return;
  self->markers[which] = time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
strobe_memory_graph_set_lane_visible (StrobeMemoryGraph *self,
                                      StrobeMemoryLane   lane,
                                      gboolean           visible)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));
  g_return_if_fail (lane < STROBE_MEMORY_N_LANES);

  if (self->visible[lane] == !!visible)
    return;
  self->visible[lane] = !!visible;
  g_clear_pointer (&self->plot, gsk_render_node_unref);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
strobe_memory_graph_get_lane_visible (StrobeMemoryGraph *self,
                                      StrobeMemoryLane   lane)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), FALSE);
  g_return_val_if_fail (lane < STROBE_MEMORY_N_LANES, FALSE);
  return self->visible[lane];
}

static void
strobe_memory_graph_dispose (GObject *object)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (object);

  if (self->job)
    {
      g_signal_handlers_disconnect_by_data (self->job, self);
      strobe_memory_job_cancel (self->job);
    }
  g_clear_handle_id (&self->refresh_source, g_source_remove);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  G_OBJECT_CLASS (strobe_memory_graph_parent_class)->dispose (object);
}

static void
strobe_memory_graph_finalize (GObject *object)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (object);

  g_clear_object (&self->job);
  g_clear_object (&self->names);
  g_clear_object (&self->axis);
  g_clear_object (&self->state);
  g_clear_object (&self->series);
  g_clear_pointer (&self->plot, gsk_render_node_unref);
  g_clear_pointer (&self->gutter, gsk_render_node_unref);
  g_clear_pointer (&self->ruler, gsk_render_node_unref);
  g_clear_pointer (&self->gaps, g_array_unref);
  G_OBJECT_CLASS (strobe_memory_graph_parent_class)->finalize (object);
}

static void
strobe_memory_graph_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (object);

  switch (prop_id)
    {
    case PROP_READY: g_value_set_boolean (value, strobe_memory_graph_is_ready (self)); break;
    default:         G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_memory_graph_css_changed (GtkWidget         *widget,
                                 GtkCssStyleChange *change)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  GTK_WIDGET_CLASS (strobe_memory_graph_parent_class)->css_changed (widget, change);
  g_clear_pointer (&self->plot, gsk_render_node_unref);
  g_clear_pointer (&self->ruler, gsk_render_node_unref);
  gtk_widget_queue_draw (widget);
}

static void
strobe_memory_graph_class_init (StrobeMemoryGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_graph_dispose;
  object_class->finalize = strobe_memory_graph_finalize;
  object_class->get_property = strobe_memory_graph_get_property;
  widget_class->measure = strobe_memory_graph_measure;
  widget_class->size_allocate = strobe_memory_graph_size_allocate;
  widget_class->snapshot = strobe_memory_graph_snapshot;
  widget_class->realize = strobe_memory_graph_realize;
  widget_class->css_changed = strobe_memory_graph_css_changed;

  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  _strobe_memory_graph_class_init_input (widget_class);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strobe_memory_graph_init (StrobeMemoryGraph *self)
{
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    self->visible[l] = TRUE;
  for (guint m = 0; m < 3; m++)
    self->markers[m] = STROBE_VIEW_STATE_NONE;
  self->not_analysed_from = G_MAXUINT64;
  self->job = strobe_memory_job_new ();
  /* Progress is told every 50 ms at most; the note appears NOTE_DELAY_US into a run. */
  g_signal_connect_swapped (self->job, "notify::progress", G_CALLBACK (job_progress_cb), self);
  g_signal_connect_swapped (self->job, "notify::running", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  _strobe_memory_graph_init_input (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory over time"), -1);
}

GtkWidget *
strobe_memory_graph_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_GRAPH, NULL);
}
