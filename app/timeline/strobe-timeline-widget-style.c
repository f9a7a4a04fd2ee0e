/* strobe-timeline-widget-style.c
 *
 * What the parts of the timeline widget draw and write with: the foreground colour and
 * whether the theme is dark, text layouts (cached per text), the scope labels' small font,
 * text and rectangles on a snapshot, a length of time and a counter's value as the timeline
 * prints them. It calls nothing in the other parts, so each part can use it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-timeline-widget-private.h"

void
strobe_timeline_widget_fg_color (GtkWidget *widget, GdkRGBA *fg)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
}

gboolean
strobe_timeline_widget_is_dark (StrobeTimelineWidget *self)
{
  GdkRGBA fg;

  strobe_timeline_widget_fg_color (GTK_WIDGET (self), &fg);
  return 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5;
}

PangoLayout *
strobe_timeline_widget_text_layout (StrobeTimelineWidget *self, const char *text, gboolean bold)
{
  g_autofree char *key = g_strdup_printf ("%c%s", bold ? 'b' : 'n', text);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout == NULL)
    {
      if (g_hash_table_size (self->layouts) > 4096)
        g_hash_table_remove_all (self->layouts);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      if (bold)
        {
          PangoAttrList *attrs = pango_attr_list_new ();
          pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
        }
      g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
    }
  return layout;
}

/* The font tiles use for scope names: a little smaller than the UI's. */
PangoFontDescription *
strobe_timeline_widget_small_font (StrobeTimelineWidget *self)
{
  PangoContext *pc = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (pc));

  if (pango_font_description_get_size_is_absolute (font))
    pango_font_description_set_absolute_size (font, pango_font_description_get_size (font) * 0.85);
  else
    pango_font_description_set_size (font, (gint) (pango_font_description_get_size (font) * 0.85));
  return font;
}

/* A scope label: the small font, ellipsized to @width. */
PangoLayout *
strobe_timeline_widget_scope_layout (StrobeTimelineWidget *self, const char *text, int width)
{
  g_autofree char *key = g_strdup_printf ("s%s", text);
  PangoLayout *layout = g_hash_table_lookup (self->layouts, key);

  if (layout == NULL)
    {
      PangoFontDescription *font = strobe_timeline_widget_small_font (self);

      if (g_hash_table_size (self->layouts) > 4096)
        g_hash_table_remove_all (self->layouts);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      pango_layout_set_font_description (layout, font);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_font_description_free (font);
      g_hash_table_insert (self->layouts, g_steal_pointer (&key), layout);
    }
  pango_layout_set_width (layout, width * PANGO_SCALE);
  return layout;
}

void
strobe_timeline_widget_append_text (GtkSnapshot *snapshot, PangoLayout *layout, gdouble x, gdouble y, const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

void
strobe_timeline_widget_fill_rect (GtkSnapshot *snapshot, gdouble x, gdouble y, gdouble w, gdouble h, const GdkRGBA *c)
{
  gtk_snapshot_append_color (snapshot, c, &GRAPHENE_RECT_INIT (x, y, w, h));
}

guint64
strobe_timeline_widget_frame_target_ticks (StrobeTimelineWidget *self)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self->axis, &clock);
  return strobe_trace_clock_ticks (&clock, self->frame_target);
}

char *
strobe_timeline_widget_format_ticks (StrobeTimelineWidget *self, guint64 ticks)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self->axis, &clock);
  return strobe_format_ticks (&clock, ticks);
}

static const char *
unit_suffix (guint8 unit)
{
  switch (unit)
    {
    case STROBE_TIMELINE_UNIT_BYTES:   return "B";
    case STROBE_TIMELINE_UNIT_PERCENT: return "%";
    default:                           return "";
    }
}

char *
strobe_timeline_widget_format_value (gdouble v, guint8 unit, guint8 type)
{
  if (unit == STROBE_TIMELINE_UNIT_BYTES)
    return g_format_size ((guint64) MAX (v, 0));
  if (type == STROBE_TIMELINE_COUNTER_INT)
    {
      g_autofree char *n = strobe_format_count ((guint64) fabs (v));
      return g_strdup_printf ("%s%s%s", v < 0 ? "−" : "", n, unit_suffix (unit));
    }
  return g_strdup_printf ("%.3g%s", v, unit_suffix (unit));
}
