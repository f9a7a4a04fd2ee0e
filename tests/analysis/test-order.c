/* test-order.c — serial order across threads, gaps, routing by name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis.h"

#include <stdio.h>
#include <stdlib.h>

#include "test-log-analyzer.h"
#include "test-stream-builder.h"

enum { UID_SYNC = TSB_UID_USER, UID_FREE, UID_NOTE };

static void
define_order_types (Tsb *b)
{
  const TsbField sync_fields[] = { { "Seq", STROBE_TYPE_UINT32 }, { "Tid", STROBE_TYPE_UINT16 } };
  const TsbField free_fields[] = { { "Seq", STROBE_TYPE_UINT32 } };
  const TsbField note_fields[] = { { "Text", STROBE_TYPE_ANSI } };

  tsb_define_system (b);
  tsb_define (b, UID_SYNC, "Order", "Sync", 0, 2, sync_fields);
  tsb_define (b, UID_FREE, "Order", "Free", STROBE_EVENT_FLAG_NOSYNC, 1, free_fields);
  tsb_define (b, UID_NOTE, "Order", "Note", STROBE_EVENT_FLAG_IMPORTANT, 1, note_fields);
}

/* Decodes in one feed and returns the decoder (for its stats) and the log. */
static StrobeDecoder *
decode (GBytes *stream, gsize chunk, char **log, GError **error)
{
  StrobeDecoder *dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);
  gboolean ok = TRUE;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
  if (chunk == 0)
    chunk = MAX (len, 1);
  for (gsize pos = 0; ok && pos < len; pos += chunk)
    ok = strobe_decoder_feed (dec, data + pos, MIN (chunk, len - pos), error);
  if (ok)
    strobe_decoder_finish (dec, error);
  *log = g_strdup (test_log_analyzer_get_log (la));
  return dec;
}

/* Serials handed out in random order to four threads whose packets interleave
 * randomly, LZ4 and raw, across the 2^24 wrap. */
static void
test_many_threads_wrap (void)
{
  const guint32 start = 0xffffff - 40;
  const guint n_serials = 400;
  const guint16 tids[] = { 17, 18, 19, 20 };
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeDecoder) dec = NULL;
  g_autofree char *log = NULL;
  g_auto(GStrv) lines = NULL;
  guint32 seq[4] = { 0 };
  guint32 expect_serial = start;
  guint32 last_seq[65536];
  StrobeDecoderStats stats;
  guint n_sync = 0, n_free = 0, n_lines;

  tsb_handshake (b);
  define_order_types (b);
  for (guint i = 0; i < G_N_ELEMENTS (tids); i++)
    tsb_thread_info (b, tids[i], 1000 + i, 0, "worker", NULL);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, start);

  for (guint i = 0; i < n_serials; i++)
    {
      guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (tids));

      tsb_event (b, tids[k], UID_SYNC, (start + i) & STROBE_WIRE_SERIAL_MASK, 2,
                 (const guint64[]) { seq[k]++, tids[k] });
      if (g_rand_int_range (rand, 0, 10) < 3)
        tsb_event (b, tids[k], UID_FREE, 0, 1, (const guint64[]) { seq[k]++ });
      if (g_rand_int_range (rand, 0, 100) < 15)
        tsb_flush (b, tids[g_rand_int_range (rand, 0, G_N_ELEMENTS (tids))],
                   g_rand_boolean (rand) ? TSB_LZ4 : TSB_RAW);
    }
  for (guint i = G_N_ELEMENTS (tids); i > 0; i--)
    tsb_flush (b, tids[i - 1], TSB_AUTO);
  tsb_end_stream (b);
  stream = tsb_bytes (b);

  dec = decode (stream, 0, &log, &error);
  g_assert_no_error (error);

  memset (last_seq, 0xff, sizeof last_seq);
  lines = g_strsplit (log, "\n", -1);
  n_lines = g_strv_length (lines);
  for (guint i = 0; i + 1 < n_lines; i++)
    {
      guint tid, serial_or_dash, seqv;
      char name[64];
      char serial[16];

      if (g_str_has_prefix (lines[i], "1 "))
        continue;
      g_assert_cmpint (sscanf (lines[i], "%u %15s %63s Seq=%u", &tid, serial, name, &seqv), ==, 4);
      (void) serial_or_dash;
      /* Thread order */
      g_assert_true (last_seq[tid] == G_MAXUINT32 || seqv == last_seq[tid] + 1);
      last_seq[tid] = seqv;
      if (strcmp (name, "Order.Sync") == 0)
        {
          /* Serial order, wrapping */
          g_assert_cmpuint (strtoul (serial, NULL, 10), ==, expect_serial);
          expect_serial = (expect_serial + 1) & STROBE_WIRE_SERIAL_MASK;
          n_sync++;
        }
      else
        {
          g_assert_cmpstr (serial, ==, "-");
          n_free++;
        }
    }
  g_assert_cmpuint (n_sync, ==, n_serials);
  g_assert_cmpuint (n_free + n_sync, ==, seq[0] + seq[1] + seq[2] + seq[3]);
  g_assert_cmpuint (expect_serial, ==, (start + n_serials) & STROBE_WIRE_SERIAL_MASK);
  strobe_decoder_get_stats (dec, &stats);
  g_assert_cmpuint (stats.gaps, ==, 0);
  g_assert_cmpuint (stats.late_events, ==, 0);
  g_assert_true (strobe_decoder_get_ended_cleanly (dec));

  /* Any chunking gives the same delivery. */
  for (gsize chunk = 1; chunk < 40; chunk += 13)
    {
      g_autoptr(StrobeDecoder) d2 = NULL;
      g_autofree char *log2 = NULL;

      d2 = decode (stream, chunk, &log2, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (log2, ==, log);
    }
}

