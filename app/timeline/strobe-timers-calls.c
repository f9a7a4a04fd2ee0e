/* strobe-timers-calls.c — see the header. Each kind is one query: the running job's
 * cancellable, its progress (an atomic rc box shared with the job: the worker counts, the
 * main thread reads), what it is of, and the last result with what that is of. A third,
 * every timer's links of a range at once (strobe_call_tree_pairs()), runs after a timer's
 * took long, so that the next timers chosen in the range are answered without a walk.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timers-calls.h"

#include "strobe-call-tree.h"
#include "strobe-timeline-background.h"
#include "strobe-timer-stats.h"

#define PROGRESS_EVERY_MS 250
/* A timer's links that took this long: every timer's of the range are found next (about
 * 1.4 times one's walk), the user likely to choose another there. */
#define PAIRS_AFTER_US (200 * G_TIME_SPAN_MILLISECOND)
/* The queries: the two kinds, and every timer's links (of a range: name 0). */
#define PAIRS 2

static gint64 pairs_after = PAIRS_AFTER_US;

void
strobe_timers_calls_set_test_pairs_after (gint64 us)
{
  pairs_after = us < 0 ? PAIRS_AFTER_US : us;
}

/* Steps of STROBE_TIMER_STATS_PROGRESS_SCOPES scopes: done (by the worker, atomically)
 * and the estimated total (set by the worker before it starts). */
typedef struct
{
  gint done;
  gint total;
} Progress;

/* What a query is of. */
typedef struct
{
  guint32 name;
  guint64 t0, t1;
  guint64 generation;
} Key;

typedef struct
{
  GCancellable *cancel;        /* of the running job; NULL when none runs */
  Progress     *progress;
  Key           running;
  gint64        started;       /* when it began (monotonic µs) */
  gboolean      awaiting;      /* links: answered by the pairs being found (no job of its own) */
  guint         tick_source;
  gboolean      ticked;        /* it has run a quarter second */
  gboolean      have;          /* a result, of: */
  Key           shown;
} Query;

struct _StrobeTimersCalls
{
  GObject         parent_instance;
  Query           q[3];
  StrobeCallPairs *pairs;      /* of q[PAIRS].shown */
  gboolean        refused;     /* the pairs of this range were too many: */
  Key             refused_range;
  StrobeTimelineModel *model;  /* the last asked about */
  GArray         *callers;
  GArray         *callees;
  guint32         callers_of;
  StrobeCostTree *tree;
  gboolean        stopped;
};

G_DEFINE_FINAL_TYPE (StrobeTimersCalls, strobe_timers_calls, G_TYPE_OBJECT)

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  guint                 kind;          /* a StrobeTimersCallsKind, or PAIRS */
  StrobeTimelineModel  *model;
  Key                   key;
  Progress             *progress;
  GCancellable         *cancel;
} Job;

typedef struct
{
  GArray *callers;
  GArray *callees;
} Links;

static void
job_free (gpointer data)
{
  Job *j = data;

  g_object_unref (j->model);
  g_atomic_rc_box_release (j->progress);
  g_object_unref (j->cancel);
  g_free (j);
}

static void
links_free (gpointer data)
{
  Links *l = data;

  g_array_unref (l->callers);
  g_array_unref (l->callees);
  g_free (l);
}

