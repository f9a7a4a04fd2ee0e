/* strobe-memory-model.h — the Memory channel as a queryable model: every allocation's
 * life (when, how big, where, which heap, tag and call stack), with indexes that answer
 * "what was live at T", totals over time, leaks and per-tag/heap figures without
 * re-reading the trace; the call-stack trie and the module map for symbolization.
 * Aggregations and call trees over any time range: strobe-memory-query.h.
 *
 * A StrobeAnalyzer: add it to a decoder and it grows while the trace streams in. Queries
 * may run on other threads meanwhile (one mutex; each query here is O(answer · small) or
 * O(log n)). Times are trace clock ticks, never going back in the order allocations are
 * applied (records of one update round are merged by time across threads; a record that
 * arrives later than an older one was applied is clamped to it and counted).
 *
 * It reads what the runtime writes (Memory.Batch, Memory.Live, Memory.StackNodes,
 * Memory.Module; runtime/INSTRUMENTATION.md) and the earlier per-event format
 * (Memory.Alloc, Memory.Free, Memory.Realloc*, Memory.Callstack…). Hostile input is
 * bounded: nothing is allocated in proportion to an id read from a trace, addresses are
 * hashed with a per-model random key, heaps are freed through per-heap lists, and sizes
 * near 2^64 saturate the totals (and are counted as absurd).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-memory-frame.h"

G_BEGIN_DECLS

#define STROBE_MEMORY_LIVE G_MAXUINT64   /* free_time of an allocation never freed */

typedef enum
{
  STROBE_MEMORY_ALLOC_FROM_REALLOC  = 1 << 0,   /* started by a realloc */
  STROBE_MEMORY_ALLOC_TO_REALLOC    = 1 << 1,   /* ended by a realloc */
  STROBE_MEMORY_ALLOC_HEAP_BLOCK    = 1 << 2,   /* backs another heap (HeapMark) */
  STROBE_MEMORY_ALLOC_HEAP_RESET    = 1 << 3,   /* ended by HeapFreeAll */
  STROBE_MEMORY_ALLOC_TEMPORARY     = 1 << 4,   /* freed (or reallocated) by its thread
                                                 * before that thread allocated again */
  STROBE_MEMORY_ALLOC_FROM_SNAPSHOT = 1 << 5,   /* live when the trace began (the live-table
                                                 * snapshot of a late connect): its totals
                                                 * count from the snapshot's time on; the
                                                 * alloc_time given out is when it was
                                                 * allocated (before the snapshot) */
  STROBE_MEMORY_ALLOC_END_UNSEEN    = 1 << 6,   /* ended without its free in the trace: its
                                                 * address was allocated again, or a snapshot
                                                 * no longer had it */
  STROBE_MEMORY_ALLOC_ABSURD        = 1 << 7,   /* size >= 2^48: counted as 2^48 in totals */
} StrobeMemoryAllocFlags;

/* One allocation: 48 bytes. */
typedef struct
{
  guint64 alloc_time;
  guint64 free_time;     /* STROBE_MEMORY_LIVE while live */
  guint64 address;       /* 0 when the trace does not carry addresses */
  guint64 size;
  guint32 heap;
  guint32 tag;
  guint32 callstack;     /* 0: none */
  guint16 thread_id;
  guint8  alignment_log2;   /* 0: the allocator's default */
  guint8  flags;            /* StrobeMemoryAllocFlags */
} StrobeMemoryAlloc;

typedef struct
{
  guint32     id;
  guint32     parent;       /* heaps: STROBE_MEMORY_NO_PARENT (0xffffffff); tags: 0 */
  guint32     flags;        /* heaps only */
  const char *name;         /* NULL when never announced */
  /* Totals: */
  guint64     allocs;
  guint64     frees;
  guint64     bytes_allocated;   /* over the whole trace */
  gint64      live_bytes;        /* now (at the end of what was read) */
  gint64      live_count;
  gint64      peak_live_bytes;
  gint64      reserved_bytes;    /* heaps: blocks of it marked as backing other heaps */
} StrobeMemoryGroup;

typedef struct
{
  guint64 allocs;              /* reallocs count as one alloc and one free */
  guint64 frees;
  guint64 reallocs;
  guint64 bytes_allocated;     /* saturating */
  guint64 temporary;           /* see STROBE_MEMORY_ALLOC_TEMPORARY */
  guint64 unmatched_frees;     /* frees of allocations the trace never showed (made before
                                * it began, or lost); ignored */
  guint64 replaced_allocs;     /* allocations of an address still live (the old one ends) */
  gint64  live_bytes;
  gint64  live_count;
  gint64  peak_bytes;
  guint64 peak_time;
  guint64 first_time;
  guint64 last_time;
  guint64 histogram_count[65]; /* by size: bucket 0 = size 0, bucket k = [2^(k-1), 2^k) */
  guint64 histogram_bytes[65]; /* saturating */
  /* Late and damaged traces: */
  gboolean has_snapshot;       /* a live-table snapshot (Memory.Live) was read */
  gboolean snapshot_complete;  /* ... and it holds every allocation live then */
  gboolean partial;            /* memory live before the trace began is unknown */
  guint64 snapshot_allocs;     /* allocations live when the trace began, from the snapshot */
  guint64 snapshot_time;       /* when the first snapshot was taken (memory tracing began) */
  guint64 lost_records;        /* records missing between batches of one thread */
  guint64 dropped;             /* reports the runtime could not record (full ring) */
  guint64 late_records;        /* applied after a later one: time clamped */
  guint64 absurd_sizes;        /* allocations of 2^48 bytes or more */
  guint64 stacks;              /* call-stack nodes known */
  guint64 addressed;           /* allocations whose record carried the block's address
                                * (STROBE_MEMORY_ADDRESSES, strobe-cli run --addresses) */
  /* Too big for the machine: */
  guint64 not_analysed;        /* memory events (batches, single reports) left unread once
                                * the model reached its memory budget; 0: all read */
  guint64 not_analysed_from;   /* the time from which: memory is analysed up to it, as if
                                * the trace ended there */
  guint64 memory_budget;       /* that budget, bytes */
} StrobeMemorySummary;

