/* strobe-memory-query.c — aggregations, call trees and allocation lists over the memory
 * model's indexes (see strobe-memory-query.h).
 *
 * An aggregation is two passes: the records allocated in [t0, t1] (a slice found by
 * binary search) give allocations, temporary, bytes and leaked; the records live at the
 * range's peak (found by walking the range's allocations and free-log entries in the
 * order they were applied) give the peak contributions, through the max-free-time index
 * so ended groups are skipped. Stacks are accumulated by id first and mapped to functions
 * (and trees built) once per distinct stack afterwards, outside the model's lock. Each
 * pass takes the lock per chunk.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-query.h"

#include "strobe-memory-model-private.h"
#include "strobe-memory-query-private.h"

#define CHUNK      16384u
#define LIST_CHUNK 4096u   /* an allocation list's items read at a time (192 KiB) */
#define MAX_FRAMES 256u
#define MAX_KEYS   16u

/* ---- accumulating rows by key ------------------------------------------------------ */

/* Keys below this (ids: stacks, tags, heaps, threads, size buckets) find their row in a
 * plain array, at most 4 MiB; others in the map. A whole-trace call tree looks up a row
 * per allocation, and the map's hashing was most of its time. */
#define ACC_DENSE_KEYS (1u << 20)

typedef struct
{
  StrobeLiveMap index;   /* key → row, for keys from ACC_DENSE_KEYS up */
  guint32      *dense;   /* key → row + 1 (0: none yet) */
  guint32       n_dense;
  GArray       *rows;    /* StrobeMemoryRow */
} Acc;

static void
acc_init (Acc *a)
{
  strobe_live_map_init (&a->index);
  a->dense = NULL;
  a->n_dense = 0;
  a->rows = g_array_new (FALSE, TRUE, sizeof (StrobeMemoryRow));
}

static void
acc_clear (Acc *a)
{
  strobe_live_map_clear (&a->index);
  g_clear_pointer (&a->dense, g_free);
  a->n_dense = 0;
  g_clear_pointer (&a->rows, g_array_unref);
}

static guint32
acc_new_row (Acc *a, guint64 key)
{
  StrobeMemoryRow r = { 0 };

  r.key = key;
  g_array_append_val (a->rows, r);
  return a->rows->len - 1;
}

static StrobeMemoryRow *
acc_row (Acc *a, guint64 key)
{
  guint32 i;

  if (key < ACC_DENSE_KEYS)
    {
      if (key >= a->n_dense)
        {
          guint32 n = MAX (a->n_dense, 256u);

          while (n <= key)
            n *= 2;
          a->dense = g_renew (guint32, a->dense, n);
          memset (a->dense + a->n_dense, 0, (n - a->n_dense) * sizeof (guint32));
          a->n_dense = n;
        }
      if (a->dense[key] == 0)
        a->dense[key] = acc_new_row (a, key) + 1;
      return &g_array_index (a->rows, StrobeMemoryRow, a->dense[key] - 1);
    }
  if (!strobe_live_map_lookup (&a->index, key, 0, &i))
    {
      i = acc_new_row (a, key);
      strobe_live_map_insert (&a->index, key, 0, i, NULL);
    }
  return &g_array_index (a->rows, StrobeMemoryRow, i);
}

static void
costs_add (StrobeMemoryCosts *to, const StrobeMemoryCosts *c)
{
  to->allocations += c->allocations;
  to->temporary += c->temporary;
  to->bytes_allocated = strobe_memory_sat_add (to->bytes_allocated, c->bytes_allocated);
  to->peak_bytes = strobe_memory_sat_add_signed (to->peak_bytes, c->peak_bytes);
  to->peak_count += c->peak_count;
  to->leaked_bytes = strobe_memory_sat_add_signed (to->leaked_bytes, c->leaked_bytes);
  to->leaked_count += c->leaked_count;
}

static guint
size_bucket (guint64 size)
{
  return size == 0 ? 0 : 64 - (guint) __builtin_clzll (size);
}

/* The key of @r for everything but FUNCTION (which is keyed by stack first). */
static guint64
direct_key (StrobeMemoryGroupBy by, const StrobeMemoryAlloc *r)
{
  switch (by)
    {
    case STROBE_MEMORY_BY_TAG: return r->tag;
    case STROBE_MEMORY_BY_HEAP: return r->heap;
    case STROBE_MEMORY_BY_SIZE: return size_bucket (r->size);
    case STROBE_MEMORY_BY_THREAD: return r->thread_id;
    case STROBE_MEMORY_BY_STACK:
    case STROBE_MEMORY_BY_FUNCTION:
    default: return r->callstack;
    }
}

/* ---- the two passes ------------------------------------------------------------------- */

typedef struct
{
  guint64 t0, t1;
  guint64 lo, hi;            /* records allocated in the range */
  guint64 j_end;             /* free-log entries up to t1 */
  guint64 peak_i, peak_j;    /* the peak as a position: records < peak_i, entries < peak_j */
  guint64 peak_time;
  gint64  peak_bytes;
  gint64  peak_count;
  guint64 n_records;         /* what the query sees */
} Range;

