/* strobe-memory-overview.h — the memory model's live bytes over the whole trace at a
 * coarse resolution (4096 buckets, halved as the trace grows), and the drawn series of any
 * window: exact from the store where the window holds few events, from the buckets where
 * a sample spans several. Not installed; used under the model's lock.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-store.h"

G_BEGIN_DECLS

typedef struct
{
  gint64   min_bytes, max_bytes, last_bytes, last_count;
  gboolean used;
} StrobeMemoryBucket;

typedef struct
{
  StrobeMemoryBucket *buckets;
  guint               shift;     /* buckets of 2^shift ticks from origin */
  guint64             origin;
  gboolean            started;
} StrobeMemoryOverview;

void  strobe_memory_overview_init  (StrobeMemoryOverview *ov);
void  strobe_memory_overview_clear (StrobeMemoryOverview *ov);
/* The trace's first time: bucket 0 starts there. */
void  strobe_memory_overview_start (StrobeMemoryOverview *ov, guint64 t);
/* Live bytes and allocations became @bytes, @count at @t (>= the last call's). */
void  strobe_memory_overview_note  (StrobeMemoryOverview *ov, guint64 t, gint64 bytes, gint64 count);
/* strobe_memory_model_get_series() under the lock. */
guint strobe_memory_overview_series (const StrobeMemoryOverview *ov, const StrobeMemoryStore *st, guint64 a,
                                     guint64 b, guint n, StrobeMemorySample *out);

G_END_DECLS
