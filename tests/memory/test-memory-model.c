/* test-memory-model.c — StrobeMemoryModel against hostile traces (issue 14: ids of
 * 0xffffffff, sizes near 2^64, heap resets of an unused heap, addresses chosen to collide)
 * and its queries (strobe-memory-query.h) against a brute-force recount of the same
 * records, on a trace the runtime writes here with call stacks, tags, heaps, reallocs and
 * threads.
 *
 * Complexity tests build a hostile trace at n and 4n and compare the CPU time this thread
 * spends decoding each (the least of five): near-linear code makes the ratio about 4, the
 * quadratic code these tests caught 16. The bound is 10, as in tests/models: wall time at
 * n and 2n against a bound of 3 failed on a loaded machine (3.07). A ratio, never an
 * absolute time.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <time.h>

#include <strobe/strobe.h>

#include "strobe-decoder.h"
#include "strobe-memory-budget.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"
#include "strobe-memory-store.h"
#include "strobe-memory-records.h"
#include "test-stream-builder.h"

/* Checks of the model alone, on one thread: nothing for TSan to find (it is here for the
 * runtime's threads), and a third of its CI time. */
#if defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_TSAN() G_STMT_START { g_test_skip ("single-threaded: not run under TSan"); return; } G_STMT_END
#else
#define SKIP_UNDER_TSAN() G_STMT_START { } G_STMT_END
#endif

#define TID 16

enum
{
  UID_ALLOC = TSB_UID_USER,
  UID_FREE,
  UID_FREE_ALL,
  UID_HEAP_SPEC,
  UID_TAG_SPEC,
  UID_CALLSTACK,
  UID_NODES,
  UID_BATCH,
  UID_LIVE,
};

/* The per-event format, NoSync (the model reads it by name whatever its flags), and the
 * compact one's events with the runtime's field names. */