/* The range's records, and where in it live bytes were highest. */
static gboolean
find_range (StrobeMemoryModel *model, guint64 t0, guint64 t1, Range *r, GCancellable *cancellable,
            GError **error)
{
  StrobeMemoryStore s;
  guint64 i, j, ie, je;
  gint64 v, c;

  strobe_memory_model_get_store (model, &s);
  strobe_memory_store_read_lock (&s);
  r->t0 = t0;
  r->t1 = t1;
  r->n_records = strobe_memory_store_n_records (&s);
  r->lo = t0 ? strobe_memory_store_allocs_upto (&s, t0 - 1) : 0;
  r->hi = strobe_memory_store_allocs_upto (&s, t1);
  i = r->lo;
  j = t0 ? strobe_memory_store_frees_upto (&s, t0 - 1) : 0;
  ie = r->hi;
  je = strobe_memory_store_frees_upto (&s, t1);
  r->j_end = je;
  if (t0)
    strobe_memory_store_totals_at (&s, t0 - 1, &v, &c);
  else
    v = c = 0;
  r->peak_i = i;
  r->peak_j = j;
  r->peak_bytes = v;
  r->peak_count = c;
  r->peak_time = t0;
  if (t0 == 0 && ie == strobe_memory_store_n_records (&s) && je == strobe_memory_store_n_entries (&s))
    {
      /* The whole trace: the model kept where its peak was as it reached it (the walk
       * below, of every record and entry, was most of a whole-trace tree). */
      StrobeMemoryPeak p;

      strobe_memory_model_peak_locked (model, &p);
      r->peak_i = p.records;
      r->peak_j = p.entries;
      r->peak_bytes = p.bytes;
      r->peak_count = p.count;
      r->peak_time = p.bytes > 0 ? p.time : t0;
      i = ie;
      j = je;
    }
  g_mutex_unlock (s.lock);

  /* Walked in chunks: entries and records interleave in application order. */
  while (i < ie || j < je)
    {
      guint steps = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      strobe_memory_store_read_lock (&s);
      while ((i < ie || j < je) && steps++ < CHUNK)
        {
          guint64 t;

          if (i < ie && (j >= je || i < strobe_memory_store_entry_after (&s, j)))
            {
              /* All of it then: a mark later is an entry of its own. */
              v = strobe_memory_sat_add_signed (v, strobe_memory_signed_size (strobe_memory_store_size (&s, i)));
              c++;
              t = strobe_memory_store_time (&s, i);
              i++;
            }
          else
            {
              v = strobe_memory_sat_add_signed (v, -strobe_memory_store_entry_bytes (&s, j));
              c -= strobe_memory_store_entry_count (&s, j);
              t = strobe_memory_store_entry_time (&s, j);
              j++;
            }
          if (v > r->peak_bytes)
            {
              r->peak_bytes = v;
              r->peak_count = c;
              r->peak_time = t;
              r->peak_i = i;
              r->peak_j = j;
            }
        }
      g_mutex_unlock (s.lock);
    }
  return TRUE;
}

typedef struct
{
  Acc                *acc;
  StrobeMemoryGroupBy by;
  const Range        *range;
  const StrobeMemoryStore *s;
} PeakCtx;

static void
add_peak (guint64 index, const StrobeMemoryAlloc *r, gpointer user)
{
  PeakCtx *p = user;
  StrobeMemoryRow *row;
  gint64 bytes = strobe_memory_signed_size (r->size);

  /* Live at the peak's position: ended by an entry at or after it (or not at all). */
  if (g_array_index (p->s->end_entry, guint32, index) < p->range->peak_j
      && g_array_index (p->s->end_entry, guint32, index) != G_MAXUINT32)
    return;
  /* A block that backs another heap counts nothing, if it did at that moment. */
  if ((r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) || strobe_memory_store_was_marked (p->s, index))
    bytes = strobe_memory_store_marked_at (p->s, index, p->range->peak_j) ? 0 : bytes;
  row = acc_row (p->acc, direct_key (p->by, r));
  row->costs.peak_bytes = strobe_memory_sat_add_signed (row->costs.peak_bytes, bytes);
  row->costs.peak_count++;
}

/* The key direct_key would give record @i, from the one column it needs. */
static inline guint64
record_key (const StrobeMemoryStore *s, StrobeMemoryGroupBy by, guint64 i)
{
  switch (by)
    {
    case STROBE_MEMORY_BY_TAG: return strobe_memory_store_attrs (s, i)->tag;
    case STROBE_MEMORY_BY_HEAP: return strobe_memory_store_attrs (s, i)->heap;
    case STROBE_MEMORY_BY_SIZE: return size_bucket (strobe_memory_store_size (s, i));
    case STROBE_MEMORY_BY_THREAD: return strobe_memory_store_attrs (s, i)->thread;
    case STROBE_MEMORY_BY_STACK:
    case STROBE_MEMORY_BY_FUNCTION:
    default: return i < s->stack->len ? g_array_index (s->stack, guint32, i) : 0;
    }
}

/* Records [@at, @end) of the range: allocations, temporary, bytes and what is still live
 * at t1. Only the columns the costs need are read (a whole record each was 25 ns, most of
 * a whole-trace tree at 100 M allocations), the last row is kept for the next record
 * (neighbours mostly share their key), and the marks are looked up only when there are
 * any. */
