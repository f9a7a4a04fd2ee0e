/* strobe-flame-graph.c
 *
 * The graph is laid out on each snapshot from the zoomed node down (nodes narrower than
 * half a pixel and their subtrees are skipped), so it costs what is visible.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "strobe-call-tree.h"
#include "strobe-flame-graph.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-painter.h"

#define ROW_H 18

struct _StrobeFlameGraph
{
  GtkWidget            parent_instance;

  StrobeTimelineModel *model;
  StrobeCostTree      *tree;
  StrobeTraceClock     clock;
  guint32              root;       /* the zoomed node */
  guint32              chosen;     /* keyboard/click selection */
  guint32              hover;
  guint32              highlight;
  GHashTable          *layouts;
};

G_DEFINE_FINAL_TYPE (StrobeFlameGraph, strobe_flame_graph, GTK_TYPE_WIDGET)

static StrobeCallNode
node (StrobeFlameGraph *self, guint32 i)
{
  StrobeCallNode n;

  strobe_call_tree_get_node (self->tree, i, &n);
  return n;
}

static const char *
node_name (StrobeFlameGraph *self, guint32 i)
{
  const StrobeCallNode n = node (self, i);

  if (n.name_id == STROBE_CALL_NONE)
    return _("All");
  return strobe_timeline_model_get_name (self->model, n.name_id);
}

/* The row of @i below the zoomed node (ancestors of the zoomed node above it). */
static int
node_row (StrobeFlameGraph *self, guint32 i)
{
  return (int) node (self, i).depth;
}

static PangoLayout *
layout_for (StrobeFlameGraph *self, const char *text)
{
  PangoLayout *l = g_hash_table_lookup (self->layouts, text);

  if (l == NULL)
    {
      if (g_hash_table_size (self->layouts) > 2048)
        g_hash_table_remove_all (self->layouts);
      l = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      pango_layout_set_ellipsize (l, PANGO_ELLIPSIZE_END);
      g_hash_table_insert (self->layouts, g_strdup (text), l);
    }
  return l;
}

static void
draw_node (StrobeFlameGraph *self, GtkSnapshot *snapshot, guint32 i, gdouble x, gdouble w, int row)
{
  const StrobeCallNode n = node (self, i);
  const char *name = node_name (self, i);
  StrobeRgb c = n.name_id == STROBE_CALL_NONE ? (StrobeRgb) { 0.75, 0.75, 0.78 } : strobe_timeline_name_color (name);
  GdkRGBA fill = { c.r, c.g, c.b, 1 };
  graphene_rect_t r = GRAPHENE_RECT_INIT (x, row * ROW_H, MAX (w >= 3 ? w - 1 : w, 1), ROW_H - 1);

  if (self->highlight != G_MAXUINT32 && n.name_id != self->highlight)
    fill.alpha = 0.35;
  gtk_snapshot_append_color (snapshot, &fill, &r);
  if (i == self->chosen || i == self->hover)
    {
      GskRoundedRect rr;
      float bw[4] = { 1, 1, 1, 1 };
      GdkRGBA bc = i == self->chosen ? (GdkRGBA) { 0.21, 0.52, 0.89, 1 } : (GdkRGBA) { 0, 0, 0, 0.7 };
      GdkRGBA bcs[4] = { bc, bc, bc, bc };
      gsk_rounded_rect_init_from_rect (&rr, &r, 0);
      gtk_snapshot_append_border (snapshot, &rr, bw, bcs);
    }
  if (w >= 30)
    {
      PangoLayout *l = layout_for (self, name ? name : "");
      StrobeRgb tc = strobe_timeline_text_on (c);
      int lh;

      pango_layout_set_width (l, (int) ((w - 6) * PANGO_SCALE));
      pango_layout_get_pixel_size (l, NULL, &lh);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_push_clip (snapshot, &r);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 3, row * ROW_H + (ROW_H - 1 - lh) / 2.0));
      gtk_snapshot_append_layout (snapshot, l, &(GdkRGBA) { tc.r, tc.g, tc.b, 1 });
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_restore (snapshot);
    }
}

static void
draw_subtree (StrobeFlameGraph *self, GtkSnapshot *snapshot, guint32 i, gdouble x, gdouble w, int height)
{
  const StrobeCallNode n = node (self, i);
  gdouble scale = w / (gdouble) MAX (n.inclusive, 1);
  int row = node_row (self, i);

  if (w < 0.5 || row * ROW_H > height)
    return;
  draw_node (self, snapshot, i, x, w, row);
  for (guint32 c = n.first_child; c != STROBE_CALL_NONE; c = node (self, c).next_sibling)
    {
      gdouble cw = node (self, c).inclusive * scale;
      draw_subtree (self, snapshot, c, x, cw, height);
      x += cw;
    }
}