static Tsb *
memory_stream (void)
{
  static const TsbField alloc[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Address", STROBE_TYPE_POINTER }, { "Size", STROBE_TYPE_UINT64 },
    { "Alignment", STROBE_TYPE_UINT32 }, { "HeapId", STROBE_TYPE_UINT32 }, { "Tag", STROBE_TYPE_UINT32 },
    { "CallstackId", STROBE_TYPE_UINT32 },
  };
  static const TsbField free_[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Address", STROBE_TYPE_POINTER }, { "HeapId", STROBE_TYPE_UINT32 },
  };
  static const TsbField free_all[] = { { "Cycle", STROBE_TYPE_UINT64 }, { "HeapId", STROBE_TYPE_UINT32 } };
  static const TsbField spec[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "ParentId", STROBE_TYPE_UINT32 }, { "Flags", STROBE_TYPE_UINT32 },
    { "Name", STROBE_TYPE_ANSI },
  };
  static const TsbField stack[] = { { "Id", STROBE_TYPE_UINT32 }, { "Frames", STROBE_TYPE_ARRAY | STROBE_TYPE_POINTER } };
  static const TsbField nodes[] = { { "First", STROBE_TYPE_UINT32 }, { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  static const TsbField batch[] = {
    { "Thread", STROBE_TYPE_UINT16 }, { "Flags", STROBE_TYPE_UINT8 }, { "Shift", STROBE_TYPE_UINT8 },
    { "Round", STROBE_TYPE_UINT32 }, { "Seq", STROBE_TYPE_UINT64 }, { "Alloc", STROBE_TYPE_UINT64 },
    { "Time", STROBE_TYPE_UINT64 }, { "Heap", STROBE_TYPE_UINT32 }, { "Tag", STROBE_TYPE_UINT32 },
    { "Stack", STROBE_TYPE_UINT32 }, { "Dropped", STROBE_TYPE_UINT64 }, { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
    { "Times", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  static const TsbField live[] = {
    { "Time", STROBE_TYPE_UINT64 }, { "Shift", STROBE_TYPE_UINT8 }, { "Flags", STROBE_TYPE_UINT32 },
    { "Count", STROBE_TYPE_UINT64 }, { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_ALLOC, "Memory", "Alloc", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (alloc), alloc);
  tsb_define (b, UID_FREE, "Memory", "Free", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_), free_);
  tsb_define (b, UID_FREE_ALL, "Memory", "HeapFreeAll", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_all), free_all);
  tsb_define (b, UID_HEAP_SPEC, "Memory", "HeapSpec", STROBE_EVENT_FLAG_IMPORTANT, G_N_ELEMENTS (spec), spec);
  tsb_define (b, UID_TAG_SPEC, "Memory", "TagSpec", STROBE_EVENT_FLAG_IMPORTANT, G_N_ELEMENTS (spec), spec);
  tsb_define (b, UID_CALLSTACK, "Memory", "Callstack", STROBE_EVENT_FLAG_IMPORTANT, G_N_ELEMENTS (stack), stack);
  tsb_define (b, UID_NODES, "Memory", "StackNodes", STROBE_EVENT_FLAG_IMPORTANT, G_N_ELEMENTS (nodes), nodes);
  tsb_define (b, UID_BATCH, "Memory", "Batch", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (batch), batch);
  tsb_define (b, UID_LIVE, "Memory", "Live", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (live), live);
  tsb_flush_all (b, TSB_AUTO);
  return b;
}

static void
alloc (Tsb *b, guint64 t, guint64 address, guint64 size, guint32 heap, guint32 tag, guint32 stack)
{
  guint64 v[] = { t, address, size, 0, heap, tag, stack };
  tsb_event (b, TID, UID_ALLOC, 0, G_N_ELEMENTS (v), v);
}

static void
free_ (Tsb *b, guint64 t, guint64 address, guint32 heap)
{
  guint64 v[] = { t, address, heap };
  tsb_event (b, TID, UID_FREE, 0, G_N_ELEMENTS (v), v);
}

/* Not wall time: on a loaded machine that is mostly the scheduler's. */
static gdouble
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gdouble) ts.tv_sec + (gdouble) ts.tv_nsec / 1e9;
}

static StrobeMemoryModel *
decode_with_budget (Tsb *b, gdouble *seconds, guint64 budget)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *m = strobe_memory_model_new ();
  gsize len;
  const guint8 *data;
  gdouble t0;

  if (budget)
    strobe_memory_model_set_memory_budget (m, budget);
  tsb_flush_all (b, TSB_AUTO);
  data = tsb_data (b, &len);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  t0 = thread_cpu_seconds ();
  strobe_decoder_feed (decoder, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  if (seconds)
    *seconds = thread_cpu_seconds () - t0;
  return m;
}

static StrobeMemoryModel *
decode (Tsb *b, gdouble *seconds)
{
  return decode_with_budget (b, seconds, 0);
}

typedef Tsb *(*Builder) (guint n);

/* Decodes of @build (n) and @build (4n), alternated so a change of the machine's load
 * hits both; the best of five each. */
static gdouble
growth (Builder build, guint n)
{
  g_autoptr (Tsb) small = build (n);
  g_autoptr (Tsb) big = build (4 * n);
  gdouble best[2] = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (guint r = 0; r < 5; r++)
    for (guint k = 0; k < 2; k++)
      {
        gdouble s;
        g_autoptr (StrobeMemoryModel) m = decode (k ? big : small, &s);
        best[k] = MIN (best[k], s);
      }
  g_test_message ("n: %.4f s, 4n: %.4f s, ratio %.2f (linear 4, quadratic 16, bound 10)", best[0], best[1],
                  best[1] / best[0]);
  return best[1] / best[0];
}

/* ---- the compact records ------------------------------------------------------------ */

/* One Memory.Batch of thread 1 from its start (every state field 0, shift 0). */
static void
batch (Tsb *b, guint64 seq, const guint8 *data, gsize len, const guint8 *times, gsize times_len)
{
  tsb_begin (b, TID, UID_BATCH, 0);
  tsb_set_int (b, 0, 1);
  tsb_set_int (b, 1, 1);   /* the round's last */
  tsb_set_int (b, 4, seq);
  tsb_aux (b, 11, data, len);
  tsb_aux (b, 12, times, times_len);
  tsb_end (b);
}

/* FREE's short and long forms, stacks as deltas, times from the Times array put back
 * between the records they were taken from. */
static void
test_batch_records (void)
{
  g_autoptr (Tsb) b = memory_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  guint8 data[64], times[16], *p = data, *t = times;
  StrobeMemoryAlloc a[3];
  StrobeMemorySummary s;

  /* ALLOC 100 B, stack 0 + 5 */
  *p++ = STROBE_MEMREC_ALLOC | STROBE_MEMREC_F_STACK;
  p = strobe_memrec_put_varint (p, strobe_memrec_zigzag (5));
  p = strobe_memrec_put_varint (p, 100);
  /* ALLOC 200 B, stack 5 - 2 */
  *p++ = STROBE_MEMREC_ALLOC | STROBE_MEMREC_F_STACK;
  p = strobe_memrec_put_varint (p, strobe_memrec_zigzag (-2));
  p = strobe_memrec_put_varint (p, 200);
  /* ALLOC 300 B, the same stack */
  *p++ = STROBE_MEMREC_ALLOC;
  p = strobe_memrec_put_varint (p, 300);
  p = strobe_memrec_put_free (p, 1, false);          /* id 2: one byte */
  g_assert_cmpint (p[-1], ==, STROBE_MEMREC_FREE | (2 << 3));
  p = strobe_memrec_put_free (p, 2, true);           /* id 1, by realloc: the long form */
  /* Times: after 1 record +10, after 2 more +5, at the end +1. */
  t = strobe_memrec_put_varint (t, 1);
  t = strobe_memrec_put_varint (t, 10);
  t = strobe_memrec_put_varint (t, 2);
  t = strobe_memrec_put_varint (t, 5);
  t = strobe_memrec_put_varint (t, 2);
  t = strobe_memrec_put_varint (t, 1);
  batch (b, 0, data, (gsize) (p - data), times, (gsize) (t - times));
  /* The next batch starts where the marks left Seq (5 records + 3 marks): no gap. */
  {
    guint8 d2[4], *q = d2;
    *q++ = STROBE_MEMREC_UNTRACKED;
    batch (b, 8, d2, (gsize) (q - d2), NULL, 0);
  }
  m = decode (b, NULL);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.lost_records, ==, 0);
  g_assert_cmpuint (strobe_memory_model_get_count (m), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (strobe_memory_model_get_alloc (m, i, &a[i]));
  g_assert_cmpuint (a[0].size, ==, 100);
  g_assert_cmpuint (a[0].callstack, ==, 5);
  g_assert_cmpuint (a[0].alloc_time, ==, 0);
  g_assert_cmpuint (a[1].callstack, ==, 3);
  g_assert_cmpuint (a[1].alloc_time, ==, 10);
  g_assert_cmpuint (a[2].callstack, ==, 3);
  g_assert_cmpuint (a[2].alloc_time, ==, 10);
  g_assert_cmpuint (a[1].free_time, ==, 15);
  g_assert_cmpuint (a[0].free_time, ==, 15);
  g_assert_cmpuint (a[2].free_time, ==, STROBE_MEMORY_LIVE);
}

/* A Times mark past the last record, a stack delta out of 32 bits: the batch stops there
 * and the loss is counted. */
static void
test_batch_malformed (void)
{
  g_autoptr (Tsb) b = memory_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  guint8 data[32], times[8], *p = data, *t = times;
  StrobeMemorySummary s;

  *p++ = STROBE_MEMREC_ALLOC;
  p = strobe_memrec_put_varint (p, 10);
  t = strobe_memrec_put_varint (t, 5);    /* after 5 records: there is one */
  t = strobe_memrec_put_varint (t, 1);
  batch (b, 0, data, (gsize) (p - data), times, (gsize) (t - times));
  p = data;
  *p++ = STROBE_MEMREC_ALLOC | STROBE_MEMREC_F_STACK;
  p = strobe_memrec_put_varint (p, strobe_memrec_zigzag (-1));   /* below 0 */
  p = strobe_memrec_put_varint (p, 10);
  batch (b, 1, data, (gsize) (p - data), NULL, 0);
  m = decode (b, NULL);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (strobe_memory_model_get_count (m), ==, 1);
  g_assert_cmpuint (s.lost_records, >=, 2);
}

/* ---- hostile traces ---------------------------------------------------------------- */

/* Ids of 0xffffffff and near it everywhere: nothing may be allocated in proportion. */
static void
test_huge_ids (void)
{
  g_autoptr (Tsb) b = memory_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  const guint32 ids[] = { 0xffffffffu, 0xfffffffeu, 0x7fffffffu, 0x10000000u, 0x04000000u };
  guint8 nodes[64], *p = nodes;
  guint64 frames[] = { 0x1234, 0x5678 };
  StrobeMemorySummary s;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_HEAP_SPEC, 0);
      tsb_set_int (b, 0, ids[i]);
      tsb_set_int (b, 1, ids[i]);
      tsb_aux_str (b, 3, "huge");
      tsb_end (b);
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_TAG_SPEC, 0);
      tsb_set_int (b, 0, ids[i]);
      tsb_aux_str (b, 3, "huge");
      tsb_end (b);
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_CALLSTACK, 0);
      tsb_set_int (b, 0, ids[i]);
      tsb_aux (b, 1, frames, sizeof frames);
      tsb_end (b);
    }
  /* Trie nodes from near the top of the id space. */
  p = strobe_memrec_put_varint (p, 0xfffffff0u);   /* parent 0 */
  p = strobe_memrec_put_varint (p, strobe_memrec_zigzag (0x401000));
  p = strobe_memrec_put_varint (p, 1);
  p = strobe_memrec_put_varint (p, strobe_memrec_zigzag (16));
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_NODES, 0);
  tsb_set_int (b, 0, 0xfffffff0u);
  tsb_aux (b, 1, nodes, (gsize) (p - nodes));
  tsb_end (b);
  tsb_flush_all (b, TSB_AUTO);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    alloc (b, 100 + i, 0x1000 + 16 * i, 64, ids[i], ids[i], ids[i]);
  {
    guint64 v[] = { 200, 0xffffffffu };
    tsb_event (b, TID, UID_FREE_ALL, 0, G_N_ELEMENTS (v), v);
  }
  m = decode (b, NULL);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, ==, G_N_ELEMENTS (ids));
  g_assert_cmpint (s.live_count, ==, G_N_ELEMENTS (ids) - 1);   /* heap 0xffffffff reset */
  g_assert_cmpuint (strobe_memory_model_get_memory_bytes (m), <, 1u << 20);
  {
    StrobeMemoryFrame f[4];
    g_assert_cmpuint (strobe_memory_model_get_frames (m, 0xfffffff1u, f, 4), ==, 2);
    g_assert_cmpuint (f[0].address, ==, 0x401010);
    g_assert_cmpuint (f[1].address, ==, 0x401000);
  }
  {
    g_autoptr (GPtrArray) heaps = strobe_memory_model_get_heaps (m);
    g_autoptr (GPtrArray) tags = strobe_memory_model_get_tags (m);
    g_assert_cmpuint (heaps->len, ==, G_N_ELEMENTS (ids));
    g_assert_cmpuint (tags->len, ==, G_N_ELEMENTS (ids));
  }
}

