/* strobe-call-tree.c — the call tree by name path: each thread's depths are walked
 * together in time order (a cursor per depth, which only moves forward, as in the timer
 * statistics), a stack of the enclosing scopes giving each scope its parent node in a
 * StrobeCostTree (column 0: instances, 1: time).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-call-tree.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats.h"

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

typedef struct
{
  guint32 node;
  guint64 begin;
  guint64 end;
} Frame;

/* Every scope walked (kept, lumped or skipped) is counted: the progress moves evenly. */
typedef struct
{
  guint         tick;
  gint         *progress;
  GCancellable *cancellable;
} Ticks;

static gint test_hold;

void
strobe_call_tree_set_test_hold (gboolean hold)
{
  g_atomic_int_set (&test_hold, hold);
}

/* A step of progress; FALSE when cancelled. */
static gboolean
tick (Ticks *ticks)
{
  ticks->tick = 0;
  if (ticks->progress)
    g_atomic_int_inc (ticks->progress);
  while (G_UNLIKELY (g_atomic_int_get (&test_hold)) && !g_cancellable_is_cancelled (ticks->cancellable))
    g_usleep (1000);
  return !g_cancellable_is_cancelled (ticks->cancellable);
}

/* FALSE when cancelled. */
static gboolean
thread_tree (StrobeScopeThread *th, guint64 t0, guint64 t1, StrobeCostTree *tree, Ticks *ticks)
{
  guint n = th->tracks->len;
  g_autofree StrobeScopePos *pos = g_new0 (StrobeScopePos, MAX (n, 1));
  g_autofree Frame *stack = g_new (Frame, n + 1);
  guint top = 0;

  for (guint d = 0; d < n; d++)
    pos[d] = strobe_scope_track_lower_bound_end (th->tracks->pdata[d], t0);
  stack[0].node = 0;
  stack[0].begin = 0;
  stack[0].end = G_MAXUINT64;
  /* stack[k] is the open scope at depth k - 1; its children are at depth k. */
  for (;;)
    {
      Frame *f = &stack[top];
      guint d = top;
      StrobeScopeTrack *t = d < n ? th->tracks->pdata[d] : NULL;
      gboolean child = FALSE;

      if (t)
        {
          /* Scopes that began before this parent belong to an earlier one (outside the
           * range, or before t0): skip them. */
          while (strobe_scope_pos_valid (t, pos[d]) && strobe_scope_begin_at (t, pos[d]) < f->begin)
            {
              strobe_scope_pos_next (t, &pos[d]);
              if (G_UNLIKELY (++ticks->tick == STROBE_TIMER_STATS_PROGRESS_SCOPES) && !tick (ticks))
                return FALSE;
            }
          if (strobe_scope_pos_valid (t, pos[d]))
            {
              guint64 b = strobe_scope_begin_at (t, pos[d]);
              guint64 e = strobe_scope_end_at (t, pos[d]);
              child = b <= t1 && b <= f->end && e <= f->end;
              if (child)
                {
                  guint32 id = strobe_cost_tree_child (tree, f->node, strobe_scope_name_at (t, pos[d]));
                  guint64 time = clip (b, e, t0, t1);

                  /* The root's costs are the outermost scopes'. */
                  strobe_cost_tree_add (tree, id, STROBE_CALL_COUNT, FALSE, 1);
                  strobe_cost_tree_add (tree, id, STROBE_CALL_TIME, FALSE, time);
                  if (f->node == 0)
                    {
                      strobe_cost_tree_add (tree, 0, STROBE_CALL_COUNT, FALSE, 1);
                      strobe_cost_tree_add (tree, 0, STROBE_CALL_TIME, FALSE, time);
                    }
                  strobe_scope_pos_next (t, &pos[d]);
                  if (G_UNLIKELY (++ticks->tick == STROBE_TIMER_STATS_PROGRESS_SCOPES) && !tick (ticks))
                    return FALSE;
                  /* A path not kept: its time is whole in the parent's "other" node; the
                   * scopes it encloses are skipped as the next sibling is taken. */
                  if (strobe_cost_tree_get_key (tree, id) == STROBE_CALL_OTHER)
                    continue;
                  top++;
                  stack[top].node = id;
                  stack[top].begin = b;
                  stack[top].end = e;
                }
            }
        }
      if (!child)
        {
          if (top == 0)
            break;
          top--;
        }
    }
  return TRUE;
}

static gint node_limit = STROBE_CALL_TREE_MAX_NODES;

void
strobe_call_tree_set_test_node_limit (guint32 limit)
{
  g_atomic_int_set (&node_limit, (gint) MIN (limit, STROBE_CALL_TREE_MAX_NODES));
}

StrobeCostTree *
strobe_call_tree_compute (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                          GCancellable *cancellable, GError **error)
{
  return strobe_call_tree_compute_full (model, t0, t1, thread_id, NULL, cancellable, error);
}

