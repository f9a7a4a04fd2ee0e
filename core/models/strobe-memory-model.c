/* strobe-memory-model.c — allocation records, live maps, a free log, a two-level
 * max-free-time index, per-heap live lists, the call-stack trie and the module map.
 *
 * Layout (core/models/README.md, "Memory"): records in allocation order = time order
 * (times are clamped) as the store's columns (strobe-memory-store.c), or only the live
 * ones in a summary model (strobe-memory-slots.c); a free log of what removed bytes from
 * "live", with totals per 32 entries (live at T: two binary searches and two short
 * sums); live maps by (address, heap) for the per-event format and by (thread, id) for
 * Memory.Batch; per-heap live lists (HeapFreeAll ends a heap's blocks without looking at
 * any other's); a max index of free times per 32 and 1024 records ("live at T" skips
 * what ended before T).
 *
 * Memory.Batch records of one update round come from several threads whose times
 * interleave: they are collected until the round's last batch and applied merged by
 * time. A free whose allocation has not been applied yet (another thread's, later in the
 * stream) waits as an orphan until it is.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-model-private.h"
#include "strobe-memory-overview.h"
#include "strobe-memory-budget.h"
#include "strobe-index-bits.h"

#include <string.h>

#include "strobe-memory-records.h"
#include "strobe-memory-round.h"

#define MAX_PENDING      (1u << 20)   /* records a round holds before it is applied anyway */
#define MAX_ORPHANS      (1u << 20)
#define KEY_THREAD(key)  ((guint16) ((key) >> 48))
#define KEY_ID(key)      ((key) & G_GUINT64_CONSTANT (0xffffffffffff))

enum
{
  ROUTE_ALLOC,
  ROUTE_FREE,
  ROUTE_REALLOC_FREE,
  ROUTE_REALLOC_ALLOC,
  ROUTE_HEAP_MARK,
  ROUTE_HEAP_UNMARK,
  ROUTE_HEAP_FREE_ALL,
  ROUTE_HEAP_SPEC,
  ROUTE_TAG_SPEC,
  ROUTE_CALLSTACK,
  ROUTE_BATCH,
  ROUTE_LIVE,
  ROUTE_STACK_NODES,
  ROUTE_MODULE,
  ROUTE_MODULE_UNLOAD,
};

typedef struct
{
  StrobeMemoryGroup pub;
  GArray           *live;        /* guint32 records: every live one of the heap, and ended
                                  * ones until a prune (heaps only) */
  gboolean          listed;      /* heap 0: its list is kept (from its first reset on) */
} Group;

typedef struct
{
  guint32  last_alloc_plus1;      /* the thread's last allocation, for "temporary" */
  guint32  pending_realloc_plus1; /* legacy format: ReallocFree waiting for its other half */
  gboolean from_realloc;          /* an UNTRACKED realloc's new block comes next */
  /* Memory.Batch from this thread: */
  gboolean seq_known;
  guint64  next_seq;
  guint64  first_id;              /* 0: none applied yet */
  guint64  max_id;
  guint64  dropped;
  gboolean has_watermark;         /* the last snapshot's counter for this thread */
  guint64  watermark;
} ThreadState;

typedef struct
{
  guint64  time;
  guint64  ref_id;
  guint64  id;
  guint64  size;
  guint64  address;
  guint32  heap, tag, stack;
  guint16  thread;
  guint16  ref_thread;
  guint8   kind;
  guint8   align_log2;
  gboolean realloc;
  gboolean has_address;
} Pending;

typedef struct
{
  guint64 time;
  guint16 by_thread;
  guint8  flag;
} Orphan;

struct _StrobeMemoryModel
{
  GObject      parent_instance;

