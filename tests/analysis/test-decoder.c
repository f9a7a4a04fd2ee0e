/* test-decoder.c — framing, limits, errors and robustness of the decoder.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis.h"
#include "test-log-analyzer.h"
#include "test-stream-builder.h"

#include <glib/gstdio.h>

enum { UID_TICK = TSB_UID_USER, UID_MSG, UID_SEQ };

/* A small stream using every feature: system events, importants with aux, LZ4 and raw
 * packets, sync and NoSync events with aux, sized records, reserved thread ids. */
static GBytes *
build_rich_stream (gboolean with_end)
{
  const TsbField tick[] = { { "Time", STROBE_TYPE_UINT64 }, { "Value", STROBE_TYPE_INT32 } };
  const TsbField msg[] = { { "Level", STROBE_TYPE_UINT8 }, { "Text", STROBE_TYPE_ANSI },
                           { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT16 } };
  const TsbField seq[] = { { "N", STROBE_TYPE_UINT32 } };
  const guint8 sized[] = { 9, 0, 3, 0, 0, 0, 'a', 'b', 'c' };
  const guint8 junk[] = { 0xde, 0xad, 0xbe, 0xef };
  g_autoptr(Tsb) b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_TICK, "App", "Tick", STROBE_EVENT_FLAG_NOSYNC, 2, tick);
  tsb_define (b, UID_MSG, "App", "Msg", 0, 3, msg);
  tsb_define (b, UID_SEQ, "App", "Seq", 0, 1, seq);
  tsb_thread_info (b, 17, 111, 0, "main", "app");
  tsb_thread_info (b, 18, 222, 1, "worker", "pool");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_sync (b, 10);
  for (guint i = 0; i < 12; i++)
    {
      guint16 tid = (guint16) (17 + (i % 2));
      const guint16 data[] = { (guint16) i, 7 };

      tsb_event (b, tid, UID_TICK, 0, 2, (const guint64[]) { 1000 + i, (guint64) -(gint64) i });
      tsb_begin (b, tid, UID_MSG, 10 + i);
      tsb_set_int (b, 0, i);
      tsb_aux_str (b, 1, i % 3 ? "hello \"world\"" : "");
      if (i % 2)
        tsb_aux (b, 2, data, sizeof data);
      tsb_end (b);
      if (i == 4)
        tsb_pending_raw (b, tid, sized, sizeof sized);
      if (i % 4 == 3)
        {
          tsb_flush (b, 18, TSB_LZ4);
          tsb_flush (b, 17, TSB_RAW);
          tsb_packet (b, 5, 0, junk, sizeof junk);
        }
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_event (b, 17, UID_TICK, 0, 2, (const guint64[]) { 5000, 1 });
  tsb_flush (b, 17, TSB_AUTO);
  if (with_end)
    tsb_end_stream (b);
  return tsb_bytes (b);
}