static void
accumulate_chunk (const StrobeMemoryStore *s, const Range *range, StrobeMemoryGroupBy by, Acc *acc, guint64 at,
                  guint64 end)
{
  gboolean any_marks = g_hash_table_size (s->marks) != 0;
  guint64 last_key = G_MAXUINT64;
  StrobeMemoryRow *row = NULL;

  for (guint64 i = at; i < end; i++)
    {
      guint64 key = record_key (s, by, i), size = strobe_memory_store_size (s, i);
      guint8 flags = *strobe_memory_store_flags (s, i);
      guint64 free_time;

      if (row == NULL || key != last_key)
        {
          row = acc_row (acc, key);
          last_key = key;
        }
      row->costs.allocations++;
      row->costs.bytes_allocated = strobe_memory_sat_add (row->costs.bytes_allocated, size);
      if (flags & STROBE_MEMORY_ALLOC_TEMPORARY)
        row->costs.temporary++;
      free_time = strobe_memory_store_free_time (s, i);
      if (free_time == STROBE_MEMORY_LIVE || free_time > range->t1)
        {
          gint64 bytes = (flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : strobe_memory_signed_size (size);

          /* A block backing a heap at t1 holds nothing of its own then, whatever it
           * became later. */
          if ((flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) || (any_marks && strobe_memory_store_was_marked (s, i)))
            bytes = strobe_memory_store_marked_at (s, i, range->j_end) ? 0 : strobe_memory_signed_size (size);
          row->costs.leaked_bytes = strobe_memory_sat_add_signed (row->costs.leaked_bytes, bytes);
          row->costs.leaked_count++;
        }
    }
}

/* Accumulates both passes into @acc keyed by direct_key (stack ids for STACK/FUNCTION). */
static gboolean
accumulate (StrobeMemoryModel *model, const Range *range, StrobeMemoryGroupBy by, Acc *acc,
            GCancellable *cancellable, StrobeMemoryProgressFunc progress, gpointer pdata,
            gdouble from, gdouble to, GError **error)
{
  StrobeMemoryStore s;
  guint64 total = (range->hi - range->lo) + range->peak_i + 1;
  guint64 done = 0;
  PeakCtx pc = { acc, by, range, &s };

  strobe_memory_model_get_store (model, &s);
  for (guint64 at = range->lo; at < range->hi; at += CHUNK)
    {
      guint64 end = MIN (range->hi, at + CHUNK);

      if (!strobe_memory_query_check (cancellable, error, progress, pdata, from + (to - from) * (gdouble) done / (gdouble) total))
        return FALSE;
      strobe_memory_store_read_lock (&s);
      accumulate_chunk (&s, range, by, acc, at, end);
      g_mutex_unlock (s.lock);
      done += end - at;
    }
  /* Live at the peak: allocated before its position, ended after it. Chunks are whole
   * index blocks, so the skipping works as in one pass. */
  for (guint64 at = 0; at < range->peak_i; at += CHUNK)
    {
      guint64 end = MIN (range->peak_i, at + CHUNK);

      if (!strobe_memory_query_check (cancellable, error, progress, pdata, from + (to - from) * (gdouble) done / (gdouble) total))
        return FALSE;
      strobe_memory_store_read_lock (&s);
      strobe_memory_store_live_among (&s, at, end, range->peak_time ? range->peak_time - 1 : 0, add_peak, &pc);
      g_mutex_unlock (s.lock);
      done += end - at;
    }
  return TRUE;
}

/* ---- frames and their keys ------------------------------------------------------------ */

typedef struct
{
  StrobeMemoryFrameFunc func;
  gpointer              data;
  GHashTable           *cache;   /* (address, module) → Keys */
} Keyer;

typedef struct
{
  guint   n;
  guint64 keys[MAX_KEYS];
} Keys;

typedef struct
{
  guint64 address;
  guint32 module;
} FrameKey;

static guint
frame_hash (gconstpointer p)
{
  const FrameKey *k = p;
  return (guint) (k->address * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) >> 32) ^ k->module;
}

static gboolean
frame_equal (gconstpointer a, gconstpointer b)
{
  const FrameKey *x = a, *y = b;
  return x->address == y->address && x->module == y->module;
}

static void
keyer_init (Keyer *k, StrobeMemoryFrameFunc func, gpointer data)
{
  k->func = func;
  k->data = data;
  k->cache = g_hash_table_new_full (frame_hash, frame_equal, g_free, g_free);
}

static const Keys *
keyer_get (Keyer *k, const StrobeMemoryFrame *f)
{
  FrameKey fk = { f->address, f->module };
  Keys *keys = g_hash_table_lookup (k->cache, &fk);

  if (keys == NULL)
    {
      keys = g_new0 (Keys, 1);
      keys->n = k->func ? k->func (f, keys->keys, MAX_KEYS, k->data) : 0;
      if (keys->n == 0 || keys->n > MAX_KEYS)
        {
          keys->n = 1;
          keys->keys[0] = f->address;
        }
      g_hash_table_insert (k->cache, g_memdup2 (&fk, sizeof fk), keys);
    }
  return keys;
}

/* The frames of each distinct stack (copied under the lock, a chunk of stacks at a time). */
typedef struct
{
  guint              n;
  StrobeMemoryFrame *frames;
} Path;

