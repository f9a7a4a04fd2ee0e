/* strobe-memory-store.h — the memory model's records and free log as columns, their
 * indexes and what the queries read of them (strobe-memory-store.c). Not installed.
 *
 * Each allocation is kept as columns, 14 bytes (18 with a call stack), and each free-log
 * entry in 10: what the model holds grows by 24–28 bytes an allocation and its free
 * (issue 20: ≤ 32). A record's free time is its ending entry's time, times are 32-bit
 * offsets from their group's first, sizes 24 bits (an allocation of 16 MiB or more is
 * rare, and big enough that a side-table entry is nothing beside it), heap, tag, thread
 * and alignment one 16-bit index into a palette of the combinations seen; what does not
 * fit (a size of 16 MiB, a gap of 2^32
 * ticks inside a group, the 65 536th combination) is kept whole in a side table beside its
 * column ("wide"). Addresses and call stacks, which only some traces carry, are columns
 * that exist from the first record that has one.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"
#include "strobe-column.h"
#include "strobe-memory-slots.h"
#include "strobe-memory-stacks.h"

G_BEGIN_DECLS

#define STROBE_MEMORY_GROUP 32
#define STROBE_MEMORY_BLOCK 1024

/* Entries and records interleave in the order they were applied: allocation record i
 * came before entry e exactly when i < e.after. Times alone cannot say (many events share
 * a time unit). An entry's change of live bytes follows from its record and kind, so it
 * holds no total; running totals are kept per STROBE_MEMORY_GROUP entries. An entry as
 * read (strobe_memory_store_entry): */
typedef struct
{
  guint64 time;
  guint32 record_kind;  /* record | kind << 30 */
  guint32 after;        /* records that existed when it was applied */
} StrobeMemoryFreeEntry;

enum
{
  STROBE_MEMORY_ENTRY_FREE = 0,     /* the record ended: its bytes and one allocation leave */
  STROBE_MEMORY_ENTRY_MARK = 1,     /* its bytes leave "used" (it backs another heap) */
  STROBE_MEMORY_ENTRY_UNMARK = 2,   /* they come back */
  STROBE_MEMORY_ENTRY_UNDO = 3,     /* a failed realloc: the record is live again */
};

#define STROBE_MEMORY_ENTRY_RECORD(e) ((e)->record_kind & 0x3fffffffu)
#define STROBE_MEMORY_ENTRY_KIND(e)   ((e)->record_kind >> 30)
#define STROBE_MEMORY_MAX_RECORDS     0x3fffffffu

typedef struct
{
  gint64 bytes;         /* removed from live */
  gint64 count;
} StrobeMemoryFreeTotals;

/* A block of a late connect's snapshot allocated before it: its record (which holds the
 * snapshot's time) and when it was allocated. */
typedef struct
{
  guint32 record;
  guint64 time;
} StrobeMemoryBorn;

/* What the palette holds: the fields allocations share. */
typedef struct
{
  guint32 heap;
  guint32 tag;
  guint16 thread;
  guint8  align_log2;
} StrobeMemoryAttrs;

/* The columns' "does not fit" cells, and which side-table column holds the value. */
#define STROBE_MEMORY_WIDE   G_MAXUINT32
#define STROBE_MEMORY_WIDE16 G_MAXUINT16
#define STROBE_MEMORY_WIDE24 0xffffffu
enum
{
  STROBE_MEMORY_WIDE_TIME,
  STROBE_MEMORY_WIDE_SIZE,
  STROBE_MEMORY_WIDE_ATTRS,
  STROBE_MEMORY_WIDE_ENTRY_TIME,
  STROBE_MEMORY_WIDE_ENTRY_AFTER,
};

/* The checkpoints of the memory graphs' walks over a store's records and free log
 * (strobe-memory-series.c), noted as each event is applied, under the model's lock. */
typedef struct _StrobeMemorySeriesCache StrobeMemorySeriesCache;

StrobeMemorySeriesCache *strobe_memory_series_cache_new       (void);
void                     strobe_memory_series_cache_free      (StrobeMemorySeriesCache *cache);
/* Events between two checkpoints (tests make it small); before any event. */
void                     strobe_memory_series_cache_set_every (StrobeMemorySeriesCache *cache,
                                                               guint                    events);
/* A record appended (@record) or a free-log entry: live bytes and allocations changed by
 * @bytes and @count in the groups of @attrs, the store's palette entry @palette. */
void                     strobe_memory_series_cache_note      (StrobeMemorySeriesCache *cache,
                                                               gboolean                 record,
                                                               guint64                  palette,
                                                               const StrobeMemoryAttrs *attrs,
                                                               gint64                   bytes,
                                                               gint64                   count);