static void
test_chunking (void)
{
  g_autoptr(GBytes) stream = build_rich_stream (TRUE);
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = test_decode (data, len, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (strstr (whole, "17 10 App.Msg Level=0 Text=\"\" Data=[]\n"));
  g_assert_nonnull (strstr (whole, "18 11 App.Msg Level=1 Text=\"hello \\\"world\\\"\" Data=[1, 7]\n"));
  g_assert_nonnull (strstr (whole, "17 - App.Tick Time=5000 Value=1\n"));
  for (gsize chunk = 1; chunk <= 33; chunk += 4)
    {
      g_autofree char *log = test_decode (data, len, chunk, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (log, ==, whole);
    }
}

/* Packet boundaries of a stream, from its own headers. */
static GArray *
unit_boundaries (const guint8 *data, gsize len)
{
  GArray *b = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize pos = 8 + strobe_wire_get_u16 (data + 6);

  g_array_append_val (b, pos);
  while (pos < len)
    {
      pos += strobe_wire_get_u32 (data + pos);
      g_array_append_val (b, pos);
    }
  return b;
}

static gboolean
is_boundary (GArray *b, gsize pos)
{
  for (guint i = 0; i < b->len; i++)
    if (g_array_index (b, gsize, i) == pos)
      return TRUE;
  return FALSE;
}

static void
test_truncation (void)
{
  g_autoptr(GBytes) stream = build_rich_stream (TRUE);
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = test_decode (data, len, 0, &error);
  g_autoptr(GArray) bounds = unit_boundaries (data, len);

  g_assert_no_error (error);
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
      g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
      g_autoptr(GError) err = NULL;
      g_auto(GStrv) tail = NULL;
      gsize before;
      gboolean ok;

      strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
      g_assert_true (strobe_decoder_feed (dec, data, cut, &err));
      g_assert_no_error (err);
      /* What came out before the end is exactly the full run's beginning... */
      before = strlen (test_log_analyzer_get_log (la));
      g_assert_cmpint (strncmp (whole, test_log_analyzer_get_log (la), before), ==, 0);
      ok = strobe_decoder_finish (dec, &err);
      if (is_boundary (bounds, cut))
        {
          g_assert_no_error (err);
          g_assert_true (ok);
          g_assert_false (strobe_decoder_get_ended_cleanly (dec));
        }
      else
        {
          g_autofree char *where = g_strdup_printf ("offset %" G_GSIZE_FORMAT " ", cut);
          g_assert_error (err, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_TRUNCATED);
          g_assert_false (ok);
          g_assert_nonnull (strstr (err->message, where));
        }
      g_assert_true (test_log_analyzer_get_ended (la));
      /* ...and what the end flushed out was all in the full run too. */
      tail = g_strsplit (test_log_analyzer_get_log (la) + before, "\n", -1);
      for (guint i = 0; tail[i] && tail[i][0]; i++)
        {
          g_autofree char *line = g_strconcat (tail[i], "\n", NULL);
          g_assert_nonnull (strstr (whole, line));
        }
    }
}

/* Decodes @data, expecting @code and @needle in the message; returns the log. */
static char *
expect_error (const guint8 *data, gsize len, gint code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) again = NULL;
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
  gboolean ok;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
  ok = strobe_decoder_feed (dec, data, len, &error);
  if (ok)
    ok = strobe_decoder_finish (dec, &error);
  g_assert_false (ok);
  if (!g_error_matches (error, STROBE_DECODER_ERROR, code))
    g_error ("expected code %d ('%s'), got: %s", code, needle ? needle : "", error->message);
  if (needle && !strstr (error->message, needle))
    g_error ("'%s' lacks '%s'", error->message, needle);
  g_assert_true (test_log_analyzer_get_ended (la));
  /* The error sticks. */
  g_assert_false (strobe_decoder_feed (dec, data, 1, &again));
  g_assert_error (again, STROBE_DECODER_ERROR, code);
  g_assert_cmpstr (again->message, ==, error->message);
  return g_strdup (test_log_analyzer_get_log (la));
}

static char *
expect_error_b (Tsb *b, gint code, const char *needle)
{
  gsize len;
  const guint8 *data = tsb_data (b, &len);

  return expect_error (data, len, code, needle);
}

static Tsb *
simple_prefix (void)
{
  const TsbField seq[] = { { "N", STROBE_TYPE_UINT32 } };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define (b, UID_SEQ, "App", "Seq", STROBE_EVENT_FLAG_NOSYNC, 1, seq);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  tsb_event (b, 17, UID_SEQ, 0, 1, (const guint64[]) { 1 });
  tsb_flush (b, 17, TSB_RAW);
  return b;
}

static void
test_bad_magic_and_version (void)
{
  g_autoptr(Tsb) b = simple_prefix ();
  gsize len;
  const guint8 *orig = tsb_data (b, &len);
  g_autofree guint8 *data = g_memdup2 (orig, len);
  g_autofree char *l1 = NULL, *l2 = NULL, *l3 = NULL, *l4 = NULL;

  data[0] = 'X';
  l1 = expect_error (data, len, STROBE_DECODER_ERROR_NOT_STROBE, "not a Strobe trace");
  l2 = expect_error ((const guint8 *) "PK", 2, STROBE_DECODER_ERROR_NOT_STROBE, NULL);
  data[0] = 'S';
  data[4] = 2;
  l3 = expect_error (data, len, STROBE_DECODER_ERROR_VERSION, "transport version 2 at offset 4");
  data[4] = 1;
  data[5] = 9;
  l4 = expect_error (data, len, STROBE_DECODER_ERROR_VERSION, "protocol version 9 at offset 5");
  g_assert_cmpstr (l1, ==, "");
}

