/* strobe-timer-stream.c — see the header. A scope is accounted when it ends: its
 * inclusive time goes to its name, and to its parent's children total, from which the
 * parent's exclusive time comes when the parent ends. Batches are walked and scopes kept
 * or refused by the timeline model's own code (strobe_cpu_batch_walk and
 * strobe_scope_nesting_*), so both keep the same scopes; tests/cpu/test-timer-stream.c
 * holds their answers to it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timer-stream.h"

#include "strobe-cpu-batch.h"
#include "strobe-spec-map.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats-private.h"

enum
{
  ROUTE_CPU_SPEC,
  ROUTE_CPU_BATCH,
  ROUTE_TIME,          /* any event with a Cycle: the trace's last time, as the model notes it */
};

typedef struct
{
  guint64 begin;
  guint64 children;    /* clipped inclusive time of the direct children ended so far */
  guint32 name;
} Open;

typedef struct
{
  guint16  id;
  Open    *stack;             /* nest.depth of them */
  guint    cap;
  StrobeScopeNesting nest;
} Thread;

/* What the walk accumulates: the whole stream's, or one lane's (its threads only). */
typedef struct
{
  StrobeTimerStream *self;
  GArray     *accs;           /* StrobeTimerAcc by name id */
  StrobeSpecMap spec_names;   /* spec id → name id */
  Thread    **by_id;          /* 65536 */
  GPtrArray  *threads;        /* Thread *, owned */
  StrobeScopeBudget nesting;
  gboolean    have_time;
  guint64     last_time;      /* of the batches walked */
} Part;

/* A lane: a worker thread walking the batches of the trace threads given to it, in their
 * order, fed blocks of copied batches and spec bindings by the decoder's thread. */
typedef struct
{
  Part        part;
  GThread    *thread;
  GAsyncQueue *full;          /* LaneBlock * to walk, in order */
  GAsyncQueue *free;          /* LaneBlock * walked, to fill again */
  struct LaneBlock *cur;      /* being filled by the decoder's thread */
  guint       blocks;         /* made so far (at most LANE_BLOCKS in flight) */
  guint64     bytes;          /* batch bytes given so far: new trace threads go to the lightest */
} Lane;

typedef struct LaneBlock
{
  gsize    used, cap;
  gboolean last;
  guint8  *data;
} LaneBlock;

/* A record in a block: a batch (its bytes follow, padded to 8) or a spec binding. */
typedef struct
{
  guint64 value;              /* the batch's Base; a spec's id << 32 | name id */
  guint64 n;                  /* the batch's bytes */
  guint16 thread;
  guint8  kind;               /* MSG_BATCH, MSG_SPEC */
  guint8  shift;
} LaneMsg;

enum { MSG_BATCH, MSG_SPEC };

#define LANE_BLOCK   (256u * 1024u)
#define LANE_BLOCKS  8          /* per lane: 2 MiB copied ahead of a lane at most */
#define MAX_LANES    4

struct _StrobeTimerStream
{
  GObject     parent_instance;

  guint64     t0, t1;
  gint        thread_id;
  gboolean    timing;         /* FALSE: the nesting only, no stack of open scopes kept */

  GMutex      names_lock;     /* names and name_ids: lanes intern "(unknown N)" */
  GPtrArray  *names;          /* char * */
  GHashTable *name_ids;       /* char * (owned by names) → id + 1 */
  Part        part;           /* without lanes: everything */

  guint       n_lanes;        /* 0: walked in the decoder's callback */
  Lane        lanes[MAX_LANES];
  guint8     *lane_of;        /* 65536: lane + 1 of each trace thread, 0 before its first batch */
  gboolean    lanes_running;
  gboolean    contested;      /* a limit reached where the order across threads decides */
  StrobeCpuExtentSink *extent;  /* the lanes' batches' times, for the info analyzer */

