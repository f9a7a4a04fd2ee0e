/* strobe-chart-layers.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-chart-layers.h"

/* ---- the canvas --------------------------------------------------------------------------- */

void
strobe_chart_canvas_init (StrobeChartCanvas *canvas,
                          cairo_surface_t   *surface,
                          double             width)
{
  g_return_if_fail (canvas != NULL);
  g_return_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_ARGB32);

  cairo_surface_flush (surface);
  canvas->data = (guint32 *) (void *) cairo_image_surface_get_data (surface);
  canvas->stride = cairo_image_surface_get_stride (surface) / 4;
  canvas->width = cairo_image_surface_get_width (surface);
  canvas->height = cairo_image_surface_get_height (surface);
  canvas->scale = MAX ((int) (canvas->width / MAX (width, 1) + 0.5), 1);
  canvas->color = 0;
  canvas->alpha = 0;
}

void
strobe_chart_canvas_color (StrobeChartCanvas *canvas,
                           const GdkRGBA     *rgba,
                           double             alpha)
{
  double a = CLAMP (rgba->alpha * alpha, 0.0, 1.0);
  guint r = (guint) (rgba->red * a * 255 + 0.5), g = (guint) (rgba->green * a * 255 + 0.5);
  guint b = (guint) (rgba->blue * a * 255 + 0.5);

  canvas->alpha = (guint) (a * 255 + 0.5);
  canvas->color = (canvas->alpha << 24) | (r << 16) | (g << 8) | b;
}

void
strobe_chart_canvas_box (StrobeChartCanvas *c,
                         double             x,
                         double             y,
                         double             w,
                         double             h)
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

/* ---- series --------------------------------------------------------------------------------- */

/* Where @value falls in @lane, between rows. */
static double
lane_y_exact (const StrobeChartLane *lane,
              double                 value)
{
  if (!(lane->max > lane->min))
    return lane->y + 1 + lane->h / 2;
  return lane->y + lane->h - CLAMP ((value - lane->min) / (lane->max - lane->min), 0.0, 1.0) * (lane->h - 2);
}

double
strobe_chart_lane_y (const StrobeChartLane *lane,
                     double                 value)
{
  return round (lane_y_exact (lane, value));
}

void
strobe_chart_series_columns (const StrobeChartSeries *series,
                             const StrobeTimeScale   *scale,
                             guint                    i,
                             int                     *x0,
                             int                     *x1)
{
  guint64 end = i + 1 < series->n ? series->time (series->data, i + 1) : series->end;

  *x0 = (int) floor (strobe_time_scale_x (scale, series->time (series->data, i)));
  *x1 = MAX ((int) floor (strobe_time_scale_x (scale, end)), *x0 + 1);
}

double
strobe_chart_series_max (const StrobeChartSeries *series)
{
  double max = 0;

  for (guint i = 0; i < series->n; i++)
    max = MAX (max, series->value (series->data, i));
  return max;
}

void
strobe_chart_area (StrobeChartCanvas       *canvas,
                   const StrobeTimeScale   *scale,
                   const StrobeChartLane   *lane,
                   const StrobeChartSeries *series)
{
  double base = lane->y + lane->h;

  for (guint i = 0; i < series->n; i++)
    {
      int x0, x1;
      double y = strobe_chart_lane_y (lane, series->value (series->data, i));

      strobe_chart_series_columns (series, scale, i, &x0, &x1);
      if (y < base)
        strobe_chart_canvas_box (canvas, x0, y, x1 - x0, base - y);
    }
}

void
strobe_chart_line (StrobeChartCanvas       *canvas,
                   const StrobeTimeScale   *scale,
                   const StrobeChartLane   *lane,
                   const StrobeChartSeries *series,
                   double                   width)
{
  double prev = 0;

  for (guint i = 0; i < series->n; i++)
    {
      int x0, x1;
      double y = strobe_chart_lane_y (lane, series->value (series->data, i)), top, bottom;

      strobe_chart_series_columns (series, scale, i, &x0, &x1);
      top = i ? MIN (prev, y) : y;
      bottom = (i ? MAX (prev, y) : y) + width;
      strobe_chart_canvas_box (canvas, x0, top - width / 2, x1 - x0, bottom - top);
      prev = y;
    }
}

