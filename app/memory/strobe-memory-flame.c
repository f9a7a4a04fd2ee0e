/* strobe-memory-flame.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-format.h"
#include "strobe-memory-flame.h"

#define ROW_H      18.0
#define MIN_W      0.5     /* narrower callees are not drawn (nor their callees) */
#define LABEL_W    36.0    /* narrower rectangles go without a label */

typedef struct
{
  guint32 node;
  guint32 parent_rect;   /* G_MAXUINT32 for the top */
  guint   depth;
  double  x, w;
} Rect;

struct _StrobeMemoryFlame
{
  GtkWidget          parent_instance;
  StrobeMemoryNames *names;
  StrobeMemoryTree  *tree;
  StrobeMemoryCost   cost;
  guint              zoom;
  guint              selected;
  guint              hovered;
  GArray            *rects;      /* Rect, parents before children */
  guint              depth;      /* rows laid out */
  int                laid_w;     /* -1: lay out again */
  GskRenderNode     *node;       /* the rectangles and labels */
  char              *hover_text;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryFlame, strobe_memory_flame, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_HOVER_TEXT,
  N_PROPS
};

enum
{
  SHOW_NODE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static guint64
cost_of (StrobeMemoryFlame *self, const StrobeMemoryTreeNode *n)
{
  switch (self->cost)
    {
    case STROBE_MEMORY_COST_LEAKED: return (guint64) MAX (n->inclusive.leaked_bytes, 0);
    case STROBE_MEMORY_COST_ALLOCATIONS: return n->inclusive.allocations;
    case STROBE_MEMORY_COST_TEMPORARY: return n->inclusive.temporary;
    case STROBE_MEMORY_COST_BYTES: return n->inclusive.bytes_allocated;
    case STROBE_MEMORY_COST_PEAK:
    case STROBE_MEMORY_COST_KEY:
    default: return (guint64) MAX (n->inclusive.peak_bytes, 0);
    }
}

static void
invalidate (StrobeMemoryFlame *self)
{
  self->laid_w = -1;
  g_clear_pointer (&self->node, gsk_render_node_unref);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Breadth of each node from the zoomed one down, parents before children. */
static void
lay_out (StrobeMemoryFlame *self, int width)
{
  StrobeMemoryTreeNode top;
  g_autofree guint32 *kids = NULL;
  guint kids_cap = 0;

  g_array_set_size (self->rects, 0);
  self->depth = 0;
  self->laid_w = width;
  if (self->tree == NULL || !strobe_memory_tree_get_node (self->tree, self->zoom, &top) || cost_of (self, &top) == 0)
    return;
  {
    Rect r = { self->zoom, G_MAXUINT32, 0, 0, width };
    g_array_append_val (self->rects, r);
  }
  for (guint i = 0; i < self->rects->len; i++)
    {
      Rect parent = g_array_index (self->rects, Rect, i);
      StrobeMemoryTreeNode n;
      guint64 total;
      double x = parent.x;
      guint k;

      self->depth = MAX (self->depth, parent.depth + 1);
      strobe_memory_tree_get_node (self->tree, parent.node, &n);
      total = cost_of (self, &n);
      if (n.n_children == 0 || total == 0)
        continue;
      if (n.n_children > kids_cap)
        {
          kids_cap = n.n_children;
          kids = g_renew (guint32, kids, kids_cap);
        }
      k = strobe_memory_tree_get_children (self->tree, parent.node, self->cost, 0, n.n_children, kids);
      for (guint c = 0; c < k; c++)
        {
          StrobeMemoryTreeNode child;
          double w;

          strobe_memory_tree_get_node (self->tree, kids[c], &child);
          w = parent.w * (double) cost_of (self, &child) / (double) total;
          /* Sorted by the cost: the rest are narrower still. */
          if (w < MIN_W)
            break;
          {
            Rect r = { kids[c], i, parent.depth + 1, x, w };
            g_array_append_val (self->rects, r);
          }
          x += w;
        }
    }
}

static void
color_of (guint64 key, GdkRGBA *c)
{
  guint64 h = key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  double hue = (double) (h >> 40 & 0xff) / 255.0 * 0.14;   /* red to yellow */
  float r, g, b;

  gtk_hsv_to_rgb ((float) hue, 0.55f + (float) (h >> 20 & 0xff) / 255.0f * 0.2f, 0.93f, &r, &g, &b);
  c->red = r;
  c->green = g;
  c->blue = b;
  c->alpha = 1;
}

static GskRenderNode *
make_node (StrobeMemoryFlame *self)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GdkRGBA text = { 0.1f, 0.1f, 0.1f, 1 };

  for (guint i = 0; i < self->rects->len; i++)
    {
      const Rect *r = &g_array_index (self->rects, Rect, i);
      StrobeMemoryTreeNode n;
      GdkRGBA c;
      graphene_rect_t box = GRAPHENE_RECT_INIT ((float) r->x, (float) (r->depth * ROW_H), (float) MAX (r->w - 1, 0.5),
                                                (float) (ROW_H - 1));

      strobe_memory_tree_get_node (self->tree, r->node, &n);
      color_of (n.key, &c);
      if (r->node == 0)
        c = (GdkRGBA) { 0.75f, 0.75f, 0.78f, 1 };
      gtk_snapshot_append_color (snapshot, &c, &box);
      if (r->w >= LABEL_W)
        {
          g_autofree char *name = r->node == 0 ? g_strdup (_("All allocations"))
                                               : strobe_memory_names_function (self->names, &n.frame, n.inline_depth);
          g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), name);
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
          pango_layout_set_width (layout, (int) ((r->w - 6) * PANGO_SCALE));
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
          gtk_snapshot_push_clip (snapshot, &box);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) r->x + 3, (float) (r->depth * ROW_H) + 2));
          gtk_snapshot_append_layout (snapshot, layout, &text);
          gtk_snapshot_restore (snapshot);
          gtk_snapshot_pop (snapshot);
        }
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static void
ensure_layout (StrobeMemoryFlame *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  if (self->laid_w != w)
    {
      lay_out (self, w);
      g_clear_pointer (&self->node, gsk_render_node_unref);
    }
}

