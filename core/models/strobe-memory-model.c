/* strobe-memory-model.c — allocation records, a live-address hash, a free log and a
 * two-level max-free-time index.
 *
 * Layout (see README.md):
 * - records: StrobeMemoryAlloc in allocation order = time order (times are clamped);
 *   cum_alloc[i] = bytes allocated by records 0..i.
 * - free log: one entry per event that removes bytes or allocations from "live" (a free,
 *   the freeing half of a realloc, a HeapMark; a HeapUnmark adds back), in time order,
 *   with running totals of bytes and allocations removed. Live totals at T are then two
 *   binary searches: cum_alloc up to T minus the free log up to T.
 * - live map: open addressing (linear probing, backward-shift deletion) from
 *   (address, heap) to the live record.
 * - max index: the largest free_time of each group of 32 records and of each block of
 *   1024; "live at T among records [lo, hi)" skips every group whose max is <= T, so it
 *   costs about the answer (times 32 at worst), not the trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-model.h"

#include <string.h>

#define GROUP        32
#define BLOCK        1024
#define OVERVIEW_MAX 4096

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
};

typedef struct
{
  guint64 time;
  gint64  cum_bytes;    /* bytes removed from live up to and including this entry */
  gint64  cum_count;
  guint32 record;
  guint32 kind;         /* 0 free, 1 mark, 2 unmark */
} FreeEntry;

typedef struct
{
  guint64 address;
  guint32 heap;
  guint32 record;       /* + 1; 0: empty */
} Slot;

typedef struct
{
  gint64 min_bytes, max_bytes, last_bytes, last_count;
  gboolean used;
} Bucket;

typedef struct
{
  guint32 record_plus1;   /* the thread's last allocation, for "temporary" */
  guint32 pending_realloc_plus1;
  guint64 pending_realloc_size;
} ThreadState;

struct _StrobeMemoryModel
{
  GObject      parent_instance;