static void
strobe_flame_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  if (self->tree == NULL || strobe_cost_tree_get_n_nodes (self->tree) == 0 || node (self, 0).inclusive == 0)
    {
      PangoLayout *l = layout_for (self, _("No scopes in this range."));
      GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
      GdkRGBA fg;
      gtk_style_context_get_color (ctx, &fg);
      fg.alpha = 0.6;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (8, 8));
      gtk_snapshot_append_layout (snapshot, l, &fg);
      gtk_snapshot_restore (snapshot);
      return;
    }
  /* The zoomed node's ancestors, full width, then it and its subtree. */
  for (guint32 k = node (self, self->root).parent; k != STROBE_CALL_NONE; k = node (self, k).parent)
    draw_node (self, snapshot, k, 0, width, node_row (self, k));
  draw_subtree (self, snapshot, self->root, 0, width, height);
  if (gtk_widget_has_visible_focus (widget))
    {
      GskRoundedRect rr;
      float bw[4] = { 1, 1, 1, 1 };
      GdkRGBA bc = { 0.21, 0.52, 0.89, 1 };
      GdkRGBA bcs[4] = { bc, bc, bc, bc };
      gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (0, 0, width, height), 0);
      gtk_snapshot_append_border (snapshot, &rr, bw, bcs);
    }
}

static guint32
node_at (StrobeFlameGraph *self, gdouble x, gdouble y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int row = (int) (y / ROW_H);
  guint32 i;
  gdouble x0 = 0, w = width;

  if (self->tree == NULL || strobe_cost_tree_get_n_nodes (self->tree) == 0 || x < 0 || x >= width)
    return STROBE_CALL_NONE;
  /* Above the zoomed node: its ancestors span everything. */
  for (i = self->root; i != STROBE_CALL_NONE; i = node (self, i).parent)
    if (node_row (self, i) == row)
      return i;
  /* Below: down from it, following the child under x. */
  for (i = self->root; node_row (self, i) < row;)
    {
      gdouble scale = w / (gdouble) MAX (node (self, i).inclusive, 1), cx = x0;
      guint32 next = STROBE_CALL_NONE;

      for (guint32 c = node (self, i).first_child; c != STROBE_CALL_NONE; c = node (self, c).next_sibling)
        {
          gdouble cw = node (self, c).inclusive * scale;
          if (x >= cx && x < cx + cw)
            {
              next = c;
              x0 = cx;
              w = cw;
              break;
            }
          cx += cw;
        }
      if (next == STROBE_CALL_NONE || w < 0.5)
        return STROBE_CALL_NONE;
      i = next;
    }
  return i;
}

static char *
describe (StrobeFlameGraph *self, guint32 i)
{
  const StrobeCallNode n = node (self, i);
  g_autofree char *incl = strobe_format_ticks (&self->clock, n.inclusive);
  g_autofree char *excl = strobe_format_ticks (&self->clock, n.exclusive);
  gdouble share = node (self, 0).inclusive ? 100.0 * n.inclusive / node (self, 0).inclusive : 0;

  /* Translators: a flame graph node: name, inclusive time and its share, exclusive time, count */
  return g_strdup_printf (_("%s: %s (%.1f %%), exclusive %s, %" PRIu64 " calls"),
                          node_name (self, i), incl, share, excl, n.count);
}