  GMutex       lock;
  StrobeMemoryStore store;  /* the records, the free log and their indexes */
  gboolean     batches;      /* the trace names allocations by id */
  gsize        stale_ids;    /* id-map entries of records a heap reset ended */
  Group       *last_heap, *last_tag;       /* one-entry caches of the hash lookups */
  ThreadState *last_thread_state;
  guint16      last_thread;
  StrobeLiveMap by_address;
  StrobeIdMap  by_id;
  GHashTable  *heaps;        /* id → Group */
  GHashTable  *tags;
  GHashTable  *threads;      /* id → ThreadState */
  StrobeMemoryStacks stacks; /* the trie, legacy whole stacks, the module map */
  /* Memory.Batch merging and Memory.Live. */
  StrobeMemoryRound round;  /* the batches of an update round, until it ends */
  GHashTable  *orphans;      /* key → Orphan * */
  StrobeIndexBits snapshot_seen; /* store indexes of the snapshot being read */
  GHashTable  *absorbed;     /* keys ended unseen by a snapshot: their late free is expected */
  guint64      snapshot_time;
  gboolean     in_snapshot;
  StrobeMemorySummary sum;
  StrobeMemoryPeak peak;     /* where in application order sum.peak_bytes was reached */
  guint64      time;         /* clamped time of the last event */
  gboolean     have_time;
  StrobeMemoryOverview overview;  /* live bytes over the whole trace, coarse */
  guint64      generation;   /* bumped by every event */
  StrobeMemoryBudget budget;
  guint        budget_tick;  /* single reports since the budget was looked at */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeMemoryModel, strobe_memory_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static inline guint64
id_key (guint16 thread, guint64 id)
{
  return ((guint64) thread << 48) | (id & G_GUINT64_CONSTANT (0xffffffffffff));
}

/* ---- groups (heaps, tags) ------------------------------------------------------------ */

static Group *
group_get (GHashTable *table, guint32 id)
{
  Group *g = g_hash_table_lookup (table, GUINT_TO_POINTER (id));

  if (g == NULL)
    {
      g = g_new0 (Group, 1);
      g->pub.id = id;
      g_hash_table_insert (table, GUINT_TO_POINTER (id), g);
    }
  return g;
}

static inline Group *
heap_get (StrobeMemoryModel *self, guint32 id)
{
  if (self->last_heap && self->last_heap->pub.id == id)
    return self->last_heap;
  return self->last_heap = group_get (self->heaps, id);
}

static inline Group *
tag_get (StrobeMemoryModel *self, guint32 id)
{
  if (self->last_tag && self->last_tag->pub.id == id)
    return self->last_tag;
  return self->last_tag = group_get (self->tags, id);
}

static void
group_free (gpointer data)
{
  Group *g = data;

  g_free ((char *) g->pub.name);
  g_clear_pointer (&g->live, g_array_unref);
  g_free (g);
}

static void
group_add (StrobeMemoryGroup *g, gint64 bytes, gint64 count)
{
  g->live_bytes = strobe_memory_sat_add_signed (g->live_bytes, bytes);
  g->live_count += count;
  if (g->live_bytes > g->peak_live_bytes)
    g->peak_live_bytes = g->live_bytes;
}

/* ---- per-heap live lists ------------------------------------------------------------- */

/* Record @i joins heap @h's live list. Ended records leave it only at a prune, once they
 * are most of it: each costs O(1) amortized, and the list stays in proportion to the
 * heap's live records. */
static void
list_add (StrobeMemoryModel *self, Group *h, guint32 i)
{
  if (h->pub.id == 0 && !h->listed)
    return;   /* malloc's heap: never reset, most records; listed at a first reset */
  if (h->live == NULL)
    h->live = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (h->live->len >= 64 && (gint64) h->live->len > 2 * MAX (h->pub.live_count, 0) + 64)
    {
      guint32 *v = (guint32 *) (void *) h->live->data;
      guint n = 0;

      for (guint k = 0; k < h->live->len; k++)
        if (strobe_memory_store_is_live (&self->store, v[k]))
          v[n++] = v[k];
      g_array_set_size (h->live, n);
    }
  g_array_append_val (h->live, i);
}

/* ---- building --------------------------------------------------------------------------- */

static guint
size_bucket (guint64 size)
{
  return size == 0 ? 0 : 64 - (guint) __builtin_clzll (size);
}

static guint64
clamp_time (StrobeMemoryModel *self, guint64 t)
{
  if (!self->have_time)
    {
      self->have_time = TRUE;
      self->sum.first_time = t;
      strobe_memory_overview_start (&self->overview, t);
    }
  if (t < self->time)
    t = self->time;
  self->time = t;
  self->sum.last_time = t;
  return t;
}

static void
live_changed (StrobeMemoryModel *self, guint64 t)
{
  if (self->sum.live_bytes > self->sum.peak_bytes)
    {
      self->sum.peak_bytes = self->sum.live_bytes;
      self->sum.peak_time = t;
      self->peak.records = strobe_memory_store_n_records (&self->store);
      self->peak.entries = strobe_memory_store_n_entries (&self->store);
      self->peak.count = self->sum.live_count;
    }
  if (!self->store.slots)   /* a summary model draws no series */
    strobe_memory_overview_note (&self->overview, t, self->sum.live_bytes, self->sum.live_count);
}

static ThreadState *
thread_state (StrobeMemoryModel *self, guint16 id)
{
  ThreadState *ts;

  if (self->last_thread_state && self->last_thread == id)
    return self->last_thread_state;
  ts = g_hash_table_lookup (self->threads, GUINT_TO_POINTER ((guint) id));
  if (ts == NULL)
    {
      ts = g_new0 (ThreadState, 1);
      g_hash_table_insert (self->threads, GUINT_TO_POINTER ((guint) id), ts);
    }
  self->last_thread = id;
  return self->last_thread_state = ts;
}

static gint64
counted_bytes (StrobeMemoryModel *self, guint32 index)
{
  return (*strobe_memory_store_flags (&self->store, index) & STROBE_MEMORY_ALLOC_HEAP_BLOCK)
           ? 0 : strobe_memory_signed_size (strobe_memory_store_size (&self->store, index));
}

/* Whether another record fits (2^30, far beyond any memory; the free log packs indexes
 * in 30 bits). Counted as dropped when not. */
static gboolean
room (StrobeMemoryModel *self)
{
  if (strobe_memory_store_n_records (&self->store) < STROBE_MEMORY_MAX_RECORDS)
    return TRUE;
  self->sum.dropped++;
  return FALSE;
}

static guint32
add_alloc (StrobeMemoryModel *self, guint64 t, guint16 thread, guint64 address, guint64 size,
           guint8 align_log2, guint32 heap, guint32 tag, guint32 callstack, guint8 flags)
{
  StrobeMemoryAlloc r = { 0 };
  guint32 index;
  Group *g;

  if (size >= STROBE_MEMORY_ABSURD_SIZE)
    {
      flags |= STROBE_MEMORY_ALLOC_ABSURD;
      self->sum.absurd_sizes++;
    }
  if (address != 0)
    self->sum.addressed++;
  r.alloc_time = t;
  r.free_time = STROBE_MEMORY_LIVE;
  r.address = address;
  r.size = size;
  r.heap = heap;
  r.tag = tag;
  r.callstack = callstack;
  r.thread_id = thread;
  r.alignment_log2 = align_log2 > 63 ? 63 : align_log2;
  r.flags = flags;
  index = strobe_memory_store_append (&self->store, &r);

  self->sum.allocs++;
  self->sum.bytes_allocated = strobe_memory_sat_add (self->sum.bytes_allocated, size);
  self->sum.live_bytes = strobe_memory_sat_add_signed (self->sum.live_bytes, strobe_memory_signed_size (size));
  self->sum.live_count++;
  self->sum.histogram_count[size_bucket (size)]++;
  self->sum.histogram_bytes[size_bucket (size)] = strobe_memory_sat_add (self->sum.histogram_bytes[size_bucket (size)], size);
  g = heap_get (self, heap);
  g->pub.allocs++;
  g->pub.bytes_allocated = strobe_memory_sat_add (g->pub.bytes_allocated, size);
  group_add (&g->pub, strobe_memory_signed_size (size), 1);
  list_add (self, g, index);
  g = tag_get (self, tag);
  g->pub.allocs++;
  g->pub.bytes_allocated = strobe_memory_sat_add (g->pub.bytes_allocated, size);
  group_add (&g->pub, strobe_memory_signed_size (size), 1);
  thread_state (self, thread)->last_alloc_plus1 = index + 1;
  live_changed (self, t);
  return index;
}

/* Ends record @index at @t, freed by @thread (the caller removes it from its live map).
 * heaptrack's "temporary": the thread frees (or reallocates) its own last allocation
 * before allocating anything else. */
static void
end_alloc (StrobeMemoryModel *self, guint32 index, guint64 t, guint16 thread, guint8 flag)
{
  StrobeMemoryStore *s = &self->store;
  gint64 bytes = counted_bytes (self, index);
  ThreadState *ts = thread_state (self, thread);
  const StrobeMemoryAttrs *a;
  guint8 *flags = strobe_memory_store_flags (s, index);
  Group *g;

  if (!strobe_memory_store_is_live (s, index))
    return;
  a = strobe_memory_store_attrs (s, index);
  t = MAX (t, strobe_memory_store_time (s, index));
  *flags |= flag;
  if (ts->last_alloc_plus1 == index + 1 && a->thread == thread
      && !(flag & (STROBE_MEMORY_ALLOC_HEAP_RESET | STROBE_MEMORY_ALLOC_END_UNSEEN)))
    {
      *flags |= STROBE_MEMORY_ALLOC_TEMPORARY;
      self->sum.temporary++;
    }
  ts->last_alloc_plus1 = 0;
  strobe_memory_store_log (s, t, index, STROBE_MEMORY_ENTRY_FREE, bytes, 1);
  self->sum.frees++;
  self->sum.live_bytes = strobe_memory_sat_add_signed (self->sum.live_bytes, -bytes);
  self->sum.live_count--;
  g = heap_get (self, a->heap);
  g->pub.frees++;
  group_add (&g->pub, -bytes, -1);
  if (*flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK)
    g->pub.reserved_bytes = strobe_memory_sat_add_signed (g->pub.reserved_bytes,
                                                          -strobe_memory_signed_size (strobe_memory_store_size (s, index)));
  g = tag_get (self, a->tag);
  g->pub.frees++;
  group_add (&g->pub, -bytes, -1);
  live_changed (self, t);
}

/* A failed realloc: record @index is live again. */
static void
undo_end (StrobeMemoryModel *self, guint32 index, guint64 t)
{
  StrobeMemoryStore *s = &self->store;
  gint64 bytes = counted_bytes (self, index);
  const StrobeMemoryAttrs *a = strobe_memory_store_attrs (s, index);
  guint8 *flags = strobe_memory_store_flags (s, index);
  Group *g;

  if (strobe_memory_store_is_live (s, index))
    return;
  if (*flags & STROBE_MEMORY_ALLOC_TEMPORARY)
    self->sum.temporary--;
  *flags &= (guint8) ~(STROBE_MEMORY_ALLOC_TO_REALLOC | STROBE_MEMORY_ALLOC_TEMPORARY);
  strobe_memory_store_log (s, t, index, STROBE_MEMORY_ENTRY_UNDO, -bytes, -1);
  self->sum.frees--;
  self->sum.live_bytes = strobe_memory_sat_add_signed (self->sum.live_bytes, bytes);
  self->sum.live_count++;
  g = heap_get (self, a->heap);
  g->pub.frees--;
  group_add (&g->pub, bytes, 1);
  list_add (self, g, index);
  g = tag_get (self, a->tag);
  g->pub.frees--;
  group_add (&g->pub, bytes, 1);
  live_changed (self, t);
}

/* The block of record @index now backs another heap (@on) or no longer does. */
static void
mark_record (StrobeMemoryModel *self, guint32 index, guint64 t, gboolean on)
{
  StrobeMemoryStore *s = &self->store;
  guint8 *flags = strobe_memory_store_flags (s, index);
  const StrobeMemoryAttrs *a = strobe_memory_store_attrs (s, index);
  gint64 bytes, size = strobe_memory_signed_size (strobe_memory_store_size (s, index));
  GArray *m;
  guint32 j;
  Group *h;

  if (!strobe_memory_store_is_live (s, index) || ((*flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) != 0) == on)
    return;
  bytes = on ? size : -size;
  *flags ^= STROBE_MEMORY_ALLOC_HEAP_BLOCK;
  j = strobe_memory_store_log (s, t, index, on ? STROBE_MEMORY_ENTRY_MARK : STROBE_MEMORY_ENTRY_UNMARK, bytes, 0);
  m = g_hash_table_lookup (s->marks, GUINT_TO_POINTER (index));
  if (m == NULL)
    g_hash_table_insert (s->marks, GUINT_TO_POINTER (index), m = g_array_new (FALSE, FALSE, sizeof (guint32)));
  g_array_append_val (m, j);
  self->sum.live_bytes = strobe_memory_sat_add_signed (self->sum.live_bytes, -bytes);
  h = heap_get (self, a->heap);
  group_add (&h->pub, -bytes, 0);
  h->pub.reserved_bytes = strobe_memory_sat_add_signed (h->pub.reserved_bytes, bytes);
  group_add (&tag_get (self, a->tag)->pub, -bytes, 0);
  live_changed (self, t);
}

/* Every live block of @heap ends at once: its own list, never the others'. Blocks named
 * by id stay in the id map until a lookup meets them (their records are ended); a
 * compaction drops them when they are many. */
static void compact_ids (StrobeMemoryModel *self);

static void
add_if_heap_0 (guint64 index, const StrobeMemoryAlloc *r, gpointer user)
{
  guint32 i = (guint32) index;
  if (r->heap == 0)
    g_array_append_val ((GArray *) user, i);
}

static void
free_all (StrobeMemoryModel *self, guint64 t, guint16 thread, guint32 heap)
{
  Group *g = g_hash_table_lookup (self->heaps, GUINT_TO_POINTER (heap));
  g_autoptr (GArray) live = NULL;

  if (g && heap == 0 && !g->listed)
    {
      /* Its live records, found once (the max index skips the ended ones' groups). */
      g->listed = TRUE;
      g->live = g_array_new (FALSE, FALSE, sizeof (guint32));
      strobe_memory_store_live_among (&self->store, 0, strobe_memory_store_n_records (&self->store),
                                      STROBE_MEMORY_LIVE - 1, add_if_heap_0, g->live);
    }
  live = g ? g_steal_pointer (&g->live) : NULL;

  for (guint k = 0; live && k < live->len; k++)
    {
      guint32 index = g_array_index (live, guint32, k), value;
      guint64 address = strobe_memory_store_address (&self->store, index);

      if (!strobe_memory_store_is_live (&self->store, index))
        continue;   /* ended since it joined the list */
      if (strobe_live_map_lookup (&self->by_address, address, heap, &value) && value == index)
        strobe_live_map_remove (&self->by_address, address, heap, NULL);
      else
        self->stale_ids++;
      end_alloc (self, index, t, thread, STROBE_MEMORY_ALLOC_HEAP_RESET);
    }
  if (self->stale_ids > 1024 && self->stale_ids > strobe_id_map_count (&self->by_id) / 2)
    compact_ids (self);
}

/* ---- the per-event format (Memory.Alloc, Memory.Free…): blocks by address ----------- */

static guint32
legacy_alloc (StrobeMemoryModel *self, guint64 t, guint16 thread, guint64 address, guint64 size,
              guint32 alignment, guint32 heap, guint32 tag, guint32 callstack, guint8 flags)
{
  guint32 old, index;

  if (!room (self))
    return G_MAXUINT32;
  if (strobe_live_map_lookup (&self->by_address, address, heap, &old))
    {
      /* A missed free (the trace lost it, or the program freed outside the channel). */
      self->sum.replaced_allocs++;
      strobe_live_map_remove (&self->by_address, address, heap, NULL);
      end_alloc (self, old, t, thread, STROBE_MEMORY_ALLOC_END_UNSEEN);
    }
  index = add_alloc (self, t, thread, address, size,
                     alignment ? (guint8) (31 - __builtin_clz (alignment)) : 0, heap, tag, callstack, flags);
  strobe_live_map_insert (&self->by_address, address, heap, index, NULL);
  return index;
}

static gboolean
legacy_free (StrobeMemoryModel *self, guint64 t, guint16 thread, guint64 address, guint32 heap,
             guint8 flag, guint32 *index)
{
  if (!strobe_live_map_remove (&self->by_address, address, heap, index))
    {
      self->sum.unmatched_frees++;
      return FALSE;
    }
  end_alloc (self, *index, t, thread, flag);
  return TRUE;
}

static void
legacy_mark (StrobeMemoryModel *self, guint64 t, guint64 address, guint32 parent, gboolean on)
{
  guint32 index;

  if (strobe_live_map_lookup (&self->by_address, address, parent, &index))
    mark_record (self, index, t, on);
}

/* ---- Memory.Batch: allocations by (thread, id) -------------------------------------- */

/* The id map may hold records a heap reset ended (see free_all): they count as absent. */
static gboolean
id_lookup (StrobeMemoryModel *self, guint64 key, guint32 *index)
{
  if (!strobe_id_map_lookup (&self->by_id, KEY_THREAD (key), KEY_ID (key), index))
    return FALSE;
  if (strobe_memory_store_is_live (&self->store, *index))
    return TRUE;
  strobe_id_map_remove (&self->by_id, KEY_THREAD (key), KEY_ID (key), NULL);
  self->stale_ids--;
  return FALSE;
}

static gboolean
id_take (StrobeMemoryModel *self, guint64 key, guint32 *index)
{
  if (!strobe_id_map_remove (&self->by_id, KEY_THREAD (key), KEY_ID (key), index))
    return FALSE;
  if (strobe_memory_store_is_live (&self->store, *index))
    return TRUE;
  self->stale_ids--;
  return FALSE;
}

static gboolean
keep_live (guint32 value, gpointer user)
{
  StrobeMemoryModel *self = user;

  return strobe_memory_store_is_live (&self->store, value);
}

static void
compact_ids (StrobeMemoryModel *self)
{
  strobe_id_map_retain (&self->by_id, keep_live, self);
  self->stale_ids = 0;
}

static void apply_orphan (StrobeMemoryModel *self, guint64 key, guint32 index, guint64 t);

static void
batch_alloc (StrobeMemoryModel *self, const Pending *p, guint64 t, guint8 flags)
{
  guint64 key = id_key (p->thread, p->id);
  ThreadState *ts = thread_state (self, p->thread);
  guint32 index;

  if (ts->first_id == 0 || p->id < ts->first_id)
    ts->first_id = p->id;
  ts->max_id = MAX (ts->max_id, p->id);
  /* Already known from a snapshot (only ids it could have listed). */
  if (ts->has_watermark && p->id <= ts->watermark && id_lookup (self, key, &index))
    return;
  if (!room (self))
    return;
  if (ts->from_realloc)
    {
      flags |= STROBE_MEMORY_ALLOC_FROM_REALLOC;
      ts->from_realloc = FALSE;
    }
  index = add_alloc (self, t, p->thread, p->has_address ? p->address : 0, p->size, p->align_log2,
                     p->heap, p->tag, p->stack, flags);
  strobe_id_map_insert (&self->by_id, p->thread, p->id, index, NULL);
  if (self->orphans && g_hash_table_size (self->orphans))
    apply_orphan (self, key, index, t);
}

/* Whether allocation (@thread, @id) can still arrive: until the trace's snapshot has been
 * read any can (it may list it); after, ids above what the thread has shown are in
 * flight (the thread's records come in order). */
static gboolean
may_arrive (StrobeMemoryModel *self, guint16 thread, guint64 id)
{
  if (!self->sum.has_snapshot || self->in_snapshot)
    return TRUE;
  return id > thread_state (self, thread)->max_id;
}

static void
batch_free (StrobeMemoryModel *self, guint16 owner, guint64 id, guint64 t, guint16 by, guint8 flag)
{
  guint64 key = id_key (owner, id);
  guint32 index;

  if (id_take (self, key, &index))
    {
      end_alloc (self, index, t, by, flag);
      return;
    }
  if (g_hash_table_remove (self->absorbed, &key))
    return;   /* a snapshot already ended it */
  if (may_arrive (self, owner, id) && g_hash_table_size (self->orphans) < MAX_ORPHANS)
    {
      Orphan *o = g_new (Orphan, 1);
      guint64 *k = g_new (guint64, 1);

      *k = key;
      o->time = t;
      o->by_thread = by;
      o->flag = flag;
      g_hash_table_replace (self->orphans, k, o);
      return;
    }
  self->sum.unmatched_frees++;
}

static void
apply_orphan (StrobeMemoryModel *self, guint64 key, guint32 index, guint64 t)
{
  Orphan *o = g_hash_table_lookup (self->orphans, &key);
  guint32 v;

  if (o == NULL)
    return;
  strobe_id_map_remove (&self->by_id, KEY_THREAD (key), KEY_ID (key), &v);
  end_alloc (self, index, MAX (t, o->time), o->by_thread, o->flag);
  g_hash_table_remove (self->orphans, &key);
}

static void
apply (StrobeMemoryModel *self, const Pending *p)
{
  guint64 t;
  guint32 index;

  if (p->kind == STROBE_MEMREC_TIME || p->kind == STROBE_MEMREC_SYNC)
    return;
  if (self->have_time && p->time < self->time)
    self->sum.late_records++;
  t = clamp_time (self, p->time);
  switch (p->kind)
    {
    case STROBE_MEMREC_ALLOC:
      batch_alloc (self, p, t, 0);
      break;
    case STROBE_MEMREC_FREE:
    case STROBE_MEMREC_FREE_REMOTE:
      batch_free (self, p->ref_thread ? p->ref_thread : p->thread, p->ref_id, t, p->thread,
                  p->realloc ? STROBE_MEMORY_ALLOC_TO_REALLOC : 0);
      break;
    case STROBE_MEMREC_REALLOC:
    case STROBE_MEMREC_REALLOC_REMOTE:
      batch_free (self, p->ref_thread ? p->ref_thread : p->thread, p->ref_id, t, p->thread,
                  STROBE_MEMORY_ALLOC_TO_REALLOC);
      batch_alloc (self, p, t, STROBE_MEMORY_ALLOC_FROM_REALLOC);
      self->sum.reallocs++;
      break;
    case STROBE_MEMREC_UNTRACKED:
      self->sum.unmatched_frees++;
      thread_state (self, p->thread)->last_alloc_plus1 = 0;
      if (p->realloc)
        thread_state (self, p->thread)->from_realloc = TRUE;
      break;
    case STROBE_MEMREC_MARK:
    case STROBE_MEMREC_UNMARK:
      if (id_lookup (self, id_key (p->ref_thread ? p->ref_thread : p->thread, p->ref_id), &index))
        mark_record (self, index, t, p->kind == STROBE_MEMREC_MARK);
      break;
    case STROBE_MEMREC_FREE_ALL:
      free_all (self, t, p->thread, p->heap);
      break;
    case STROBE_MEMREC_REPLACED:
      {
        guint64 key = id_key (p->ref_thread ? p->ref_thread : p->thread, p->ref_id);
        if (id_take (self, key, &index))
          {
            self->sum.replaced_allocs++;
            end_alloc (self, index, t, p->thread, STROBE_MEMORY_ALLOC_END_UNSEEN);
          }
      }
      break;
    default:
      break;
    }
}

static void orphans_settle (StrobeMemoryModel *self, gboolean all);

/* One decoded record of @thread at @ticks, applied. */
static void
apply_record (const StrobeMemrec *r, guint16 thread, guint64 ticks, gpointer user)
{
  Pending q;

  q.time = ticks;
  q.ref_id = r->ref_id;
  q.id = r->id;
  q.size = r->size;
  q.address = r->address;
  q.heap = r->heap;
  q.tag = r->tag;
  q.stack = r->stack;
  q.thread = thread;
  q.ref_thread = r->ref_thread;
  q.kind = r->kind;
  q.align_log2 = r->align_log2;
  q.realloc = r->realloc;
  q.has_address = r->has_address;
  apply (user, &q);
}

static void
apply_pending (StrobeMemoryModel *self)
{
  if (strobe_memory_round_is_empty (&self->round))
    return;
  strobe_memory_round_drain (&self->round, apply_record, self);
  if (g_hash_table_size (self->orphans))
    orphans_settle (self, FALSE);
}

/* A batch's records are counted (lost ones, duplicates of a batch seen already) as they
 * arrive; a round of one batch — one thread's, the usual case — is applied then, in its
 * own order (which is time order), others are held for the merge at the round's end. */
static void
on_batch (StrobeMemoryModel *self, guint16 thread, guint flags, guint shift, StrobeMemrecState s,
          guint64 dropped, const guint8 *data, gsize len, const guint8 *times, gsize times_len)
{
  ThreadState *ts = thread_state (self, thread);
  gboolean now = (flags & 1u) && strobe_memory_round_is_empty (&self->round);
  guint64 skip_below = ts->seq_known ? ts->next_seq : 0, n = 0;
  StrobeMemrecState first = s;
  StrobeMemrecBatch b;

  if (ts->seq_known && s.seq > ts->next_seq)
    self->sum.lost_records += s.seq - ts->next_seq;
  if (dropped > ts->dropped)
    {
      self->sum.dropped += dropped - ts->dropped;
      ts->dropped = dropped;
    }
  if (!strobe_memrec_batch_init (&b, data, len, times, times_len))
    {
      self->sum.lost_records++;
      return;
    }
  for (;;)
    {
      StrobeMemrec r;
      guint64 seq = s.seq;
      int got = strobe_memrec_batch_next (&b, &s, &r);

      if (got == 0)
        break;
      if (got < 0)
        {
          self->sum.lost_records++;
          break;
        }
      if (seq < skip_below || !strobe_memory_round_applies (r.kind))
        continue;   /* a batch seen already; a time */
      n++;
      if (now)
        apply_record (&r, thread, strobe_memory_units_to_ticks (r.time, shift), self);
    }
  if (!ts->seq_known || s.seq > ts->next_seq)
    ts->next_seq = s.seq;
  ts->seq_known = TRUE;
  if (now)
    {
      if (n && g_hash_table_size (self->orphans))
        orphans_settle (self, FALSE);
      return;
    }
  if (n)
    strobe_memory_round_add (&self->round, thread, shift, &first, skip_below, n, data, len, times, times_len);
  if ((flags & 1u) || self->round.records >= MAX_PENDING)
    apply_pending (self);
}

/* ---- Memory.Live: the live set when the trace began -------------------------------- */

static void
reconcile_one (guint64 key, guint32 space, guint32 value, gpointer user)
{
  StrobeMemoryModel *self = user;
  guint16 thread = (guint16) (key >> 48);
  guint64 id = key & G_GUINT64_CONSTANT (0xffffffffffff);
  ThreadState *ts = g_hash_table_lookup (self->threads, GUINT_TO_POINTER ((guint) thread));
  guint64 *k;

  (void) space;
  if (ts == NULL || !ts->has_watermark || id > ts->watermark
      || !strobe_memory_store_is_live (&self->store, value)
      || strobe_index_bits_has (&self->snapshot_seen, value))
    return;
  k = g_new (guint64, 1);
  *k = key;
  g_hash_table_add (self->absorbed, k);
}

static void
end_absorbed (StrobeMemoryModel *self)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, self->absorbed);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint32 index;
      if (id_take (self, *(guint64 *) key, &index))
        end_alloc (self, index, self->snapshot_time, strobe_memory_store_attrs (&self->store, index)->thread,
                   STROBE_MEMORY_ALLOC_END_UNSEEN);
      else
        g_hash_table_iter_remove (&it);
    }
}

