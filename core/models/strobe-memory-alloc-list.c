/* strobe-memory-alloc-list.c — allocation lists (see strobe-memory-query.h): what a
 * selection chose, as record indexes into the model (four bytes an allocation), each
 * record read from the model when it is asked for, as it stood when the list was made.
 *
 * A list was a copy of each record and its index (56 bytes an allocation): "allocated in
 * the whole trace" of 100 M allocations was 5.6 GB — twice what the model holds — and
 * sorting it as much again, so the Memory page was killed under a memory limit the model
 * fitted in. A list and its sort now ask first whether they fit (strobe_memory_budget_fits)
 * and say so when they do not.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-memory-query.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-memory-budget.h"
#include "strobe-memory-model-private.h"
#include "strobe-memory-query-private.h"

#define CHUNK 16384u

struct _StrobeMemoryAllocList
{
  GObject            parent_instance;
  StrobeMemoryModel *model;
  GArray            *indexes;   /* guint32: record indexes (the free log keeps 30 bits of them) */
  guint64            entries;   /* free-log entries up to the selection's time, or G_MAXUINT64:
                                 * the selection has no one time (heap blocks: if they ever were) */
  guint64            seen;      /* free-log entries when the list was made: later frees unseen */
  guint64            bytes;     /* the totals' bytes */
};

G_DEFINE_FINAL_TYPE (StrobeMemoryAllocList, strobe_memory_alloc_list, G_TYPE_OBJECT)

static void
strobe_memory_alloc_list_finalize (GObject *object)
{
  StrobeMemoryAllocList *self = STROBE_MEMORY_ALLOC_LIST (object);

  g_clear_object (&self->model);
  g_clear_pointer (&self->indexes, g_array_unref);
  G_OBJECT_CLASS (strobe_memory_alloc_list_parent_class)->finalize (object);
}

static void
strobe_memory_alloc_list_class_init (StrobeMemoryAllocListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_alloc_list_finalize;
}

static void
strobe_memory_alloc_list_init (StrobeMemoryAllocList *self)
{
  self->indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->entries = G_MAXUINT64;
}

static StrobeMemoryAllocList *
list_new (StrobeMemoryModel *model, guint64 entries, guint64 seen)
{
  StrobeMemoryAllocList *self = g_object_new (STROBE_TYPE_MEMORY_ALLOC_LIST, NULL);

  self->model = g_object_ref (model);
  self->entries = entries;
  self->seen = seen;
  return self;
}

/* A block that backed another heap at the selection's time (an arena's chunk, a pool's
 * slab) is flagged STROBE_MEMORY_ALLOC_HEAP_BLOCK, so totals count its bytes once — as
 * the allocations made in it. Without one time: if it ever did. */
static void
listed_flags (const StrobeMemoryAllocList *self, const StrobeMemoryStore *s, guint64 index, StrobeMemoryAlloc *r)
{
  if (strobe_memory_store_was_marked (s, index)
      && (self->entries == G_MAXUINT64 || strobe_memory_store_marked_at (s, index, self->entries)))
    r->flags |= STROBE_MEMORY_ALLOC_HEAP_BLOCK;
  else if (self->entries != G_MAXUINT64)
    r->flags &= (guint8) ~STROBE_MEMORY_ALLOC_HEAP_BLOCK;
}

/* Record @index's @r as the list has it: born when it was (a snapshot's record), freed
 * only by an entry the list saw, its heap-block flag as at the selection's time. */
static void
as_listed (const StrobeMemoryAllocList *self, const StrobeMemoryStore *s, guint64 index, StrobeMemoryAlloc *r)
{
  r->alloc_time = strobe_memory_store_alloc_time (s, index);
  if (r->free_time != STROBE_MEMORY_LIVE && g_array_index (s->end_entry, guint32, index) >= self->seen)
    r->free_time = STROBE_MEMORY_LIVE;
  listed_flags (self, s, index, r);
}

typedef struct
{
  StrobeMemoryAllocList   *list;
  const StrobeMemoryStore *s;
  guint                    next_check;   /* at this length, and each doubling: room for as much again? */
  gboolean                 no_room;      /* there was not: nothing more is read */
} Collect;