static void
test_corrupt_packets (void)
{
  /* Bad LZ4: the decoded size does not match */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    gsize off, len;
    g_autofree char *log = NULL, *where = NULL;
    guint8 *data;

    off = tsb_offset (b);
    tsb_event (b, 17, UID_SEQ, 0, 1, (const guint64[]) { 2 });
    tsb_flush (b, 17, TSB_LZ4);
    data = (guint8 *) tsb_data (b, &len);
    strobe_wire_put_u32 (data + off + 8, strobe_wire_get_u32 (data + off + 8) + 1);
    where = g_strdup_printf ("corrupt packet at offset %" G_GSIZE_FORMAT " (thread 17): LZ4", off);
    log = expect_error (data, len, STROBE_DECODER_ERROR_CORRUPT, where);
    g_assert_cmpstr (log, ==, "17 - App.Seq N=1\n");
  }
  /* Bad LZ4: garbage payload */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const guint8 garbage[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    g_autofree char *log = NULL;
    StrobeWirePacketHeader h = { 12 + sizeof garbage, 17, STROBE_PACKET_FLAG_LZ4, 100 };

    tsb_append (b, &h, sizeof h);
    tsb_append (b, garbage, sizeof garbage);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, "does not decode");
  }
  /* An event uid without a schema */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const guint8 ev[] = { 99, 0, 1, 2, 3, 4 };
    gsize off = tsb_offset (b);
    g_autofree char *log = NULL, *where = NULL;

    tsb_pending_raw (b, 18, ev, sizeof ev);
    tsb_flush (b, 18, TSB_RAW);
    where = g_strdup_printf ("offset %" G_GSIZE_FORMAT " (thread 18): event uid 99", off);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, where);
    g_assert_cmpstr (log, ==, "17 - App.Seq N=1\n");
  }
  /* A packet size over the limit: refused before anything is buffered */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    StrobeWirePacketHeader h = { 0x7fffffff, 17, 0, 0x7fffffff - 12 };
    gsize off = tsb_offset (b);
    g_autofree char *log = NULL, *where = NULL;

    tsb_append (b, &h, sizeof h);
    where = g_strdup_printf ("offset %" G_GSIZE_FORMAT " (thread 17): packet size", off);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, where);
  }
  /* An event running past its packet */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const guint8 ev[] = { UID_SEQ, 0, 1, 2 };
    g_autofree char *log = NULL;

    tsb_pending_raw (b, 17, ev, sizeof ev);
    tsb_flush (b, 17, TSB_RAW);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, "runs past the packet");
  }
  /* An important record whose size is past its packet */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const guint8 rec[] = { 40, 0, 0xff, 0xff, 0, 0, 1 };
    g_autofree char *log = NULL;

    tsb_pending_raw (b, 1, rec, sizeof rec);
    tsb_flush (b, 1, TSB_RAW);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, "past the packet");
  }
  /* A uid defined twice */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const TsbField seq[] = { { "N", STROBE_TYPE_UINT32 } };
    g_autofree char *log = NULL;

    tsb_define (b, UID_SEQ, "App", "Seq", STROBE_EVENT_FLAG_NOSYNC, 1, seq);
    tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
    log = expect_error_b (b, STROBE_DECODER_ERROR_CORRUPT, "defined twice");
  }
  /* Unknown required flag bit */
  {
    g_autoptr(Tsb) b = simple_prefix ();
    const guint8 payload[] = { UID_SEQ, 0, 5, 0, 0, 0 };
    gsize off = tsb_offset (b);
    g_autofree char *log = NULL, *where = NULL;

    tsb_packet (b, 17, 0x0004, payload, sizeof payload);
    where = g_strdup_printf ("packet at offset %" G_GSIZE_FORMAT " uses unknown required flags 0x0004", off);
    log = expect_error_b (b, STROBE_DECODER_ERROR_UNSUPPORTED, where);
    g_assert_cmpstr (log, ==, "17 - App.Seq N=1\n");
  }
  /* Truncated handshake */
  {
    g_autofree char *log = expect_error ((const guint8 *) "STRB\1", 5, STROBE_DECODER_ERROR_TRUNCATED,
                                         "inside the handshake");
  }
}