static void
orphans_settle (StrobeMemoryModel *self, gboolean all)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, self->orphans);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint64 k = *(guint64 *) key;
      if (all || !may_arrive (self, (guint16) (k >> 48), k & G_GUINT64_CONSTANT (0xffffffffffff)))
        {
          self->sum.unmatched_frees++;
          g_hash_table_iter_remove (&it);
        }
    }
}

static void
on_live (StrobeMemoryModel *self, guint64 time, guint flags, guint shift, const guint8 *data, gsize len)
{
  const guint8 *p = data, *end = data + len;

  /* Records applied so far come first: the snapshot then sees them. */
  apply_pending (self);
  if ((flags & STROBE_MEMLIVE_FIRST) || !self->in_snapshot)
    {
      strobe_index_bits_clear (&self->snapshot_seen);
      self->in_snapshot = TRUE;
      self->snapshot_time = clamp_time (self, time);
      if (!self->sum.has_snapshot)
        self->sum.snapshot_time = self->snapshot_time;
      self->sum.snapshot_complete = self->sum.snapshot_complete && (flags & STROBE_MEMLIVE_COMPLETE) != 0;
      self->sum.has_snapshot = TRUE;
    }
  while (p < end)
    {
      StrobeMemliveItem it;
      gsize n = strobe_memlive_decode (p, end, &it);
      ThreadState *ts;
      guint64 key;
      guint32 index;

      if (n == 0)
        {
          self->sum.lost_records++;
          break;
        }
      p += n;
      ts = thread_state (self, it.thread);
      if (it.type == STROBE_MEMLIVE_THREAD)
        {
          ts->has_watermark = TRUE;
          ts->watermark = it.id;
          continue;
        }
      key = id_key (it.thread, it.id);
      if (id_lookup (self, key, &index))
        {
          strobe_index_bits_add (&self->snapshot_seen, index);
          continue;
        }
      if (ts->first_id && it.id >= ts->first_id && it.id <= ts->max_id)
        continue;   /* its records came first, and freed it since */
      if (!room (self))
        break;
      index = add_alloc (self, self->snapshot_time, it.thread, it.address, it.size, it.align_log2,
                         it.heap, it.tag, it.stack, STROBE_MEMORY_ALLOC_FROM_SNAPSHOT);
      thread_state (self, it.thread)->last_alloc_plus1 = 0;
      strobe_id_map_insert (&self->by_id, it.thread, it.id, index, NULL);
      strobe_index_bits_add (&self->snapshot_seen, index);
      /* Its record keeps the snapshot's time (records stay in time order, and it counts
       * from the snapshot on); when it was really allocated is kept beside it. */
      if (shift < 64 && it.time <= (G_MAXUINT64 >> shift) && (it.time << shift) < self->snapshot_time)
        {
          StrobeMemoryBorn b = { index, it.time << shift };
          g_array_append_val (self->store.born, b);
        }
      self->sum.snapshot_allocs++;
      apply_orphan (self, key, index, self->snapshot_time);
    }
  if (flags & STROBE_MEMLIVE_LAST)
    {
      /* Live here, not in the snapshot, older than it: freed before it, unseen. */
      strobe_id_map_foreach (&self->by_id, reconcile_one, self);
      end_absorbed (self);
      self->in_snapshot = FALSE;
      strobe_index_bits_clear (&self->snapshot_seen);
      orphans_settle (self, FALSE);
    }
}