/* Read without the lock. */
gsize                    strobe_memory_series_cache_bytes     (StrobeMemorySeriesCache *cache);

/* Everything a query reads, under the model's lock. strobe_memory_model_get_store()
 * copies it: the arrays' lengths are what counts, read under the lock. */
typedef struct
{
  GMutex      *lock;
  gint        *writers;      /* threads waiting to write (strobe_memory_store_write_lock) */
  StrobeMemoryStacks *stacks;   /* the model's (strobe_memory_model_add_stack) */
  /* Records, one column each, by record index (allocation order = time order): */
  StrobeColumn *time;         /* guint32: alloc time − time_base of its group, or WIDE */
  GArray      *time_base;    /* guint64 per GROUP records: its first record's time */
  StrobeColumn *size;         /* 24 bits, little-endian, or WIDE24 */
  StrobeColumn *stack;        /* guint32, as long as the last record that had one */
  StrobeColumn *attrs;        /* guint16 index into palette, or WIDE16 */
  StrobeColumn *flags;        /* guint8 StrobeMemoryAllocFlags */
  StrobeColumn *end_entry;    /* guint32: the free-log entry that ended it, or G_MAXUINT32 */
  GArray      *address;      /* guint64, as long as the last record that carried one */
  GArray      *palette;      /* StrobeMemoryAttrs */
  GHashTable  *palette_index;/* StrobeMemoryAttrs (packed, guint64) → index + 1 */
  GHashTable  *wide;         /* guint64 (index << 3 | WIDE_*) → guint64 value */
  /* The free log, one column each, by entry index: */
  StrobeColumn *entry_time;   /* guint32: − entry_base of its group, or WIDE */
  GArray      *entry_base;   /* guint64 per GROUP entries */
  StrobeColumn *entry_record; /* guint32 record | kind << 30 */
  StrobeColumn *entry_after;  /* guint16: − after_base of its group, or WIDE16 */
  GArray      *after_base;   /* guint32 per GROUP entries */
  /* Indexes: */
  GArray      *alloc_cum;    /* guint64 per GROUP records: bytes allocated before it, saturating */
  GArray      *free_cum;     /* StrobeMemoryFreeTotals per GROUP entries: before it */
  GArray      *group_max;    /* guint64 per STROBE_MEMORY_GROUP records: the largest free time
                              * (what counts only while group_live is 0) */
  GArray      *block_max;    /* guint64 per STROBE_MEMORY_BLOCK records (block_live) */
  GArray      *group_live;   /* guint8 per GROUP records: how many are live */
  GArray      *block_live;   /* guint16 per BLOCK records */
  GHashTable  *marks;        /* record → GArray of guint32: its mark and unmark entries */
  GArray      *born;         /* StrobeMemoryBorn, by record */
  guint64      alloc_total;  /* the canonical store's running totals (not for readers) */
  guint32      last_palette; /* the last record's palette index */
  StrobeMemoryFreeTotals free_total;
  StrobeMemorySummary *sum;
  /* A summary model's (strobe_memory_store_set_summary): its live records, the columns
   * and the free log left empty. NULL: a full model's. */
  StrobeMemorySlots *slots;
  StrobeMemorySeriesCache *checkpoints;   /* a full model's */
} StrobeMemoryStore;


/* The model's reading thread takes the lock for each event it adds; a query, for a chunk
 * of records, and again at once after it. A mutex is not fair: the query got it again
 * nearly every time and the trace was read at a fraction of its speed while the Memory
 * page's graphs were made (a 100 M-allocation trace: 1.55 times as long). So a query
 * lets a waiting writer go first. */
static inline void
strobe_memory_store_write_lock (const StrobeMemoryStore *s)
{
  g_atomic_int_inc (s->writers);
  g_mutex_lock (s->lock);
  (void) g_atomic_int_dec_and_test (s->writers);
}

static inline void
strobe_memory_store_read_lock (const StrobeMemoryStore *s)
{
  /* Bounded: a writer that waits for something else than the lock is not waited for. */
  for (guint spins = 0; g_atomic_int_get (s->writers) > 0 && spins < 1000; spins++)
    g_thread_yield ();
  g_mutex_lock (s->lock);
}

/* ---- writing (the model, under its lock) ---- */
void     strobe_memory_store_init (StrobeMemoryStore *s, GMutex *lock, StrobeMemorySummary *sum,
                                   StrobeMemoryStacks *stacks);
void     strobe_memory_store_clear (StrobeMemoryStore *s);
/* From now on (an empty store) keep only live records: ended ones leave, no free log is
 * written; a record's accessors then read its slot (an ended one that left reads as
 * zeros). Only "live now" can be asked of it (strobe_memory_store_live_among with any
 * @t answers what is live now). */
