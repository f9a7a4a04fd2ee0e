/* strobe-after-paint.h — a call once after a widget's next frame, when GTK has measured
 * and placed what it showed (a list's real row heights, its adjustment's final value).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  GdkFrameClock *clock;
  gulong         id;
} StrobeAfterPaint;

/* @callback (GdkFrameClock *clock, gpointer data) once, after @widget's next frame (one is
 * asked for); a call asked before is replaced. FALSE when @widget has no frame clock. The
 * callback must call strobe_after_paint_cancel() first. */
gboolean strobe_after_paint_once    (StrobeAfterPaint       *self,
                                     GtkWidget              *widget,
                                     GCallback               callback,
                                     gpointer                data);
gboolean strobe_after_paint_pending (const StrobeAfterPaint *self);
/* Forgets the call asked, if any (also on dispose). */
void     strobe_after_paint_cancel  (StrobeAfterPaint       *self);

G_END_DECLS