static void
test_skipped_things (void)
{
  g_autoptr(Tsb) b = simple_prefix ();
  const guint8 payload[] = { UID_SEQ, 0, 5, 0, 0, 0 };
  const guint8 sized[] = { 12, 0, 2, 0, 0, 0, 'h', 'i', UID_SEQ, 0, 6, 0, 0, 0 };
  const guint8 unknown_important[] = { 200, 0, 3, 0, 0, 0, 1, 2, 3, 9, 0, 1, 0, 0, 0, 'x' };
  const guint8 control[] = { 77, 1, 2, 3 };
  g_autoptr(GError) error = NULL;
  g_autofree char *log = NULL;
  gsize len;
  const guint8 *data;
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
  StrobeDecoderStats stats;
  gsize end_len;

  tsb_packet (b, 17, 0x8100, payload, sizeof payload);     /* optional bits: ignored */
  tsb_packet (b, 3, 0, "garbage", 7);                     /* reserved thread ids */
  tsb_packet (b, 15, STROBE_PACKET_FLAG_LZ4, "zz", 2);
  tsb_packet (b, 17, 0, sized, sizeof sized);              /* sized record, then an event */
  tsb_packet (b, 1, 0, unknown_important, sizeof unknown_important);
  tsb_packet (b, 2, 0, control, sizeof control);           /* unknown control kind */
  tsb_end_stream (b);
  end_len = tsb_offset (b);
  tsb_append (b, "after the end", 13);                     /* never read (§6) */
  data = tsb_data (b, &len);

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (test_log_analyzer_get_log (la), ==,
                   "17 - App.Seq N=1\n17 - App.Seq N=5\n17 - App.Seq N=6\n");
  g_assert_true (strobe_decoder_get_ended_cleanly (dec));
  g_assert_true (test_log_analyzer_got_metadata (la));
  g_assert_cmpuint (strobe_decoder_get_offset (dec), ==, end_len);
  strobe_decoder_get_stats (dec, &stats);
  g_assert_cmpuint (stats.bytes_after_end, ==, len - end_len);
  g_assert_cmpuint (stats.packets_skipped, ==, 3);
  g_assert_cmpuint (stats.records_skipped, ==, 3);
  g_assert_cmpstr (strobe_decoder_get_metadata (dec)->program_name, !=, NULL);
  g_assert_cmpuint (strobe_decoder_get_metadata (dec)->process_id, ==, 4242);
  g_assert_cmpstr (strobe_decoder_get_event_type (dec, UID_SEQ)->full_name, ==, "App.Seq");
  g_assert_null (strobe_decoder_get_event_type (dec, 300));
  (void) log;
}

