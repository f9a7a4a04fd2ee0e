/* test-info.c — the trace-info analyzer and `strobe-cli info` / `dump`.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis.h"
#include "strobe-cpu-batch.h"
#include "strobe-async-analyzer.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stream.h"
#include "test-log-analyzer.h"
#include "test-stream-builder.h"

#include <glib/gstdio.h>

enum { UID_FRAME = TSB_UID_USER, UID_LOG };

static GBytes *
build_demo (gboolean with_end, gboolean with_corruption)
{
  const TsbField frame[] = { { "Timestamp", STROBE_TYPE_UINT64 }, { "Index", STROBE_TYPE_UINT32 },
                             { "Load", STROBE_TYPE_FLOAT64 } };
  const TsbField log[] = { { "Text", STROBE_TYPE_ANSI }, { "Ptr", STROBE_TYPE_POINTER } };
  g_autoptr(Tsb) b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_FRAME, "Render", "Frame", 0, 3, frame);
  tsb_define (b, UID_LOG, "Log", "Message", STROBE_EVENT_FLAG_NOSYNC, 2, log);
  tsb_thread_info (b, 17, 5001, 0, "main", NULL);
  tsb_thread_info (b, 18, 5002, 10, "render", "gpu");
  tsb_begin (b, STROBE_TID_IMPORTANTS, TSB_UID_CHANNEL_ANNOUNCE, 0);
  tsb_set_int (b, 0, strobe_wire_channel_id ("Render", 6));
  tsb_set_int (b, 1, 1);
  tsb_aux_str (b, 2, "Render");
  tsb_end (b);
  tsb_begin (b, STROBE_TID_IMPORTANTS, TSB_UID_CHANNEL_ANNOUNCE, 0);
  tsb_set_int (b, 0, strobe_wire_channel_id ("Log", 3));
  tsb_set_int (b, 1, 1);
  tsb_aux_str (b, 2, "Log");
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);

  for (guint i = 0; i < 6; i++)
    {
      tsb_begin (b, 18, UID_FRAME, i);
      tsb_set_int (b, 0, 1000 + 500000000ull * i);
      tsb_set_int (b, 1, i);
      tsb_set_f64 (b, 2, i / 4.0);
      tsb_end (b);
    }
  tsb_begin (b, 17, UID_LOG, 0);
  tsb_aux_str (b, 0, "tab\there");
  tsb_set_int (b, 1, 0x1000);
  tsb_end (b);
  tsb_event (b, 17, TSB_UID_STATS, 0, 6, (const guint64[]) { 2000, 100, 90, 12, 3, 4096 });
  tsb_flush (b, 17, TSB_AUTO);
  tsb_flush (b, 18, TSB_LZ4);
  tsb_event (b, STROBE_TID_IMPORTANTS, TSB_UID_CHANNEL_TOGGLE, 0, 3,
             (const guint64[]) { strobe_wire_channel_id ("Log", 3), 0, 3000 });
  tsb_event (b, STROBE_TID_IMPORTANTS, TSB_UID_THREAD_END, 0, 2, (const guint64[]) { 18, 2500000000u });
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_event (b, 17, TSB_UID_STATS, 0, 6, (const guint64[]) { 2600000000u, 200, 190, 14, 5, 4096 });
  tsb_flush (b, 17, TSB_AUTO);
  if (with_corruption)
    {
      const guint8 bad[] = { 0x55, 0x55, 1, 2, 3 };
      tsb_pending_raw (b, 17, bad, sizeof bad);
      tsb_flush (b, 17, TSB_RAW);
    }
  if (with_end)
    tsb_end_stream (b);
  return tsb_bytes (b);
}

static void
test_info_analyzer (void)
{
  g_autoptr(GBytes) stream = build_demo (TRUE, FALSE);
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr(StrobeThreadsModel) threads = strobe_threads_model_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) table = NULL;
  g_autoptr(GPtrArray) channels = NULL, types = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);
  const StrobeWireMetadata *meta;
  StrobeInfoStats stats;
  const StrobeThreadInfo *t;
  const StrobeInfoChannel *c;
  const StrobeInfoEventType *et;
  guint64 first, last;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (threads));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_clear_object (&dec);   /* the analyzer's metadata must outlive the decoder */

  meta = strobe_info_analyzer_get_metadata (info);
  g_assert_cmpstr (meta->program_name, ==, "demo");
  g_assert_cmpuint (meta->process_id, ==, 4242);
  g_assert_cmpmem (meta->command_line, meta->command_line_len, "demo\0--fast\0input file.txt", 26);

  /* One thread table: the threads model's, with the events counted by the info analyzer. */
  strobe_threads_model_set_trace_end (threads, 2600000000u);
  table = strobe_threads_model_get_threads (threads);
  g_assert_cmpuint (table->len, ==, 2);
  t = &g_array_index (table, StrobeThreadInfo, 0);
  g_assert_cmpuint (t->id, ==, 17);
  g_assert_cmpstr (t->name, ==, "main");
  g_assert_cmpuint (t->system_id, ==, 5001);
  g_assert_cmpuint (t->state, ==, STROBE_THREAD_RUNNING_AT_END);
  g_assert_cmpuint (t->end_time, ==, 2600000000u);
  g_assert_cmpuint (strobe_info_analyzer_get_thread_events (info, 17), ==, 3);
  t = &g_array_index (table, StrobeThreadInfo, 1);
  g_assert_cmpuint (t->id, ==, 18);
  g_assert_cmpstr (t->group, ==, "gpu");
  g_assert_cmpint (t->sort_hint, ==, 10);
  g_assert_cmpuint (t->state, ==, STROBE_THREAD_ENDED);
  g_assert_cmpuint (t->end_time, ==, 2500000000u);
  g_assert_cmpuint (strobe_info_analyzer_get_thread_events (info, 18), ==, 6);
  g_assert_cmpuint (strobe_info_analyzer_get_thread_events (info, 99), ==, 0);

  channels = strobe_info_analyzer_dup_channels (info);
  g_assert_cmpuint (channels->len, ==, 2);
  c = g_ptr_array_index (channels, 0);
  g_assert_cmpstr (c->name, ==, "Log");
  g_assert_false (c->enabled);
  g_assert_cmpuint (c->toggles, ==, 1);
  c = g_ptr_array_index (channels, 1);
  g_assert_cmpstr (c->name, ==, "Render");
  g_assert_true (c->enabled);

  types = strobe_info_analyzer_dup_event_types (info);
  g_assert_cmpuint (types->len, ==, 7);
  et = g_ptr_array_index (types, 6);
  g_assert_cmpstr (et->full_name, ==, "Render.Frame");
  g_assert_cmpuint (et->count, ==, 6);

  strobe_info_analyzer_get_stats (info, &stats);
  g_assert_true (stats.valid);
  g_assert_cmpuint (stats.events_dropped, ==, 5);
  g_assert_cmpuint (stats.events_emitted, ==, 14);
  g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
  g_assert_cmpuint (first, ==, 1000);
  g_assert_cmpuint (last, ==, 2600000000u);
  g_assert_cmpuint (strobe_info_analyzer_get_event_count (info), ==, 4 + 6 + 3 + 2);
}