/* No Sync packet (a late connect): the first serial is the smallest pending one once
 * every announced thread has shown data. */
static void
test_unknown_start (void)
{
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeDecoder) dec = NULL;
  g_autofree char *log = NULL;
  StrobeDecoderStats stats;

  tsb_handshake (b);
  define_order_types (b);
  tsb_thread_info (b, 17, 1, 0, "a", NULL);
  tsb_thread_info (b, 18, 2, 0, "b", NULL);
  tsb_thread_info (b, 19, 3, 0, "c", NULL);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  for (guint32 s = 5000; s < 5009; s++)
    tsb_event (b, (guint16) (17 + (s % 3)), UID_SYNC, s, 2, (const guint64[]) { s, 0 });
  tsb_flush (b, 19, TSB_AUTO);
  tsb_flush (b, 17, TSB_AUTO);
  tsb_flush (b, 18, TSB_AUTO);
  stream = tsb_bytes (b);

  dec = decode (stream, 0, &log, &error);
  g_assert_no_error (error);
  g_assert_false (strobe_decoder_get_ended_cleanly (dec));
  g_assert_true (g_str_has_suffix (log,
    "19 5000 Order.Sync Seq=5000 Tid=0\n"
    "17 5001 Order.Sync Seq=5001 Tid=0\n"
    "18 5002 Order.Sync Seq=5002 Tid=0\n"
    "19 5003 Order.Sync Seq=5003 Tid=0\n"
    "17 5004 Order.Sync Seq=5004 Tid=0\n"
    "18 5005 Order.Sync Seq=5005 Tid=0\n"
    "19 5006 Order.Sync Seq=5006 Tid=0\n"
    "17 5007 Order.Sync Seq=5007 Tid=0\n"
    "18 5008 Order.Sync Seq=5008 Tid=0\n"));
  strobe_decoder_get_stats (dec, &stats);
  g_assert_cmpuint (stats.gaps, ==, 0);
}

/* A serial that never comes is skipped once every waited-for thread is past it. */
static void
test_gap (void)
{
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new ("Order", "Sync");
  gsize len;
  const guint8 *data;
  StrobeDecoderStats stats;

  tsb_handshake (b);
  define_order_types (b);
  tsb_thread_info (b, 17, 1, 0, "a", NULL);
  tsb_thread_info (b, 18, 2, 0, "b", NULL);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);
  for (guint32 s = 0; s < 10; s++)
    if (s != 5)
      tsb_event (b, (guint16) (17 + (s & 1)), UID_SYNC, s, 2, (const guint64[]) { s, 0 });
  tsb_flush (b, 17, TSB_AUTO);
  tsb_flush (b, 18, TSB_AUTO);
  stream = tsb_bytes (b);
  data = g_bytes_get_data (stream, &len);

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  /* Skipped without waiting for the end: both threads hold serials past 5. */
  g_assert_cmpuint (test_log_analyzer_get_count (la), ==, 9);
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (test_log_analyzer_get_log (la),
    "18 3 Order.Sync Seq=3 Tid=0\n17 4 Order.Sync Seq=4 Tid=0\n"
    "17 6 Order.Sync Seq=6 Tid=0\n18 7 Order.Sync Seq=7 Tid=0\n"));
  strobe_decoder_get_stats (dec, &stats);
  g_assert_cmpuint (stats.gaps, ==, 1);
}