  GMutex       lock;
  GArray      *records;      /* StrobeMemoryAlloc */
  GArray      *cum_alloc;    /* gint64 */
  GArray      *free_log;     /* FreeEntry */
  GArray      *group_max;    /* guint64 per GROUP records */
  GArray      *block_max;    /* guint64 per BLOCK records */
  Slot        *slots;
  gsize        slot_cap;     /* power of two */
  gsize        slot_count;
  GHashTable  *heaps;        /* id → StrobeMemoryGroup */
  GHashTable  *tags;
  GHashTable  *callstacks;   /* id → GArray of guint64 */
  GHashTable  *threads;      /* id → ThreadState */
  StrobeMemorySummary sum;
  guint64      time;         /* clamped time of the last event */
  gboolean     have_time;
  /* Overview series: buckets of 2^shift ticks from overview_origin. */
  Bucket      *overview;
  guint        overview_shift;
  guint64      overview_origin;
  guint64      generation;   /* bumped by every event */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeMemoryModel, strobe_memory_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

/* ---- the live map ------------------------------------------------------------------ */

static inline gsize
slot_hash (guint64 address, guint32 heap)
{
  guint64 h = (address ^ ((guint64) heap << 47)) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (gsize) (h >> 20);
}

static Slot *
map_find (StrobeMemoryModel *self, guint64 address, guint32 heap)
{
  gsize mask = self->slot_cap - 1;

  for (gsize i = slot_hash (address, heap) & mask;; i = (i + 1) & mask)
    {
      Slot *s = &self->slots[i];
      if (s->record == 0)
        return NULL;
      if (s->address == address && s->heap == heap)
        return s;
    }
}

static void map_insert (StrobeMemoryModel *self, guint64 address, guint32 heap, guint32 record);

static void
map_grow (StrobeMemoryModel *self)
{
  Slot *old = self->slots;
  gsize old_cap = self->slot_cap;

  self->slot_cap = old_cap ? old_cap * 2 : 1024;
  self->slots = g_new0 (Slot, self->slot_cap);
  self->slot_count = 0;
  for (gsize i = 0; i < old_cap; i++)
    if (old[i].record)
      map_insert (self, old[i].address, old[i].heap, old[i].record - 1);
  g_free (old);
}

static void
map_insert (StrobeMemoryModel *self, guint64 address, guint32 heap, guint32 record)
{
  gsize mask;
  gsize i;

  if ((self->slot_count + 1) * 4 > self->slot_cap * 3)
    map_grow (self);
  mask = self->slot_cap - 1;
  for (i = slot_hash (address, heap) & mask; self->slots[i].record; i = (i + 1) & mask)
    ;
  self->slots[i].address = address;
  self->slots[i].heap = heap;
  self->slots[i].record = record + 1;
  self->slot_count++;
}

/* Backward-shift deletion: no tombstones, probes stay short. */
static void
map_remove (StrobeMemoryModel *self, Slot *s)
{
  gsize mask = self->slot_cap - 1;
  gsize i = (gsize) (s - self->slots), j = i;

  for (;;)
    {
      gsize k;

      j = (j + 1) & mask;
      if (self->slots[j].record == 0)
        break;
      k = slot_hash (self->slots[j].address, self->slots[j].heap) & mask;
      /* Move j back to i unless its home k lies cyclically in (i, j]. */
      if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      self->slots[i] = self->slots[j];
      i = j;
    }
  self->slots[i].record = 0;
  self->slot_count--;
}

/* ---- groups (heaps, tags) ------------------------------------------------------------ */

static StrobeMemoryGroup *
group_get (GHashTable *table, guint32 id)
{
  StrobeMemoryGroup *g = g_hash_table_lookup (table, GUINT_TO_POINTER (id));

  if (g == NULL)
    {
      g = g_new0 (StrobeMemoryGroup, 1);
      g->id = id;
      g_hash_table_insert (table, GUINT_TO_POINTER (id), g);
    }
  return g;
}

static void
group_free (gpointer data)
{
  StrobeMemoryGroup *g = data;

  g_free ((char *) g->name);
  g_free (g);
}

static void
group_add (StrobeMemoryGroup *g, gint64 bytes, gint64 count)
{
  g->live_bytes += bytes;
  g->live_count += count;
  if (g->live_bytes > g->peak_live_bytes)
    g->peak_live_bytes = g->live_bytes;
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
      self->overview_origin = t;
    }
  if (t < self->time)
    t = self->time;
  self->time = t;
  self->sum.last_time = t;
  return t;
}

static void
overview_note (StrobeMemoryModel *self, guint64 t)
{
  guint64 b = (t - self->overview_origin) >> self->overview_shift;
  Bucket *k;

  while (b >= OVERVIEW_MAX)
    {
      /* Halve the resolution: merge pairs. */
      for (guint i = 0; i < OVERVIEW_MAX / 2; i++)
        {
          Bucket *x = &self->overview[2 * i], *y = &self->overview[2 * i + 1], m;

          if (x->used && y->used)
            {
              m.min_bytes = MIN (x->min_bytes, y->min_bytes);
              m.max_bytes = MAX (x->max_bytes, y->max_bytes);
              m.last_bytes = y->last_bytes;
              m.last_count = y->last_count;
              m.used = TRUE;
            }
          else
            m = y->used ? *y : *x;
          self->overview[i] = m;
        }
      memset (self->overview + OVERVIEW_MAX / 2, 0, sizeof (Bucket) * (OVERVIEW_MAX / 2));
      self->overview_shift++;
      b = (t - self->overview_origin) >> self->overview_shift;
    }
  k = &self->overview[b];
  if (!k->used)
    {
      k->used = TRUE;
      k->min_bytes = k->max_bytes = self->sum.live_bytes;
    }
  k->min_bytes = MIN (k->min_bytes, self->sum.live_bytes);
  k->max_bytes = MAX (k->max_bytes, self->sum.live_bytes);
  k->last_bytes = self->sum.live_bytes;
  k->last_count = self->sum.live_count;
}

static void
live_changed (StrobeMemoryModel *self, guint64 t)
{
  if (self->sum.live_bytes > self->sum.peak_bytes)
    {
      self->sum.peak_bytes = self->sum.live_bytes;
      self->sum.peak_time = t;
    }
  overview_note (self, t);
}

