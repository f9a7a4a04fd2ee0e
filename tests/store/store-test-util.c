/* store-test-util.c — helpers shared by the store and recorder tests.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>

#include "store-test-util.h"

char *
test_dir_new (void)
{
  return test_dir_make_tmp ("strobe-store-test-XXXXXX");
}

GBytes *
test_build_stream (const char *program,
                   guint32     seed,
                   gsize       payload_bytes,
                   gboolean    with_end,
                   gsize      *handshake_len)
{
  StrobeWireBuf out = { 0 };
  StrobeWireBuf scratch = { 0 };
  StrobeWireMetadata meta = { 0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree guint8 *payload = g_malloc (8192);
  gsize sent = 0;
  GBytes *bytes;

  meta.control_port = 1985;
  meta.program_name = program;
  meta.program_name_len = strlen (program);
  meta.process_id = 4242 + seed;
  meta.start_time_ns = G_GUINT64_CONSTANT (1700000000000000000) + seed;
  meta.clock_frequency = 1000000000;
  meta.pointer_size = 8;
  for (guint i = 0; i < 16; i++)
    meta.trace_id[i] = (guint8) g_rand_int (rand);
  g_assert_true (strobe_wire_write_handshake (&out, &meta));
  if (handshake_len != NULL)
    *handshake_len = out.len;

  while (sent < payload_bytes)
    {
      gsize len = 1 + g_rand_int_range (rand, 0, 8192);
      guint16 tid = (guint16) (STROBE_TID_FIRST_USER + g_rand_int_range (rand, 0, 4));

      /* Mix compressible and random payloads so both packet forms appear. */
      if (g_rand_boolean (rand))
        memset (payload, (int) (seed & 0xff), len);
      else
        for (gsize i = 0; i < len; i++)
          payload[i] = (guint8) g_rand_int (rand);
      g_assert_true (strobe_wire_write_packet (&out, &scratch, tid, payload, len));
      sent += len;
    }
  if (with_end)
    g_assert_true (strobe_wire_write_control (&out, STROBE_CONTROL_END, NULL, 0));

  bytes = g_bytes_new (out.data, out.len);
  strobe_wire_buf_clear (&out);
  strobe_wire_buf_clear (&scratch);
  return bytes;
}

gboolean
test_wait_until (gboolean (*cond) (gpointer data),
                 gpointer   data,
                 guint      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        return cond (data);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  return TRUE;
}

void
test_spin (guint ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

typedef struct
{
  guint16  port;
  GBytes  *data;
  gsize    chunk;
} SendJob;

static gpointer
send_thread (gpointer user_data)
{
  SendJob *job = user_data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSocketClient) client = NULL;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (job->data, &len);
  GOutputStream *out;

  g_main_context_push_thread_default (context);
  client = g_socket_client_new ();
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", job->port, NULL, &error);
  g_assert_no_error (error);
  out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  for (gsize off = 0; off < len;)
    {
      gsize n = job->chunk ? MIN (job->chunk, len - off) : len - off;
      g_output_stream_write_all (out, data + off, n, NULL, NULL, &error);
      /* A recorder that dropped us (garbage tests) makes later writes fail: fine. */
      if (error != NULL)
        break;
      off += n;
    }
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  g_main_context_pop_thread_default (context);
  g_bytes_unref (job->data);
  g_free (job);
  return NULL;
}

GThread *
test_send_in_thread (guint16  port,
                     GBytes  *data,
                     gsize    chunk)
{
  SendJob *job = g_new0 (SendJob, 1);

  job->port = port;
  job->data = g_bytes_ref (data);
  job->chunk = chunk;
  return g_thread_new ("test-sender", send_thread, job);
}

gboolean
test_file_equals (const char   *path,
                  const guint8 *data,
                  gsize         len)
{
  g_autofree char *contents = NULL;
  gsize file_len = 0;

  if (!g_file_get_contents (path, &contents, &file_len, NULL))
    return FALSE;
  return file_len == len && memcmp (contents, data, len) == 0;
}
