/* strobe-memory-store.c — the memory model's records and free log as columns, their
 * indexes, and what the queries read of them (layout: strobe-memory-store.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-store.h"

#include <string.h>

/* ---- writing ------------------------------------------------------------------------- */

#define PUSH STROBE_COLUMN_PUSH

/* Zero cells up to @len. */
static void
column_zero_to (StrobeColumn *c, guint len)
{
  while (c->cap < len)
    strobe_column_grow (c);
  if (c->len < len)
    memset (c->data + (gsize) c->len * c->elt, 0, (gsize) (len - c->len) * c->elt);
  c->len = MAX (c->len, len);
}

static void
wide_set (StrobeMemoryStore *s, guint64 index, guint column, guint64 value)
{
  guint64 *k = g_new (guint64, 1), *v = g_new (guint64, 1);

  *k = index << 3 | column;
  *v = value;
  g_hash_table_replace (s->wide, k, v);
}

guint64
strobe_memory_store_wide (const StrobeMemoryStore *s, guint64 index, guint column)
{
  guint64 k = index << 3 | column;
  const guint64 *v = g_hash_table_lookup (s->wide, &k);

  return v ? *v : 0;
}

static guint
attrs_hash (gconstpointer p)
{
  const StrobeMemoryAttrs *a = p;

  return a->heap * 31u + a->tag * 131u + a->thread * 7u + a->align_log2;
}

static gboolean
attrs_equal (gconstpointer p, gconstpointer q)
{
  const StrobeMemoryAttrs *a = p, *b = q;

  return a->heap == b->heap && a->tag == b->tag && a->thread == b->thread && a->align_log2 == b->align_log2;
}

/* The palette index of @a's combination, added when new. */
static guint64
palette_of (StrobeMemoryStore *s, const StrobeMemoryAttrs *a)
{
  gpointer v;

  /* Allocations in a row mostly share their heap, tag, thread and alignment. */
  if (s->palette->len && attrs_equal (a, &g_array_index (s->palette, StrobeMemoryAttrs, s->last_palette)))
    return s->last_palette;
  v = g_hash_table_lookup (s->palette_index, a);
  if (v == NULL)
    {
      g_array_append_vals (s->palette, a, 1);
      v = GUINT_TO_POINTER (s->palette->len);
      g_hash_table_insert (s->palette_index, g_memdup2 (a, sizeof *a), v);
    }
  s->last_palette = GPOINTER_TO_UINT (v) - 1;
  return s->last_palette;
}

/* The max index after record @record ended at @t (@ended) or became live again. A group
 * or block counts as live while its live count is not 0, whatever its maximum says; the
 * maximum is the largest end time of its records so far, kept as they end (a record that
 * became live again leaves its old end time in it: too large is safe — the group is
 * looked at, not skipped). No recount over the group's records, whose free-log entries
 * are scattered: that was a twentieth of reading a trace. */
static void
index_update (StrobeMemoryStore *s, guint32 record, gboolean ended, guint64 t)
{
  guint g = record / STROBE_MEMORY_GROUP, b = record / STROBE_MEMORY_BLOCK;
  guint8 *glive = &g_array_index (s->group_live, guint8, g);
  guint16 *blive = &g_array_index (s->block_live, guint16, b);
  guint64 *gmax = &g_array_index (s->group_max, guint64, g), *bmax = &g_array_index (s->block_max, guint64, b);

  if (!ended)
    {
      (*glive)++;
      (*blive)++;
      return;
    }
  (*glive)--;
  (*blive)--;
  *gmax = MAX (*gmax, t);
  *bmax = MAX (*bmax, t);
}

static guint32
summary_append (StrobeMemoryStore *s, const StrobeMemoryAlloc *r, const StrobeMemoryAttrs *a)
{
  StrobeMemorySlot slot;

  if (s->slots->n_records >= STROBE_MEMORY_MAX_RECORDS)
    return G_MAXUINT32;   /* the model's room() said no before */
  memset (&slot, 0, sizeof slot);
  slot.time = r->alloc_time;
  slot.size = r->size;
  slot.address = r->address;
  slot.stack = r->callstack;
  slot.attrs = (guint32) palette_of (s, a);
  slot.flags = r->flags;
  s->alloc_total = strobe_memory_sat_add (s->alloc_total, (guint64) strobe_memory_signed_size (r->size));
  return strobe_memory_slots_append (s->slots, &slot);
}

