/* test-hostile-models.c — traces made to hurt the models: ids read from the trace used as
 * sizes, regions that never end, nesting millions deep, every thread id in reverse order.
 *
 * Each cost test builds the same hostile trace at n and 4n events and compares the CPU
 * time this thread spends decoding it into the models and querying them: linear work
 * makes the ratio about 4, n log n slightly more (and the C library's allocator adds to
 * it with tens of thousands of small blocks: 5 to 6 for the threads), quadratic work 16.
 * The bound is 10, and each size is timed three times (the least counts), so a loaded
 * machine does not make the test fail and a quadratic model cannot pass. Memory is checked the same way:
 * what the models hold must follow the events they store, not the ids in the trace.
 *
 * The CPU time of a thread includes the kernel's work faulting in pages the C library got
 * fresh from the system. With glibc's defaults a block over its (moving) mmap threshold is
 * mapped and unmapped per round, and a heap top over the trim threshold is given back, so
 * the large trace faulted its pages in every round while the small one reused its heap:
 * on a loaded virtual machine that was 40 % of the large trace's time and the ratio of a
 * linear model read 7.5 to 11.7. main() therefore keeps freed memory in the heap, so the
 * least of three rounds is a warm round at both sizes (ratio 4 to 5 on the same machine).
 *
 *   /hostile/sparse-ids       spec, counter, bookmark and thread ids up to 0xffffffff
 *   /hostile/open-regions     regions that never end, ends of names never begun
 *   /hostile/region-lanes     regions that all overlap, laid out in lanes
 *   /hostile/region-index     the region index against brute force: lanes, range queries
 *   /hostile/many-regions     200 000 regions of a trace, each query against a brute-force
 *                             filter of the regions the events make
 *   /hostile/regions-while-loading  a query after each of 500 pieces of a trace costs a
 *                             few builds of the index, not one build each
 *   /hostile/deep-nesting     scope begins without ends: capped, counted, bounded memory
 *   /hostile/deep-threads     the same on thousands of threads: the whole model's nesting
 *                             budget, counted, bounded memory
 *   /hostile/many-threads     every thread id, highest first
 *   /hostile/late-samples     counter samples and bookmarks in reverse time order
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "strobe-analysis.h"
#include "strobe-log-model.h"
#include "strobe-memory-model.h"
#include "strobe-region-index.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"
#include "test-stream-builder.h"

enum
{
  UID_LOG_CATEGORY = TSB_UID_USER,
  UID_LOG_SPEC,
  UID_LOG_MESSAGE,
  UID_CPU_SPEC,
  UID_CPU_BATCH,
  UID_REGION_BEGIN,
  UID_REGION_END,
  UID_BOOKMARK_SPEC,
  UID_BOOKMARK,
  UID_COUNTER_SPEC,
  UID_COUNTER_INT,
};

#define TID 16

/* ---- building traces ---------------------------------------------------------------- */

static Tsb *
hostile_new (void)
{
  static const TsbField log_category[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "DefaultVerbosity", STROBE_TYPE_UINT8 }, { "Name", STROBE_TYPE_ANSI },
  };
  static const TsbField log_spec[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "CategoryId", STROBE_TYPE_UINT32 }, { "Line", STROBE_TYPE_INT32 },
    { "Verbosity", STROBE_TYPE_UINT8 }, { "File", STROBE_TYPE_ANSI }, { "FormatString", STROBE_TYPE_ANSI },
  };
  static const TsbField log_message[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "SpecId", STROBE_TYPE_UINT32 },
    { "FormatArgs", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  static const TsbField cpu_spec[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "Line", STROBE_TYPE_UINT32 }, { "Name", STROBE_TYPE_ANSI },
    { "File", STROBE_TYPE_ANSI },
  };
  static const TsbField cpu_batch[] = {
    { "Base", STROBE_TYPE_UINT64 }, { "Shift", STROBE_TYPE_UINT8 }, { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  static const TsbField region[] = { { "Cycle", STROBE_TYPE_UINT64 }, { "Name", STROBE_TYPE_ANSI } };
  static const TsbField bookmark_spec[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "Line", STROBE_TYPE_UINT32 }, { "Name", STROBE_TYPE_ANSI },
    { "File", STROBE_TYPE_ANSI },
  };
  static const TsbField bookmark[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Id", STROBE_TYPE_UINT32 }, { "Text", STROBE_TYPE_ANSI },
  };
  static const TsbField counter_spec[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "Type", STROBE_TYPE_UINT8 }, { "Unit", STROBE_TYPE_UINT8 },
    { "Name", STROBE_TYPE_ANSI },
  };
  static const TsbField counter_int[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Id", STROBE_TYPE_UINT32 }, { "Value", STROBE_TYPE_INT64 },
  };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_LOG_CATEGORY, "Logging", "LogCategory", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (log_category), log_category);
  tsb_define (b, UID_LOG_SPEC, "Logging", "LogMessageSpec", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (log_spec), log_spec);
  tsb_define (b, UID_LOG_MESSAGE, "Logging", "LogMessage", STROBE_EVENT_FLAG_NOSYNC,
              G_N_ELEMENTS (log_message), log_message);
  tsb_define (b, UID_CPU_SPEC, "Cpu", "EventSpec", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (cpu_spec), cpu_spec);
  tsb_define (b, UID_CPU_BATCH, "Cpu", "EventBatch", STROBE_EVENT_FLAG_NOSYNC,
              G_N_ELEMENTS (cpu_batch), cpu_batch);
  tsb_define (b, UID_REGION_BEGIN, "Misc", "RegionBegin", STROBE_EVENT_FLAG_NOSYNC, 2, region);
  tsb_define (b, UID_REGION_END, "Misc", "RegionEnd", STROBE_EVENT_FLAG_NOSYNC, 2, region);
  tsb_define (b, UID_BOOKMARK_SPEC, "Misc", "BookmarkSpec", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (bookmark_spec), bookmark_spec);
  tsb_define (b, UID_BOOKMARK, "Misc", "Bookmark", STROBE_EVENT_FLAG_NOSYNC,
              G_N_ELEMENTS (bookmark), bookmark);
  tsb_define (b, UID_COUNTER_SPEC, "Counters", "Spec", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (counter_spec), counter_spec);
  tsb_define (b, UID_COUNTER_INT, "Counters", "SetInt", STROBE_EVENT_FLAG_NOSYNC,
              G_N_ELEMENTS (counter_int), counter_int);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  return b;
}