static ThreadState *
thread_state (StrobeMemoryModel *self, guint16 id)
{
  ThreadState *ts = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (id));

  if (ts == NULL)
    {
      ts = g_new0 (ThreadState, 1);
      g_hash_table_insert (self->threads, GUINT_TO_POINTER (id), ts);
    }
  return ts;
}

static void
index_update (StrobeMemoryModel *self, guint32 record)
{
  const StrobeMemoryAlloc *r = &g_array_index (self->records, StrobeMemoryAlloc, 0);
  guint n = self->records->len;
  guint g = record / GROUP, b = record / BLOCK;
  guint64 m = 0;

  for (guint i = g * GROUP; i < MIN (n, (g + 1) * GROUP); i++)
    m = MAX (m, r[i].free_time);
  g_array_index (self->group_max, guint64, g) = m;
  m = 0;
  for (guint i = b * (BLOCK / GROUP); i < MIN (self->group_max->len, (b + 1) * (BLOCK / GROUP)); i++)
    m = MAX (m, g_array_index (self->group_max, guint64, i));
  g_array_index (self->block_max, guint64, b) = m;
}

static void
log_removal (StrobeMemoryModel *self, guint64 t, guint32 record, gint64 bytes, gint64 count, guint32 kind)
{
  FreeEntry e = { t, bytes, count, record, kind };

  if (self->free_log->len)
    {
      const FreeEntry *last = &g_array_index (self->free_log, FreeEntry, self->free_log->len - 1);
      e.cum_bytes += last->cum_bytes;
      e.cum_count += last->cum_count;
    }
  g_array_append_val (self->free_log, e);
}

static void end_alloc (StrobeMemoryModel *self, guint32 index, guint64 t, guint16 thread, guint8 flag);

static guint32
add_alloc (StrobeMemoryModel *self, guint64 t, guint16 thread, guint64 address, guint64 size,
           guint32 alignment, guint32 heap, guint32 tag, guint32 callstack, guint8 flags)
{
  StrobeMemoryAlloc r = { 0 };
  guint32 index = self->records->len;
  gint64 cum = size;
  guint64 live = STROBE_MEMORY_LIVE;
  Slot *old = map_find (self, address, heap);
  StrobeMemoryGroup *g;

  if (old)
    {
      /* A missed free (the trace lost it, or the program freed outside the channel). */
      self->sum.replaced_allocs++;
      end_alloc (self, old->record - 1, t, thread, 0);
      map_remove (self, old);
    }
  r.alloc_time = t;
  r.free_time = STROBE_MEMORY_LIVE;
  r.address = address;
  r.size = size;
  r.heap = heap;
  r.tag = tag;
  r.callstack = callstack;
  r.thread_id = thread;
  r.alignment_log2 = alignment ? (guint8) (63 - __builtin_clzll (alignment)) : 0;
  r.flags = flags;
  g_array_append_val (self->records, r);
  if (index)
    cum += g_array_index (self->cum_alloc, gint64, index - 1);
  g_array_append_val (self->cum_alloc, cum);
  if (index % GROUP == 0)
    g_array_append_val (self->group_max, live);
  else
    g_array_index (self->group_max, guint64, index / GROUP) = live;
  if (index % BLOCK == 0)
    g_array_append_val (self->block_max, live);
  else
    g_array_index (self->block_max, guint64, index / BLOCK) = live;
  map_insert (self, address, heap, index);

  self->sum.allocs++;
  self->sum.bytes_allocated += size;
  self->sum.live_bytes += (gint64) size;
  self->sum.live_count++;
  self->sum.histogram_count[size_bucket (size)]++;
  self->sum.histogram_bytes[size_bucket (size)] += size;
  g = group_get (self->heaps, heap);
  g->allocs++;
  g->bytes_allocated += size;
  group_add (g, (gint64) size, 1);
  g = group_get (self->tags, tag);
  g->allocs++;
  g->bytes_allocated += size;
  group_add (g, (gint64) size, 1);
  thread_state (self, thread)->record_plus1 = index + 1;
  live_changed (self, t);
  return index;
}