/* ---- stacks and modules ------------------------------------------------------------- */

guint
strobe_memory_model_frames_locked (StrobeMemoryModel *self, guint32 id, StrobeMemoryFrame *out, guint max)
{
  return strobe_memory_stacks_frames (&self->stacks, id, out, max);
}

/* ---- the analyzer -------------------------------------------------------------------- */

static void
strobe_memory_model_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_ALLOC, "Memory", "Alloc");
  strobe_analysis_context_subscribe (ctx, ROUTE_FREE, "Memory", "Free");
  strobe_analysis_context_subscribe (ctx, ROUTE_REALLOC_FREE, "Memory", "ReallocFree");
  strobe_analysis_context_subscribe (ctx, ROUTE_REALLOC_ALLOC, "Memory", "ReallocAlloc");
  strobe_analysis_context_subscribe (ctx, ROUTE_HEAP_MARK, "Memory", "HeapMark");
  strobe_analysis_context_subscribe (ctx, ROUTE_HEAP_UNMARK, "Memory", "HeapUnmark");
  strobe_analysis_context_subscribe (ctx, ROUTE_HEAP_FREE_ALL, "Memory", "HeapFreeAll");
  strobe_analysis_context_subscribe (ctx, ROUTE_HEAP_SPEC, "Memory", "HeapSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_TAG_SPEC, "Memory", "TagSpec");
  strobe_analysis_context_subscribe (ctx, ROUTE_CALLSTACK, "Memory", "Callstack");
  strobe_analysis_context_subscribe (ctx, ROUTE_BATCH, "Memory", "Batch");
  strobe_analysis_context_subscribe (ctx, ROUTE_LIVE, "Memory", "Live");
  strobe_analysis_context_subscribe (ctx, ROUTE_STACK_NODES, "Memory", "StackNodes");
  strobe_analysis_context_subscribe (ctx, ROUTE_MODULE, "Memory", "Module");
  strobe_analysis_context_subscribe (ctx, ROUTE_MODULE_UNLOAD, "Memory", "ModuleUnload");
}

