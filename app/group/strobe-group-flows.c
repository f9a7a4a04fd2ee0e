/* strobe-group-flows.c — a group's flows as arrows over its timelines.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "strobe-flow-points.h"
#include "strobe-group-flows.h"
#include "strobe-group-member.h"

#define HIT_PX 5.0

struct _StrobeGroupFlows
{
  GtkWidget  parent_instance;
  GPtrArray *members;   /* StrobeGroupMember, the tab's */
  GPtrArray *flows;     /* StrobeFlow, the tab's */
};

G_DEFINE_FINAL_TYPE (StrobeGroupFlows, strobe_group_flows, GTK_TYPE_WIDGET)

static gboolean
locate_hop (StrobeGroupFlows *self, const StrobeFlowHop *hop, graphene_point_t *p)
{
  if (self->members == NULL || hop->trace >= self->members->len)
    return FALSE;
  return strobe_group_member_locate (g_ptr_array_index (self->members, hop->trace), hop->point.thread_id,
                                     hop->point.time, GTK_WIDGET (self), p);
}

/* Only arrows with an end inside the width are worth drawing or hitting. */
static gboolean
segment (StrobeGroupFlows *self, const StrobeFlow *flow, guint k, graphene_point_t *a, graphene_point_t *b)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  if (!locate_hop (self, &g_array_index (flow->hops, StrobeFlowHop, k), a)
      || !locate_hop (self, &g_array_index (flow->hops, StrobeFlowHop, k + 1), b))
    return FALSE;
  return !((a->x < 0 && b->x < 0) || (a->x > width && b->x > width));
}

static void
strobe_group_flows_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeGroupFlows *self = STROBE_GROUP_FLOWS (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->flows == NULL || self->flows->len == 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1.5);
  for (guint f = 0; f < self->flows->len; f++)
    {
      const StrobeFlow *flow = g_ptr_array_index (self->flows, f);

      for (guint k = 0; k + 1 < flow->hops->len; k++)
        {
          graphene_point_t a, b;
          gdouble angle;

          if (!segment (self, flow, k, &a, &b))
            continue;
          /* Orange as Perfetto's flows are: apart from the scopes' palette. */
          cairo_set_source_rgba (cr, 0.93, 0.47, 0.0, flow->unfinished ? 0.5 : 0.9);
          cairo_move_to (cr, a.x, a.y);
          cairo_curve_to (cr, a.x + 12, a.y, b.x - 12, b.y, b.x, b.y);
          cairo_stroke (cr);
          angle = atan2 (b.y - a.y, b.x - a.x - 12);
          cairo_move_to (cr, b.x, b.y);
          cairo_line_to (cr, b.x - 7 * cos (angle - 0.45), b.y - 7 * sin (angle - 0.45));
          cairo_line_to (cr, b.x - 7 * cos (angle + 0.45), b.y - 7 * sin (angle + 0.45));
          cairo_close_path (cr);
          cairo_fill (cr);
          cairo_arc (cr, a.x, a.y, 2.5, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  cairo_destroy (cr);
}

static gdouble
distance_to_segment (gdouble px, gdouble py, const graphene_point_t *a, const graphene_point_t *b)
{
  gdouble dx = b->x - a->x, dy = b->y - a->y, len2 = dx * dx + dy * dy, t;

  t = len2 > 0 ? CLAMP (((px - a->x) * dx + (py - a->y) * dy) / len2, 0, 1) : 0;
  return hypot (px - (a->x + t * dx), py - (a->y + t * dy));
}

gboolean
strobe_group_flows_hit (StrobeGroupFlows *self, gdouble x, gdouble y, guint *flow, guint *hop)
{
  gdouble best = HIT_PX;
  gboolean found = FALSE;

  g_return_val_if_fail (STROBE_IS_GROUP_FLOWS (self), FALSE);

  for (guint f = 0; self->flows != NULL && f < self->flows->len; f++)
    {
      const StrobeFlow *fl = g_ptr_array_index (self->flows, f);

      for (guint k = 0; k + 1 < fl->hops->len; k++)
        {
          graphene_point_t a, b;
          gdouble d;

          if (!segment (self, fl, k, &a, &b))
            continue;
          d = distance_to_segment (x, y, &a, &b);
          if (d <= best)
            {
              best = d;
              *flow = f;
              *hop = k;
              found = TRUE;
            }
        }
    }
  return found;
}

void
strobe_group_flows_set (StrobeGroupFlows *self, GPtrArray *members, GPtrArray *flows)
{
  g_return_if_fail (STROBE_IS_GROUP_FLOWS (self));

  self->members = members;
  self->flows = flows;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
strobe_group_flows_class_init (StrobeGroupFlowsClass *klass)
{
  GTK_WIDGET_CLASS (klass)->snapshot = strobe_group_flows_snapshot;
}

static void
strobe_group_flows_init (StrobeGroupFlows *self)
{
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
}

GtkWidget *
strobe_group_flows_new (void)
{
  return g_object_new (STROBE_TYPE_GROUP_FLOWS, NULL);
}
