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

struct _StrobeTimerStream
{
  GObject     parent_instance;

  guint64     t0, t1;
  gint        thread_id;
  gboolean    timing;         /* FALSE: the nesting only, no stack of open scopes kept */

  GPtrArray  *names;          /* char * */
  GHashTable *name_ids;       /* char * (owned by names) → id + 1 */
  GArray     *spec_names;     /* guint32 name id + 1 by spec id, for small ids */
  GHashTable *spec_sparse;    /* spec id → name id + 1, for the rest */
  GArray     *accs;           /* StrobeTimerAcc by name id */

  Thread    **by_id;          /* 65536 */
  GPtrArray  *threads;        /* Thread *, owned */
  StrobeScopeBudget nesting;

  gboolean    have_time;
  guint64     last_time;
  GArray     *result;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeTimerStream, strobe_timer_stream, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static guint32
intern_name (StrobeTimerStream *self, const char *name)
{
  guint32 id = strobe_scope_name_intern (self->names, self->name_ids, name);

  if (self->accs->len < self->names->len)
    g_array_set_size (self->accs, self->names->len);
  return id;
}

static void
spec_set (StrobeTimerStream *self, guint32 id, guint32 name_id)
{
  if (id < self->spec_names->len || id < 4 * (guint64) g_hash_table_size (self->spec_sparse) + 4096)
    {
      if (id >= self->spec_names->len)
        g_array_set_size (self->spec_names, id + 1);
      g_array_index (self->spec_names, guint32, id) = name_id + 1;
    }
  else
    g_hash_table_insert (self->spec_sparse, GUINT_TO_POINTER (id), GUINT_TO_POINTER (name_id + 1));
}

static guint32
spec_get (StrobeTimerStream *self, guint32 id)
{
  guint32 v = 0;

  if (id < self->spec_names->len)
    v = g_array_index (self->spec_names, guint32, id);
  if (v == 0)
    v = GPOINTER_TO_UINT (g_hash_table_lookup (self->spec_sparse, GUINT_TO_POINTER (id)));
  if (v == 0)
    {
      g_autofree char *name = g_strdup_printf ("(unknown %u)", id);
      guint32 name_id = intern_name (self, name);

      spec_set (self, id, name_id);
      return name_id;
    }
  return v - 1;
}

static Thread *
get_thread (StrobeTimerStream *self, guint16 id)
{
  Thread *th = self->by_id[id];

  if (G_UNLIKELY (th == NULL))
    {
      th = g_new0 (Thread, 1);
      th->id = id;
      self->by_id[id] = th;
      g_ptr_array_add (self->threads, th);
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
account (StrobeTimerStream *self, Thread *th, guint64 end)
{
  Open *o = &th->stack[th->nest.depth];
  guint64 incl = clip (o->begin, end, self->t0, self->t1);

  if (th->nest.depth)
    th->stack[th->nest.depth - 1].children += incl;
  /* As the range statistics: overlapping the range, not only touching it. */
  if (end >= self->t0 && o->begin <= self->t1 && !(incl == 0 && end > o->begin)
      && (self->thread_id < 0 || self->thread_id == th->id))
    strobe_timer_acc_add (&g_array_index (self->accs, StrobeTimerAcc, o->name), incl, o->children);
}

typedef struct
{
  StrobeTimerStream *self;
  Thread            *th;
} BatchWalk;

static inline void
batch_end (gpointer data, guint64 ts)
{
  BatchWalk *w = data;

  if (strobe_scope_nesting_end (&w->th->nest, &w->self->nesting) && w->self->timing)
    account (w->self, w->th, ts);
}

static inline void
batch_begin (gpointer data, guint64 ts, guint64 id)
{
  BatchWalk *w = data;
  Thread *th = w->th;
  Open *o;

  if (!strobe_scope_nesting_begin (&th->nest, &w->self->nesting) || !w->self->timing)
    return;
  if (G_UNLIKELY (th->nest.depth > th->cap))
    {
      th->cap = th->cap ? th->cap * 2 : 32;
      th->stack = g_renew (Open, th->stack, th->cap);
    }
  o = &th->stack[th->nest.depth - 1];
  o->begin = ts;
  o->children = 0;
  o->name = spec_get (w->self, (guint32) MIN (id, G_MAXUINT32));
}

static void
on_batch (StrobeTimerStream *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor base_f = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift_f = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data_f = STROBE_FIELD_ACCESSOR_INIT ("Data");
  gsize n = 0;
  guint8 elem = 0;
  const guint8 *p = strobe_event_get_array (ev, &data_f, &elem, &n);
  BatchWalk w = { self, NULL };
  guint64 first = 0, last = 0;
  gboolean any;

  if (p == NULL || n == 0)
    return;
  w.th = get_thread (self, ev->thread_id);
  any = strobe_cpu_batch_walk (strobe_event_get_uint (ev, &base_f), (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63),
                               p, n, batch_begin, batch_end, &w, &first, &last);
  strobe_cpu_batch_note_extent (ev, any, first, last);
  if (any)
    {
      self->last_time = self->have_time ? MAX (self->last_time, last) : last;
      self->have_time = TRUE;
    }
}

static void
strobe_timer_stream_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (analyzer);
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");

  switch (route)
    {
    case ROUTE_CPU_BATCH:
      on_batch (self, ev);
      break;

    case ROUTE_CPU_SPEC:
      {
        g_autofree char *name = strobe_event_get_string (ev, &name_f);

        spec_set (self, (guint32) strobe_event_get_uint (ev, &id_f), intern_name (self, name ? name : ""));
      }
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
  static const char *const timed[][2] = {
    { "Misc", "BeginFrame" }, { "Misc", "EndFrame" }, { "Misc", "Bookmark" },
    { "Misc", "RegionBegin" }, { "Misc", "RegionEnd" }, { "Counters", "SetInt" }, { "Counters", "SetFloat" },
  };

  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_SPEC, "Cpu", "EventSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_BATCH, "Cpu", "EventBatch");
  for (guint i = 0; i < G_N_ELEMENTS (timed); i++)
    strobe_analysis_context_subscribe (ctx, ROUTE_TIME, timed[i][0], timed[i][1]);
}

static const char *
stream_name (gpointer data, guint32 name_id)
{
  return g_ptr_array_index (((StrobeTimerStream *) data)->names, name_id);
}

/* Scopes still open are closed at the trace's last time, as the model closes them. */
static void
strobe_timer_stream_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (analyzer);

  if (self->result)
    return;
  for (guint i = 0; i < self->threads->len && self->timing; i++)
    {
      Thread *th = self->threads->pdata[i];

      while (th->nest.depth)
        {
          th->nest.depth--;
          account (self, th, MAX (self->last_time, th->stack[th->nest.depth].begin));
        }
    }
  self->result = strobe_timer_accs_finish ((StrobeTimerAcc *) (gpointer) self->accs->data, self->accs->len,
                                           stream_name, self);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_timer_stream_begin;
  iface->on_event = strobe_timer_stream_on_event;
  iface->end = strobe_timer_stream_end;
}

static void
thread_free (gpointer data)
{
  Thread *th = data;

  g_free (th->stack);
  g_free (th);
}

static void
strobe_timer_stream_finalize (GObject *object)
{
  StrobeTimerStream *self = STROBE_TIMER_STREAM (object);

  for (guint i = 0; i < self->accs->len; i++)
    strobe_duration_sketch_clear (&g_array_index (self->accs, StrobeTimerAcc, i).durations);
  g_array_unref (self->accs);
  g_hash_table_unref (self->name_ids);
  g_ptr_array_unref (self->names);
  g_array_unref (self->spec_names);
  g_hash_table_unref (self->spec_sparse);
  g_ptr_array_unref (self->threads);
  g_free (self->by_id);
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
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->spec_names = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->spec_sparse = g_hash_table_new (NULL, NULL);
  self->accs = g_array_new (FALSE, TRUE, sizeof (StrobeTimerAcc));
  self->by_id = g_new0 (Thread *, 65536);
  self->threads = g_ptr_array_new_with_free_func (thread_free);
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
    *depth_overflows = self->nesting.depth_overflows;
  if (budget_overflows)
    *budget_overflows = self->nesting.budget_overflows;
}
