/* strobe-timeline-model.c — builds the timeline from Cpu.*, Misc.* and Counters.* events
 * (runtime/INSTRUMENTATION.md) and answers range queries. Layout and locking:
 * core/models/README.md.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timeline-model-private.h"

#include "strobe-batch-times.h"
#include "strobe-counter-series.h"
#include "strobe-cpu-batch.h"
#include "strobe-give-way.h"
#include "strobe-memory-budget.h"
#include "strobe-region-index.h"
#include "strobe-spec-map.h"

#include <string.h>

enum
{
  ROUTE_CPU_SPEC,
  ROUTE_CPU_BATCH,
  ROUTE_BEGIN_FRAME,
  ROUTE_END_FRAME,
  ROUTE_BOOKMARK_SPEC,
  ROUTE_BOOKMARK,
  ROUTE_REGION_BEGIN,
  ROUTE_REGION_END,
  ROUTE_COUNTER_SPEC,
  ROUTE_COUNTER_INT,
  ROUTE_COUNTER_FLOAT,
  ROUTE_STATS,
};

typedef struct
{
  guint32 name_id;
  guint64 begin;
} OpenRegion;

/* A counter's samples, and where they changed. */
typedef struct
{
  StrobeCounterSeries s;
  StrobeChangeLog     changes;
} Counter;

typedef struct
{
  GArray  *frames;       /* StrobeTimelineFrame */
  gboolean open;
  StrobeChangeLog changes;
} FrameKind;

typedef struct
{
  const char *file;      /* in the model's string chunk; NULL: none */
  guint32     line;
} NameSource;

struct _StrobeTimelineModel
{
  GObject     parent_instance;

  GRWLock     lock;
  gboolean    complete;
  guint64     generation;       /* bumped by every event that changed the model */
  gboolean    have_time;
  guint64     first_time;
  guint64     last_time;

  /* names */
  GPtrArray  *names;            /* char * */
  GHashTable *name_ids;         /* char * (owned by names) -> id + 1 */
  StrobeSpecMap spec_names;     /* Cpu spec id → name */
  StrobeSpecMap bookmark_names; /* bookmark spec id → name */

  /* scopes */
  GPtrArray  *threads;          /* StrobeScopeThread *, in order of first appearance */
  GHashTable *threads_by_id;    /* thread id + 1 → StrobeScopeThread * */
  StrobeScopeThread *last_thread;
  guint64     scopes;
  StrobeScopeBudget nesting;
  StrobeMemoryBudget memory_budget; /* arena bytes past which scopes are counted, not kept */
  guint64     memory_overflows;
  gboolean    markers_only;     /* no scope kept, only the batches' extent noted */
  StrobeBatchTimes *batch_times; /* markers only: the batches' first and last time */
  StrobeScopeArena arena;       /* the tracks' full chunks; .bytes: all the scopes take */