static GBytes *
hostile_finish (Tsb *b)
{
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  return tsb_bytes (b);
}

/* Packets stay well under the payload limit however many events a test writes. */
static void
maybe_flush (Tsb *b, guint16 tid, guint i)
{
  if (i % 20000 == 19999)
    tsb_flush (b, tid, TSB_AUTO);
}

static void
region (Tsb *b, guint16 uid, guint64 t, const char *name)
{
  tsb_begin (b, TID, uid, 0);
  tsb_set_int (b, 0, t);
  tsb_aux_str (b, 1, name);
  tsb_end (b);
}

static void
put_varint (GByteArray *a, guint64 v)
{
  while (v >= 0x80)
    {
      guint8 c = (guint8) (v | 0x80);
      g_byte_array_append (a, &c, 1);
      v >>= 7;
    }
  {
    guint8 c = (guint8) v;
    g_byte_array_append (a, &c, 1);
  }
}

/* One Cpu.EventBatch of @tid from @records (delta/end and id varints, runtime format). */
static void
cpu_batch (Tsb *b, guint16 tid, guint64 base, GByteArray *records)
{
  tsb_begin (b, tid, UID_CPU_BATCH, 0);
  tsb_set_int (b, 0, base);
  tsb_set_int (b, 1, 0);
  tsb_aux (b, 2, records->data, records->len);
  tsb_end (b);
}

static void
cpu_spec (Tsb *b, guint32 id, const char *name)
{
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_CPU_SPEC, 0);
  tsb_set_int (b, 0, id);
  tsb_set_int (b, 1, 1);
  tsb_aux_str (b, 2, name);
  tsb_aux_str (b, 3, "hostile.c");
  tsb_end (b);
}

/* ---- decoding into every model --------------------------------------------------------- */

typedef struct
{
  StrobeLogModel      *log;
  StrobeTimelineModel *timeline;
  StrobeThreadsModel  *threads;
  StrobeMemoryModel   *memory;
} Models;

static void
models_clear (Models *m)
{
  g_clear_object (&m->log);
  g_clear_object (&m->timeline);
  g_clear_object (&m->threads);
  g_clear_object (&m->memory);
}

static void
decode (GBytes *trace, Models *m)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (trace, &len);

  m->log = strobe_log_model_new ();
  m->timeline = strobe_timeline_model_new ();
  m->threads = strobe_threads_model_new ();
  m->memory = strobe_memory_model_new ();
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (m->log));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (m->timeline));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (m->threads));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (m->memory));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
}

/* What a viewer or strobe-cli asks of the models once a trace is read. */
static void
query (Models *m)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GArray) stats = strobe_timer_stats_compute (m->timeline, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (m->timeline);
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (m->threads);
  g_autoptr(GArray) hits = strobe_log_model_filter (m->log, NULL, 0, G_MAXUINT64);

  g_autoptr(GArray) bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_autoptr(GArray) series = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (m->timeline);

  strobe_timeline_model_get_regions (m->timeline, 0, G_MAXUINT64, regions);
  strobe_timeline_model_get_bookmarks (m->timeline, 0, G_MAXUINT64, bookmarks);
  for (guint i = 0; i < counters->len; i++)
    strobe_timeline_model_get_counter_series (m->timeline, i, 0, G_MAXUINT64, 1920, NULL, NULL, series);
}

typedef GBytes *(*Builder) (guint n);

static gdouble
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gdouble) ts.tv_sec + (gdouble) ts.tv_nsec * 1e-9;
}

/* The least CPU time of three decodes and queries of @trace. */
static gdouble
cost (GBytes *trace)
{
  gdouble best = G_MAXDOUBLE;

  for (guint k = 0; k < 3; k++)
    {
      Models m = { 0 };
      gdouble t0 = cpu_seconds (), t;

      decode (trace, &m);
      query (&m);
      t = cpu_seconds () - t0;
      best = MIN (best, t);
      models_clear (&m);
    }
  return best;
}