/* Sizes near 2^64 saturate the totals and are counted; nothing overflows (UBSan). */
static void
test_absurd_sizes (void)
{
  g_autoptr (Tsb) b = memory_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  const guint64 sizes[] = { G_MAXUINT64, G_MAXUINT64 - 1, G_GUINT64_CONSTANT (1) << 63, G_GUINT64_CONSTANT (1) << 48, 100 };
  StrobeMemorySummary s;
  gint64 bytes, count;

  for (guint round = 0; round < 40000; round++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        alloc (b, 10 + round, (guint64) (round * 8 + i + 1) << 8, sizes[i], 0, 0, 0);
      if (round % 1000 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    free_ (b, 100000, (guint64) (i + 1) << 8, 0);
  m = decode (b, NULL);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.absurd_sizes, ==, 40000 * 4);
  g_assert_cmpuint (s.bytes_allocated, ==, G_MAXUINT64);
  /* Saturated at the top (frees after that take their share off it again). */
  g_assert_cmpint (s.peak_bytes, ==, G_MAXINT64);
  g_assert_cmpint (s.live_bytes, >, G_MAXINT64 / 2);
  g_assert_cmpint (s.live_count, ==, 40000 * 5 - 5);
  strobe_memory_model_get_totals_at (m, 50, &bytes, &count);
  g_assert_cmpint (bytes, >, 0);
  {
    g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (m, 0, G_MAXUINT64, STROBE_MEMORY_BY_SIZE,
                                                                            NULL, NULL, NULL, NULL, NULL, NULL);
    StrobeMemoryCosts c;
    strobe_memory_aggregate_get_totals (agg, &c);
    g_assert_cmpuint (c.bytes_allocated, ==, G_MAXUINT64);
    g_assert_cmpint (c.leaked_bytes, ==, G_MAXINT64);
  }
}

/* The columns keep a record in 19 bytes: 32-bit times past their group's first, 32-bit
 * sizes, a 16-bit palette of (heap, tag, thread, alignment). What does not fit goes to a
 * side table: gaps of 2^32 ticks and more, sizes of 4 GiB and more, and more than 65 535
 * combinations. Each record read back against what was written, the free times too. */
static void
test_columns_side_table (void)
{
  g_autoptr (Tsb) b = memory_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  const guint n = 70000;
  guint64 t = 1000;

  for (guint i = 0; i < n; i++)
    {
      /* Every 7th a gap past 32 bits; every 5th a size past them; 70 000 (heap, tag). */
      t += i % 7 == 0 ? (G_GUINT64_CONSTANT (1) << 32) + i : 3;
      alloc (b, t, 0x10000 + 64 * (guint64) i, i % 5 == 0 ? (G_GUINT64_CONSTANT (5) << 32) + i : i + 1,
             i % 300, i / 300, 0);
      if (i % 2 == 0)
        free_ (b, t + 1, 0x10000 + 64 * (guint64) i, i % 300);
      if (i % 4096 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  m = decode (b, NULL);
  g_assert_cmpuint (strobe_memory_model_get_count (m), ==, n);
  t = 1000;
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;

      t += i % 7 == 0 ? (G_GUINT64_CONSTANT (1) << 32) + i : 3;
      g_assert_true (strobe_memory_model_get_alloc (m, i, &r));
      g_assert_cmpuint (r.alloc_time, ==, t);
      g_assert_cmpuint (r.size, ==, i % 5 == 0 ? (G_GUINT64_CONSTANT (5) << 32) + i : i + 1);
      g_assert_cmpuint (r.heap, ==, i % 300);
      g_assert_cmpuint (r.tag, ==, i / 300);
      g_assert_cmpuint (r.address, ==, 0x10000 + 64 * (guint64) i);
      g_assert_cmpuint (r.free_time, ==, i % 2 == 0 ? t + 1 : STROBE_MEMORY_LIVE);
    }
  /* Every record here has a distinct palette entry and two in five a side-table cell:
   * more than the 31 bytes of a real trace, yet bounded per record (213 B measured). */
  g_assert_cmpuint (strobe_memory_model_get_memory_bytes (m) / n, <, 256);
}

/* 2n allocations, then n heap resets of a heap that has none (each scanned the whole
 * live map before). n is large enough that neither decode fits in the caches: with the
 * model in columns 100 k allocations did and 400 k did not, and the ratio of their times
 * (9–10.7) said "quadratic" of what was a cache's edge. Under a sanitizer every access
 * costs far more than a cache miss (and 200 k ran past TSan's time limit): 50 k there. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define FREE_ALL_N 50000
#else
#define FREE_ALL_N 200000
#endif
static Tsb *
build_free_all (guint n)
{
  Tsb *b = memory_stream ();

  for (guint i = 0; i < 2 * n; i++)
    {
      alloc (b, i, 0x10000 + 32 * (guint64) i, 32, 0, 0, 0);
      if (i % 4096 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 v[] = { 2 * n + i, 7 };
      tsb_event (b, TID, UID_FREE_ALL, 0, G_N_ELEMENTS (v), v);
      if (i % 4096 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  return b;
}

static void
test_free_all_unused_heap (void)
{
  SKIP_UNDER_TSAN ();
  g_assert_cmpfloat (growth (build_free_all, FREE_ALL_N), <, 10.0);
}

/* Addresses i << 44: one slot of the old fixed multiplicative hash for all of them. */
static Tsb *
build_colliding (guint n)
{
  Tsb *b = memory_stream ();

  for (guint i = 0; i < n; i++)
    {
      alloc (b, i, (guint64) (i + 1) << 44, 16, 0, 0, 0);
      if (i % 4096 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  for (guint i = 0; i < n; i++)
    {
      free_ (b, n + i, (guint64) (i + 1) << 44, 0);
      if (i % 4096 == 0)
        tsb_flush_all (b, TSB_AUTO);
    }
  return b;
}

/* A trace too big for what the model may keep: past its budget the rest of the memory
 * events are counted, not read, and the model stands as the trace did then — every
 * allocation made up to that time and none after, its bytes near the budget — as a trace
 * that ended there. Without the budget, all of it. */
static void
test_memory_budget (void)
{
  const guint n = 40000;
  const guint64 budget = 256 * 1024;
  g_autoptr (Tsb) b = build_colliding (n);
  g_autoptr (StrobeMemoryModel) all = decode (b, NULL);
  g_autoptr (StrobeMemoryModel) some = decode_with_budget (b, NULL, budget);
  StrobeMemorySummary sa, ss;

  strobe_memory_model_get_summary (all, &sa);
  strobe_memory_model_get_summary (some, &ss);
  g_assert_cmpuint (sa.allocs, ==, n);
  g_assert_cmpuint (sa.frees, ==, n);
  g_assert_cmpuint (sa.not_analysed, ==, 0);
  g_assert_cmpuint (ss.memory_budget, ==, budget);
  g_assert_cmpuint (ss.allocs, >, 0);
  g_assert_cmpuint (ss.allocs, <, n);
  /* The allocations are made at times 0, 1, 2…: exactly those up to the cut were read. */
  g_assert_cmpuint (ss.allocs, ==, ss.not_analysed_from + 1);
  g_assert_cmpuint (ss.frees, ==, 0);
  g_assert_cmpuint (ss.not_analysed + ss.allocs, ==, 2 * (guint64) n);
  g_assert_cmpint (ss.live_count, ==, (gint64) ss.allocs);
  g_assert_cmpuint (strobe_memory_model_get_memory_bytes (some), <=, 2 * budget + 64 * 1024);
  g_assert_cmpuint (strobe_memory_model_get_memory_bytes (some), <, strobe_memory_model_get_memory_bytes (all));
}

static void
test_colliding_addresses (void)
{
  SKIP_UNDER_TSAN ();
  g_assert_cmpfloat (growth (build_colliding, 40000), <, 10.0);
}

/* ---- queries against a brute-force recount ---------------------------------------------- */

static StrobeMemoryModel *query_model;
static char *query_trace;
static guint32 pool_heap, tags[3];

/* Distinct call chains: depth and branch picked from @x. */
static __attribute__ ((noinline)) void site (guint depth, guint32 x, void *p, guint64 size, guint32 heap);

static __attribute__ ((noinline)) void
site_a (guint depth, guint32 x, void *p, guint64 size, guint32 heap)
{
  site (depth, x, p, size, heap);
  __asm__ volatile ("" ::: "memory");
}

static __attribute__ ((noinline)) void
site_b (guint depth, guint32 x, void *p, guint64 size, guint32 heap)
{
  site (depth, x, p, size, heap);
  __asm__ volatile ("" ::: "memory");
}

static __attribute__ ((noinline)) void
site (guint depth, guint32 x, void *p, guint64 size, guint32 heap)
{
  if (depth == 0)
    strobe_memory_alloc (p, size, 0, heap);
  else if (x & 1)
    site_a (depth - 1, x >> 1, p, size, heap);
  else
    site_b (depth - 1, x >> 1, p, size, heap);
  __asm__ volatile ("" ::: "memory");
}

typedef struct
{
  guint   seed;
  guint64 base;
  GArray *live;    /* out: its system-heap blocks never freed */
} Worker;

/* Allocations reported at made-up addresses (nothing is touched): sizes from 0 to 2^20,
 * three tags, two heaps, reallocs, frees in random order, some never freed. */
static gpointer
workload (gpointer data)
{
  Worker *w = data;
  GRand *rand = g_rand_new_with_seed (w->seed);
  GArray *live = g_array_new (FALSE, FALSE, sizeof (guint64));
  GArray *system = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < 30000; i++)
    {
      guint64 a = w->base + 64 * (guint64) i;
      guint32 x = g_rand_int (rand);
      guint64 size = (x & 3) == 0 ? 0 : (guint64) 1 << (x % 21);
      guint32 heap = (x >> 8) % 5 == 0 ? pool_heap : STROBE_MEMORY_HEAP_SYSTEM;

      strobe_memory_tag_push (tags[(x >> 12) % 3]);
      site ((x >> 16) % 4, x >> 20, (void *) (uintptr_t) a, size, heap);
      strobe_memory_tag_pop ();
      if (heap != STROBE_MEMORY_HEAP_SYSTEM)
        continue;
      g_array_append_val (live, a);
      /* Free one, right away (temporary), later, or never. */
      if ((x >> 24) % 3 == 0)
        {
          strobe_memory_free ((void *) (uintptr_t) a, heap);
          g_array_set_size (live, live->len - 1);
        }
      else if (live->len > 64 && (x >> 24) % 3 == 1)
        {
          guint k = g_rand_int_range (rand, 0, (gint) live->len);
          guint64 v = g_array_index (live, guint64, k);
          g_array_remove_index_fast (live, k);
          strobe_memory_free ((void *) (uintptr_t) v, STROBE_MEMORY_HEAP_SYSTEM);
        }
      if (i % 5000 == 2500)
        {
          /* A realloc of a fresh block, moved. */
          guint64 b2 = w->base + (1ull << 32) + 64 * (guint64) i;
          void *o = (void *) (uintptr_t) (w->base + (1ull << 33) + 64 * (guint64) i);
          strobe_memory_alloc (o, 100, 0, STROBE_MEMORY_HEAP_SYSTEM);
          strobe_memory_realloc_begin (o, STROBE_MEMORY_HEAP_SYSTEM);
          strobe_memory_realloc_end (o, (void *) (uintptr_t) b2, 200, 0, STROBE_MEMORY_HEAP_SYSTEM);
        }
    }
  w->live = live;
  g_array_unref (system);
  g_rand_free (rand);
  return NULL;
}

static void
build_query_model (const char *dir)
{
  g_autofree char *trace = g_build_filename (dir, "query.strobe", NULL);
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  Worker w[3] = { { 1, 0x100000000000ull }, { 2, 0x200000000000ull }, { 3, 0x300000000000ull } };
  GThread *threads[2];

  strobe_init (NULL);
  strobe_memory_set_callstacks (true);
  strobe_channel_set_enabled ("Memory", true);
  pool_heap = strobe_memory_heap_register ("Pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  tags[0] = strobe_memory_tag_register ("A", STROBE_MEMORY_TAG_NONE);
  tags[1] = strobe_memory_tag_register ("B", STROBE_MEMORY_TAG_NONE);
  tags[2] = strobe_memory_tag_register ("C", tags[0]);
  g_assert_true (strobe_output_file (trace));
  /* One after another: every event at its own time, in one order (the exact peak check
   * below needs no two threads' events merged at one instant). */
  workload (&w[0]);
  threads[0] = g_thread_new ("w1", workload, &w[1]);
  g_thread_join (threads[0]);
  threads[1] = g_thread_new ("w2", workload, &w[2]);
  g_thread_join (threads[1]);
  /* Frees of other threads' blocks. */
  for (guint k = 1; k < 3; k++)
    for (guint i = 0; i < w[k].live->len; i += 10)
      strobe_memory_free ((void *) (uintptr_t) g_array_index (w[k].live, guint64, i), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_free_all (pool_heap);
  strobe_output_stop ();
  for (guint k = 0; k < 3; k++)
    g_array_unref (w[k].live);

  query_model = strobe_memory_model_new ();
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (query_model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  query_trace = g_strdup (trace);

}

typedef struct
{
  guint64 allocations, temporary, bytes, leaked_count;
  gint64  leaked_bytes;
} Brute;

static guint64
key_of (StrobeMemoryGroupBy by, const StrobeMemoryAlloc *r)
{
  switch (by)
    {
    case STROBE_MEMORY_BY_TAG: return r->tag;
    case STROBE_MEMORY_BY_HEAP: return r->heap;
    case STROBE_MEMORY_BY_SIZE: return r->size == 0 ? 0 : 64 - (guint) __builtin_clzll (r->size);
    case STROBE_MEMORY_BY_THREAD: return r->thread_id;
    default: return r->callstack;
    }
}

static gint64
counted (const StrobeMemoryAlloc *r)
{
  return (r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : (gint64) r->size;
}

/* Every group's costs over [t0, t1] recounted from the records. */
static GHashTable *
brute_force (StrobeMemoryGroupBy by, guint64 t0, guint64 t1)
{
  GHashTable *h = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint64 n = strobe_memory_model_get_count (query_model);

  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;
      guint64 k;
      Brute *b;

      strobe_memory_model_get_alloc (query_model, i, &r);
      if (r.alloc_time < t0 || r.alloc_time > t1)
        continue;
      k = key_of (by, &r);
      if ((b = g_hash_table_lookup (h, &k)) == NULL)
        g_hash_table_insert (h, g_memdup2 (&k, sizeof k), b = g_new0 (Brute, 1));
      b->allocations++;
      b->bytes += r.size;
      if (r.flags & STROBE_MEMORY_ALLOC_TEMPORARY)
        b->temporary++;
      if (r.free_time == STROBE_MEMORY_LIVE || r.free_time > t1)
        {
          b->leaked_count++;
          b->leaked_bytes += counted (&r);
        }
    }
  return h;
}

static void
check_aggregate (StrobeMemoryGroupBy by, guint64 t0, guint64 t1)
{
  g_autoptr (GHashTable) want = brute_force (by, t0, t1);
  g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (query_model, t0, t1, by, NULL, NULL,
                                                                          NULL, NULL, NULL, NULL);
  guint n = strobe_memory_aggregate_get_n_rows (agg), with_allocs = 0;
  g_autofree StrobeMemoryRow *rows = g_new (StrobeMemoryRow, MAX (n, 1));
  StrobeMemoryCosts totals;
  gint64 peak_sum = 0;

  g_assert_cmpuint (strobe_memory_aggregate_get_rows (agg, 0, n, rows), ==, n);
  for (guint i = 0; i < n; i++)
    {
      Brute *b = g_hash_table_lookup (want, &rows[i].key);

      peak_sum += rows[i].costs.peak_bytes;
      /* Sorted by peak, descending. */
      if (i)
        g_assert_cmpint (rows[i - 1].costs.peak_bytes, >=, rows[i].costs.peak_bytes);
      if (rows[i].costs.allocations == 0)
        {
          g_assert_null (b);   /* a group that only held memory at the peak */
          continue;
        }
      with_allocs++;
      g_assert_nonnull (b);
      g_assert_cmpuint (rows[i].costs.allocations, ==, b->allocations);
      g_assert_cmpuint (rows[i].costs.temporary, ==, b->temporary);
      g_assert_cmpuint (rows[i].costs.bytes_allocated, ==, b->bytes);
      g_assert_cmpuint (rows[i].costs.leaked_count, ==, b->leaked_count);
      g_assert_cmpint (rows[i].costs.leaked_bytes, ==, b->leaked_bytes);
    }
  g_assert_cmpuint (with_allocs, ==, g_hash_table_size (want));
  /* The contributions add up to the range's peak. */
  strobe_memory_aggregate_get_totals (agg, &totals);
  g_assert_cmpint (peak_sum, ==, totals.peak_bytes);
}

/* With every event at its own time (STROBE_MEMORY_SHIFT=0), the peak is a time: the
 * contributions are what was live at it, grouped. */
static void
check_peak_contributions (guint64 t0, guint64 t1)
{
  g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (query_model, t0, t1, STROBE_MEMORY_BY_TAG,
                                                                          NULL, NULL, NULL, NULL, NULL, NULL);
  guint64 peak = strobe_memory_aggregate_get_peak_time (agg);
  g_autoptr (GArray) live = strobe_memory_model_live_at (query_model, peak);
  g_autoptr (GHashTable) by_tag = g_hash_table_new (NULL, NULL);
  guint n = strobe_memory_aggregate_get_n_rows (agg);
  StrobeMemoryCosts totals;
  gint64 bytes;

  strobe_memory_aggregate_get_totals (agg, &totals);
  strobe_memory_model_get_totals_at (query_model, peak, &bytes, NULL);
  g_assert_cmpint (bytes, ==, totals.peak_bytes);
  for (guint i = 0; i < live->len; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (query_model, g_array_index (live, guint64, i), &r);
      g_hash_table_replace (by_tag, GUINT_TO_POINTER (r.tag),
                            GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_tag, GUINT_TO_POINTER (r.tag)))
                                              + (gsize) counted (&r)));
    }
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryRow row;
      strobe_memory_aggregate_get_rows (agg, i, 1, &row);
      g_assert_cmpint (row.costs.peak_bytes, ==,
                       (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (by_tag, GUINT_TO_POINTER ((guint) row.key))));
    }
}

static void
time_range (guint64 *first, guint64 *last)
{
  StrobeMemorySummary s;

  strobe_memory_model_get_summary (query_model, &s);
  *first = s.first_time;
  *last = s.last_time;
}

/* The whole trace's peak is the position the model kept as it reached it; from the first
 * record's time on (t0 > 0) the same trace is walked record by entry to find it: both
 * give the same peak, totals and rows. */
static void
check_whole_trace_peak (guint64 first)
{
  g_autoptr (StrobeMemoryAggregate) kept = NULL, walked = NULL;
  StrobeMemoryCosts a, b;
  guint n;

  g_assert_cmpuint (first, >, 1);
  kept = strobe_memory_model_aggregate (query_model, 0, G_MAXUINT64, STROBE_MEMORY_BY_STACK, NULL, NULL, NULL, NULL,
                                        NULL, NULL);
  walked = strobe_memory_model_aggregate (query_model, 1, G_MAXUINT64, STROBE_MEMORY_BY_STACK, NULL, NULL, NULL, NULL,
                                          NULL, NULL);
  g_assert_cmpuint (strobe_memory_aggregate_get_peak_time (kept), ==, strobe_memory_aggregate_get_peak_time (walked));
  strobe_memory_aggregate_get_totals (kept, &a);
  strobe_memory_aggregate_get_totals (walked, &b);
  g_assert_cmpint (a.peak_bytes, >, 0);
  g_assert_true (memcmp (&a, &b, sizeof a) == 0);
  n = strobe_memory_aggregate_get_n_rows (kept);
  g_assert_cmpuint (n, ==, strobe_memory_aggregate_get_n_rows (walked));
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryRow x, y;

      strobe_memory_aggregate_get_rows (kept, i, 1, &x);
      strobe_memory_aggregate_get_rows (walked, i, 1, &y);
      g_assert_cmpuint (x.key, ==, y.key);
      g_assert_true (memcmp (&x.costs, &y.costs, sizeof x.costs) == 0);
    }
}

static void
test_aggregate (void)
{
  static const StrobeMemoryGroupBy all[] = {
    STROBE_MEMORY_BY_STACK, STROBE_MEMORY_BY_TAG, STROBE_MEMORY_BY_HEAP, STROBE_MEMORY_BY_SIZE, STROBE_MEMORY_BY_THREAD,
  };
  guint64 first, last, third;

  time_range (&first, &last);
  third = (last - first) / 3;
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      check_aggregate (all[i], 0, G_MAXUINT64);
      check_aggregate (all[i], first + third, first + 2 * third);
    }
  check_peak_contributions (0, G_MAXUINT64);
  check_peak_contributions (first + third, first + 2 * third);
  check_whole_trace_peak (first);
}

