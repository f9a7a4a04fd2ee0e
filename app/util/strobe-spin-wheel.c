/* strobe-spin-wheel.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-spin-wheel.h"

static gboolean
focused (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  /* The focus is on the button's text entry, inside it. */
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Runs before the button's own handler (capture phase): handled here, it never sees it. */
static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           gdouble                   dx,
           gdouble                   dy,
           gpointer                  user_data)
{
  GtkWidget *button = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *scroller;
  GtkAdjustment *adj;
  gdouble step;

  (void) dx;
  (void) user_data;
  if (focused (button))
    return FALSE;
  scroller = gtk_widget_get_ancestor (button, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller == NULL)
    return TRUE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  /* A wheel's notch as GtkScrolledWindow makes it (page size to the ⅔); a touchpad's
   * deltas are pixels. */
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    step = pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0);
  else
    step = 1;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dy * step);
  return TRUE;
}

void
strobe_spin_wheel_when_focused (GtkSpinButton *button)
{
  GtkEventController *scroll;

  g_return_if_fail (GTK_IS_SPIN_BUTTON (button));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (scroll, "strobe-spin-wheel");
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), NULL);
  gtk_widget_add_controller (GTK_WIDGET (button), scroll);
}