  GPtrArray  *frame_kinds;      /* FrameKind *, by frame type (NULL when unseen) */
  GArray     *bookmarks;        /* StrobeTimelineBookmark, in time order (see unordered) */
  gboolean    bookmarks_unsorted;
  gint        unordered;        /* atomic: bookmarks or a counter wait to be sorted */
  GArray     *regions;          /* StrobeTimelineRegion, completed, in order of end */
  GHashTable *open_regions;     /* name id + 1 → GArray of OpenRegion, most recent last */
  guint64     n_open_regions;
  guint64     regions_changed;  /* counts changes of the regions, for the index */
  GMutex      region_index_lock;/* guards the two below; taken after the reader lock */
  StrobeRegionIndex *region_index; /* lanes and blocks, built by the first query after a change */
  guint64     region_index_changed; /* regions_changed when it was built */
  guint64     region_index_end;     /* the end it gave open regions, 0 when none was */
  gint64      region_index_built;   /* when it was built (monotonic µs) */
  gint64      region_index_cost;    /* and how long that took (µs) */
  GPtrArray  *counters;         /* Counter * */
  GHashTable *counters_by_id;   /* id -> Counter * */
  GArray     *drops;            /* StrobeTimelineDrop, in time order */
  gboolean    have_stats;
  guint64     stats_time;       /* the last $Trace.Stats: its time and drop total */
  guint64     stats_dropped;
  StrobeChangeLog marker_changes;
  GArray     *name_sources;     /* NameSource, by name id (shorter when none follow) */
  GStringChunk *strings;        /* source file names */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeTimelineModel, strobe_timeline_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

/* ---- tracks ------------------------------------------------------------------------ */

static StrobeScopeTrack *
track_at (StrobeTimelineModel *self, StrobeScopeThread *th, guint depth)
{
  while (G_UNLIKELY (th->tracks->len <= depth))
    g_ptr_array_add (th->tracks, strobe_scope_track_new (&self->arena));
  return th->tracks->pdata[depth];
}

/* ---- threads and names -------------------------------------------------------------- */

static void
scope_thread_free (gpointer data)
{
  StrobeScopeThread *th = data;

  g_ptr_array_unref (th->tracks);
  g_free (th->stack);
  g_free (th);
}

static StrobeScopeThread *
find_thread (StrobeTimelineModel *self, guint16 id)
{
  return g_hash_table_lookup (self->threads_by_id, GUINT_TO_POINTER ((guint) id + 1));
}

/* A hash and an array in arrival order: a trace may use all 65536 thread ids, in any
 * order, so keeping the array sorted would move it for each. */
static StrobeScopeThread *
get_thread (StrobeTimelineModel *self, guint16 id)
{
  StrobeScopeThread *th;

  if (self->last_thread && self->last_thread->thread_id == id)
    return self->last_thread;
  th = find_thread (self, id);
  if (th == NULL)
    {
      th = g_new0 (StrobeScopeThread, 1);
      th->thread_id = id;
      th->tracks = g_ptr_array_new_with_free_func (strobe_scope_track_free);
      g_ptr_array_add (self->threads, th);
      g_hash_table_insert (self->threads_by_id, GUINT_TO_POINTER ((guint) id + 1), th);
    }
  self->last_thread = th;
  return th;
}

static guint32
intern_name (StrobeTimelineModel *self, const char *name)
{
  return strobe_scope_name_intern (self->names, self->name_ids, name);
}

static guint32
map_get (StrobeTimelineModel *self, StrobeSpecMap *m, guint64 id)
{
  guint32 v = strobe_spec_map_lookup (m, id), name_id;
  g_autofree char *name = NULL;

  if (v)
    return v - 1;
  name = g_strdup_printf ("(unknown %u)", (guint32) MIN (id, G_MAXUINT32));
  name_id = intern_name (self, name);
  strobe_spec_map_set (m, (guint32) MIN (id, G_MAXUINT32), name_id);
  return name_id;
}

static void
note_time (StrobeTimelineModel *self, guint64 t)
{
  if (!self->have_time)
    {
      self->have_time = TRUE;
      self->first_time = self->last_time = t;
      return;
    }
  if (t < self->first_time)
    self->first_time = t;
  if (t > self->last_time)
    self->last_time = t;
}

/* ---- decoding ----------------------------------------------------------------------- */

/* One batch's walk (strobe_cpu_batch_walk's callbacks, inlined into on_batch). */
typedef struct
{
  StrobeTimelineModel *self;
  StrobeScopeThread   *th;
  guint64              from;    /* the earliest begin of a scope closed by this batch */
  StrobeScopeTrack   **tracks;  /* the thread's, as a plain array: no GPtrArray per scope */
  guint                n_tracks;
} BatchWalk;

static inline void
batch_end (gpointer data, guint64 ts)
{
  BatchWalk *w = data;
  StrobeScopeThread *th = w->th;
  StrobeOpenScope *o;
  guint depth;

  if (!strobe_scope_nesting_end (&th->nest, &w->self->nesting))
    return;
  if (strobe_memory_budget_over (&w->self->memory_budget, w->self->arena.full ? G_MAXUINT64 : w->self->arena.bytes))
    {
      w->self->memory_overflows++;
      return;
    }
  depth = th->nest.depth;
  o = &th->stack[depth];
  if (G_UNLIKELY (depth >= w->n_tracks))
    {
      track_at (w->self, th, depth);
      w->tracks = (StrobeScopeTrack **) th->tracks->pdata;
      w->n_tracks = th->tracks->len;
    }
  strobe_scope_track_append (&w->self->arena, w->tracks[depth], o->begin, ts, o->name_id, 0, o->children);
  strobe_open_scope_ended (th->stack, depth, ts >= o->begin ? ts - o->begin : 0);
  w->from = MIN (w->from, o->begin);
  w->self->scopes++;
}

static inline void
batch_begin (gpointer data, guint64 ts, guint64 id)
{
  BatchWalk *w = data;
  StrobeTimelineModel *self = w->self;
  StrobeScopeThread *th = w->th;
  GArray *dense = self->spec_names.dense;
  StrobeOpenScope *o;
  guint32 name;

  if (!strobe_scope_nesting_begin (&th->nest, &self->nesting))
    return;
  if (G_LIKELY (id < dense->len && g_array_index (dense, guint32, id) != 0))
    name = g_array_index (dense, guint32, id) - 1;
  else
    name = map_get (self, &self->spec_names, id);
  if (G_UNLIKELY (th->nest.depth > th->stack_cap))
    {
      th->stack_cap = th->stack_cap ? th->stack_cap * 2 : 32;
      th->stack = g_renew (StrobeOpenScope, th->stack, th->stack_cap);
    }
  o = &th->stack[th->nest.depth - 1];
  o->begin = ts;
  o->children = 0;
  o->name_id = name;
}

static void
on_batch (StrobeTimelineModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor base_f = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift_f = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data_f = STROBE_FIELD_ACCESSOR_INIT ("Data");
  gsize n = 0;
  guint8 elem = 0;
  const guint8 *p = strobe_event_get_array (ev, &data_f, &elem, &n);
  BatchWalk w = { self, NULL, G_MAXUINT64, NULL, 0 };
  guint64 first = 0, last = 0;
  gboolean any;

  if (p == NULL || n == 0)
    return;
  if (G_UNLIKELY (self->markers_only))
    {
      /* Frames and regions left open still end at the trace's last time. */
      strobe_batch_times_add (self->batch_times, ev->thread_id, strobe_event_get_uint (ev, &base_f),
                              (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63), p, n);
      return;
    }
  w.th = get_thread (self, ev->thread_id);
  w.tracks = (StrobeScopeTrack **) w.th->tracks->pdata;
  w.n_tracks = w.th->tracks->len;
  /* Scopes open before this batch were drawn to the old end and may close now. */
  if (w.th->nest.depth)
    w.from = w.th->stack[0].begin;
  any = strobe_cpu_batch_walk (strobe_event_get_uint (ev, &base_f), (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63),
                               p, n, batch_begin, batch_end, &w, &first, &last);
  strobe_cpu_batch_note_extent (ev, any, first, last);
  if (any)
    {
      note_time (self, first);
      note_time (self, last);
      strobe_change_log_note (&w.th->changes, self->generation + 1, MIN (w.from, first));
    }
}

static FrameKind *
frame_kind (StrobeTimelineModel *self, guint8 type)
{
  FrameKind *k;

  if (self->frame_kinds->len <= type)
    g_ptr_array_set_size (self->frame_kinds, type + 1);
  k = self->frame_kinds->pdata[type];
  if (k == NULL)
    {
      k = g_new0 (FrameKind, 1);
      k->frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
      self->frame_kinds->pdata[type] = k;
    }
  return k;
}

static void
frame_kind_free (gpointer data)
{
  FrameKind *k = data;

  if (k)
    {
      g_array_unref (k->frames);
      g_free (k);
    }
}

static void
counter_free (gpointer data)
{
  Counter *c = data;

  strobe_counter_series_clear (&c->s);
  g_free (c);
}

static Counter *
get_counter (StrobeTimelineModel *self, guint32 id)
{
  Counter *c = g_hash_table_lookup (self->counters_by_id, GUINT_TO_POINTER (id));

  if (c == NULL)
    {
      c = g_new0 (Counter, 1);
      strobe_counter_series_init (&c->s, id);
      g_ptr_array_add (self->counters, c);
      g_hash_table_insert (self->counters_by_id, GUINT_TO_POINTER (id), c);
    }
  return c;
}

static void
counter_add (StrobeTimelineModel *self, Counter *c, const StrobeCounterSample *s)
{
  if (strobe_counter_series_add (&c->s, s))
    g_atomic_int_set (&self->unordered, TRUE);
  strobe_change_log_note (&c->changes, self->generation + 1, s->time);
}

static void
set_name_source (StrobeTimelineModel *self, guint32 name_id, const char *file, guint32 line)
{
  NameSource *ns;

  if (file == NULL || *file == '\0')
    return;
  if (self->name_sources->len <= name_id)
    g_array_set_size (self->name_sources, name_id + 1);
  ns = &g_array_index (self->name_sources, NameSource, name_id);
  if (ns->file == NULL)
    {
      ns->file = g_string_chunk_insert_const (self->strings, file);
      ns->line = line;
    }
}

static void
close_region (StrobeTimelineModel *self, const OpenRegion *o, guint64 end, guint8 flags)
{
  StrobeTimelineRegion r = { o->begin, MAX (end, o->begin), o->name_id, 0, flags };

  g_array_append_val (self->regions, r);
  strobe_change_log_note (&self->marker_changes, self->generation + 1, r.begin);
  self->regions_changed++;
}

/* Open regions by name, so an end finds its begin at once: a trace may hold millions of
 * regions that never end, and an end of a name that is not open. */
static GArray *
open_regions_of (StrobeTimelineModel *self, guint32 name_id, gboolean create)
{
  GArray *open = g_hash_table_lookup (self->open_regions, GUINT_TO_POINTER (name_id + 1));

  if (open == NULL && create)
    {
      open = g_array_new (FALSE, FALSE, sizeof (OpenRegion));
      g_hash_table_insert (self->open_regions, GUINT_TO_POINTER (name_id + 1), open);
    }
  return open;
}

/* A Cpu.EventSpec or Misc.BookmarkSpec: an id's name (and where it is in the source). */
static void
on_spec (StrobeTimelineModel *self, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor file_f = STROBE_FIELD_ACCESSOR_INIT ("File");
  static StrobeFieldAccessor line_f = STROBE_FIELD_ACCESSOR_INIT ("Line");
  g_autofree char *name = strobe_event_get_string (ev, &name_f);
  g_autofree char *file = strobe_event_get_string (ev, &file_f);
  guint32 id = (guint32) strobe_event_get_uint (ev, &id_f);
  guint32 name_id = intern_name (self, name ? name : "");

  strobe_spec_map_set (route == ROUTE_CPU_SPEC ? &self->spec_names : &self->bookmark_names, id, name_id);
  set_name_source (self, name_id, file, (guint32) strobe_event_get_uint (ev, &line_f));
}

static void
on_frame (StrobeTimelineModel *self, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor frame_type_f = STROBE_FIELD_ACCESSOR_INIT ("FrameType");
  guint64 t = strobe_event_get_uint (ev, &cycle_f);
  FrameKind *k = frame_kind (self, (guint8) strobe_event_get_uint (ev, &frame_type_f));
  StrobeTimelineFrame *last = k->frames->len ? &g_array_index (k->frames, StrobeTimelineFrame, k->frames->len - 1) : NULL;

  note_time (self, t);
  strobe_change_log_note (&k->changes, self->generation + 1, last && k->open ? last->begin : t);
  if (route == ROUTE_BEGIN_FRAME)
    {
      StrobeTimelineFrame f = { t, t, k->frames->len, STROBE_SCOPE_OPEN };
      /* Frames of one kind do not overlap: a begin ends the open one. */
      if (k->open && last)
        last->end = MAX (t, last->begin), last->flags = 0;
      g_array_append_val (k->frames, f);
      k->open = TRUE;
    }
  else if (k->open && last)
    {
      last->end = MAX (t, last->begin);
      last->flags = 0;
      k->open = FALSE;
    }
}

static void
on_bookmark (StrobeTimelineModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor text_f = STROBE_FIELD_ACCESSOR_INIT ("Text");
  StrobeTimelineBookmark b;
  guint32 id = (guint32) strobe_event_get_uint (ev, &id_f);

  b.time = strobe_event_get_uint (ev, &cycle_f);
  b.thread_id = ev->thread_id;
  if (id)
    b.name_id = map_get (self, &self->bookmark_names, id);
  else
    {
      g_autofree char *text = strobe_event_get_string (ev, &text_f);
      b.name_id = intern_name (self, text ? text : "");
    }
  /* Several threads' bookmarks come a little out of time order: sorted before the
   * next query (see ensure_ordered). */
  if (self->bookmarks->len
      && g_array_index (self->bookmarks, StrobeTimelineBookmark, self->bookmarks->len - 1).time > b.time)
    {
      self->bookmarks_unsorted = TRUE;
      g_atomic_int_set (&self->unordered, TRUE);
    }
  g_array_append_val (self->bookmarks, b);
  note_time (self, b.time);
  strobe_change_log_note (&self->marker_changes, self->generation + 1, b.time);
}

static void
on_region (StrobeTimelineModel *self, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  g_autofree char *name = strobe_event_get_string (ev, &name_f);
  guint32 name_id = intern_name (self, name ? name : "");
  guint64 t = strobe_event_get_uint (ev, &cycle_f);

  note_time (self, t);
  if (route == ROUTE_REGION_BEGIN)
    {
      OpenRegion o = { name_id, t };
      g_array_append_val (open_regions_of (self, name_id, TRUE), o);
      self->n_open_regions++;
      strobe_change_log_note (&self->marker_changes, self->generation + 1, t);
      self->regions_changed++;
    }
  else
    {
      GArray *open = open_regions_of (self, name_id, FALSE);

      if (open && open->len)
        {
          close_region (self, &g_array_index (open, OpenRegion, open->len - 1), t, 0);
          g_array_set_size (open, open->len - 1);
          self->n_open_regions--;
        }
    }
}

static void
on_counter_spec (StrobeTimelineModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor type_f = STROBE_FIELD_ACCESSOR_INIT ("Type");
  static StrobeFieldAccessor unit_f = STROBE_FIELD_ACCESSOR_INIT ("Unit");
  Counter *c = get_counter (self, (guint32) strobe_event_get_uint (ev, &id_f));
  g_autofree char *name = strobe_event_get_string (ev, &name_f);

  g_free (c->s.name);
  c->s.name = g_strdup (name ? name : "");
  c->s.type = (guint8) strobe_event_get_uint (ev, &type_f);
  c->s.unit = (guint8) strobe_event_get_uint (ev, &unit_f);
}

static void
on_counter_value (StrobeTimelineModel *self, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor cycle_f = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor value_f = STROBE_FIELD_ACCESSOR_INIT ("Value");
  Counter *c = get_counter (self, (guint32) strobe_event_get_uint (ev, &id_f));
  StrobeCounterSample s;

  s.time = strobe_event_get_uint (ev, &cycle_f);
  if (route == ROUTE_COUNTER_INT)
    {
      s.int_value = strobe_event_get_int (ev, &value_f);
      s.value = (gdouble) s.int_value;
    }
  else
    {
      s.value = strobe_event_get_double (ev, &value_f);
      s.int_value = (gint64) s.value;
    }
  counter_add (self, c, &s);
  note_time (self, s.time);
}

/* $Trace.Stats: running totals of events dropped; a rise since the last report happened
 * between the two. */
static void
on_stats (StrobeTimelineModel *self, const StrobeEvent *ev)
{
  static StrobeFieldAccessor timestamp_f = STROBE_FIELD_ACCESSOR_INIT ("Timestamp");
  static StrobeFieldAccessor dropped_f = STROBE_FIELD_ACCESSOR_INIT ("EventsDropped");
  guint64 t = strobe_event_get_uint (ev, &timestamp_f);
  guint64 dropped = strobe_event_get_uint (ev, &dropped_f);

  if (dropped > (self->have_stats ? self->stats_dropped : 0))
    {
      StrobeTimelineDrop d;

      d.begin = self->have_stats ? self->stats_time : (self->have_time ? self->first_time : t);
      d.end = MAX (t, d.begin);
      d.count = dropped - (self->have_stats ? self->stats_dropped : 0);
      g_array_append_val (self->drops, d);
      strobe_change_log_note (&self->marker_changes, self->generation + 1, d.begin);
    }
  self->have_stats = TRUE;
  self->stats_time = t;
  self->stats_dropped = MAX (dropped, self->stats_dropped);
}

static void
strobe_timeline_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeTimelineModel *self = (StrobeTimelineModel *) analyzer;