  gboolean    have_time;
  guint64     last_time;      /* of the timed events besides the batches */
  GArray     *result;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeTimerStream, strobe_timer_stream, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static void
thread_free (gpointer data)
{
  Thread *th = data;

  g_free (th->stack);
  g_free (th);
}

static void
part_init (Part *part, StrobeTimerStream *self)
{
  part->self = self;
  part->accs = g_array_new (FALSE, TRUE, sizeof (StrobeTimerAcc));
  strobe_spec_map_init (&part->spec_names);
  part->by_id = g_new0 (Thread *, 65536);
  part->threads = g_ptr_array_new_with_free_func (thread_free);
}

static void
part_clear (Part *part)
{
  if (part->accs == NULL)
    return;
  for (guint i = 0; i < part->accs->len; i++)
    strobe_duration_sketch_clear (&g_array_index (part->accs, StrobeTimerAcc, i).durations);
  g_array_unref (part->accs);
  strobe_spec_map_clear (&part->spec_names);
  g_ptr_array_unref (part->threads);
  g_free (part->by_id);
  *part = (Part) { 0 };
}

static guint32
intern_name (StrobeTimerStream *self, const char *name)
{
  guint32 id;

  g_mutex_lock (&self->names_lock);
  id = strobe_scope_name_intern (self->names, self->name_ids, name);
  g_mutex_unlock (&self->names_lock);
  return id;
}

static void
spec_set (Part *part, guint32 id, guint32 name_id)
{
  if (part->accs->len <= name_id)
    g_array_set_size (part->accs, name_id + 1);
  strobe_spec_map_set (&part->spec_names, id, name_id);
}

static guint32
spec_get (Part *part, guint64 id)
{
  guint32 v = strobe_spec_map_lookup (&part->spec_names, id);

  if (v == 0)
    {
      g_autofree char *name = g_strdup_printf ("(unknown %u)", (guint32) MIN (id, G_MAXUINT32));
      guint32 name_id = intern_name (part->self, name);

      spec_set (part, (guint32) MIN (id, G_MAXUINT32), name_id);
      return name_id;
    }
  return v - 1;
}

static Thread *
get_thread (Part *part, guint16 id)
{
  Thread *th = part->by_id[id];

  if (G_UNLIKELY (th == NULL))
    {
      th = g_new0 (Thread, 1);
      th->id = id;
      part->by_id[id] = th;
      g_ptr_array_add (part->threads, th);
    }
  return th;
}

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

/* The scope on top of @th's stack (at nest.depth, already popped) ended at @end. */
static inline void
account (Part *part, Thread *th, guint64 end)
{
  StrobeTimerStream *self = part->self;
  Open *o = &th->stack[th->nest.depth];
  guint64 incl = clip (o->begin, end, self->t0, self->t1);

  if (th->nest.depth)
    th->stack[th->nest.depth - 1].children += incl;
  /* As the range statistics: overlapping the range, not only touching it. */
  if (end >= self->t0 && o->begin <= self->t1 && !(incl == 0 && end > o->begin)
      && (self->thread_id < 0 || self->thread_id == th->id))
    strobe_timer_acc_add (&g_array_index (part->accs, StrobeTimerAcc, o->name), incl, o->children);
}

typedef struct
{
  Part   *part;
  Thread *th;
} BatchWalk;

static inline void
batch_end (gpointer data, guint64 ts)
{
  BatchWalk *w = data;

  if (strobe_scope_nesting_end (&w->th->nest, &w->part->nesting) && w->part->self->timing)
    account (w->part, w->th, ts);
}

static inline void
batch_begin (gpointer data, guint64 ts, guint64 id)
{
  BatchWalk *w = data;
  Thread *th = w->th;
  Open *o;

  if (!strobe_scope_nesting_begin (&th->nest, &w->part->nesting) || !w->part->self->timing)
    return;
  if (G_UNLIKELY (th->nest.depth > th->cap))
    {
      th->cap = th->cap ? th->cap * 2 : 32;
      th->stack = g_renew (Open, th->stack, th->cap);
    }
  o = &th->stack[th->nest.depth - 1];
  o->begin = ts;
  o->children = 0;
  o->name = spec_get (w->part, id);
}

/* One batch of @thread's records: the walk the timeline model makes. */
static gboolean
part_walk (Part *part, guint16 thread, guint64 base, guint shift, const guint8 *p, gsize n,
           guint64 *first, guint64 *last)
{
  BatchWalk w = { part, get_thread (part, thread) };
  gboolean any = strobe_cpu_batch_walk (base, shift, p, n, batch_begin, batch_end, &w, first, last);

  if (any)
    {
      part->last_time = part->have_time ? MAX (part->last_time, *last) : *last;
      part->have_time = TRUE;
    }
  return any;
}

/* ---- lanes ------------------------------------------------------------------------ */

/* A block's records in order; the times of its batches to the extent sink at the end. */
static void
lane_walk_block (Lane *lane, const LaneBlock *b)
{
  guint64 lo = G_MAXUINT64, hi = 0;
  gsize at = 0;

  while (at < b->used)
    {
      LaneMsg m;
      guint64 first = 0, last = 0;

      memcpy (&m, b->data + at, sizeof m);
      at += sizeof m;
      if (m.kind == MSG_SPEC)
        spec_set (&lane->part, (guint32) (m.value >> 32), (guint32) m.value);
      else if (part_walk (&lane->part, m.thread, m.value, m.shift, b->data + at, m.n, &first, &last))
        {
          /* As the info analyzer notes times: 0 is not one. */
          if (first)
            lo = MIN (lo, first), hi = MAX (hi, first);
          if (last)
            lo = MIN (lo, last), hi = MAX (hi, last);
        }
      at += (m.n + 7u) & ~(gsize) 7u;
    }
  if (hi != 0)
    strobe_cpu_extent_sink_add (lane->part.self->extent, lo, hi);
}

static gpointer
lane_main (gpointer data)
{
  Lane *lane = data;

  for (;;)
    {
      LaneBlock *b = g_async_queue_pop (lane->full);
      gboolean last = b->last;

      lane_walk_block (lane, b);
      b->used = 0;
      g_async_queue_push (lane->free, b);
      if (last)
        return NULL;
    }
}

static void
block_free (gpointer data)
{
  LaneBlock *b = data;

  g_free (b->data);
  g_free (b);
}

/* Room for @need bytes in @lane's block: a full block goes to its worker, and the next
 * comes back from it (or is new, up to LANE_BLOCKS: the decoder never runs more than
 * that ahead of a lane, so memory does not grow with the trace). */
static guint8 *
lane_reserve (Lane *lane, gsize need)
{
  LaneBlock *b = lane->cur;

  if (b != NULL && b->used + need > b->cap)
    {
      g_async_queue_push (lane->full, b);
      lane->cur = b = NULL;
    }
  if (b == NULL)
    {
      b = g_async_queue_try_pop (lane->free);
      if (b == NULL && lane->blocks < LANE_BLOCKS)
        {
          b = g_new0 (LaneBlock, 1);
          lane->blocks++;
        }
      else if (b == NULL)
        b = g_async_queue_pop (lane->free);
      if (b->cap < need || b->cap == 0)
        {
          b->cap = MAX (need, LANE_BLOCK);
          b->data = g_realloc (b->data, b->cap);
        }
      lane->cur = b;
    }
  b->used += need;
  return b->data + b->used - need;
}

static void
lane_put (Lane *lane, const LaneMsg *m, const guint8 *p)
{
  gsize padded = (m->n + 7u) & ~(gsize) 7u;
  guint8 *at = lane_reserve (lane, sizeof *m + padded);

  memcpy (at, m, sizeof *m);
  if (m->n)
    memcpy (at + sizeof *m, p, m->n);
}

static void
lanes_start (StrobeTimerStream *self)
{
  self->lane_of = g_new0 (guint8, 65536);
  self->extent = strobe_cpu_extent_sink_new ();
  for (guint i = 0; i < self->n_lanes; i++)
    {
      Lane *lane = &self->lanes[i];

      part_init (&lane->part, self);
      lane->full = g_async_queue_new ();
      lane->free = g_async_queue_new_full (block_free);
      lane->thread = g_thread_new ("strobe-timers", lane_main, lane);
    }
  self->lanes_running = TRUE;
}

/* Every lane walks what it was given, and its worker ends. */
static void
lanes_join (StrobeTimerStream *self)
{
  if (!self->lanes_running)
    return;
  for (guint i = 0; i < self->n_lanes; i++)
    {
      Lane *lane = &self->lanes[i];

      lane_reserve (lane, 0);
      lane->cur->last = TRUE;
      g_async_queue_push (lane->full, lane->cur);
      lane->cur = NULL;
    }
  for (guint i = 0; i < self->n_lanes; i++)
    {
      Lane *lane = &self->lanes[i];

      g_thread_join (lane->thread);
      lane->thread = NULL;
      g_clear_pointer (&lane->full, g_async_queue_unref);
      g_clear_pointer (&lane->free, g_async_queue_unref);
    }
  self->lanes_running = FALSE;
}

/* A trace thread stays on the lane of its first batch (its open scopes are there); a new
 * one goes to the lane given the fewest bytes so far. */
static Lane *
lane_for (StrobeTimerStream *self, guint16 thread)
{
  guint k = self->lane_of[thread];

  if (G_UNLIKELY (k == 0))
    {
      for (guint i = 0; i < self->n_lanes; i++)
        if (k == 0 || self->lanes[i].bytes < self->lanes[k - 1].bytes)
          k = i + 1;
      self->lane_of[thread] = (guint8) k;
    }
  return &self->lanes[k - 1];
}

/* ---- the analyzer ------------------------------------------------------------------- */

static void
on_batch (StrobeTimerStream *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor base_f = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift_f = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data_f = STROBE_FIELD_ACCESSOR_INIT ("Data");
  gsize n = 0;
  guint8 elem = 0;
  const guint8 *p = strobe_event_get_array (ev, &data_f, &elem, &n);
  guint64 base, first = 0, last = 0;
  guint shift;
  gboolean any;

  if (p == NULL || n == 0)
    return;
  base = strobe_event_get_uint (ev, &base_f);
  shift = (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63);
  if (self->lanes_running)
    {
      /* Walked on the lane's thread, which leaves the batch's extent in the sink. */
      Lane *lane = lane_for (self, ev->thread_id);
      LaneMsg m = { base, n, ev->thread_id, MSG_BATCH, (guint8) shift };

      lane->bytes += n;
      lane_put (lane, &m, p);
      strobe_cpu_batch_defer_extent (ev, self->extent);
      return;
    }
  any = part_walk (&self->part, ev->thread_id, base, shift, p, n, &first, &last);
  strobe_cpu_batch_note_extent (ev, any, first, last);
}

static void
on_spec (StrobeTimerStream *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  g_autofree char *name = strobe_event_get_string (ev, &name_f);
  guint32 id = (guint32) strobe_event_get_uint (ev, &id_f);
  guint32 name_id = intern_name (self, name ? name : "");

  if (!self->lanes_running)
    {
      spec_set (&self->part, id, name_id);
      return;
    }
  /* Every lane learns the binding at this point of the stream, as the walk would. */
  for (guint i = 0; i < self->n_lanes; i++)
    {
      LaneMsg m = { (guint64) id << 32 | name_id, 0, 0, MSG_SPEC, 0 };

      lane_put (&self->lanes[i], &m, NULL);
    }
}

static void
strobe_timer_stream_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeTimerStream *self = (StrobeTimerStream *) analyzer;
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");