static void
choose (StrobeFlameGraph *self, guint32 i)
{
  g_autofree char *text = NULL;

  if (i == STROBE_CALL_NONE || self->tree == NULL)
    return;
  self->chosen = i;
  text = describe (self, i);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_into (StrobeFlameGraph *self, guint32 i)
{
  if (i == STROBE_CALL_NONE)
    return;
  self->root = i;
  choose (self, i);
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer data)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  guint32 i = keyboard ? self->chosen : node_at (self, x, y);
  g_autofree char *text = NULL;

  if (i == STROBE_CALL_NONE || self->tree == NULL)
    return FALSE;
  text = describe (self, i);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *ctrl, gdouble x, gdouble y, StrobeFlameGraph *self)
{
  guint32 i = node_at (self, x, y);

  if (i != self->hover)
    {
      self->hover = i;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *ctrl, StrobeFlameGraph *self)
{
  self->hover = STROBE_CALL_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pressed_cb (GtkGestureClick *gesture, int n, gdouble x, gdouble y, StrobeFlameGraph *self)
{
  guint32 i = node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_SECONDARY)
    {
      if (self->tree && node (self, self->root).parent != STROBE_CALL_NONE)
        zoom_into (self, node (self, self->root).parent);
      return;
    }
  zoom_into (self, i);
}

static void
action_move (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  int dir = g_variant_get_int32 (param);
  StrobeCallNode n;
  guint32 to = STROBE_CALL_NONE;

  if (self->tree == NULL || strobe_cost_tree_get_n_nodes (self->tree) == 0)
    return;
  n = node (self, self->chosen);
  switch (dir)
    {
    case 0:   /* previous sibling */
      if (n.parent != STROBE_CALL_NONE)
        for (guint32 c = node (self, n.parent).first_child; c != STROBE_CALL_NONE; c = node (self, c).next_sibling)
          {
            if (node (self, c).next_sibling == self->chosen)
              to = c;
          }
      break;
    case 1:
      to = n.next_sibling;
      break;
    case 2:
      to = n.parent;
      break;
    case 3:
      to = n.first_child;
      break;
    default:
      break;
    }
  if (to == STROBE_CALL_NONE)
    gtk_widget_error_bell (widget);
  else
    choose (self, to);
}

static void
action_zoom (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);

  if (self->tree == NULL || strobe_cost_tree_get_n_nodes (self->tree) == 0)
    return;
  if (g_variant_get_int32 (param) > 0)
    zoom_into (self, self->chosen);
  else if (node (self, self->root).parent != STROBE_CALL_NONE)
    zoom_into (self, node (self, self->root).parent);
}

static void
strobe_flame_graph_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min, int *nat,
                            int *min_baseline, int *nat_baseline)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  int depth = 1;

  if (self->tree)
    for (guint i = 0; i < strobe_cost_tree_get_n_nodes (self->tree); i++)
      depth = MAX (depth, (int) node (self, i).depth + 1);
  *min = orientation == GTK_ORIENTATION_HORIZONTAL ? 100 : ROW_H * 2;
  *nat = orientation == GTK_ORIENTATION_HORIZONTAL ? 300 : MAX (ROW_H * MIN (depth, 64), ROW_H * 2);
}

static void
strobe_flame_graph_finalize (GObject *object)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (object);

  g_clear_object (&self->model);
  g_clear_pointer (&self->tree, strobe_cost_tree_unref);
  g_clear_pointer (&self->layouts, g_hash_table_unref);
  G_OBJECT_CLASS (strobe_flame_graph_parent_class)->finalize (object);
}

static void
strobe_flame_graph_class_init (StrobeFlameGraphClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = strobe_flame_graph_finalize;
  widget_class->snapshot = strobe_flame_graph_snapshot;
  widget_class->measure = strobe_flame_graph_measure;

  gtk_widget_class_install_action (widget_class, "flame.move", "i", action_move);
  gtk_widget_class_install_action (widget_class, "flame.zoom", "i", action_zoom);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flame.move", "i", 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flame.move", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flame.move", "i", 2);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flame.move", "i", 3);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame.zoom", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flame.zoom", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.zoom", "i", -1);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
}

static void
strobe_flame_graph_init (StrobeFlameGraph *self)
{
  GtkEventController *ctrl;
  GtkGesture *gesture;

  self->chosen = self->hover = STROBE_CALL_NONE;
  self->highlight = G_MAXUINT32;
  self->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  strobe_trace_clock_init (&self->clock, NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"), -1);

  ctrl = gtk_event_controller_motion_new ();
  g_signal_connect (ctrl, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (ctrl, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), ctrl);
  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
strobe_flame_graph_new (void)
{
  return g_object_new (STROBE_TYPE_FLAME_GRAPH, NULL);
}

void
strobe_flame_graph_set_tree (StrobeFlameGraph *self, StrobeTimelineModel *model, StrobeCostTree *tree,
                             const StrobeTraceClock *clock)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));

  g_set_object (&self->model, model);
  g_clear_pointer (&self->tree, strobe_cost_tree_unref);
  self->tree = tree && model ? strobe_cost_tree_ref (tree) : NULL;
  if (clock)
    self->clock = *clock;
  self->root = 0;
  self->hover = STROBE_CALL_NONE;
  self->chosen = self->tree && strobe_cost_tree_get_n_nodes (self->tree) ? 0 : STROBE_CALL_NONE;
  if (self->chosen == 0)
    choose (self, 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
strobe_flame_graph_set_highlight (StrobeFlameGraph *self, guint32 name_id)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));

  self->highlight = name_id;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
