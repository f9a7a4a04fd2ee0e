/* strobe-memory-model.h — the Memory channel as a queryable model: every allocation's
 * life (when, how big, where, which heap, tag and call stack), with indexes that answer
 * "what was live at T", totals over time, leaks and per-tag/heap figures without
 * re-reading the trace.
 *
 * A StrobeAnalyzer: add it to a decoder and it grows while the trace streams in. Queries
 * may run on other threads meanwhile (one mutex; each query is O(answer · small) or
 * O(log n)). Times are trace clock ticks, clamped to never go back in event order (the
 * events are synchronised, so their order is the order the allocator saw).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

#define STROBE_MEMORY_LIVE G_MAXUINT64   /* free_time of an allocation never freed */

typedef enum
{
  STROBE_MEMORY_ALLOC_FROM_REALLOC  = 1 << 0,   /* started by a realloc */
  STROBE_MEMORY_ALLOC_TO_REALLOC    = 1 << 1,   /* ended by a realloc */
  STROBE_MEMORY_ALLOC_HEAP_BLOCK    = 1 << 2,   /* backs another heap (HeapMark) */
  STROBE_MEMORY_ALLOC_HEAP_RESET    = 1 << 3,   /* ended by HeapFreeAll */
  STROBE_MEMORY_ALLOC_TEMPORARY     = 1 << 4,   /* freed before its thread allocated again */
} StrobeMemoryAllocFlags;

/* One allocation: 48 bytes. */
typedef struct
{
  guint64 alloc_time;
  guint64 free_time;     /* STROBE_MEMORY_LIVE while live */
  guint64 address;
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
  guint64 bytes_allocated;
  guint64 temporary;           /* see STROBE_MEMORY_ALLOC_TEMPORARY */
  guint64 unmatched_frees;     /* frees of addresses never seen allocated (ignored) */
  guint64 replaced_allocs;     /* allocations of an address still live (the old one ends) */
  gint64  live_bytes;
  gint64  live_count;
  gint64  peak_bytes;
  guint64 peak_time;
  guint64 first_time;
  guint64 last_time;
  guint64 histogram_count[65]; /* by size: bucket 0 = size 0, bucket k = [2^(k-1), 2^k) */
  guint64 histogram_bytes[65];
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

void      strobe_memory_model_get_summary   (StrobeMemoryModel *self, StrobeMemorySummary *out);
guint64   strobe_memory_model_get_count     (StrobeMemoryModel *self);
/* Allocation @index (in allocation order); FALSE when out of range. */
gboolean  strobe_memory_model_get_alloc     (StrobeMemoryModel *self, guint64 index,
                                             StrobeMemoryAlloc *out);
/* Live bytes and allocations just after @time (every event at or before it applied). */
void      strobe_memory_model_get_totals_at (StrobeMemoryModel *self, guint64 time,
                                             gint64 *bytes, gint64 *count);

/* Allocation indexes (guint64, in allocation order): */
/* live at @time: allocated at or before it, freed after it or never. */
GArray   *strobe_memory_model_live_at       (StrobeMemoryModel *self, guint64 time);
/* never freed (at the end of what was read). */
GArray   *strobe_memory_model_leaks         (StrobeMemoryModel *self);
/* allocated in [@a, @b] and still live at @c. */
GArray   *strobe_memory_model_allocated_live (StrobeMemoryModel *self, guint64 a, guint64 b,
                                              guint64 c);
/* freed in [@a, @b], in order of freeing. */
GArray   *strobe_memory_model_freed_in      (StrobeMemoryModel *self, guint64 a, guint64 b);
/* freed at most @max_lifetime ticks after allocation (scans every allocation). */
GArray   *strobe_memory_model_short_lived   (StrobeMemoryModel *self, guint64 max_lifetime);

/* @n samples evenly over [@a, @b); exact when the window holds few events, from the
 * pre-aggregated overview otherwise. Returns the samples written. */
guint     strobe_memory_model_get_series    (StrobeMemoryModel *self, guint64 a, guint64 b,
                                             guint n, StrobeMemorySample *out);

/* Copies of the per-tag and per-heap groups (free with g_ptr_array_unref), by id. */
GPtrArray *strobe_memory_model_get_tags     (StrobeMemoryModel *self);
GPtrArray *strobe_memory_model_get_heaps    (StrobeMemoryModel *self);
/* The frames of call stack @id (guint64 addresses), NULL when unknown. Free with
 * g_array_unref. */
GArray    *strobe_memory_model_get_callstack (StrobeMemoryModel *self, guint32 id);
/* Grows with every event: a view redraws only when it changed. */
guint64    strobe_memory_model_get_generation (StrobeMemoryModel *self);

G_END_DECLS