/* A tree's root holds the totals, and every node's inclusive costs are its self costs
 * plus its children's; the range-limited tree's frame-#0 level matches a recount by
 * frame #0. */
static void
check_tree_node (StrobeMemoryTree *tree, guint node, StrobeMemoryTreeKind kind)
{
  StrobeMemoryTreeNode n, c;
  guint32 kids[4096];
  guint k = strobe_memory_tree_get_children (tree, node, STROBE_MEMORY_COST_ALLOCATIONS, 0, 4096, kids);
  guint64 allocations = 0, leaked = 0;

  g_assert_true (strobe_memory_tree_get_node (tree, node, &n));
  g_assert_cmpuint (k, ==, n.n_children);
  for (guint i = 0; i < k; i++)
    {
      g_assert_true (strobe_memory_tree_get_node (tree, kids[i], &c));
      g_assert_cmpuint (c.parent, ==, node);
      g_assert_cmpuint (c.depth, ==, n.depth + 1);
      if (i)
        {
          StrobeMemoryTreeNode p;
          strobe_memory_tree_get_node (tree, kids[i - 1], &p);
          g_assert_cmpuint (p.inclusive.allocations, >=, c.inclusive.allocations);
        }
      allocations += c.inclusive.allocations;
      leaked += c.inclusive.leaked_count;
      check_tree_node (tree, kids[i], kind);
    }
  if (kind == STROBE_MEMORY_TREE_TOP_DOWN || node == 0)
    {
      g_assert_cmpuint (n.inclusive.allocations, ==, allocations + n.self.allocations);
      g_assert_cmpuint (n.inclusive.leaked_count, ==, leaked + n.self.leaked_count);
    }
}