static const Rect *
rect_of (StrobeMemoryFlame *self, guint node)
{
  for (guint i = 0; i < self->rects->len; i++)
    if (g_array_index (self->rects, Rect, i).node == node)
      return &g_array_index (self->rects, Rect, i);
  return NULL;
}

static void
outline (GtkSnapshot *snapshot, const Rect *r, const GdkRGBA *c, float width)
{
  GskRoundedRect rr;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *c, *c, *c, *c };

  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT ((float) r->x, (float) (r->depth * ROW_H),
                                                             (float) MAX (r->w - 1, 1), (float) (ROW_H - 1)), 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static void
strobe_memory_flame_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  StrobeMemoryFlame *self = STROBE_MEMORY_FLAME (widget);
  const Rect *r;

  ensure_layout (self);
  if (self->rects->len == 0)
    {
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, self->tree ? _("Nothing to show for this cost.")
                                                                                       : _("No call tree yet."));
      GdkRGBA fg;

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
G_GNUC_END_IGNORE_DEPRECATIONS
      fg.alpha *= 0.6f;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (12, 12));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      return;
    }
  if (self->node == NULL)
    self->node = make_node (self);
  gtk_snapshot_append_node (snapshot, self->node);
  if (self->hovered != G_MAXUINT && (r = rect_of (self, self->hovered)) != NULL)
    {
      GdkRGBA light = { 1, 1, 1, 0.35f };
      gtk_snapshot_append_color (snapshot, &light, &GRAPHENE_RECT_INIT ((float) r->x, (float) (r->depth * ROW_H),
                                                                        (float) MAX (r->w - 1, 0.5), (float) (ROW_H - 1)));
    }
  if (self->selected != G_MAXUINT && (r = rect_of (self, self->selected)) != NULL)
    {
      GdkRGBA sel = { 0.1f, 0.3f, 0.8f, 1 };
      outline (snapshot, r, &sel, 2);
    }
}

static void
strobe_memory_flame_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  StrobeMemoryFlame *self = STROBE_MEMORY_FLAME (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
      return;
    }
  if (for_size > 0 && for_size != self->laid_w)
    lay_out (self, for_size);
  *minimum = *natural = (int) (MAX (self->depth, 2) * ROW_H);
}

/* ---- input --------------------------------------------------------------------------------- */