static void
collect (guint64 index, const StrobeMemoryAlloc *r, gpointer user)
{
  Collect *c = user;
  StrobeMemoryAlloc item = *r;

  if (c->no_room)
    return;
  /* Its totals need only its counted bytes. */
  listed_flags (c->list, c->s, index, &item);
  _strobe_memory_alloc_list_append (c->list, index, &item);
  if (G_UNLIKELY (c->list->indexes->len >= c->next_check))
    {
      c->next_check = c->next_check <= G_MAXUINT / 2 ? c->next_check * 2 : G_MAXUINT;
      if (!strobe_memory_budget_fits ((guint64) c->list->indexes->len * sizeof (guint32)))
        c->no_room = TRUE;
    }
}

/* What a list's totals need of a record (its counted bytes), not the whole record: its
 * free time is an entry of the free log, a cache miss a record. */
static void
collect_index (guint64 index, gpointer user)
{
  Collect *c = user;
  StrobeMemoryAlloc r = { 0 };

  r.size = strobe_memory_store_size (c->s, index);
  r.flags = *strobe_memory_store_flags (c->s, index);
  r.free_time = STROBE_MEMORY_LIVE;
  collect (index, &r, c);
}

StrobeMemoryAllocList *
strobe_memory_model_select (StrobeMemoryModel *model, const StrobeMemorySelection *sel,
                            GCancellable *cancellable, StrobeMemoryProgressFunc progress,
                            gpointer progress_data, GError **error)
{
  g_autoptr (StrobeMemoryAllocList) list = NULL;
  StrobeMemoryStore s;
  guint64 lo = 0, hi = 0, t = 0, entries = G_MAXUINT64;
  Collect c = { NULL, NULL, 1024, FALSE };   /* then each doubling: /proc is read a few dozen times at most */

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model) && !strobe_memory_model_is_summary (model), NULL);
  g_return_val_if_fail (sel != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  strobe_memory_model_get_store (model, &s);
  strobe_memory_store_read_lock (&s);
  switch (sel->kind)
    {
    case STROBE_MEMORY_SELECT_FREED:
      lo = sel->a ? strobe_memory_store_frees_upto (&s, sel->a - 1) : 0;
      hi = strobe_memory_store_frees_upto (&s, sel->b);
      break;
    case STROBE_MEMORY_SELECT_LIVE_AT:
      hi = strobe_memory_store_allocs_upto (&s, sel->a);
      t = sel->a;
      entries = strobe_memory_store_frees_upto (&s, t);
      break;
    case STROBE_MEMORY_SELECT_LEAKS:
      hi = strobe_memory_store_n_records (&s);
      t = STROBE_MEMORY_LIVE - 1;
      entries = strobe_memory_store_n_entries (&s);
      break;
    case STROBE_MEMORY_SELECT_ALLOCATED_LIVE:
      lo = sel->a ? strobe_memory_store_allocs_upto (&s, sel->a - 1) : 0;
      hi = strobe_memory_store_allocs_upto (&s, MIN (sel->b, sel->c));
      t = sel->c;
      entries = strobe_memory_store_frees_upto (&s, t);
      break;
    default:   /* ALLOCATED, SHORT_LIVED, LONG_LIVED: a slice, filtered */
      lo = sel->a ? strobe_memory_store_allocs_upto (&s, sel->a - 1) : 0;
      hi = strobe_memory_store_allocs_upto (&s, sel->b);
      break;
    }
  list = list_new (model, entries, strobe_memory_store_n_entries (&s));
  g_mutex_unlock (s.lock);
  c.list = list;
  c.s = &s;

  for (guint64 at = lo; at < hi && !c.no_room; at += CHUNK)
    {
      guint64 end = MIN (hi, at + CHUNK);

      if (!strobe_memory_query_check (cancellable, error, progress, progress_data, (gdouble) (at - lo) / (gdouble) MAX (hi - lo, 1)))
        return NULL;
      strobe_memory_store_read_lock (&s);
      if (sel->kind == STROBE_MEMORY_SELECT_FREED)
        for (guint64 j = at; j < end; j++)
          {
            guint32 rk = strobe_memory_store_entry_record_kind (&s, j);
            guint64 index = rk & 0x3fffffffu;

            /* Only the entry that ended it (not marks, not a failed realloc's undo). */
            if (rk >> 30 == STROBE_MEMORY_ENTRY_FREE && g_array_index (s.end_entry, guint32, index) == j)
              collect_index (index, &c);
          }
      else if (sel->kind == STROBE_MEMORY_SELECT_LIVE_AT || sel->kind == STROBE_MEMORY_SELECT_LEAKS
               || sel->kind == STROBE_MEMORY_SELECT_ALLOCATED_LIVE)
        strobe_memory_store_live_indexes (&s, at, end, t, entries, collect_index, &c);
      else if (sel->kind == STROBE_MEMORY_SELECT_ALLOCATED)
        for (guint64 i = at; i < end; i++)
          collect_index (i, &c);
      else
        for (guint64 i = at; i < end; i++)
          {
            StrobeMemoryAlloc r;
            gboolean freed;
            guint64 life;

            strobe_memory_store_get (&s, i, &r);
            freed = r.free_time != STROBE_MEMORY_LIVE;
            life = freed ? r.free_time - r.alloc_time : G_MAXUINT64;
            if ((sel->kind == STROBE_MEMORY_SELECT_SHORT_LIVED && freed && life <= sel->c)
                || (sel->kind == STROBE_MEMORY_SELECT_LONG_LIVED && life > sel->c))
              collect (i, &r, &c);
          }
      g_mutex_unlock (s.lock);
    }
  if (c.no_room)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                           _("Not enough memory for this list: choose a shorter range or another query"));
      return NULL;
    }
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&list);
}