  g_rw_lock_writer_lock (&self->lock);
  switch (route)
    {
    case ROUTE_CPU_BATCH:
      on_batch (self, ev);
      break;
    case ROUTE_CPU_SPEC:
    case ROUTE_BOOKMARK_SPEC:
      on_spec (self, route, ev);
      break;
    case ROUTE_BEGIN_FRAME:
    case ROUTE_END_FRAME:
      on_frame (self, route, ev);
      break;
    case ROUTE_BOOKMARK:
      on_bookmark (self, ev);
      break;
    case ROUTE_REGION_BEGIN:
    case ROUTE_REGION_END:
      on_region (self, route, ev);
      break;
    case ROUTE_COUNTER_SPEC:
      on_counter_spec (self, ev);
      break;
    case ROUTE_COUNTER_INT:
    case ROUTE_COUNTER_FLOAT:
      on_counter_value (self, route, ev);
      break;
    case ROUTE_STATS:
      on_stats (self, ev);
      break;
    default:
      break;
    }
  __atomic_store_n (&self->generation, self->generation + 1, __ATOMIC_RELEASE);
  g_rw_lock_writer_unlock (&self->lock);
}

static void
strobe_timeline_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_SPEC, "Cpu", "EventSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_CPU_BATCH, "Cpu", "EventBatch");
  strobe_analysis_context_subscribe (ctx, ROUTE_BEGIN_FRAME, "Misc", "BeginFrame");
  strobe_analysis_context_subscribe (ctx, ROUTE_END_FRAME, "Misc", "EndFrame");
  strobe_analysis_context_subscribe (ctx, ROUTE_BOOKMARK_SPEC, "Misc", "BookmarkSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_BOOKMARK, "Misc", "Bookmark");
  strobe_analysis_context_subscribe (ctx, ROUTE_REGION_BEGIN, "Misc", "RegionBegin");
  strobe_analysis_context_subscribe (ctx, ROUTE_REGION_END, "Misc", "RegionEnd");
  strobe_analysis_context_subscribe (ctx, ROUTE_COUNTER_SPEC, "Counters", "Spec");
  strobe_analysis_context_subscribe (ctx, ROUTE_COUNTER_INT, "Counters", "SetInt");
  strobe_analysis_context_subscribe (ctx, ROUTE_COUNTER_FLOAT, "Counters", "SetFloat");
  strobe_analysis_context_subscribe (ctx, ROUTE_STATS, "$Trace", "Stats");
}

