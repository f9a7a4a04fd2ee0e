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

#include "strobe-format.h"
#include "strobe-memory-graph.h"
#include "strobe-memory-job.h"

#define GUTTER        168.0
#define RIGHT_PAD     8.0
#define AXIS_H        22.0
#define LANE_GAP      6.0
#define MAX_GROUPS    8
#define DRAG_SLOP     4.0
#define RULER_STEP    110.0 /* pixels at least between two labelled ticks */
#define LIVE_INTERVAL 250   /* ms between two refreshes while the model grows */

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

struct _StrobeMemoryGraph
{
  GtkWidget           parent_instance;

  StrobeMemoryNames  *names;
  StrobeTimeAxis     *axis;
  StrobeViewState    *state;           /* the axis's */
  guint64             markers[3];
  gboolean            visible[STROBE_MEMORY_N_LANES];

  StrobeMemoryJob    *job;
  StrobeMemorySeries *series;          /* drawn */
  guint64             want_a, want_b;  /* what the running job makes */
  guint               want_n;
  guint64             want_generation;
  gint64              last_request_us;
  guint               refresh_source;

  /* Cached drawing. */
  GskRenderNode      *plot;            /* of self->series, at plot_w × h */
  GskRenderNode      *gutter;
  StrobeMemorySeries *plot_series;
  int                 plot_w, plot_h, plot_scale;
  gboolean            plot_dark;
  GskRenderNode      *ruler;
  guint64             ruler_a, ruler_b;
  int                 ruler_w;

  /* Pointer and keyboard. */
  gboolean            hovering;
  double              hover_x, hover_y;
  double              drag_x;
  gboolean            dragging;
  guint64             drag_anchor;
  guint64             key_anchor;
  guint64             menu_time;
  GtkWidget          *menu;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryGraph, strobe_memory_graph, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_READY,
  N_PROPS
};

enum
{
  MARKER_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void request_series (StrobeMemoryGraph *self);

/* ---- geometry -------------------------------------------------------------------------- */

gboolean
strobe_memory_graph_get_range (StrobeMemoryGraph *self,
                               guint64           *start,
                               guint64           *end)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_GRAPH (self), FALSE);
  return self->axis != NULL && strobe_time_axis_get_range (self->axis, start, end);
}

static double
plot_width (StrobeMemoryGraph *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - GUTTER - RIGHT_PAD, 1.0);
}

/* The plot's scale: the axis's range over the plot's width, from x = GUTTER. */
static gboolean
plot_scale (StrobeMemoryGraph *self, StrobeTimeScale *scale)
{
  return self->axis != NULL && strobe_time_axis_get_scale (self->axis, (int) plot_width (self), scale);
}

static double
time_to_x (const StrobeTimeScale *scale, guint64 t)
{
  return GUTTER + strobe_time_scale_x (scale, t);
}

