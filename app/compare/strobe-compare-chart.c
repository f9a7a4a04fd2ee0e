/* strobe-compare-chart.c — the histograms of A and B, drawn with app/chart's layers: the
 * bars as canvas boxes (A under B, each translucent, so where they overlap shows both),
 * the medians as marks with labels, the axis ends as text.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "strobe-chart-layers.h"
#include "strobe-compare-chart.h"
#include "strobe-format.h"

#define PAD 8.0
#define AXIS_H 18.0

struct _StrobeCompareChart
{
  GtkWidget               parent_instance;
  StrobeCompareHistogram *histogram;
  char                   *title;
  gdouble                 target;   /* seconds; NaN: none */
};

G_DEFINE_FINAL_TYPE (StrobeCompareChart, strobe_compare_chart, GTK_TYPE_WIDGET)

/* A is the baseline in blue, B the new one in orange: the two Tracy uses. */
static const GdkRGBA color_a = { 0.20f, 0.52f, 0.89f, 1.0f };
static const GdkRGBA color_b = { 0.96f, 0.47f, 0.00f, 1.0f };

static void
fg_color (GtkWidget *widget, GdkRGBA *out)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (context, out);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
draw_bars (StrobeCompareChart *self, GtkSnapshot *snapshot, double x, double y, double w, double h)
{
  const StrobeCompareHistogram *hg = self->histogram;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  cairo_surface_t *surface;
  StrobeChartCanvas canvas;
  StrobeChartLane lane = { 0, h, (double) MAX (hg->max, 1) };
  double bw = w / hg->n_bins;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w * scale, (int) h * scale);
  strobe_chart_canvas_init (&canvas, surface, (int) w);
  for (guint side = 0; side < 2; side++)
    {
      const guint64 *bins = side == 0 ? hg->a : hg->b;

      strobe_chart_canvas_color (&canvas, side == 0 ? &color_a : &color_b, 0.6);
      for (guint k = 0; k < hg->n_bins; k++)
        if (bins[k])
          {
            double top = strobe_chart_lane_y (&lane, (double) bins[k]);
            strobe_chart_canvas_box (&canvas, floor (k * bw), top, MAX (floor ((k + 1) * bw) - floor (k * bw), 1), h - top);
          }
    }
  cairo_surface_mark_dirty (surface);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT ((float) x, (float) y, (float) w, (float) h));
  cairo_translate (cr, x, y);
  cairo_scale (cr, 1.0 / scale, 1.0 / scale);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