guint64
strobe_memory_alloc_list_get_n_items (StrobeMemoryAllocList *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self), 0);
  return self->indexes->len;
}

guint
strobe_memory_alloc_list_get_items (StrobeMemoryAllocList *self, guint64 first, guint n,
                                    StrobeMemoryAlloc *out, guint64 *indexes)
{
  StrobeMemoryStore s;
  guint got;

  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self), 0);
  g_return_val_if_fail (n == 0 || out != NULL || indexes != NULL, 0);
  if (first >= self->indexes->len)
    return 0;
  got = (guint) MIN ((guint64) n, self->indexes->len - first);
  strobe_memory_model_get_store (self->model, &s);
  strobe_memory_store_read_lock (&s);
  for (guint k = 0; k < got; k++)
    {
      guint32 index = g_array_index (self->indexes, guint32, first + k);

      if (out)
        {
          strobe_memory_store_get (&s, index, &out[k]);
          as_listed (self, &s, index, &out[k]);
        }
      if (indexes)
        indexes[k] = index;
    }
  g_mutex_unlock (s.lock);
  return got;
}

void
strobe_memory_alloc_list_get_totals (StrobeMemoryAllocList *self, guint64 *count, guint64 *bytes)
{
  g_return_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self));
  if (count)
    *count = self->indexes->len;
  if (bytes)
    *bytes = self->bytes;
}

/* ---- sorting ---------------------------------------------------------------------------- */

static guint64
field_of (const StrobeMemoryAlloc *r, guint64 index, StrobeMemoryField f)
{
  switch (f)
    {
    case STROBE_MEMORY_FIELD_ADDRESS: return r->address;
    case STROBE_MEMORY_FIELD_SIZE: return r->size;
    case STROBE_MEMORY_FIELD_TAG: return r->tag;
    case STROBE_MEMORY_FIELD_HEAP: return r->heap;
    case STROBE_MEMORY_FIELD_THREAD: return r->thread_id;
    case STROBE_MEMORY_FIELD_ALLOC_TIME: return r->alloc_time;
    case STROBE_MEMORY_FIELD_FREE_TIME: return r->free_time;
    case STROBE_MEMORY_FIELD_STACK: return r->callstack;
    case STROBE_MEMORY_FIELD_INDEX:
    default: return index;
    }
}

