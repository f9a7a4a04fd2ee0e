/* strobe-memory-model-private.h — the memory model's storage, shared with its queries
 * (strobe-memory-query.c). Not installed.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-livemap.h"
#include "strobe-memory-model.h"
#include "strobe-memory-stacks.h"

G_BEGIN_DECLS

#define STROBE_MEMORY_GROUP 32
#define STROBE_MEMORY_BLOCK 1024

/* Entries and records interleave in the order they were applied: allocation record i
 * came before entry e exactly when i < e.after. Times alone cannot say (many events share
 * a time unit). An entry's change of live bytes follows from its record and kind, so it
 * holds no total: 16 bytes; running totals are kept per STROBE_MEMORY_GROUP entries. */
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

/* Everything a query reads, under the model's lock. */
typedef struct
{
  GMutex      *lock;
  GArray      *records;      /* StrobeMemoryAlloc */
  GArray      *alloc_cum;    /* guint64 per GROUP records: bytes allocated before it, saturating */
  GArray      *free_log;     /* StrobeMemoryFreeEntry */
  GArray      *free_cum;     /* StrobeMemoryFreeTotals per GROUP entries: before it */
  GArray      *group_max;    /* guint64 per STROBE_MEMORY_GROUP records */
  GArray      *block_max;    /* guint64 per STROBE_MEMORY_BLOCK records */
  GArray      *end_entry;    /* guint32 per record: the free-log entry that ended it, or G_MAXUINT32 */
  GHashTable  *marks;        /* record → GArray of its mark/unmark entries (the few marked ones) */
  GArray      *born;         /* StrobeMemoryBorn, by record */
  StrobeMemorySummary *sum;
} StrobeMemoryStore;

void     strobe_memory_model_get_store (StrobeMemoryModel *self, StrobeMemoryStore *store);
/* Frames of stack @id, innermost first (at most @max); under the lock. */
guint    strobe_memory_model_frames_locked (StrobeMemoryModel *self, guint32 id,
                                            StrobeMemoryFrame *out, guint max);
/* Records allocated at or before @t; free-log entries at or before @t. Under the lock. */
guint64  strobe_memory_store_allocs_upto (const StrobeMemoryStore *s, guint64 t);
guint64  strobe_memory_store_frees_upto (const StrobeMemoryStore *s, guint64 t);
/* When record @record was allocated: its alloc_time, or for a block of a late connect's
 * snapshot its time from the live table (earlier than the record's). Under the lock. */
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
/* Calls @fn for each record in [lo, hi) with free_time > @t (the max index skips the rest). */
void     strobe_memory_store_live_among (const StrobeMemoryStore *s, guint64 lo, guint64 hi, guint64 t,
                                         void (*fn) (guint64 index, const StrobeMemoryAlloc *r, gpointer user),
                                         gpointer user);

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