void
strobe_chart_stacked (StrobeChartCanvas       *canvas,
                      const StrobeTimeScale   *scale,
                      const StrobeChartLane   *lane,
                      const StrobeChartSeries *series,
                      guint                    n_series,
                      const GdkRGBA           *colors,
                      guint                    n_colors,
                      double                   alpha)
{
  guint n = n_series ? series[0].n : 0;
  g_autofree double *below = g_new0 (double, MAX (n, 1));

  /* Band after band, so the colour is set once a series; bands do not overlap. */
  for (guint k = 0; k < n_series; k++)
    {
      strobe_chart_canvas_color (canvas, &colors[k % n_colors], alpha);
      for (guint i = 0; i < n; i++)
        {
          int x0, x1;
          double sum = below[i] + MAX (series[k].value (series[k].data, i), 0);
          double y0 = strobe_chart_lane_y (lane, sum);
          double y1 = k ? strobe_chart_lane_y (lane, below[i]) : lane->y + lane->h;

          below[i] = sum;
          strobe_chart_series_columns (&series[k], scale, i, &x0, &x1);
          if (y1 > y0)
            strobe_chart_canvas_box (canvas, x0, y0, x1 - x0, y1 - y0);
        }
    }
}

double
strobe_chart_stacked_max (const StrobeChartSeries *series,
                          guint                    n_series)
{
  guint n = n_series ? series[0].n : 0;
  double max = 0;

  for (guint i = 0; i < n; i++)
    {
      double sum = 0;

      for (guint k = 0; k < n_series; k++)
        sum += MAX (series[k].value (series[k].data, i), 0);
      max = MAX (max, sum);
    }
  return max;
}

/* The rows a line passes through in each pixel column, [lo, hi]; empty while lo > hi. */
typedef struct
{
  double lo, hi;
} ColumnRun;

static void
column_add (ColumnRun *runs,
            int        n,
            int        c,
            double     y)
{
  if (c < 0 || c >= n)
    return;
  runs[c].lo = MIN (runs[c].lo, y);
  runs[c].hi = MAX (runs[c].hi, y);
}

/* The line from (x0, y0) to (x1, y1) — straight, or level at y0 then up or down at x1 —
 * into the columns it crosses, clipped to [0, n). */
static void
column_segment (ColumnRun *runs,
                int        n,
                double     x0,
                double     y0,
                double     x1,
                double     y1,
                gboolean   step)
{
  double c0 = floor (x0), c1 = floor (x1);

  for (double c = MAX (c0, 0); c <= MIN (c1, n - 1); c++)
    {
      if (step || x1 - x0 < 1e-9)
        column_add (runs, n, (int) c, y0);
      else
        {
          /* Where the line enters and leaves this column. */
          double a = MAX (x0, c), b = MIN (x1, c + 1);
          column_add (runs, n, (int) c, y0 + (y1 - y0) * (a - x0) / (x1 - x0));
          column_add (runs, n, (int) c, y0 + (y1 - y0) * (b - x0) / (x1 - x0));
        }
    }
  if (c1 >= 0 && c1 < n)
    column_add (runs, n, (int) c1, y1);
}

/* Column @c from row @top to row @bottom (fractions of a row too): the rows it covers whole
 * as one box, a row it covers in part in that part of @alpha — a line between two rows
 * shows there as two lighter rows, the way an antialiased stroke does, not as a thick one. */
static void
column_fill (StrobeChartCanvas *canvas,
             int                c,
             double             top,
             double             bottom,
             const GdkRGBA     *color,
             double             alpha)
{
  double whole_top = ceil (top), whole_bottom = floor (bottom);

  if (bottom <= top)
    return;
  if (whole_bottom < whole_top)
    {
      /* Inside one row. */
      strobe_chart_canvas_color (canvas, color, alpha * (bottom - top));
      strobe_chart_canvas_box (canvas, c, floor (top), 1, 1);
      return;
    }
  if (whole_top > top)
    {
      strobe_chart_canvas_color (canvas, color, alpha * (whole_top - top));
      strobe_chart_canvas_box (canvas, c, whole_top - 1, 1, 1);
    }
  strobe_chart_canvas_color (canvas, color, alpha);
  if (whole_bottom > whole_top)
    strobe_chart_canvas_box (canvas, c, whole_top, 1, whole_bottom - whole_top);
  if (bottom > whole_bottom)
    {
      strobe_chart_canvas_color (canvas, color, alpha * (bottom - whole_bottom));
      strobe_chart_canvas_box (canvas, c, whole_bottom, 1, 1);
    }
}

