/* strobe-flow-points.c — the flow points of a trace, and flows across a session's traces.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-flow-points.h"

enum { ROUTE_FLOW = 1 };

struct _StrobeFlowPoints
{
  GObject              parent_instance;
  GMutex               mutex;    /* guards points: the viewer copies them while a live trace grows */
  GArray              *points;   /* StrobeFlowPoint */
  guint64              skipped;
  StrobeFieldAccessor  cycle_f, id_f, phase_f;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeFlowPoints, strobe_flow_points, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static void
strobe_flow_points_finalize (GObject *object)
{
  StrobeFlowPoints *self = STROBE_FLOW_POINTS (object);

  g_array_unref (self->points);
  g_mutex_clear (&self->mutex);
  G_OBJECT_CLASS (strobe_flow_points_parent_class)->finalize (object);
}

static void
strobe_flow_points_class_init (StrobeFlowPointsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_flow_points_finalize;
}

static void
strobe_flow_points_init (StrobeFlowPoints *self)
{
  g_mutex_init (&self->mutex);
  self->points = g_array_new (FALSE, FALSE, sizeof (StrobeFlowPoint));
  self->cycle_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  self->id_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("Id");
  self->phase_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("Phase");
}

static void
flow_points_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_FLOW, "Misc", "Flow");
}

static void
flow_points_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeFlowPoints *self = (StrobeFlowPoints *) analyzer;
  StrobeFlowPoint p;
  guint64 phase = strobe_event_get_uint (ev, &self->phase_f);

  if (phase > STROBE_FLOW_POINT_END || ev->thread_id < 16)
    {
      self->skipped++;
      return;
    }
  p.time = strobe_event_get_uint (ev, &self->cycle_f);
  p.id = strobe_event_get_uint (ev, &self->id_f);
  p.thread_id = ev->thread_id;
  p.phase = (guint8) phase;
  g_mutex_lock (&self->mutex);
  g_array_append_val (self->points, p);
  g_mutex_unlock (&self->mutex);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = flow_points_begin;
  iface->on_event = flow_points_on_event;
}

StrobeFlowPoints *
strobe_flow_points_new (void)
{
  return g_object_new (STROBE_TYPE_FLOW_POINTS, NULL);
}

const GArray *
strobe_flow_points_get_points (StrobeFlowPoints *self)
{
  g_return_val_if_fail (STROBE_IS_FLOW_POINTS (self), NULL);
  return self->points;
}

GArray *
strobe_flow_points_dup_points (StrobeFlowPoints *self)
{
  GArray *copy;

  g_return_val_if_fail (STROBE_IS_FLOW_POINTS (self), NULL);
  g_mutex_lock (&self->mutex);
  copy = g_array_sized_new (FALSE, FALSE, sizeof (StrobeFlowPoint), self->points->len);
  g_array_append_vals (copy, self->points->data, self->points->len);
  g_mutex_unlock (&self->mutex);
  return copy;
}

guint64
strobe_flow_points_get_skipped (StrobeFlowPoints *self)
{
  g_return_val_if_fail (STROBE_IS_FLOW_POINTS (self), 0);
  return self->skipped;
}

/* ---- flows across traces -------------------------------------------------------------- */

void
strobe_flow_free (StrobeFlow *flow)
{
  if (flow == NULL)
    return;
  g_array_unref (flow->hops);
  g_free (flow);
}

/* By id, then time; at one instant a begin before a step before an end, so a flow whose
 * two ends have the same timestamp (a coarse clock) still reads begin → end. */
static int
compare_hops (gconstpointer a, gconstpointer b)
{
  const StrobeFlowHop *x = a, *y = b;

  if (x->point.id != y->point.id)
    return x->point.id < y->point.id ? -1 : 1;
  if (x->seconds != y->seconds)
    return x->seconds < y->seconds ? -1 : 1;
  if (x->point.phase != y->point.phase)
    return x->point.phase < y->point.phase ? -1 : 1;
  return x->trace < y->trace ? -1 : x->trace > y->trace;
}

static int
compare_flows (gconstpointer a, gconstpointer b)
{
  const StrobeFlow *x = *(StrobeFlow **) a, *y = *(StrobeFlow **) b;
  gdouble tx = g_array_index (x->hops, StrobeFlowHop, 0).seconds;
  gdouble ty = g_array_index (y->hops, StrobeFlowHop, 0).seconds;

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

GPtrArray *
strobe_flow_points_link (GArray *hops)
{
  GPtrArray *flows = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_flow_free);
  g_autoptr(GArray) sorted = NULL;
  StrobeFlow *open = NULL;

  g_return_val_if_fail (hops != NULL, flows);
  sorted = g_array_copy (hops);
  g_array_sort (sorted, compare_hops);
  for (guint i = 0; i < sorted->len; i++)
    {
      const StrobeFlowHop *h = &g_array_index (sorted, StrobeFlowHop, i);

      if (open != NULL && (open->id != h->point.id || h->point.phase == STROBE_FLOW_POINT_BEGIN))
        {
          open->unfinished = TRUE;   /* another id, or a new begin: this one never ended */
          open = NULL;
        }
      if (open == NULL)
        {
          open = g_new0 (StrobeFlow, 1);
          open->id = h->point.id;
          open->hops = g_array_new (FALSE, FALSE, sizeof (StrobeFlowHop));
          open->unstarted = h->point.phase != STROBE_FLOW_POINT_BEGIN;
          g_ptr_array_add (flows, open);
        }
      g_array_append_val (open->hops, *h);
      if (h->point.phase == STROBE_FLOW_POINT_END)
        open = NULL;
    }
  if (open != NULL)
    open->unfinished = TRUE;
  g_ptr_array_sort (flows, compare_flows);
  return flows;
}
