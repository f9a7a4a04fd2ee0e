/* strobe-memory-slots.c — a summary model's live records, sorted by index (layout:
 * strobe-memory-slots.h).
 *
 * Records are appended in index order and an ended one stays until ended ones are most
 * of the array, then all leave in one pass that keeps the order: O(1) amortized a record,
 * and the array at most about twice the live set. A record appended since the last
 * compaction is found by arithmetic (one slot per index, in order); one a compaction kept
 * through a hash table built then (no inserts, no deletions until the next), behind a
 * one-slot cache (the model reads a record several times as it ends it). A search
 * galloping back from the newest was a fifth of reading a trace whose live set dies in
 * random order (each end a dozen cache misses), and a table of every slot, a miss at each
 * append.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-slots.h"

#include <string.h>

#define MIN_COMPACT 4096u
#define EMPTY       G_MAXUINT64

/* Indexes are handed out in sequence (a trace cannot choose them): Fibonacci hashing
 * spreads them. */
static inline guint
slot_hash (guint32 index, guint mask)
{
  return (guint) (((guint64) index * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & mask;
}

static void
table_put (StrobeMemorySlots *s, guint32 index, guint pos)
{
  guint h = slot_hash (index, s->table_mask);

  while (s->table[h] != EMPTY)
    h = (h + 1) & s->table_mask;
  s->table[h] = (guint64) index << 32 | pos;
}

/* The table of the slots a compaction kept, at most half full. */
static void
table_rebuild (StrobeMemorySlots *s)
{
  guint size = 1024, n = s->len;

  while (size < 2 * n + 2)
    size *= 2;
  if (s->table == NULL || size != s->table_mask + 1)
    {
      g_free (s->table);
      s->table = g_new (guint64, size);
      s->table_mask = size - 1;
    }
  memset (s->table, 0xff, (gsize) size * sizeof (guint64));
  for (guint k = 0; k < s->len; k++)
    table_put (s, s->v[k].index, k);
}

void
strobe_memory_slots_init (StrobeMemorySlots *s)
{
  memset (s, 0, sizeof *s);
  s->scratch.state = STROBE_MEMORY_SLOT_ENDED;
}

void
strobe_memory_slots_clear (StrobeMemorySlots *s)
{
  g_clear_pointer (&s->v, g_free);
  g_clear_pointer (&s->table, g_free);
  s->len = s->cap = s->ended = 0;
}

static void
compact (StrobeMemorySlots *s)
{
  guint n = 0;

  for (guint k = 0; k < s->len; k++)
    if (s->v[k].state != STROBE_MEMORY_SLOT_ENDED)
      s->v[n++] = s->v[k];
  s->len = n;
  s->ended = 0;
  s->cache_pos = 0;
  s->compactions++;
  /* Give memory back when the live set shrank well below what the array grew to. */
  if (s->cap > 4 * MIN_COMPACT && s->len < s->cap / 4)
    {
      s->cap /= 2;
      s->v = g_renew (StrobeMemorySlot, s->v, s->cap);
    }
  s->fresh_pos = s->len;
  s->fresh_index = s->n_records;
  table_rebuild (s);
}

guint32
strobe_memory_slots_append (StrobeMemorySlots *s, const StrobeMemorySlot *slot)
{
  StrobeMemorySlot *p;

  if (s->ended >= MIN_COMPACT && s->ended > s->len / 2)
    compact (s);
  if (s->len == s->cap)
    {
      s->cap = s->cap ? s->cap * 2 : 1024;
      s->v = g_renew (StrobeMemorySlot, s->v, s->cap);
    }
  p = &s->v[s->len++];
  *p = *slot;
  p->index = (guint32) s->n_records++;
  p->state = 0;
  return p->index;
}

StrobeMemorySlot *
strobe_memory_slots_find (StrobeMemorySlots *s, guint64 index)
{
  guint h;

  if (s->cache_pos < s->len && s->v[s->cache_pos].index == index)
    return &s->v[s->cache_pos];
  if (index >= s->n_records)
    return NULL;
  if (index >= s->fresh_index)
    return &s->v[s->fresh_pos + (guint) (index - s->fresh_index)];
  if (s->table == NULL)
    return NULL;
  for (h = slot_hash ((guint32) index, s->table_mask); s->table[h] != EMPTY; h = (h + 1) & s->table_mask)
    if (s->table[h] >> 32 == index)
      {
        s->cache_pos = (guint) s->table[h];
        return &s->v[s->cache_pos];
      }
  return NULL;
}

StrobeMemorySlot *
strobe_memory_slots_get (StrobeMemorySlots *s, guint64 index)
{
  StrobeMemorySlot *p = strobe_memory_slots_find (s, index);

  if (p)
    return p;
  memset (&s->scratch, 0, sizeof s->scratch);
  s->scratch.state = STROBE_MEMORY_SLOT_ENDED;
  return &s->scratch;
}

void
strobe_memory_slots_set_ended (StrobeMemorySlots *s, guint64 index, gboolean ended)
{
  StrobeMemorySlot *p = strobe_memory_slots_find (s, index);

  if (p == NULL || ((p->state & STROBE_MEMORY_SLOT_ENDED) != 0) == ended)
    return;
  if (ended)
    {
      p->state |= STROBE_MEMORY_SLOT_ENDED;
      if (p->state == STROBE_MEMORY_SLOT_ENDED)
        s->ended++;
    }
  else
    {
      if (p->state == STROBE_MEMORY_SLOT_ENDED)
        s->ended--;
      p->state &= (guint8) ~STROBE_MEMORY_SLOT_ENDED;
    }
}

void
strobe_memory_slots_hold (StrobeMemorySlots *s, guint64 index, gboolean hold)
{
  StrobeMemorySlot *p = strobe_memory_slots_find (s, index);

  if (p == NULL || ((p->state & STROBE_MEMORY_SLOT_HELD) != 0) == hold)
    return;
  if (p->state == STROBE_MEMORY_SLOT_ENDED)
    s->ended--;
  p->state ^= STROBE_MEMORY_SLOT_HELD;
  if (p->state == STROBE_MEMORY_SLOT_ENDED)
    s->ended++;
}

gsize
strobe_memory_slots_bytes (const StrobeMemorySlots *s)
{
  return (gsize) s->cap * sizeof (StrobeMemorySlot) + (s->table ? (gsize) (s->table_mask + 1) * sizeof (guint64) : 0);
}