static void
assert_near_linear (const char *what, Builder build, guint n)
{
  g_autoptr(GBytes) small = build (n);
  g_autoptr(GBytes) large = build (4 * n);
  gdouble a = cost (small), b = cost (large);

  g_test_message ("%s: n=%u %.4f s, 4n %.4f s, ratio %.2f (linear 4, quadratic 16, bound 10)", what, n, a, b,
                  b / MAX (a, 1e-6));
  g_assert_cmpfloat (b / MAX (a, 1e-6), <, 10.0);
}

/* ---- sparse ids --------------------------------------------------------------------- */

static const guint32 sparse_ids[] = { 0xffffffffu, 0x7fffffffu, 0x10000000u, 0x04000000u, 0x00ffffffu, 5 };

static guint sparse_threads;

static GBytes *
build_sparse_ids (void)
{
  g_autoptr(Tsb) b = hostile_new ();
  guint n_threads = 0;

  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_LOG_CATEGORY, 0);
  tsb_set_int (b, 0, 0xffffffffu);
  tsb_set_int (b, 1, 5);
  tsb_aux_str (b, 2, "Cat");
  tsb_end (b);
  for (guint i = 0; i < G_N_ELEMENTS (sparse_ids); i++)
    {
      g_autofree char *format = g_strdup_printf ("message of spec %u", sparse_ids[i]);
      g_autofree char *name = g_strdup_printf ("scope %u", sparse_ids[i]);

      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_LOG_SPEC, 0);
      tsb_set_int (b, 0, sparse_ids[i]);
      tsb_set_int (b, 1, 0xffffffffu);
      tsb_set_int (b, 2, 7);
      tsb_set_int (b, 3, 3);
      tsb_aux_str (b, 4, "hostile.c");
      tsb_aux_str (b, 5, format);
      tsb_end (b);
      cpu_spec (b, sparse_ids[i], name);
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_BOOKMARK_SPEC, 0);
      tsb_set_int (b, 0, sparse_ids[i]);
      tsb_set_int (b, 1, 1);
      tsb_aux_str (b, 2, name);
      tsb_aux_str (b, 3, "hostile.c");
      tsb_end (b);
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_COUNTER_SPEC, 0);
      tsb_set_int (b, 0, sparse_ids[i]);
      tsb_aux_str (b, 3, name);
      tsb_end (b);
    }
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  /* Thread ids spread over the whole range too. */
  for (guint t = 16; t < 65536; t += 4093)
    {
      g_autoptr(GByteArray) rec = g_byte_array_new ();

      n_threads++;
      tsb_thread_info (b, (guint16) t, t, 0, "thread", NULL);
      for (guint i = 0; i < G_N_ELEMENTS (sparse_ids); i++)
        {
          guint64 values[3] = { 100 + i, sparse_ids[i], 0 };

          put_varint (rec, 2);            /* begin */
          put_varint (rec, sparse_ids[i]);
          put_varint (rec, (1 << 1) | 1); /* end */
          tsb_begin (b, (guint16) t, UID_LOG_MESSAGE, 0);
          tsb_set_int (b, 0, 100 + i);
          tsb_set_int (b, 1, sparse_ids[i]);
          tsb_end (b);
          tsb_event (b, (guint16) t, UID_BOOKMARK, 0, 2, values);
          values[2] = i;
          tsb_event (b, (guint16) t, UID_COUNTER_INT, 0, 3, values);
        }
      cpu_batch (b, (guint16) t, 100, rec);
    }
  tsb_flush_all (b, TSB_AUTO);
  sparse_threads = n_threads;
  return hostile_finish (b);
}

static void
test_sparse_ids (void)
{
  g_autoptr(GBytes) trace = build_sparse_ids ();
  guint n_threads = sparse_threads;
  StrobeTimelineStats st;
  Models m = { 0 };

  decode (trace, &m);
  query (&m);
  /* Every id resolved to what the trace said about it. */
  {
    guint64 n = strobe_log_model_get_count (m.log);

    g_assert_cmpuint (n, ==, n_threads * G_N_ELEMENTS (sparse_ids));
    for (guint64 i = 0; i < n; i++)
      {
        StrobeLogMessage msg;

        g_assert_true (strobe_log_model_get_message (m.log, i, &msg));
        g_assert_nonnull (msg.spec);
        g_assert_true (g_str_has_prefix (msg.text, "message of spec "));
        g_assert_cmpuint (msg.verbosity, ==, 3);
        g_free (msg.text);
      }
  }
  {
    g_autoptr(GArray) stats = strobe_timer_stats_compute (m.timeline, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);

    g_assert_cmpuint (stats->len, ==, G_N_ELEMENTS (sparse_ids));
    for (guint i = 0; i < stats->len; i++)
      {
        StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
        g_assert_true (g_str_has_prefix (s->name, "scope "));
        g_assert_cmpuint (s->count, ==, n_threads);
      }
  }
  {
    g_autoptr(GArray) tids = strobe_timeline_model_get_threads (m.timeline);
    g_autoptr(GArray) threads = strobe_threads_model_get_threads (m.threads);

    g_assert_cmpuint (tids->len, ==, n_threads);
    g_assert_cmpuint (threads->len, ==, n_threads);
    for (guint i = 1; i < tids->len; i++)
      g_assert_cmpuint (g_array_index (tids, guint16, i), >, g_array_index (tids, guint16, i - 1));
  }
  /* Nothing in proportion to an id: a 0x04000000 spec would have cost 256 MiB. */
  strobe_timeline_model_get_stats (m.timeline, &st);
  g_test_message ("timeline model: %" G_GSIZE_FORMAT " bytes", st.total_bytes);
  g_assert_cmpuint (st.total_bytes, <, 1u << 20);
  models_clear (&m);
}

