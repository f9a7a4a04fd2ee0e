/* strobe-memory-series.c — a memory graph's samples over a window (see the header).
 *
 * The per-group values follow the trace's allocations and free-log entries in the order
 * they were applied, writing each group's value at every sample's end; the same walk
 * gives the totals' extremes. A walk of the 100 M-allocation trace took 3.5-4 s (7 s in
 * the viewer while it reads), each time the graph was drawn again. So the store keeps
 * checkpoints along that order (a StrobeMemorySeriesCache): every CHECKPOINT_EVERY events, live bytes and allocations,
 * each group's value, and the extremes of live bytes up to the next one, made once by
 * the first walk that reaches them (and kept when it is cancelled). A sample then walks
 * at most two stretches between checkpoints — to the first one in it and from the last
 * one in it — and takes the extremes of those between from the checkpoints: a whole
 * trace's graph of 2000 samples walks about 2000 × 2 × 2048 events, not all of them. The
 * model's lock is taken per chunk of events, so a live decoder keeps going; the
 * checkpoints (the store's) have a lock of their own, held by one series at a time and
 * taken before the model's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-series.h"

#include <stdatomic.h>

#include "strobe-memory-model-private.h"
#include "strobe-memory-query-private.h"

#define CHUNK       16384u
#define MAX_POINTS  16384u
#define MAX_SLOTS   64u            /* keys told apart in the trace; then "other" */
#define OTHER_SLOT  MAX_SLOTS
#define SMALL_KEYS  256u           /* keys below this are found without hashing */
#define CHECKPOINT_EVERY 2048u     /* events between two checkpoints */

typedef struct
{
  guint    n_groups;
  guint64 *keys;       /* n_groups */
  gint64 **values;     /* n_groups arrays of n_points */
} Groups;

struct _StrobeMemorySeries
{
  GObject                  parent_instance;
  guint64                  start, end, generation;
  guint                    n_points;
  StrobeMemorySeriesPoint *points;
  Groups                   by_tag;
  Groups                   by_heap;
};

G_DEFINE_FINAL_TYPE (StrobeMemorySeries, strobe_memory_series, G_TYPE_OBJECT)

static void
groups_clear (Groups *g)
{
  for (guint i = 0; i < g->n_groups; i++)
    g_free (g->values[i]);
  g_clear_pointer (&g->values, g_free);
  g_clear_pointer (&g->keys, g_free);
  g->n_groups = 0;
}

static void
strobe_memory_series_finalize (GObject *object)
{
  StrobeMemorySeries *self = STROBE_MEMORY_SERIES (object);

  g_free (self->points);
  groups_clear (&self->by_tag);
  groups_clear (&self->by_heap);
  G_OBJECT_CLASS (strobe_memory_series_parent_class)->finalize (object);
}

static void
strobe_memory_series_class_init (StrobeMemorySeriesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_series_finalize;
}

static void
strobe_memory_series_init (StrobeMemorySeries *self)
{
}

/* ---- one kind of group (tags or heaps) while walking ---------------------------------- */

typedef struct
{
  guint8      small[SMALL_KEYS];   /* key → slot + 1 */
  GHashTable *large;               /* key + 1 → slot + 1 */
  guint       n_slots;
  guint64     keys[MAX_SLOTS];
  gint64      now[MAX_SLOTS + 1];
  gint64     *values[MAX_SLOTS + 1];   /* n_points each, made when the slot is */
  guint       n_points;
} Walk;

static void
walk_init (Walk *w, guint n_points)
{
  memset (w, 0, sizeof *w);
  w->large = g_hash_table_new (g_int64_hash, g_int64_equal);
  w->n_points = n_points;
  w->values[OTHER_SLOT] = g_new0 (gint64, n_points);
}

static void
walk_clear (Walk *w)
{
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, w->large);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_free (k);
  g_hash_table_unref (w->large);
  for (guint i = 0; i <= MAX_SLOTS; i++)
    g_free (w->values[i]);
}

static guint
walk_slot (Walk *w, guint64 key)
{
  guint slot;

  if (key < SMALL_KEYS && w->small[key])
    return w->small[key] - 1u;
  if (key >= SMALL_KEYS)
    {
      gpointer found = g_hash_table_lookup (w->large, &key);
      if (found)
        return GPOINTER_TO_UINT (found) - 1u;
    }
  if (w->n_slots == MAX_SLOTS)
    slot = OTHER_SLOT;
  else
    {
      slot = w->n_slots++;
      w->keys[slot] = key;
      w->values[slot] = g_new0 (gint64, w->n_points);
    }
  if (key < SMALL_KEYS)
    w->small[key] = (guint8) (slot + 1);
  else
    g_hash_table_insert (w->large, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (slot + 1));
  return slot;
}

