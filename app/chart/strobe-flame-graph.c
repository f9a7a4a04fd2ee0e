/* strobe-flame-graph.c
 *
 * The rectangles are laid out once per tree, column, zoom and width (from the zoomed node
 * down, a node narrower than MIN_W ending its row's children: they come largest first),
 * and drawn with their labels into one render node kept until one of those or the
 * highlight changes, so hovering and selecting only draw two rectangles over it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-flame-graph.h"

#define ROW_H      18.0
#define MIN_W      0.5     /* narrower children are not drawn (nor theirs) */
#define LABEL_W    30.0    /* narrower rectangles go without a label */

typedef struct
{
  guint32 node;
  guint   row;
  double  x, w;
} Rect;

struct _StrobeFlameGraph
{
  GtkWidget             parent_instance;

  StrobeCostTree       *tree;
  guint                 column;
  StrobeCostSortFlags   ties;
  guint64               highlight;
  StrobeFlameGraphFuncs funcs;
  gpointer              funcs_data;
  GDestroyNotify        funcs_destroy;
  gboolean              show_ancestors;
  gboolean              click_zooms;
  char                 *empty_text;

  guint                 zoom;
  guint                 selected;
  guint                 hovered;
  GArray               *rects;      /* Rect: ancestors, then the zoomed node, parents before children */
  guint                 rows;       /* rows laid out */
  int                   laid_w;     /* -1: lay out again */
  GskRenderNode        *node;       /* the rectangles and labels */
  char                 *hover_text;
};

G_DEFINE_FINAL_TYPE (StrobeFlameGraph, strobe_flame_graph, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_HOVER_TEXT,
  PROP_SHOW_ANCESTORS,
  PROP_CLICK_ZOOMS,
  PROP_EMPTY_TEXT,
  N_PROPS
};

enum
{
  SHOW_NODE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
has_tree (StrobeFlameGraph *self)
{
  return self->tree != NULL && strobe_cost_tree_get_n_nodes (self->tree) > 0;
}

static guint64
value_of (StrobeFlameGraph *self, guint32 node)
{
  guint64 v = strobe_cost_tree_get_inclusive (self->tree, node, self->column);

  if ((strobe_cost_tree_get_column_flags (self->tree, self->column) & STROBE_COST_COLUMN_SIGNED) && (gint64) v < 0)
    return 0;
  return v;
}

static guint32
parent_of (StrobeFlameGraph *self, guint32 node)
{
  return node == 0 ? STROBE_COST_NODE_NONE : strobe_cost_tree_get_parent (self->tree, node);
}

static void
invalidate (StrobeFlameGraph *self)
{
  self->laid_w = -1;
  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
add_rect (StrobeFlameGraph *self, guint32 node, guint row, double x, double w)
{
  Rect r = { node, row, x, w };

  g_array_append_val (self->rects, r);
  self->rows = MAX (self->rows, row + 1);
}

/* The rectangles at @width: breadth first from the zoomed node, parents before children. */
static void
lay_out (StrobeFlameGraph *self, int width)
{
  g_autofree guint32 *kids = NULL;
  guint kids_cap = 0, top_row = 0, first;

  g_array_set_size (self->rects, 0);
  self->rows = 0;
  self->laid_w = width;
  if (!has_tree (self) || value_of (self, self->zoom) == 0)
    return;
  if (self->show_ancestors)
    {
      top_row = strobe_cost_tree_get_depth (self->tree, self->zoom);
      for (guint32 a = parent_of (self, self->zoom); a != STROBE_COST_NODE_NONE; a = parent_of (self, a))
        add_rect (self, a, strobe_cost_tree_get_depth (self->tree, a), 0, width);
    }
  first = self->rects->len;
  add_rect (self, self->zoom, top_row, 0, width);
  for (guint i = first; i < self->rects->len; i++)
    {
      Rect parent = g_array_index (self->rects, Rect, i);
      guint n = strobe_cost_tree_get_n_children (self->tree, parent.node), k;
      guint64 total = value_of (self, parent.node);
      double x = parent.x;

      if (n == 0 || total == 0)
        continue;
      if (n > kids_cap)
        kids = g_renew (guint32, kids, kids_cap = n);
      k = strobe_cost_tree_get_children (self->tree, parent.node, self->column,
                                         STROBE_COST_SORT_DESCENDING | self->ties, 0, n, kids);
      for (guint c = 0; c < k; c++)
        {
          double w = parent.w * (double) value_of (self, kids[c]) / (double) total;

          if (w < MIN_W)
            break;
          add_rect (self, kids[c], parent.row + 1, x, w);
          x += w;
        }
    }
}

static void
ensure_layout (StrobeFlameGraph *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  if (self->laid_w != w)
    {
      lay_out (self, w);
      g_clear_pointer (&self->node, gsk_render_node_unref);
    }
}

static graphene_rect_t
box_of (const Rect *r)
{
  return GRAPHENE_RECT_INIT ((float) r->x, (float) (r->row * ROW_H), (float) MAX (r->w >= 3 ? r->w - 1 : r->w, MIN_W),
                             (float) (ROW_H - 1));
}

static char *
name_of (StrobeFlameGraph *self, guint32 node)
{
  char *name = self->funcs.name ? self->funcs.name (self->tree, node, self->funcs_data) : NULL;

  return name ? name : g_strdup ("");
}

static void
draw_label (StrobeFlameGraph *self, GtkSnapshot *snapshot, const Rect *r, const graphene_rect_t *box,
            const GdkRGBA *text)
{
  g_autofree char *name = name_of (self, r->node);
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), name);
  int lh;