static void
check_tree (guint64 t0, guint64 t1)
{
  for (guint kind = 0; kind < 2; kind++)
    {
      g_autoptr (StrobeMemoryTree) tree = strobe_memory_model_build_tree (query_model, t0, t1, kind, NULL, NULL,
                                                                          NULL, NULL, NULL, NULL);
      g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (query_model, t0, t1, STROBE_MEMORY_BY_FUNCTION,
                                                                              NULL, NULL, NULL, NULL, NULL, NULL);
      StrobeMemoryTreeNode root;
      StrobeMemoryCosts totals;

      g_assert_nonnull (tree);
      strobe_memory_aggregate_get_totals (agg, &totals);
      g_assert_true (strobe_memory_tree_get_node (tree, 0, &root));
      g_assert_cmpuint (root.inclusive.allocations, ==, totals.allocations);
      g_assert_cmpuint (root.inclusive.temporary, ==, totals.temporary);
      g_assert_cmpint (root.inclusive.leaked_bytes, ==, totals.leaked_bytes);
      g_assert_cmpint (root.inclusive.peak_bytes, ==, totals.peak_bytes);
      check_tree_node (tree, 0, kind);
      if (kind == STROBE_MEMORY_TREE_BOTTOM_UP)
        {
          /* The first level is frame #0 (no frame function: its address), as BY_FUNCTION. */
          guint n = strobe_memory_aggregate_get_n_rows (agg);
          for (guint i = 0; i < n; i++)
            {
              StrobeMemoryRow row;
              guint32 kids[4096];
              guint k = strobe_memory_tree_get_children (tree, 0, STROBE_MEMORY_COST_KEY, 0, 4096, kids);
              gboolean found;

              strobe_memory_aggregate_get_rows (agg, i, 1, &row);
              found = row.key == 0;
              for (guint j = 0; j < k && !found; j++)
                {
                  StrobeMemoryTreeNode c;
                  strobe_memory_tree_get_node (tree, kids[j], &c);
                  if (c.key == row.key)
                    {
                      g_assert_cmpuint (c.inclusive.allocations, ==, row.costs.allocations);
                      g_assert_cmpint (c.inclusive.peak_bytes, ==, row.costs.peak_bytes);
                      found = TRUE;
                    }
                }
              g_assert_true (found);
            }
        }
    }
}