static void
strobe_memory_model_end (StrobeAnalyzer *analyzer, const GError *error)
{
  StrobeMemoryModel *self = STROBE_MEMORY_MODEL (analyzer);

  g_mutex_lock (&self->lock);
  apply_pending (self);
  orphans_settle (self, TRUE);
  g_mutex_unlock (&self->lock);
}

static guint32
get_u32 (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  guint64 v = strobe_event_get_uint (ev, acc);

  return v > G_MAXUINT32 ? G_MAXUINT32 : (guint32) v;
}

static void
on_legacy (StrobeMemoryModel *self, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor cycle = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor address = STROBE_FIELD_ACCESSOR_INIT ("Address");
  static StrobeFieldAccessor size = STROBE_FIELD_ACCESSOR_INIT ("Size");
  static StrobeFieldAccessor alignment = STROBE_FIELD_ACCESSOR_INIT ("Alignment");
  static StrobeFieldAccessor heap_id = STROBE_FIELD_ACCESSOR_INIT ("HeapId");
  static StrobeFieldAccessor parent_id = STROBE_FIELD_ACCESSOR_INIT ("ParentId");
  static StrobeFieldAccessor tag = STROBE_FIELD_ACCESSOR_INIT ("Tag");
  static StrobeFieldAccessor callstack = STROBE_FIELD_ACCESSOR_INIT ("CallstackId");
  guint16 thread = ev->thread_id;
  guint64 t = clamp_time (self, strobe_event_get_uint (ev, &cycle));
  ThreadState *ts = thread_state (self, thread);
  guint32 index;

  switch (route)
    {
    case ROUTE_ALLOC:
      legacy_alloc (self, t, thread, strobe_event_get_pointer (ev, &address), strobe_event_get_uint (ev, &size),
                    get_u32 (ev, &alignment), get_u32 (ev, &heap_id), get_u32 (ev, &tag), get_u32 (ev, &callstack), 0);
      break;

    case ROUTE_FREE:
      legacy_free (self, t, thread, strobe_event_get_pointer (ev, &address), get_u32 (ev, &heap_id), 0, &index);
      break;

    case ROUTE_REALLOC_FREE:
      if (ts->pending_realloc_plus1)
        strobe_memory_store_hold (&self->store, ts->pending_realloc_plus1 - 1, FALSE);
      ts->pending_realloc_plus1 = 0;
      if (legacy_free (self, t, thread, strobe_event_get_pointer (ev, &address), get_u32 (ev, &heap_id),
                       STROBE_MEMORY_ALLOC_TO_REALLOC, &index))
        {
          /* A summary store keeps it for the realloc's other half (it may fail). */
          strobe_memory_store_hold (&self->store, index, TRUE);
          ts->pending_realloc_plus1 = index + 1;
        }
      break;

    case ROUTE_REALLOC_ALLOC:
      {
        guint64 p = strobe_event_get_pointer (ev, &address);
        guint64 n = strobe_event_get_uint (ev, &size);
        guint32 pending = ts->pending_realloc_plus1;

        ts->pending_realloc_plus1 = 0;
        if (p != 0)
          {
            /* The tag stays the one the block was first allocated with. */
            guint32 old_tag = pending ? strobe_memory_store_attrs (&self->store, pending - 1)->tag : get_u32 (ev, &tag);
            legacy_alloc (self, t, thread, p, n, get_u32 (ev, &alignment), get_u32 (ev, &heap_id), old_tag,
                          get_u32 (ev, &callstack), STROBE_MEMORY_ALLOC_FROM_REALLOC);
            self->sum.reallocs++;
          }
        else if (n != 0 && pending)
          {
            /* The realloc failed: the old block is still there. */
            StrobeMemoryAlloc old;

            strobe_memory_store_get (&self->store, pending - 1, &old);
            strobe_live_map_insert (&self->by_address, old.address, old.heap, pending - 1, NULL);
            undo_end (self, pending - 1, t);
          }
        if (pending)
          strobe_memory_store_hold (&self->store, pending - 1, FALSE);
      }
      break;

    case ROUTE_HEAP_MARK:
    case ROUTE_HEAP_UNMARK:
      legacy_mark (self, t, strobe_event_get_pointer (ev, &address), get_u32 (ev, &parent_id),
                   route == ROUTE_HEAP_MARK);
      break;

    case ROUTE_HEAP_FREE_ALL:
      free_all (self, t, thread, get_u32 (ev, &heap_id));
      break;

    default:
      break;
    }
}