void     strobe_memory_store_set_summary (StrobeMemoryStore *s);
/* Keeps ended record @record readable (@hold) until released (summary stores; nothing
 * in a full one, which keeps every record). */
void     strobe_memory_store_hold (StrobeMemoryStore *s, guint32 record, gboolean hold);
/* Appends @r (live; its free_time is ignored); returns its index. */
guint32  strobe_memory_store_append (StrobeMemoryStore *s, const StrobeMemoryAlloc *r);
/* Appends a free-log entry of @kind for @record at @t, removing @bytes and @count from live;
 * FREE ends the record, UNDO makes it live again. Returns the entry's index. */
guint32  strobe_memory_store_log (StrobeMemoryStore *s, guint64 t, guint32 record, guint kind, gint64 bytes,
                                  gint64 count);
gsize    strobe_memory_store_bytes (const StrobeMemoryStore *s);

/* ---- reading (under the lock) ---- */
guint64  strobe_memory_store_wide (const StrobeMemoryStore *s, guint64 index, guint column);
/* Record @i whole (alloc_time: its record's; see strobe_memory_store_alloc_time). */
void     strobe_memory_store_get (const StrobeMemoryStore *s, guint64 i, StrobeMemoryAlloc *out);
void     strobe_memory_store_entry (const StrobeMemoryStore *s, guint64 j, StrobeMemoryFreeEntry *out);
/* Records allocated at or before @t; free-log entries at or before @t. */
guint64  strobe_memory_store_allocs_upto (const StrobeMemoryStore *s, guint64 t);
guint64  strobe_memory_store_frees_upto (const StrobeMemoryStore *s, guint64 t);
/* When record @record was allocated: its alloc_time, or for a block of a late connect's
 * snapshot its time from the live table (earlier than the record's). */
guint64  strobe_memory_store_alloc_time (const StrobeMemoryStore *s, guint64 record);
void     strobe_memory_store_totals_at (const StrobeMemoryStore *s, guint64 t, gint64 *bytes, gint64 *count);
/* Free-log entry @j's own change: bytes and allocations it removed from live. */
gint64   strobe_memory_store_entry_bytes (const StrobeMemoryStore *s, guint64 j);
gint64   strobe_memory_store_entry_count (const StrobeMemoryStore *s, guint64 j);
/* Bytes allocated by records [0, @k); bytes and allocations removed by entries [0, @j). */
guint64  strobe_memory_store_cum_alloc (const StrobeMemoryStore *s, guint64 k);
void     strobe_memory_store_cum_free (const StrobeMemoryStore *s, guint64 j, gint64 *bytes, gint64 *count);
/* Whether record @record was ever marked as backing a heap; whether it was after the
 * first @j free-log entries. */
gboolean strobe_memory_store_was_marked (const StrobeMemoryStore *s, guint64 record);
gboolean strobe_memory_store_marked_at (const StrobeMemoryStore *s, guint64 record, guint64 j);
/* Calls @fn for each record in [lo, hi) with free_time > @t (the max index skips the
 * rest): with the index (@ended: strobe_memory_store_frees_upto (@t), which the caller
 * has), or with the record read too. */
void     strobe_memory_store_live_indexes (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t,
                                           guint64 ended, void (*fn) (guint64 index, gpointer user),
                                           gpointer user);
void     strobe_memory_store_live_among (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t,
                                         void (*fn) (guint64 index, const StrobeMemoryAlloc *r, gpointer user),
                                         gpointer user);

static inline guint64
strobe_memory_store_n_records (const StrobeMemoryStore *s)
{
  return G_UNLIKELY (s->slots) ? s->slots->n_records : s->end_entry->len;
}

static inline guint64
strobe_memory_store_n_entries (const StrobeMemoryStore *s)
{
  return s->entry_record->len;
}

/* Record @i's allocation time (its record's: a snapshot's block holds the snapshot's). */
static inline guint64
strobe_memory_store_time (const StrobeMemoryStore *s, guint64 i)
{
  guint32 d;

  if (G_UNLIKELY (s->slots))
    return strobe_memory_slots_get (s->slots, i)->time;
  d = g_array_index (s->time, guint32, i);
  if (G_LIKELY (d != STROBE_MEMORY_WIDE))
    return g_array_index (s->time_base, guint64, i / STROBE_MEMORY_GROUP) + d;
  return strobe_memory_store_wide (s, i, STROBE_MEMORY_WIDE_TIME);
}