static void
test_trees (void)
{
  guint64 first, last, tenth;

  time_range (&first, &last);
  tenth = (last - first) / 10;
  check_tree (0, G_MAXUINT64);
  check_tree (first + 4 * tenth, first + 5 * tenth);
}

/* ---- sorting answers: against a comparison sort of (value, index) ------------------------ */

typedef struct
{
  guint64 value, index;
} Keyed;

static gboolean keyed_descending;

static int
keyed_compare (const void *a, const void *b)
{
  const Keyed *x = a, *y = b;

  if (x->value != y->value)
    return (x->value < y->value) == keyed_descending ? 1 : -1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static guint64
field_value (const StrobeMemoryAlloc *r, guint64 index, StrobeMemoryField f)
{
  switch (f)
    {
    case STROBE_MEMORY_FIELD_ADDRESS: return r->address;
    case STROBE_MEMORY_FIELD_SIZE: return r->size;
    case STROBE_MEMORY_FIELD_TAG: return r->tag;
    case STROBE_MEMORY_FIELD_HEAP: return r->heap;
    case STROBE_MEMORY_FIELD_THREAD: return r->thread_id;
    case STROBE_MEMORY_FIELD_ALLOC_TIME: return r->alloc_time;
    case STROBE_MEMORY_FIELD_FREE_TIME: return r->free_time;
    case STROBE_MEMORY_FIELD_STACK: return r->callstack;
    default: return index;
    }
}

/* Every field both ways, each sort starting from the one before (not from index order):
 * values in order, ties in allocation order, the same set. */
static void
test_sort (void)
{
  StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_ALLOCATED, 0, G_MAXUINT64 - 1, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeMemoryAllocList) list = strobe_memory_model_select (query_model, &sel, NULL, NULL, NULL, &error);
  guint64 n;
  g_autofree StrobeMemoryAlloc *items = NULL;
  g_autofree guint64 *indexes = NULL;
  g_autofree Keyed *want = NULL;

  g_assert_no_error (error);
  n = strobe_memory_alloc_list_get_n_items (list);
  g_assert_cmpuint (n, >, 1000);
  items = g_new (StrobeMemoryAlloc, n);
  indexes = g_new (guint64, n);
  want = g_new (Keyed, n);
  for (int pass = 0; pass < 2; pass++)
    for (StrobeMemoryField f = STROBE_MEMORY_FIELD_INDEX; f <= STROBE_MEMORY_FIELD_STACK; f++)
      for (int desc = 0; desc < 2; desc++)
        {
          strobe_memory_alloc_list_get_items (list, 0, (guint) n, items, indexes);
          for (guint64 i = 0; i < n; i++)
            want[i] = (Keyed) { field_value (&items[i], indexes[i], f), indexes[i] };
          keyed_descending = desc;
          qsort (want, n, sizeof *want, keyed_compare);
          g_assert_true (strobe_memory_alloc_list_sort (list, f, desc, NULL));
          strobe_memory_alloc_list_get_items (list, 0, (guint) n, items, indexes);
          for (guint64 i = 0; i < n; i++)
            {
              g_assert_cmpuint (indexes[i], ==, want[i].index);
              g_assert_cmpuint (field_value (&items[i], indexes[i], f), ==, want[i].value);
            }
        }
}

/* Grouped in allocation order (a bitmap of the model's records for a long list, a sort
 * for a short one): each row as the listed @items give it. */
static void
check_groups (StrobeMemoryAllocList *list, const StrobeMemoryAlloc *items, guint64 m, guint64 want_bytes)
{
  for (guint g = 0; g < 2; g++)
    {
      StrobeMemoryGroupBy by = g == 0 ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_STACK;
      g_autoptr (StrobeMemoryAggregate) grouped = strobe_memory_alloc_list_group (list, query_model, by, NULL, NULL,
                                                                                   NULL, NULL);
      g_autoptr (GHashTable) counts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      guint rows = strobe_memory_aggregate_get_n_rows (grouped);
      g_autofree StrobeMemoryRow *row = g_new (StrobeMemoryRow, MAX (rows, 1));
      StrobeMemoryCosts t;

      strobe_memory_aggregate_get_totals (grouped, &t);
      g_assert_cmpuint (t.allocations, ==, m);
      g_assert_cmpuint (t.bytes_allocated, ==, want_bytes);
      for (guint64 i = 0; i < m; i++)
        {
          gint64 key = by == STROBE_MEMORY_BY_TAG ? items[i].tag : items[i].callstack;
          guint64 *cnt = g_hash_table_lookup (counts, &key);

          if (cnt == NULL)
            g_hash_table_insert (counts, g_memdup2 (&key, sizeof key), cnt = g_new0 (guint64, 2));
          cnt[0]++;
          cnt[1] += items[i].size;
        }
      g_assert_cmpuint (strobe_memory_aggregate_get_rows (grouped, 0, rows, row), ==, rows);
      g_assert_cmpuint (rows, ==, g_hash_table_size (counts));
      for (guint i = 0; i < rows; i++)
        {
          gint64 key = (gint64) row[i].key;
          const guint64 *cnt = g_hash_table_lookup (counts, &key);

          g_assert_nonnull (cnt);
          g_assert_cmpuint (row[i].costs.allocations, ==, cnt[0]);
          g_assert_cmpuint (row[i].costs.bytes_allocated, ==, cnt[1]);
        }
    }
}

