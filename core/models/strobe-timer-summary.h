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
 * Threads: a summary is written by one thread at a time — the model's, or its
 * StrobeTimerSummaryWorker's (blocks then built apart, in the order the model queued its
 * chunks) — and read by queries under the model's read lock at the same time: a block is
 * immutable once published, and the blocks are published under the summary's own lock, so
 * a query sees the blocks built so far and walks the scopes after them.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* 128 chunks of 128: a range's two ragged ends cost at most twice this per track walked,
 * and a block of a deep track (hundreds of names) costs under 1 B a scope — a name's
 * totals take about 20 bytes a block, so at 64 chunks they were half of the 1.2 B a
 * scope the blocks took on strobe-bench-scale's workload (300 names a block). */
#define STROBE_TIMER_SUMMARY_CHUNKS_SHIFT 7
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
  GMutex                     lock;     /* guards blocks' array (not the blocks) */
  guint                      published;/* atomic: blocks->len, for readers */
  GPtrArray                 *blocks;   /* const guint8 *, packed (strobe-timer-summary.c) */
  StrobeTimerSummaryBuilder *build;    /* the block being built; NULL between blocks */
  gsize                      bytes;    /* what it holds besides the stored blocks */
  gboolean                   stopped;  /* a chunk came out of turn: no more blocks (the
                                        * rest is walked) */
  guint                      shift;    /* chunks a block: 1 << shift (a test's may be fewer) */
  /* The chunks after the last block, packed as one block when the track finished there
   * (the trace ended): a finished trace's timers merge it rather than walk up to a
   * block's scopes a track. Its chunks stay as they were if the track grows again (the
   * summary has stopped then: no block comes after it). Under lock, like blocks. */
  const guint8              *tail;
  guint                      tail_chunks;
  struct _StrobeTimerSummaryWorker *worker; /* building it; NULL: the model's thread */
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
/* No more chunks for now: a block being built becomes the tail when it holds every chunk
 * before @next_ci (and @store is not NULL), and is dropped; the summary stops unless the
 * next chunk starts a block. */
void                strobe_timer_summary_pause (StrobeTimerSummary     *self,
                                                guint                   next_ci,
                                                StrobeTimerSummaryStore store,
                                                gpointer                store_data);
/* The tail's chunks (0: none); any thread. */
guint               strobe_timer_summary_tail_chunks (const StrobeTimerSummary *self);

/* The blocks published so far (any thread). */
static inline guint
strobe_timer_summary_n_blocks (const StrobeTimerSummary *self)
{
  return self ? (guint) __atomic_load_n (&self->published, __ATOMIC_ACQUIRE) : 0;
}

/* The first chunk of block @k (or of the block after the last, for @k = n). */
static inline guint
strobe_timer_summary_block_chunk (const StrobeTimerSummary *self, guint k)
{
  return k << self->shift;
}

/* Adds block @k's (the tail's, for @k the number of blocks) names (those below @n_names) to @acc (StrobeTimerAcc *, by name id)
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

/* How many of block @k's scopes (the tail's, for @k the number of blocks) have a name id
 * from @first to @first + @n − 1 that is set in @wanted (by that id − @first; @n_set of
 * them are set: the block is read up to the last), and in @longest the longest of those
 * (0 when none): what a search asks before it walks the block. */
guint64 strobe_timer_summary_block_count (const StrobeTimerSummary *self,
                                          guint                     k,
                                          const guint8             *wanted,
                                          guint32                   first,
                                          guint32                   n,
                                          guint32                   n_set,
                                          guint64                  *longest);

/* ---- blocks built on a thread of their own ------------------------------------------ */

/* One thread that builds the blocks of every summary of one model, from their chunks'
 * scopes queued by the model's thread (at most STROBE_TIMER_SUMMARY_QUEUE chunks: when the
 * worker is behind, the model's thread waits for room rather than the queue growing).
 * Blocks are stored with @store, called on the worker's thread alone. One thread queues
 * at a time. */
typedef struct _StrobeTimerSummaryWorker StrobeTimerSummaryWorker;

/* 131 072 scopes, a few milliseconds of the model's work: with 256 the model's thread
 * waited for room whenever the worker lost its core for a time slice to the decoder or
 * the prefaulting (400 sleeps per 100 M scopes against 170; tests/bench/README.md). */
#define STROBE_TIMER_SUMMARY_QUEUE 1024u

/* Whether models made from now on build their blocks apart: TRUE unless
 * STROBE_TIMER_SUMMARY_ASYNC=0, or a test said otherwise. */
gboolean                  strobe_timer_summary_apart (void);
/* For tests: -1 back to the default, 0 or 1. */
void                      strobe_timer_summary_set_test_apart (gint apart);
StrobeTimerSummaryWorker *strobe_timer_summary_worker_new  (StrobeTimerSummaryStore store,
                                                            gpointer                store_data);
/* What was queued and not built is dropped; every summary it wrote to must outlive this
 * call. */
void                      strobe_timer_summary_worker_free (StrobeTimerSummaryWorker *self);
/* strobe_timer_summary_add_chunk (@summary, @ci, *@scopes) on the worker: *@scopes (a
 * g_malloc'd array of STROBE_SCOPE_CHUNK) is handed over and replaced by another as
 * large. */
void                      strobe_timer_summary_worker_add_chunk (StrobeTimerSummaryWorker *self,
                                                                 StrobeTimerSummary       *summary,
                                                                 guint                     ci,
                                                                 StrobeTimerSummaryScope **scopes);
/* strobe_timer_summary_pause (@summary, @next_ci) on the worker, after what was queued. */
void                      strobe_timer_summary_worker_pause (StrobeTimerSummaryWorker *self,
                                                             StrobeTimerSummary       *summary,
                                                             guint                     next_ci);
/* Stops its thread and frees its queue (dropping what is queued) until more is queued;
 * the blocks stay. */
void                      strobe_timer_summary_worker_idle (StrobeTimerSummaryWorker *self);
/* Returns once the blocks of every chunk queued for @summary so far are built (for tests;
 * at once when it is built on the model's thread). */
void                      strobe_timer_summary_wait (const StrobeTimerSummary *summary);
/* Returns once everything queued is built. */
void                      strobe_timer_summary_worker_wait (StrobeTimerSummaryWorker *self);
/* What the summaries' blocks and builders took or gave back since the last
 * call (bytes, may be negative): the model adds it to what it counts. */
gint64                    strobe_timer_summary_worker_take_bytes (StrobeTimerSummaryWorker *self);

G_END_DECLS