/* One stable LSD radix pass per byte in which the keys differ (sizes and ids differ in two
 * or three), carrying each key's index along: a million answers in tens of milliseconds,
 * where a comparison sort through a callback took a quarter of a second. */
static void
radix_sort (guint64 *keys, guint32 *values, guint64 *tmp_keys, guint32 *tmp_values, gsize n)
{
  guint64 any = 0, all = G_MAXUINT64;
  guint64 *from = keys, *to = tmp_keys;
  guint32 *vfrom = values, *vto = tmp_values;

  for (gsize i = 0; i < n; i++)
    {
      any |= keys[i];
      all &= keys[i];
    }
  for (guint shift = 0; shift < 64; shift += 8)
    {
      gsize count[256] = { 0 }, at = 0;

      if ((((any ^ all) >> shift) & 0xff) == 0)
        continue;
      for (gsize i = 0; i < n; i++)
        count[(from[i] >> shift) & 0xff]++;
      for (guint b = 0; b < 256; b++)
        {
          gsize c = count[b];
          count[b] = at;
          at += c;
        }
      for (gsize i = 0; i < n; i++)
        {
          gsize d = count[(from[i] >> shift) & 0xff]++;

          to[d] = from[i];
          vto[d] = vfrom[i];
        }
      { guint64 *swap = from; from = to; to = swap; }
      { guint32 *swap = vfrom; vfrom = vto; vto = swap; }
    }
  if (from != keys)
    {
      memcpy (keys, from, n * sizeof *keys);
      memcpy (values, vfrom, n * sizeof *values);
    }
}

gboolean
strobe_memory_alloc_list_sort (StrobeMemoryAllocList *self, StrobeMemoryField field, gboolean descending,
                               GError **error)
{
  guint32 *v;
  gsize n;
  g_autofree guint64 *keys = NULL, *tmp_keys = NULL;
  g_autofree guint32 *tmp_values = NULL;
  gboolean by_index = TRUE;

  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_LIST (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  n = self->indexes->len;
  v = (guint32 *) (void *) self->indexes->data;
  if (n < 2)
    return TRUE;
  if (!strobe_memory_budget_fits ((guint64) n * (2 * sizeof (guint64) + sizeof (guint32))))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                           _("Not sorted: not enough memory to sort this many allocations"));
      return FALSE;
    }
  keys = g_new (guint64, n);
  tmp_keys = g_new (guint64, n);
  tmp_values = g_new (guint32, n);
  /* Ties in index order: the value's passes keep the order the index gave. */
  for (gsize i = 1; i < n && by_index; i++)
    by_index = v[i - 1] < v[i];
  if (!by_index)
    {
      for (gsize i = 0; i < n; i++)
        keys[i] = v[i];
      radix_sort (keys, v, tmp_keys, tmp_values, n);
    }
  if (field == STROBE_MEMORY_FIELD_INDEX && !descending)
    return TRUE;
  {
    StrobeMemoryStore s;

    strobe_memory_model_get_store (self->model, &s);
    for (gsize at = 0; at < n; at += CHUNK)
      {
        strobe_memory_store_read_lock (&s);
        for (gsize i = at; i < MIN (n, at + CHUNK); i++)
          {
            StrobeMemoryAlloc r;
            guint64 k;

            strobe_memory_store_get (&s, v[i], &r);
            as_listed (self, &s, v[i], &r);
            k = field_of (&r, v[i], field);
            keys[i] = descending ? ~k : k;
          }
        g_mutex_unlock (s.lock);
      }
  }
  radix_sort (keys, v, tmp_keys, tmp_values, n);
  return TRUE;
}

/* ---- for the groups (strobe-memory-query.c) ------------------------------------------------ */

StrobeMemoryAllocList *
_strobe_memory_alloc_list_new_like (StrobeMemoryAllocList *self)
{
  return list_new (self->model, self->entries, self->seen);
}