  switch (route)
    {
    case ROUTE_CPU_BATCH:
      on_batch (self, ev);
      break;

    case ROUTE_CPU_SPEC:
      on_spec (self, ev);
      break;

    case ROUTE_TIME:
      {
        guint64 t = strobe_event_get_uint (ev, &cycle_f);

        self->last_time = self->have_time ? MAX (self->last_time, t) : t;
        self->have_time = TRUE;
      }
      break;

    default:
      break;
    }
}

static void
strobe_timer_stream_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (analyzer);
  static const char *const timed[][2] = {
    { "Misc", "BeginFrame" }, { "Misc", "EndFrame" }, { "Misc", "Bookmark" },
    { "Misc", "RegionBegin" }, { "Misc", "RegionEnd" }, { "Counters", "SetInt" }, { "Counters", "SetFloat" },
  };

  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_SPEC, "Cpu", "EventSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_BATCH, "Cpu", "EventBatch");
  for (guint i = 0; i < G_N_ELEMENTS (timed); i++)
    strobe_analysis_context_subscribe (ctx, ROUTE_TIME, timed[i][0], timed[i][1]);
  if (self->n_lanes > 0 && self->lane_of == NULL && self->result == NULL)
    lanes_start (self);
}

static const char *
stream_name (gpointer data, guint32 name_id)
{
  return g_ptr_array_index (((StrobeTimerStream *) data)->names, name_id);
}