static void
walk_write (Walk *w, guint point)
{
  for (guint i = 0; i < w->n_slots; i++)
    w->values[i][point] = w->now[i];
  w->values[OTHER_SLOT][point] = w->now[OTHER_SLOT];
}

typedef struct
{
  guint slot;
  gint64 peak;
} Rank;

static gint
by_peak (gconstpointer a, gconstpointer b)
{
  const Rank *x = a, *y = b;

  if (x->peak != y->peak)
    return x->peak > y->peak ? -1 : 1;
  return (x->slot > y->slot) - (x->slot < y->slot);
}

/* The largest @max_groups slots on their own, the rest folded into "other". */
static void
walk_finish (Walk *w, guint max_groups, Groups *out)
{
  g_autofree Rank *rank = g_new0 (Rank, w->n_slots + 1);
  gint64 *other = w->values[OTHER_SLOT];
  gboolean any_other = FALSE;
  guint keep;

  for (guint i = 0; i < w->n_slots; i++)
    {
      rank[i].slot = i;
      rank[i].peak = G_MININT64;
      for (guint p = 0; p < w->n_points; p++)
        rank[i].peak = MAX (rank[i].peak, w->values[i][p]);
    }
  qsort (rank, w->n_slots, sizeof *rank, by_peak);
  keep = MIN (max_groups, w->n_slots);
  for (guint p = 0; p < w->n_points; p++)
    any_other = any_other || other[p] != 0;
  for (guint i = keep; i < w->n_slots; i++)
    {
      gint64 *v = w->values[rank[i].slot];
      for (guint p = 0; p < w->n_points; p++)
        {
          other[p] = strobe_memory_sat_add_signed (other[p], v[p]);
          any_other = any_other || v[p] != 0;
        }
    }
  out->n_groups = keep + (any_other ? 1 : 0);
  out->keys = g_new0 (guint64, MAX (out->n_groups, 1));
  out->values = g_new0 (gint64 *, MAX (out->n_groups, 1));
  for (guint i = 0; i < keep; i++)
    {
      out->keys[i] = w->keys[rank[i].slot];
      out->values[i] = g_steal_pointer (&w->values[rank[i].slot]);
    }
  if (any_other)
    {
      out->keys[keep] = STROBE_MEMORY_SERIES_OTHER;
      out->values[keep] = g_steal_pointer (&w->values[OTHER_SLOT]);
    }
}

/* ---- the query ----------------------------------------------------------------------- */

static guint64
sample_end (guint64 a, guint64 b, guint64 step, guint n, guint s)
{
  return s + 1 >= n ? b : a + (guint64) (s + 1) * step;
}

/* Totals only: the model's own series, and the counts by binary search. */
static void
totals_only (StrobeMemoryModel *model, StrobeMemorySeries *self, guint64 step)
{
  g_autofree StrobeMemorySample *samples = g_new0 (StrobeMemorySample, self->n_points);
  StrobeMemoryStore s;
  guint64 i_prev, j_prev;
  gint64 fb, fc_prev, fc;

  strobe_memory_model_get_series (model, self->start, self->end, self->n_points, samples);
  strobe_memory_model_get_store (model, &s);
  strobe_memory_store_read_lock (&s);
  i_prev = self->start ? strobe_memory_store_allocs_upto (&s, self->start - 1) : 0;
  j_prev = self->start ? strobe_memory_store_frees_upto (&s, self->start - 1) : 0;
  strobe_memory_store_cum_free (&s, j_prev, &fb, &fc_prev);
  for (guint p = 0; p < self->n_points; p++)
    {
      guint64 t1 = sample_end (self->start, self->end, step, self->n_points, p);
      guint64 i = strobe_memory_store_allocs_upto (&s, t1 - 1), j = strobe_memory_store_frees_upto (&s, t1 - 1);
      StrobeMemorySeriesPoint *pt = &self->points[p];

      strobe_memory_store_cum_free (&s, j, &fb, &fc);
      pt->time = samples[p].time;
      pt->min_bytes = samples[p].min_bytes;
      pt->max_bytes = samples[p].max_bytes;
      pt->last_bytes = samples[p].last_bytes;
      pt->last_count = samples[p].last_count;
      pt->allocs = i - i_prev;
      pt->frees = (guint64) MAX (fc - fc_prev, 0);
      i_prev = i;
      fc_prev = fc;
    }
  g_mutex_unlock (s.lock);
}