  pango_layout_set_width (layout, (int) ((r->w - 6) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, NULL, &lh);
  gtk_snapshot_push_clip (snapshot, box);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) r->x + 3, box->origin.y + (float) (ROW_H - 1 - lh) / 2));
  gtk_snapshot_append_layout (snapshot, layout, text);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

static GskRenderNode *
make_node (StrobeFlameGraph *self)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  for (guint i = 0; i < self->rects->len; i++)
    {
      const Rect *r = &g_array_index (self->rects, Rect, i);
      graphene_rect_t box = box_of (r);
      GdkRGBA fill = { 0.75f, 0.75f, 0.78f, 1 }, text = { 0.08f, 0.08f, 0.08f, 1 };

      if (r->node != 0 && self->funcs.colors)
        self->funcs.colors (self->tree, r->node, &fill, &text, self->funcs_data);
      if (self->highlight != STROBE_FLAME_GRAPH_NO_HIGHLIGHT
          && strobe_cost_tree_get_key (self->tree, r->node) != self->highlight)
        fill.alpha *= 0.35f;
      gtk_snapshot_append_color (snapshot, &fill, &box);
      if (r->w >= LABEL_W)
        draw_label (self, snapshot, r, &box, &text);
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static const Rect *
rect_of (StrobeFlameGraph *self, guint node)
{
  for (guint i = 0; i < self->rects->len; i++)
    if (g_array_index (self->rects, Rect, i).node == node)
      return &g_array_index (self->rects, Rect, i);
  return NULL;
}

static void
outline (GtkSnapshot *snapshot, const graphene_rect_t *box, const GdkRGBA *c, float width)
{
  GskRoundedRect rr;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *c, *c, *c, *c };

  gsk_rounded_rect_init_from_rect (&rr, box, 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static void
draw_empty (StrobeFlameGraph *self, GtkSnapshot *snapshot)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->empty_text);
  GdkRGBA fg;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
G_GNUC_END_IGNORE_DEPRECATIONS
  fg.alpha *= 0.6f;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (12, 12));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

static void
strobe_flame_graph_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  const Rect *r;

  ensure_layout (self);
  if (self->rects->len == 0)
    {
      draw_empty (self, snapshot);
      return;
    }
  if (self->node == NULL)
    self->node = make_node (self);
  gtk_snapshot_append_node (snapshot, self->node);
  if (self->hovered != G_MAXUINT && (r = rect_of (self, self->hovered)) != NULL)
    {
      graphene_rect_t box = box_of (r);
      gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 0.35f }, &box);
    }
  if (self->selected != G_MAXUINT && (r = rect_of (self, self->selected)) != NULL)
    {
      graphene_rect_t box = box_of (r);
      outline (snapshot, &box, &(GdkRGBA) { 0.1f, 0.3f, 0.8f, 1 }, 2);
    }
  if (gtk_widget_has_visible_focus (widget))
    {
      graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
      /* Two pixels, as GTK's own focus rings: one was too faint to find (issue 24 item 18). */
      outline (snapshot, &all, &(GdkRGBA) { 0.21f, 0.52f, 0.89f, 1 }, 2);
    }
}