static guint64
x_to_time (StrobeMemoryGraph *self, double x)
{
  StrobeTimeScale scale;

  if (!plot_scale (self, &scale))
    return 0;
  return strobe_time_scale_time (&scale, CLAMP (x - GUTTER, 0.0, (double) scale.width));
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

static double
sample_seconds (StrobeMemoryGraph *self, StrobeMemorySeries *series, guint i)
{
  guint n = strobe_memory_series_get_n_points (series);
  const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (series);
  guint64 end = i + 1 < n ? p[i + 1].time : strobe_memory_series_get_end (series);

  return MAX (strobe_time_axis_duration (self->axis, end - p[i].time), 1e-12);
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
    double secs = sample_seconds (self, self->series, i);
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
  g_set_object (&self->series, STROBE_MEMORY_SERIES (result));
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

static void
request_series (StrobeMemoryGraph *self)
{
  StrobeMemoryModel *model = self->names ? strobe_memory_names_get_model (self->names) : NULL;
  guint64 a, b, generation;
  guint n;
  SeriesTask *t;
  gint64 now;

  if (model == NULL || !strobe_memory_graph_get_range (self, &a, &b) || !gtk_widget_get_realized (GTK_WIDGET (self)))
    return;
  n = (guint) MAX (plot_width (self), 1.0);
  generation = strobe_memory_model_get_generation (model);
  if (series_matches (self->series, a, b, n, generation))
    return;
  if (strobe_memory_job_is_running (self->job) && self->want_a == a && self->want_b == b && self->want_n == n)
    return;
  /* Only the model grew (a live trace): not more often than LIVE_INTERVAL. */
  now = g_get_monotonic_time ();
  if (self->series != NULL && series_matches (self->series, a, b, n, strobe_memory_series_get_generation (self->series)) &&
      now - self->last_request_us < LIVE_INTERVAL * 1000)
    {
      if (self->refresh_source == 0)
        self->refresh_source = g_timeout_add (LIVE_INTERVAL, refresh_cb, self);
      return;
    }
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
  return series_matches (self->series, a, b, (guint) MAX (plot_width (self), 1.0),
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

typedef double (*ValueFunc) (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data);

/* The pixel columns [x0, x1) of sample @i on a plot @w wide (at least one). */
static void
sample_columns (StrobeMemorySeries *s, guint i, double w, int *x0, int *x1)
{
  const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (s);
  guint n = strobe_memory_series_get_n_points (s);
  guint64 a = strobe_memory_series_get_start (s), b = strobe_memory_series_get_end (s);
  guint64 end = i + 1 < n ? p[i + 1].time : b;

  *x0 = (int) floor ((double) (p[i].time - a) / (double) (b - a) * w);
  *x1 = MAX ((int) floor ((double) (end - a) / (double) (b - a) * w), *x0 + 1);
}

static double
y_of (const LaneBox *box, double v, double max)
{
  return round (box->y + box->h - MIN (MAX (v, 0) / max, 1.0) * (box->h - 2));
}

/* The plot's pixels, written directly: every shape is a pixel-aligned box, one column a
 * sample (the samples are one a pixel), blended into the image surface — no path, no
 * rasterizer (cairo's fill of the same boxes took 7 ms a redraw, its anti-aliased
 * polygons and strokes 17). */
typedef struct
{
  guint32 *data;
  int      stride;   /* in pixels */
  int      width, height;
  int      scale;
  guint32  color;    /* premultiplied ARGB */
  guint    alpha;    /* 0..255 */
} Canvas;

static void
canvas_color (Canvas *c, const GdkRGBA *rgba, double alpha)
{
  double a = CLAMP (rgba->alpha * alpha, 0.0, 1.0);
  guint r = (guint) (rgba->red * a * 255 + 0.5), g = (guint) (rgba->green * a * 255 + 0.5);
  guint b = (guint) (rgba->blue * a * 255 + 0.5);

  c->alpha = (guint) (a * 255 + 0.5);
  c->color = (c->alpha << 24) | (r << 16) | (g << 8) | b;
}

/* Source over, [x, x + w) × [y, y + h) in the plot's units. */
static void
canvas_box (Canvas *c, double x, double y, double w, double h)
{
  int x0 = MAX ((int) (x * c->scale), 0), x1 = MIN ((int) ((x + w) * c->scale), c->width);
  int y0 = MAX ((int) (y * c->scale), 0), y1 = MIN ((int) ((y + h) * c->scale), c->height);
  guint inv = 255 - c->alpha;

  for (int yy = y0; yy < y1; yy++)
    {
      guint32 *row = c->data + (gsize) yy * (gsize) c->stride;

      for (int xx = x0; xx < x1; xx++)
        {
          guint32 d = row[xx];

          if (inv == 0)
            row[xx] = c->color;
          else
            {
              /* Each channel: src + dst × (1 − α), the four at once in two halves. */
              guint32 rb = ((d & 0x00ff00ffu) * inv >> 8) & 0x00ff00ffu;
              guint32 ag = ((d >> 8 & 0x00ff00ffu) * inv) & 0xff00ff00u;
              row[xx] = c->color + rb + ag;
            }
        }
    }
}

/* An area: a box from the value down to the lane's bottom, per sample. */
static void
trace_area (Canvas *cr, StrobeMemoryGraph *self, StrobeMemorySeries *s, double w, const LaneBox *box, double max,
            ValueFunc value, gconstpointer data)
{
  guint n = strobe_memory_series_get_n_points (s);
  double base = box->y + box->h;

  for (guint i = 0; i < n; i++)
    {
      int x0, x1;
      double y = y_of (box, value (self, s, i, data), max);

      sample_columns (s, i, w, &x0, &x1);
      if (y < base)
        canvas_box (cr, x0, y, x1 - x0, base - y);
    }
}

/* A band between two values per sample (a tag's share of a stacked graph). */
static void
trace_band (Canvas *cr, StrobeMemoryGraph *self, StrobeMemorySeries *s, double w, const LaneBox *box, double max,
            ValueFunc value, gconstpointer lower, gconstpointer upper)
{
  guint n = strobe_memory_series_get_n_points (s);

  for (guint i = 0; i < n; i++)
    {
      int x0, x1;
      double y0 = y_of (box, value (self, s, i, upper), max), y1 = lower ? y_of (box, value (self, s, i, lower), max)
                                                                            : box->y + box->h;

      sample_columns (s, i, w, &x0, &x1);
      if (y1 > y0)
        canvas_box (cr, x0, y0, x1 - x0, y1 - y0);
    }
}

/* A line: each sample's level, joined to the next by a vertical run. */
static void
trace_line (Canvas *cr, StrobeMemoryGraph *self, StrobeMemorySeries *s, double w, const LaneBox *box, double max,
            ValueFunc value, gconstpointer data, double width)
{
  guint n = strobe_memory_series_get_n_points (s);
  double prev = 0;

  for (guint i = 0; i < n; i++)
    {
      int x0, x1;
      double y = y_of (box, value (self, s, i, data), max), top, bottom;

      sample_columns (s, i, w, &x0, &x1);
      top = i ? MIN (prev, y) : y;
      bottom = (i ? MAX (prev, y) : y) + width;
      canvas_box (cr, x0, top - width / 2, x1 - x0, bottom - top);
      prev = y;
    }
}

static double
value_max_bytes (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  return (double) MAX (strobe_memory_series_get_points (s)[i].max_bytes, 0);
}

static double
value_last_bytes (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  return (double) MAX (strobe_memory_series_get_points (s)[i].last_bytes, 0);
}

static double
value_count (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  return (double) MAX (strobe_memory_series_get_points (s)[i].last_count, 0);
}

static double
value_allocs_rate (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  return (double) strobe_memory_series_get_points (s)[i].allocs / sample_seconds (self, s, i);
}

static double
value_frees_rate (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  return (double) strobe_memory_series_get_points (s)[i].frees / sample_seconds (self, s, i);
}

typedef struct
{
  const gint64 *const *values;
  guint               upto;   /* the sum of groups [0, upto] */
} Stack;

static double
value_stacked (StrobeMemoryGraph *self, StrobeMemorySeries *s, guint i, gconstpointer data)
{
  const Stack *st = data;
  double v = 0;

  for (guint g = 0; g <= st->upto; g++)
    v += (double) MAX (st->values[g][i], 0);
  return v;
}

static double
lane_max (StrobeMemoryGraph *self, StrobeMemorySeries *s, StrobeMemoryLane lane)
{
  guint n = strobe_memory_series_get_n_points (s);
  double max = 0;

  for (guint i = 0; i < n; i++)
    switch (lane)
      {
      case STROBE_MEMORY_LANE_BYTES:
        max = MAX (max, value_max_bytes (self, s, i, NULL));
        break;
      case STROBE_MEMORY_LANE_COUNT:
        max = MAX (max, value_count (self, s, i, NULL));
        break;
      case STROBE_MEMORY_LANE_RATE:
        max = MAX (max, MAX (value_allocs_rate (self, s, i, NULL), value_frees_rate (self, s, i, NULL)));
        break;
      case STROBE_MEMORY_LANE_TAGS:
      case STROBE_MEMORY_LANE_HEAPS:
        {
          StrobeMemoryGroupBy by = lane == STROBE_MEMORY_LANE_TAGS ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP;
          double sum = 0;

          for (guint g = 0; g < strobe_memory_series_get_n_groups (s, by); g++)
            sum += (double) MAX (strobe_memory_series_get_group_values (s, by, g)[i], 0);
          max = MAX (max, sum);
        }
        break;
      case STROBE_MEMORY_N_LANES:
      default:
        break;
      }
  return nice_max (max);
}

static void
draw_stacked (Canvas *cr, StrobeMemoryGraph *self, StrobeMemorySeries *s, double w, const LaneBox *box, double max,
              StrobeMemoryGroupBy by)
{
  guint groups = strobe_memory_series_get_n_groups (s, by);
  g_autofree const gint64 **values = g_new0 (const gint64 *, MAX (groups, 1));

  for (guint g = 0; g < groups; g++)
    values[g] = strobe_memory_series_get_group_values (s, by, g);
  /* The first (largest) group at the bottom, each next one on top of the ones below. */
  for (guint g = 0; g < groups; g++)
    {
      Stack below = { values, g - 1 }, upto = { values, g };
      const GdkRGBA *c = &palette[g % G_N_ELEMENTS (palette)];

      canvas_color (cr, c, 0.9);
      trace_band (cr, self, s, w, box, max, value_stacked, g ? &below : NULL, &upto);
    }
}

static void
draw_plot (StrobeMemoryGraph *self, cairo_t *cr, double w, double h, const GdkRGBA *fg)
{
  StrobeMemorySeries *s = self->series;
  cairo_surface_t *surface = cairo_get_target (cr);
  LaneBox boxes[STROBE_MEMORY_N_LANES];
  Canvas canvas;

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
  cairo_surface_flush (surface);
  canvas.data = (guint32 *) (void *) cairo_image_surface_get_data (surface);
  canvas.stride = cairo_image_surface_get_stride (surface) / 4;
  canvas.width = cairo_image_surface_get_width (surface);
  canvas.height = cairo_image_surface_get_height (surface);
  canvas.scale = MAX ((int) (canvas.width / MAX (w, 1) + 0.5), 1);
  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    {
      const LaneBox *box = &boxes[l];
      double max;

      if (!self->visible[l])
        continue;
      max = lane_max (self, s, l);
      switch (l)
        {
        case STROBE_MEMORY_LANE_BYTES:
          canvas_color (&canvas, &COLOR_BYTES, 0.35);
          trace_area (&canvas, self, s, w, box, max, value_max_bytes, NULL);
          canvas_color (&canvas, &COLOR_BYTES, 1.0);
          trace_line (&canvas, self, s, w, box, max, value_last_bytes, NULL, 2);
          break;
        case STROBE_MEMORY_LANE_COUNT:
          canvas_color (&canvas, &COLOR_COUNT, 0.3);
          trace_area (&canvas, self, s, w, box, max, value_count, NULL);
          canvas_color (&canvas, &COLOR_COUNT, 1.0);
          trace_line (&canvas, self, s, w, box, max, value_count, NULL, 2);
          break;
        case STROBE_MEMORY_LANE_RATE:
          /* Wider under the frees: at equal rates both show. */
          canvas_color (&canvas, &COLOR_ALLOCS, 1.0);
          trace_line (&canvas, self, s, w, box, max, value_allocs_rate, NULL, 3);
          canvas_color (&canvas, &COLOR_FREES, 1.0);
          trace_line (&canvas, self, s, w, box, max, value_frees_rate, NULL, 1);
          break;
        case STROBE_MEMORY_LANE_TAGS:
          draw_stacked (&canvas, self, s, w, box, max, STROBE_MEMORY_BY_TAG);
          break;
        case STROBE_MEMORY_LANE_HEAPS:
          draw_stacked (&canvas, self, s, w, box, max, STROBE_MEMORY_BY_HEAP);
          break;
        default:
          break;
        }
    }
  cairo_surface_mark_dirty (surface);
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
          g_autofree char *top = scale_label (self, l, lane_max (self, s, l) / 1.08);

          set_source (cr, fg, 0.7);
          /* Translators: the highest value a graph shows */
          {
            g_autofree char *text = g_strdup_printf (_("max %s"), top);
            show_text (widget, cr, 6, y, w, text, FALSE, 0.8);
          }
          y += 14;
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
  int pw = MAX ((int) plot_width (self), 1);

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
      double x = time_to_x (scale, t->time);
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
vline (GtkSnapshot *snapshot, double x, double y0, double y1, const GdkRGBA *c, double width)
{
  gtk_snapshot_append_color (snapshot, c, &GRAPHENE_RECT_INIT ((float) (x - width / 2), (float) y0, (float) width,
                                                               (float) (y1 - y0)));
}

static void
draw_label (StrobeMemoryGraph *self, GtkSnapshot *snapshot, double x, double y, const char *text,
            const GdkRGBA *bg, const GdkRGBA *fg, gboolean right_of)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoRectangle ink, logical;
  double w, h, bx, by;

  pango_layout_get_pixel_extents (layout, &ink, &logical);
  w = logical.width + 10;
  h = logical.height + 6;
  bx = right_of ? x + 10 : x - w - 10;
  if (bx + w > gtk_widget_get_width (GTK_WIDGET (self)))
    bx = x - w - 10;
  if (bx < 0)
    bx = x + 10;
  by = MIN (y, gtk_widget_get_height (GTK_WIDGET (self)) - h - 2);
  by = MAX (by, 2);
  {
    GskRoundedRect rr;
    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT ((float) bx, (float) by, (float) w, (float) h), 4);
    gtk_snapshot_push_rounded_clip (snapshot, &rr);
    gtk_snapshot_append_color (snapshot, bg, &rr.bounds);
    gtk_snapshot_pop (snapshot);
  }
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) bx + 5, (float) by + 3));
  gtk_snapshot_append_layout (snapshot, layout, fg);
  gtk_snapshot_restore (snapshot);
}