StrobeCostTree *
strobe_call_tree_compute_full (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                               gint *progress, GCancellable *cancellable, GError **error)
{
  Ticks ticks = { 0, progress, cancellable };
  static const StrobeCostColumnFlags columns[] = { STROBE_COST_COLUMN_NO_SELF, STROBE_COST_COLUMN_DEFAULT };
  g_autoptr(GArray) ids = NULL;
  g_autoptr(StrobeCostTree) tree = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  tree = strobe_cost_tree_new (STROBE_COST_TREE_TOP_DOWN, G_N_ELEMENTS (columns), columns, STROBE_CALL_NONE);
  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; i < ids->len && ok; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      guint32 limit = (guint32) MAX (g_atomic_int_get (&node_limit), 1), n = strobe_cost_tree_get_n_nodes (tree);
      StrobeScopeThread *th;

      if (thread_id >= 0 && id != thread_id)
        continue;
      /* Each thread a share of the nodes left (the first walked would take them all), and
       * the two outermost levels always kept: the lumped paths are deep ones. */
      strobe_cost_tree_set_node_limit (tree, n + (limit > n ? (limit - n) / (thread_id >= 0 ? 1 : ids->len - i) : 0),
                                       STROBE_CALL_OTHER, 2);
      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th)
        ok = thread_tree (th, t0, t1, tree, &ticks);
      strobe_timeline_model_read_unlock (model);
    }
  /* ok is FALSE only when cancelled: the error says so. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !ok)
    return NULL;
  /* Exclusive time, and children largest first (ties by name id) for the flame graph. */
  strobe_cost_tree_compute_self (tree);
  strobe_cost_tree_sort_children (tree, STROBE_CALL_TIME, STROBE_COST_SORT_DESCENDING | STROBE_COST_SORT_TIE_BY_KEY);
  strobe_cost_tree_trim (tree);
  return g_steal_pointer (&tree);
}

void
strobe_call_tree_get_node (StrobeCostTree *tree, guint32 node, StrobeCallNode *out)
{
  g_return_if_fail (tree != NULL && out != NULL);
  g_return_if_fail (node < strobe_cost_tree_get_n_nodes (tree));

  out->name_id = (guint32) strobe_cost_tree_get_key (tree, node);
  out->parent = node == 0 ? STROBE_CALL_NONE : strobe_cost_tree_get_parent (tree, node);
  out->first_child = strobe_cost_tree_get_first_child (tree, node);
  out->next_sibling = strobe_cost_tree_get_next_sibling (tree, node);
  out->depth = strobe_cost_tree_get_depth (tree, node);
  out->count = strobe_cost_tree_get_inclusive (tree, node, STROBE_CALL_COUNT);
  out->inclusive = strobe_cost_tree_get_inclusive (tree, node, STROBE_CALL_TIME);
  out->exclusive = strobe_cost_tree_get_self (tree, node, STROBE_CALL_TIME);
}

static gint
link_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeCallLink *x = a, *y = b;

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* Unreal Insights' butterfly counts a recursive timer at each level, and the outermost
 * scopes' caller is "none" (the root's key). */
static GArray *
links (StrobeCostTree *tree, guint32 name_id, gboolean callers)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeCallLink));
  g_autoptr(StrobeCostCalls) calls = NULL;
  const guint32 *list;
  guint f, n = 0;

  g_return_val_if_fail (tree != NULL, out);

  calls = strobe_cost_calls_new (tree, STROBE_COST_CALLS_EACH_LEVEL | STROBE_COST_CALLS_ROOT_CALLS, NULL, NULL);
  f = strobe_cost_calls_find (calls, name_id);
  if (f == G_MAXUINT || name_id == STROBE_CALL_NONE)
    return out;
  list = callers ? strobe_cost_calls_get_callers (calls, f, &n) : strobe_cost_calls_get_callees (calls, f, &n);
  for (guint i = 0; i < n; i++)
    {
      guint other = callers ? strobe_cost_calls_get_caller (calls, list[i]) : strobe_cost_calls_get_callee (calls, list[i]);
      StrobeCallLink l;

      l.name_id = (guint32) strobe_cost_calls_get_key (calls, other);
      l.count = strobe_cost_calls_get_value (calls, list[i], STROBE_CALL_COUNT);
      l.inclusive = strobe_cost_calls_get_value (calls, list[i], STROBE_CALL_TIME);
      g_array_append_val (out, l);
    }
  g_array_sort (out, link_cmp);
  return out;
}

GArray *
strobe_call_tree_callers (StrobeCostTree *tree, guint32 name_id)
{
  return links (tree, name_id, TRUE);
}

GArray *
strobe_call_tree_callees (StrobeCostTree *tree, guint32 name_id)
{
  return links (tree, name_id, FALSE);
}