static void
job_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *j = data;
  GError *error = NULL;
  guint64 steps = strobe_timer_stats_estimate_steps (j->model, j->key.t0, j->key.t1);

  g_atomic_int_set (&j->progress->total, (gint) MIN (steps, G_MAXINT));
  if (j->kind == PAIRS)
    {
      StrobeCallPairs *pairs = strobe_call_tree_pairs (j->model, j->key.t0, j->key.t1, STROBE_TIMER_STATS_ALL_THREADS,
                                                       &j->progress->done, cancellable, &error);
      if (pairs == NULL)
        g_task_return_error (task, error);
      else
        g_task_return_pointer (task, pairs, (GDestroyNotify) strobe_call_pairs_free);
    }
  else if (j->kind == STROBE_TIMERS_CALLS_TREE)
    {
      StrobeCostTree *tree = strobe_call_tree_compute_full (j->model, j->key.t0, j->key.t1,
                                                            STROBE_TIMER_STATS_ALL_THREADS, &j->progress->done,
                                                            cancellable, &error);
      if (tree == NULL)
        g_task_return_error (task, error);
      else
        g_task_return_pointer (task, tree, (GDestroyNotify) strobe_cost_tree_unref);
    }
  else
    {
      Links *l = g_new0 (Links, 1);

      if (strobe_call_tree_links (j->model, j->key.name, j->key.t0, j->key.t1, STROBE_TIMER_STATS_ALL_THREADS,
                                  &l->callers, &l->callees, &j->progress->done, cancellable, &error))
        g_task_return_pointer (task, l, links_free);
      else
        {
          g_free (l);
          g_task_return_error (task, error);
        }
    }
}

static void want (StrobeTimersCalls *self, guint kind, StrobeTimelineModel *model, const Key *key);

/* What runs for @q is dropped (its result will not come). */
static void
query_cancel (Query *q)
{
  if (q->cancel)
    g_cancellable_cancel (q->cancel);
  g_clear_object (&q->cancel);
  g_clear_handle_id (&q->tick_source, g_source_remove);
}

static gboolean
same_range (const Key *a, const Key *b)
{
  return a->t0 == b->t0 && a->t1 == b->t1 && a->generation == b->generation;
}

/* The links of @key->name from the pairs found: shown at once. */
static void
links_from_pairs (StrobeTimersCalls *self, const Key *key)
{
  Query *q = &self->q[STROBE_TIMERS_CALLS_LINKS];

  g_clear_pointer (&self->callers, g_array_unref);
  g_clear_pointer (&self->callees, g_array_unref);
  strobe_call_pairs_get_links (self->pairs, key->name, &self->callers, &self->callees);
  self->callers_of = key->name;
  q->have = TRUE;
  q->shown = *key;
  q->awaiting = FALSE;
}

static void
job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  StrobeTimersCalls *self = STROBE_TIMERS_CALLS (source);
  Job *j = g_task_get_task_data (G_TASK (result));
  Query *q = &self->q[j->kind];
  g_autoptr(GError) error = NULL;
  gpointer out = g_task_propagate_pointer (G_TASK (result), &error);

  if (out == NULL)
    {
      /* Cancelled: another request (or the end) replaced it. Or too many pairs: each
       * timer's own walk then, as before, and no other try in this range. */
      if (j->kind == PAIRS && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          Query *l = &self->q[STROBE_TIMERS_CALLS_LINKS];

          query_cancel (q);
          self->refused = TRUE;
          self->refused_range = j->key;
          if (l->awaiting)
            {
              l->awaiting = FALSE;
              want (self, STROBE_TIMERS_CALLS_LINKS, j->model, &l->running);
            }
        }
      return;
    }
  g_clear_object (&q->cancel);
  g_clear_handle_id (&q->tick_source, g_source_remove);
  q->have = TRUE;
  q->shown = j->key;
  if (j->kind == PAIRS)
    {
      Query *l = &self->q[STROBE_TIMERS_CALLS_LINKS];

      g_clear_pointer (&self->pairs, strobe_call_pairs_free);
      self->pairs = out;
      if (l->awaiting)
        {
          links_from_pairs (self, &l->running);
          if (!self->stopped)
            g_signal_emit (self, signals[CHANGED], 0, (gint) STROBE_TIMERS_CALLS_LINKS);
        }
      return;
    }
  if (j->kind == STROBE_TIMERS_CALLS_TREE)
    {
      g_clear_pointer (&self->tree, strobe_cost_tree_unref);
      self->tree = out;
    }
  else
    {
      Links *l = out;

      g_clear_pointer (&self->callers, g_array_unref);
      g_clear_pointer (&self->callees, g_array_unref);
      self->callers = g_steal_pointer (&l->callers);
      self->callees = g_steal_pointer (&l->callees);
      self->callers_of = j->key.name;
      g_free (l);
      if (g_get_monotonic_time () - q->started >= pairs_after && strobe_timeline_model_is_complete (j->model)
          && !(self->refused && same_range (&self->refused_range, &j->key)))
        {
          Key range = { 0, j->key.t0, j->key.t1, j->key.generation };
          want (self, PAIRS, j->model, &range);
        }
    }
  if (!self->stopped)
    g_signal_emit (self, signals[CHANGED], 0, (gint) j->kind);
}