/* Readings whose answer does not depend on the list's order (its groups) read the model
 * in allocation order: in a sort's order every column of every record is a cache miss —
 * grouping a million allocations sorted by size took 30 times as long. The indexes are
 * distinct, so where the model has at most 64 records an item a bitmap of them puts the
 * list in order in one scan: grouping 1 M answers of 10 M by tag took 96–111 ms with the
 * sort, 9 ms so. */
StrobeMemoryAllocList *
_strobe_memory_alloc_list_in_allocation_order (StrobeMemoryAllocList *self)
{
  const guint32 *v = (const guint32 *) (void *) self->indexes->data;
  g_autoptr (StrobeMemoryAllocList) copy = NULL;
  gsize n = self->indexes->len, i = 1;
  guint64 words;

  while (i < n && v[i - 1] < v[i])
    i++;
  if (i >= n)
    return g_object_ref (self);
  words = (strobe_memory_model_get_count (self->model) + 63) / 64;
  copy = _strobe_memory_alloc_list_new_like (self);
  copy->bytes = self->bytes;
  if (words <= (guint64) n && strobe_memory_budget_fits (n * sizeof (guint32) + words * sizeof (guint64)))
    {
      g_autofree guint64 *bits = g_new0 (guint64, words);
      guint32 *out;

      for (gsize k = 0; k < n; k++)
        bits[v[k] / 64] |= G_GUINT64_CONSTANT (1) << (v[k] % 64);
      g_array_set_size (copy->indexes, (guint) n);
      out = (guint32 *) (void *) copy->indexes->data;
      for (guint64 w = 0; w < words; w++)
        for (guint64 b = bits[w]; b != 0; b &= b - 1)
          *out++ = (guint32) (w * 64 + (guint64) __builtin_ctzll (b));
      return g_steal_pointer (&copy);
    }
  if (!strobe_memory_budget_fits ((guint64) n * (sizeof (guint32) + 2 * sizeof (guint64) + sizeof (guint32))))
    return g_object_ref (self);
  g_array_append_vals (copy->indexes, v, (guint) n);
  if (!strobe_memory_alloc_list_sort (copy, STROBE_MEMORY_FIELD_INDEX, FALSE, NULL))
    return g_object_ref (self);
  return g_steal_pointer (&copy);
}

guint
_strobe_memory_alloc_list_get_keys (StrobeMemoryAllocList *self, guint64 first, guint n, StrobeMemoryAlloc *out,
                                    guint64 *indexes)
{
  StrobeMemoryStore s;
  gboolean any_marks;
  guint got;

  if (first >= self->indexes->len)
    return 0;
  got = (guint) MIN ((guint64) n, self->indexes->len - first);
  strobe_memory_model_get_store (self->model, &s);
  strobe_memory_store_read_lock (&s);
  any_marks = g_hash_table_size (s.marks) != 0;
  for (guint k = 0; k < got; k++)
    {
      guint32 index = g_array_index (self->indexes, guint32, first + k), end = g_array_index (s.end_entry, guint32, index);
      const StrobeMemoryAttrs *a = strobe_memory_store_attrs (&s, index);
      StrobeMemoryAlloc *r = &out[k];

      memset (r, 0, sizeof *r);
      r->free_time = end != G_MAXUINT32 && end < self->seen ? 0 : STROBE_MEMORY_LIVE;
      r->size = strobe_memory_store_size (&s, index);
      r->heap = a->heap;
      r->tag = a->tag;
      r->thread_id = a->thread;
      r->callstack = index < s.stack->len ? g_array_index (s.stack, guint32, index) : 0;
      r->flags = *strobe_memory_store_flags (&s, index);
      if (any_marks || (r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK))
        as_listed (self, &s, index, r);
      if (indexes)
        indexes[k] = index;
    }
  g_mutex_unlock (s.lock);
  return got;
}

void
_strobe_memory_alloc_list_append (StrobeMemoryAllocList *self, guint64 index, const StrobeMemoryAlloc *r)
{
  guint32 i = (guint32) index;

  self->bytes = strobe_memory_sat_add (self->bytes, (guint64) MAX (strobe_memory_alloc_counted (r), 0));
  g_array_append_val (self->indexes, i);
}