static inline guint64
strobe_memory_store_size (const StrobeMemoryStore *s, guint64 i)
{
  const guint8 *p;
  guint32 v;

  if (G_UNLIKELY (s->slots))
    return strobe_memory_slots_get (s->slots, i)->size;
  p = (const guint8 *) s->size->data + 3 * i;
  v = (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16;
  return G_LIKELY (v != STROBE_MEMORY_WIDE24) ? v : strobe_memory_store_wide (s, i, STROBE_MEMORY_WIDE_SIZE);
}

static inline const StrobeMemoryAttrs *
strobe_memory_store_attrs (const StrobeMemoryStore *s, guint64 i)
{
  guint16 a;
  guint64 k;

  if (G_UNLIKELY (s->slots))
    return &g_array_index (s->palette, StrobeMemoryAttrs, strobe_memory_slots_get (s->slots, i)->attrs);
  a = g_array_index (s->attrs, guint16, i);
  k = G_LIKELY (a != STROBE_MEMORY_WIDE16) ? a : strobe_memory_store_wide (s, i, STROBE_MEMORY_WIDE_ATTRS);
  return &g_array_index (s->palette, StrobeMemoryAttrs, k);
}

static inline guint8 *
strobe_memory_store_flags (const StrobeMemoryStore *s, guint64 i)
{
  if (G_UNLIKELY (s->slots))
    return &strobe_memory_slots_get (s->slots, i)->flags;
  return &g_array_index (s->flags, guint8, i);
}

static inline gboolean
strobe_memory_store_is_live (const StrobeMemoryStore *s, guint64 i)
{
  if (G_UNLIKELY (s->slots))
    {
      const StrobeMemorySlot *p = strobe_memory_slots_find (s->slots, i);
      return p && !(p->state & STROBE_MEMORY_SLOT_ENDED);
    }
  return g_array_index (s->end_entry, guint32, i) == G_MAXUINT32;
}

/* Record @i's address (0: none carried). */
static inline guint64
strobe_memory_store_address (const StrobeMemoryStore *s, guint64 i)
{
  if (G_UNLIKELY (s->slots))
    return strobe_memory_slots_get (s->slots, i)->address;
  return i < s->address->len ? g_array_index (s->address, guint64, i) : 0;
}

static inline guint64
strobe_memory_store_entry_time (const StrobeMemoryStore *s, guint64 j)
{
  guint32 d = g_array_index (s->entry_time, guint32, j);

  if (G_LIKELY (d != STROBE_MEMORY_WIDE))
    return g_array_index (s->entry_base, guint64, j / STROBE_MEMORY_GROUP) + d;
  return strobe_memory_store_wide (s, j, STROBE_MEMORY_WIDE_ENTRY_TIME);
}

static inline guint64
strobe_memory_store_entry_after (const StrobeMemoryStore *s, guint64 j)
{
  guint16 d = g_array_index (s->entry_after, guint16, j);

  if (G_LIKELY (d != STROBE_MEMORY_WIDE16))
    return (guint64) g_array_index (s->after_base, guint32, j / STROBE_MEMORY_GROUP) + d;
  return strobe_memory_store_wide (s, j, STROBE_MEMORY_WIDE_ENTRY_AFTER);
}

static inline guint32
strobe_memory_store_entry_record_kind (const StrobeMemoryStore *s, guint64 j)
{
  return g_array_index (s->entry_record, guint32, j);
}

/* Record @i's free time, STROBE_MEMORY_LIVE while live (a summary store, which keeps
 * no free log, says its allocation time once it ended). */
static inline guint64
strobe_memory_store_free_time (const StrobeMemoryStore *s, guint64 i)
{
  guint32 e;

  if (G_UNLIKELY (s->slots))
    return strobe_memory_store_is_live (s, i) ? STROBE_MEMORY_LIVE : strobe_memory_store_time (s, i);
  e = g_array_index (s->end_entry, guint32, i);

  return e == G_MAXUINT32 ? STROBE_MEMORY_LIVE : strobe_memory_store_entry_time (s, e);
}

static inline guint64
strobe_memory_sat_add (guint64 a, guint64 b)
{
  guint64 c;
  return __builtin_add_overflow (a, b, &c) ? G_MAXUINT64 : c;
}

static inline gint64
strobe_memory_sat_add_signed (gint64 a, gint64 b)
{
  gint64 c;
  return __builtin_add_overflow (a, b, &c) ? (b > 0 ? G_MAXINT64 : G_MININT64) : c;
}

/* A size as it enters signed totals: absurd ones (>= 2^48) clamp there. */
#define STROBE_MEMORY_ABSURD_SIZE (G_GUINT64_CONSTANT (1) << 48)

static inline gint64
strobe_memory_signed_size (guint64 size)
{
  return size >= STROBE_MEMORY_ABSURD_SIZE ? (gint64) STROBE_MEMORY_ABSURD_SIZE : (gint64) size;
}

G_END_DECLS