/* Scopes still open are closed at the trace's last time, as the model closes them. */
static void
part_close (Part *part, guint64 last_time)
{
  for (guint i = 0; i < part->threads->len && part->self->timing; i++)
    {
      Thread *th = part->threads->pdata[i];

      while (th->nest.depth)
        {
          th->nest.depth--;
          account (part, th, MAX (last_time, th->stack[th->nest.depth].begin));
        }
    }
}

/* The lanes' parts into the stream's own. Where a limit shared by every thread was
 * reached (the nesting budget, the name ids) the answer depends on which thread came
 * first, which lanes do not keep: the stream is then contested (the caller reads again
 * without lanes). Below the limits the lanes' answer is the single walk's: each thread's
 * scopes are walked in their order, and the sums, extremes and sketches do not depend on
 * the order of threads (the sketch's buckets are fixed; while exact it holds the values). */
static void
lanes_merge (StrobeTimerStream *self)
{
  StrobeScopeBudget *b = &self->part.nesting;
  guint64 levels = 0;

  for (guint i = 0; i < self->n_lanes; i++)
    {
      Part *lp = &self->lanes[i].part;

      if (self->part.accs->len < lp->accs->len)
        g_array_set_size (self->part.accs, lp->accs->len);
      strobe_timer_accs_merge ((StrobeTimerAcc *) (gpointer) self->part.accs->data,
                               (StrobeTimerAcc *) (gpointer) lp->accs->data, lp->accs->len);
      levels += lp->nesting.levels;
      b->depth_overflows += lp->nesting.depth_overflows;
      b->budget_overflows += lp->nesting.budget_overflows;
      b->unmatched_ends += lp->nesting.unmatched_ends;
      if (lp->nesting.budget_overflows)
        self->contested = TRUE;
      part_clear (lp);
    }
  b->levels = levels;
  if (levels > STROBE_TIMELINE_MAX_LEVELS || self->names->len > STROBE_SCOPE_NAME_MASK)
    self->contested = TRUE;
}