/* The end of the trace: whatever is still open is closed at the last timestamp, flagged. */
static void
strobe_timeline_model_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeTimelineModel *self = STROBE_TIMELINE_MODEL (analyzer);
  guint64 first, last;

  g_rw_lock_writer_lock (&self->lock);
  if (strobe_batch_times_end (self->batch_times, &first, &last))
    {
      note_time (self, first);
      note_time (self, last);
    }
  last = self->last_time;
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrobeScopeThread *th = self->threads->pdata[i];

      if (th->nest.depth)
        strobe_change_log_note (&th->changes, self->generation + 1, th->stack[0].begin);
      while (th->nest.depth)
        {
          guint depth = th->nest.depth - 1;
          StrobeOpenScope *o = &th->stack[depth];
          th->nest.depth--;
          if (strobe_memory_budget_over (&self->memory_budget, self->arena.full ? G_MAXUINT64 : self->arena.bytes))
            {
              self->memory_overflows++;
              continue;
            }
          strobe_scope_track_append (&self->arena, track_at (self, th, depth), o->begin, MAX (last, o->begin),
                                     o->name_id, STROBE_SCOPE_CLOSED_AT_END, o->children);
          strobe_open_scope_ended (th->stack, depth, MAX (last, o->begin) - o->begin);
          self->scopes++;
        }
      for (guint d = 0; d < th->tracks->len; d++)
        strobe_scope_track_finish (&self->arena, th->tracks->pdata[d]);
    }
  strobe_scope_arena_sync_summaries (&self->arena);  /* the whole trace's timers come next */
  for (guint k = 0; k < self->frame_kinds->len; k++)
    {
      FrameKind *fk = self->frame_kinds->pdata[k];
      if (fk && fk->open && fk->frames->len)
        {
          StrobeTimelineFrame *f = &g_array_index (fk->frames, StrobeTimelineFrame, fk->frames->len - 1);
          f->end = MAX (last, f->begin);
          f->flags = STROBE_SCOPE_CLOSED_AT_END;
          fk->open = FALSE;
          strobe_change_log_note (&fk->changes, self->generation + 1, f->begin);
        }
    }
  {
    GHashTableIter it;
    gpointer value;

    g_hash_table_iter_init (&it, self->open_regions);
    while (g_hash_table_iter_next (&it, NULL, &value))
      {
        GArray *open = value;

        for (guint i = 0; i < open->len; i++)
          close_region (self, &g_array_index (open, OpenRegion, i), last, STROBE_SCOPE_CLOSED_AT_END);
        g_array_set_size (open, 0);
      }
    self->n_open_regions = 0;
  }
  self->complete = TRUE;
  __atomic_store_n (&self->generation, self->generation + 1, __ATOMIC_RELEASE);
  g_rw_lock_writer_unlock (&self->lock);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_timeline_model_begin;
  iface->on_event = strobe_timeline_model_on_event;
  iface->end = strobe_timeline_model_end;
}

