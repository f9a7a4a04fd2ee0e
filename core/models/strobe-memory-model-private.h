/* strobe-memory-model-private.h — what the memory model shares with its queries
 * (strobe-memory-query.c, strobe-memory-series.c): its store (strobe-memory-store.h) and
 * its stacks, under its lock. Not installed.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-livemap.h"
#include "strobe-memory-model.h"
#include "strobe-memory-stacks.h"
#include "strobe-memory-store.h"

G_BEGIN_DECLS

/* The whole trace's peak as a position in application order: records < @records and
 * free-log entries < @entries applied (what a walk of every record and entry finds, kept
 * as the model reached it). */
typedef struct
{
  guint64 records, entries;
  guint64 time;
  gint64  bytes, count;
} StrobeMemoryPeak;

/* A copy of the model's store: the arrays' lengths are what counts, read under its lock. */
void     strobe_memory_model_get_store (StrobeMemoryModel *self, StrobeMemoryStore *store);
void     strobe_memory_model_peak_locked (StrobeMemoryModel *self, StrobeMemoryPeak *out);
/* Frames of stack @id, innermost first (at most @max); under the lock. */
guint    strobe_memory_model_frames_locked (StrobeMemoryModel *self, guint32 id,
                                            StrobeMemoryFrame *out, guint max);

/* The store's checkpoints of the series walks (strobe-memory-series.c). */
static inline StrobeMemorySeriesCache *
strobe_memory_model_series_cache (StrobeMemoryModel *self)
{
  StrobeMemoryStore s;

  strobe_memory_model_get_store (self, &s);
  return s.checkpoints;
}

G_END_DECLS