typedef struct
{
  StrobeTimersCalls *self;
  guint              kind;
} Tick;

static gboolean
tick_cb (gpointer data)
{
  Tick *t = data;
  Query *q = &t->self->q[t->kind];

  q->ticked = TRUE;
  /* Every timer's links are the chosen one's progress only while it waits for them. */
  if (t->kind != PAIRS)
    g_signal_emit (t->self, signals[CHANGED], 0, (gint) t->kind);
  else if (t->self->q[STROBE_TIMERS_CALLS_LINKS].awaiting)
    g_signal_emit (t->self, signals[CHANGED], 0, (gint) STROBE_TIMERS_CALLS_LINKS);
  return G_SOURCE_CONTINUE;
}

static gboolean
same_key (const Key *a, const Key *b)
{
  return a->name == b->name && same_range (a, b);
}

static void
want (StrobeTimersCalls *self, guint kind, StrobeTimelineModel *model, const Key *key)
{
  Query *q = &self->q[kind];
  g_autoptr(GTask) task = NULL;
  Tick *t;
  Job *j;

  if (self->stopped || (q->cancel != NULL && same_key (&q->running, key)))
    return;
  query_cancel (q);
  /* Back to what is shown (a timer chosen again while another's were being found). */
  if (q->have && same_key (&q->shown, key))
    return;
  g_clear_pointer (&q->progress, g_atomic_rc_box_release);
  q->cancel = g_cancellable_new ();
  q->progress = g_atomic_rc_box_new0 (Progress);
  q->running = *key;
  q->started = g_get_monotonic_time ();
  q->ticked = FALSE;
  j = g_new0 (Job, 1);
  j->kind = kind;
  j->model = g_object_ref (model);
  j->key = *key;
  j->progress = g_atomic_rc_box_acquire (q->progress);
  j->cancel = g_object_ref (q->cancel);
  task = g_task_new (self, q->cancel, job_done, NULL);
  g_task_set_task_data (task, j, job_free);
  strobe_background_run (task, job_thread);
  t = g_new (Tick, 1);
  t->self = self;
  t->kind = kind;
  q->tick_source = g_timeout_add_full (G_PRIORITY_DEFAULT, PROGRESS_EVERY_MS, tick_cb, t, g_free);
}

void
strobe_timers_calls_want_links (StrobeTimersCalls *self, StrobeTimelineModel *model, guint32 name_id, guint64 t0,
                                guint64 t1, guint64 generation)
{
  Key key = { name_id, t0, t1, generation };
  Query *q = &self->q[STROBE_TIMERS_CALLS_LINKS], *p = &self->q[PAIRS];

  g_return_if_fail (STROBE_IS_TIMERS_CALLS (self));
  g_return_if_fail (STROBE_IS_TIMELINE_MODEL (model));

  if (self->stopped)
    return;
  if (self->model != model)
    {
      /* Another trace: what was found is of the last one. */
      query_cancel (p);
      g_clear_pointer (&self->pairs, strobe_call_pairs_free);
      p->have = FALSE;
      self->refused = FALSE;
      g_set_object (&self->model, model);
    }
  if (p->cancel && !same_range (&p->running, &key))
    query_cancel (p);  /* the range moved on */
  if ((self->pairs && p->have && same_range (&p->shown, &key)) || p->cancel)
    {
      /* Every timer's links of the range are found, or being found: no walk of its own. */
      query_cancel (q);
      if (p->cancel == NULL)
        links_from_pairs (self, &key);
      else
        {
          q->awaiting = TRUE;
          q->running = key;
        }
      return;
    }
  q->awaiting = FALSE;
  want (self, STROBE_TIMERS_CALLS_LINKS, model, &key);
}