/* A column grown past the size from which it is its own mapping (4 MiB), moved by
 * mremap as it doubles: every cell kept, for each cell size the store uses. */
static void
test_column_grows (void)
{
  static const guint elts[] = { 1, 2, 4 };

  SKIP_UNDER_TSAN ();
  for (guint e = 0; e < G_N_ELEMENTS (elts); e++)
    {
      StrobeColumn *c = strobe_column_new (elts[e]);
      guint n = (9u << 20) / elts[e] + 12345;   /* mapped at 4 MiB, moved at 8 */

      for (guint i = 0; i < n; i++)
        {
          if (c->len == c->cap)
            strobe_column_grow (c);
          memcpy (c->data + (gsize) c->len * c->elt, &i, c->elt);   /* little-endian: the low bytes */
          c->len++;
        }
      g_assert_cmpuint (c->cap, >=, n);
      for (guint i = 0; i < n; i++)
        {
          guint v = 0;

          memcpy (&v, c->data + (gsize) i * c->elt, c->elt);
          if (v != (elts[e] == 4 ? i : i & ((1u << (8 * elts[e])) - 1)))
            g_error ("cell %u of a %u-byte column: %u", i, elts[e], v);
        }
      strobe_column_free (c);
    }
}

static void
test_select (void)
{
  guint64 first, last, a, b, c;
  guint64 n = strobe_memory_model_get_count (query_model);

  time_range (&first, &last);
  a = first + (last - first) / 4;
  b = first + (last - first) / 2;
  c = first + 3 * (last - first) / 4;
  for (guint kind = STROBE_MEMORY_SELECT_LIVE_AT; kind <= STROBE_MEMORY_SELECT_LONG_LIVED; kind++)
    {
      StrobeMemorySelection sel = { kind, a, b, kind >= STROBE_MEMORY_SELECT_SHORT_LIVED ? (last - first) / 100 : c };
      g_autoptr (StrobeMemoryAllocList) list = strobe_memory_model_select (query_model, &sel, NULL, NULL, NULL, NULL);
      guint64 m = strobe_memory_alloc_list_get_n_items (list), want = 0, got_bytes = 0, want_bytes = 0;
      g_autofree StrobeMemoryAlloc *items = g_new (StrobeMemoryAlloc, MAX (m, 1));
      g_autofree guint64 *indexes = g_new (guint64, MAX (m, 1));

      g_assert_cmpuint (strobe_memory_alloc_list_get_items (list, 0, (guint) m, items, indexes), ==, m);
      for (guint64 i = 0; i < n; i++)
        {
          StrobeMemoryAlloc r;
          gboolean in;

          strobe_memory_model_get_alloc (query_model, i, &r);
          switch (kind)
            {
            case STROBE_MEMORY_SELECT_LIVE_AT: in = r.alloc_time <= a && r.free_time > a; break;
            case STROBE_MEMORY_SELECT_ALLOCATED: in = r.alloc_time >= a && r.alloc_time <= b; break;
            case STROBE_MEMORY_SELECT_ALLOCATED_LIVE: in = r.alloc_time >= a && r.alloc_time <= b && r.free_time > c && r.alloc_time <= c; break;
            case STROBE_MEMORY_SELECT_FREED: in = r.free_time >= a && r.free_time <= b; break;
            case STROBE_MEMORY_SELECT_LEAKS: in = r.free_time == STROBE_MEMORY_LIVE; break;
            case STROBE_MEMORY_SELECT_SHORT_LIVED:
              in = r.alloc_time >= a && r.alloc_time <= b && r.free_time != STROBE_MEMORY_LIVE
                   && r.free_time - r.alloc_time <= sel.c;
              break;
            default:
              in = r.alloc_time >= a && r.alloc_time <= b
                   && (r.free_time == STROBE_MEMORY_LIVE || r.free_time - r.alloc_time > sel.c);
              break;
            }
          if (in)
            {
              want++;
              want_bytes += r.size;
            }
        }
      for (guint64 i = 0; i < m; i++)
        got_bytes += items[i].size;
      g_test_message ("selection %u: %" G_GUINT64_FORMAT " allocations", kind, m);
      g_assert_cmpuint (m, ==, want);
      g_assert_cmpuint (got_bytes, ==, want_bytes);
      /* Sorting keeps the set; sizes come out in order. */
      g_assert_true (strobe_memory_alloc_list_sort (list, STROBE_MEMORY_FIELD_SIZE, TRUE, NULL));
      strobe_memory_alloc_list_get_items (list, 0, (guint) m, items, NULL);
      for (guint64 i = 1; i < m; i++)
        g_assert_cmpuint (items[i - 1].size, >=, items[i].size);
      check_groups (list, items, m, want_bytes);
    }
  /* A list of fewer than a 64th of the model's records (those from the quarter's on, a
   * 128th of them): grouped through a sort. */
  {
    StrobeMemoryAlloc from, to;
    StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_ALLOCATED, 0, 0, 0 };
    g_autoptr (StrobeMemoryAllocList) list = NULL;

    strobe_memory_model_get_alloc (query_model, n / 4, &from);
    strobe_memory_model_get_alloc (query_model, n / 4 + n / 128, &to);
    sel.a = from.alloc_time;
    sel.b = to.alloc_time;
    list = strobe_memory_model_select (query_model, &sel, NULL, NULL, NULL, NULL);
    guint64 m = strobe_memory_alloc_list_get_n_items (list), bytes = 0;
    g_autofree StrobeMemoryAlloc *items = g_new (StrobeMemoryAlloc, MAX (m, 1));

    g_test_message ("a short list: %" G_GUINT64_FORMAT " allocations", m);
    g_assert_cmpuint (m, >, 1);
    g_assert_cmpuint (m, <, n / 64);
    g_assert_true (strobe_memory_alloc_list_sort (list, STROBE_MEMORY_FIELD_SIZE, TRUE, NULL));
    g_assert_cmpuint (strobe_memory_alloc_list_get_items (list, 0, (guint) m, items, NULL), ==, m);
    for (guint64 i = 0; i < m; i++)
      bytes += items[i].size;
    check_groups (list, items, m, bytes);
  }
}