guint
strobe_memory_flame_node_at (StrobeMemoryFlame *self,
                             double             x,
                             double             y)
{
  guint depth;

  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), G_MAXUINT);
  ensure_layout (self);
  if (y < 0)
    return G_MAXUINT;
  depth = (guint) (y / ROW_H);
  for (guint i = 0; i < self->rects->len; i++)
    {
      const Rect *r = &g_array_index (self->rects, Rect, i);
      if (r->depth == depth && x >= r->x && x < r->x + r->w)
        return r->node;
    }
  return G_MAXUINT;
}

static void
set_hover_text (StrobeMemoryFlame *self, guint node)
{
  StrobeMemoryTreeNode n, top;
  g_autofree char *text = NULL;

  if (node != G_MAXUINT && self->tree && strobe_memory_tree_get_node (self->tree, node, &n) &&
      strobe_memory_tree_get_node (self->tree, 0, &top))
    {
      g_autofree char *name = node == 0 ? g_strdup (_("All allocations"))
                                        : strobe_memory_names_function (self->names, &n.frame, n.inline_depth);
      guint64 v = cost_of (self, &n), all = MAX (cost_of (self, &top), 1);
      g_autofree char *value = self->cost == STROBE_MEMORY_COST_ALLOCATIONS || self->cost == STROBE_MEMORY_COST_TEMPORARY
                               ? strobe_format_count (v) : strobe_format_size (v);

      /* Translators: a flame graph node: function, its cost, its share of the whole */
      text = g_strdup_printf (_("%s: %s (%.1f %%)"), name, value, 100.0 * (double) v / (double) all);
    }
  if (g_strcmp0 (text, self->hover_text) == 0)
    return;
  g_free (self->hover_text);
  self->hover_text = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->hover_text ? self->hover_text : "", -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_TEXT]);
}

static void
motion_cb (GtkEventControllerMotion *c,
           double                    x,
           double                    y,
           StrobeMemoryFlame        *self)
{
  guint node = strobe_memory_flame_node_at (self, x, y);

  if (node == self->hovered)
    return;
  self->hovered = node;
  set_hover_text (self, node != G_MAXUINT ? node : self->selected);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *c,
          StrobeMemoryFlame        *self)
{
  self->hovered = G_MAXUINT;
  set_hover_text (self, self->selected);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pressed_cb (GtkGestureClick   *gesture,
            int                n_press,
            double             x,
            double             y,
            StrobeMemoryFlame *self)
{
  guint node = strobe_memory_flame_node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node == G_MAXUINT)
    return;
  if (n_press == 2)
    strobe_memory_flame_zoom (self, node);
  strobe_memory_flame_select (self, node);
}

static guint
parent_of (StrobeMemoryFlame *self, guint node)
{
  StrobeMemoryTreeNode n;

  return self->tree && strobe_memory_tree_get_node (self->tree, node, &n) ? n.parent : 0;
}

static gboolean
key_cb (GtkEventControllerKey *c,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        StrobeMemoryFlame     *self)
{
  guint sel = self->selected == G_MAXUINT ? self->zoom : self->selected;
  const Rect *r;

  if (self->tree == NULL)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up:
      if (sel != self->zoom)
        strobe_memory_flame_select (self, parent_of (self, sel));
      return TRUE;
    case GDK_KEY_Down:
      {
        guint32 kid;
        if (strobe_memory_tree_get_children (self->tree, sel, self->cost, 0, 1, &kid) == 1 && rect_of (self, kid))
          strobe_memory_flame_select (self, kid);
      }
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_Right:
      if ((r = rect_of (self, sel)) != NULL)
        {
          guint at = (guint) (r - &g_array_index (self->rects, Rect, 0));
          double x = keyval == GDK_KEY_Left ? r->x - 0.25 : r->x + r->w + 0.25;
          guint depth = r->depth;

          (void) at;
          for (guint i = 0; i < self->rects->len; i++)
            {
              const Rect *o = &g_array_index (self->rects, Rect, i);
              if (o->depth == depth && x >= o->x && x < o->x + o->w)
                {
                  strobe_memory_flame_select (self, o->node);
                  break;
                }
            }
        }
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      strobe_memory_flame_zoom (self, sel);
      return TRUE;
    case GDK_KEY_BackSpace:
    case GDK_KEY_Escape:
      if (self->zoom == 0)
        return FALSE;
      strobe_memory_flame_zoom (self, keyval == GDK_KEY_Escape ? 0 : parent_of (self, self->zoom));
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- API ------------------------------------------------------------------------------------ */

void
strobe_memory_flame_set_names (StrobeMemoryFlame *self,
                               StrobeMemoryNames *names)
{
  g_return_if_fail (STROBE_IS_MEMORY_FLAME (self));
  g_set_object (&self->names, names);
}

void
strobe_memory_flame_set_tree (StrobeMemoryFlame *self,
                              StrobeMemoryTree  *tree)
{
  g_return_if_fail (STROBE_IS_MEMORY_FLAME (self));
  g_return_if_fail (tree == NULL || STROBE_IS_MEMORY_TREE (tree));

  if (!g_set_object (&self->tree, tree))
    return;
  self->zoom = 0;
  self->selected = G_MAXUINT;
  self->hovered = G_MAXUINT;
  set_hover_text (self, G_MAXUINT);
  invalidate (self);
}

void
strobe_memory_flame_set_cost (StrobeMemoryFlame *self,
                              StrobeMemoryCost   cost)
{
  g_return_if_fail (STROBE_IS_MEMORY_FLAME (self));
  if (self->cost == cost)
    return;
  self->cost = cost;
  invalidate (self);
}

StrobeMemoryCost
strobe_memory_flame_get_cost (StrobeMemoryFlame *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), STROBE_MEMORY_COST_PEAK);
  return self->cost;
}