/* The series' points over [@a, @b), @step apart. */
static StrobeMemorySeries *
series_new (StrobeMemoryModel *model, guint64 a, guint64 b, guint n, guint64 *step)
{
  StrobeMemorySeries *self = g_object_new (STROBE_TYPE_MEMORY_SERIES, NULL);

  self->start = a;
  self->end = b;
  self->generation = strobe_memory_model_get_generation (model);
  self->n_points = (guint) MIN ((guint64) MIN (n, MAX_POINTS), b - a);
  self->points = g_new0 (StrobeMemorySeriesPoint, self->n_points);
  *step = MAX ((b - a) / self->n_points, 1);
  for (guint p = 0; p < self->n_points; p++)
    self->points[p].time = a + (guint64) p * *step;
  return self;
}

/* Free-log entry @j's change of live bytes and allocations, and its record's attributes:
 * the entry's record read once (strobe_memory_store_entry_bytes and _count would each
 * read its kind again, and its record's columns). */
static inline const StrobeMemoryAttrs *
entry_change (const StrobeMemoryStore *s, guint64 j, gint64 *bytes, gint64 *count)
{
  guint32 rk = strobe_memory_store_entry_record_kind (s, j), record = rk & 0x3fffffffu;
  gint64 size = strobe_memory_signed_size (strobe_memory_store_size (s, record));
  gint64 counted = (*strobe_memory_store_flags (s, record) & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : size;

  switch (rk >> 30)
    {
    case STROBE_MEMORY_ENTRY_FREE: *bytes = -counted; *count = -1; break;
    case STROBE_MEMORY_ENTRY_MARK: *bytes = -size; *count = 0; break;
    case STROBE_MEMORY_ENTRY_UNMARK: *bytes = size; *count = 0; break;
    default: *bytes = counted; *count = 1; break;   /* UNDO: live again */
    }
  return strobe_memory_store_attrs (s, record);
}

/* ---- the checkpoints ------------------------------------------------------------------ */

typedef struct
{
  guint64 i, j;            /* records and free-log entries applied before it */
  gint64  v, c;            /* live bytes and allocations there */
  gint64  min_v, max_v;    /* live bytes after each event up to the next checkpoint */
  guint64 values;          /* its groups' values in ->values: n_tags + 1, then n_heaps + 1 */
  guint16 n_tags, n_heaps; /* the slots known there (the later ones were 0) */
} Checkpoint;

/* Where a walk is: what it applied and what that left live, in total and by group (the
 * cache's slots, "other" at OTHER_SLOT, as a Walk's now). */
typedef struct
{
  guint64 i, j;
  gint64  v, c;
  gint64  tags[MAX_SLOTS + 1], heaps[MAX_SLOTS + 1];
} Cursor;

struct _StrobeMemorySeriesCache
{
  GMutex  lock;
  guint   every;
  GArray *points;          /* Checkpoint, the first at (0, 0) */
  GArray *values;          /* gint64 */
  Walk    tags, heaps;     /* the groups' slots, by first appearance in the trace */
  Cursor  end;             /* where the checkpointed walk stopped */
  atomic_size_t bytes;     /* the store counts them under the model's lock */
  guint   since;           /* events since the last checkpoint */
  gint64  min_v, max_v;    /* of those */
};

StrobeMemorySeriesCache *
strobe_memory_series_cache_new (void)
{
  StrobeMemorySeriesCache *cache = g_new0 (StrobeMemorySeriesCache, 1);
  Checkpoint first = { 0 };
  gint64 zeros[2] = { 0, 0 };

  g_mutex_init (&cache->lock);
  cache->every = CHECKPOINT_EVERY;
  cache->points = g_array_new (FALSE, FALSE, sizeof (Checkpoint));
  cache->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  walk_init (&cache->tags, 0);
  walk_init (&cache->heaps, 0);
  g_array_append_val (cache->points, first);
  g_array_append_vals (cache->values, zeros, 2);   /* "other" of tags and of heaps */
  cache->min_v = G_MAXINT64;
  cache->max_v = G_MININT64;
  return cache;
}

void
strobe_memory_series_cache_free (StrobeMemorySeriesCache *cache)
{
  if (cache == NULL)
    return;
  walk_clear (&cache->tags);
  walk_clear (&cache->heaps);
  g_array_unref (cache->points);
  g_array_unref (cache->values);
  g_mutex_clear (&cache->lock);
  g_free (cache);
}

void
strobe_memory_series_cache_set_every (StrobeMemorySeriesCache *cache, guint events)
{
  g_return_if_fail (cache != NULL && events > 0);
  g_mutex_lock (&cache->lock);
  g_warn_if_fail (cache->end.i + cache->end.j == 0);
  cache->every = events;
  g_mutex_unlock (&cache->lock);
}

gsize
strobe_memory_series_cache_bytes (StrobeMemorySeriesCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return atomic_load_explicit (&cache->bytes, memory_order_relaxed);
}

/* Applies the next event before (@ie, @je) in applied order; FALSE when there is none.
 * New groups get the cache's next slots. */
static inline gboolean
cursor_step (StrobeMemorySeriesCache *cache, const StrobeMemoryStore *s, Cursor *k, guint64 ie, guint64 je)
{
  gboolean is_alloc;
  const StrobeMemoryAttrs *r;
  gint64 bytes, count;
  guint ts, hs;

  if (k->i >= ie && k->j >= je)
    return FALSE;
  is_alloc = k->j >= je || (k->i < ie && k->i < strobe_memory_store_entry_after (s, k->j));
  if (is_alloc)
    {
      r = strobe_memory_store_attrs (s, k->i);
      bytes = strobe_memory_signed_size (strobe_memory_store_size (s, k->i));
      count = 1;
      k->i++;
    }
  else
    {
      r = entry_change (s, k->j, &bytes, &count);
      k->j++;
    }
  ts = walk_slot (&cache->tags, r->tag);
  hs = walk_slot (&cache->heaps, r->heap);
  k->tags[ts] = strobe_memory_sat_add_signed (k->tags[ts], bytes);
  k->heaps[hs] = strobe_memory_sat_add_signed (k->heaps[hs], bytes);
  k->v = strobe_memory_sat_add_signed (k->v, bytes);
  k->c += count;
  return TRUE;
}

/* The cursor at checkpoint @cp. */
static void
cursor_restore (StrobeMemorySeriesCache *cache, const Checkpoint *cp, Cursor *k)
{
  const gint64 *values = &g_array_index (cache->values, gint64, cp->values);

  memset (k, 0, sizeof *k);
  k->i = cp->i;
  k->j = cp->j;
  k->v = cp->v;
  k->c = cp->c;
  memcpy (k->tags, values, cp->n_tags * sizeof (gint64));
  k->tags[OTHER_SLOT] = values[cp->n_tags];
  memcpy (k->heaps, values + cp->n_tags + 1, cp->n_heaps * sizeof (gint64));
  k->heaps[OTHER_SLOT] = values[cp->n_tags + 1 + cp->n_heaps];
}

static void
checkpoint_add (StrobeMemorySeriesCache *cache)
{
  Checkpoint cp = { 0 };
  const Cursor *k = &cache->end;

  g_array_index (cache->points, Checkpoint, cache->points->len - 1).min_v = cache->min_v;
  g_array_index (cache->points, Checkpoint, cache->points->len - 1).max_v = cache->max_v;
  cp.i = k->i;
  cp.j = k->j;
  cp.v = k->v;
  cp.c = k->c;
  cp.values = cache->values->len;
  cp.n_tags = (guint16) cache->tags.n_slots;
  cp.n_heaps = (guint16) cache->heaps.n_slots;
  g_array_append_vals (cache->values, k->tags, cp.n_tags);
  g_array_append_val (cache->values, k->tags[OTHER_SLOT]);
  g_array_append_vals (cache->values, k->heaps, cp.n_heaps);
  g_array_append_val (cache->values, k->heaps[OTHER_SLOT]);
  g_array_append_val (cache->points, cp);
  atomic_store_explicit (&cache->bytes, cache->points->len * sizeof (Checkpoint) + cache->values->len * sizeof (gint64),
                         memory_order_relaxed);
  cache->since = 0;
  cache->min_v = G_MAXINT64;
  cache->max_v = G_MININT64;
}

/* Checkpoints up to (@ie, @je) (where a window ends). */
static gboolean
cache_extend (StrobeMemorySeriesCache *cache, StrobeMemoryStore *s, guint64 ie, guint64 je,
              GCancellable *cancellable, GError **error, StrobeMemoryProgressFunc progress,
              gpointer progress_data, guint64 *done, guint64 total)
{
  Cursor *k = &cache->end;

  while (k->i < ie || k->j < je)
    {
      guint steps = 0;

      if (!strobe_memory_query_check (cancellable, error, progress, progress_data, (gdouble) *done / (gdouble) total))
        return FALSE;
      strobe_memory_store_read_lock (s);
      while (steps < CHUNK && cursor_step (cache, s, k, ie, je))
        {
          steps++;
          cache->min_v = MIN (cache->min_v, k->v);
          cache->max_v = MAX (cache->max_v, k->v);
          if (++cache->since == cache->every)
            checkpoint_add (cache);
        }
      g_mutex_unlock (s->lock);
      *done += steps;
    }
  return TRUE;
}

/* The last checkpoint at or before position @n (records + entries applied). */
static guint
checkpoint_before (StrobeMemorySeriesCache *cache, guint64 n)
{
  guint lo = 0, hi = cache->points->len;   /* points[0] is at 0 */

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      const Checkpoint *cp = &g_array_index (cache->points, Checkpoint, mid);

      if (cp->i + cp->j <= n)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Walks @k to (@ie, @je), the extremes of live bytes after each event into @pt. */
static void
walk_to (StrobeMemorySeriesCache *cache, const StrobeMemoryStore *s, Cursor *k, guint64 ie, guint64 je,
         StrobeMemorySeriesPoint *pt)
{
  while (cursor_step (cache, s, k, ie, je))
    if (pt != NULL)
      {
        pt->min_bytes = MIN (pt->min_bytes, k->v);
        pt->max_bytes = MAX (pt->max_bytes, k->v);
      }
}

/* Moves @k from where it is to (@ie, @je) as walk_to does, over the checkpoints between. */
static void
advance (StrobeMemorySeriesCache *cache, const StrobeMemoryStore *s, Cursor *k, guint64 ie, guint64 je,
         StrobeMemorySeriesPoint *pt)
{
  guint first = checkpoint_before (cache, k->i + k->j) + 1, last = checkpoint_before (cache, ie + je);

  if (first <= last && first < cache->points->len)
    {
      const Checkpoint *cp = &g_array_index (cache->points, Checkpoint, first);

      walk_to (cache, s, k, cp->i, cp->j, pt);
      for (guint c = first; c < last && pt != NULL; c++)
        {
          cp = &g_array_index (cache->points, Checkpoint, c);
          pt->min_bytes = MIN (pt->min_bytes, cp->min_v);
          pt->max_bytes = MAX (pt->max_bytes, cp->max_v);
        }
      cursor_restore (cache, &g_array_index (cache->points, Checkpoint, last), k);
    }
  walk_to (cache, s, k, ie, je, pt);
}

/* A walk's groups for walk_finish: the cache's slots, their values at each point. */
static void
groups_walk (const Walk *slots, guint n_points, Walk *out)
{
  walk_init (out, n_points);
  out->n_slots = slots->n_slots;
  memcpy (out->keys, slots->keys, sizeof out->keys);
  for (guint i = 0; i < out->n_slots; i++)
    out->values[i] = g_new0 (gint64, n_points);
}

static void
groups_write (Walk *w, const gint64 *now, guint point)
{
  memcpy (w->now, now, sizeof w->now);
  walk_write (w, point);
}

StrobeMemorySeries *
strobe_memory_model_build_series (StrobeMemoryModel *model, guint64 a, guint64 b, guint n, guint max_groups,
                                  GCancellable *cancellable, StrobeMemoryProgressFunc progress,
                                  gpointer progress_data, GError **error)
{
  g_autoptr (StrobeMemorySeries) self = NULL;
  StrobeMemorySeriesCache *cache;
  StrobeMemoryStore s;
  Walk tags, heaps;
  Cursor k;
  guint64 step, i0, j0, ie, je, total, done = 0;
  gint64 fb, fc_prev, fc;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), NULL);
  g_return_val_if_fail (!strobe_memory_model_is_summary (model), NULL);
  g_return_val_if_fail (b > a, NULL);
  g_return_val_if_fail (n > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = series_new (model, a, b, n, &step);

  if (max_groups == 0)
    {
      if (!strobe_memory_query_check (cancellable, error, progress, progress_data, 0.0))
        return NULL;
      totals_only (model, self, step);
      if (progress)
        progress (1.0, progress_data);
      return g_steal_pointer (&self);
    }

  strobe_memory_model_get_store (model, &s);
  cache = s.checkpoints;
  g_mutex_lock (&cache->lock);
  strobe_memory_store_read_lock (&s);
  i0 = a ? strobe_memory_store_allocs_upto (&s, a - 1) : 0;
  j0 = a ? strobe_memory_store_frees_upto (&s, a - 1) : 0;
  ie = strobe_memory_store_allocs_upto (&s, b - 1);
  je = strobe_memory_store_frees_upto (&s, b - 1);
  g_mutex_unlock (s.lock);
  {
    guint64 walked = cache->end.i + cache->end.j, to = ie + je;

    total = (to > walked ? to - walked : 0) + (guint64) self->n_points * 2 * cache->every + 1;
  }
  if (!cache_extend (cache, &s, ie, je, cancellable, error, progress, progress_data, &done, total))
    goto cancelled;

  /* Just before the window, then sample by sample. */
  cursor_restore (cache, &g_array_index (cache->points, Checkpoint, checkpoint_before (cache, i0 + j0)), &k);
  strobe_memory_store_read_lock (&s);
  walk_to (cache, &s, &k, i0, j0, NULL);
  strobe_memory_store_cum_free (&s, j0, &fb, &fc_prev);
  g_mutex_unlock (s.lock);
  groups_walk (&cache->tags, self->n_points, &tags);
  groups_walk (&cache->heaps, self->n_points, &heaps);
  for (guint p = 0; p < self->n_points; p++)
    {
      StrobeMemorySeriesPoint *pt = &self->points[p];
      guint64 t1 = sample_end (a, b, step, self->n_points, p), i_prev = k.i;

      if (p % 64 == 0 && !strobe_memory_query_check (cancellable, error, progress, progress_data,
                                                     (gdouble) (done + (guint64) p * 2 * cache->every) / (gdouble) total))
        {
          walk_clear (&tags);
          walk_clear (&heaps);
          goto cancelled;
        }
      strobe_memory_store_read_lock (&s);
      pt->min_bytes = pt->max_bytes = k.v;
      advance (cache, &s, &k, MIN (strobe_memory_store_allocs_upto (&s, t1 - 1), ie),
               MIN (strobe_memory_store_frees_upto (&s, t1 - 1), je), pt);
      strobe_memory_store_cum_free (&s, k.j, &fb, &fc);
      g_mutex_unlock (s.lock);
      pt->last_bytes = k.v;
      pt->last_count = k.c;
      pt->allocs = k.i - i_prev;
      pt->frees = (guint64) MAX (fc - fc_prev, 0);
      fc_prev = fc;
      groups_write (&tags, k.tags, p);
      groups_write (&heaps, k.heaps, p);
    }
  g_mutex_unlock (&cache->lock);

  walk_finish (&tags, max_groups, &self->by_tag);
  walk_finish (&heaps, max_groups, &self->by_heap);
  walk_clear (&tags);
  walk_clear (&heaps);
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&self);

cancelled:
  g_mutex_unlock (&cache->lock);
  return NULL;
}