/* Ends record @index at @t (the caller removes it from the map). */
static void
end_alloc (StrobeMemoryModel *self, guint32 index, guint64 t, guint16 thread, guint8 flag)
{
  StrobeMemoryAlloc *r = &g_array_index (self->records, StrobeMemoryAlloc, index);
  gint64 bytes = (r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : (gint64) r->size;
  ThreadState *ts = thread_state (self, thread);
  StrobeMemoryGroup *g;

  r->free_time = t;
  r->flags |= flag;
  if (ts->record_plus1 == index + 1 && r->thread_id == thread && !(flag & STROBE_MEMORY_ALLOC_HEAP_RESET))
    {
      r->flags |= STROBE_MEMORY_ALLOC_TEMPORARY;
      self->sum.temporary++;
    }
  index_update (self, index);
  log_removal (self, t, index, bytes, 1, 0);
  self->sum.frees++;
  self->sum.live_bytes -= bytes;
  self->sum.live_count--;
  g = group_get (self->heaps, r->heap);
  g->frees++;
  group_add (g, -bytes, -1);
  if (r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK)
    g->reserved_bytes -= (gint64) r->size;
  g = group_get (self->tags, r->tag);
  g->frees++;
  group_add (g, -bytes, -1);
  live_changed (self, t);
}

static gboolean
free_address (StrobeMemoryModel *self, guint64 t, guint16 thread, guint64 address, guint32 heap,
              guint8 flag, guint32 *index)
{
  Slot *s = map_find (self, address, heap);

  if (s == NULL)
    {
      self->sum.unmatched_frees++;
      return FALSE;
    }
  *index = s->record - 1;
  map_remove (self, s);
  end_alloc (self, *index, t, thread, flag);
  return TRUE;
}

static void
mark (StrobeMemoryModel *self, guint64 t, guint64 address, guint32 parent, gboolean on)
{
  Slot *s = map_find (self, address, parent);
  StrobeMemoryAlloc *r;
  gint64 bytes;

  if (s == NULL)
    return;
  r = &g_array_index (self->records, StrobeMemoryAlloc, s->record - 1);
  if (((r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) != 0) == on)
    return;
  bytes = on ? (gint64) r->size : -(gint64) r->size;
  r->flags ^= STROBE_MEMORY_ALLOC_HEAP_BLOCK;
  log_removal (self, t, s->record - 1, bytes, 0, on ? 1 : 2);
  self->sum.live_bytes -= bytes;
  group_add (group_get (self->heaps, parent), -bytes, 0);
  group_get (self->heaps, parent)->reserved_bytes += bytes;
  group_add (group_get (self->tags, r->tag), -bytes, 0);
  live_changed (self, t);
}

static void
free_all (StrobeMemoryModel *self, guint64 t, guint16 thread, guint32 heap)
{
  GArray *victims = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (gsize i = 0; i < self->slot_cap; i++)
    if (self->slots[i].record && self->slots[i].heap == heap)
      g_array_append_val (victims, self->slots[i].address);
  for (guint i = 0; i < victims->len; i++)
    {
      guint32 index;
      free_address (self, t, thread, g_array_index (victims, guint64, i), heap,
                    STROBE_MEMORY_ALLOC_HEAP_RESET, &index);
    }
  g_array_unref (victims);
}

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
}

