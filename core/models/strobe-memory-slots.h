/* strobe-memory-slots.h — a summary model's records: only the live ones (and the few
 * ended ones it may still read), sorted by record index (strobe-memory-slots.c). Not
 * installed.
 *
 * A model made by strobe_memory_model_new_summary() keeps its totals, heaps, tags, peak,
 * histogram and call stacks as any model, but not every allocation's life: a record
 * leaves when it ends, so what it holds is in proportion to the live set, not to the
 * trace (heaptrack_print's way; what `strobe-cli memory` needs for its default report).
 * Records keep the index a full model would give them, so what the model prints of a
 * live one (a leak) is the same.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 time;
  guint64 size;
  guint64 address;
  guint32 index;
  guint32 stack;
  guint32 attrs;        /* the store's palette index */
  guint8  flags;        /* StrobeMemoryAllocFlags */
  guint8  state;        /* STROBE_MEMORY_SLOT_* */
} StrobeMemorySlot;

enum
{
  STROBE_MEMORY_SLOT_ENDED = 1,
  STROBE_MEMORY_SLOT_HELD = 2,    /* ended, but the model may make it live again */
};

typedef struct
{
  StrobeMemorySlot *v;  /* ascending index; ended ones until the next compaction */
  guint    len, cap;
  guint    ended;       /* of v, ended (and not held) */
  guint64  n_records;   /* indexes handed out: what a full model's record count would be */
  guint    cache_pos;   /* the last slot found: an allocation's end reads it several times */
  /* Slots from fresh_pos on were appended since the last compaction, one per index from
   * fresh_index on: found by arithmetic. Those before (what compactions kept) through a
   * table of index << 32 | position, open addressing, built at each compaction. */
  guint64  fresh_index;
  guint    fresh_pos;
  guint64 *table;
  guint    table_mask;
  StrobeMemorySlot scratch;   /* what a record that left reads as (ended, zero) */
  guint64  compactions;
} StrobeMemorySlots;

void     strobe_memory_slots_init (StrobeMemorySlots *s);
void     strobe_memory_slots_clear (StrobeMemorySlots *s);
/* A new record, live, with the next index (returned). Ended slots leave here, once they
 * are most of the array — never while a caller holds a slot's pointer across it. */
guint32  strobe_memory_slots_append (StrobeMemorySlots *s, const StrobeMemorySlot *slot);
/* Record @index's slot, NULL once it left. */
StrobeMemorySlot *strobe_memory_slots_find (StrobeMemorySlots *s, guint64 index);
/* Record @index's slot, or the scratch slot (ended) once it left: what the model reads of
 * a record it is about to find ended. */
StrobeMemorySlot *strobe_memory_slots_get (StrobeMemorySlots *s, guint64 index);
/* Record @index ended (@ended) or is live again. */
void     strobe_memory_slots_set_ended (StrobeMemorySlots *s, guint64 index, gboolean ended);
/* Keeps ended record @index (@hold) until released: a legacy realloc's old block, which
 * the realloc's failure makes live again. */
void     strobe_memory_slots_hold (StrobeMemorySlots *s, guint64 index, gboolean hold);
gsize    strobe_memory_slots_bytes (const StrobeMemorySlots *s);

G_END_DECLS
