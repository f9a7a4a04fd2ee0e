/* strobe-timer-summary.h — the timer statistics' level of detail: per block of
 * STROBE_TIMER_SUMMARY_SCOPES scopes of one track (a thread at one depth), each name's
 * count, inclusive and exclusive totals, min, max and a histogram of its durations, so a
 * range's timers merge the blocks that lie wholly inside it and walk only the scopes at
 * its two ends. Built while the track grows, a full chunk at a time. Private to core/models.
 *
 * Counts, totals, min and max merged from blocks are exact. The histogram has the
 * buckets of StrobeDurationSketch (128 per power of two), so a median or p95 is within the
 * sketch's 1/256 — but no longer exact below STROBE_DURATION_SKETCH_EXACT scopes a name
 * once a block was merged (a range of fewer than STROBE_TIMER_SUMMARY_SCOPES scopes a
 * track is always walked, so stays exact).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* 64 chunks of 128: a range's two ragged ends cost at most twice this per track walked,
 * and a block of a deep track (hundreds of names) costs about 1 B a scope at most. */
#define STROBE_TIMER_SUMMARY_CHUNKS_SHIFT 6
#define STROBE_TIMER_SUMMARY_CHUNKS       (1u << STROBE_TIMER_SUMMARY_CHUNKS_SHIFT)
#define STROBE_TIMER_SUMMARY_SCOPES       (STROBE_TIMER_SUMMARY_CHUNKS * 128u)
typedef struct _StrobeTimerSummaryBuilder StrobeTimerSummaryBuilder;

/* What the summary takes of a scope, kept beside the filling chunk as it is appended
 * (cheaper than decoding the chunk's records again). */
typedef struct
{
  guint64 incl;
  guint64 excl;               /* incl minus its direct children's time */
  guint32 name;
} StrobeTimerSummaryScope;

typedef struct
{
  GPtrArray                 *blocks;   /* const guint8 *, packed (strobe-timer-summary.c) */
  StrobeTimerSummaryBuilder *build;    /* the block being built; NULL between blocks */
  gsize                      bytes;    /* what it holds besides the stored blocks */
  gboolean                   stopped;  /* a chunk came out of turn: no more blocks (the
                                        * rest is walked) */
  guint                      shift;    /* chunks a block: 1 << shift (a test's may be fewer) */
} StrobeTimerSummary;

/* Stores @len bytes somewhere that lives as long as the summary (the model's arena), or
 * NULL when it cannot. */
typedef const guint8 *(*StrobeTimerSummaryStore) (gpointer data, const guint8 *bytes, gsize len);

StrobeTimerSummary *strobe_timer_summary_new  (void);
/* For tests: summaries made after this have blocks of 1 << @chunks_shift chunks (at most
 * STROBE_TIMER_SUMMARY_CHUNKS_SHIFT, the default): many blocks in a small trace. */
void                strobe_timer_summary_set_test_shift (guint chunks_shift);
void                strobe_timer_summary_free (StrobeTimerSummary *self);
/* The 128 scopes of chunk @ci of its track (chunks must come in order, from 0). A block
 * is packed and stored when its last chunk comes. */
void                strobe_timer_summary_add_chunk (StrobeTimerSummary            *self,
                                                    guint                          ci,
                                                    const StrobeTimerSummaryScope *scopes,
                                                    StrobeTimerSummaryStore store,
                                                    gpointer                store_data);
/* No more chunks for now: a block being built is dropped, and the summary stops unless
 * the next chunk starts a block. */
void                strobe_timer_summary_pause (StrobeTimerSummary *self, guint next_ci);

static inline guint
strobe_timer_summary_n_blocks (const StrobeTimerSummary *self)
{
  return self ? self->blocks->len : 0;
}

/* The first chunk of block @k (or of the block after the last, for @k = n). */
static inline guint
strobe_timer_summary_block_chunk (const StrobeTimerSummary *self, guint k)
{
  return k << self->shift;
}

/* Adds block @k's names (those below @n_names) to @acc (StrobeTimerAcc *, by name id)
 * — their durations' buckets to @hist[name] (StrobeDurationSketch *), apart, so a name
 * that ends with few scopes can have its exact values instead — and appends to @few the
 * names whose count is still at most STROBE_DURATION_SKETCH_EXACT; returns the scopes it
 * held. */
guint64 strobe_timer_summary_merge_block (const StrobeTimerSummary *self,
                                          guint                     k,
                                          gpointer                  acc,
                                          gpointer                  hist,
                                          guint                     n_names,
                                          GArray                   *few);

G_END_DECLS
