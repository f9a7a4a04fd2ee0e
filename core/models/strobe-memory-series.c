/* strobe-memory-series.c — a memory graph's samples over a window (see the header).
 *
 * The per-group values follow the trace's allocations and free-log entries in the order
 * they were applied, writing each group's value at every sample's end; the same walk
 * gives the totals' extremes. A walk of the 100 M-allocation trace took 3.5-4 s, each
 * time the graph was drawn again, and while the trace was read the graphs never caught
 * up with it. So the store keeps checkpoints along that order (a StrobeMemorySeriesCache),
 * written as the model applies each event (strobe_memory_series_cache_note, from the
 * store's append and log): every CHECKPOINT_EVERY events, live bytes and allocations,
 * each group's value, and the extremes of live bytes up to the next one. A sample walks at
 * most two stretches between checkpoints — to the first one in it and from the last one
 * in it — and takes the extremes of those between from the checkpoints: a whole trace's
 * graph of 2000 samples walks about 2000 × 2 × 2048 events, not all of them. The series
 * reads under the model's lock, taken per sample, so a live decoder keeps going.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-series.h"

#include <stdatomic.h>

#include "strobe-memory-model-private.h"
#include "strobe-memory-query-private.h"

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

/* What the model has applied, as it applies each event: a cache line or two of it, its
 * groups' values tag and heap side by side (the one-tag, one-heap trace's in one line) —
 * these are touched by every event the model reads, among its own streams of writes.
 * With a Cursor's fields apart and the slots looked up per event, the model's reading of
 * 100 M allocations took a tenth longer. */
typedef struct
{
  guint8 *pal;             /* tag and heap slot + 1 by the store's palette index */
  guint32 pal_len;         /* entries */
  guint32 since;           /* events since the last checkpoint */
  gint64  min_v, max_v;    /* live bytes' extremes since it */
  guint64 i, j;
  gint64  v, c;
} Hot;

/* Written as the model applies each event, read by the series; both under the model's
 * lock. */
struct _StrobeMemorySeriesCache
{
  Hot     hot;
  gint64  groups[2 * (MAX_SLOTS + 1)];   /* tag slot s at 2 s, heap slot s at 2 s + 1 */
  guint   every;
  GArray *points;          /* Checkpoint, the first at (0, 0) */
  GArray *values;          /* gint64 */
  Walk    tags, heaps;     /* the groups' slots, by first appearance in the trace */
  atomic_size_t bytes;
};

StrobeMemorySeriesCache *
strobe_memory_series_cache_new (void)
{
  StrobeMemorySeriesCache *cache = g_aligned_alloc0 (1, sizeof (StrobeMemorySeriesCache), 64);
  Checkpoint first = { 0 };
  gint64 zeros[2] = { 0, 0 };

  cache->every = CHECKPOINT_EVERY;
  cache->points = g_array_new (FALSE, FALSE, sizeof (Checkpoint));
  cache->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  walk_init (&cache->tags, 0);
  walk_init (&cache->heaps, 0);
  g_array_append_val (cache->points, first);
  g_array_append_vals (cache->values, zeros, 2);   /* "other" of tags and of heaps */
  cache->hot.min_v = G_MAXINT64;
  cache->hot.max_v = G_MININT64;
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
  g_free (cache->hot.pal);
  g_aligned_free (cache);
}

void
strobe_memory_series_cache_set_every (StrobeMemorySeriesCache *cache, guint events)
{
  g_return_if_fail (cache != NULL && events > 0);
  g_return_if_fail (cache->hot.i + cache->hot.j == 0);
  cache->every = events;
}

gsize
strobe_memory_series_cache_bytes (StrobeMemorySeriesCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return atomic_load_explicit (&cache->bytes, memory_order_relaxed);
}

static void
checkpoint_add (StrobeMemorySeriesCache *cache)
{
  Checkpoint cp = { 0 };
  Hot *h = &cache->hot;

  g_array_index (cache->points, Checkpoint, cache->points->len - 1).min_v = h->min_v;
  g_array_index (cache->points, Checkpoint, cache->points->len - 1).max_v = h->max_v;
  cp.i = h->i;
  cp.j = h->j;
  cp.v = h->v;
  cp.c = h->c;
  cp.values = cache->values->len;
  cp.n_tags = (guint16) cache->tags.n_slots;
  cp.n_heaps = (guint16) cache->heaps.n_slots;
  for (guint t = 0; t < cp.n_tags; t++)
    g_array_append_val (cache->values, cache->groups[2 * t]);
  g_array_append_val (cache->values, cache->groups[2 * OTHER_SLOT]);
  for (guint t = 0; t < cp.n_heaps; t++)
    g_array_append_val (cache->values, cache->groups[2 * t + 1]);
  g_array_append_val (cache->values, cache->groups[2 * OTHER_SLOT + 1]);
  g_array_append_val (cache->points, cp);
  atomic_store_explicit (&cache->bytes, cache->points->len * sizeof (Checkpoint) + cache->values->len * sizeof (gint64),
                         memory_order_relaxed);
  h->since = 0;
  h->min_v = G_MAXINT64;
  h->max_v = G_MININT64;
}