draw_text (GtkWidget *widget, GtkSnapshot *snapshot, const char *text, double x, double y, gboolean right,
           const GdkRGBA *color)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int tw, th;

  pango_layout_get_pixel_size (layout, &tw, &th);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) (right ? x - tw : x), (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

static void
strobe_compare_chart_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeCompareChart *self = STROBE_COMPARE_CHART (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  double pw = w - 2 * PAD, ph = h - 2 * PAD - 2 * AXIS_H, py = PAD + AXIS_H;
  const StrobeCompareHistogram *hg = self->histogram;
  GdkRGBA fg, dim;

  fg_color (widget, &fg);
  dim = fg;
  dim.alpha *= 0.6f;
  if (hg == NULL || pw < 20 || ph < 20)
    {
      draw_text (widget, snapshot, _("Select a row to see its distributions"), PAD, PAD, FALSE, &dim);
      return;
    }
  if (self->title)
    draw_text (widget, snapshot, self->title, PAD, PAD, FALSE, &fg);
  draw_bars (self, snapshot, PAD, py, pw, ph);
  /* The medians, each in its trace's colour, labelled with their value. */
  for (guint side = 0; side < 2; side++)
    {
      gdouble m = side == 0 ? hg->median_a : hg->median_b;
      const GdkRGBA *c = side == 0 ? &color_a : &color_b;
      g_autofree char *value = NULL, *label = NULL;
      PangoLayout *layout;
      double x;

      if (isnan (m))
        continue;
      x = PAD + strobe_compare_histogram_position (hg, m) * pw;
      strobe_chart_mark (snapshot, x, py, py + ph, c, 2);
      value = strobe_format_duration_s (m);
      /* Translators: the median of trace A or B, then its value */
      label = g_strdup_printf (_("%s median %s"), side == 0 ? "A" : "B", value);
      layout = gtk_widget_create_pango_layout (widget, label);
      strobe_chart_mark_label (snapshot, layout, x, py + 2 + side * 20, w, h, c, &(GdkRGBA) { 1, 1, 1, 1 });
      g_object_unref (layout);
    }
  /* The target in red, dashed apart from the medians by its label's place at the foot. */
  if (self->target > 0)
    {
      static const GdkRGBA red = { 0.85f, 0.10f, 0.10f, 1.0f };
      g_autofree char *value = strobe_format_duration_s (self->target);
      /* Off the axis it stands at the end it lies beyond, saying so. */
      g_autofree char *label = self->target < hg->lo   /* Translators: the frame time to meet, shorter than every frame */
                               ? g_strdup_printf (_("◂ target %s"), value)
                               : self->target > hg->hi /* Translators: the frame time to meet, longer than every frame */
                               ? g_strdup_printf (_("target %s ▸"), value)
                               /* Translators: the frame time to meet, then its value */
                               : g_strdup_printf (_("target %s"), value);
      double x = PAD + strobe_compare_histogram_position (hg, self->target) * pw;
      PangoLayout *layout = gtk_widget_create_pango_layout (widget, label);

      strobe_chart_mark (snapshot, x, py, py + ph, &red, 2);
      strobe_chart_mark_label (snapshot, layout, x, py + ph - 20, w, h, &red, &(GdkRGBA) { 1, 1, 1, 1 });
      g_object_unref (layout);
    }
  {
    g_autofree char *lo = strobe_format_duration_s (hg->lo), *hi = strobe_format_duration_s (hg->hi);
    g_autofree char *counts = g_strdup_printf (_("A: %" PRIu64 "   B: %" PRIu64 "%s"), hg->n_a,
                                               hg->n_b, hg->log ? _("   (log scale)") : "");

    draw_text (widget, snapshot, lo, PAD, py + ph + 2, FALSE, &dim);
    draw_text (widget, snapshot, hi, w - PAD, py + ph + 2, TRUE, &dim);
    draw_text (widget, snapshot, counts, w - PAD, PAD, TRUE, &dim);
  }
}

static void
strobe_compare_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                              int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 180;
}

static void
strobe_compare_chart_finalize (GObject *object)
{
  StrobeCompareChart *self = STROBE_COMPARE_CHART (object);

  strobe_compare_histogram_free (self->histogram);
  g_free (self->title);
  G_OBJECT_CLASS (strobe_compare_chart_parent_class)->finalize (object);
}

static void
strobe_compare_chart_class_init (StrobeCompareChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = strobe_compare_chart_finalize;
  widget_class->snapshot = strobe_compare_chart_snapshot;
  widget_class->measure = strobe_compare_chart_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
  gtk_widget_class_set_css_name (widget_class, "comparechart");
}

static void
strobe_compare_chart_init (StrobeCompareChart *self)
{
  self->target = NAN;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Distributions of A and B"),
                                  -1);
}

GtkWidget *
strobe_compare_chart_new (void)
{
  return g_object_new (STROBE_TYPE_COMPARE_CHART, NULL);
}

void
strobe_compare_chart_set_histogram (StrobeCompareChart *self, StrobeCompareHistogram *histogram, const char *title)
{
  g_return_if_fail (STROBE_IS_COMPARE_CHART (self));

  strobe_compare_histogram_free (self->histogram);
  self->histogram = histogram;
  g_free (self->title);
  self->title = g_strdup (title);
  /* What the picture says, for a screen reader: both medians. */
  if (histogram)
    {
      g_autofree char *ma = strobe_format_duration_s (histogram->median_a);
      g_autofree char *mb = strobe_format_duration_s (histogram->median_b);
      g_autofree char *desc = g_strdup_printf (_("%s: median A %s, median B %s"), title ? title : "", ma, mb);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc, -1);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const StrobeCompareHistogram *
strobe_compare_chart_get_histogram (StrobeCompareChart *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_CHART (self), NULL);
  return self->histogram;
}

void
strobe_compare_chart_set_target (StrobeCompareChart *self, gdouble seconds)
{
  g_return_if_fail (STROBE_IS_COMPARE_CHART (self));

  self->target = seconds > 0 ? seconds : NAN;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gdouble
strobe_compare_chart_get_target (StrobeCompareChart *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_CHART (self), NAN);
  return self->target;
}