/* ---- regions --------------------------------------------------------------------------- */

static GBytes *
build_open_regions (guint n)
{
  g_autoptr(Tsb) b = hostile_new ();

  /* Half begin one name and never end; a quarter begin other names; a quarter end names
   * that were never begun. */
  for (guint i = 0; i < n; i++)
    {
      char name[32];

      if (i % 4 < 2)
        region (b, UID_REGION_BEGIN, i, "forever");
      else if (i % 4 == 2)
        {
          g_snprintf (name, sizeof name, "open-%u", i);
          region (b, UID_REGION_BEGIN, i, name);
        }
      else
        {
          g_snprintf (name, sizeof name, "never-%u", i);
          region (b, UID_REGION_END, i, name);
        }
      maybe_flush (b, TID, i);
    }
  return hostile_finish (b);
}

static void
test_open_regions (void)
{
  g_autoptr(GBytes) trace = build_open_regions (1000);
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  Models m = { 0 };

  decode (trace, &m);
  strobe_timeline_model_get_regions (m.timeline, 0, G_MAXUINT64, regions);
  g_assert_cmpuint (regions->len, ==, 750);
  for (guint i = 0; i < regions->len; i++)
    g_assert_cmpuint (g_array_index (regions, StrobeTimelineRegion, i).flags, ==, STROBE_SCOPE_CLOSED_AT_END);
  models_clear (&m);
  assert_near_linear ("open regions", build_open_regions, 200000);
}

static GBytes *
build_overlapping_regions (guint n)
{
  g_autoptr(Tsb) b = hostile_new ();

  /* Every region overlaps every other: one lane each. Then as many that end in turn. */
  for (guint i = 0; i < n; i++)
    {
      region (b, UID_REGION_BEGIN, i, "lane");
      maybe_flush (b, TID, i);
    }
  for (guint i = 0; i < n; i++)
    {
      region (b, UID_REGION_END, n + i, "lane");
      maybe_flush (b, TID, i);
    }
  return hostile_finish (b);
}

static void
test_region_lanes (void)
{
  g_autoptr(GBytes) trace = build_overlapping_regions (500);
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GHashTable) lanes = g_hash_table_new (NULL, NULL);
  Models m = { 0 };

  decode (trace, &m);
  strobe_timeline_model_get_regions (m.timeline, 0, G_MAXUINT64, regions);
  g_assert_cmpuint (regions->len, ==, 500);
  for (guint i = 0; i < regions->len; i++)
    g_hash_table_add (lanes, GUINT_TO_POINTER (g_array_index (regions, StrobeTimelineRegion, i).lane + 1));
  g_assert_cmpuint (g_hash_table_size (lanes), ==, 500);   /* all overlap: a lane each */
  models_clear (&m);
  assert_near_linear ("overlapping regions", build_overlapping_regions, 100000);
}

/* The lane each region gets, worked out the slow way: by begin time (longest first), the
 * lowest lane whose last region ended by then. */
static void
brute_lanes (GArray *sorted, GArray *lanes)
{
  g_autoptr(GArray) lane_end = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_array_set_size (lanes, 0);
  for (guint i = 0; i < sorted->len; i++)
    {
      const StrobeTimelineRegion *r = &g_array_index (sorted, StrobeTimelineRegion, i);
      guint l = 0;

      while (l < lane_end->len && g_array_index (lane_end, guint64, l) > r->begin)
        l++;
      if (l == lane_end->len)
        g_array_set_size (lane_end, l + 1);
      g_array_index (lane_end, guint64, l) = r->end;
      g_array_append_val (lanes, l);
    }
}