guint32
strobe_memory_store_append (StrobeMemoryStore *s, const StrobeMemoryAlloc *r)
{
  guint32 index = s->end_entry->len, none = G_MAXUINT32, v32;
  StrobeMemoryAttrs a;
  guint64 base, k;
  guint16 v16;

  memset (&a, 0, sizeof a);
  a.heap = r->heap;
  a.tag = r->tag;
  a.thread = r->thread_id;
  a.align_log2 = r->alignment_log2;
  if (s->slots)
    return summary_append (s, r, &a);

  if (index % STROBE_MEMORY_GROUP == 0)
    {
      guint8 zero8 = 0;
      guint64 zero64 = 0;

      g_array_append_val (s->alloc_cum, s->alloc_total);
      g_array_append_val (s->group_max, zero64);
      g_array_append_val (s->group_live, zero8);
      g_array_append_val (s->time_base, r->alloc_time);
      if (index % STROBE_MEMORY_BLOCK == 0)
        {
          guint16 zero16 = 0;
          g_array_append_val (s->block_max, zero64);
          g_array_append_val (s->block_live, zero16);
        }
    }
  base = g_array_index (s->time_base, guint64, index / STROBE_MEMORY_GROUP);
  v32 = r->alloc_time >= base && r->alloc_time - base < STROBE_MEMORY_WIDE ? (guint32) (r->alloc_time - base)
                                                                          : STROBE_MEMORY_WIDE;
  if (v32 == STROBE_MEMORY_WIDE)
    wide_set (s, index, STROBE_MEMORY_WIDE_TIME, r->alloc_time);
  PUSH (s->time, guint32, v32);
  v32 = r->size < STROBE_MEMORY_WIDE24 ? (guint32) r->size : STROBE_MEMORY_WIDE24;
  if (v32 == STROBE_MEMORY_WIDE24)
    wide_set (s, index, STROBE_MEMORY_WIDE_SIZE, r->size);
  for (guint byte = 0; byte < 3; byte++)
    PUSH (s->size, guint8, (guint8) (v32 >> (8 * byte)));
  if (r->callstack != 0 || s->stack->len)
    {
      column_zero_to (s->stack, index);   /* the records before had no stack */
      PUSH (s->stack, guint32, r->callstack);
    }
  k = palette_of (s, &a);
  v16 = k < STROBE_MEMORY_WIDE16 ? (guint16) k : STROBE_MEMORY_WIDE16;
  if (v16 == STROBE_MEMORY_WIDE16)
    wide_set (s, index, STROBE_MEMORY_WIDE_ATTRS, k);
  PUSH (s->attrs, guint16, v16);
  PUSH (s->flags, guint8, r->flags);
  PUSH (s->end_entry, guint32, none);
  if (r->address != 0 || s->address->len)
    {
      g_array_set_size (s->address, index);   /* zeroed: the records before carried none */
      g_array_append_val (s->address, r->address);
    }
  index_update (s, index, FALSE, 0);
  s->alloc_total = strobe_memory_sat_add (s->alloc_total, (guint64) strobe_memory_signed_size (r->size));
  strobe_memory_series_cache_note (s->checkpoints, TRUE, k, &a, strobe_memory_signed_size (r->size), 1);
  return index;
}