static void
strobe_flame_graph_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 300;
      return;
    }
  if (for_size > 0 && for_size != self->laid_w)
    {
      lay_out (self, for_size);
      g_clear_pointer (&self->node, gsk_render_node_unref);
    }
  *minimum = *natural = (int) (MAX (self->rows, 2) * ROW_H);
}

/* ---- hover, selection, zoom ------------------------------------------------------------- */

guint
strobe_flame_graph_node_at (StrobeFlameGraph *self,
                            double            x,
                            double            y)
{
  guint row;

  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), G_MAXUINT);
  ensure_layout (self);
  if (y < 0)
    return G_MAXUINT;
  row = (guint) (y / ROW_H);
  for (guint i = 0; i < self->rects->len; i++)
    {
      const Rect *r = &g_array_index (self->rects, Rect, i);
      if (r->row == row && x >= r->x && x < r->x + r->w)
        return r->node;
    }
  return G_MAXUINT;
}

static char *
describe (StrobeFlameGraph *self, guint node)
{
  if (node == G_MAXUINT || !has_tree (self) || node >= strobe_cost_tree_get_n_nodes (self->tree)
      || self->funcs.describe == NULL)
    return NULL;
  return self->funcs.describe (self->tree, node, self->funcs_data);
}

static void
set_hover_text (StrobeFlameGraph *self, guint node)
{
  g_autofree char *text = describe (self, node);

  if (g_strcmp0 (text, self->hover_text) == 0)
    return;
  g_free (self->hover_text);
  self->hover_text = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->hover_text ? self->hover_text : "", -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_TEXT]);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  g_autofree char *text = describe (self, keyboard ? self->selected : strobe_flame_graph_node_at (self, x, y));

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *c,
           double                    x,
           double                    y,
           StrobeFlameGraph         *self)
{
  guint node = strobe_flame_graph_node_at (self, x, y);

  if (node == self->hovered)
    return;
  self->hovered = node;
  set_hover_text (self, node != G_MAXUINT ? node : self->selected);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *c,
          StrobeFlameGraph         *self)
{
  self->hovered = G_MAXUINT;
  set_hover_text (self, self->selected);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
zoom_out (StrobeFlameGraph *self, gboolean to_top)
{
  if (!has_tree (self) || self->zoom == 0)
    return FALSE;
  strobe_flame_graph_zoom (self, to_top ? 0 : parent_of (self, self->zoom));
  return TRUE;
}

static void
pressed_cb (GtkGestureClick  *gesture,
            int               n_press,
            double            x,
            double            y,
            StrobeFlameGraph *self)
{
  guint node = strobe_flame_graph_node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_SECONDARY)
    {
      zoom_out (self, FALSE);
      return;
    }
  if (node == G_MAXUINT)
    return;
  if (self->click_zooms || n_press == 2)
    strobe_flame_graph_zoom (self, node);
  strobe_flame_graph_select (self, node);
}

/* ---- keys ---------------------------------------------------------------------------------- */

static guint
current (StrobeFlameGraph *self)
{
  return self->selected == G_MAXUINT ? self->zoom : self->selected;
}