static gint
by_begin_longest (gconstpointer a, gconstpointer b)
{
  const StrobeTimelineRegion *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

/* @got (a query's answer) is exactly the regions of @all (by begin, lanes set) that
 * overlap [t0, t1], in the same order. */
static void
assert_window (GArray *all, guint64 t0, guint64 t1, GArray *got)
{
  guint k = 0;

  for (guint i = 0; i < all->len; i++)
    {
      const StrobeTimelineRegion *r = &g_array_index (all, StrobeTimelineRegion, i);
      const StrobeTimelineRegion *q;

      if (!(r->begin <= t1 && r->end >= t0))
        continue;
      g_assert_cmpuint (k, <, got->len);
      q = &g_array_index (got, StrobeTimelineRegion, k++);
      g_assert_cmpuint (q->begin, ==, r->begin);
      g_assert_cmpuint (q->end, ==, r->end);
      g_assert_cmpuint (q->lane, ==, r->lane);
      g_assert_cmpuint (q->name_id, ==, r->name_id);
      g_assert_cmpuint (q->flags, ==, r->flags);
    }
  g_assert_cmpuint (k, ==, got->len);
}

/* Random regions, short and long, nested and apart, straight into the index. */
static void
test_region_index (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);

  for (guint round = 0; round < 40; round++)
    {
      guint n = round == 0 ? 0 : (guint) g_rand_int_range (rand, 1, round < 20 ? 50 : 3000);
      g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
      g_autoptr(GArray) sorted = NULL;
      g_autoptr(GArray) lanes = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr(StrobeRegionIndex) index = NULL;
      guint64 span = (guint64) g_rand_int_range (rand, 10, 100000);
      guint max_lane = 0;

      for (guint i = 0; i < n; i++)
        {
          StrobeTimelineRegion r = { 0 };

          r.begin = (guint64) g_rand_int_range (rand, 0, (gint32) span);
          /* Mostly short; one in twenty as long as the trace. */
          r.end = r.begin + (g_rand_int_range (rand, 0, 20) == 0 ? (guint64) g_rand_int_range (rand, 0, (gint32) span)
                                                                  : (guint64) g_rand_int_range (rand, 0, 30));
          r.name_id = i;
          r.lane = 777;     /* ignored */
          r.flags = (guint8) (i % 3 == 0 ? STROBE_SCOPE_OPEN : 0);
          g_array_append_val (regions, r);
        }
      sorted = g_array_copy (regions);
      g_array_sort (sorted, by_begin_longest);
      brute_lanes (sorted, lanes);
      for (guint i = 0; i < sorted->len; i++)
        {
          g_array_index (sorted, StrobeTimelineRegion, i).lane = (guint16) g_array_index (lanes, guint, i);
          max_lane = MAX (max_lane, g_array_index (lanes, guint, i) + 1);
        }

      index = strobe_region_index_new (g_steal_pointer (&regions));
      g_assert_cmpuint (strobe_region_index_get_n (index), ==, n);
      g_assert_cmpuint (strobe_region_index_get_lanes (index), ==, max_lane);
      for (guint w = 0; w < 60; w++)
        {
          g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
          guint64 t0 = (guint64) g_rand_int_range (rand, 0, (gint32) (2 * span)), t1;

          /* Points, short and long windows, everything, and an empty one (t1 < t0). */
          switch (w % 5)
            {
            case 0: t1 = t0; break;
            case 1: t1 = t0 + (guint64) g_rand_int_range (rand, 0, 50); break;
            case 2: t1 = t0 + (guint64) g_rand_int_range (rand, 0, (gint32) span); break;
            case 3: t0 = 0; t1 = G_MAXUINT64; break;
            default: t1 = t0 ? t0 - 1 : 0; break;
            }
          /* Appends after what is there. */
          g_array_set_size (got, 1);
          g_assert_cmpuint (strobe_region_index_query (index, t0, t1, got), ==, got->len - 1);
          g_array_remove_index (got, 0);
          if (t1 < t0)
            g_assert_cmpuint (got->len, ==, 0);
          else
            assert_window (sorted, t0, t1, got);
        }
    }
}

typedef struct
{
  guint64 begin;
  guint   name;
} Open;

/* A trace of @n regions over 8 names: each event begins one or ends the latest open one of
 * its name; a tenth never end. @expected gets the regions the events make (with the name
 * index in name_id, the end of the trace for those never ended). */
static GBytes *
build_many_regions (guint n, GArray *expected)
{
  static const char *const names[] = { "load", "parse", "draw", "io", "net", "gc", "idle", "wait" };
  g_autoptr(Tsb) b = hostile_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (25);
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (Open));
  guint64 t = 0;
  guint begun = 0, ev = 0;

  while (begun < n || open->len > n / 10)
    {
      guint name = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (names));
      gboolean begin = begun < n && (open->len < 4 || g_rand_boolean (rand));

      t += (guint64) g_rand_int_range (rand, 1, 3);   /* no two events at once: no ties to order */
      if (begin)
        {
          Open o = { t, name };
          region (b, UID_REGION_BEGIN, t, names[name]);
          g_array_append_val (open, o);
          begun++;
        }
      else
        {
          gint i;

          for (i = (gint) open->len - 1; i >= 0 && g_array_index (open, Open, i).name != name; i--)
            ;
          region (b, UID_REGION_END, t, names[name]);
          if (i >= 0)
            {
              StrobeTimelineRegion r = { g_array_index (open, Open, i).begin, t, name, 0, 0 };
              g_array_append_val (expected, r);
              g_array_remove_index (open, (guint) i);
            }
        }
      maybe_flush (b, TID, ev++);
    }
  for (guint i = 0; i < open->len; i++)
    {
      StrobeTimelineRegion r = { g_array_index (open, Open, i).begin, t, g_array_index (open, Open, i).name, 0,
                                 STROBE_SCOPE_CLOSED_AT_END };
      g_array_append_val (expected, r);
    }
  return hostile_finish (b);
}