static gboolean
fetch_paths (StrobeMemoryModel *model, GArray *rows, Path *paths, GCancellable *cancellable, GError **error)
{
  StrobeMemoryStore s;
  StrobeMemoryFrame buf[MAX_FRAMES];

  strobe_memory_model_get_store (model, &s);
  for (guint at = 0; at < rows->len; at += 1024)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      strobe_memory_store_read_lock (&s);
      for (guint i = at; i < MIN (rows->len, at + 1024); i++)
        {
          guint64 id = g_array_index (rows, StrobeMemoryRow, i).key;
          guint n = id && id <= G_MAXUINT32 ? strobe_memory_model_frames_locked (model, (guint32) id, buf, MAX_FRAMES) : 0;
          paths[i].n = n;
          paths[i].frames = n ? g_memdup2 (buf, n * sizeof *buf) : NULL;
        }
      g_mutex_unlock (s.lock);
    }
  return TRUE;
}

static void
paths_free (Path *paths, guint n)
{
  for (guint i = 0; i < n; i++)
    g_free (paths[i].frames);
  g_free (paths);
}

/* ---- StrobeMemoryAggregate ------------------------------------------------------------ */

struct _StrobeMemoryAggregate
{
  GObject           parent_instance;
  GArray           *rows;      /* StrobeMemoryRow */
  StrobeMemoryCosts totals;
  guint64           peak_time;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryAggregate, strobe_memory_aggregate, G_TYPE_OBJECT)

static void
strobe_memory_aggregate_finalize (GObject *object)
{
  StrobeMemoryAggregate *self = STROBE_MEMORY_AGGREGATE (object);

  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (strobe_memory_aggregate_parent_class)->finalize (object);
}

static void
strobe_memory_aggregate_class_init (StrobeMemoryAggregateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_aggregate_finalize;
}

static void
strobe_memory_aggregate_init (StrobeMemoryAggregate *self)
{
}

static guint64
cost_of (const StrobeMemoryRow *r, StrobeMemoryCost by)
{
  switch (by)
    {
    case STROBE_MEMORY_COST_PEAK: return (guint64) MAX (r->costs.peak_bytes, 0);
    case STROBE_MEMORY_COST_LEAKED: return (guint64) MAX (r->costs.leaked_bytes, 0);
    case STROBE_MEMORY_COST_ALLOCATIONS: return r->costs.allocations;
    case STROBE_MEMORY_COST_TEMPORARY: return r->costs.temporary;
    case STROBE_MEMORY_COST_BYTES: return r->costs.bytes_allocated;
    case STROBE_MEMORY_COST_KEY:
    default: return r->key;
    }
}

typedef struct
{
  StrobeMemoryCost by;
  gboolean         descending;
} SortBy;

static gint
compare_rows (gconstpointer a, gconstpointer b, gpointer user)
{
  const SortBy *s = user;
  const StrobeMemoryRow *x = a, *y = b;
  guint64 cx = cost_of (x, s->by), cy = cost_of (y, s->by);

  if (cx != cy)
    return (cx < cy) == s->descending ? 1 : -1;
  /* Ties: by key, ascending, so the order is the same run to run. */
  return x->key < y->key ? -1 : x->key > y->key;
}

void
strobe_memory_aggregate_sort (StrobeMemoryAggregate *self, StrobeMemoryCost by, gboolean descending)
{
  SortBy s = { by, descending };

  g_return_if_fail (STROBE_IS_MEMORY_AGGREGATE (self));
  g_array_sort_with_data (self->rows, compare_rows, &s);
}

guint
strobe_memory_aggregate_get_n_rows (StrobeMemoryAggregate *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_AGGREGATE (self), 0);
  return self->rows->len;
}

guint
strobe_memory_aggregate_get_rows (StrobeMemoryAggregate *self, guint first, guint n, StrobeMemoryRow *out)
{
  guint got;

  g_return_val_if_fail (STROBE_IS_MEMORY_AGGREGATE (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);
  if (first >= self->rows->len)
    return 0;
  got = MIN (n, self->rows->len - first);
  memcpy (out, &g_array_index (self->rows, StrobeMemoryRow, first), got * sizeof *out);
  return got;
}

void
strobe_memory_aggregate_get_totals (StrobeMemoryAggregate *self, StrobeMemoryCosts *out)
{
  g_return_if_fail (STROBE_IS_MEMORY_AGGREGATE (self));
  g_return_if_fail (out != NULL);
  *out = self->totals;
}

guint64
strobe_memory_aggregate_get_peak_time (StrobeMemoryAggregate *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_AGGREGATE (self), 0);
  return self->peak_time;
}

/* Rows keyed by stack id → rows keyed by frame #0's (innermost) key. */
static GArray *
rekey_by_function (GArray *rows, const Path *paths, Keyer *keyer)
{
  Acc acc;
  GArray *out;

  acc_init (&acc);
  for (guint i = 0; i < rows->len; i++)
    {
      const StrobeMemoryRow *r = &g_array_index (rows, StrobeMemoryRow, i);
      guint64 key = 0;
      StrobeMemoryRow *to;

      if (paths[i].n)
        key = keyer_get (keyer, &paths[i].frames[0])->keys[0];
      to = acc_row (&acc, key);
      if (to->costs.allocations == 0 && to->costs.peak_count == 0 && paths[i].n)
        to->frame = paths[i].frames[0];
      costs_add (&to->costs, &r->costs);
    }
  out = g_steal_pointer (&acc.rows);
  acc_clear (&acc);
  return out;
}