static void
strobe_timer_stream_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (analyzer);
  guint64 last_time = self->last_time;
  gboolean have_time = self->have_time;

  if (self->result)
    return;
  lanes_join (self);
  for (guint i = 0; i <= self->n_lanes; i++)
    {
      Part *part = i < self->n_lanes ? &self->lanes[i].part : &self->part;

      if (part->accs && part->have_time)
        {
          last_time = have_time ? MAX (last_time, part->last_time) : part->last_time;
          have_time = TRUE;
        }
    }
  for (guint i = 0; i < self->n_lanes; i++)
    if (self->lanes[i].part.accs)
      part_close (&self->lanes[i].part, last_time);
  part_close (&self->part, last_time);
  if (self->lane_of != NULL)
    lanes_merge (self);
  if (self->part.accs->len < self->names->len)
    g_array_set_size (self->part.accs, self->names->len);
  self->result = strobe_timer_accs_finish ((StrobeTimerAcc *) (gpointer) self->part.accs->data,
                                           self->part.accs->len, stream_name, self);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_timer_stream_begin;
  iface->on_event = strobe_timer_stream_on_event;
  iface->end = strobe_timer_stream_end;
}

static void
strobe_timer_stream_finalize (GObject *object)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (object);

  lanes_join (self);
  for (guint i = 0; i < self->n_lanes; i++)
    part_clear (&self->lanes[i].part);
  part_clear (&self->part);
  g_free (self->lane_of);
  strobe_cpu_extent_sink_unref (self->extent);
  g_hash_table_unref (self->name_ids);
  g_ptr_array_unref (self->names);
  g_mutex_clear (&self->names_lock);
  g_clear_pointer (&self->result, g_array_unref);
  G_OBJECT_CLASS (strobe_timer_stream_parent_class)->finalize (object);
}

static void
strobe_timer_stream_class_init (StrobeTimerStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_timer_stream_finalize;
}

static void
strobe_timer_stream_init (StrobeTimerStream *self)
{
  g_mutex_init (&self->names_lock);
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  part_init (&self->part, self);
}
StrobeTimerStream *
strobe_timer_stream_new (guint64 t0, guint64 t1, gint thread_id)
{
  StrobeTimerStream *self = g_object_new (STROBE_TYPE_TIMER_STREAM, NULL);

  self->t0 = t0;
  self->t1 = t1;
  self->thread_id = thread_id;
  self->timing = TRUE;
  return self;
}

StrobeTimerStream *
strobe_timer_stream_new_nesting_only (void)
{
  StrobeTimerStream *self = g_object_new (STROBE_TYPE_TIMER_STREAM, NULL);

  self->thread_id = STROBE_TIMER_STATS_ALL_THREADS;
  return self;
}

GArray *
strobe_timer_stream_get_stats (StrobeTimerStream *self)
{
  g_return_val_if_fail (STROBE_IS_TIMER_STREAM (self), NULL);
  return self->result ? g_array_ref (self->result) : NULL;
}

void
strobe_timer_stream_get_overflows (StrobeTimerStream *self, guint64 *depth_overflows, guint64 *budget_overflows)
{
  g_return_if_fail (STROBE_IS_TIMER_STREAM (self));
  if (depth_overflows)
    *depth_overflows = self->part.nesting.depth_overflows;
  if (budget_overflows)
    *budget_overflows = self->part.nesting.budget_overflows;
}

void
strobe_timer_stream_set_lanes (StrobeTimerStream *self, guint lanes)
{
  g_return_if_fail (STROBE_IS_TIMER_STREAM (self));
  g_return_if_fail (self->lane_of == NULL);
  self->n_lanes = MIN (lanes, MAX_LANES);
}

gboolean
strobe_timer_stream_is_contested (StrobeTimerStream *self)
{
  g_return_val_if_fail (STROBE_IS_TIMER_STREAM (self), FALSE);
  return self->contested;
}