void
strobe_timers_calls_want_tree (StrobeTimersCalls *self, StrobeTimelineModel *model, guint64 t0, guint64 t1,
                               guint64 generation)
{
  Key key = { 0, t0, t1, generation };

  g_return_if_fail (STROBE_IS_TIMERS_CALLS (self));
  g_return_if_fail (STROBE_IS_TIMELINE_MODEL (model));

  want (self, STROBE_TIMERS_CALLS_TREE, model, &key);
}

gboolean
strobe_timers_calls_is_waited (StrobeTimersCalls *self, StrobeTimersCallsKind kind, guint32 name_id, guint64 t0,
                               guint64 t1)
{
  Query *q;

  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), FALSE);
  g_return_val_if_fail (kind <= STROBE_TIMERS_CALLS_TREE, FALSE);

  q = &self->q[kind];
  if (kind == STROBE_TIMERS_CALLS_TREE)
    name_id = 0;
  return (q->cancel != NULL || q->awaiting) && (!q->have || q->shown.name != name_id || q->shown.t0 != t0 || q->shown.t1 != t1);
}

gboolean
strobe_timers_calls_is_busy (StrobeTimersCalls *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), FALSE);
  return self->q[0].cancel != NULL || self->q[1].cancel != NULL || self->q[PAIRS].cancel != NULL;
}

gint
strobe_timers_calls_get_percent (StrobeTimersCalls *self, StrobeTimersCallsKind kind)
{
  Query *q;
  gint done, total;

  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), -1);
  g_return_val_if_fail (kind <= STROBE_TIMERS_CALLS_TREE, -1);

  q = &self->q[kind];
  if (q->awaiting)
    q = &self->q[PAIRS];
  if (q->cancel == NULL || !q->ticked)
    return -1;
  done = g_atomic_int_get (&q->progress->done);
  total = g_atomic_int_get (&q->progress->total);
  return total > 0 ? (gint) MIN ((gint64) done * 100 / total, 99) : -1;
}

GArray *
strobe_timers_calls_get_callers (StrobeTimersCalls *self, guint32 *name_id)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), NULL);

  if (name_id)
    *name_id = self->callers ? self->callers_of : G_MAXUINT32;
  return self->callers;
}

GArray *
strobe_timers_calls_get_callees (StrobeTimersCalls *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), NULL);
  return self->callees;
}

StrobeCostTree *
strobe_timers_calls_get_tree (StrobeTimersCalls *self)
{
  g_return_val_if_fail (STROBE_IS_TIMERS_CALLS (self), NULL);
  return self->tree;
}

void
strobe_timers_calls_stop (StrobeTimersCalls *self)
{
  g_return_if_fail (STROBE_IS_TIMERS_CALLS (self));

  self->stopped = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (self->q); k++)
    {
      if (self->q[k].cancel)
        g_cancellable_cancel (self->q[k].cancel);
      g_clear_handle_id (&self->q[k].tick_source, g_source_remove);
    }
}

static void
strobe_timers_calls_finalize (GObject *object)
{
  StrobeTimersCalls *self = STROBE_TIMERS_CALLS (object);

  for (guint k = 0; k < G_N_ELEMENTS (self->q); k++)
    {
      g_clear_handle_id (&self->q[k].tick_source, g_source_remove);
      g_clear_object (&self->q[k].cancel);
      g_clear_pointer (&self->q[k].progress, g_atomic_rc_box_release);
    }
  g_clear_pointer (&self->callers, g_array_unref);
  g_clear_pointer (&self->callees, g_array_unref);
  g_clear_pointer (&self->tree, strobe_cost_tree_unref);
  g_clear_pointer (&self->pairs, strobe_call_pairs_free);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (strobe_timers_calls_parent_class)->finalize (object);
}

static void
strobe_timers_calls_class_init (StrobeTimersCallsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_timers_calls_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
strobe_timers_calls_init (StrobeTimersCalls *self)
{
  (void) self;
}

StrobeTimersCalls *
strobe_timers_calls_new (void)
{
  return g_object_new (STROBE_TYPE_TIMERS_CALLS, NULL);
}