static StrobeMemoryAggregate *
finish_aggregate (GArray *rows, const Range *range)
{
  StrobeMemoryAggregate *self = g_object_new (STROBE_TYPE_MEMORY_AGGREGATE, NULL);

  self->rows = rows;
  for (guint i = 0; i < rows->len; i++)
    costs_add (&self->totals, &g_array_index (rows, StrobeMemoryRow, i).costs);
  if (range)
    {
      self->peak_time = range->peak_time;
      self->totals.peak_bytes = range->peak_bytes;
      self->totals.peak_count = (guint64) MAX (range->peak_count, 0);
    }
  strobe_memory_aggregate_sort (self, STROBE_MEMORY_COST_PEAK, TRUE);
  return self;
}

StrobeMemoryAggregate *
strobe_memory_model_aggregate (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryGroupBy by,
                               StrobeMemoryFrameFunc frame_func, gpointer frame_data,
                               GCancellable *cancellable, StrobeMemoryProgressFunc progress,
                               gpointer progress_data, GError **error)
{
  Range range;
  Acc acc;
  GArray *rows;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model) && !strobe_memory_model_is_summary (model), NULL);
  g_return_val_if_fail (t0 <= t1, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!find_range (model, t0, t1, &range, cancellable, error))
    return NULL;
  acc_init (&acc);
  if (!accumulate (model, &range, by, &acc, cancellable, progress, progress_data, 0.0, 0.9, error))
    {
      acc_clear (&acc);
      return NULL;
    }
  rows = g_steal_pointer (&acc.rows);
  acc_clear (&acc);
  if (by == STROBE_MEMORY_BY_STACK || by == STROBE_MEMORY_BY_FUNCTION)
    {
      guint n_stacks = rows->len;
      Path *paths = g_new0 (Path, MAX (n_stacks, 1));
      Keyer keyer;

      if (!fetch_paths (model, rows, paths, cancellable, error))
        {
          paths_free (paths, n_stacks);
          g_array_unref (rows);
          return NULL;
        }
      if (by == STROBE_MEMORY_BY_FUNCTION)
        {
          GArray *by_function;

          keyer_init (&keyer, frame_func, frame_data);
          by_function = rekey_by_function (rows, paths, &keyer);
          g_hash_table_unref (keyer.cache);
          g_array_unref (rows);
          rows = by_function;
        }
      else
        for (guint i = 0; i < rows->len; i++)
          if (paths[i].n)
            g_array_index (rows, StrobeMemoryRow, i).frame = paths[i].frames[0];
      paths_free (paths, n_stacks);
    }
  if (progress)
    progress (1.0, progress_data);
  return finish_aggregate (rows, &range);
}

/* ---- StrobeMemoryTree ----------------------------------------------------------------- */

/* What a node's key was made from, to symbolize it: the first frame that made it. Packed
 * (16 bytes, not a StrobeMemoryFrame's 16 and 4 more): a tree can have millions of nodes. */
typedef struct
{
  guint64 address;
  guint32 module;
  guint32 inline_depth;
} NodeFrame;

struct _StrobeMemoryTree
{
  GObject         parent_instance;
  StrobeCostTree *costs;
  GArray         *frames;     /* NodeFrame per node */
};

G_DEFINE_FINAL_TYPE (StrobeMemoryTree, strobe_memory_tree, G_TYPE_OBJECT)

