/* strobe-memory-series.c — a memory graph's samples over a window (see the header).
 *
 * The per-group values start from what was live just before the window (the records live
 * then, through the max-free-time index, so the cost is the live set and not the trace),
 * then follow the window's allocations and free-log entries in the order they were
 * applied, writing each group's value at every sample's end. The same walk gives the
 * totals' extremes and the allocation and free counts. The model's lock is taken per
 * chunk of events, so a live decoder keeps going.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-series.h"

#include "strobe-memory-model-private.h"
#include "strobe-memory-query-private.h"

#define CHUNK       16384u
#define MAX_POINTS  16384u
#define MAX_SLOTS   64u            /* keys told apart in one window; then "other" */
#define OTHER_SLOT  MAX_SLOTS
#define SMALL_KEYS  256u           /* keys below this are found without hashing */

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

typedef struct
{
  Walk                  tags, heaps;
  const StrobeMemoryStore *s;
  guint64               j0;
} Start;

static void
add_live (guint64 index, const StrobeMemoryAlloc *r, gpointer user)
{
  Start *st = user;
  gint64 bytes = strobe_memory_signed_size (r->size);
  guint t, h;

  /* A block backing another heap counts nothing while it is marked. */
  if (((r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) || strobe_memory_store_was_marked (st->s, index))
      && strobe_memory_store_marked_at (st->s, index, st->j0))
    bytes = 0;
  t = walk_slot (&st->tags, r->tag);
  h = walk_slot (&st->heaps, r->heap);
  st->tags.now[t] = strobe_memory_sat_add_signed (st->tags.now[t], bytes);
  st->heaps.now[h] = strobe_memory_sat_add_signed (st->heaps.now[h], bytes);
}

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

StrobeMemorySeries *
strobe_memory_model_build_series (StrobeMemoryModel *model, guint64 a, guint64 b, guint n, guint max_groups,
                                  GCancellable *cancellable, StrobeMemoryProgressFunc progress,
                                  gpointer progress_data, GError **error)
{
  g_autoptr (StrobeMemorySeries) self = NULL;
  StrobeMemoryStore s;
  Start st;
  guint64 step, i, j, ie, je, i0, total, done = 0;
  gint64 v, c;
  guint point = 0;

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
  walk_init (&st.tags, self->n_points);
  walk_init (&st.heaps, self->n_points);
  st.s = &s;
  strobe_memory_store_read_lock (&s);
  i0 = a ? strobe_memory_store_allocs_upto (&s, a - 1) : 0;
  st.j0 = a ? strobe_memory_store_frees_upto (&s, a - 1) : 0;
  ie = strobe_memory_store_allocs_upto (&s, b - 1);
  je = strobe_memory_store_frees_upto (&s, b - 1);
  if (a)
    strobe_memory_store_totals_at (&s, a - 1, &v, &c);
  else
    v = c = 0;
  g_mutex_unlock (s.lock);
  total = i0 / 8 + (ie - i0) + (je - st.j0) + 1;

  /* What was live just before the window, by group. */
  for (guint64 at = 0; at < i0; at += CHUNK)
    {
      if (!strobe_memory_query_check (cancellable, error, progress, progress_data, (gdouble) done / (gdouble) total))
        goto cancelled;
      strobe_memory_store_read_lock (&s);
      strobe_memory_store_live_among (&s, at, MIN (i0, at + CHUNK), a - 1, add_live, &st);
      g_mutex_unlock (s.lock);
      done += MIN (CHUNK, i0 - at) / 8;
    }

  /* The window's events in the order they were applied. */
  i = i0;
  j = st.j0;
  {
    StrobeMemorySeriesPoint *pt = &self->points[0];
    guint64 t1 = sample_end (a, b, step, self->n_points, 0);

    pt->min_bytes = pt->max_bytes = v;
    while (i < ie || j < je)
      {
        guint steps = 0;

        if (!strobe_memory_query_check (cancellable, error, progress, progress_data, (gdouble) done / (gdouble) total))
          goto cancelled;
        strobe_memory_store_read_lock (&s);
        while ((i < ie || j < je) && steps++ < CHUNK)
          {
            gboolean is_alloc = j >= je || (i < ie && i < strobe_memory_store_entry_after (&s, j));
            guint64 t = is_alloc ? strobe_memory_store_time (&s, i) : strobe_memory_store_entry_time (&s, j);
            const StrobeMemoryAttrs *r;
            gint64 bytes, count;
            guint ts, hs;

            /* Samples that end before this event are done. */
            while (t >= t1 && point + 1 < self->n_points)
              {
                pt->last_bytes = v;
                pt->last_count = c;
                walk_write (&st.tags, point);
                walk_write (&st.heaps, point);
                pt = &self->points[++point];
                pt->min_bytes = pt->max_bytes = v;
                t1 = sample_end (a, b, step, self->n_points, point);
              }
            if (is_alloc)
              {
                r = strobe_memory_store_attrs (&s, i);
                bytes = strobe_memory_signed_size (strobe_memory_store_size (&s, i));
                count = 1;
                pt->allocs++;
                i++;
              }
            else
              {
                r = entry_change (&s, j, &bytes, &count);
                if (count < 0)
                  pt->frees++;
                j++;
              }
            ts = walk_slot (&st.tags, r->tag);
            hs = walk_slot (&st.heaps, r->heap);
            st.tags.now[ts] = strobe_memory_sat_add_signed (st.tags.now[ts], bytes);
            st.heaps.now[hs] = strobe_memory_sat_add_signed (st.heaps.now[hs], bytes);
            v = strobe_memory_sat_add_signed (v, bytes);
            c += count;
            pt->min_bytes = MIN (pt->min_bytes, v);
            pt->max_bytes = MAX (pt->max_bytes, v);
          }
        g_mutex_unlock (s.lock);
        done += steps;
      }
    /* The rest of the samples hold what the last event left. */
    for (guint first = point; point < self->n_points; point++)
      {
        pt = &self->points[point];
        if (point > first)
          pt->min_bytes = pt->max_bytes = v;
        pt->last_bytes = v;
        pt->last_count = c;
        walk_write (&st.tags, point);
        walk_write (&st.heaps, point);
      }
  }

  walk_finish (&st.tags, max_groups, &self->by_tag);
  walk_finish (&st.heaps, max_groups, &self->by_heap);
  walk_clear (&st.tags);
  walk_clear (&st.heaps);
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&self);

cancelled:
  walk_clear (&st.tags);
  walk_clear (&st.heaps);
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