static void
on_progress (gdouble fraction, gpointer user)
{
  gdouble *last = user;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
test_cancel_progress (void)
{
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  gdouble last = 0;
  g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (query_model, 0, G_MAXUINT64, STROBE_MEMORY_BY_STACK,
                                                                          NULL, NULL, cancel, on_progress, &last, &error);

  g_assert_no_error (error);
  g_assert_nonnull (agg);
  g_assert_cmpfloat (last, ==, 1.0);
  g_cancellable_cancel (cancel);
  g_assert_null (strobe_memory_model_build_tree (query_model, 0, G_MAXUINT64, STROBE_MEMORY_TREE_TOP_DOWN, NULL,
                                                 NULL, cancel, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  {
    StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0 };
    g_assert_null (strobe_memory_model_select (query_model, &sel, cancel, NULL, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
}

/* A list stands as it was made: the trace read half-way, the leaks so far listed; the
 * rest read — some of them freed since — the list still has them live (its items, its
 * totals, its sort by free time), while the model has them freed. */
static void
test_list_as_made (void)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeMemoryModel) model = strobe_memory_model_new ();
  g_autoptr (StrobeMemoryAllocList) half = NULL;
  g_autoptr (GError) error = NULL;
  StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0 };
  g_autofree char *data = NULL;
  g_autofree StrobeMemoryAlloc *items = NULL;
  g_autofree guint64 *indexes = NULL;
  guint64 count0, bytes0, count1, bytes1, freed_since = 0;
  gsize len;

  g_assert_true (g_file_get_contents (query_trace, &data, &len, NULL));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data, len / 2, &error));
  half = strobe_memory_model_select (model, &sel, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  strobe_memory_alloc_list_get_totals (half, &count0, &bytes0);
  g_assert_cmpuint (count0, >, 1000);
  g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data + len / 2, len - len / 2, &error));
  g_assert_true (strobe_decoder_finish (decoder, &error));
  g_assert_no_error (error);

  strobe_memory_alloc_list_get_totals (half, &count1, &bytes1);
  g_assert_cmpuint (count1, ==, count0);
  g_assert_cmpuint (bytes1, ==, bytes0);
  items = g_new (StrobeMemoryAlloc, count0);
  indexes = g_new (guint64, count0);
  g_assert_true (strobe_memory_alloc_list_sort (half, STROBE_MEMORY_FIELD_FREE_TIME, FALSE, &error));
  g_assert_cmpuint (strobe_memory_alloc_list_get_items (half, 0, (guint) count0, items, indexes), ==, count0);
  for (guint64 i = 0; i < count0; i++)
    {
      StrobeMemoryAlloc r;

      g_assert_cmpuint (items[i].free_time, ==, STROBE_MEMORY_LIVE);
      /* All live as listed: the sort by free time left them in allocation order. */
      if (i > 0)
        g_assert_cmpuint (indexes[i - 1], <, indexes[i]);
      strobe_memory_model_get_alloc (model, indexes[i], &r);
      g_assert_cmpuint (items[i].size, ==, r.size);
      g_assert_cmpuint (items[i].alloc_time, ==, r.alloc_time);
      g_assert_cmpuint (items[i].callstack, ==, r.callstack);
      if (r.free_time != STROBE_MEMORY_LIVE)
        freed_since++;
    }
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " listed live were freed later", freed_since, count0);
  g_assert_cmpuint (freed_since, >, 0);
}

/* A list and its sort ask whether they fit in what the machine has left: with none left
 * (a machine of 16 MiB whose MemAvailable is 0: answers up to a 256th of it, 64 KiB, are
 * still made), the whole trace's 78 k allocations are not listed — the list stops where it
 * would double past that — and a list of 5 000 is made but not sorted (20 bytes an item);
 * either says so (G_IO_ERROR_NO_SPACE), the sorted list's order unchanged. With memory,
 * both are made. */
static void
test_list_room (void)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-list-room-XXXXXX", NULL);
  g_autofree char *meminfo = g_build_filename (dir, "meminfo", NULL);
  StrobeMemorySelection all = { STROBE_MEMORY_SELECT_ALLOCATED, 0, G_MAXUINT64 - 1, 0 };
  StrobeMemorySelection some = { STROBE_MEMORY_SELECT_ALLOCATED, 0, 0, 0 };
  g_autoptr (StrobeMemoryAllocList) list = NULL, live = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint64 *before = NULL, *after = NULL;
  StrobeMemoryAlloc r;
  guint64 n;

  if (strobe_memory_budget_room () < 64 * 1024 * 1024)
    {
      g_test_skip ("this process runs under a tight memory limit");
      return;
    }
  /* The first 5 000 allocations (every event at its own time): how many are live at a
   * time depends on how the workload's threads ran. */
  g_assert_true (strobe_memory_model_get_alloc (query_model, 4999, &r));
  some.b = r.alloc_time;
  g_assert_true (g_file_set_contents (meminfo, "MemTotal: 16384 kB\nMemAvailable: 0 kB\n", -1, NULL));
  strobe_memory_budget_set_test_meminfo (meminfo);

  g_assert_null (strobe_memory_model_select (query_model, &all, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  live = strobe_memory_model_select (query_model, &some, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n = strobe_memory_alloc_list_get_n_items (live);
  g_assert_cmpuint (n, ==, 5000);
  before = g_new (guint64, n);
  after = g_new (guint64, n);
  strobe_memory_alloc_list_get_items (live, 0, (guint) n, NULL, before);
  g_assert_false (strobe_memory_alloc_list_sort (live, STROBE_MEMORY_FIELD_SIZE, TRUE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_clear_error (&error);
  strobe_memory_alloc_list_get_items (live, 0, (guint) n, NULL, after);
  g_assert_cmpmem (before, n * sizeof *before, after, n * sizeof *after);

  g_assert_true (g_file_set_contents (meminfo, "MemTotal: 16777216 kB\nMemAvailable: 8388608 kB\n", -1, NULL));
  g_assert_true (strobe_memory_alloc_list_sort (live, STROBE_MEMORY_FIELD_SIZE, TRUE, &error));
  list = strobe_memory_model_select (query_model, &all, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strobe_memory_alloc_list_get_n_items (list), ==, strobe_memory_model_get_count (query_model));

  strobe_memory_budget_set_test_meminfo (NULL);
  g_unlink (meminfo);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int status;

  /* meson sets STROBE_MEMORY_SHIFT=0 (read before main): every event its own time. */
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-model/batch-records", test_batch_records);
  g_test_add_func ("/memory-model/batch-malformed", test_batch_malformed);
  g_test_add_func ("/memory-model/huge-ids", test_huge_ids);
  g_test_add_func ("/memory-model/absurd-sizes", test_absurd_sizes);
  g_test_add_func ("/memory-model/columns-side-table", test_columns_side_table);
  g_test_add_func ("/memory-model/free-all-of-an-unused-heap", test_free_all_unused_heap);
  g_test_add_func ("/memory-model/colliding-addresses", test_colliding_addresses);
  g_test_add_func ("/memory-model/memory-budget", test_memory_budget);
  g_test_add_func ("/memory-model/aggregate", test_aggregate);
  g_test_add_func ("/memory-model/trees", test_trees);
  g_test_add_func ("/memory-model/select", test_select);
  g_test_add_func ("/memory-model/column-grows", test_column_grows);
  g_test_add_func ("/memory-model/sort", test_sort);
  g_test_add_func ("/memory-model/cancel-and-progress", test_cancel_progress);
  g_test_add_func ("/memory-model/list-as-made", test_list_as_made);
  g_test_add_func ("/memory-model/list-room", test_list_room);
  dir = g_dir_make_tmp ("strobe-memory-model-XXXXXX", NULL);
  build_query_model (dir);
  status = g_test_run ();
  g_clear_object (&query_model);
  strobe_shutdown ();
  g_unlink (query_trace);
  g_free (query_trace);
  g_rmdir (dir);
  return status;
}