static void
test_read_file_and_stream (void)
{
  g_autoptr(GBytes) stream = build_rich_stream (TRUE);
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = test_decode (data, len, 0, &error);
  g_autofree char *path = NULL;
  int fd;

  fd = g_file_open_tmp ("strobe-test-XXXXXX.trace", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, &error));

  {
    g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
    g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);

    strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
    g_assert_true (strobe_decoder_read_file (dec, path, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (test_log_analyzer_get_log (la), ==, whole);
  }
  {
    g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
    g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
    g_autoptr(GInputStream) in = g_memory_input_stream_new_from_bytes (stream);

    strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
    g_assert_true (strobe_decoder_read_stream (dec, in, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (test_log_analyzer_get_log (la), ==, whole);
  }
  {
    g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();

    g_assert_false (strobe_decoder_read_file (dec, "/nonexistent/strobe.trace", NULL, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_clear_error (&error);
  }
  g_unlink (path);
}

/* Random damage must never crash, hang or read out of bounds (run under ASan/valgrind
 * for the last part); any failure is a decoder error. */
static void
test_fuzz (void)
{
  g_autoptr(GBytes) stream = build_rich_stream (TRUE);
  gsize base_len;
  const guint8 *base = g_bytes_get_data (stream, &base_len);
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  gint64 deadline = g_get_monotonic_time () + (g_test_slow () ? 20 : 1.5) * G_USEC_PER_SEC;
  guint iterations = 0;

  while (g_get_monotonic_time () < deadline && iterations < 20000)
    {
      g_autoptr(GByteArray) buf = g_byte_array_new ();
      g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
      g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
      g_autoptr(GError) error = NULL;
      guint n_mut = g_rand_int_range (rand, 1, 5);
      gsize chunk;
      gboolean ok = TRUE;

      g_byte_array_append (buf, base, (guint) base_len);
      for (guint m = 0; m < n_mut && buf->len > 0; m++)
        {
          guint pos = g_rand_int_range (rand, 0, buf->len);

          switch (g_rand_int_range (rand, 0, 6))
            {
            case 0:
              buf->data[pos] = (guint8) g_rand_int (rand);
              break;
            case 1:
              buf->data[pos] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
              break;
            case 2:
              g_byte_array_set_size (buf, pos);
              break;
            case 3:
              if (pos + 4 <= buf->len)
                strobe_wire_put_u32 (buf->data + pos, g_rand_int (rand));
              break;
            case 4:
              {
                guint8 junk[16];
                guint cut = (guint) g_rand_int_range (rand, 0, 16);
                for (guint i = 0; i < sizeof junk; i++)
                  junk[i] = (guint8) g_rand_int (rand);
                g_byte_array_remove_range (buf, pos, MIN (buf->len - pos, cut));
                g_byte_array_append (buf, junk, g_rand_int_range (rand, 0, 16));
              }
              break;
            default:
              buf->data[pos] = (guint8) (buf->data[pos] + 1);
              break;
            }
        }

      chunk = g_rand_boolean (rand) ? buf->len + 1 : (gsize) g_rand_int_range (rand, 1, 64);
      strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
      if (g_rand_boolean (rand))
        strobe_decoder_set_max_pending (dec, g_rand_int_range (rand, 0, 4096));
      for (gsize pos = 0; ok && pos < buf->len; pos += chunk)
        ok = strobe_decoder_feed (dec, buf->data + pos, MIN (chunk, buf->len - pos), &error);
      if (ok)
        ok = strobe_decoder_finish (dec, &error);
      if (!ok)
        g_assert_true (error->domain == STROBE_DECODER_ERROR);
      g_assert_true (test_log_analyzer_get_ended (la));
      iterations++;
    }
  g_test_message ("%u mutations", iterations);
  g_assert_cmpuint (iterations, >, 100);
}

static void
test_finish_twice (void)
{
  g_autoptr(Tsb) b = simple_prefix ();
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = tsb_data (b, &len);

  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_false (strobe_decoder_feed (dec, data, len, &error));
  g_assert_error (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_FINISHED);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/decoder/chunking", test_chunking);
  g_test_add_func ("/analysis/decoder/truncation", test_truncation);
  g_test_add_func ("/analysis/decoder/bad-magic-and-version", test_bad_magic_and_version);
  g_test_add_func ("/analysis/decoder/corrupt-packets", test_corrupt_packets);
  g_test_add_func ("/analysis/decoder/skipped", test_skipped_things);
  g_test_add_func ("/analysis/decoder/read-file-and-stream", test_read_file_and_stream);
  g_test_add_func ("/analysis/decoder/finish-twice", test_finish_twice);
  g_test_add_func ("/analysis/decoder/fuzz", test_fuzz);
  return g_test_run ();
}