/* One point of a drawn series: the extremes over [time, next point's time). */
typedef struct
{
  guint64 time;
  gint64  min_bytes;
  gint64  max_bytes;
  gint64  last_bytes;
  gint64  last_count;
} StrobeMemorySample;

#define STROBE_TYPE_MEMORY_MODEL (strobe_memory_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryModel, strobe_memory_model, STROBE, MEMORY_MODEL, GObject)

StrobeMemoryModel *strobe_memory_model_new              (void);
/* A model that keeps the totals, heaps, tags, peak, histogram, call stacks and the
 * allocations live now (leaks at the end), but no allocation's past: memory in
 * proportion to the live set, not the trace (what `strobe-cli memory`'s default report
 * needs; heaptrack_print's way). Its summary, groups and leaks are a full model's to the
 * byte; the queries of a time or a range (live at, select, aggregate, trees, series,
 * totals at) are not answered. */
StrobeMemoryModel *strobe_memory_model_new_summary      (void);
gboolean  strobe_memory_model_is_summary    (StrobeMemoryModel *self);
/* Before reading: the most bytes the model keeps (default: half of the memory available
 * now, less as the machine or this process's limits run short, strobe-memory-budget.h);
 * once reached, the rest of the trace's memory events are counted, not read
 * (StrobeMemorySummary.not_analysed) — a trace too big for the machine opens with what fits
 * instead of meeting the OOM killer. 0: no limit. */
void      strobe_memory_model_set_memory_budget (StrobeMemoryModel *self, guint64 bytes);

void      strobe_memory_model_get_summary   (StrobeMemoryModel *self, StrobeMemorySummary *out);
guint64   strobe_memory_model_get_count     (StrobeMemoryModel *self);
/* Allocation @index (in allocation order); FALSE when out of range (or, in a summary
 * model, once it ended and left). */
gboolean  strobe_memory_model_get_alloc     (StrobeMemoryModel *self, guint64 index,
                                             StrobeMemoryAlloc *out);
/* @n allocations by index under one lock (a page of a table); returns how many were in
 * range (the first ones of @indexes; out-of-range entries are zeroed). */
guint     strobe_memory_model_get_allocs    (StrobeMemoryModel *self, const guint64 *indexes,
                                             guint n, StrobeMemoryAlloc *out);
/* Live bytes and allocations just after @time (every event at or before it applied). */
void      strobe_memory_model_get_totals_at (StrobeMemoryModel *self, guint64 time,
                                             gint64 *bytes, gint64 *count);

/* @n samples evenly over [@a, @b); exact when the window holds few events, from the
 * pre-aggregated overview otherwise. Returns the samples written. */
guint     strobe_memory_model_get_series    (StrobeMemoryModel *self, guint64 a, guint64 b,
                                             guint n, StrobeMemorySample *out);

/* Copies of the per-tag and per-heap groups (free with g_ptr_array_unref), by id. */
GPtrArray *strobe_memory_model_get_tags     (StrobeMemoryModel *self);
GPtrArray *strobe_memory_model_get_heaps    (StrobeMemoryModel *self);
/* The name of tag or heap @id (a copy), NULL when never announced. */
char      *strobe_memory_model_get_tag_name (StrobeMemoryModel *self, guint32 id);
char      *strobe_memory_model_get_heap_name (StrobeMemoryModel *self, guint32 id);
/* The frames of call stack @id (guint64 return addresses, innermost first), NULL when
 * unknown. Free with g_array_unref. */
GArray    *strobe_memory_model_get_callstack (StrobeMemoryModel *self, guint32 id);
/* The same with each frame's module; returns how many were written (at most @max). */
guint      strobe_memory_model_get_frames   (StrobeMemoryModel *self, guint32 id,
                                             StrobeMemoryFrame *out, guint max);
/* Adds a call stack that is not in the trace's trie — a sampled stack the analysis
 * unwound from a copy of the thread's stack — @n return addresses innermost first (the
 * innermost: where the thread was + 1); its id (from 2^31 up, one per distinct stack, the
 * frames' modules as the module map says now), 0 when @n is 0. */
guint32    strobe_memory_model_add_stack    (StrobeMemoryModel *self, const guint64 *addresses, guint n);
/* Copies of the modules (StrobeMemoryModule *, in order of loading; free with
 * g_ptr_array_unref). A frame's module field indexes this array + 1. */
GPtrArray *strobe_memory_model_get_modules  (StrobeMemoryModel *self);
/* Grows with every event: a view redraws only when it changed. */
guint64    strobe_memory_model_get_generation (StrobeMemoryModel *self);
/* Bytes the model holds (for benchmarks). */
gsize      strobe_memory_model_get_memory_bytes (StrobeMemoryModel *self);

G_END_DECLS