void
strobe_memory_flame_zoom (StrobeMemoryFlame *self,
                          guint              node)
{
  g_return_if_fail (STROBE_IS_MEMORY_FLAME (self));
  if (self->tree == NULL || node >= strobe_memory_tree_get_n_nodes (self->tree) || node == self->zoom)
    return;
  self->zoom = node;
  invalidate (self);
}

guint
strobe_memory_flame_get_zoom (StrobeMemoryFlame *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), 0);
  return self->zoom;
}

void
strobe_memory_flame_select (StrobeMemoryFlame *self,
                            guint              node)
{
  g_return_if_fail (STROBE_IS_MEMORY_FLAME (self));
  if (self->selected == node)
    return;
  self->selected = node;
  set_hover_text (self, node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (node != G_MAXUINT)
    g_signal_emit (self, signals[SHOW_NODE], 0, node);
}

guint
strobe_memory_flame_get_selected (StrobeMemoryFlame *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), G_MAXUINT);
  return self->selected;
}

guint
strobe_memory_flame_get_n_drawn (StrobeMemoryFlame *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), 0);
  ensure_layout (self);
  return self->rects->len;
}

const char *
strobe_memory_flame_get_hover_text (StrobeMemoryFlame *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FLAME (self), NULL);
  return self->hover_text;
}

static void
strobe_memory_flame_finalize (GObject *object)
{
  StrobeMemoryFlame *self = STROBE_MEMORY_FLAME (object);

  g_clear_object (&self->names);
  g_clear_object (&self->tree);
  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->node, gsk_render_node_unref);
  g_free (self->hover_text);
  G_OBJECT_CLASS (strobe_memory_flame_parent_class)->finalize (object);
}

static void
strobe_memory_flame_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StrobeMemoryFlame *self = STROBE_MEMORY_FLAME (object);

  switch (prop_id)
    {
    case PROP_HOVER_TEXT: g_value_set_string (value, self->hover_text); break;
    default:              G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_memory_flame_class_init (StrobeMemoryFlameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = strobe_memory_flame_finalize;
  object_class->get_property = strobe_memory_flame_get_property;
  widget_class->snapshot = strobe_memory_flame_snapshot;
  widget_class->measure = strobe_memory_flame_measure;
  properties[PROP_HOVER_TEXT] =
    g_param_spec_string ("hover-text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SHOW_NODE] = g_signal_new ("show-node", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-flame");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
strobe_memory_flame_init (StrobeMemoryFlame *self)
{
  GtkEventController *motion, *key;
  GtkGesture *click;

  self->rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  self->cost = STROBE_MEMORY_COST_PEAK;
  self->selected = G_MAXUINT;
  self->hovered = G_MAXUINT;
  self->laid_w = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"), -1);
}

GtkWidget *
strobe_memory_flame_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_FLAME, NULL);
}
