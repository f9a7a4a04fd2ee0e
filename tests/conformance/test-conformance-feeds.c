/* test-conformance-feeds.c — the conformance vectors, fed to the decoder in pieces, and
 * to the recorder's packet tracker.
 *
 * run-conformance.py checks `strobe-cli dump`, which reads a file in one feed. A live
 * reader gets the same bytes in whatever pieces the socket delivers, and PROTOCOL.md
 * says the outcome must not depend on them: here every vector is decoded whole, one
 * byte at a time and in pieces of 3 and 7 bytes, and each run must print exactly the
 * vector's expected output. The recorder decides where a stream ends (End) without
 * decoding it; for every vector it must agree with the decoder (PROTOCOL.md §6). The
 * store lists a trace as finished, cut off or invalid from its framing alone: for every
 * vector it says what the decoder says about the framing, in the same words.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis.h"
#include "strobe-packet-tracker.h"
#include "strobe-trace.h"
#include "strobe-trace-file.h"
#include "strobe-wire-framing.h"

#include "test-log-analyzer.h"

static const char *vector_dir;

typedef struct
{
  char         *name;
  GBytes       *data;
  char         *expected;
} Vector;

static void
vector_free (gpointer p)
{
  Vector *v = p;

  g_free (v->name);
  g_bytes_unref (v->data);
  g_free (v->expected);
  g_free (v);
}

static GPtrArray *
load_vectors (void)
{
  g_autofree char *index_path = g_build_filename (vector_dir, "index.txt", NULL);
  g_autofree char *index = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *vectors = g_ptr_array_new_with_free_func (vector_free);

  g_assert_true (g_file_get_contents (index_path, &index, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (index, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) cols = NULL;
      g_autofree char *in = NULL, *out = NULL;
      Vector *v;
      char *data;
      gsize len;

      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      cols = g_strsplit (lines[i], "\t", 2);
      v = g_new0 (Vector, 1);
      v->name = g_strdup (cols[0]);
      in = g_strconcat (vector_dir, G_DIR_SEPARATOR_S, v->name, ".strobe", NULL);
      out = g_strconcat (vector_dir, G_DIR_SEPARATOR_S, v->name, ".out", NULL);
      g_assert_true (g_file_get_contents (in, &data, &len, &error));
      v->data = g_bytes_new_take (data, len);
      g_assert_true (g_file_get_contents (out, &v->expected, NULL, &error));
      g_assert_no_error (error);
      g_ptr_array_add (vectors, v);
    }
  g_assert_cmpuint (vectors->len, >=, 100);
  return vectors;
}

/* What `strobe-cli dump --status` prints, from feeds of @chunk bytes (0: one feed). */
static char *
decode (GBytes *bytes, gsize chunk, StrobeDecoder **decoder_out, GError **error_out)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestLogAnalyzer) la = test_log_analyzer_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gboolean ok = TRUE;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (la));
  if (chunk == 0)
    chunk = MAX (len, 1);
  for (gsize pos = 0; ok && pos < len; pos += chunk)
    ok = strobe_decoder_feed (dec, data + pos, MIN (chunk, len - pos), &error);
  if (ok)
    strobe_decoder_finish (dec, &error);
  g_assert_true (test_log_analyzer_get_ended (la));
  status = strobe_decoder_format_status (strobe_decoder_get_ended_cleanly (dec), error);
  if (decoder_out)
    *decoder_out = g_steal_pointer (&dec);
  if (error_out)
    *error_out = g_steal_pointer (&error);
  return g_strconcat (test_log_analyzer_get_log (la), status, "\n", NULL);
}

static void
test_feeds (void)
{
  g_autoptr(GPtrArray) vectors = load_vectors ();
  const gsize chunks[] = { 0, 1, 3, 7 };

  for (guint i = 0; i < vectors->len; i++)
    {
      Vector *v = g_ptr_array_index (vectors, i);

      for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
        {
          g_autofree char *got = decode (v->data, chunks[c], NULL, NULL);

          if (g_strcmp0 (got, v->expected) != 0)
            g_error ("%s, fed in pieces of %" G_GSIZE_FORMAT " bytes:\n--- expected\n%s--- got\n%s",
                     v->name, chunks[c], v->expected, got);
        }
    }
}

/* Where the tracker sees End: the stream offset just after it, or 0. */
static guint64
tracker_end (const guint8 *data, gsize len, gsize hs_len, gsize chunk)
{
  StrobePacketTracker tracker;

  strobe_packet_tracker_init (&tracker, hs_len);
  for (gsize pos = hs_len; pos < len; pos += chunk)
    {
      gsize n = MIN (chunk, len - pos), consumed = 0;
      StrobePacketTrackerResult r = strobe_packet_tracker_feed (&tracker, data + pos, n, &consumed);

      if (r == STROBE_PACKET_TRACKER_END)
        return pos + consumed;
      if (r == STROBE_PACKET_TRACKER_BAD)
        return 0;
      g_assert_cmpuint (consumed, ==, n);
    }
  return 0;
}