guint64
strobe_memory_series_get_start (StrobeMemorySeries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  return self->start;
}

guint64
strobe_memory_series_get_end (StrobeMemorySeries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  return self->end;
}

guint64
strobe_memory_series_get_generation (StrobeMemorySeries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  return self->generation;
}

guint
strobe_memory_series_get_n_points (StrobeMemorySeries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  return self->n_points;
}

const StrobeMemorySeriesPoint *
strobe_memory_series_get_points (StrobeMemorySeries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), NULL);
  return self->points;
}

static Groups *
groups_of (StrobeMemorySeries *self, StrobeMemoryGroupBy by)
{
  return by == STROBE_MEMORY_BY_HEAP ? &self->by_heap : by == STROBE_MEMORY_BY_TAG ? &self->by_tag : NULL;
}

guint
strobe_memory_series_get_n_groups (StrobeMemorySeries *self, StrobeMemoryGroupBy by)
{
  Groups *g;

  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  g = groups_of (self, by);
  return g ? g->n_groups : 0;
}

guint64
strobe_memory_series_get_group_key (StrobeMemorySeries *self, StrobeMemoryGroupBy by, guint group)
{
  Groups *g;

  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), 0);
  g = groups_of (self, by);
  g_return_val_if_fail (g != NULL && group < g->n_groups, 0);
  return g->keys[group];
}

const gint64 *
strobe_memory_series_get_group_values (StrobeMemorySeries *self, StrobeMemoryGroupBy by, guint group)
{
  Groups *g;

  g_return_val_if_fail (STROBE_IS_MEMORY_SERIES (self), NULL);
  g = groups_of (self, by);
  g_return_val_if_fail (g != NULL && group < g->n_groups, NULL);
  return g->values[group];
}