static void
strobe_memory_tree_finalize (GObject *object)
{
  StrobeMemoryTree *self = STROBE_MEMORY_TREE (object);

  g_clear_pointer (&self->costs, strobe_cost_tree_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  G_OBJECT_CLASS (strobe_memory_tree_parent_class)->finalize (object);
}

static void
strobe_memory_tree_class_init (StrobeMemoryTreeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_tree_finalize;
}

static void
strobe_memory_tree_init (StrobeMemoryTree *self)
{
  NodeFrame root = { 0, 0, 0 };

  self->frames = g_array_new (FALSE, TRUE, sizeof (NodeFrame));
  g_array_append_val (self->frames, root);
}

StrobeMemoryTree *
strobe_memory_model_build_tree (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryTreeKind kind,
                                StrobeMemoryFrameFunc frame_func, gpointer frame_data,
                                GCancellable *cancellable, StrobeMemoryProgressFunc progress,
                                gpointer progress_data, GError **error)
{
  Range range;
  Acc acc;
  Path *paths = NULL;
  Keyer keyer;
  GArray *rows;
  StrobeMemoryTree *tree;
  gboolean top_down = kind == STROBE_MEMORY_TREE_TOP_DOWN;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model) && !strobe_memory_model_is_summary (model), NULL);
  g_return_val_if_fail (t0 <= t1, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!find_range (model, t0, t1, &range, cancellable, error))
    return NULL;
  acc_init (&acc);
  if (!accumulate (model, &range, STROBE_MEMORY_BY_STACK, &acc, cancellable, progress, progress_data,
                   0.0, 0.6, error))
    {
      acc_clear (&acc);
      return NULL;
    }
  rows = g_steal_pointer (&acc.rows);
  acc_clear (&acc);
  paths = g_new0 (Path, MAX (rows->len, 1));
  if (!fetch_paths (model, rows, paths, cancellable, error))
    {
      paths_free (paths, rows->len);
      g_array_unref (rows);
      return NULL;
    }

  tree = g_object_new (STROBE_TYPE_MEMORY_TREE, NULL);
  tree->costs = strobe_cost_tree_new (top_down ? STROBE_COST_TREE_TOP_DOWN : STROBE_COST_TREE_BOTTOM_UP,
                                      STROBE_MEMORY_N_COLS, strobe_memory_cost_columns, 0);
  keyer_init (&keyer, frame_func, frame_data);
  for (guint i = 0; i < rows->len; i++)
    {
      const StrobeMemoryRow *r = &g_array_index (rows, StrobeMemoryRow, i);
      /* The stack as keys, innermost first (inlined frames expanded); the cost tree
       * takes them outermost first. */
      guint64 keys[MAX_FRAMES], outer[MAX_FRAMES], values[STROBE_MEMORY_N_COLS];
      StrobeMemoryFrame frames[MAX_FRAMES];
      guint depths[MAX_FRAMES];
      guint n = 0, before;

      if (i % 1024 == 0 && !strobe_memory_query_check (cancellable, error, progress, progress_data,
                                   0.6 + 0.4 * (gdouble) i / (gdouble) MAX (rows->len, 1)))
        {
          g_clear_object (&tree);
          break;
        }
      for (guint f = 0; f < paths[i].n && n < MAX_FRAMES; f++)
        {
          const Keys *k = keyer_get (&keyer, &paths[i].frames[f]);
          for (guint d = 0; d < k->n && n < MAX_FRAMES; d++)
            {
              keys[n] = k->keys[d];
              frames[n] = paths[i].frames[f];
              depths[n++] = d;
            }
        }
      for (guint k = 0; k < n; k++)
        outer[k] = keys[n - 1 - k];
      strobe_memory_costs_to_values (&r->costs, values);
      before = strobe_cost_tree_get_n_nodes (tree->costs);
      strobe_cost_tree_add_stack (tree->costs, outer, n, values);
      /* New nodes are the end of the path: the one at depth d is the stack's frame d - 1
       * levels in from where the tree starts (the outermost top-down, frame #0 bottom-up). */
      for (guint32 node = before; node < strobe_cost_tree_get_n_nodes (tree->costs); node++)
        {
          guint d = strobe_cost_tree_get_depth (tree->costs, node);
          guint at = top_down ? n - d : d - 1;
          NodeFrame nf = { frames[at].address, frames[at].module, depths[at] };
          g_array_append_val (tree->frames, nf);
        }
    }
  g_hash_table_unref (keyer.cache);
  paths_free (paths, rows->len);
  g_array_unref (rows);
  if (tree)
    {
      /* The root's peak is the range's, whatever stacks were missing. */
      strobe_cost_tree_set_inclusive (tree->costs, 0, STROBE_MEMORY_COL_PEAK_BYTES, (guint64) range.peak_bytes);
      strobe_cost_tree_set_inclusive (tree->costs, 0, STROBE_MEMORY_COL_PEAK_COUNT, (guint64) MAX (range.peak_count, 0));
      strobe_cost_tree_trim (tree->costs);
      if (progress)
        progress (1.0, progress_data);
    }
  return tree;
}

guint
strobe_memory_tree_get_n_nodes (StrobeMemoryTree *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (self), 0);
  return strobe_cost_tree_get_n_nodes (self->costs);
}

gboolean
strobe_memory_tree_get_node (StrobeMemoryTree *self, guint node, StrobeMemoryTreeNode *out)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  if (node >= strobe_cost_tree_get_n_nodes (self->costs))
    return FALSE;
  out->key = strobe_cost_tree_get_key (self->costs, node);
  strobe_memory_tree_get_frame (self, node, &out->frame, &out->inline_depth);
  out->parent = strobe_cost_tree_get_parent (self->costs, node);
  out->depth = strobe_cost_tree_get_depth (self->costs, node);
  out->n_children = strobe_cost_tree_get_n_children (self->costs, node);
  strobe_memory_tree_costs (self->costs, node, &out->inclusive, &out->self);
  return TRUE;
}

guint
strobe_memory_tree_get_children (StrobeMemoryTree *self, guint node, StrobeMemoryCost sort, guint first,
                                 guint n, guint32 *out)
{
  guint column = strobe_memory_cost_get_column (sort);

  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL, 0);
  if (node >= strobe_cost_tree_get_n_nodes (self->costs))
    return 0;
  /* Equal costs keep the order the children were made in. */
  return strobe_cost_tree_get_children (self->costs, node, column,
                                        column == STROBE_COST_BY_KEY ? 0 : STROBE_COST_SORT_DESCENDING,
                                        first, n, out);
}

guint
strobe_memory_cost_get_column (StrobeMemoryCost cost)
{
  switch (cost)
    {
    case STROBE_MEMORY_COST_PEAK: return STROBE_MEMORY_COL_PEAK_BYTES;
    case STROBE_MEMORY_COST_LEAKED: return STROBE_MEMORY_COL_LEAKED_BYTES;
    case STROBE_MEMORY_COST_ALLOCATIONS: return STROBE_MEMORY_COL_ALLOCATIONS;
    case STROBE_MEMORY_COST_TEMPORARY: return STROBE_MEMORY_COL_TEMPORARY;
    case STROBE_MEMORY_COST_BYTES: return STROBE_MEMORY_COL_BYTES;
    case STROBE_MEMORY_COST_KEY:
    default: return STROBE_COST_BY_KEY;
    }
}

StrobeCostTree *
strobe_memory_tree_get_cost_tree (StrobeMemoryTree *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_TREE (self), NULL);
  return self->costs;
}