/* ---- object ---------------------------------------------------------------------- */

static void
strobe_timeline_model_finalize (GObject *object)
{
  StrobeTimelineModel *self = STROBE_TIMELINE_MODEL (object);

  g_hash_table_unref (self->name_ids);
  g_ptr_array_unref (self->names);
  strobe_spec_map_clear (&self->spec_names);
  strobe_spec_map_clear (&self->bookmark_names);
  g_hash_table_unref (self->threads_by_id);
  strobe_batch_times_free (self->batch_times);
  /* Before the tracks (they free only their own memory): its summaries' worker stops. */
  strobe_scope_arena_clear (&self->arena);
  g_ptr_array_unref (self->threads);
  g_ptr_array_unref (self->frame_kinds);
  g_array_unref (self->bookmarks);
  g_array_unref (self->regions);
  g_hash_table_unref (self->open_regions);
  g_clear_pointer (&self->region_index, strobe_region_index_unref);
  g_mutex_clear (&self->region_index_lock);
  g_hash_table_unref (self->counters_by_id);
  g_ptr_array_unref (self->counters);
  g_array_unref (self->drops);
  g_array_unref (self->name_sources);
  g_string_chunk_free (self->strings);
  g_rw_lock_clear (&self->lock);
  G_OBJECT_CLASS (strobe_timeline_model_parent_class)->finalize (object);
}

static void
strobe_timeline_model_class_init (StrobeTimelineModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_timeline_model_finalize;
}

static void
strobe_timeline_model_init (StrobeTimelineModel *self)
{
  g_rw_lock_init (&self->lock);
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  strobe_spec_map_init (&self->spec_names);
  strobe_spec_map_init (&self->bookmark_names);
  self->threads = g_ptr_array_new_with_free_func (scope_thread_free);
  self->threads_by_id = g_hash_table_new (NULL, NULL);
  self->batch_times = strobe_batch_times_new (STROBE_BATCH_TIMES_KEPT_BYTES);
  self->frame_kinds = g_ptr_array_new_with_free_func (frame_kind_free);
  self->bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  self->regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  self->open_regions = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  g_mutex_init (&self->region_index_lock);
  self->counters = g_ptr_array_new_with_free_func (counter_free);
  self->counters_by_id = g_hash_table_new (NULL, NULL);
  self->drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
  self->name_sources = g_array_new (FALSE, TRUE, sizeof (NameSource));
  self->strings = g_string_chunk_new (1024);
  strobe_scope_arena_init (&self->arena, strobe_timer_summary_apart ());
  strobe_memory_budget_init (&self->memory_budget, 0);
}

StrobeTimelineModel *
strobe_timeline_model_new (void)
{
  return g_object_new (STROBE_TYPE_TIMELINE_MODEL, NULL);
}

void
strobe_timeline_model_set_memory_budget (StrobeTimelineModel *self, guint64 bytes)
{
  g_return_if_fail (STROBE_IS_TIMELINE_MODEL (self));
  g_rw_lock_writer_lock (&self->lock);
  strobe_memory_budget_init (&self->memory_budget, bytes ? bytes : G_MAXUINT64);
  g_rw_lock_writer_unlock (&self->lock);
}

void
strobe_timeline_model_set_markers_only (StrobeTimelineModel *self, gboolean markers_only)
{
  g_return_if_fail (STROBE_IS_TIMELINE_MODEL (self));
  g_rw_lock_writer_lock (&self->lock);
  if (self->threads->len == 0)
    self->markers_only = markers_only;
  else
    g_critical ("%s: the model has kept scopes already", G_STRFUNC);
  g_rw_lock_writer_unlock (&self->lock);
}

/* ---- queries ----------------------------------------------------------------------- */

void
strobe_timeline_model_read_lock (StrobeTimelineModel *self)
{
  g_rw_lock_reader_lock (&self->lock);
}

/* Spun, not slept: the writer holds the lock for one batch (tens to hundreds of µs) while
 * it runs on another core. A g_usleep (50) between tries came back 5–7 ms later when every
 * core was busy (a trace loading on two), the main thread's longest stall while loading. */
gboolean
strobe_timeline_model_try_read_lock (StrobeTimelineModel *self, guint wait_us)
{
  gint64 until;

  if (g_rw_lock_reader_trylock (&self->lock))
    return TRUE;
  until = g_get_monotonic_time () + wait_us;
  do
    {
      /* Not hammering the lock's line while the writer works under it. */
      for (guint i = 0; i < 64; i++)
        {
#if defined(__x86_64__) || defined(__i386__)
          __builtin_ia32_pause ();
#endif
        }
      if (g_rw_lock_reader_trylock (&self->lock))
        return TRUE;
    }
  while (g_get_monotonic_time () < until);
  return FALSE;
}

void
strobe_timeline_model_read_unlock (StrobeTimelineModel *self)
{
  g_rw_lock_reader_unlock (&self->lock);
}

GPtrArray *
strobe_timeline_model_peek_threads (StrobeTimelineModel *self)
{
  return self->threads;
}

StrobeScopeThread *
strobe_timeline_model_peek_thread (StrobeTimelineModel *self, guint16 thread_id)
{
  return find_thread (self, thread_id);
}

const char *
strobe_timeline_model_peek_name (StrobeTimelineModel *self, guint32 name_id)
{
  return name_id < self->names->len ? self->names->pdata[name_id] : NULL;
}

guint
strobe_timeline_model_peek_n_names (StrobeTimelineModel *self)
{
  return self->names->len;
}

gboolean
strobe_timeline_model_get_time_range (StrobeTimelineModel *self, guint64 *first, guint64 *last)
{
  gboolean have;

  g_rw_lock_reader_lock (&self->lock);
  have = self->have_time;
  if (first)
    *first = self->first_time;
  if (last)
    *last = self->last_time;
  g_rw_lock_reader_unlock (&self->lock);
  return have;
}

/* Without the lock: the document's poll and the viewer's main thread ask for it while the
 * reading thread holds the lock for a batch (it is stored atomically, under the lock). */
guint64
strobe_timeline_model_get_generation (StrobeTimelineModel *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  return __atomic_load_n (&self->generation, __ATOMIC_ACQUIRE);
}

gboolean
strobe_timeline_model_is_complete (StrobeTimelineModel *self)
{
  gboolean v;

  g_rw_lock_reader_lock (&self->lock);
  v = self->complete;
  g_rw_lock_reader_unlock (&self->lock);
  return v;
}