void
strobe_chart_envelope (StrobeChartCanvas         *canvas,
                       const StrobeTimeScale     *scale,
                       const StrobeChartLane     *lane,
                       const StrobeCounterBucket *buckets,
                       guint                      n,
                       gboolean                   step,
                       const GdkRGBA             *color,
                       double                     width,
                       double                     fill_alpha)
{
  int columns = canvas->width / MAX (canvas->scale, 1);
  g_autofree ColumnRun *runs = NULL;
  double base = lane->y + lane->h, last_x = 0, last_y = 0;

  g_return_if_fail (canvas != NULL && scale != NULL && lane != NULL && color != NULL);
  g_return_if_fail (buckets != NULL || n == 0);

  if (n == 0 || columns <= 0)
    return;
  runs = g_new (ColumnRun, columns);
  for (int c = 0; c < columns; c++)
    runs[c] = (ColumnRun) { G_MAXDOUBLE, -G_MAXDOUBLE };

  for (guint i = 0; i < n; i++)
    {
      const StrobeCounterBucket *k = &buckets[i];
      double x = strobe_time_scale_x (scale, k->first_time);
      double xe = MAX (strobe_time_scale_x (scale, k->last_time), x);
      double yf = lane_y_exact (lane, k->first);

      if (i > 0)
        column_segment (runs, columns, last_x, last_y, x, yf, step);
      /* The bucket's own samples: its columns from the least value to the greatest. */
      column_segment (runs, columns, x, yf, xe, lane_y_exact (lane, k->last), FALSE);
      if (k->count > 1)
        for (double c = floor (x); c <= floor (xe); c++)
          {
            column_add (runs, columns, (int) c, lane_y_exact (lane, k->min));
            column_add (runs, columns, (int) c, lane_y_exact (lane, k->max));
          }
      last_x = xe;
      last_y = lane_y_exact (lane, k->last);
    }

  /* The area first, from the line's middle down, then the line over it. */
  for (int c = 0; c < columns; c++)
    if (runs[c].lo <= runs[c].hi)
      column_fill (canvas, c, runs[c].hi, base, color, fill_alpha);
  for (int c = 0; c < columns; c++)
    if (runs[c].lo <= runs[c].hi)
      column_fill (canvas, c, runs[c].lo - width / 2, runs[c].hi + width / 2, color, 1);
}

/* ---- marks and spans -------------------------------------------------------------------------- */

void
strobe_chart_mark (GtkSnapshot   *snapshot,
                   double         x,
                   double         y0,
                   double         y1,
                   const GdkRGBA *color,
                   double         width)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT ((float) (x - width / 2), (float) y0, (float) width,
                                                                   (float) (y1 - y0)));
}

void
strobe_chart_mark_label (GtkSnapshot   *snapshot,
                         PangoLayout   *layout,
                         double         x,
                         double         y,
                         double         bounds_w,
                         double         bounds_h,
                         const GdkRGBA *bg,
                         const GdkRGBA *fg)
{
  PangoRectangle ink, logical;
  GskRoundedRect rr;
  double w, h, bx, by;

  pango_layout_get_pixel_extents (layout, &ink, &logical);
  w = logical.width + 10;
  h = logical.height + 6;
  bx = x + 10;
  if (bx + w > bounds_w)
    bx = x - w - 10;
  if (bx < 0)
    bx = x + 10;
  by = MAX (MIN (y, bounds_h - h - 2), 2);
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT ((float) bx, (float) by, (float) w, (float) h), 4);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, bg, &rr.bounds);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) bx + 5, (float) by + 3));
  gtk_snapshot_append_layout (snapshot, layout, fg);
  gtk_snapshot_restore (snapshot);
}

void
strobe_chart_span (GtkSnapshot   *snapshot,
                   double         x0,
                   double         x1,
                   double         y0,
                   double         y1,
                   const GdkRGBA *fill,
                   const GdkRGBA *edge)
{
  gtk_snapshot_append_color (snapshot, fill, &GRAPHENE_RECT_INIT ((float) x0, (float) y0, (float) MAX (x1 - x0, 1),
                                                                  (float) (y1 - y0)));
  strobe_chart_mark (snapshot, x0, y0, y1, edge, 1);
  strobe_chart_mark (snapshot, x1, y0, y1, edge, 1);
}