guint32
strobe_memory_store_log (StrobeMemoryStore *s, guint64 t, guint32 record, guint kind, gint64 bytes, gint64 count)
{
  guint32 j = s->entry_record->len, v32, rk = record | ((guint32) kind << 30);
  guint64 base, after = s->end_entry->len, after_base;
  guint16 v16;

  if (s->slots)
    {
      /* No free log: the record leaves (or, undone, is live again). */
      s->free_total.bytes = strobe_memory_sat_add_signed (s->free_total.bytes, bytes);
      s->free_total.count += count;
      if (kind == STROBE_MEMORY_ENTRY_FREE || kind == STROBE_MEMORY_ENTRY_UNDO)
        strobe_memory_slots_set_ended (s->slots, record, kind == STROBE_MEMORY_ENTRY_FREE);
      return 0;
    }

  if (j % STROBE_MEMORY_GROUP == 0)
    {
      guint32 a = (guint32) after;

      g_array_append_val (s->free_cum, s->free_total);
      g_array_append_val (s->entry_base, t);
      g_array_append_val (s->after_base, a);
    }
  base = g_array_index (s->entry_base, guint64, j / STROBE_MEMORY_GROUP);
  v32 = t >= base && t - base < STROBE_MEMORY_WIDE ? (guint32) (t - base) : STROBE_MEMORY_WIDE;
  if (v32 == STROBE_MEMORY_WIDE)
    wide_set (s, j, STROBE_MEMORY_WIDE_ENTRY_TIME, t);
  PUSH (s->entry_time, guint32, v32);
  PUSH (s->entry_record, guint32, rk);
  after_base = g_array_index (s->after_base, guint32, j / STROBE_MEMORY_GROUP);
  v16 = after - after_base < STROBE_MEMORY_WIDE16 ? (guint16) (after - after_base) : STROBE_MEMORY_WIDE16;
  if (v16 == STROBE_MEMORY_WIDE16)
    wide_set (s, j, STROBE_MEMORY_WIDE_ENTRY_AFTER, after);
  PUSH (s->entry_after, guint16, v16);
  s->free_total.bytes = strobe_memory_sat_add_signed (s->free_total.bytes, bytes);
  s->free_total.count += count;
  {
    const StrobeMemoryAttrs *a = strobe_memory_store_attrs (s, record);

    strobe_memory_series_cache_note (s->checkpoints, FALSE, (guint64) (a - (const StrobeMemoryAttrs *) (gpointer) s->palette->data),
                                     a, -bytes, -count);
  }
  if (kind == STROBE_MEMORY_ENTRY_FREE)
    {
      g_array_index (s->end_entry, guint32, record) = j;
      index_update (s, record, TRUE, t);
    }
  else if (kind == STROBE_MEMORY_ENTRY_UNDO)
    {
      g_array_index (s->end_entry, guint32, record) = G_MAXUINT32;
      index_update (s, record, FALSE, 0);
    }
  return j;
}

gsize
strobe_memory_store_bytes (const StrobeMemoryStore *s)
{
  GArray *arrays[] = { s->time_base, s->address, s->palette, s->entry_base, s->after_base, s->alloc_cum, s->free_cum,
                       s->group_max, s->block_max, s->group_live, s->block_live, s->born };
  StrobeColumn *columns[] = { s->time, s->size, s->stack, s->attrs, s->flags, s->end_entry, s->entry_time,
                                    s->entry_record, s->entry_after };
  gsize n = (gsize) g_hash_table_size (s->wide) * 64 + (gsize) g_hash_table_size (s->palette_index) * 48;

  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    n += (gsize) arrays[i]->len * g_array_get_element_size (arrays[i]);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    n += (gsize) columns[i]->len * columns[i]->elt;
  if (s->slots)
    n += strobe_memory_slots_bytes (s->slots);
  if (s->checkpoints)
    n += strobe_memory_series_cache_bytes (s->checkpoints);
  return n;
}