/* Allocation times are fields named Time (in units of 2^Shift ticks in Memory.Batch, with
 * the Times array moving them on): allocations made before the first timestamped event
 * (the runtime stamps them with a clock its worker last read) must not fall before the
 * trace's start — from-start traces listed their first allocations at -0.0013 s. */
static void
test_info_memory_extent (void)
{
  enum { UID_BATCH = TSB_UID_USER, UID_LIVE };
  const TsbField batch[] = {
    { "Thread", STROBE_TYPE_UINT16 }, { "Flags", STROBE_TYPE_UINT8 }, { "Shift", STROBE_TYPE_UINT8 },
    { "Round", STROBE_TYPE_UINT32 }, { "Seq", STROBE_TYPE_UINT64 }, { "Alloc", STROBE_TYPE_UINT64 },
    { "Time", STROBE_TYPE_UINT64 }, { "Heap", STROBE_TYPE_UINT32 }, { "Tag", STROBE_TYPE_UINT32 },
    { "Stack", STROBE_TYPE_UINT32 }, { "Dropped", STROBE_TYPE_UINT64 },
    { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 }, { "Times", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  const TsbField live[] = { { "Time", STROBE_TYPE_UINT64 }, { "Shift", STROBE_TYPE_UINT8 },
                            { "Flags", STROBE_TYPE_UINT32 }, { "Count", STROBE_TYPE_UINT64 },
                            { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  /* Two allocations; time (units) := 0 + 3000 before the first, += 4000 after it. */
  const guint8 data[] = { 0x00, 16, 0x00, 32 };
  const guint8 times[] = { 0, 0xb8, 0x17, 1, 0xa0, 0x1f };
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) stream = NULL;
  const guint8 *p;
  guint64 first = 0, last = 0;
  gsize len;

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_BATCH, "Memory", "Batch", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (batch), batch);
  tsb_define (b, UID_LIVE, "Memory", "Live", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (live), live);
  tsb_thread_info (b, 17, 5001, 0, "main", NULL);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);
  tsb_event (b, 16, TSB_UID_STATS, 0, 6, (const guint64[]) { 5000000, 0, 0, 0, 0, 0 });
  tsb_begin (b, 16, UID_LIVE, 0);
  tsb_set_int (b, 0, 4000000);
  tsb_set_int (b, 1, 10);
  tsb_set_int (b, 2, 7);
  tsb_aux (b, 4, (const guint8[]) { 1, 17, 0 }, 3);
  tsb_end (b);
  tsb_begin (b, 16, UID_BATCH, 0);
  tsb_set_int (b, 0, 17);
  tsb_set_int (b, 1, 1);
  tsb_set_int (b, 2, 10);
  tsb_aux (b, 11, data, sizeof data);
  tsb_aux (b, 12, times, sizeof times);
  tsb_end (b);
  tsb_event (b, 16, TSB_UID_STATS, 0, 6, (const guint64[]) { 6000000, 0, 0, 0, 0, 0 });
  tsb_flush (b, 16, TSB_AUTO);
  tsb_end_stream (b);
  stream = tsb_bytes (b);
  p = g_bytes_get_data (stream, &len);

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (info));
  g_assert_true (strobe_decoder_feed (dec, p, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
  g_assert_cmpuint (first, ==, 3000u << 10);   /* the first allocation, before any other time */
  g_assert_cmpuint (last, ==, 7000u << 10);    /* the last, after the last Stats */
}

/* A batch walked on another thread (a model behind StrobeAsyncAnalyzer, the streaming
 * timers' lanes) counts in the trace's extent as one the info analyzer walked itself: here
 * its scope begins before and ends after every other timestamped event. */
static guint64
cpu_extent_with (GBytes *stream, StrobeAnalyzer *walker, guint64 *last)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr(GError) error = NULL;
  guint64 first = 0;
  gsize len;
  const guint8 *p = g_bytes_get_data (stream, &len);

  /* The info analyzer first, as a document adds it: it ends before the walker. */
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (info));
  if (walker)
    strobe_decoder_add_analyzer (dec, walker);
  g_assert_true (strobe_decoder_feed (dec, p, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_info_analyzer_get_time_range (info, &first, last));
  return first;
}

static void
test_info_cpu_extent_elsewhere (void)
{
  enum { UID_BATCH = TSB_UID_USER };
  const TsbField batch[] = { { "Base", STROBE_TYPE_UINT64 }, { "Shift", STROBE_TYPE_UINT8 },
                             { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  /* Units 1000: a begin (delta 0, spec id 1), then its end 5000 units later. */
  const guint8 data[] = { 0x00, 0x01, 0x91, 0x4e };
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(StrobeAsyncAnalyzer) wrapped = strobe_async_analyzer_new (STROBE_ANALYZER (model));
  g_autoptr(StrobeTimerStream) lanes = strobe_timer_stream_new (0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  g_autoptr(StrobeTimerStream) direct = strobe_timer_stream_new (0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  StrobeAnalyzer *walkers[] = { NULL, STROBE_ANALYZER (direct), STROBE_ANALYZER (wrapped), STROBE_ANALYZER (lanes) };

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_BATCH, "Cpu", "EventBatch", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (batch), batch);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);
  tsb_event (b, 16, TSB_UID_STATS, 0, 6, (const guint64[]) { 5000000, 0, 0, 0, 0, 0 });
  tsb_begin (b, 16, UID_BATCH, 0);
  tsb_set_int (b, 0, 1000);
  tsb_set_int (b, 1, 10);
  tsb_aux (b, 2, data, sizeof data);
  tsb_end (b);
  tsb_event (b, 16, TSB_UID_STATS, 0, 6, (const guint64[]) { 6000000, 0, 0, 0, 0, 0 });
  tsb_flush (b, 16, TSB_AUTO);
  tsb_end_stream (b);
  stream = tsb_bytes (b);

  strobe_timer_stream_set_lanes (lanes, 2);
  for (guint i = 0; i < G_N_ELEMENTS (walkers); i++)
    {
      guint64 last = 0;

      g_test_message ("walker %u", i);
      g_assert_cmpuint (cpu_extent_with (stream, walkers[i], &last), ==, 1000u << 10);
      g_assert_cmpuint (last, ==, 6000u << 10);
    }
}

static char *write_temp (GBytes *stream);

/* strobe-cli stats with @lanes lanes: its output and errors together. */
static char *
stats_with_lanes (const char *path, const char *lanes)
{
  const char *cli = g_getenv ("STROBE_CLI");
  const char *argv[] = { cli, "stats", "--units", "ticks", path, NULL };
  /* The test's own environment beneath (a sanitizer run's options and preloads). */
  g_auto(GStrv) envp = g_environ_setenv (g_environ_setenv (g_get_environ (), "LC_ALL", "C", TRUE),
                                         "STROBE_STATS_LANES", lanes, TRUE);
  g_autoptr(GError) error = NULL;
  char *out = NULL, *err = NULL, *both;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  both = g_strconcat (out, "--\n", err, NULL);
  g_free (out);
  g_free (err);
  return both;
}

/* 65 threads each nesting 1 024 deep take 66 560 levels of the 65 536 all threads share:
 * the last thread's are refused, which only the trace's order decides. Lanes cannot
 * know it: the streaming timers say so (contested) and strobe-cli stats reads the trace
 * again in one walk, printing what one walk prints. */
static void
test_timer_lanes_contested (void)
{
  enum { UID_BATCH = TSB_UID_USER, THREADS = 65, DEPTH = 1024 };
  const TsbField batch[] = { { "Base", STROBE_TYPE_UINT64 }, { "Shift", STROBE_TYPE_UINT8 },
                             { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  g_autofree guint8 *data = g_new0 (guint8, 2 * DEPTH);
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autofree char *path = NULL, *one = NULL, *two = NULL;
  guint64 budget[2] = { 0, 0 };
  gboolean contested[2];

  /* Each record a begin at the same time (delta 0) of spec id 1. */
  for (guint i = 0; i < DEPTH; i++)
    data[2 * i + 1] = 1;
  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_BATCH, "Cpu", "EventBatch", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (batch), batch);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);
  for (guint t = 0; t < THREADS; t++)
    {
      tsb_begin (b, 16 + t, UID_BATCH, 0);
      tsb_set_int (b, 0, 1000 + t);
      tsb_set_int (b, 1, 0);
      tsb_aux (b, 2, data, 2 * DEPTH);
      tsb_end (b);
      tsb_flush (b, 16 + t, TSB_AUTO);
    }
  tsb_end_stream (b);
  stream = tsb_bytes (b);

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
      g_autoptr(StrobeTimerStream) timers = strobe_timer_stream_new (0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
      g_autoptr(GError) error = NULL;
      gsize len;
      const guint8 *p = g_bytes_get_data (stream, &len);

      strobe_timer_stream_set_lanes (timers, 2 * k);
      strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (timers));
      g_assert_true (strobe_decoder_feed (dec, p, len, &error));
      g_assert_true (strobe_decoder_finish (dec, &error));
      g_assert_no_error (error);
      strobe_timer_stream_get_overflows (timers, NULL, &budget[k]);
      contested[k] = strobe_timer_stream_is_contested (timers);
    }
  g_assert_false (contested[0]);
  g_assert_cmpuint (budget[0], ==, THREADS * DEPTH - 65536);
  g_assert_true (contested[1]);

  path = write_temp (stream);
  one = stats_with_lanes (path, "0");
  two = stats_with_lanes (path, "2");
  g_assert_nonnull (strstr (one, "(unknown 1)"));
  g_assert_nonnull (strstr (one, "1024 scopes were not kept"));
  g_assert_cmpstr (one, ==, two);

  /* info of the trace twice (a group of two processes): each member's scopes not kept
   * from its nesting alone (no timeline model, which a billion scopes would fill), the
   * same line as info of the one trace. */
  {
    const char *alone[] = { g_getenv ("STROBE_CLI"), "info", path, NULL };
    const char *pair[] = { g_getenv ("STROBE_CLI"), "info", path, path, NULL };
    const char *envp[] = { "LC_ALL=C", NULL };
    g_autofree char *out_alone = NULL, *out_pair = NULL;
    g_auto(GStrv) lines = NULL;
    const char *line = NULL;
    guint seen = 0;
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) alone, (char **) envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                 &out_alone, NULL, &status, NULL));
    g_assert_true (g_spawn_sync (NULL, (char **) pair, (char **) envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                 &out_pair, NULL, &status, NULL));
    lines = g_strsplit (out_alone, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      if (g_str_has_prefix (lines[i], "Scopes not kept:"))
        line = lines[i];
    g_assert_nonnull (line);
    g_assert_nonnull (strstr (line, "1024 past 65536 levels"));
    for (const char *at = out_pair; (at = strstr (at, line)) != NULL; at += strlen (line))
      seen++;
    g_assert_cmpuint (seen, ==, 2);
  }
  g_unlink (path);
}