static void
strobe_memory_model_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor cycle = STROBE_FIELD_ACCESSOR_INIT ("Cycle");
  static StrobeFieldAccessor address = STROBE_FIELD_ACCESSOR_INIT ("Address");
  static StrobeFieldAccessor old_address = STROBE_FIELD_ACCESSOR_INIT ("OldAddress");
  static StrobeFieldAccessor size = STROBE_FIELD_ACCESSOR_INIT ("Size");
  static StrobeFieldAccessor alignment = STROBE_FIELD_ACCESSOR_INIT ("Alignment");
  static StrobeFieldAccessor heap_id = STROBE_FIELD_ACCESSOR_INIT ("HeapId");
  static StrobeFieldAccessor parent_id = STROBE_FIELD_ACCESSOR_INIT ("ParentId");
  static StrobeFieldAccessor tag = STROBE_FIELD_ACCESSOR_INIT ("Tag");
  static StrobeFieldAccessor callstack = STROBE_FIELD_ACCESSOR_INIT ("CallstackId");
  static StrobeFieldAccessor id = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor flags = STROBE_FIELD_ACCESSOR_INIT ("Flags");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor frames = STROBE_FIELD_ACCESSOR_INIT ("Frames");
  StrobeMemoryModel *self = STROBE_MEMORY_MODEL (analyzer);
  guint16 thread = ev->thread_id;
  guint32 index;

  g_mutex_lock (&self->lock);
  switch (route)
    {
    case ROUTE_ALLOC:
      add_alloc (self, clamp_time (self, strobe_event_get_uint (ev, &cycle)), thread,
                 strobe_event_get_pointer (ev, &address), strobe_event_get_uint (ev, &size),
                 (guint32) strobe_event_get_uint (ev, &alignment), (guint32) strobe_event_get_uint (ev, &heap_id),
                 (guint32) strobe_event_get_uint (ev, &tag), (guint32) strobe_event_get_uint (ev, &callstack), 0);
      break;

    case ROUTE_FREE:
      free_address (self, clamp_time (self, strobe_event_get_uint (ev, &cycle)), thread,
                    strobe_event_get_pointer (ev, &address), (guint32) strobe_event_get_uint (ev, &heap_id),
                    0, &index);
      break;

    case ROUTE_REALLOC_FREE:
      {
        ThreadState *ts = thread_state (self, thread);
        guint64 t = clamp_time (self, strobe_event_get_uint (ev, &cycle));

        ts->pending_realloc_plus1 = 0;
        /* Not "temporary": the block lives on in its new place. */
        ts->record_plus1 = 0;
        if (free_address (self, t, thread, strobe_event_get_pointer (ev, &address),
                          (guint32) strobe_event_get_uint (ev, &heap_id), STROBE_MEMORY_ALLOC_TO_REALLOC, &index))
          ts->pending_realloc_plus1 = index + 1;
      }
      break;

    case ROUTE_REALLOC_ALLOC:
      {
        ThreadState *ts = thread_state (self, thread);
        guint64 t = clamp_time (self, strobe_event_get_uint (ev, &cycle));
        guint64 p = strobe_event_get_pointer (ev, &address);
        guint64 n = strobe_event_get_uint (ev, &size);
        guint32 pending = ts->pending_realloc_plus1;
        guint32 h = (guint32) strobe_event_get_uint (ev, &heap_id);

        ts->pending_realloc_plus1 = 0;
        if (p != 0)
          {
            const StrobeMemoryAlloc *old = pending ? &g_array_index (self->records, StrobeMemoryAlloc, pending - 1) : NULL;
            /* The tag stays the one the block was first allocated with. */
            add_alloc (self, t, thread, p, n, (guint32) strobe_event_get_uint (ev, &alignment), h,
                       old ? old->tag : (guint32) strobe_event_get_uint (ev, &tag),
                       (guint32) strobe_event_get_uint (ev, &callstack), STROBE_MEMORY_ALLOC_FROM_REALLOC);
            self->sum.reallocs++;
          }
        else if (n != 0 && pending)
          {
            /* The realloc failed: the old block is still there. Undo its end. */
            StrobeMemoryAlloc *old = &g_array_index (self->records, StrobeMemoryAlloc, pending - 1);
            guint64 old_addr = old->address;

            (void) old_address;
            map_insert (self, old_addr, old->heap, pending - 1);
            old->free_time = STROBE_MEMORY_LIVE;
            old->flags &= (guint8) ~STROBE_MEMORY_ALLOC_TO_REALLOC;
            index_update (self, pending - 1);
            log_removal (self, t, pending - 1, -(gint64) old->size, -1, 2);
            self->sum.frees--;
            self->sum.live_bytes += (gint64) old->size;
            self->sum.live_count++;
            group_get (self->heaps, old->heap)->frees--;
            group_add (group_get (self->heaps, old->heap), (gint64) old->size, 1);
            group_get (self->tags, old->tag)->frees--;
            group_add (group_get (self->tags, old->tag), (gint64) old->size, 1);
            live_changed (self, t);
          }
      }
      break;

    case ROUTE_HEAP_MARK:
    case ROUTE_HEAP_UNMARK:
      mark (self, clamp_time (self, strobe_event_get_uint (ev, &cycle)), strobe_event_get_pointer (ev, &address),
            (guint32) strobe_event_get_uint (ev, &parent_id), route == ROUTE_HEAP_MARK);
      break;

    case ROUTE_HEAP_FREE_ALL:
      free_all (self, clamp_time (self, strobe_event_get_uint (ev, &cycle)), thread,
                (guint32) strobe_event_get_uint (ev, &heap_id));
      break;

    case ROUTE_HEAP_SPEC:
    case ROUTE_TAG_SPEC:
      {
        StrobeMemoryGroup *g = group_get (route == ROUTE_HEAP_SPEC ? self->heaps : self->tags,
                                          (guint32) strobe_event_get_uint (ev, &id));
        g_free ((char *) g->name);
        g->name = strobe_event_get_string (ev, &name);
        g->parent = (guint32) strobe_event_get_uint (ev, &parent_id);
        g->flags = route == ROUTE_HEAP_SPEC ? (guint32) strobe_event_get_uint (ev, &flags) : 0;
      }
      break;

    case ROUTE_CALLSTACK:
      {
        guint8 elem;
        gsize n = 0, len = 0;
        const guint8 *data = strobe_event_get_array (ev, &frames, &elem, &n);
        gsize esize;
        GArray *f = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) n);

        strobe_event_get_aux (ev, &frames, &len);
        esize = n ? len / n : 8;
        for (gsize i = 0; i < n && (esize == 4 || esize == 8); i++)
          {
            guint64 v = 0;
            if (esize == 4)
              {
                guint32 w;
                memcpy (&w, data + i * 4, 4);
                v = GUINT32_FROM_LE (w);
              }
            else
              memcpy (&v, data + i * 8, 8), v = GUINT64_FROM_LE (v);
            g_array_append_val (f, v);
          }
        g_hash_table_replace (self->callstacks, GUINT_TO_POINTER ((guint32) strobe_event_get_uint (ev, &id)), f);
      }
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
}