static void
test_many_regions (void)
{
  static const char *const names[] = { "load", "parse", "draw", "io", "net", "gc", "idle", "wait" };
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GBytes) trace = build_many_regions (200000, expected);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GArray) lanes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  guint64 first, last;
  guint max_lane = 0;
  Models m = { 0 };

  decode (trace, &m);
  strobe_timeline_model_get_time_range (m.timeline, &first, &last);
  g_assert_cmpuint (strobe_timeline_model_get_regions (m.timeline, 0, G_MAXUINT64, all), ==, expected->len);
  /* The model's regions are the ones the events make, each with the lane brute force gives. */
  g_array_sort (expected, by_begin_longest);
  brute_lanes (expected, lanes);
  for (guint i = 0; i < all->len; i++)
    {
      const StrobeTimelineRegion *r = &g_array_index (all, StrobeTimelineRegion, i);
      const StrobeTimelineRegion *e = &g_array_index (expected, StrobeTimelineRegion, i);

      g_assert_cmpuint (r->begin, ==, e->begin);
      g_assert_cmpuint (r->end, ==, e->end);
      g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, r->name_id), ==, names[e->name_id]);
      g_assert_cmpuint (r->flags, ==, e->flags);
      g_assert_cmpuint (r->lane, ==, g_array_index (lanes, guint, i));
      max_lane = MAX (max_lane, r->lane + 1u);
    }
  g_assert_cmpuint (strobe_timeline_model_get_region_lanes (m.timeline), ==, max_lane);
  /* Windows: what a tile, a hover and the left edge ask for. */
  for (guint w = 0; w < 300; w++)
    {
      g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
      guint64 t0 = first + (guint64) g_rand_double_range (rand, 0, (gdouble) (last - first + 1));
      guint64 t1 = w % 3 == 0 ? t0 : t0 + (guint64) g_rand_int_range (rand, 0, w % 3 == 1 ? 20 : 20000);

      strobe_timeline_model_get_regions (m.timeline, t0, t1, got);
      assert_window (all, t0, t1, got);
    }
  models_clear (&m);
}

/* A view asks for the regions on every frame while the trace is still coming. Building the
 * index anew after every batch made a 2 M-region load spend its main thread sorting (72 s
 * to open 45 MB in the viewer): fed in 500 pieces with a query after each, all the queries
 * together must cost a few builds of the whole index (building after every batch: 18.6 here),
 * and once finished the answer is exact. */
static void
test_regions_while_loading (void)
{
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GBytes) trace = build_many_regions (300000, expected);
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) timeline = strobe_timeline_model_new ();
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GError) error = NULL;
  gsize len, piece;
  const guint8 *data = g_bytes_get_data (trace, &len);
  gdouble queries = 0, one = G_MAXDOUBLE;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (timeline));
  piece = len / 500 + 1;
  for (gsize off = 0; off < len; off += piece)
    {
      gdouble t0;

      g_assert_true (strobe_decoder_feed (dec, data + off, MIN (piece, len - off), &error));
      g_assert_no_error (error);
      t0 = cpu_seconds ();
      g_array_set_size (regions, 0);
      strobe_timeline_model_get_regions (timeline, 0, 0, regions);
      queries += cpu_seconds () - t0;
    }
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  /* Finished: every region, none stale. */
  g_array_set_size (regions, 0);
  g_assert_cmpuint (strobe_timeline_model_get_regions (timeline, 0, G_MAXUINT64, regions), ==, expected->len);
  /* What one build of the finished index costs (the least of three, each from scratch). */
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(StrobeRegionIndex) index = NULL;
      GArray *copy = g_array_copy (regions);
      gdouble t0 = cpu_seconds ();

      index = strobe_region_index_new (copy);
      one = MIN (one, cpu_seconds () - t0);
    }
  g_test_message ("500 queries while loading: %.3f s, one build of the whole index %.4f s, ratio %.1f (bound 5; building after every batch: 18.6)",
                  queries, one, queries / MAX (one, 1e-6));
  g_assert_cmpfloat (queries / MAX (one, 1e-6), <, 5);
}

/* ---- nesting -------------------------------------------------------------------------- */

static GBytes *
build_deep (guint n)
{
  g_autoptr(Tsb) b = hostile_new ();
  g_autoptr(GByteArray) rec = g_byte_array_new ();

  cpu_spec (b, 1, "deeper");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  /* Begins only, two bytes each, as 8 M of them fit in 64 KiB of LZ4. */
  for (guint i = 0; i < n; i++)
    {
      put_varint (rec, 2);
      put_varint (rec, 1);
      if (rec->len >= 60000)
        {
          cpu_batch (b, TID, 0, rec);
          tsb_flush (b, TID, TSB_AUTO);
          g_byte_array_set_size (rec, 0);
        }
    }
  cpu_batch (b, TID, 0, rec);
  return hostile_finish (b);
}

static void
test_deep_nesting (void)
{
  g_autoptr(GBytes) small = build_deep (100000);
  g_autoptr(GBytes) large = build_deep (400000);
  StrobeTimelineStats a, b;
  Models m = { 0 };

  decode (small, &m);
  strobe_timeline_model_get_stats (m.timeline, &a);
  g_assert_cmpuint (a.depth_overflows, ==, 100000 - STROBE_TIMELINE_MAX_DEPTH);
  g_assert_cmpuint (a.scopes, ==, STROBE_TIMELINE_MAX_DEPTH);   /* closed at the end */
  g_assert_cmpuint (strobe_timeline_model_get_depth_count (m.timeline, TID), ==, STROBE_TIMELINE_MAX_DEPTH);
  models_clear (&m);
  decode (large, &m);
  strobe_timeline_model_get_stats (m.timeline, &b);
  g_assert_cmpuint (b.depth_overflows, ==, 400000 - STROBE_TIMELINE_MAX_DEPTH);
  /* Four times the begins, the same memory: what is kept is capped. */
  g_test_message ("deep nesting: %" G_GSIZE_FORMAT " bytes for 100k begins, %" G_GSIZE_FORMAT " for 400k",
                  a.total_bytes, b.total_bytes);
  g_assert_cmpuint (b.total_bytes, <, a.total_bytes + a.total_bytes / 4);
  g_assert_cmpuint (b.total_bytes, <, 4u << 20);
  models_clear (&m);
  assert_near_linear ("deep nesting", build_deep, 1000000);
}