static char *
write_temp (GBytes *stream)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("strobe-cli-XXXXXX.trace", &path, &error);
  gsize len;
  const char *data = g_bytes_get_data (stream, &len);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));
  return path;
}

static int
run_cli (const char *const *args, char **out, char **err)
{
  const char *cli = g_getenv ("STROBE_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *envp[] = { "LC_ALL=C", NULL };
  int status;

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, (char **) envp, G_SPAWN_DEFAULT,
                               NULL, NULL, out, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
test_cli (void)
{
  g_autoptr(GBytes) good = build_demo (TRUE, FALSE);
  g_autoptr(GBytes) bad = build_demo (FALSE, TRUE);
  g_autofree char *good_path = NULL, *bad_path = NULL;
  g_autofree char *whole = NULL;
  g_autoptr(GError) error = NULL;

  if (g_getenv ("STROBE_CLI") == NULL)
    {
      g_test_skip ("STROBE_CLI is not set");
      return;
    }
  good_path = write_temp (good);
  bad_path = write_temp (bad);
  whole = test_decode (g_bytes_get_data (good, NULL), g_bytes_get_size (good), 0, &error);
  g_assert_no_error (error);

  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "info", good_path, NULL }, &out, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_assert_nonnull (strstr (out, "Program:         demo\n"));
    g_assert_nonnull (strstr (out, "Process id:      4242\n"));
    g_assert_nonnull (strstr (out, "Command line:    demo --fast 'input file.txt'\n"));
    g_assert_nonnull (strstr (out, "Start time:      2023-11-14T22:13:20Z\n"));
    g_assert_nonnull (strstr (out, "Clock:           1000000000 Hz (monotonic clock)\n"));
    g_assert_nonnull (strstr (out, "Duration:        2.599999 s\n"));
    g_assert_nonnull (strstr (out, "Status:          finished\n"));
    g_assert_nonnull (strstr (out, "Events dropped:  5\n"));
    g_assert_nonnull (strstr (out, "Threads (2)\n"));
    g_assert_nonnull (strstr (out, "render"));
    g_assert_nonnull (strstr (out, "Render.Frame"));
    g_assert_nonnull (strstr (out, "Channels (2)\n"));
    g_assert_nonnull (strstr (out, "disabled"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "dump", good_path, NULL }, &out, &err), ==, 0);
    g_assert_cmpstr (out, ==, whole);
    g_assert_nonnull (strstr (out, "18 2 Render.Frame Timestamp=1000001000 Index=2 Load=0.5\n"));
    g_assert_nonnull (strstr (out, "17 - Log.Message Text=\"tab\\there\" Ptr=0x1000\n"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "dump", bad_path, NULL }, &out, &err), ==, 1);
    /* Everything before the damage is printed. */
    g_assert_true (g_str_has_prefix (whole, out));
    g_assert_nonnull (strstr (out, "Stats Timestamp=2600000000"));
    g_assert_nonnull (strstr (err, "corrupt packet at offset"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "info", bad_path, NULL }, &out, &err), ==, 1);
    g_assert_nonnull (strstr (out, "Program:         demo\n"));
    g_assert_nonnull (strstr (err, "corrupt packet at offset"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "info", NULL }, &out, &err), ==, 2);
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "frobnicate", good_path, NULL }, &out, &err), ==, 2);
    /* Nothing close: no guess. */
    g_assert_null (strstr (err, "Did you mean"));
  }
  /* A typo names the command it most likely meant: two edits away, or the start of one. */
  {
    static const char *const typos[][2] = { { "stat", "stats" }, { "sample", "samples" }, { "mem", "memory" },
                                            { "lgo", "log" }, { "comapre", "compare" } };
    for (guint i = 0; i < G_N_ELEMENTS (typos); i++)
      {
        g_autofree char *out = NULL, *err = NULL;
        const char *guess;

        g_assert_cmpint (run_cli ((const char *[]) { typos[i][0], good_path, NULL }, &out, &err), ==, 2);
        /* In the C locale the quotes print as the charset allows: look at the word. */
        guess = strstr (err, "Did you mean ");
        g_assert_nonnull (guess);
        g_assert_true (strncmp (guess + strlen ("Did you mean ") + 1, typos[i][1], strlen (typos[i][1])) == 0
                       || strncmp (guess + strlen ("Did you mean “"), typos[i][1], strlen (typos[i][1])) == 0);
      }
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "dump", "--bogus", good_path, NULL }, &out, &err), ==, 2);
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "--version", NULL }, &out, &err), ==, 0);
    g_assert_true (g_str_has_prefix (out, "strobe-cli "));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "--help", NULL }, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "info"));
    g_assert_nonnull (strstr (out, "dump"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run_cli ((const char *[]) { "info", "/nonexistent.trace", NULL }, &out, &err), ==, 1);
  }
  g_unlink (good_path);
  g_unlink (bad_path);
}