/* ---- queries ------------------------------------------------------------------------ */

/* Records allocated at or before @t. */
static guint64
allocs_upto (StrobeMemoryModel *self, guint64 t)
{
  guint64 lo = 0, hi = self->records->len;
  const StrobeMemoryAlloc *r = (const StrobeMemoryAlloc *) (void *) self->records->data;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (r[mid].alloc_time <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Free-log entries at or before @t. */
static guint64
frees_upto (StrobeMemoryModel *self, guint64 t)
{
  guint64 lo = 0, hi = self->free_log->len;
  const FreeEntry *e = (const FreeEntry *) (void *) self->free_log->data;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (e[mid].time <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
totals_at_locked (StrobeMemoryModel *self, guint64 t, gint64 *bytes, gint64 *count)
{
  guint64 k = allocs_upto (self, t), j = frees_upto (self, t);
  gint64 b = k ? g_array_index (self->cum_alloc, gint64, k - 1) : 0;
  gint64 c = (gint64) k;

  if (j)
    {
      const FreeEntry *e = &g_array_index (self->free_log, FreeEntry, j - 1);
      b -= e->cum_bytes;
      c -= e->cum_count;
    }
  if (bytes)
    *bytes = b;
  if (count)
    *count = c;
}

/* Indexes in [lo, hi) with free_time > t, using the max index. */
static GArray *
live_among (StrobeMemoryModel *self, guint64 lo, guint64 hi, guint64 t)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  const StrobeMemoryAlloc *r = (const StrobeMemoryAlloc *) (void *) self->records->data;
  const guint64 *gmax = (const guint64 *) (void *) self->group_max->data;
  const guint64 *bmax = (const guint64 *) (void *) self->block_max->data;
  guint64 i = lo;

  while (i < hi)
    {
      if (i % BLOCK == 0 && i + BLOCK <= hi && bmax[i / BLOCK] <= t)
        {
          i += BLOCK;
          continue;
        }
      if (i % GROUP == 0 && i + GROUP <= hi && gmax[i / GROUP] <= t)
        {
          i += GROUP;
          continue;
        }
      if (r[i].free_time > t)
        g_array_append_val (out, i);
      i++;
    }
  return out;
}

void
strobe_memory_model_get_summary (StrobeMemoryModel *self, StrobeMemorySummary *out)
{
  g_return_if_fail (STROBE_IS_MEMORY_MODEL (self));
  g_mutex_lock (&self->lock);
  *out = self->sum;
  g_mutex_unlock (&self->lock);
}

guint64
strobe_memory_model_get_count (StrobeMemoryModel *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_mutex_lock (&self->lock);
  n = self->records->len;
  g_mutex_unlock (&self->lock);
  return n;
}

gboolean
strobe_memory_model_get_alloc (StrobeMemoryModel *self, guint64 index, StrobeMemoryAlloc *out)
{
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), FALSE);
  g_mutex_lock (&self->lock);
  ok = index < self->records->len;
  if (ok)
    *out = g_array_index (self->records, StrobeMemoryAlloc, index);
  g_mutex_unlock (&self->lock);
  return ok;
}

void
strobe_memory_model_get_totals_at (StrobeMemoryModel *self, guint64 t, gint64 *bytes, gint64 *count)
{
  g_return_if_fail (STROBE_IS_MEMORY_MODEL (self));
  g_mutex_lock (&self->lock);
  totals_at_locked (self, t, bytes, count);
  g_mutex_unlock (&self->lock);
}

GArray *
strobe_memory_model_live_at (StrobeMemoryModel *self, guint64 t)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  out = live_among (self, 0, allocs_upto (self, t), t);
  g_mutex_unlock (&self->lock);
  return out;
}

