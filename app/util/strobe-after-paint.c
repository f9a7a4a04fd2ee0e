/* strobe-after-paint.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-after-paint.h"

gboolean
strobe_after_paint_once (StrobeAfterPaint *self,
                         GtkWidget        *widget,
                         GCallback         callback,
                         gpointer          data)
{
  GdkFrameClock *clock;

  g_return_val_if_fail (self != NULL && GTK_IS_WIDGET (widget) && callback != NULL, FALSE);

  strobe_after_paint_cancel (self);
  clock = gtk_widget_get_frame_clock (widget);
  if (clock == NULL)
    return FALSE;
  self->clock = g_object_ref (clock);
  self->id = g_signal_connect (clock, "after-paint", callback, data);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_PAINT);
  return TRUE;
}

gboolean
strobe_after_paint_pending (const StrobeAfterPaint *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->clock != NULL;
}

void
strobe_after_paint_cancel (StrobeAfterPaint *self)
{
  g_return_if_fail (self != NULL);

  if (self->clock != NULL && g_signal_handler_is_connected (self->clock, self->id))
    g_signal_handler_disconnect (self->clock, self->id);
  self->id = 0;
  g_clear_object (&self->clock);
}