guint
strobe_timeline_model_get_n_names (StrobeTimelineModel *self)
{
  guint n;

  g_rw_lock_reader_lock (&self->lock);
  n = self->names->len;
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

const char *
strobe_timeline_model_get_name (StrobeTimelineModel *self, guint32 name_id)
{
  const char *s;

  /* The strings never move or go away before the model does. */
  g_rw_lock_reader_lock (&self->lock);
  s = strobe_timeline_model_peek_name (self, name_id);
  g_rw_lock_reader_unlock (&self->lock);
  return s;
}

gboolean
strobe_timeline_model_find_name (StrobeTimelineModel *self, const char *name, guint32 *name_id)
{
  gpointer v;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), FALSE);
  g_return_val_if_fail (name != NULL && name_id != NULL, FALSE);

  g_rw_lock_reader_lock (&self->lock);
  v = g_hash_table_lookup (self->name_ids, name);
  g_rw_lock_reader_unlock (&self->lock);
  *name_id = GPOINTER_TO_UINT (v) - 1;
  return v != NULL;
}

static gint
compare_thread_ids (gconstpointer a, gconstpointer b)
{
  return (gint) *(const guint16 *) a - (gint) *(const guint16 *) b;
}

GArray *
strobe_timeline_model_get_threads (StrobeTimelineModel *self)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint16));

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    g_array_append_val (ids, ((StrobeScopeThread *) self->threads->pdata[i])->thread_id);
  g_rw_lock_reader_unlock (&self->lock);
  g_array_sort (ids, compare_thread_ids);
  return ids;
}

