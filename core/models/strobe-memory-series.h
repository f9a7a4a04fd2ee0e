/* strobe-memory-series.h — what a memory graph draws over a time window, in one query:
 * live bytes (their extremes within each sample) and allocations, allocation and free
 * counts per sample, and live bytes per tag and per heap for a stacked graph.
 *
 * strobe_memory_model_get_series() answers the totals alone, fast enough for the main
 * thread when zoomed out; per-group values need a walk over the events (the model keeps
 * no per-tag history but the checkpoints such walks leave), so this runs in a GTask
 * thread like the queries of strobe-memory-query.h, cancellable, with progress, while
 * the model grows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-memory-query.h"

G_BEGIN_DECLS

/* One sample: [time, the next sample's time). */
typedef struct
{
  guint64 time;
  gint64  min_bytes;    /* live bytes: lowest and highest within the sample */
  gint64  max_bytes;
  gint64  last_bytes;   /* at its end */
  gint64  last_count;   /* live allocations at its end */
  guint64 allocs;       /* allocations made in the sample */
  guint64 frees;        /* allocations ended in it (frees, reallocs' old blocks, resets) */
} StrobeMemorySeriesPoint;

#define STROBE_MEMORY_SERIES_OTHER G_MAXUINT64   /* the group key of "everything else" */

#define STROBE_TYPE_MEMORY_SERIES (strobe_memory_series_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemorySeries, strobe_memory_series, STROBE, MEMORY_SERIES, GObject)

/* @n samples evenly over [@a, @b) (@b > @a, 1 <= @n <= 65536). Per-group values (live
 * bytes at each sample's end) are kept for tags and heaps: the @max_groups largest of
 * each (by their highest value in the window) on their own, the rest summed as one
 * group keyed STROBE_MEMORY_SERIES_OTHER; at most 64 distinct keys are told apart in the
 * trace (the first to appear), later ones count as "other" too. The first series up to a
 * time walks the events before it once; later ones start from what it left (see
 * strobe-memory-series.c). @max_groups 0: totals only (no walk, as fast
 * as strobe_memory_model_get_series). NULL with G_IO_ERROR_CANCELLED when cancelled. */
StrobeMemorySeries *strobe_memory_model_build_series (StrobeMemoryModel       *model,
                                                      guint64                  a,
                                                      guint64                  b,
                                                      guint                    n,
                                                      guint                    max_groups,
                                                      GCancellable            *cancellable,
                                                      StrobeMemoryProgressFunc progress,
                                                      gpointer                 progress_data,
                                                      GError                 **error);

guint64  strobe_memory_series_get_start    (StrobeMemorySeries *self);
guint64  strobe_memory_series_get_end      (StrobeMemorySeries *self);
/* The model's generation when the series was made. */
guint64  strobe_memory_series_get_generation (StrobeMemorySeries *self);
guint    strobe_memory_series_get_n_points (StrobeMemorySeries *self);
/* Valid as long as @self. */
const StrobeMemorySeriesPoint *strobe_memory_series_get_points (StrobeMemorySeries *self);
/* @by: STROBE_MEMORY_BY_TAG or STROBE_MEMORY_BY_HEAP. Groups in order of their highest
 * value, descending, "other" (if any) last. */
guint    strobe_memory_series_get_n_groups (StrobeMemorySeries *self, StrobeMemoryGroupBy by);
guint64  strobe_memory_series_get_group_key (StrobeMemorySeries *self, StrobeMemoryGroupBy by, guint group);
/* n_points live-byte values of @group at each sample's end. Valid as long as @self. */
const gint64 *strobe_memory_series_get_group_values (StrobeMemorySeries *self, StrobeMemoryGroupBy by,
                                                     guint group);

G_END_DECLS