static void
ignore_begin (gpointer data, guint64 time, guint64 spec_id)
{
}

static void
ignore_end (gpointer data, guint64 time)
{
}

/* The extent's fast reader (eight bytes at a time) against the record walk the models
 * use, over batches of every shape: one- and two-byte records, long varints, ids cut off
 * at the end, bytes that are not a varint at all, and every length from 0 to 40. */
static void
test_info_batch_extent (void)
{
  GRand *rand = g_rand_new_with_seed (20);

  for (guint round = 0; round < 200000; round++)
    {
      guint8 buf[40];
      gsize n = g_rand_int_range (rand, 0, sizeof buf + 1);
      guint style = g_rand_int_range (rand, 0, 4);
      guint64 base = g_rand_boolean (rand) ? g_rand_int (rand) : ((guint64) g_rand_int (rand) << 32);
      guint shift = g_rand_int_range (rand, 0, 70);
      guint64 f1 = 1, l1 = 2, f2 = 1, l2 = 2;
      gboolean r1, r2;

      for (gsize i = 0; i < n; i++)
        {
          guint32 r = g_rand_int (rand);

          switch (style)
            {
            case 0: buf[i] = r & 0x7f; break;                          /* one-byte varints */
            case 1: buf[i] = (r & 7) == 0 ? (r >> 8) | 0x80 : r & 0x7f; break;   /* some two-byte */
            case 2: buf[i] = (r & 3) == 0 ? 0xff : r & 0xff; break;    /* long ones, cut off ones */
            default: buf[i] = r & 0xff; break;
            }
        }
      r1 = strobe_cpu_batch_time_range (base, shift, buf, n, &f1, &l1);
      r2 = strobe_cpu_batch_walk (base, MIN (shift, 63), buf, n, ignore_begin, ignore_end, NULL, &f2, &l2);
      g_assert_cmpint (r1, ==, r2);
      if (r1)
        {
          g_assert_cmpuint (f1, ==, f2);
          g_assert_cmpuint (l1, ==, l2);
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/info/analyzer", test_info_analyzer);
  g_test_add_func ("/analysis/info/cli", test_cli);
  g_test_add_func ("/analysis/info/memory-extent", test_info_memory_extent);
  g_test_add_func ("/analysis/info/batch-extent", test_info_batch_extent);
  g_test_add_func ("/analysis/info/cpu-extent-elsewhere", test_info_cpu_extent_elsewhere);
  g_test_add_func ("/analysis/timer-stream/lanes-contested", test_timer_lanes_contested);
  return g_test_run ();
}
