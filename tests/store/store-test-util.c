/* store-test-util.c — helpers shared by the store and recorder tests.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "store-test-util.h"
#include "strobe-auth.h"
#include "strobe-store-client.h"
#include "strobe-store-message.h"
#include "strobe-store-secret.h"

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
  return test_build_session_stream (program, NULL, seed, payload_bytes, with_end, handshake_len);
}

GBytes *
test_build_session_stream (const char *program,
                           const char *session,
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
  meta.session_name = session;
  meta.session_name_len = session ? strlen (session) : 0;
  meta.parent_process_id = session ? 4242 : 0;
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

/* ---- raw store peers ------------------------------------------------------------------ */

static GThread *pump_thread;   /* the thread whose default main context runs the server */

void
test_store_set_pump (gboolean pump)
{
  pump_thread = pump ? g_thread_self () : NULL;
}

/* Waits for @fd to be readable; when the server runs on this thread, runs it meanwhile. */
static gboolean
wait_readable (int fd, int timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  struct pollfd p = { fd, POLLIN, 0 };

  if (pump_thread != g_thread_self ())
    return poll (&p, 1, timeout_ms) == 1;
  while (g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (poll (&p, 1, 5) == 1)
        return TRUE;
    }
  return FALSE;
}

int
test_store_connect_fd (guint16 port)
{
  struct sockaddr_in sa = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  return fd;
}

GVariant *
test_store_read_message (int fd, int timeout_ms)
{
  guint8 head[4];
  g_autofree guint8 *body = NULL;
  guint32 len = 0;
  gsize got = 0;
  g_autoptr(GError) error = NULL;
  GVariant *v;

  while (got < 4 + (got >= 4 ? len : 0))
    {
      ssize_t n;

      g_assert_true (wait_readable (fd, timeout_ms));
      if (got < 4)
        n = read (fd, head + got, 4 - got);
      else
        n = read (fd, body + got - 4, len - (got - 4));
      if (n < 0 && errno == ECONNRESET)
        n = 0;
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        {
          g_assert_cmpuint (got, ==, 0);
          return NULL;
        }
      got += (gsize) n;
      if (got == 4)
        {
          memcpy (&len, head, 4);
          len = GUINT32_FROM_LE (len);
          g_assert_cmpuint (len, <=, STROBE_STORE_MAX_MESSAGE);
          body = g_malloc (len ? len : 1);
        }
    }
  v = strobe_store_message_decode (body, len, &error);
  g_assert_no_error (error);
  return g_variant_ref_sink (v);
}

guint64
test_store_status (GVariant *message)
{
  guint64 status = 0;

  g_assert_true (g_variant_lookup (message, "status", "t", &status));
  return status;
}

void
test_store_send (int fd, GVariant *dict)
{
  g_autoptr(GVariant) sunk = g_variant_ref_sink (dict);
  g_autoptr(GBytes) msg = strobe_store_message_encode (sunk);

  g_assert_cmpint (send (fd, g_bytes_get_data (msg, NULL), g_bytes_get_size (msg), MSG_NOSIGNAL),
                   ==, (gssize) g_bytes_get_size (msg));
}

GVariant *
test_store_request_dict (const char *verb, const char *path, const char *id, const char *name)
{
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "request", "s", verb);
  g_variant_dict_insert (&d, "path", "s", path);
  if (id != NULL)
    g_variant_dict_insert (&d, "id", "s", id);
  if (name != NULL)
    g_variant_dict_insert (&d, "name", "s", name);
  return g_variant_dict_end (&d);
}

void
test_store_read_hello (int fd, guint8 server_nonce[32])
{
  g_autoptr(GVariant) hello = test_store_read_message (fd, 5000);
  g_autoptr(GVariant) nonce = NULL;
  const char *what = NULL;
  gsize n = 0;
  const guint8 *p;

  g_assert_nonnull (hello);
  g_assert_true (g_variant_lookup (hello, "hello", "&s", &what));
  g_assert_cmpstr (what, ==, "strobe-store");
  nonce = g_variant_lookup_value (hello, "nonce", G_VARIANT_TYPE_BYTESTRING);
  g_assert_nonnull (nonce);
  p = g_variant_get_fixed_array (nonce, &n, 1);
  g_assert_cmpuint (n, ==, 32);
  if (server_nonce != NULL)
    memcpy (server_nonce, p, 32);
}

static GVariant *
bytes_variant (const guint8 *p, gsize n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p, n, 1);
}

void
test_store_send_challenge (int fd, const guint8 client_nonce[32])
{
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "request", "s", "POST");
  g_variant_dict_insert (&d, "path", "s", "v1/auth/challenge");
  g_variant_dict_insert_value (&d, "nonce", bytes_variant (client_nonce, 32));
  test_store_send (fd, g_variant_dict_end (&d));
}

void
test_store_send_proof (int fd, const guint8 proof[32])
{
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "request", "s", "POST");
  g_variant_dict_insert (&d, "path", "s", "v1/auth/proof");
  g_variant_dict_insert_value (&d, "proof", bytes_variant (proof, 32));
  test_store_send (fd, g_variant_dict_end (&d));
}

int
test_store_connect_authed (guint16 port, const char *secret)
{
  int fd = test_store_connect_fd (port);
  guint8 ns[32], nc[32], proof[32];
  g_autoptr(GVariant) r1 = NULL;
  g_autoptr(GVariant) r2 = NULL;
  g_autoptr(GVariant) given = NULL;
  gsize n = 0;

  test_store_read_hello (fd, ns);
  g_assert_true (strobe_auth_nonce (nc));
  test_store_send_challenge (fd, nc);
  r1 = test_store_read_message (fd, 5000);
  g_assert_nonnull (r1);
  g_assert_cmpuint (test_store_status (r1), ==, 200);
  given = g_variant_lookup_value (r1, "proof", G_VARIANT_TYPE_BYTESTRING);
  g_assert_nonnull (given);
  g_assert_true (strobe_auth_check ("store", STROBE_AUTH_SERVER, secret, strlen (secret), ns, nc,
                                    g_variant_get_fixed_array (given, &n, 1)));
  g_assert_cmpuint (n, ==, 32);
  g_assert_true (strobe_auth_proof ("store", STROBE_AUTH_CLIENT, secret, strlen (secret), ns, nc, proof));
  test_store_send_proof (fd, proof);
  r2 = test_store_read_message (fd, 5000);
  g_assert_nonnull (r2);
  g_assert_cmpuint (test_store_status (r2), ==, 200);
  return fd;
}

static void
store_connected (GObject *source, GAsyncResult *result, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

StrobeStoreClient *
test_store_client_connect (guint16 port, const char *secret, GError **error)
{
  GAsyncResult *result = NULL;
  StrobeStoreClient *client;

  strobe_store_client_connect_async ("127.0.0.1", port, secret, NULL, store_connected, &result);
  g_assert_true (test_wait_until (has_result, &result, 15000));
  client = strobe_store_client_connect_finish (result, error);
  g_object_unref (result);
  return client;
}

char *
test_store_secret (const char *dir)
{
  g_autoptr(GError) error = NULL;
  char *secret = strobe_store_secret_load (dir, FALSE, &error);

  g_assert_no_error (error);
  return secret;
}