/* A thread's NoSync events wait behind its blocked synchronised event; importants do
 * not wait for anything. */
static void
test_nosync_waits_behind_sync (void)
{
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeDecoder) dec = NULL;
  g_autofree char *log = NULL;

  tsb_handshake (b);
  define_order_types (b);
  tsb_thread_info (b, 17, 1, 0, "a", NULL);
  tsb_thread_info (b, 18, 2, 0, "b", NULL);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 0);
  tsb_event (b, 17, UID_FREE, 0, 1, (const guint64[]) { 1 });
  tsb_event (b, 17, UID_SYNC, 1, 2, (const guint64[]) { 2, 0 });
  tsb_event (b, 17, UID_FREE, 0, 1, (const guint64[]) { 3 });
  tsb_flush (b, 17, TSB_RAW);
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_NOTE, 0);
  tsb_aux_str (b, 0, "now");
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_event (b, 18, UID_SYNC, 0, 2, (const guint64[]) { 4, 0 });
  tsb_flush (b, 18, TSB_LZ4);
  stream = tsb_bytes (b);

  dec = decode (stream, 0, &log, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (log,
    "17 - Order.Free Seq=1\n"
    "1 - Order.Note Text=\"now\"\n"
    "18 0 Order.Sync Seq=4 Tid=0\n"
    "17 1 Order.Sync Seq=2 Tid=0\n"
    "17 - Order.Free Seq=3\n"));
}

/* A thread nobody announced cannot be waited for: its events come late, delivered at
 * once and counted. */
static void
test_late_events (void)
{
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeDecoder) dec = NULL;
  g_autofree char *log = NULL;
  StrobeDecoderStats stats;

  tsb_handshake (b);
  define_order_types (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_event (b, 17, UID_SYNC, 1, 2, (const guint64[]) { 1, 0 });
  tsb_event (b, 17, UID_SYNC, 2, 2, (const guint64[]) { 2, 0 });
  tsb_flush (b, 17, TSB_AUTO);
  tsb_event (b, 18, UID_SYNC, 0, 2, (const guint64[]) { 0, 0 });
  tsb_flush (b, 18, TSB_AUTO);
  stream = tsb_bytes (b);

  dec = decode (stream, 0, &log, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (log,
    "17 1 Order.Sync Seq=1 Tid=0\n17 2 Order.Sync Seq=2 Tid=0\n18 0 Order.Sync Seq=0 Tid=0\n"));
  strobe_decoder_get_stats (dec, &stats);
  g_assert_cmpuint (stats.late_events, ==, 1);
}

