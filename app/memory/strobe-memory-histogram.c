/* strobe-memory-histogram.c
 *
 * Two bar charts one over the other, counts and bytes, one bar per bucket from the
 * smallest used to the largest; cached as a render node per aggregation and size.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-format.h"
#include "strobe-memory-histogram.h"
#include "strobe-memory-names.h"

#define N_BUCKETS 65
#define PAD       8.0
#define LABEL_H   16.0
#define TITLE_H   18.0

struct _StrobeMemoryHistogram
{
  GtkWidget      parent_instance;
  guint64        count[N_BUCKETS];
  guint64        bytes[N_BUCKETS];
  guint          lo, hi;            /* buckets drawn: [lo, hi] */
  gboolean       any;
  GskRenderNode *node;
  int            node_w, node_h;
  int            hovered;           /* bucket, -1 */
  char          *hover_text;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryHistogram, strobe_memory_histogram, GTK_TYPE_WIDGET)

static void
fg_color (GtkWidget *widget, GdkRGBA *fg)
{
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
chart_box (StrobeMemoryHistogram *self, guint which, double *y, double *h)
{
  double total = gtk_widget_get_height (GTK_WIDGET (self)) - 2 * PAD;
  double each = total / 2;

  *y = PAD + which * each + TITLE_H;
  *h = MAX (each - TITLE_H - LABEL_H - 6, 10);
}

static double
bar_width (StrobeMemoryHistogram *self)
{
  return (gtk_widget_get_width (GTK_WIDGET (self)) - 2 * PAD) / (double) MAX (self->hi - self->lo + 1, 1);
}

static void
text_at (GtkSnapshot *snapshot, GtkWidget *widget, double x, double y, double w, const char *text, const GdkRGBA *c,
         double scale, gboolean center)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_width (layout, (int) (w * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  if (center)
    pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, c);
  gtk_snapshot_restore (snapshot);
}

static double
text_width (GtkWidget *widget, const char *text, double scale)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();
  int w;

  pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

static GskRenderNode *
make_node (StrobeMemoryHistogram *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  static const GdkRGBA colors[2] = { { 0.306f, 0.475f, 0.655f, 1 }, { 0.949f, 0.557f, 0.169f, 1 } };
  static const char *const titles[2] = { N_("Allocations by size"), N_("Bytes by size") };
  double bw = bar_width (self), widest = 0;
  guint step;
  GdkRGBA fg, dim;

  fg_color (widget, &fg);
  dim = fg;
  dim.alpha *= 0.7f;
  /* A label every @step bars, so that the widest one never runs into the next. */
  for (guint k = self->lo; k <= self->hi; k++)
    {
      g_autofree char *label = strobe_memory_names_size_short (k);
      widest = MAX (widest, text_width (widget, label, 0.7));
    }
  step = (guint) MAX (1.0, ceil ((widest + 6) / MAX (bw, 1)));
  for (guint which = 0; which < 2; which++)
    {
      const guint64 *v = which == 0 ? self->count : self->bytes;
      guint64 max = 1;
      double y, h;
      g_autofree char *top = NULL, *title = NULL;

      chart_box (self, which, &y, &h);
      for (guint k = self->lo; k <= self->hi; k++)
        max = MAX (max, v[k]);
      top = which == 0 ? strobe_format_count (max) : strobe_format_size (max);
      /* Translators: a chart's title and its highest value */
      title = g_strdup_printf (_("%s (max %s)"), _(titles[which]), top);
      text_at (snapshot, widget, PAD, y - TITLE_H, gtk_widget_get_width (widget) - 2 * PAD, title, &fg, 0.85, FALSE);
      for (guint k = self->lo; k <= self->hi; k++)
        {
          double bh = h * (double) v[k] / (double) max, x = PAD + (k - self->lo) * bw;

          if (v[k] > 0)
            gtk_snapshot_append_color (snapshot, &colors[which],
                                       &GRAPHENE_RECT_INIT ((float) x + 1, (float) (y + h - MAX (bh, 1)),
                                                            (float) MAX (bw - 2, 1), (float) MAX (bh, 1)));
          if ((k - self->lo) % step == 0)
            {
              g_autofree char *label = strobe_memory_names_size_short (k);
              text_at (snapshot, widget, x, y + h + 2, step == 1 ? bw : widest + 6, label, &dim, 0.7, step == 1);
            }
        }
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static void
strobe_memory_histogram_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  StrobeMemoryHistogram *self = STROBE_MEMORY_HISTOGRAM (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);

  if (!self->any)
    {
      GdkRGBA fg;

      fg_color (widget, &fg);
      fg.alpha *= 0.6f;
      text_at (snapshot, widget, 12, 12, w - 24, _("No allocations in this range."), &fg, 1.0, FALSE);
      return;
    }
  if (self->node == NULL || self->node_w != w || self->node_h != h)
    {
      g_clear_pointer (&self->node, gsk_render_node_unref);
      self->node = make_node (self);
      self->node_w = w;
      self->node_h = h;
    }
  gtk_snapshot_append_node (snapshot, self->node);
  if (self->hovered >= 0)
    {
      double bw = bar_width (self), x = PAD + (self->hovered - (int) self->lo) * bw;
      GdkRGBA light = { 0.5f, 0.5f, 0.5f, 0.18f };

      gtk_snapshot_append_color (snapshot, &light, &GRAPHENE_RECT_INIT ((float) x, (float) PAD, (float) bw,
                                                                        (float) (h - 2 * PAD)));
    }
}

static void
update_hover (StrobeMemoryHistogram *self, int bucket)
{
  g_autofree char *text = NULL;

  if (bucket == self->hovered)
    return;
  self->hovered = bucket;
  if (bucket >= 0)
    {
      g_autofree char *name = strobe_memory_names_size_bucket ((guint64) bucket);
      g_autofree char *n = strobe_format_count (self->count[bucket]);
      g_autofree char *b = strobe_format_size (self->bytes[bucket]);

      /* Translators: a size bucket, its allocations and their bytes */
      text = g_strdup_printf (_("%s: %s allocations, %s"), name, n, b);
    }
  g_free (self->hover_text);
  self->hover_text = g_steal_pointer (&text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->hover_text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *c,
           double                    x,
           double                    y,
           StrobeMemoryHistogram    *self)
{
  double bw = bar_width (self);
  int k = (int) ((x - PAD) / bw) + (int) self->lo;

  update_hover (self, self->any && x >= PAD && k >= (int) self->lo && k <= (int) self->hi ? k : -1);
}

static void
leave_cb (GtkEventControllerMotion *c,
          StrobeMemoryHistogram    *self)
{
  update_hover (self, -1);
}

void
strobe_memory_histogram_set_aggregate (StrobeMemoryHistogram *self,
                                       StrobeMemoryAggregate *sizes)
{
  guint n;
  g_autofree StrobeMemoryRow *rows = NULL;
  g_autoptr (GString) description = g_string_new (NULL);

  g_return_if_fail (STROBE_IS_MEMORY_HISTOGRAM (self));
  memset (self->count, 0, sizeof self->count);
  memset (self->bytes, 0, sizeof self->bytes);
  self->any = FALSE;
  self->lo = N_BUCKETS;
  self->hi = 0;
  n = sizes ? strobe_memory_aggregate_get_n_rows (sizes) : 0;
  rows = g_new0 (StrobeMemoryRow, MAX (n, 1));
  if (n)
    strobe_memory_aggregate_get_rows (sizes, 0, n, rows);
  for (guint i = 0; i < n; i++)
    {
      guint k = (guint) MIN (rows[i].key, (guint64) N_BUCKETS - 1);

      if (rows[i].costs.allocations == 0)
        continue;
      self->count[k] += rows[i].costs.allocations;
      self->bytes[k] += rows[i].costs.bytes_allocated;
      self->lo = MIN (self->lo, k);
      self->hi = MAX (self->hi, k);
      self->any = TRUE;
    }
  for (guint k = self->lo; self->any && k <= self->hi; k++)
    if (self->count[k])
      {
        g_autofree char *name = strobe_memory_names_size_bucket (k);
        g_autofree char *c = strobe_format_count (self->count[k]);
        g_string_append_printf (description, "%s%s: %s", description->len ? ", " : "", name, c);
      }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str, -1);
  g_clear_pointer (&self->node, gsk_render_node_unref);
  self->hovered = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
strobe_memory_histogram_get_hover_text (StrobeMemoryHistogram *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_HISTOGRAM (self), NULL);
  return self->hover_text;
}

static void
strobe_memory_histogram_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 300;
}

static void
strobe_memory_histogram_finalize (GObject *object)
{
  StrobeMemoryHistogram *self = STROBE_MEMORY_HISTOGRAM (object);

  g_clear_pointer (&self->node, gsk_render_node_unref);
  g_free (self->hover_text);
  G_OBJECT_CLASS (strobe_memory_histogram_parent_class)->finalize (object);
}

static void
strobe_memory_histogram_css_changed (GtkWidget         *widget,
                                     GtkCssStyleChange *change)
{
  StrobeMemoryHistogram *self = STROBE_MEMORY_HISTOGRAM (widget);

  GTK_WIDGET_CLASS (strobe_memory_histogram_parent_class)->css_changed (widget, change);
  g_clear_pointer (&self->node, gsk_render_node_unref);
}

static void
strobe_memory_histogram_class_init (StrobeMemoryHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = strobe_memory_histogram_finalize;
  widget_class->snapshot = strobe_memory_histogram_snapshot;
  widget_class->measure = strobe_memory_histogram_measure;
  widget_class->css_changed = strobe_memory_histogram_css_changed;
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-histogram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strobe_memory_histogram_init (StrobeMemoryHistogram *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->hovered = -1;
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Size histogram"), -1);
}

GtkWidget *
strobe_memory_histogram_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_HISTOGRAM, NULL);
}