void
strobe_memory_store_init (StrobeMemoryStore *s, GMutex *lock, StrobeMemorySummary *sum, StrobeMemoryStacks *stacks)
{
  memset (s, 0, sizeof *s);
  s->lock = lock;
  s->writers = g_new0 (gint, 1);
  s->stacks = stacks;
  s->sum = sum;
  s->time = strobe_column_new (sizeof (guint32));
  s->time_base = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->size = strobe_column_new (1);   /* three cells a record */
  s->stack = strobe_column_new (sizeof (guint32));
  s->attrs = strobe_column_new (sizeof (guint16));
  s->flags = strobe_column_new (sizeof (guint8));
  s->end_entry = strobe_column_new (sizeof (guint32));
  s->address = g_array_new (FALSE, TRUE, sizeof (guint64));
  s->palette = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryAttrs));
  s->palette_index = g_hash_table_new_full (attrs_hash, attrs_equal, g_free, NULL);
  s->wide = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  s->entry_time = strobe_column_new (sizeof (guint32));
  s->entry_base = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->entry_record = strobe_column_new (sizeof (guint32));
  s->entry_after = strobe_column_new (sizeof (guint16));
  s->after_base = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->alloc_cum = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->free_cum = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryFreeTotals));
  s->group_max = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->block_max = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->group_live = g_array_new (FALSE, FALSE, sizeof (guint8));
  s->block_live = g_array_new (FALSE, FALSE, sizeof (guint16));
  s->marks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  s->born = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryBorn));
  s->checkpoints = strobe_memory_series_cache_new ();
}

