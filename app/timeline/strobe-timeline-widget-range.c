/* strobe-timeline-widget-range.c
 *
 * The timeline's view range: the axis of a frame, where the view may go, zooming, panning
 * and fitting, through the view state (the range other views follow). The pointer and the
 * keyboard parts move the view through these; they call nothing in those parts.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-timeline-widget-private.h"

gboolean
strobe_timeline_widget_read_model (StrobeTimelineWidget *self)
{
  /* The main thread's only: no lock. */
  static gint64 window_start, spent;
  gint64 now = g_get_monotonic_time ();
  gboolean had;

  if (now - window_start > 16000)
    {
      window_start = now;
      spent = 0;
    }
  had = strobe_timeline_model_try_read_lock (self->timeline, spent < MODEL_WAIT_US ? (guint) (MODEL_WAIT_US - spent) : 0);
  spent += g_get_monotonic_time () - now;
  return had;
}

void
strobe_timeline_widget_get_axis (StrobeTimelineWidget *self, StrobeTimeScale *axis)
{
  guint64 a, b;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  strobe_time_scale_init (axis, a, b, MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1));
}

/* What fitting shows: the extent, or the session's span the group tab set. */
gboolean
strobe_timeline_widget_get_span (StrobeTimelineWidget *self, guint64 *first, guint64 *last)
{
  *first = self->has_span ? self->span_first : self->first;
  *last = self->has_span ? self->span_last : self->last;
  return self->has_span || self->have_extent;
}

void
strobe_timeline_widget_set_span (StrobeTimelineWidget *self, guint64 first, guint64 last)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (first <= last);

  self->has_span = TRUE;
  self->span_first = first;
  self->span_last = last;
}

/* Where the view may go: the span, with room to look a little past each end. */
void
strobe_timeline_widget_bounds (StrobeTimelineWidget *self, guint64 *lo, guint64 *hi)
{
  guint64 len, first, last;

  if (!strobe_timeline_widget_get_span (self, &first, &last))
    {
      *lo = 0;
      *hi = G_MAXUINT64;
      return;
    }
  len = MAX (last - first, 1);
  *lo = first > len / 20 ? first - len / 20 : 0;
  *hi = last > G_MAXUINT64 - len / 20 ? G_MAXUINT64 : last + len / 20;
}

void
strobe_timeline_widget_set_visible_range (StrobeTimelineWidget *self, guint64 start, guint64 end)
{
  strobe_view_state_set_visible_range (self->state, start, end);
}

void
strobe_timeline_widget_mark_user_moved (StrobeTimelineWidget *self)
{
  self->user_moved = TRUE;
  if (strobe_view_state_get_follow_live (self->state))
    strobe_view_state_set_follow_live (self->state, FALSE);
}

void
strobe_timeline_widget_zoom_by (StrobeTimelineWidget *self, gdouble factor, gdouble anchor_x)
{
  StrobeTimeScale axis;
  guint64 a, b, lo, hi;
  gboolean follow = strobe_view_state_get_follow_live (self->state);

  strobe_timeline_widget_get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  strobe_timeline_widget_bounds (self, &lo, &hi);
  /* Following a live trace keeps the newest data at the right edge. */
  strobe_time_zoom (&a, &b, factor, follow ? 1.0 : anchor_x / axis.width, MIN_SPAN, lo, hi);
  self->user_moved = TRUE;
  strobe_timeline_widget_set_visible_range (self, a, b);
}

void
strobe_timeline_widget_pan_by (StrobeTimelineWidget *self, gdouble dx_px)
{
  StrobeTimeScale axis;
  guint64 a, b, lo, hi;

  strobe_timeline_widget_get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  strobe_timeline_widget_bounds (self, &lo, &hi);
  strobe_time_pan (&a, &b, (gint64) CLAMP (dx_px * axis.scale, (gdouble) G_MININT64, (gdouble) G_MAXINT64), lo, hi);
  strobe_timeline_widget_mark_user_moved (self);
  strobe_timeline_widget_set_visible_range (self, a, b);
}

void
strobe_timeline_widget_zoom_to (StrobeTimelineWidget *self, guint64 start, guint64 end)
{
  guint64 a, b;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  strobe_time_fit (&a, &b, start, end, 0.05);
  if (b - a < MIN_SPAN)
    strobe_time_fit (&a, &b, start > MIN_SPAN / 2 ? start - MIN_SPAN / 2 : 0, start + MIN_SPAN / 2, 0);
  strobe_timeline_widget_mark_user_moved (self);
  strobe_timeline_widget_set_visible_range (self, a, b);
}

void
strobe_timeline_widget_zoom_fit (StrobeTimelineWidget *self)
{
  guint64 first, last;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (!strobe_timeline_widget_get_span (self, &first, &last))
    return;
  strobe_timeline_widget_zoom_to (self, first, last);
}
