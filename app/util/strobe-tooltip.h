/* strobe-tooltip.h — a widget's tooltip text set without asking the display anything.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What gtk_widget_set_tooltip_text() shows (@text, NULL or empty: none), given when GTK
 * asks for it; the widget's accessible description follows it as with GTK's. For texts
 * that change as work goes on (progress, a heading with counts): GTK 4.8 looks up the
 * pointer's surface each time a tooltip is set, two or three X round trips (6–28 ms when
 * the display server waits for a core). Not to be mixed with gtk_widget_set_tooltip_*()
 * on the same widget. */
void strobe_tooltip_set_text (GtkWidget  *widget,
                              const char *text);

G_END_DECLS