void
strobe_memory_store_clear (StrobeMemoryStore *s)
{
  GArray **arrays[] = { &s->time_base, &s->address, &s->palette, &s->entry_base, &s->after_base, &s->alloc_cum,
                        &s->free_cum, &s->group_max, &s->block_max, &s->group_live, &s->block_live, &s->born };
  StrobeColumn **columns[] = { &s->time, &s->size, &s->stack, &s->attrs, &s->flags, &s->end_entry,
                                     &s->entry_time, &s->entry_record, &s->entry_after };

  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    g_clear_pointer (arrays[i], g_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    g_clear_pointer (columns[i], strobe_column_free);
  g_clear_pointer (&s->writers, g_free);
  g_clear_pointer (&s->palette_index, g_hash_table_unref);
  g_clear_pointer (&s->wide, g_hash_table_unref);
  g_clear_pointer (&s->marks, g_hash_table_unref);
  if (s->slots)
    strobe_memory_slots_clear (s->slots);
  g_clear_pointer (&s->slots, g_free);
  g_clear_pointer (&s->checkpoints, strobe_memory_series_cache_free);
}

void
strobe_memory_store_set_summary (StrobeMemoryStore *s)
{
  g_return_if_fail (s->slots == NULL && s->end_entry->len == 0);
  s->slots = g_new (StrobeMemorySlots, 1);
  strobe_memory_slots_init (s->slots);
  g_clear_pointer (&s->checkpoints, strobe_memory_series_cache_free);   /* no series */
}

void
strobe_memory_store_hold (StrobeMemoryStore *s, guint32 record, gboolean hold)
{
  if (s->slots)
    strobe_memory_slots_hold (s->slots, record, hold);
}

/* ---- reading ------------------------------------------------------------------------- */

void
strobe_memory_store_get (const StrobeMemoryStore *s, guint64 i, StrobeMemoryAlloc *out)
{
  const StrobeMemoryAttrs *a = strobe_memory_store_attrs (s, i);

  out->alloc_time = strobe_memory_store_time (s, i);
  out->free_time = strobe_memory_store_free_time (s, i);
  out->address = strobe_memory_store_address (s, i);
  out->size = strobe_memory_store_size (s, i);
  out->heap = a->heap;
  out->tag = a->tag;
  if (s->slots)
    out->callstack = strobe_memory_slots_get (s->slots, i)->stack;
  else
    out->callstack = i < s->stack->len ? g_array_index (s->stack, guint32, i) : 0;
  out->thread_id = a->thread;
  out->alignment_log2 = a->align_log2;
  out->flags = *strobe_memory_store_flags (s, i);
}

void
strobe_memory_store_entry (const StrobeMemoryStore *s, guint64 j, StrobeMemoryFreeEntry *out)
{
  out->time = strobe_memory_store_entry_time (s, j);
  out->record_kind = strobe_memory_store_entry_record_kind (s, j);
  out->after = (guint32) strobe_memory_store_entry_after (s, j);
}

guint64
strobe_memory_store_allocs_upto (const StrobeMemoryStore *s, guint64 t)
{
  guint64 lo = 0, hi = strobe_memory_store_n_records (s);

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (strobe_memory_store_time (s, mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
strobe_memory_store_alloc_time (const StrobeMemoryStore *s, guint64 record)
{
  const StrobeMemoryBorn *b = (const StrobeMemoryBorn *) (void *) s->born->data;
  guint lo = 0, hi = s->born->len;

  if (!(*strobe_memory_store_flags (s, record) & STROBE_MEMORY_ALLOC_FROM_SNAPSHOT))
    return strobe_memory_store_time (s, record);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (b[mid].record < record)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < s->born->len && b[lo].record == record ? b[lo].time : strobe_memory_store_time (s, record);
}

guint64
strobe_memory_store_frees_upto (const StrobeMemoryStore *s, guint64 t)
{
  guint64 lo = 0, hi = strobe_memory_store_n_entries (s);

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (strobe_memory_store_entry_time (s, mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
strobe_memory_store_cum_alloc (const StrobeMemoryStore *s, guint64 k)
{
  guint64 g = k / STROBE_MEMORY_GROUP, v;

  if (k == 0)
    return 0;
  if (k % STROBE_MEMORY_GROUP == 0)
    {
      /* The total before the next group, or after the last record. */
      if (g < s->alloc_cum->len)
        return g_array_index (s->alloc_cum, guint64, g);
      g--;
    }
  v = g_array_index (s->alloc_cum, guint64, g);
  for (guint64 i = g * STROBE_MEMORY_GROUP; i < k; i++)
    v = strobe_memory_sat_add (v, (guint64) strobe_memory_signed_size (strobe_memory_store_size (s, i)));
  return v;
}

gint64
strobe_memory_store_entry_bytes (const StrobeMemoryStore *s, guint64 j)
{
  guint32 rk = strobe_memory_store_entry_record_kind (s, j), record = rk & 0x3fffffffu;
  gint64 size = strobe_memory_signed_size (strobe_memory_store_size (s, record));
  gint64 counted = (*strobe_memory_store_flags (s, record) & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : size;

  switch (rk >> 30)
    {
    case STROBE_MEMORY_ENTRY_FREE: return counted;
    case STROBE_MEMORY_ENTRY_MARK: return size;
    case STROBE_MEMORY_ENTRY_UNMARK: return -size;
    default: return -counted;
    }
}

gboolean
strobe_memory_store_was_marked (const StrobeMemoryStore *s, guint64 record)
{
  return g_hash_table_contains (s->marks, GUINT_TO_POINTER ((guint) record));
}

gboolean
strobe_memory_store_marked_at (const StrobeMemoryStore *s, guint64 record, guint64 j)
{
  GArray *m = g_hash_table_lookup (s->marks, GUINT_TO_POINTER ((guint) record));
  gboolean marked = FALSE;

  /* Marks and unmarks alternate, in order. */
  for (guint i = 0; m && i < m->len && g_array_index (m, guint32, i) < j; i++)
    marked = strobe_memory_store_entry_record_kind (s, g_array_index (m, guint32, i)) >> 30 == STROBE_MEMORY_ENTRY_MARK;
  return marked;
}

gint64
strobe_memory_store_entry_count (const StrobeMemoryStore *s, guint64 j)
{
  switch (strobe_memory_store_entry_record_kind (s, j) >> 30)
    {
    case STROBE_MEMORY_ENTRY_FREE: return 1;
    case STROBE_MEMORY_ENTRY_UNDO: return -1;
    default: return 0;
    }
}

void
strobe_memory_store_cum_free (const StrobeMemoryStore *s, guint64 j, gint64 *bytes, gint64 *count)
{
  guint64 g = j / STROBE_MEMORY_GROUP;
  StrobeMemoryFreeTotals v = { 0, 0 };

  if (j && j % STROBE_MEMORY_GROUP == 0 && g >= s->free_cum->len)
    g--;
  if (j)
    v = g_array_index (s->free_cum, StrobeMemoryFreeTotals, g);
  for (guint64 i = g * STROBE_MEMORY_GROUP; i < j; i++)
    {
      v.bytes = strobe_memory_sat_add_signed (v.bytes, strobe_memory_store_entry_bytes (s, i));
      v.count += strobe_memory_store_entry_count (s, i);
    }
  *bytes = v.bytes;
  *count = v.count;
}

void
strobe_memory_store_totals_at (const StrobeMemoryStore *s, guint64 t, gint64 *bytes, gint64 *count)
{
  guint64 k = strobe_memory_store_allocs_upto (s, t), j = strobe_memory_store_frees_upto (s, t);
  gint64 b = (gint64) MIN (strobe_memory_store_cum_alloc (s, k), (guint64) G_MAXINT64);
  gint64 c = (gint64) k, fb, fc;

  strobe_memory_store_cum_free (s, j, &fb, &fc);
  b = strobe_memory_sat_add_signed (b, fb == G_MININT64 ? G_MAXINT64 : -fb);
  c -= fc;
  if (bytes)
    *bytes = b;
  if (count)
    *count = c;
}

/* A summary store knows only what is live now, in index order. */
static void
summary_live_indexes (const StrobeMemoryStore *s, guint64 lo, guint64 hi,
                      void (*fn) (guint64 index, gpointer user), gpointer user)
{
  for (guint k = 0; k < s->slots->len; k++)
    {
      guint64 i = s->slots->v[k].index;

      if (i < lo || i >= hi || (s->slots->v[k].state & STROBE_MEMORY_SLOT_ENDED))
        continue;
      fn (i, user);
    }
}

void
strobe_memory_store_live_indexes (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t, guint64 ended,
                                  void (*fn) (guint64 index, gpointer user), gpointer user)
{
  const guint64 *gmax = (const guint64 *) (void *) s->group_max->data;
  const guint64 *bmax = (const guint64 *) (void *) s->block_max->data;
  const guint8 *glive = (const guint8 *) (void *) s->group_live->data;
  const guint16 *blive = (const guint16 *) (void *) s->block_live->data;
  const guint32 *end_entry;
  guint64 i = lo;

  if (s->slots)
    {
      summary_live_indexes (s, lo, hi, fn, user);
      return;
    }
  /* Entry times never go back (the model clamps them): a record ended by @t exactly when
   * the entry that ended it is among the first @ended. Its place is read in the record's
   * own column, not its entry's time in the free log — a cache miss a record, most of
   * listing what was live at a moment of a 100 M-allocation trace. */
  end_entry = (const guint32 *) (void *) s->end_entry->data;
  while (i < hi)
    {
      if (i % STROBE_MEMORY_BLOCK == 0 && i + STROBE_MEMORY_BLOCK <= hi && blive[i / STROBE_MEMORY_BLOCK] == 0
          && bmax[i / STROBE_MEMORY_BLOCK] <= t)
        {
          i += STROBE_MEMORY_BLOCK;
          continue;
        }
      if (i % STROBE_MEMORY_GROUP == 0 && i + STROBE_MEMORY_GROUP <= hi && glive[i / STROBE_MEMORY_GROUP] == 0
          && gmax[i / STROBE_MEMORY_GROUP] <= t)
        {
          i += STROBE_MEMORY_GROUP;
          continue;
        }
      if (end_entry[i] == G_MAXUINT32 || end_entry[i] >= ended)
        fn (i, user);
      i++;
    }
}

typedef struct
{
  const StrobeMemoryStore *s;
  void (*fn) (guint64 index, const StrobeMemoryAlloc *r, gpointer user);
  gpointer user;
} WithRecord;

static void
with_record (guint64 index, gpointer user)
{
  WithRecord *w = user;
  StrobeMemoryAlloc r;

  strobe_memory_store_get (w->s, index, &r);
  w->fn (index, &r, w->user);
}

void
strobe_memory_store_live_among (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t,
                                void (*fn) (guint64 index, const StrobeMemoryAlloc *r, gpointer user),
                                gpointer user)
{
  WithRecord w = { s, fn, user };

  strobe_memory_store_live_indexes (s, lo, hi, t, strobe_memory_store_frees_upto (s, t), with_record, &w);
}