/* Begins only, @depth on each of @threads threads: what the per-thread cap allows, times
 * the threads (issue 25: 8 192 × 1 024, a 426 KB trace, took 3.26 GB). */
static GBytes *
build_deep_threads (guint threads, guint depth)
{
  g_autoptr(Tsb) b = hostile_new ();
  g_autoptr(GByteArray) rec = g_byte_array_new ();

  cpu_spec (b, 1, "deeper");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  for (guint t = 0; t < threads; t++)
    {
      guint16 tid = (guint16) (STROBE_TID_FIRST_USER + t);

      for (guint i = 0; i < depth; i++)
        {
          put_varint (rec, 2);
          put_varint (rec, 1);
        }
      cpu_batch (b, tid, 0, rec);
      tsb_flush (b, tid, TSB_AUTO);
      g_byte_array_set_size (rec, 0);
    }
  return hostile_finish (b);
}

static void
test_deep_threads (void)
{
  const guint depth = STROBE_TIMELINE_MAX_DEPTH;
  /* A quarter of the budget's worth of threads, then four times the budget's. */
  const guint few = STROBE_TIMELINE_MAX_LEVELS / depth / 4, many = 4 * STROBE_TIMELINE_MAX_LEVELS / depth;
  g_autoptr(GBytes) small = build_deep_threads (few, depth);
  g_autoptr(GBytes) large = build_deep_threads (many, depth);
  StrobeTimelineStats a, b;
  Models m = { 0 };

  decode (small, &m);
  strobe_timeline_model_get_stats (m.timeline, &a);
  /* Within the budget: everything kept, as before it. */
  g_assert_cmpuint (a.levels, ==, few * depth);
  g_assert_cmpuint (a.scopes, ==, few * depth);
  g_assert_cmpuint (a.budget_overflows, ==, 0);
  g_assert_cmpuint (a.depth_overflows, ==, 0);
  models_clear (&m);

  decode (large, &m);
  strobe_timeline_model_get_stats (m.timeline, &b);
  /* Past it: the budget is all that is kept, and every scope left out is counted. */
  g_assert_cmpuint (b.levels, ==, STROBE_TIMELINE_MAX_LEVELS);
  g_assert_cmpuint (b.scopes, ==, STROBE_TIMELINE_MAX_LEVELS);
  g_assert_cmpuint (b.budget_overflows, ==, (guint64) many * depth - STROBE_TIMELINE_MAX_LEVELS);
  g_assert_cmpuint (b.depth_overflows, ==, 0);
  /* The first threads keep their whole depth; the budget ran out at a thread boundary. */
  g_assert_cmpuint (strobe_timeline_model_get_depth_count (m.timeline, STROBE_TID_FIRST_USER), ==, depth);
  g_assert_cmpuint (strobe_timeline_model_get_depth_count (m.timeline, STROBE_TID_FIRST_USER + many - 1), ==, 0);
  g_test_message ("%u threads × %u begins: %" G_GSIZE_FORMAT " bytes; %u threads: %" G_GSIZE_FORMAT,
                  few, depth, a.total_bytes, many, b.total_bytes);
  /* 16 times the begins, at most 4 times the memory of a quarter of the budget: bounded
   * by the budget, not by threads × depth (which would be 16 times). */
  g_assert_cmpuint (b.total_bytes, <, 5 * a.total_bytes);
  g_assert_cmpuint (b.total_bytes, <, 64u << 20);
  models_clear (&m);
}

/* ---- threads -------------------------------------------------------------------------- */

static GBytes *
build_threads (guint n)
{
  g_autoptr(Tsb) b = hostile_new ();

  cpu_spec (b, 1, "t");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  /* Highest id first: each new thread sorts before every one seen. */
  for (guint i = 0; i < n; i++)
    {
      guint16 tid = (guint16) (65535 - i);
      g_autoptr(GByteArray) rec = g_byte_array_new ();

      tsb_thread_info (b, tid, i, 0, "t", "g");
      put_varint (rec, 2);
      put_varint (rec, 1);
      put_varint (rec, 3);
      cpu_batch (b, tid, i, rec);
      tsb_flush (b, tid, TSB_RAW);
      maybe_flush (b, STROBE_TID_IMPORTANTS, i);
    }
  return hostile_finish (b);
}

static void
test_many_threads (void)
{
  assert_near_linear ("many threads", build_threads, 16000);
}

/* ---- late samples ----------------------------------------------------------------------- */

