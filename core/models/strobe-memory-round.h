/* strobe-memory-round.h — one update round's Memory.Batch events, merged by time. Not
 * installed; used under the memory model's lock.
 *
 * The threads' batches of a round interleave in time and are applied merged: each is kept
 * as the bytes it came in (a few bytes a record, where decoded records waiting for a sort
 * took 72) and decoded again when the round ends, a k-way merge over the batches — the
 * order a stable sort by time of all their records would give: ties go to the batch that
 * came first, a batch's own records are in time order by construction (their times are
 * deltas).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-memory-records.h"

G_BEGIN_DECLS

typedef struct
{
  GByteArray *bytes;     /* the batches' Data and Times, one after the other */
  GArray     *batches;   /* RoundBatch (strobe-memory-round.c) */
  guint64     records;   /* records the batches hold (what the merge will yield) */
} StrobeMemoryRound;

void strobe_memory_round_init  (StrobeMemoryRound *r);
void strobe_memory_round_clear (StrobeMemoryRound *r);

/* Units of 2^@shift ticks as ticks, saturating. */
static inline guint64
strobe_memory_units_to_ticks (guint64 units, guint shift)
{
  if (shift > 63 || (shift && units > (G_MAXUINT64 >> shift)))
    return G_MAXUINT64 - 1;
  return units << shift;
}

/* Whether @kind is a record the model applies (not a time or counter sync). */
static inline gboolean
strobe_memory_round_applies (guint kind)
{
  return kind != STROBE_MEMREC_TIME && kind != STROBE_MEMREC_SYNC;
}

/* Holds a batch of @thread (its state @s at its first record, its times in units of
 * 2^@shift ticks) whose @n applied records are those with a sequence number of
 * @skip_below or more, up to its first malformed one. */
void strobe_memory_round_add (StrobeMemoryRound *r, guint16 thread, guint shift, const StrobeMemrecState *s,
                              guint64 skip_below, guint64 n, const guint8 *data, gsize len,
                              const guint8 *times, gsize times_len);

/* Calls @fn with each held record, in time order (@ticks: its time in ticks), and empties
 * the round. */
void strobe_memory_round_drain (StrobeMemoryRound *r,
                                void (*fn) (const StrobeMemrec *rec, guint16 thread, guint64 ticks, gpointer user),
                                gpointer user);

static inline gboolean
strobe_memory_round_is_empty (const StrobeMemoryRound *r)
{
  return r->batches->len == 0;
}

gsize strobe_memory_round_bytes (const StrobeMemoryRound *r);

G_END_DECLS