guint
strobe_timeline_model_get_depth_count (StrobeTimelineModel *self, guint16 thread_id)
{
  StrobeScopeThread *th;
  guint n = 0;

  g_rw_lock_reader_lock (&self->lock);
  th = find_thread (self, thread_id);
  if (th)
    n = MAX (th->tracks->len, th->nest.depth);
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

/* The scope open now at @depth of @th (live traces), if it overlaps [t0, t1]. */
static gboolean
open_scope_at (StrobeTimelineModel *self, StrobeScopeThread *th, guint depth, guint64 t0, guint64 t1,
               StrobeTimelineScope *out)
{
  StrobeOpenScope *o;

  if (depth >= th->nest.depth)
    return FALSE;
  o = &th->stack[depth];
  if (o->begin > t1 || MAX (self->last_time, o->begin) < t0)
    return FALSE;
  out->begin = o->begin;
  out->end = MAX (self->last_time, o->begin);
  out->name_id = o->name_id;
  out->depth = (guint16) depth;
  out->flags = STROBE_SCOPE_OPEN;
  return TRUE;
}

guint
strobe_timeline_model_get_scopes (StrobeTimelineModel *self, guint16 thread_id, guint depth,
                                  guint64 t0, guint64 t1, GArray *out)
{
  return strobe_timeline_model_get_scopes_max (self, thread_id, depth, t0, t1, G_MAXUINT, out);
}

guint
strobe_timeline_model_get_scopes_max (StrobeTimelineModel *self, guint16 thread_id, guint depth,
                                      guint64 t0, guint64 t1, guint max, GArray *out)
{
  StrobeScopeThread *th;
  StrobeTimelineScope s = { 0 };
  guint n = 0;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  g_rw_lock_reader_lock (&self->lock);
  th = find_thread (self, thread_id);
  if (th && depth < th->tracks->len)
    {
      StrobeScopeTrack *t = th->tracks->pdata[depth];
      StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);

      for (; n < max && strobe_scope_pos_valid (t, p); strobe_scope_pos_next (t, &p))
        {
          s.begin = strobe_scope_begin_at (t, p);
          if (s.begin > t1)
            break;
          s.end = strobe_scope_end_at (t, p);
          s.name_id = strobe_scope_name_at (t, p);
          s.depth = (guint16) depth;
          s.flags = strobe_scope_flags_at (t, p);
          g_array_append_val (out, s);
          n++;
        }
    }
  if (n < max && th && open_scope_at (self, th, depth, t0, t1, &s))
    {
      g_array_append_val (out, s);
      n++;
    }
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

/* Under the read lock: the level of detail of one depth of @th (see get_blocks()). */
static void
track_blocks (StrobeTimelineModel *self, StrobeScopeThread *th, guint depth, guint64 t0, guint64 t1,
              guint64 r, GArray *out)
{
  StrobeTimelineScope s = { 0 };

  if (depth < th->tracks->len)
    strobe_scope_track_blocks (th->tracks->pdata[depth], depth, t0, t1, r, out);
  if (open_scope_at (self, th, depth, t0, t1, &s))
    {
      StrobeTimelineBlock b = { s.begin, s.end, s.name_id, 1, s.depth, s.flags };
      g_array_append_val (out, b);
    }
}

guint
strobe_timeline_model_get_blocks (StrobeTimelineModel *self, guint16 thread_id, guint depth,
                                  guint64 t0, guint64 t1, guint64 resolution, GArray *out)
{
  StrobeScopeThread *th;
  guint start = out->len;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  g_rw_lock_reader_lock (&self->lock);
  th = find_thread (self, thread_id);
  if (th)
    track_blocks (self, th, depth, t0, t1, MAX (resolution, 1), out);
  g_rw_lock_reader_unlock (&self->lock);
  return out->len - start;
}

guint
strobe_timeline_model_get_thread_blocks (StrobeTimelineModel *self, guint16 thread_id, guint depth_min,
                                         guint depth_max, guint64 t0, guint64 t1, guint64 resolution,
                                         GArray *out)
{
  StrobeScopeThread *th;
  guint start = out->len;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  g_rw_lock_reader_lock (&self->lock);
  th = find_thread (self, thread_id);
  if (th)
    {
      guint n = MAX (th->tracks->len, th->nest.depth);
      for (guint d = depth_min; d < MIN (depth_max, n); d++)
        {
          /* A painter's read of a tall thread takes milliseconds. The read lock is held
           * meanwhile: a writer waits for the whole read anyway, and the main thread only
           * reads. */
          strobe_give_way ();
          track_blocks (self, th, d, t0, t1, MAX (resolution, 1), out);
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out->len - start;
}

void
strobe_timeline_model_get_stats (StrobeTimelineModel *self, StrobeTimelineStats *stats)
{
  gsize other = sizeof *self;

  g_rw_lock_reader_lock (&self->lock);
  stats->scopes = self->scopes;
  stats->scope_bytes = self->arena.bytes;
  stats->unmatched_ends = self->nesting.unmatched_ends;
  stats->depth_overflows = self->nesting.depth_overflows;
  stats->budget_overflows = self->nesting.budget_overflows;
  stats->memory_overflows = self->memory_overflows;
  stats->memory_budget = self->memory_budget.bytes;
  stats->levels = self->nesting.levels;
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrobeScopeThread *th = self->threads->pdata[i];
      other += sizeof *th + th->stack_cap * sizeof (StrobeOpenScope)
               + th->tracks->len * (sizeof (StrobeScopeTrack) + sizeof (gpointer));
    }
  for (guint i = 0; i < self->names->len; i++)
    other += strlen (self->names->pdata[i]) + 1 + 3 * sizeof (gpointer);
  other += strobe_spec_map_bytes (&self->spec_names) + strobe_spec_map_bytes (&self->bookmark_names)
           + (self->threads->len + g_hash_table_size (self->open_regions)) * 4 * sizeof (gpointer);
  other += self->bookmarks->len * sizeof (StrobeTimelineBookmark);
  other += self->regions->len * sizeof (StrobeTimelineRegion) + self->n_open_regions * sizeof (OpenRegion);
  for (guint k = 0; k < self->frame_kinds->len; k++)
    if (self->frame_kinds->pdata[k])
      other += ((FrameKind *) self->frame_kinds->pdata[k])->frames->len * sizeof (StrobeTimelineFrame);
  for (guint i = 0; i < self->counters->len; i++)
    other += ((Counter *) self->counters->pdata[i])->s.samples->len * sizeof (StrobeCounterSample)
             + ((Counter *) self->counters->pdata[i])->s.summary->len * 2 * sizeof (gdouble);
  other += self->drops->len * sizeof (StrobeTimelineDrop) + self->name_sources->len * sizeof (NameSource);
  stats->total_bytes = self->arena.bytes + other;
  g_rw_lock_reader_unlock (&self->lock);
}

guint
strobe_timeline_model_get_frame_count (StrobeTimelineModel *self, guint8 frame_type)
{
  guint n = 0;

  g_rw_lock_reader_lock (&self->lock);
  if (frame_type < self->frame_kinds->len && self->frame_kinds->pdata[frame_type])
    n = ((FrameKind *) self->frame_kinds->pdata[frame_type])->frames->len;
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

guint
strobe_timeline_model_get_frames (StrobeTimelineModel *self, guint8 frame_type, guint64 t0, guint64 t1,
                                  GArray *out)
{
  guint n = 0;

  g_rw_lock_reader_lock (&self->lock);
  if (frame_type < self->frame_kinds->len && self->frame_kinds->pdata[frame_type])
    {
      FrameKind *k = self->frame_kinds->pdata[frame_type];
      guint lo = 0, hi = k->frames->len;

      /* Frames of a kind are disjoint and in order: the first that ends at or after t0. */
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          StrobeTimelineFrame *f = &g_array_index (k->frames, StrobeTimelineFrame, mid);
          guint64 end = (f->flags & STROBE_SCOPE_OPEN) ? MAX (self->last_time, f->begin) : f->end;
          if (end >= t0)
            hi = mid;
          else
            lo = mid + 1;
        }
      for (guint i = lo; i < k->frames->len; i++)
        {
          StrobeTimelineFrame f = g_array_index (k->frames, StrobeTimelineFrame, i);
          if (f.begin > t1)
            break;
          if (f.flags & STROBE_SCOPE_OPEN)
            f.end = MAX (self->last_time, f.begin);
          g_array_append_val (out, f);
          n++;
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

static gint
bookmark_cmp (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const StrobeTimelineBookmark *) a)->time, y = ((const StrobeTimelineBookmark *) b)->time;
  return x < y ? -1 : x > y;
}

/* Sorts what came too far out of order (bookmarks, a counter's samples) so the queries
 * search in time order under the read lock. Called before the read lock is taken: what
 * arrives in between is sorted before the next query. */
static void
ensure_ordered (StrobeTimelineModel *self)
{
  if (!g_atomic_int_get (&self->unordered))
    return;
  g_rw_lock_writer_lock (&self->lock);
  if (self->bookmarks_unsorted)
    {
      g_array_sort (self->bookmarks, bookmark_cmp);
      self->bookmarks_unsorted = FALSE;
    }
  for (guint i = 0; i < self->counters->len; i++)
    {
      Counter *c = self->counters->pdata[i];

      if (c->s.unsorted)
        strobe_counter_series_sort (&c->s);
    }
  g_atomic_int_set (&self->unordered, FALSE);
  g_rw_lock_writer_unlock (&self->lock);
}

guint
strobe_timeline_model_get_bookmarks (StrobeTimelineModel *self, guint64 t0, guint64 t1, GArray *out)
{
  guint n = 0, lo = 0, hi;

  ensure_ordered (self);
  g_rw_lock_reader_lock (&self->lock);
  hi = self->bookmarks->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (self->bookmarks, StrobeTimelineBookmark, mid).time >= t0)
        hi = mid;
      else
        lo = mid + 1;
    }
  for (guint i = lo; i < self->bookmarks->len; i++)
    {
      StrobeTimelineBookmark *b = &g_array_index (self->bookmarks, StrobeTimelineBookmark, i);
      if (b->time > t1)
        break;
      g_array_append_val (out, *b);
      n++;
    }
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

/* The index of all regions, built again when they changed since. Open regions end at the
 * latest time seen, so while any is open a new latest time is a change too.
 *
 * While the trace is still coming (loading, live), regions change with every batch and a
 * view asks every frame: building anew each time spent a 2 M-region load's main thread
 * in sorting (72 s to open 45 MB, /app/slow-load). Then the index is built again only
 * once ten times its own cost has passed since the last build, so building takes at most
 * a tenth of the time and a small trace's index (microseconds) is always current. The
 * finished trace's index is always exact. Called with the reader lock held; returns a
 * reference. */
static StrobeRegionIndex *
region_index (StrobeTimelineModel *self)
{
  guint64 open_end = self->n_open_regions ? self->last_time : 0;
  StrobeRegionIndex *index;

  g_mutex_lock (&self->region_index_lock);
  if (self->region_index == NULL
      || ((self->region_index_changed != self->regions_changed || self->region_index_end != open_end)
          && (self->complete
              || g_get_monotonic_time () - self->region_index_built >= 10 * self->region_index_cost)))
    {
      gint64 started = g_get_monotonic_time ();
      GArray *all = g_array_sized_new (FALSE, FALSE, sizeof (StrobeTimelineRegion),
                                       (guint) MIN (self->regions->len + self->n_open_regions, G_MAXUINT));
      GHashTableIter it;
      gpointer value;

      g_array_append_vals (all, self->regions->data, self->regions->len);
      g_hash_table_iter_init (&it, self->open_regions);
      while (g_hash_table_iter_next (&it, NULL, &value))
        {
          GArray *open = value;

          for (guint i = 0; i < open->len; i++)
            {
              OpenRegion *o = &g_array_index (open, OpenRegion, i);
              StrobeTimelineRegion r = { o->begin, MAX (self->last_time, o->begin), o->name_id, 0, STROBE_SCOPE_OPEN };
              g_array_append_val (all, r);
            }
        }
      g_clear_pointer (&self->region_index, strobe_region_index_unref);
      self->region_index = strobe_region_index_new (all);
      self->region_index_changed = self->regions_changed;
      self->region_index_end = open_end;
      self->region_index_built = g_get_monotonic_time ();
      self->region_index_cost = self->region_index_built - started;
    }
  index = strobe_region_index_ref (self->region_index);
  g_mutex_unlock (&self->region_index_lock);
  return index;
}

guint
strobe_timeline_model_get_regions (StrobeTimelineModel *self, guint64 t0, guint64 t1, GArray *out)
{
  g_autoptr (StrobeRegionIndex) index = NULL;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self) && out != NULL, 0);

  g_rw_lock_reader_lock (&self->lock);
  index = region_index (self);
  g_rw_lock_reader_unlock (&self->lock);
  return strobe_region_index_query (index, t0, t1, out);
}