static gsize
memory_bytes_locked (StrobeMemoryModel *self)
{
  gsize n = strobe_memory_store_bytes (&self->store) + strobe_live_map_bytes (&self->by_address)
            + strobe_id_map_bytes (&self->by_id) + strobe_memory_stacks_bytes (&self->stacks);
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, self->heaps);
  while (g_hash_table_iter_next (&it, NULL, &value))
    n += ((Group *) value)->live ? ((Group *) value)->live->len * sizeof (guint32) : 0;
  return n;
}

/* An event that would add to what the model keeps, once the budget was reached: counted,
 * not read (the memory then stands as at that time, as a trace that ended there). The
 * budget is looked at for each batch and every 256 single reports: its bytes are a sum. */
static gboolean
over_budget (StrobeMemoryModel *self, guint route)
{
  if (G_LIKELY (!self->sum.not_analysed))
    {
      if (route != ROUTE_BATCH && route != ROUTE_LIVE && ++self->budget_tick < 256)
        return FALSE;
      self->budget_tick = 0;
      if (!strobe_memory_budget_over (&self->budget, memory_bytes_locked (self)))
        return FALSE;
      self->sum.not_analysed_from = self->time;
      self->sum.memory_budget = self->budget.bytes;
    }
  self->sum.not_analysed++;
  return TRUE;
}