GArray *
strobe_memory_model_leaks (StrobeMemoryModel *self)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  out = live_among (self, 0, self->records->len, STROBE_MEMORY_LIVE - 1);
  g_mutex_unlock (&self->lock);
  return out;
}

GArray *
strobe_memory_model_allocated_live (StrobeMemoryModel *self, guint64 a, guint64 b, guint64 c)
{
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  out = live_among (self, a ? allocs_upto (self, a - 1) : 0, allocs_upto (self, MIN (b, c)), c);
  g_mutex_unlock (&self->lock);
  return out;
}

GArray *
strobe_memory_model_freed_in (StrobeMemoryModel *self, guint64 a, guint64 b)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 from, to;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), out);
  g_mutex_lock (&self->lock);
  from = a ? frees_upto (self, a - 1) : 0;
  to = frees_upto (self, b);
  for (guint64 j = from; j < to; j++)
    {
      const FreeEntry *e = &g_array_index (self->free_log, FreeEntry, j);
      const StrobeMemoryAlloc *r = &g_array_index (self->records, StrobeMemoryAlloc, e->record);
      guint64 index = e->record;

      /* Only the entry that ended it (not marks, not a failed realloc's undo). */
      if (e->kind == 0 && r->free_time == e->time)
        g_array_append_val (out, index);
    }
  g_mutex_unlock (&self->lock);
  return out;
}

GArray *
strobe_memory_model_short_lived (StrobeMemoryModel *self, guint64 max_lifetime)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), out);
  g_mutex_lock (&self->lock);
  for (guint64 i = 0; i < self->records->len; i++)
    {
      const StrobeMemoryAlloc *r = &g_array_index (self->records, StrobeMemoryAlloc, i);
      if (r->free_time != STROBE_MEMORY_LIVE && r->free_time - r->alloc_time <= max_lifetime)
        g_array_append_val (out, i);
    }
  g_mutex_unlock (&self->lock);
  return out;
}