void
strobe_memory_tree_get_frame (StrobeMemoryTree *self, guint32 node, StrobeMemoryFrame *frame,
                              guint32 *inline_depth)
{
  const NodeFrame *nf;

  g_return_if_fail (STROBE_IS_MEMORY_TREE (self));
  g_return_if_fail (node < self->frames->len);
  nf = &g_array_index (self->frames, NodeFrame, node);
  if (frame)
    *frame = (StrobeMemoryFrame) { nf->address, nf->module };
  if (inline_depth)
    *inline_depth = nf->inline_depth;
}

StrobeMemoryAggregate *
strobe_memory_alloc_list_group (StrobeMemoryAllocList *self, StrobeMemoryModel *model, StrobeMemoryGroupBy by,
                                StrobeMemoryFrameFunc frame_func, gpointer frame_data,
                                GCancellable *cancellable, GError **error)
{
  g_autofree StrobeMemoryAlloc *items = g_new (StrobeMemoryAlloc, LIST_CHUNK);
  g_autoptr (StrobeMemoryAllocList) ordered = NULL;
  Acc acc;
  GArray *rows;

  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self), NULL);
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), NULL);
  ordered = _strobe_memory_alloc_list_in_allocation_order (self);
  acc_init (&acc);
  for (guint64 at = 0, n; (n = _strobe_memory_alloc_list_get_keys (ordered, at, LIST_CHUNK, items, NULL)) > 0; at += n)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          acc_clear (&acc);
          return NULL;
        }
      for (guint k = 0; k < n; k++)
        {
          const StrobeMemoryAlloc *r = &items[k];
          StrobeMemoryRow *row = acc_row (&acc, direct_key (by, r));

          row->costs.allocations++;
          /* As in the list's totals: a heap's backing block adds no bytes of its own. */
          row->costs.bytes_allocated = strobe_memory_sat_add (row->costs.bytes_allocated, (guint64) MAX (strobe_memory_alloc_counted (r), 0));
          if (r->flags & STROBE_MEMORY_ALLOC_TEMPORARY)
            row->costs.temporary++;
          if (r->free_time == STROBE_MEMORY_LIVE)
            {
              row->costs.leaked_bytes = strobe_memory_sat_add_signed (row->costs.leaked_bytes, strobe_memory_alloc_counted (r));
              row->costs.leaked_count++;
            }
        }
    }
  rows = g_steal_pointer (&acc.rows);
  acc_clear (&acc);
  if (by == STROBE_MEMORY_BY_STACK || by == STROBE_MEMORY_BY_FUNCTION)
    {
      Path *paths = g_new0 (Path, MAX (rows->len, 1));

      if (!fetch_paths (model, rows, paths, cancellable, error))
        {
          paths_free (paths, rows->len);
          g_array_unref (rows);
          return NULL;
        }
      if (by == STROBE_MEMORY_BY_FUNCTION)
        {
          Keyer keyer;
          GArray *by_function;

          keyer_init (&keyer, frame_func, frame_data);
          by_function = rekey_by_function (rows, paths, &keyer);
          g_hash_table_unref (keyer.cache);
          paths_free (paths, rows->len);
          g_array_unref (rows);
          rows = by_function;
        }
      else
        {
          for (guint i = 0; i < rows->len; i++)
            if (paths[i].n)
              g_array_index (rows, StrobeMemoryRow, i).frame = paths[i].frames[0];
          paths_free (paths, rows->len);
        }
    }
  {
    StrobeMemoryAggregate *agg = finish_aggregate (rows, NULL);
    strobe_memory_aggregate_sort (agg, STROBE_MEMORY_COST_BYTES, TRUE);
    return agg;
  }
}

/* ---- allocation indexes for A, B and C ---------------------------------------------------- */

static void
append_index (guint64 index, const StrobeMemoryAlloc *r, gpointer user)
{
  g_array_append_val ((GArray *) user, index);
}

static GArray *
live_among (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));

  strobe_memory_store_live_among (s, lo, hi, t, append_index, out);
  return out;
}

GArray *
strobe_memory_model_live_at (StrobeMemoryModel *self, guint64 t)
{
  StrobeMemoryStore s;
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self) && !strobe_memory_model_is_summary (self), NULL);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  out = live_among (&s, 0, strobe_memory_store_allocs_upto (&s, t), t);
  g_mutex_unlock (s.lock);
  return out;
}

GArray *
strobe_memory_model_leaks (StrobeMemoryModel *self)
{
  StrobeMemoryStore s;
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), NULL);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  out = live_among (&s, 0, strobe_memory_store_n_records (&s), STROBE_MEMORY_LIVE - 1);
  g_mutex_unlock (s.lock);
  return out;
}

GArray *
strobe_memory_model_allocated_live (StrobeMemoryModel *self, guint64 a, guint64 b, guint64 c)
{
  StrobeMemoryStore s;
  GArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self) && !strobe_memory_model_is_summary (self), NULL);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  out = live_among (&s, a ? strobe_memory_store_allocs_upto (&s, a - 1) : 0,
                    strobe_memory_store_allocs_upto (&s, MIN (b, c)), c);
  g_mutex_unlock (s.lock);
  return out;
}