guint
strobe_timeline_model_get_region_lanes (StrobeTimelineModel *self)
{
  g_autoptr (StrobeRegionIndex) index = NULL;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);

  g_rw_lock_reader_lock (&self->lock);
  index = region_index (self);
  g_rw_lock_reader_unlock (&self->lock);
  return strobe_region_index_get_lanes (index);
}

static void
counter_clear (gpointer data)
{
  g_free (((StrobeTimelineCounter *) data)->name);
}

static gint
counter_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeTimelineCounter *x = a, *y = b;
  gint c = strcmp (x->name, y->name);
  return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

GArray *
strobe_timeline_model_get_counters (StrobeTimelineModel *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineCounter));

  g_array_set_clear_func (out, counter_clear);
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->counters->len; i++)
    {
      Counter *c = self->counters->pdata[i];
      StrobeTimelineCounter tc = { i, g_strdup (c->s.name), c->s.type, c->s.unit, c->s.samples->len };
      g_array_append_val (out, tc);
    }
  g_rw_lock_reader_unlock (&self->lock);
  g_array_sort (out, counter_cmp);
  return out;
}

guint
strobe_timeline_model_get_counter_samples (StrobeTimelineModel *self, guint32 index, guint64 t0,
                                           guint64 t1, GArray *out)
{
  guint n = 0;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  ensure_ordered (self);
  g_rw_lock_reader_lock (&self->lock);
  if (index < self->counters->len && t0 <= t1)
    n = strobe_counter_series_samples (&((Counter *) self->counters->pdata[index])->s, t0, t1, out);
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

guint
strobe_timeline_model_get_counter_series (StrobeTimelineModel *self, guint32 index, guint64 t0, guint64 t1,
                                          guint n_buckets, StrobeCounterSample *before,
                                          StrobeCounterSample *after, GArray *out)
{
  guint start;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  start = out->len;
  if (before)
    before->time = G_MAXUINT64;
  if (after)
    after->time = G_MAXUINT64;
  if (n_buckets == 0 || t1 < t0)
    return 0;

  ensure_ordered (self);
  g_rw_lock_reader_lock (&self->lock);
  if (index < self->counters->len)
    strobe_counter_series_buckets (&((Counter *) self->counters->pdata[index])->s, t0, t1, n_buckets, before, after, out);
  g_rw_lock_reader_unlock (&self->lock);
  return out->len - start;
}

guint
strobe_timeline_model_get_drops (StrobeTimelineModel *self, guint64 t0, guint64 t1, GArray *out)
{
  guint start;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);
  g_return_val_if_fail (out != NULL, 0);

  start = out->len;
  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->drops->len; i++)
    {
      const StrobeTimelineDrop *d = &g_array_index (self->drops, StrobeTimelineDrop, i);
      if (d->end >= t0 && d->begin <= t1)
        g_array_append_val (out, *d);
    }
  g_rw_lock_reader_unlock (&self->lock);
  return out->len - start;
}

guint64
strobe_timeline_model_get_changed_since (StrobeTimelineModel *self, StrobeTimelineSeries series, guint32 id,
                                         guint64 generation)
{
  guint64 from = G_MAXUINT64;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), 0);

  g_rw_lock_reader_lock (&self->lock);
  if (generation < self->generation)
    switch (series)
      {
      case STROBE_TIMELINE_SERIES_SCOPES:
        {
          StrobeScopeThread *th = id <= G_MAXUINT16 ? find_thread (self, (guint16) id) : NULL;
          if (th)
            from = strobe_change_log_query (&th->changes, generation);
        }
        break;
      case STROBE_TIMELINE_SERIES_FRAMES:
        if (id < self->frame_kinds->len && self->frame_kinds->pdata[id])
          from = strobe_change_log_query (&((FrameKind *) self->frame_kinds->pdata[id])->changes, generation);
        break;
      case STROBE_TIMELINE_SERIES_COUNTER:
        if (id < self->counters->len)
          from = strobe_change_log_query (&((Counter *) self->counters->pdata[id])->changes, generation);
        break;
      case STROBE_TIMELINE_SERIES_MARKERS:
        from = strobe_change_log_query (&self->marker_changes, generation);
        break;
      default:
        break;
      }
  g_rw_lock_reader_unlock (&self->lock);
  return from;
}

gboolean
strobe_timeline_model_get_name_source (StrobeTimelineModel *self, guint32 name_id, const char **file,
                                       guint32 *line)
{
  gboolean found = FALSE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (self), FALSE);

  g_rw_lock_reader_lock (&self->lock);
  if (name_id < self->name_sources->len)
    {
      const NameSource *ns = &g_array_index (self->name_sources, NameSource, name_id);
      if (ns->file)
        {
          found = TRUE;
          if (file)
            *file = ns->file;
          if (line)
            *line = ns->line;
        }
    }
  g_rw_lock_reader_unlock (&self->lock);
  return found;
}
