/* strobe-chart-layers.h — what charts on the time axis are drawn with, one layer at a time:
 * a series (an area under it, or a line), a stacked series (bands, the first at the
 * bottom), an envelope (a dense series summarised a column at a time: its least to its
 * greatest value, joined straight or in steps), marks (a moment: a vertical line, a label)
 * and spans (a range: a band with edges).
 *
 * Series are drawn into a StrobeChartCanvas: pixel-aligned boxes written straight into an
 * image surface, one column per sample (charts ask for one sample a pixel), blended source
 * over — no path, no rasterizer: cairo's fill of the same boxes took 7 ms a redraw of the
 * memory graphs, its anti-aliased polygons and strokes 17. Marks and spans are drawn each
 * frame on a GtkSnapshot.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-time-scale.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

/* ---- the canvas --------------------------------------------------------------------------- */

typedef struct
{
  guint32 *data;
  int      stride;   /* in pixels */
  int      width, height;
  int      scale;    /* device pixels a pixel */
  guint32  color;    /* premultiplied ARGB */
  guint    alpha;    /* 0..255 */
} StrobeChartCanvas;

/* The canvas of an ARGB32 image surface drawn at @width pixels wide (flushed; mark it dirty
 * when done). */
void     strobe_chart_canvas_init  (StrobeChartCanvas    *canvas,
                                    cairo_surface_t      *surface,
                                    double                width);
/* The colour the next shapes are drawn in, @alpha times its own. */
void     strobe_chart_canvas_color (StrobeChartCanvas    *canvas,
                                    const GdkRGBA        *rgba,
                                    double                alpha);
/* Source over, [x, x + w) × [y, y + h) in pixels, clipped to the canvas. */
void     strobe_chart_canvas_box   (StrobeChartCanvas    *canvas,
                                    double                x,
                                    double                y,
                                    double                w,
                                    double                h);

/* ---- series --------------------------------------------------------------------------------- */

/* Where a series is drawn: a band of the chart and the values at its top and bottom. */
typedef struct
{
  double y, h;
  double max;        /* > min */
  double min;        /* 0 unless given */
} StrobeChartLane;

/* The pixel row of @value in @lane (@min at the bottom, @max two pixels under the top,
 * values beyond them on those rows; halfway between those two rows when @max is not above
 * @min). */
double   strobe_chart_lane_y       (const StrobeChartLane *lane,
                                    double                 value);

/* A series: @n samples, sample i from time (i) until the next one's (the last until
 * @end), its value (i) (≥ 0 is drawn). */
typedef struct
{
  guint          n;
  guint64        end;
  guint64      (*time)  (gconstpointer data,
                         guint         i);
  double       (*value) (gconstpointer data,
                         guint         i);
  gconstpointer  data;
} StrobeChartSeries;

/* The pixel columns [*x0, *x1) of sample @i on @scale (at least one). */
void     strobe_chart_series_columns (const StrobeChartSeries *series,
                                      const StrobeTimeScale   *scale,
                                      guint                    i,
                                      int                     *x0,
                                      int                     *x1);
/* The largest value of @series (0 for none). */
double   strobe_chart_series_max     (const StrobeChartSeries *series);

/* An area: each sample's columns filled from its value down to the lane's bottom. */
void     strobe_chart_area         (StrobeChartCanvas       *canvas,
                                    const StrobeTimeScale   *scale,
                                    const StrobeChartLane   *lane,
                                    const StrobeChartSeries *series);
/* A line @width pixels thick: each sample's level, joined to the next by a vertical run. */
void     strobe_chart_line         (StrobeChartCanvas       *canvas,
                                    const StrobeTimeScale   *scale,
                                    const StrobeChartLane   *lane,
                                    const StrobeChartSeries *series,
                                    double                   width);
/* Stacked series (the same samples' times): series 0 at the bottom, each next one on the
 * sum of those below, in @colors[k % n_colors] at @alpha. */
void     strobe_chart_stacked      (StrobeChartCanvas       *canvas,
                                    const StrobeTimeScale   *scale,
                                    const StrobeChartLane   *lane,
                                    const StrobeChartSeries *series,
                                    guint                    n_series,
                                    const GdkRGBA           *colors,
                                    guint                    n_colors,
                                    double                   alpha);
/* The largest sum of stacked series at one sample (0 for none). */
double   strobe_chart_stacked_max  (const StrobeChartSeries *series,
                                    guint                    n_series);

/* An envelope: a series summarised into @n buckets of its samples (in time order, about one
 * a pixel column, as strobe_timeline_model_get_counter_series() gives them; the samples
 * just before and after the range as buckets of one sample at either end). Consecutive
 * buckets are joined straight or, when @step, each value held until the next; a bucket of
 * several samples covers its columns from its least to its greatest value, so no spike is
 * lost however dense the samples. The line is @width pixels thick in @color; the area
 * under it, down to the lane's bottom, in @color at @fill_alpha. Values fall between rows
 * here (a row the line covers in part is drawn in that part of its alpha), so a slow
 * slope reads as a line, not as stairs of a row. */
void     strobe_chart_envelope     (StrobeChartCanvas         *canvas,
                                    const StrobeTimeScale     *scale,
                                    const StrobeChartLane     *lane,
                                    const StrobeCounterBucket *buckets,
                                    guint                      n,
                                    gboolean                   step,
                                    const GdkRGBA             *color,
                                    double                     width,
                                    double                     fill_alpha);

/* ---- marks and spans -------------------------------------------------------------------------- */

/* A moment: a vertical line @width wide at @x from @y0 to @y1. */
void     strobe_chart_mark         (GtkSnapshot             *snapshot,
                                    double                   x,
                                    double                   y0,
                                    double                   y1,
                                    const GdkRGBA           *color,
                                    double                   width);
/* A label on a rounded box, right of @x (left when it does not fit in @bounds_w), its top
 * at @y kept inside [2, @bounds_h - 2]. */
void     strobe_chart_mark_label   (GtkSnapshot             *snapshot,
                                    PangoLayout             *layout,
                                    double                   x,
                                    double                   y,
                                    double                   bounds_w,
                                    double                   bounds_h,
                                    const GdkRGBA           *bg,
                                    const GdkRGBA           *fg);
/* A range [@x0, @x1] (at least a pixel) from @y0 to @y1: filled, a line at each edge. */
void     strobe_chart_span         (GtkSnapshot             *snapshot,
                                    double                   x0,
                                    double                   x1,
                                    double                   y0,
                                    double                   y1,
                                    const GdkRGBA           *fill,
                                    const GdkRGBA           *edge);

G_END_DECLS