static void
strobe_memory_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor parent_id = STROBE_FIELD_ACCESSOR_INIT ("ParentId");
  static StrobeFieldAccessor flags = STROBE_FIELD_ACCESSOR_INIT ("Flags");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor frames = STROBE_FIELD_ACCESSOR_INIT ("Frames");
  static StrobeFieldAccessor b_thread = STROBE_FIELD_ACCESSOR_INIT ("Thread");
  static StrobeFieldAccessor b_shift = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor b_seq = STROBE_FIELD_ACCESSOR_INIT ("Seq");
  static StrobeFieldAccessor b_alloc = STROBE_FIELD_ACCESSOR_INIT ("Alloc");
  static StrobeFieldAccessor b_time = STROBE_FIELD_ACCESSOR_INIT ("Time");
  static StrobeFieldAccessor b_heap = STROBE_FIELD_ACCESSOR_INIT ("Heap");
  static StrobeFieldAccessor b_tag = STROBE_FIELD_ACCESSOR_INIT ("Tag");
  static StrobeFieldAccessor b_stack = STROBE_FIELD_ACCESSOR_INIT ("Stack");
  static StrobeFieldAccessor b_dropped = STROBE_FIELD_ACCESSOR_INIT ("Dropped");
  static StrobeFieldAccessor b_data = STROBE_FIELD_ACCESSOR_INIT ("Data");
  static StrobeFieldAccessor b_times = STROBE_FIELD_ACCESSOR_INIT ("Times");
  static StrobeFieldAccessor b_first = STROBE_FIELD_ACCESSOR_INIT ("First");
  StrobeMemoryModel *self = STROBE_MEMORY_MODEL (analyzer);

  strobe_memory_store_write_lock (&self->store);
  /* The routes that add allocations: the single reports (the enum's first seven), batches
   * and the live table. */
  if ((route <= ROUTE_HEAP_FREE_ALL || route == ROUTE_BATCH || route == ROUTE_LIVE) && over_budget (self, route))
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  switch (route)
    {
    case ROUTE_ALLOC:
    case ROUTE_FREE:
    case ROUTE_REALLOC_FREE:
    case ROUTE_REALLOC_ALLOC:
    case ROUTE_HEAP_MARK:
    case ROUTE_HEAP_UNMARK:
    case ROUTE_HEAP_FREE_ALL:
      on_legacy (self, route, ev);
      break;

    case ROUTE_HEAP_SPEC:
    case ROUTE_TAG_SPEC:
      {
        Group *g = route == ROUTE_HEAP_SPEC ? heap_get (self, get_u32 (ev, &id)) : tag_get (self, get_u32 (ev, &id));
        g_free ((char *) g->pub.name);
        g->pub.name = strobe_event_get_string (ev, &name);
        g->pub.parent = get_u32 (ev, &parent_id);
        g->pub.flags = route == ROUTE_HEAP_SPEC ? get_u32 (ev, &flags) : 0;
      }
      break;

    case ROUTE_CALLSTACK:
      {
        guint8 elem;
        gsize n = 0, len = 0;
        const guint8 *data = strobe_event_get_array (ev, &frames, &elem, &n);

        strobe_event_get_aux (ev, &frames, &len);
        strobe_memory_stacks_add_legacy (&self->stacks, get_u32 (ev, &id), data, n, n ? len / n : 8);
      }
      break;

    case ROUTE_BATCH:
      {
        StrobeMemrecState s;

        self->batches = TRUE;
        guint8 elem;
        gsize n = 0;
        const guint8 *data = strobe_event_get_array (ev, &b_data, &elem, &n);
        gsize tn = 0;
        const guint8 *times = strobe_event_get_array (ev, &b_times, &elem, &tn);
        guint64 thread = strobe_event_get_uint (ev, &b_thread);

        s.seq = strobe_event_get_uint (ev, &b_seq);
        s.alloc = strobe_event_get_uint (ev, &b_alloc);
        s.time = strobe_event_get_uint (ev, &b_time);
        s.heap = get_u32 (ev, &b_heap);
        s.tag = get_u32 (ev, &b_tag);
        s.stack = get_u32 (ev, &b_stack);
        if (times == NULL)
          tn = 0;
        if (thread <= G_MAXUINT16 && (data || n == 0))
          on_batch (self, (guint16) thread, (guint) strobe_event_get_uint (ev, &flags),
                    (guint) strobe_event_get_uint (ev, &b_shift), s, strobe_event_get_uint (ev, &b_dropped),
                    data, n, times, tn);
      }
      break;

    case ROUTE_LIVE:
      {
        guint8 elem;
        gsize n = 0;
        const guint8 *data = strobe_event_get_array (ev, &b_data, &elem, &n);

        on_live (self, strobe_event_get_uint (ev, &b_time), (guint) strobe_event_get_uint (ev, &flags),
                 (guint) strobe_event_get_uint (ev, &b_shift), data, data ? n : 0);
      }
      break;

    case ROUTE_STACK_NODES:
      {
        guint8 elem;
        gsize n = 0;
        const guint8 *data = strobe_event_get_array (ev, &b_data, &elem, &n);

        if (data)
          self->sum.stacks += strobe_memory_stacks_add_nodes (&self->stacks, strobe_event_get_uint (ev, &b_first),
                                                              data, n);
      }
      break;

    case ROUTE_MODULE:
      strobe_memory_stacks_add_module (&self->stacks, ev);
      break;

    case ROUTE_MODULE_UNLOAD:
      strobe_memory_stacks_unload_module (&self->stacks, get_u32 (ev, &id));
      break;

    default:
      break;
    }
  self->generation++;
  g_mutex_unlock (&self->lock);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = strobe_memory_model_begin;
  iface->on_event = strobe_memory_model_on_event;
  iface->end = strobe_memory_model_end;
}

/* ---- the store: what the queries (strobe-memory-query.c) read ------------------------- */

void
strobe_memory_model_get_store (StrobeMemoryModel *self, StrobeMemoryStore *s)
{
  *s = self->store;
}

