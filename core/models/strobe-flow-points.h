/* strobe-flow-points.h — the flow points of one trace (Misc.Flow, runtime/INSTRUMENTATION.md
 * "Flow"): where a flow id begins, passes and ends, on which thread and when. Joined with
 * other traces' points by id, they are the arrows between the processes of a session
 * (strobe_flow_points_link()).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_FLOW_POINT_BEGIN = 0,
  STROBE_FLOW_POINT_STEP  = 1,
  STROBE_FLOW_POINT_END   = 2,
} StrobeFlowPointPhase;

typedef struct
{
  guint64 time;        /* ticks of the trace's clock */
  guint64 id;          /* the program's flow id */
  guint16 thread_id;
  guint8  phase;       /* StrobeFlowPointPhase */
} StrobeFlowPoint;

#define STROBE_TYPE_FLOW_POINTS (strobe_flow_points_get_type ())
G_DECLARE_FINAL_TYPE (StrobeFlowPoints, strobe_flow_points, STROBE, FLOW_POINTS, GObject)

/* An analyzer: add it to a document (or decoder) before it reads the trace. */
StrobeFlowPoints *strobe_flow_points_new        (void);
/* Every point read so far, in the order they were delivered. Read it from the thread
 * that feeds the decoder, or after the trace was read. */
const GArray     *strobe_flow_points_get_points (StrobeFlowPoints *self);
/* A copy of the points read so far; any thread, while the trace is being read. */
GArray           *strobe_flow_points_dup_points (StrobeFlowPoints *self);
/* Points with an unknown phase, skipped. */
guint64           strobe_flow_points_get_skipped (StrobeFlowPoints *self);

/* A point of a session: which trace (an index the caller gives) it came from. */
typedef struct
{
  StrobeFlowPoint point;
  gdouble         seconds;   /* on the session's one time axis */
  guint           trace;
} StrobeFlowHop;

/* One flow: the hops with one id from a begin to the next end, in time order. */
typedef struct
{
  guint64  id;
  GArray  *hops;             /* StrobeFlowHop */
  gboolean unfinished;       /* no end: ended by another begin of its id, or by the traces' end */
  gboolean unstarted;        /* steps or an end with no begin before them */
} StrobeFlow;

void       strobe_flow_free  (StrobeFlow *flow);
/* Joins the hops of every trace of a session (@hops: StrobeFlowHop, any order) into flows
 * as INSTRUMENTATION.md says: by id, in time order, a begin starting a flow and an end
 * ending it. Returns StrobeFlow, by the time of their first hop. */
GPtrArray *strobe_flow_points_link (GArray *hops);

G_END_DECLS
