/* strobe-timeline-widget-a11y.c
 *
 * What a screen reader hears of the timeline: the visible range and the selection.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-widget-private.h"

/* ---- accessibility --------------------------------------------------------------------- */

void
strobe_timeline_widget_update_description (StrobeTimelineWidget *self)
{
  guint64 a, b, s0, s1;
  g_autofree char *va = NULL, *vb = NULL, *vl = NULL, *sel = NULL, *text = NULL;
  gdouble end;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  end = strobe_time_axis_to_seconds (self->axis, b);
  va = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, a), 1e-6, end);
  vb = strobe_ruler_label (end, 1e-6, end);
  vl = strobe_timeline_widget_format_ticks (self, b - a);
  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      g_autofree char *x = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, s0), 1e-6, end);
      g_autofree char *y = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, s1), 1e-6, end);
      g_autofree char *l = strobe_timeline_widget_format_ticks (self, s1 - s0);
      /* Translators: the timeline's selected time range, for screen readers */
      sel = g_strdup_printf (_("Selection from %s to %s (%s)."), x, y, l);
    }
  else
    sel = g_strdup (_("No selection."));
  /* Translators: the timeline's visible time range, for screen readers */
  text = g_strdup_printf (_("Showing %s to %s (%s). %s"), va, vb, vl, sel);
  /* Asked on every move of the cursor too (the axis's marks): tell only news. */
  if (g_strcmp0 (text, self->description) == 0)
    return;
  g_free (self->description);
  self->description = g_strdup (text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