/* Over the memory bound, or with the only other thread ended, a gap is skipped at once. */
static void
test_gap_bound_and_thread_end (void)
{
  for (guint variant = 0; variant < 2; variant++)
    {
      g_autoptr(Tsb) b = tsb_new ();
      g_autoptr(GBytes) stream = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
      g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new ("Order", "Sync");
      gsize len;
      const guint8 *data;
      StrobeDecoderStats stats;

      tsb_handshake (b);
      define_order_types (b);
      tsb_thread_info (b, 17, 1, 0, "a", NULL);
      tsb_thread_info (b, 18, 2, 0, "b", NULL);
      if (variant == 1)
        tsb_event (b, STROBE_TID_IMPORTANTS, TSB_UID_THREAD_END, 0, 2, (const guint64[]) { 18, 77 });
      tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
      tsb_sync (b, 0);
      for (guint32 s = 1; s < 4; s++)
        tsb_event (b, 17, UID_SYNC, s, 2, (const guint64[]) { s, 0 });
      tsb_flush (b, 17, TSB_AUTO);
      stream = tsb_bytes (b);
      data = g_bytes_get_data (stream, &len);

      if (variant == 0)
        strobe_decoder_set_max_pending (dec, 1);
      strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
      g_assert_true (strobe_decoder_feed (dec, data, len, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (test_log_analyzer_get_count (la), ==, 3);
      strobe_decoder_get_stats (dec, &stats);
      g_assert_cmpuint (stats.gaps, ==, 1);
      g_assert_true (strobe_decoder_finish (dec, &error));
    }
}

typedef struct
{
  guint counts[8];
  gint64 a_sum;
} RouteState;

static void
on_routed (guint route_id, const StrobeEvent *ev, gpointer data)
{
  static StrobeFieldAccessor a = STROBE_FIELD_ACCESSOR_INIT ("A");
  RouteState *st = data;

  if (route_id >= G_N_ELEMENTS (st->counts))
    g_error ("unexpected route %u", route_id);
  st->counts[route_id]++;
  if (route_id == 1)
    st->a_sum += strobe_event_get_int (ev, &a);
}

/* Several uids may share a name; subscribers by name get all of them. */
static void
test_multi_uid_routing (void)
{
  const TsbField f1[] = { { "A", STROBE_TYPE_UINT8 } };
  const TsbField f2[] = { { "B", STROBE_TYPE_UINT32 }, { "A", STROBE_TYPE_INT16 } };
  g_autoptr(Tsb) b = tsb_new ();
  g_autoptr(GBytes) stream = NULL;
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestFuncAnalyzer) fa = NULL;
  g_autoptr(GError) error = NULL;
  RouteState st = { 0 };
  gsize len;
  const guint8 *data;

  tsb_handshake (b);
  tsb_define (b, 30, "Lib", "Ev", STROBE_EVENT_FLAG_NOSYNC, 1, f1);
  tsb_define (b, 31, "Lib", "Ev", STROBE_EVENT_FLAG_NOSYNC, 2, f2);
  tsb_define (b, 32, "Lib", "Other", STROBE_EVENT_FLAG_NOSYNC, 1, f1);
  tsb_define (b, 33, "Zed", "Ev", STROBE_EVENT_FLAG_NOSYNC, 1, f1);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_event (b, 17, 30, 0, 1, (const guint64[]) { 5 });
  tsb_event (b, 17, 31, 0, 2, (const guint64[]) { 1000, (guint64) -3 });
  tsb_event (b, 17, 32, 0, 1, (const guint64[]) { 100 });
  tsb_event (b, 17, 33, 0, 1, (const guint64[]) { 100 });
  tsb_event (b, 17, 30, 0, 1, (const guint64[]) { 7 });
  tsb_flush (b, 17, TSB_AUTO);
  stream = tsb_bytes (b);
  data = g_bytes_get_data (stream, &len);

  fa = test_func_analyzer_new (1, "Lib", "Ev", on_routed, &st);
  test_func_analyzer_add (fa, 1, "Lib", "Ev");   /* a duplicate: delivered once */
  test_func_analyzer_add (fa, 2, "Lib", "*");
  test_func_analyzer_add (fa, 3, "*", "*");
  test_func_analyzer_add (fa, 4, "Nope", "Ev");
  test_func_analyzer_add (fa, 5, "Zed", "Ev");
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (fa));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (st.counts[1], ==, 3);
  g_assert_cmpint (st.a_sum, ==, 5 - 3 + 7);
  g_assert_cmpuint (st.counts[2], ==, 4);
  g_assert_cmpuint (st.counts[3], ==, 5);
  g_assert_cmpuint (st.counts[4], ==, 0);
  g_assert_cmpuint (st.counts[5], ==, 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/order/many-threads-wrap", test_many_threads_wrap);
  g_test_add_func ("/analysis/order/unknown-start", test_unknown_start);
  g_test_add_func ("/analysis/order/gap", test_gap);
  g_test_add_func ("/analysis/order/nosync-waits-behind-sync", test_nosync_waits_behind_sync);
  g_test_add_func ("/analysis/order/late-events", test_late_events);
  g_test_add_func ("/analysis/order/gap-bound-and-thread-end", test_gap_bound_and_thread_end);
  g_test_add_func ("/analysis/order/multi-uid-routing", test_multi_uid_routing);
  return g_test_run ();
}