GArray *
strobe_memory_model_freed_in (StrobeMemoryModel *self, guint64 a, guint64 b)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  StrobeMemoryStore s;
  guint64 from, to;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self) && !strobe_memory_model_is_summary (self), out);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  from = a ? strobe_memory_store_frees_upto (&s, a - 1) : 0;
  to = strobe_memory_store_frees_upto (&s, b);
  for (guint64 j = from; j < to; j++)
    {
      guint32 rk = strobe_memory_store_entry_record_kind (&s, j);
      guint64 index = rk & 0x3fffffffu;

      /* Only the entry that ended it (not marks, not a failed realloc's undo). */
      if (rk >> 30 == STROBE_MEMORY_ENTRY_FREE && g_array_index (s.end_entry, guint32, index) == j)
        g_array_append_val (out, index);
    }
  g_mutex_unlock (s.lock);
  return out;
}

GArray *
strobe_memory_model_short_lived (StrobeMemoryModel *self, guint64 max_lifetime)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint64));
  StrobeMemoryStore s;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self) && !strobe_memory_model_is_summary (self), out);
  strobe_memory_model_get_store (self, &s);
  strobe_memory_store_read_lock (&s);
  for (guint64 i = 0; i < strobe_memory_store_n_records (&s); i++)
    {
      guint64 free_time = strobe_memory_store_free_time (&s, i);
      if (free_time != STROBE_MEMORY_LIVE && free_time - strobe_memory_store_time (&s, i) <= max_lifetime)
        g_array_append_val (out, i);
    }
  g_mutex_unlock (s.lock);
  return out;
}

/* The stacks whose frame #0 has the function key @key. */
static GHashTable *
stacks_of_function (StrobeMemoryAllocList *self, StrobeMemoryModel *model, guint64 key,
                    StrobeMemoryFrameFunc frame_func, gpointer frame_data,
                    GCancellable *cancellable, GError **error)
{
  Acc acc;
  g_autoptr (GArray) rows = NULL;
  Path *paths;
  Keyer keyer;
  GHashTable *stacks = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree StrobeMemoryAlloc *items = g_new (StrobeMemoryAlloc, LIST_CHUNK);
  g_autoptr (StrobeMemoryAllocList) ordered = _strobe_memory_alloc_list_in_allocation_order (self);

  acc_init (&acc);
  for (guint64 at = 0, n; (n = _strobe_memory_alloc_list_get_keys (ordered, at, LIST_CHUNK, items, NULL)) > 0; at += n)
    for (guint k = 0; k < n; k++)
      acc_row (&acc, items[k].callstack);
  rows = g_steal_pointer (&acc.rows);
  acc_clear (&acc);
  paths = g_new0 (Path, MAX (rows->len, 1));
  if (!fetch_paths (model, rows, paths, cancellable, error))
    {
      paths_free (paths, rows->len);
      g_hash_table_unref (stacks);
      return NULL;
    }
  keyer_init (&keyer, frame_func, frame_data);
  for (guint i = 0; i < rows->len; i++)
    {
      guint64 k = paths[i].n ? keyer_get (&keyer, &paths[i].frames[0])->keys[0] : 0;

      if (k == key)
        g_hash_table_add (stacks, GUINT_TO_POINTER ((guint) g_array_index (rows, StrobeMemoryRow, i).key + 1u));
    }
  g_hash_table_unref (keyer.cache);
  paths_free (paths, rows->len);
  return stacks;
}

StrobeMemoryAllocList *
strobe_memory_alloc_list_select_group (StrobeMemoryAllocList *self, StrobeMemoryModel *model, StrobeMemoryGroupBy by,
                                       guint64 key, StrobeMemoryFrameFunc frame_func, gpointer frame_data,
                                       GCancellable *cancellable, GError **error)
{
  g_autoptr (StrobeMemoryAllocList) out = NULL;
  g_autoptr (GHashTable) stacks = NULL;
  g_autofree StrobeMemoryAlloc *items = g_new (StrobeMemoryAlloc, LIST_CHUNK);
  g_autofree guint64 *indexes = g_new (guint64, LIST_CHUNK);

  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self), NULL);
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), NULL);
  if (by == STROBE_MEMORY_BY_FUNCTION)
    {
      stacks = stacks_of_function (self, model, key, frame_func, frame_data, cancellable, error);
      if (stacks == NULL)
        return NULL;
    }
  out = _strobe_memory_alloc_list_new_like (self);
  for (guint64 at = 0, n; (n = _strobe_memory_alloc_list_get_keys (self, at, LIST_CHUNK, items, indexes)) > 0; at += n)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      for (guint k = 0; k < n; k++)
        {
          const StrobeMemoryAlloc *r = &items[k];

          if (stacks ? g_hash_table_contains (stacks, GUINT_TO_POINTER ((guint) r->callstack + 1u))
                     : direct_key (by, r) == key)
            _strobe_memory_alloc_list_append (out, indexes[k], r);
        }
    }
  return g_steal_pointer (&out);
}

/* Here, not in the stacks' file: that file sits below the model (the model calls it), and
 * this takes the model's store. */
guint32
strobe_memory_model_add_stack (StrobeMemoryModel *self, const guint64 *addresses, guint n)
{
  StrobeMemoryStore store;
  guint32 id;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (self), 0);
  g_return_val_if_fail (n == 0 || addresses != NULL, 0);
  if (n == 0)
    return 0;
  strobe_memory_model_get_store (self, &store);
  g_mutex_lock (store.lock);
  id = strobe_memory_stacks_add_stack (store.stacks, addresses, n);
  g_mutex_unlock (store.lock);
  return id;
}
