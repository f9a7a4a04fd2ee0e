/* strobe-memory-graph-input.c — the memory graph's pointer, keys, context menu and actions:
 * hover, click for the cursor, drag to select, keys for the cursor and the markers. What
 * they change is the view state's (through the time axis) or a marker request; drawing
 * is strobe-memory-graph.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-memory-graph-private.h"

static guint marker_requested;

static void
request_marker (StrobeMemoryGraph *self, guint which, guint64 time)
{
  g_signal_emit (self, marker_requested, 0, which, time);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           StrobeMemoryGraph        *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  if (self->state && x >= GUTTER)
    strobe_view_state_set_hover (self->state, _strobe_memory_graph_x_to_time (self, x));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *controller,
          StrobeMemoryGraph        *self)
{
  self->hovering = FALSE;
  if (self->state)
    strobe_view_state_set_hover (self->state, STROBE_VIEW_STATE_NONE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_begin_cb (GtkGestureDrag    *gesture,
               double             x,
               double             y,
               StrobeMemoryGraph *self)
{
  self->drag_x = x;
  self->dragging = FALSE;
  self->drag_anchor = _strobe_memory_graph_x_to_time (self, x);
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag    *gesture,
                double             dx,
                double             dy,
                StrobeMemoryGraph *self)
{
  guint64 t;

  if (!self->dragging && fabs (dx) < DRAG_SLOP)
    return;
  self->dragging = TRUE;
  t = _strobe_memory_graph_x_to_time (self, self->drag_x + dx);
  if (self->state)
    strobe_view_state_set_selection (self->state, MIN (t, self->drag_anchor), MAX (t, self->drag_anchor));
}

static void
drag_end_cb (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             StrobeMemoryGraph *self)
{
  if (!self->dragging && self->state && self->drag_x >= GUTTER)
    {
      strobe_view_state_set_cursor (self->state, self->drag_anchor);
      self->key_anchor = self->drag_anchor;
    }
  self->dragging = FALSE;
}

static guint64
cursor_or_hover (StrobeMemoryGraph *self)
{
  guint64 cursor = self->state ? strobe_view_state_get_cursor (self->state) : STROBE_VIEW_STATE_NONE;

  if (cursor != STROBE_VIEW_STATE_NONE)
    return cursor;
  if (self->hovering)
    return _strobe_memory_graph_x_to_time (self, self->hover_x);
  return STROBE_VIEW_STATE_NONE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                StrobeMemoryGraph     *self)
{
  guint64 a, b, cursor, step, t;

  if (self->state == NULL || !_strobe_memory_graph_range (self, &a, &b))
    return FALSE;
  cursor = strobe_view_state_get_cursor (self->state);
  step = MAX ((b - a) / ((state & GDK_CONTROL_MASK) ? 10 : 100), 1);
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_Right:
    case GDK_KEY_Home:
    case GDK_KEY_End:
      if (cursor == STROBE_VIEW_STATE_NONE || cursor < a || cursor > b)
        cursor = a + (b - a) / 2;
      if (keyval == GDK_KEY_Left)
        t = cursor > a + step ? cursor - step : a;
      else if (keyval == GDK_KEY_Right)
        t = MIN (cursor + step, b - 1);
      else
        t = keyval == GDK_KEY_Home ? a : b - 1;
      if (state & GDK_SHIFT_MASK)
        {
          guint64 anchor = strobe_view_state_get_selection (self->state, NULL, NULL) ? self->key_anchor : cursor;

          self->key_anchor = anchor;
          strobe_view_state_set_selection (self->state, MIN (anchor, t), MAX (anchor, t));
        }
      else
        self->key_anchor = t;
      strobe_view_state_set_cursor (self->state, t);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_b:
    case GDK_KEY_c:
      if ((t = cursor_or_hover (self)) == STROBE_VIEW_STATE_NONE)
        return FALSE;
      request_marker (self, (guint) (keyval - GDK_KEY_a), t);
      return TRUE;
    case GDK_KEY_Escape:
      if (!strobe_view_state_get_selection (self->state, NULL, NULL))
        return FALSE;
      strobe_view_state_clear_selection (self->state);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
context_cb (GtkGestureClick   *gesture,
            int                n_press,
            double             x,
            double             y,
            StrobeMemoryGraph *self)
{
  if (x < GUTTER)
    return;
  self->menu_time = _strobe_memory_graph_x_to_time (self, x);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
set_marker_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  request_marker (self, (guint) MIN (g_variant_get_uint32 (parameter), 2u),
                 self->menu_time);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);

  if (self->state)
    strobe_view_state_clear_selection (self->state);
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeMemoryGraph *self = STROBE_MEMORY_GRAPH (widget);
  guint64 t = cursor_or_hover (self);
  StrobeTimeScale scale;
  guint64 a, b;
  double x;

  if (!_strobe_memory_graph_plot_scale (self, &scale))
    return;
  a = scale.start;
  b = strobe_time_scale_end (&scale);
  if (t == STROBE_VIEW_STATE_NONE || t < a || t > b)
    t = a + (b - a) / 2;
  x = strobe_memory_graph_time_to_x (&scale, t);
  self->menu_time = t;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, 30, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

void
_strobe_memory_graph_class_init_input (GtkWidgetClass *widget_class)
{
  /* (which: 0, 1, 2 for A, B, C; time) */
  marker_requested =
    g_signal_new ("marker-requested", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT64);
  gtk_widget_class_install_action (widget_class, "graph.set-marker", "u", set_marker_action);
  gtk_widget_class_install_action (widget_class, "graph.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "graph.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "graph.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "graph.menu", NULL);
}

void
_strobe_memory_graph_init_input (StrobeMemoryGraph *self)
{
  GtkEventController *motion, *key;
  GtkGesture *drag, *click;
  g_autoptr (GMenu) menu = g_menu_new ();

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (context_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);

  g_menu_append (menu, _("Set Marker _A Here"), "graph.set-marker(uint32 0)");
  g_menu_append (menu, _("Set Marker _B Here"), "graph.set-marker(uint32 1)");
  g_menu_append (menu, _("Set Marker _C Here"), "graph.set-marker(uint32 2)");
  g_menu_append (menu, _("C_lear Selection"), "graph.clear-selection");
  self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
}