guint
strobe_memory_model_get_series (StrobeMemoryModel *self, guint64 a, guint64 b, guint n,
                                StrobeMemorySample *out)
{
  guint64 step;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  if (n == 0 || b <= a)
    return 0;
  step = MAX ((b - a) / n, 1);
  g_mutex_lock (&self->lock);
  for (guint s = 0; s < n; s++)
    {
      guint64 t0 = a + s * step, t1 = s + 1 == n ? b : t0 + step;
      gint64 bytes, count;

      if (t0 > 0)
        totals_at_locked (self, t0 - 1, &bytes, &count);
      else
        bytes = count = 0;
      out[s].time = t0;
      out[s].min_bytes = out[s].max_bytes = bytes;
      if (step >= (G_GUINT64_CONSTANT (1) << self->overview_shift) && self->have_time)
        {
          /* Coarse: the overview buckets that start inside [t0, t1). */
          guint64 o = self->overview_origin;
          guint64 first = t0 > o ? (t0 - o + (G_GUINT64_CONSTANT (1) << self->overview_shift) - 1) >> self->overview_shift : 0;
          guint64 last = t1 > o ? (t1 - o) >> self->overview_shift : 0;

          for (guint64 k = first; k < MIN (last, (guint64) OVERVIEW_MAX); k++)
            if (self->overview[k].used)
              {
                out[s].min_bytes = MIN (out[s].min_bytes, self->overview[k].min_bytes);
                out[s].max_bytes = MAX (out[s].max_bytes, self->overview[k].max_bytes);
              }
        }
      else
        {
          /* Fine: walk the events in the window, merging allocations and the free log. */
          guint64 i = t0 ? allocs_upto (self, t0 - 1) : 0, j = t0 ? frees_upto (self, t0 - 1) : 0;
          guint64 ie = allocs_upto (self, t1 - 1), je = frees_upto (self, t1 - 1);
          gint64 v = bytes;

          while (i < ie || j < je)
            {
              const StrobeMemoryAlloc *r = i < ie ? &g_array_index (self->records, StrobeMemoryAlloc, i) : NULL;
              const FreeEntry *e = j < je ? &g_array_index (self->free_log, FreeEntry, j) : NULL;
              if (r && (!e || r->alloc_time <= e->time))
                {
                  v += (gint64) r->size;
                  i++;
                }
              else if (e)
                {
                  v -= e->cum_bytes - (j ? g_array_index (self->free_log, FreeEntry, j - 1).cum_bytes : 0);
                  j++;
                }
              out[s].min_bytes = MIN (out[s].min_bytes, v);
              out[s].max_bytes = MAX (out[s].max_bytes, v);
            }
        }
      totals_at_locked (self, t1 - 1, &out[s].last_bytes, &out[s].last_count);
      out[s].min_bytes = MIN (out[s].min_bytes, out[s].last_bytes);
      out[s].max_bytes = MAX (out[s].max_bytes, out[s].last_bytes);
    }
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
  group_free (data);
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
      StrobeMemoryGroup *g = g_memdup2 (value, sizeof *g);
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

GArray *
strobe_memory_model_get_callstack (StrobeMemoryModel *self, guint32 id)
{
  GArray *f;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  g_mutex_lock (&self->lock);
  f = g_hash_table_lookup (self->callstacks, GUINT_TO_POINTER (id));
  if (f)
    f = g_array_ref (f);
  g_mutex_unlock (&self->lock);
  return f;
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

/* ---- lifetime ------------------------------------------------------------------------ */

StrobeMemoryModel *
strobe_memory_model_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_MODEL, NULL);
}

static void
strobe_memory_model_finalize (GObject *object)
{
  StrobeMemoryModel *self = STROBE_MEMORY_MODEL (object);

  g_array_unref (self->records);
  g_array_unref (self->cum_alloc);
  g_array_unref (self->free_log);
  g_array_unref (self->group_max);
  g_array_unref (self->block_max);
  g_free (self->slots);
  g_hash_table_unref (self->heaps);
  g_hash_table_unref (self->tags);
  g_hash_table_unref (self->callstacks);
  g_hash_table_unref (self->threads);
  g_free (self->overview);
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
  self->records = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryAlloc));
  self->cum_alloc = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->free_log = g_array_new (FALSE, FALSE, sizeof (FreeEntry));
  self->group_max = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->block_max = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->heaps = g_hash_table_new_full (NULL, NULL, NULL, group_free);
  self->tags = g_hash_table_new_full (NULL, NULL, NULL, group_free);
  self->callstacks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->overview = g_new0 (Bucket, OVERVIEW_MAX);
  self->overview_shift = 10;
  map_grow (self);
}