static void
strobe_memory_graph_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale_factor = gtk_widget_get_scale_factor (widget);
  double pw = plot_width (self), top = 2, bottom = h - AXIS_H;
  StrobeTimeScale scale;
  guint64 a, b;
  GdkRGBA fg, dim;

  if (!plot_scale (self, &scale) || w <= GUTTER)
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
      double x0 = time_to_x (&scale, sa), x1 = time_to_x (&scale, sb);

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
  /* The selection. */
  if (self->state)
    {
      guint64 s0, s1;

      if (strobe_view_state_get_selection (self->state, &s0, &s1))
        {
          GdkRGBA sel = { 0.21f, 0.52f, 0.89f, 0.18f }, edge = { 0.21f, 0.52f, 0.89f, 0.8f };
          double x0 = time_to_x (&scale, s0), x1 = time_to_x (&scale, s1);

          gtk_snapshot_append_color (snapshot, &sel, &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) MAX (x1 - x0, 1),
                                                                          (float) (bottom - top)));
          vline (snapshot, x0, top, bottom, &edge, 1);
          vline (snapshot, x1, top, bottom, &edge, 1);
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
      x = time_to_x (&scale, self->markers[m]);
      vline (snapshot, x, top, bottom, &colors[m], 1.5);
      draw_label (self, snapshot, x - 8, bottom - 18 - 18 * m, letters[m], &colors[m], &white, TRUE);
    }
  /* The cursor. */
  if (self->state)
    {
      guint64 cursor = strobe_view_state_get_cursor (self->state);

      if (cursor != STROBE_VIEW_STATE_NONE && cursor >= a && cursor <= b)
        {
          GdkRGBA c = fg;
          c.alpha *= 0.8f;
          vline (snapshot, time_to_x (&scale, cursor), top, bottom, &c, 1.5);
        }
    }
  gtk_snapshot_pop (snapshot);

  /* The hover and its values. */
  if (self->hovering && self->hover_x >= GUTTER && self->hover_x <= GUTTER + pw)
    {
      guint64 t = x_to_time (self, self->hover_x);
      g_autofree char *text = strobe_memory_graph_describe_at (self, t);
      GdkRGBA c = fg, bg;

      c.alpha *= 0.5f;
      vline (snapshot, self->hover_x, top, bottom, &c, 1);
      if (text != NULL)
        {
          gboolean dark = fg.red + fg.green + fg.blue > 1.5f;

          bg = dark ? (GdkRGBA) { 0.12f, 0.12f, 0.14f, 0.92f } : (GdkRGBA) { 1, 1, 1, 0.94f };
          draw_label (self, snapshot, self->hover_x, self->hover_y + 12, text, &bg, &fg, TRUE);
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

/* ---- input ------------------------------------------------------------------------------- */

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           StrobeMemoryGraph        *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  if (self->state && x >= GUTTER)
    strobe_view_state_set_hover (self->state, x_to_time (self, x));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *controller,
          StrobeMemoryGraph        *self)
{
  self->hovering = FALSE;
  if (self->state)
    strobe_view_state_set_hover (self->state, STROBE_VIEW_STATE_NONE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_begin_cb (GtkGestureDrag    *gesture,
               double             x,
               double             y,
               StrobeMemoryGraph *self)
{
  self->drag_x = x;
  self->dragging = FALSE;
  self->drag_anchor = x_to_time (self, x);
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag    *gesture,
                double             dx,
                double             dy,
                StrobeMemoryGraph *self)
{
  guint64 t;

  if (!self->dragging && fabs (dx) < DRAG_SLOP)
    return;
  self->dragging = TRUE;
  t = x_to_time (self, self->drag_x + dx);
  if (self->state)
    strobe_view_state_set_selection (self->state, MIN (t, self->drag_anchor), MAX (t, self->drag_anchor));
}

static void
drag_end_cb (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             StrobeMemoryGraph *self)
{
  if (!self->dragging && self->state && self->drag_x >= GUTTER)
    {
      strobe_view_state_set_cursor (self->state, self->drag_anchor);
      self->key_anchor = self->drag_anchor;
    }
  self->dragging = FALSE;
}

static guint64
cursor_or_hover (StrobeMemoryGraph *self)
{
  guint64 cursor = self->state ? strobe_view_state_get_cursor (self->state) : STROBE_VIEW_STATE_NONE;

  if (cursor != STROBE_VIEW_STATE_NONE)
    return cursor;
  if (self->hovering)
    return x_to_time (self, self->hover_x);
  return STROBE_VIEW_STATE_NONE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                StrobeMemoryGraph     *self)
{
  guint64 a, b, cursor, step, t;

  if (self->state == NULL || !strobe_memory_graph_get_range (self, &a, &b))
    return FALSE;
  cursor = strobe_view_state_get_cursor (self->state);
  step = MAX ((b - a) / ((state & GDK_CONTROL_MASK) ? 10 : 100), 1);
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_Right:
    case GDK_KEY_Home:
    case GDK_KEY_End:
      if (cursor == STROBE_VIEW_STATE_NONE || cursor < a || cursor > b)
        cursor = a + (b - a) / 2;
      if (keyval == GDK_KEY_Left)
        t = cursor > a + step ? cursor - step : a;
      else if (keyval == GDK_KEY_Right)
        t = MIN (cursor + step, b - 1);
      else
        t = keyval == GDK_KEY_Home ? a : b - 1;
      if (state & GDK_SHIFT_MASK)
        {
          guint64 anchor = strobe_view_state_get_selection (self->state, NULL, NULL) ? self->key_anchor : cursor;

          self->key_anchor = anchor;
          strobe_view_state_set_selection (self->state, MIN (anchor, t), MAX (anchor, t));
        }
      else
        self->key_anchor = t;
      strobe_view_state_set_cursor (self->state, t);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_b:
    case GDK_KEY_c:
      if ((t = cursor_or_hover (self)) == STROBE_VIEW_STATE_NONE)
        return FALSE;
      g_signal_emit (self, signals[MARKER_REQUESTED], 0, (guint) (keyval - GDK_KEY_a), t);
      return TRUE;
    case GDK_KEY_Escape:
      if (!strobe_view_state_get_selection (self->state, NULL, NULL))
        return FALSE;
      strobe_view_state_clear_selection (self->state);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
context_cb (GtkGestureClick   *gesture,
            int                n_press,
            double             x,
            double             y,
            StrobeMemoryGraph *self)
{
  if (x < GUTTER)
    return;
  self->menu_time = x_to_time (self, x);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
set_marker_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  g_signal_emit (self, signals[MARKER_REQUESTED], 0, (guint) MIN (g_variant_get_uint32 (parameter), 2u),
                 self->menu_time);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  if (self->state)
    strobe_view_state_clear_selection (self->state);
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);
  guint64 t = cursor_or_hover (self);
  StrobeTimeScale scale;
  guint64 a, b;
  double x;

  if (!plot_scale (self, &scale))
    return;
  a = scale.start;
  b = strobe_time_scale_end (&scale);
  if (t == STROBE_VIEW_STATE_NONE || t < a || t > b)
    t = a + (b - a) / 2;
  x = time_to_x (&scale, t);
  self->menu_time = t;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, 30, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
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
strobe_memory_graph_model_changed (StrobeMemoryGraph *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_GRAPH (self));
  request_series (self);
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
    strobe_memory_job_cancel (self->job);
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

  /* (which: 0, 1, 2 for A, B, C; time) */
  signals[MARKER_REQUESTED] =
    g_signal_new ("marker-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT64);

  gtk_widget_class_install_action (widget_class, "graph.set-marker", "u", set_marker_action);
  gtk_widget_class_install_action (widget_class, "graph.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "graph.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "graph.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "graph.menu", NULL);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strobe_memory_graph_init (StrobeMemoryGraph *self)
{
  GtkEventController *motion, *key;
  GtkGesture *drag, *click;
  g_autoptr (GMenu) menu = g_menu_new ();

  for (guint l = 0; l < STROBE_MEMORY_N_LANES; l++)
    self->visible[l] = TRUE;
  for (guint m = 0; m < 3; m++)
    self->markers[m] = STROBE_VIEW_STATE_NONE;
  self->job = strobe_memory_job_new ();
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (context_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);

  g_menu_append (menu, _("Set Marker _A Here"), "graph.set-marker(uint32 0)");
  g_menu_append (menu, _("Set Marker _B Here"), "graph.set-marker(uint32 1)");
  g_menu_append (menu, _("Set Marker _C Here"), "graph.set-marker(uint32 2)");
  g_menu_append (menu, _("C_lear Selection"), "graph.clear-selection");
  self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory over time"), -1);
}

GtkWidget *
strobe_memory_graph_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_GRAPH, NULL);
}