/* Palette entry @palette's group slots, found the first time. */
static void
note_palette (StrobeMemorySeriesCache *cache, guint64 palette, const StrobeMemoryAttrs *attrs)
{
  Hot *h = &cache->hot;

  if (palette >= h->pal_len)
    {
      guint32 len = (guint32) MAX (palette + 64, 2 * (guint64) h->pal_len);

      h->pal = g_realloc (h->pal, 2 * (gsize) len);
      memset (h->pal + 2 * h->pal_len, 0, 2 * (gsize) (len - h->pal_len));
      h->pal_len = len;
    }
  h->pal[2 * palette] = (guint8) (walk_slot (&cache->tags, attrs->tag) + 1);
  h->pal[2 * palette + 1] = (guint8) (walk_slot (&cache->heaps, attrs->heap) + 1);
}

void
strobe_memory_series_cache_note (StrobeMemorySeriesCache *cache, gboolean record, guint64 palette,
                                 const StrobeMemoryAttrs *attrs, gint64 bytes, gint64 count)
{
  Hot *h = &cache->hot;
  guint ts, hs;

  if (G_UNLIKELY (palette >= h->pal_len || h->pal[2 * palette] == 0))
    note_palette (cache, palette, attrs);
  ts = h->pal[2 * palette] - 1u;
  hs = h->pal[2 * palette + 1] - 1u;
  cache->groups[2 * ts] = strobe_memory_sat_add_signed (cache->groups[2 * ts], bytes);
  cache->groups[2 * hs + 1] = strobe_memory_sat_add_signed (cache->groups[2 * hs + 1], bytes);
  h->v = strobe_memory_sat_add_signed (h->v, bytes);
  h->c += count;
  if (record)
    h->i++;
  else
    h->j++;
  if (h->v < h->min_v)
    h->min_v = h->v;
  if (h->v > h->max_v)
    h->max_v = h->v;
  if (G_UNLIKELY (++h->since == cache->every))
    checkpoint_add (cache);
}

/* Applies the next event before (@ie, @je) in applied order; FALSE when there is none. Its
 * groups have slots: the model noted it. */
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

  if (first <= last)
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
  guint64 step, i0, j0, ie, je;
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

  /* Just before the window, then sample by sample; the groups' slots as they are now
   * (the cache's, which grow only under the lock). */
  strobe_memory_model_get_store (model, &s);
  cache = s.checkpoints;
  strobe_memory_store_read_lock (&s);
  i0 = a ? strobe_memory_store_allocs_upto (&s, a - 1) : 0;
  j0 = a ? strobe_memory_store_frees_upto (&s, a - 1) : 0;
  ie = strobe_memory_store_allocs_upto (&s, b - 1);
  je = strobe_memory_store_frees_upto (&s, b - 1);
  cursor_restore (cache, &g_array_index (cache->points, Checkpoint, checkpoint_before (cache, i0 + j0)), &k);
  walk_to (cache, &s, &k, i0, j0, NULL);
  strobe_memory_store_cum_free (&s, j0, &fb, &fc_prev);
  groups_walk (&cache->tags, self->n_points, &tags);
  groups_walk (&cache->heaps, self->n_points, &heaps);
  g_mutex_unlock (s.lock);
  for (guint p = 0; p < self->n_points; p++)
    {
      StrobeMemorySeriesPoint *pt = &self->points[p];
      guint64 t1 = sample_end (a, b, step, self->n_points, p), i_prev = k.i;

      if (p % 64 == 0 && !strobe_memory_query_check (cancellable, error, progress, progress_data,
                                                     (gdouble) p / (gdouble) self->n_points))
        {
          walk_clear (&tags);
          walk_clear (&heaps);
          return NULL;
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

  walk_finish (&tags, max_groups, &self->by_tag);
  walk_finish (&heaps, max_groups, &self->by_heap);
  walk_clear (&tags);
  walk_clear (&heaps);
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&self);
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