static gboolean
move_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   data)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  guint keyval = g_variant_get_uint32 (args), sel, to = G_MAXUINT;
  const Rect *r;

  if (!has_tree (self))
    return FALSE;
  ensure_layout (self);
  sel = current (self);
  if ((r = rect_of (self, sel)) == NULL)
    return FALSE;
  if (keyval == GDK_KEY_Up)
    to = sel == 0 ? G_MAXUINT : parent_of (self, sel);
  else if (keyval == GDK_KEY_Down)
    {
      guint32 kid;
      if (strobe_cost_tree_get_children (self->tree, sel, self->column, STROBE_COST_SORT_DESCENDING | self->ties,
                                         0, 1, &kid) == 1)
        to = kid;
    }
  else
    to = strobe_flame_graph_node_at (self, keyval == GDK_KEY_Left ? r->x - 0.25 : r->x + r->w + 0.25,
                                     (r->row + 0.5) * ROW_H);
  /* Only to a node that is drawn. */
  if (to == G_MAXUINT || rect_of (self, to) == NULL)
    gtk_widget_error_bell (widget);
  else
    strobe_flame_graph_select (self, to);
  return TRUE;
}

static gboolean
zoom_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   data)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (widget);
  int how = g_variant_get_int32 (args);

  if (!has_tree (self))
    return FALSE;
  if (how > 0)
    {
      strobe_flame_graph_zoom (self, current (self));
      return TRUE;
    }
  return zoom_out (self, how < -1);
}

/* ---- API ------------------------------------------------------------------------------------ */

void
strobe_flame_graph_set_funcs (StrobeFlameGraph            *self,
                              const StrobeFlameGraphFuncs *funcs,
                              gpointer                     user_data,
                              GDestroyNotify               destroy)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));
  g_return_if_fail (funcs != NULL);

  if (self->funcs_destroy)
    self->funcs_destroy (self->funcs_data);
  self->funcs = *funcs;
  self->funcs_data = user_data;
  self->funcs_destroy = destroy;
  invalidate (self);
}

void
strobe_flame_graph_set_tree (StrobeFlameGraph   *self,
                             StrobeCostTree     *tree,
                             guint               column,
                             StrobeCostSortFlags ties)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));
  g_return_if_fail (tree == NULL || column < strobe_cost_tree_get_n_columns (tree));

  if (tree)
    strobe_cost_tree_ref (tree);
  g_clear_pointer (&self->tree, strobe_cost_tree_unref);
  self->tree = tree;
  self->column = column;
  self->ties = ties & STROBE_COST_SORT_TIE_BY_KEY;
  self->zoom = 0;
  self->selected = G_MAXUINT;
  self->hovered = G_MAXUINT;
  set_hover_text (self, G_MAXUINT);
  invalidate (self);
}

StrobeCostTree *
strobe_flame_graph_get_tree (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}

void
strobe_flame_graph_set_column (StrobeFlameGraph *self,
                               guint             column)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));
  g_return_if_fail (self->tree == NULL || column < strobe_cost_tree_get_n_columns (self->tree));

  if (self->column == column)
    return;
  self->column = column;
  invalidate (self);
}

guint
strobe_flame_graph_get_column (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), 0);
  return self->column;
}

void
strobe_flame_graph_set_highlight (StrobeFlameGraph *self,
                                  guint64           key)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));

  if (self->highlight == key)
    return;
  self->highlight = key;
  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
strobe_flame_graph_zoom (StrobeFlameGraph *self,
                         guint             node)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));

  if (!has_tree (self) || node >= strobe_cost_tree_get_n_nodes (self->tree) || node == self->zoom)
    return;
  self->zoom = node;
  invalidate (self);
}

guint
strobe_flame_graph_get_zoom (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), 0);
  return self->zoom;
}

void
strobe_flame_graph_select (StrobeFlameGraph *self,
                           guint             node)
{
  g_return_if_fail (STROBE_IS_FLAME_GRAPH (self));

  if (self->selected == node)
    return;
  self->selected = node;
  set_hover_text (self, node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (node != G_MAXUINT)
    g_signal_emit (self, signals[SHOW_NODE], 0, node);
}

guint
strobe_flame_graph_get_selected (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), G_MAXUINT);
  return self->selected;
}

guint
strobe_flame_graph_get_n_drawn (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), 0);
  ensure_layout (self);
  return self->rects->len;
}

const char *
strobe_flame_graph_get_hover_text (StrobeFlameGraph *self)
{
  g_return_val_if_fail (STROBE_IS_FLAME_GRAPH (self), NULL);
  return self->hover_text;
}

/* ---- class ---------------------------------------------------------------------------------- */