static GBytes *
build_late (guint n)
{
  g_autoptr(Tsb) b = hostile_new ();

  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_COUNTER_SPEC, 0);
  tsb_set_int (b, 0, 1);
  tsb_aux_str (b, 3, "backwards");
  tsb_end (b);
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_BOOKMARK_SPEC, 0);
  tsb_set_int (b, 0, 1);
  tsb_set_int (b, 1, 1);
  tsb_aux_str (b, 2, "backwards");
  tsb_aux_str (b, 3, "hostile.c");
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  /* One at time 0, then each sample and bookmark earlier than every one before it but
   * that first: each would be inserted at the second place. */
  {
    guint64 first[3] = { 0, 1, n };

    tsb_event (b, TID, UID_COUNTER_INT, 0, 3, first);
    tsb_event (b, TID, UID_BOOKMARK, 0, 2, first);
  }
  for (guint i = 0; i < n; i++)
    {
      guint64 values[3] = { n - i, 1, i };

      tsb_event (b, TID, UID_COUNTER_INT, 0, 3, values);
      tsb_event (b, TID, UID_BOOKMARK, 0, 2, values);
      maybe_flush (b, TID, i);
    }
  return hostile_finish (b);
}

static void
test_late_samples (void)
{
  g_autoptr(GBytes) trace = build_late (1000);
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
  g_autoptr(GArray) bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_autoptr(GArray) series = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
  guint64 count = 0;
  Models m = { 0 };

  decode (trace, &m);
  /* In time order all the same, and the series' summary follows. */
  g_assert_cmpuint (strobe_timeline_model_get_counter_samples (m.timeline, 0, 1, G_MAXUINT64, samples), ==, 1000);
  for (guint i = 0; i < samples->len; i++)
    {
      g_assert_cmpuint (g_array_index (samples, StrobeCounterSample, i).time, ==, i + 1);
      g_assert_cmpfloat (g_array_index (samples, StrobeCounterSample, i).value, ==, 999 - i);
    }
  g_assert_cmpuint (strobe_timeline_model_get_bookmarks (m.timeline, 0, G_MAXUINT64, bookmarks), ==, 1001);
  for (guint i = 0; i < bookmarks->len; i++)
    g_assert_cmpuint (g_array_index (bookmarks, StrobeTimelineBookmark, i).time, ==, i);
  strobe_timeline_model_get_counter_series (m.timeline, 0, 1, 1000, 10, NULL, NULL, series);
  g_assert_cmpuint (series->len, ==, 10);
  for (guint i = 0; i < series->len; i++)
    {
      const StrobeCounterBucket *k = &g_array_index (series, StrobeCounterBucket, i);
      g_assert_cmpfloat (k->max, ==, 999 - i * 100);
      g_assert_cmpfloat (k->min, ==, 999 - i * 100 - 99);
      count += k->count;
    }
  g_assert_cmpuint (count, ==, 1000);
  models_clear (&m);
  assert_near_linear ("late samples", build_late, 50000);
}

/* HOSTILE_CORPUS_DIR=DIR: writes a small trace of each kind there, the seeds of the
 * models fuzz target (tests/fuzz/corpus/models, regressions/models). Takes @trace. */
static void
write_seed (const char *dir, const char *name, GBytes *trace)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) owned = trace;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (trace, NULL), (gssize) g_bytes_get_size (trace), &error);
  g_assert_no_error (error);
}

static void
test_write_corpus (void)
{
  const char *dir = g_getenv ("HOSTILE_CORPUS_DIR");

  if (dir == NULL)
    {
      g_test_skip ("HOSTILE_CORPUS_DIR is not set");
      return;
    }
  write_seed (dir, "open-regions.strobe", build_open_regions (64));
  write_seed (dir, "overlapping-regions.strobe", build_overlapping_regions (64));
  write_seed (dir, "deep-nesting.strobe", build_deep (4096));
  write_seed (dir, "deep-threads.strobe", build_deep_threads (64, 64));
  write_seed (dir, "many-threads.strobe", build_threads (64));
  write_seed (dir, "sparse-ids.strobe", build_sparse_ids ());
  write_seed (dir, "late-samples.strobe", build_late (256));
}

int
main (int argc, char **argv)
{
#ifdef __GLIBC__
  /* See the top of the file: both sizes timed with their memory already mapped. 32 MiB is
   * the largest threshold glibc accepts on 64-bit; no block here is larger. */
  mallopt (M_MMAP_THRESHOLD, 32 << 20);
  mallopt (M_TRIM_THRESHOLD, G_MAXINT);
#endif
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hostile/sparse-ids", test_sparse_ids);
  g_test_add_func ("/hostile/open-regions", test_open_regions);
  g_test_add_func ("/hostile/region-lanes", test_region_lanes);
  g_test_add_func ("/hostile/region-index", test_region_index);
  g_test_add_func ("/hostile/many-regions", test_many_regions);
  g_test_add_func ("/hostile/regions-while-loading", test_regions_while_loading);
  g_test_add_func ("/hostile/deep-nesting", test_deep_nesting);
  g_test_add_func ("/hostile/deep-threads", test_deep_threads);
  g_test_add_func ("/hostile/many-threads", test_many_threads);
  g_test_add_func ("/hostile/late-samples", test_late_samples);
  g_test_add_func ("/hostile/write-corpus", test_write_corpus);
  return g_test_run ();
}