void
strobe_memory_model_peak_locked (StrobeMemoryModel *self, StrobeMemoryPeak *out)
{
  *out = self->peak;
  out->bytes = self->sum.peak_bytes;
  out->time = self->sum.peak_time;
}

void
strobe_memory_model_get_summary (StrobeMemoryModel *self, StrobeMemorySummary *out)
{
  g_return_if_fail (STROBE_IS_MEMORY_MODEL (self));
  g_return_if_fail (out != NULL);
  g_mutex_lock (&self->lock);
  *out = self->sum;
  /* A trace by ids always starts with a snapshot; one that did not say it was complete
   * (or that has none) cannot know what was live before it. */
  out->partial = self->batches && (!self->sum.has_snapshot || !self->sum.snapshot_complete);
  g_mutex_unlock (&self->lock);
}

void
strobe_memory_model_get_totals_at (StrobeMemoryModel *self, guint64 t, gint64 *bytes, gint64 *count)
{
  StrobeMemoryStore s;

  g_return_if_fail (STROBE_IS_MEMORY_MODEL (self) && !self->store.slots);
  g_mutex_lock (&self->lock);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_totals_at (&s, t, bytes, count);
  g_mutex_unlock (&self->lock);
}

guint
strobe_memory_model_get_series (StrobeMemoryModel *self, guint64 a, guint64 b, guint n,
                                StrobeMemorySample *out)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);
  if (n == 0 || b <= a || self->store.slots)
    return 0;
  g_mutex_lock (&self->lock);
  n = strobe_memory_overview_series (&self->overview, &self->store, a, b, n, out);
  g_mutex_unlock (&self->lock);
  return n;
}

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const StrobeMemoryGroup *ga = *(const StrobeMemoryGroup *const *) a;
  const StrobeMemoryGroup *gb = *(const StrobeMemoryGroup *const *) b;

  return ga->id < gb->id ? -1 : ga->id > gb->id;
}

static void
group_copy_free (gpointer data)
{
  StrobeMemoryGroup *g = data;

  g_free ((char *) g->name);
  g_free (g);
}

static GPtrArray *
copy_groups (StrobeMemoryModel *self, GHashTable *table)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (group_copy_free);
  GHashTableIter it;
  gpointer value;

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      StrobeMemoryGroup *g = g_memdup2 (&((Group *) value)->pub, sizeof *g);
      g->name = g_strdup (g->name);
      g_ptr_array_add (out, g);
    }
  g_mutex_unlock (&self->lock);
  g_ptr_array_sort (out, compare_groups);
  return out;
}

GPtrArray *
strobe_memory_model_get_tags (StrobeMemoryModel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  return copy_groups (self, self->tags);
}

GPtrArray *
strobe_memory_model_get_heaps (StrobeMemoryModel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  return copy_groups (self, self->heaps);
}

static char *
group_name (StrobeMemoryModel *self, GHashTable *table, guint32 id)
{
  Group *g;
  char *name;

  g_mutex_lock (&self->lock);
  g = g_hash_table_lookup (table, GUINT_TO_POINTER (id));
  name = g ? g_strdup (g->pub.name) : NULL;
  g_mutex_unlock (&self->lock);
  return name;
}

char *
strobe_memory_model_get_tag_name (StrobeMemoryModel *self, guint32 id)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  return group_name (self, self->tags, id);
}

char *
strobe_memory_model_get_heap_name (StrobeMemoryModel *self, guint32 id)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  return group_name (self, self->heaps, id);
}

guint
strobe_memory_model_get_frames (StrobeMemoryModel *self, guint32 id, StrobeMemoryFrame *out, guint max)
{
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_return_val_if_fail (max == 0 || out != NULL, 0);
  g_mutex_lock (&self->lock);
  n = strobe_memory_stacks_frames (&self->stacks, id, out, max);
  g_mutex_unlock (&self->lock);
  return n;
}

GPtrArray *
strobe_memory_model_get_modules (StrobeMemoryModel *self)
{
  GPtrArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), g_ptr_array_new ());
  g_mutex_lock (&self->lock);
  out = strobe_memory_stacks_copy_modules (&self->stacks);
  g_mutex_unlock (&self->lock);
  return out;
}

guint64
strobe_memory_model_get_generation (StrobeMemoryModel *self)
{
  guint64 v;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  v = self->generation;
  g_mutex_unlock (&self->lock);
  return v;
}

gsize
strobe_memory_model_get_memory_bytes (StrobeMemoryModel *self)
{
  gsize n;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = memory_bytes_locked (self);
  g_mutex_unlock (&self->lock);
  return n;
}

/* ---- lifetime ------------------------------------------------------------------------ */

StrobeMemoryModel *
strobe_memory_model_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_MODEL, NULL);
}

StrobeMemoryModel *
strobe_memory_model_new_summary (void)
{
  StrobeMemoryModel *self = strobe_memory_model_new ();

  strobe_memory_store_set_summary (&self->store);
  return self;
}

gboolean
strobe_memory_model_is_summary (StrobeMemoryModel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), FALSE);
  return self->store.slots != NULL;
}

static void
strobe_memory_model_finalize (GObject *object)
{
  StrobeMemoryModel *self = STROBE_MEMORY_MODEL (object);

  strobe_memory_store_clear (&self->store);
  strobe_live_map_clear (&self->by_address);
  strobe_id_map_clear (&self->by_id);
  g_hash_table_unref (self->heaps);
  g_hash_table_unref (self->tags);
  g_hash_table_unref (self->threads);
  strobe_memory_stacks_clear (&self->stacks);
  strobe_memory_round_clear (&self->round);
  g_hash_table_unref (self->orphans);
  strobe_index_bits_clear (&self->snapshot_seen);
  g_hash_table_unref (self->absorbed);
  strobe_memory_overview_clear (&self->overview);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (strobe_memory_model_parent_class)->finalize (object);
}

static void
strobe_memory_model_class_init (StrobeMemoryModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_model_finalize;
}

static void
strobe_memory_model_init (StrobeMemoryModel *self)
{
  g_mutex_init (&self->lock);
  strobe_memory_store_init (&self->store, &self->lock, &self->sum, &self->stacks);
  strobe_live_map_init (&self->by_address);
  strobe_id_map_init (&self->by_id);
  self->heaps = g_hash_table_new_full (NULL, NULL, NULL, group_free);
  self->tags = g_hash_table_new_full (NULL, NULL, NULL, group_free);
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  strobe_memory_stacks_init (&self->stacks);
  strobe_memory_round_init (&self->round);
  self->orphans = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->absorbed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  strobe_memory_overview_init (&self->overview);
  self->sum.snapshot_complete = TRUE;
  strobe_memory_budget_init (&self->budget, 0);
}

void
strobe_memory_model_set_memory_budget (StrobeMemoryModel *self, guint64 bytes)
{
  g_return_if_fail (STROBE_IS_MEMORY_MODEL (self));
  g_mutex_lock (&self->lock);
  strobe_memory_budget_init (&self->budget, bytes ? bytes : G_MAXUINT64);
  g_mutex_unlock (&self->lock);
}