static void
strobe_flame_graph_finalize (GObject *object)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (object);

  if (self->funcs_destroy)
    self->funcs_destroy (self->funcs_data);
  g_clear_pointer (&self->tree, strobe_cost_tree_unref);
  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->node, gsk_render_node_unref);
  g_free (self->hover_text);
  g_free (self->empty_text);
  G_OBJECT_CLASS (strobe_flame_graph_parent_class)->finalize (object);
}

static void
strobe_flame_graph_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_HOVER_TEXT:     g_value_set_string (value, self->hover_text); break;
    case PROP_SHOW_ANCESTORS: g_value_set_boolean (value, self->show_ancestors); break;
    case PROP_CLICK_ZOOMS:    g_value_set_boolean (value, self->click_zooms); break;
    case PROP_EMPTY_TEXT:     g_value_set_string (value, self->empty_text); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_flame_graph_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StrobeFlameGraph *self = STROBE_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_SHOW_ANCESTORS:
      if (self->show_ancestors == g_value_get_boolean (value))
        return;
      self->show_ancestors = g_value_get_boolean (value);
      invalidate (self);
      break;
    case PROP_CLICK_ZOOMS:
      if (self->click_zooms == g_value_get_boolean (value))
        return;
      self->click_zooms = g_value_get_boolean (value);
      break;
    case PROP_EMPTY_TEXT:
      if (g_strcmp0 (self->empty_text, g_value_get_string (value)) == 0)
        return;
      g_free (self->empty_text);
      self->empty_text = g_value_dup_string (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_object_notify_by_pspec (object, pspec);
}

static void
add_key (GtkWidgetClass *widget_class, guint keyval, GtkShortcutFunc func, const char *format, int arg)
{
  gtk_widget_class_add_binding (widget_class, keyval, 0, func, format, arg);
}

static void
strobe_flame_graph_class_init (StrobeFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = strobe_flame_graph_finalize;
  object_class->get_property = strobe_flame_graph_get_property;
  object_class->set_property = strobe_flame_graph_set_property;
  widget_class->snapshot = strobe_flame_graph_snapshot;
  widget_class->measure = strobe_flame_graph_measure;

  properties[PROP_HOVER_TEXT] =
    g_param_spec_string ("hover-text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_ANCESTORS] = g_param_spec_boolean ("show-ancestors", NULL, NULL, FALSE, rw);
  properties[PROP_CLICK_ZOOMS] = g_param_spec_boolean ("click-zooms", NULL, NULL, FALSE, rw);
  properties[PROP_EMPTY_TEXT] = g_param_spec_string ("empty-text", NULL, NULL, NULL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SHOW_NODE] = g_signal_new ("show-node", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 1, G_TYPE_UINT);

  /* Bindings that did nothing let the key go on (Escape at the top closes what holds it). */
  add_key (widget_class, GDK_KEY_Left, move_cb, "u", GDK_KEY_Left);
  add_key (widget_class, GDK_KEY_Right, move_cb, "u", GDK_KEY_Right);
  add_key (widget_class, GDK_KEY_Up, move_cb, "u", GDK_KEY_Up);
  add_key (widget_class, GDK_KEY_Down, move_cb, "u", GDK_KEY_Down);
  add_key (widget_class, GDK_KEY_Return, zoom_cb, "i", 1);
  add_key (widget_class, GDK_KEY_KP_Enter, zoom_cb, "i", 1);
  add_key (widget_class, GDK_KEY_BackSpace, zoom_cb, "i", -1);
  add_key (widget_class, GDK_KEY_Escape, zoom_cb, "i", -2);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
strobe_flame_graph_init (StrobeFlameGraph *self)
{
  GtkEventController *motion;
  GtkGesture *click;

  self->rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  self->highlight = STROBE_FLAME_GRAPH_NO_HIGHLIGHT;
  self->selected = G_MAXUINT;
  self->hovered = G_MAXUINT;
  self->laid_w = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"), -1);
}

GtkWidget *
strobe_flame_graph_new (void)
{
  return g_object_new (STROBE_TYPE_FLAME_GRAPH, NULL);
}