static void
test_tracker_agrees (void)
{
  g_autoptr(GPtrArray) vectors = load_vectors ();
  guint ended = 0;

  for (guint i = 0; i < vectors->len; i++)
    {
      Vector *v = g_ptr_array_index (vectors, i);
      g_autoptr(StrobeDecoder) dec = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *out = decode (v->data, 0, &dec, &error);
      gsize len, hs_len;
      const guint8 *data = g_bytes_get_data (v->data, &len);
      gboolean decoder_end = strobe_decoder_get_ended_cleanly (dec);

      /* The recorder rejects a stream whose handshake the decoder cannot read. */
      if (strobe_decoder_get_metadata (dec) == NULL)
        continue;
      hs_len = sizeof (StrobeWireHandshake) + strobe_wire_get_u16 (data + 6);
      for (gsize chunk = 1; chunk <= len; chunk = chunk * 5 + 2)
        {
          guint64 at = tracker_end (data, len, hs_len, chunk);

          if (decoder_end)
            {
              if (at != strobe_decoder_get_offset (dec))
                g_error ("%s: the decoder ends at %" G_GUINT64_FORMAT ", the tracker at %"
                         G_GUINT64_FORMAT, v->name, strobe_decoder_get_offset (dec), at);
            }
          else if (at != 0 && error == NULL)
            g_error ("%s: the tracker sees an End at %" G_GUINT64_FORMAT ", the decoder none",
                     v->name, at);
          else if (at != 0 && strobe_decoder_error_get_offset (error) >= at)
            g_error ("%s: the tracker sees an End at %" G_GUINT64_FORMAT " before the decoder's "
                     "error at %" G_GUINT64_FORMAT, v->name, at, strobe_decoder_error_get_offset (error));
        }
      ended += decoder_end;
    }
  g_assert_cmpuint (ended, >=, 50);
}

/* Whether the decoder's @error lies inside the payload of a packet (a record, a schema,
 * an LZ4 block) rather than in the framing: the store reads no payload but a control
 * packet's kind, so it cannot see those. */
static gboolean
error_in_payload (StrobeDecoder *dec, const guint8 *data, gsize len, const GError *error)
{
  guint64 at = strobe_decoder_error_get_offset (error);
  StrobeWirePacketHeader header;
  gsize need;

  if (!g_error_matches (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_CORRUPT)
      && !g_error_matches (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_UNSUPPORTED))
    return FALSE;
  if (strobe_decoder_get_metadata (dec) == NULL || at + sizeof header > len)
    return FALSE;
  return strobe_wire_read_packet_header (data + at, len - at, at, &header, &need, NULL)
         && at + need <= len && header.thread_id != STROBE_TID_CONTROL;
}

static void
test_store_agrees (void)
{
  g_autoptr(GPtrArray) vectors = load_vectors ();
  guint same_fault = 0, same_end = 0, payload = 0;

  for (guint i = 0; i < vectors->len; i++)
    {
      Vector *v = g_ptr_array_index (vectors, i);
      g_autofree char *path = g_strconcat (vector_dir, G_DIR_SEPARATOR_S, v->name, ".strobe", NULL);
      g_autoptr(StrobeDecoder) dec = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) probe_error = NULL;
      g_autofree char *out = decode (v->data, 0, &dec, &error);
      gsize len;
      const guint8 *data = g_bytes_get_data (v->data, &len);
      StrobeTraceProbe probe;

      /* Without repair the probe writes nothing next to the vectors. */
      g_assert_true (strobe_trace_file_probe (path, FALSE, &probe, &probe_error));
      g_assert_no_error (probe_error);

      if (error == NULL || error_in_payload (dec, data, len, error))
        {
          /* Framing only: finished exactly when the decoder met End, before any error. */
          gboolean end = strobe_decoder_get_ended_cleanly (dec);

          if (end ? probe.status != STROBE_TRACE_STATUS_FINISHED
                  : probe.status != STROBE_TRACE_STATUS_CUT_OFF
                    || !g_str_has_prefix (probe.reason, "No End packet"))
            g_error ("%s: the decoder says %s, the store %s (%s)", v->name,
                     error ? error->message : end ? "end" : "no end",
                     strobe_trace_status_to_string (probe.status), probe.reason);
          same_end++;
          payload += error != NULL;
        }
      else
        {
          StrobeTraceStatus want = g_error_matches (error, STROBE_DECODER_ERROR,
                                                    STROBE_DECODER_ERROR_TRUNCATED)
                                   || strobe_decoder_get_metadata (dec) != NULL
                                   ? STROBE_TRACE_STATUS_CUT_OFF : STROBE_TRACE_STATUS_INVALID;

          if (probe.status != want || g_strcmp0 (probe.reason, error->message) != 0)
            g_error ("%s: the decoder says \"%s\", the store %s \"%s\"", v->name,
                     error->message, strobe_trace_status_to_string (probe.status), probe.reason);
          same_fault++;
        }
      strobe_trace_probe_clear (&probe);
    }
  g_test_message ("%u vectors broken in their framing, %u read alike to End or the end "
                  "(%u of them broken inside a payload)", same_fault, same_end, payload);
  g_assert_cmpuint (same_fault, >=, 30);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  vector_dir = g_getenv ("STROBE_CONFORMANCE_VECTORS");
  if (vector_dir == NULL)
    g_error ("set STROBE_CONFORMANCE_VECTORS to the vector folder");
  g_test_add_func ("/conformance/feeds", test_feeds);
  g_test_add_func ("/conformance/tracker-agrees", test_tracker_agrees);
  g_test_add_func ("/conformance/store-agrees", test_store_agrees);
  return g_test_run ();
}
