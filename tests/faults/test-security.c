/* test-security.c — what a peer on the network can and cannot do to Strobe's servers.
 *
 *   /security/loopback-default   the recorder and the store server listen on loopback
 *                                only unless told otherwise: checked in /proc/net/tcp and
 *                                by connecting through the host's non-loopback address
 *   /security/store-garbage      oversize and garbage requests to the store server are
 *                                answered and closed without buffering them, and a client
 *                                that stalls mid-request does not hold up the others
 *   /security/recorder-garbage   peers that send garbage or nothing to the recorder do
 *                                not keep a real program from being recorded
 *   /security/hostile-peers      hundreds of peers connected to the recorder, the store
 *                                server and a program's control server, saying nothing or
 *                                stopping mid-handshake: a control command still works, the
 *                                program still records, a store client still lists
 *
 * The control server's loopback bind and its refusal of remote write-to are tested in
 * tests/control (/control/listen, /control/write-dir, /control/malformed).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "strobe-control-client.h"
#include "strobe-recorder.h"
#include "store-test-util.h"
#include "strobe-store-client.h"
#include "strobe-store-server.h"
#include "strobe-wire.h"
#include "test-dirs.h"

/* ---- helpers ----------------------------------------------------------------------- */

/* A non-loopback IPv4 address of this host, if it has one. */
static gboolean
interface_address (struct in_addr *out)
{
  struct ifaddrs *list, *ifa;
  gboolean found = FALSE;

  if (getifaddrs (&list) < 0)
    return FALSE;
  for (ifa = list; ifa && !found; ifa = ifa->ifa_next)
    if (ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET)
      {
        struct in_addr a = ((struct sockaddr_in *) ifa->ifa_addr)->sin_addr;
        if ((ntohl (a.s_addr) >> 24) != 127)
          {
            *out = a;
            found = TRUE;
          }
      }
  freeifaddrs (list);
  return found;
}

/* The local addresses listening on @port in /proc/net/tcp, as hex ("0100007F"). */
static char *
listening_addresses (guint16 port)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *want = g_strdup_printf (":%04X", port);
  GString *found = g_string_new (NULL);

  g_assert_true (g_file_get_contents ("/proc/net/tcp", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr(GPtrArray) w = g_ptr_array_new ();

      for (guint j = 0; f[j]; j++)
        if (*f[j])
          g_ptr_array_add (w, f[j]);
      if (w->len > 3 && g_str_has_suffix (w->pdata[1], want) && g_str_equal (w->pdata[3], "0A"))
        g_string_append_printf (found, "%s%.8s", found->len ? "," : "", (char *) w->pdata[1]);
    }
  return g_string_free (found, FALSE);
}

static int
connect_to (struct in_addr addr, guint16 port)
{
  struct sockaddr_in sa = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr = addr;
  if (connect (fd, (struct sockaddr *) &sa, sizeof sa) != 0)
    {
      int err = errno;
      close (fd);
      errno = err;
      return -1;
    }
  return fd;
}

static int
connect_loopback (guint16 port)
{
  struct in_addr lo = { htonl (INADDR_LOOPBACK) };
  int fd = connect_to (lo, port);

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static void
assert_loopback_only (const char *what, guint16 port)
{
  g_autofree char *addrs = listening_addresses (port);
  struct in_addr ip;

  g_test_message ("%s on port %u listens on %s", what, port, addrs);
  g_assert_cmpstr (addrs, ==, "0100007F");
  if (interface_address (&ip))
    {
      char text[INET_ADDRSTRLEN];
      int fd = connect_to (ip, port);

      inet_ntop (AF_INET, &ip, text, sizeof text);
      if (fd >= 0)
        close (fd);
      g_assert_cmpint (fd, ==, -1);
      g_assert_cmpint (errno, ==, ECONNREFUSED);
      g_test_message ("%s refuses %s:%u", what, text, port);
    }
  else
    g_test_message ("no non-loopback IPv4 address to connect through");
}

/* Runs @func in a thread while this thread iterates the default main context (where
 * the servers run), for at most @timeout_ms. */
typedef struct
{
  GThreadFunc func;
  gpointer    data;
  gint        done;
} Job;

static gpointer
job_main (gpointer data)
{
  Job *job = data;

  job->func (job->data);
  g_atomic_int_set (&job->done, 1);
  g_main_context_wakeup (NULL);
  return NULL;
}

static void
run_while_serving (GThreadFunc func, gpointer data, guint timeout_ms)
{
  Job job = { func, data, 0 };
  GThread *thread = g_thread_new ("client", job_main, &job);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!g_atomic_int_get (&job.done) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_atomic_int_get (&job.done));
  g_thread_join (thread);
}

static void
spin (guint ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static guint64
message_status (GVariant *v)
{
  g_autoptr(GVariant) status = g_variant_lookup_value (v, "status", NULL);

  g_assert_nonnull (status);
  if (g_variant_is_of_type (status, G_VARIANT_TYPE_UINT64))
    return g_variant_get_uint64 (status);
  if (g_variant_is_of_type (status, G_VARIANT_TYPE_UINT32))
    return g_variant_get_uint32 (status);
  if (g_variant_is_of_type (status, G_VARIANT_TYPE_INT64))
    return (guint64) g_variant_get_int64 (status);
  g_error ("status of type %s", g_variant_get_type_string (status));
  return 0;
}

static void
send_bytes (int fd, const void *data, gsize len)
{
  g_assert_cmpint (send (fd, data, len, MSG_NOSIGNAL), ==, (gssize) len);
}

static void
send_request (int fd, const char *path)
{
  g_auto(GVariantBuilder) b = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(GBytes) msg = NULL;

  g_variant_builder_add (&b, "{sv}", "request", g_variant_new_string ("GET"));
  g_variant_builder_add (&b, "{sv}", "path", g_variant_new_string (path));
  msg = strobe_store_message_encode (g_variant_builder_end (&b));
  send_bytes (fd, g_bytes_get_data (msg, NULL), g_bytes_get_size (msg));
}

/* ---- the tests --------------------------------------------------------------------- */

static void
test_loopback_default (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-security-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(StrobeStoreServer) server = NULL;

  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  g_assert_true (strobe_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_assert_null (strobe_recorder_get_listen_address (recorder));
  assert_loopback_only ("the recorder", strobe_recorder_get_port (recorder));

  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, 0);
  g_assert_true (strobe_store_server_start (server, &error));
  g_assert_no_error (error);
  assert_loopback_only ("the store server", strobe_store_server_get_port (server));

  close (connect_loopback (strobe_recorder_get_port (recorder)));
  close (connect_loopback (strobe_store_server_get_port (server)));
  strobe_store_server_stop (server);
  strobe_recorder_stop (recorder);
  test_dir_remove_all (dir);
}

typedef struct
{
  guint16  port;
  char    *secret;
} StoreJob;

static gpointer
store_garbage_job (gpointer data)
{
  StoreJob *job = data;
  int stalled, oversize, garbage, good;
  guint8 prefix[4];
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) reply2 = NULL;
  g_autoptr(GVariant) reply3 = NULL;
  gint64 t0;

  /* A client that sends half a length prefix and then nothing. */
  stalled = connect_loopback (job->port);
  send_bytes (stalled, "\x10\x00", 2);

  /* A length prefix of ~4 GiB: refused at once (413), never buffered, connection closed. */
  oversize = connect_loopback (job->port);
  test_store_read_hello (oversize, NULL);
  send_bytes (oversize, "\xf0\xff\xff\xff", 4);
  reply = test_store_read_message (oversize, 5000);
  g_assert_nonnull (reply);
  g_assert_cmpuint (message_status (reply), ==, STROBE_STORE_STATUS_TOO_LARGE);
  g_assert_null (test_store_read_message (oversize, 5000));
  close (oversize);

  /* Just over the request limit: the same. */
  oversize = connect_loopback (job->port);
  test_store_read_hello (oversize, NULL);
  {
    guint32 len = GUINT32_TO_LE (STROBE_STORE_MAX_REQUEST + 1);
    memcpy (prefix, &len, 4);
  }
  send_bytes (oversize, prefix, 4);
  reply2 = test_store_read_message (oversize, 5000);
  g_assert_cmpuint (message_status (reply2), ==, STROBE_STORE_STATUS_TOO_LARGE);
  g_assert_null (test_store_read_message (oversize, 5000));
  close (oversize);

  /* A body that is not CBOR: 400, and the server goes on serving. */
  garbage = connect_loopback (job->port);
  test_store_read_hello (garbage, NULL);
  send_bytes (garbage, "\x08\x00\x00\x00GET / HT", 12);
  {
    g_autoptr(GVariant) r = test_store_read_message (garbage, 5000);
    if (r != NULL)
      g_assert_cmpuint (message_status (r), ==, STROBE_STORE_STATUS_BAD_REQUEST);
  }
  close (garbage);

  /* Meanwhile the stalled client still holds its connection: others are served at once. */
  t0 = g_get_monotonic_time ();
  good = test_store_connect_authed (job->port, job->secret);
  send_request (good, "v1/status");
  reply3 = test_store_read_message (good, 5000);
  g_assert_cmpuint (message_status (reply3), ==, STROBE_STORE_STATUS_OK);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  close (good);
  close (stalled);
  return NULL;
}

static void
test_store_garbage (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-security-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeStoreServer) server = NULL;
  StoreJob job;

  g_assert_no_error (error);
  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, 0);
  g_assert_true (strobe_store_server_start (server, &error));
  g_assert_no_error (error);
  job.port = strobe_store_server_get_port (server);
  job.secret = test_store_secret (dir);
  run_while_serving (store_garbage_job, &job, 30000);
  g_free (job.secret);
  strobe_store_server_stop (server);
  test_dir_remove_all (dir);
}

typedef struct
{
  guint16  port;
  GBytes  *stream;
} RecorderJob;

static gpointer
recorder_garbage_job (gpointer data)
{
  RecorderJob *job = data;
  int silent[4], garbage[4], good;
  gsize len;
  const guint8 *p = g_bytes_get_data (job->stream, &len);

  /* Peers that connect and say nothing, and peers that speak another protocol. */
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    silent[i] = connect_loopback (job->port);
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      /* HTTP, a newer Strobe, a handshake cut short, a TLS ClientHello. */
      static const struct { const char *bytes; gsize len; } junk[] = {
        { "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27 },
        { "STRB\x09\x09\x00\x00", 8 },
        { "STRB\x01\x01\xff\xff" "abc", 11 },
        { "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11 },
      };
      garbage[i] = connect_loopback (job->port);
      send (garbage[i], junk[i].bytes, junk[i].len, MSG_NOSIGNAL);
    }

  /* A real program still gets recorded, at once. */
  good = connect_loopback (job->port);
  send_bytes (good, p, len);
  close (good);
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    close (garbage[i]);
  g_usleep (500 * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    close (silent[i]);
  return NULL;
}

static void
on_session_ended (StrobeRecorder *recorder, StrobeLiveConnection *session, GPtrArray *ended)
{
  g_ptr_array_add (ended, g_object_ref (session));
}

static GBytes *
small_stream (void)
{
  StrobeWireBuf out = { 0 }, scratch = { 0 };
  StrobeWireMetadata meta = { 0 };
  guint8 payload[1000];
  GBytes *bytes;

  meta.program_name = "good-program";
  meta.program_name_len = strlen (meta.program_name);
  meta.process_id = 4321;
  meta.clock_frequency = 1000000000;
  meta.pointer_size = 8;
  meta.trace_id[0] = 1;
  g_assert_true (strobe_wire_write_handshake (&out, &meta));
  memset (payload, 7, sizeof payload);
  g_assert_true (strobe_wire_write_packet (&out, &scratch, STROBE_TID_FIRST_USER, payload,
                                           sizeof payload));
  g_assert_true (strobe_wire_write_control (&out, STROBE_CONTROL_END, NULL, 0));
  bytes = g_bytes_new (out.data, out.len);
  strobe_wire_buf_clear (&out);
  strobe_wire_buf_clear (&scratch);
  return bytes;
}

static void
test_recorder_garbage (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-security-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(GPtrArray) ended = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GBytes) stream = small_stream ();
  RecorderJob job;
  gint64 deadline;
  gboolean recorded = FALSE;

  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  g_assert_true (strobe_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_signal_connect (recorder, "session-ended", G_CALLBACK (on_session_ended), ended);
  job.port = strobe_recorder_get_port (recorder);
  job.stream = stream;
  run_while_serving (recorder_garbage_job, &job, 10000);

  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!recorded && g_get_monotonic_time () < deadline)
    {
      spin (10);
      for (guint i = 0; i < ended->len; i++)
        if (g_strcmp0 (strobe_live_connection_get_program (g_ptr_array_index (ended, i)),
                       "good-program") == 0)
          recorded = TRUE;
    }
  g_assert_true (recorded);
  spin (200);
  g_test_message ("%u connections rejected", strobe_recorder_get_n_rejected (recorder));
  g_assert_cmpuint (strobe_recorder_get_n_rejected (recorder), >=, 3);
  strobe_recorder_stop (recorder);
  test_dir_remove_all (dir);
}

/* ---- hundreds of hostile peers at once ------------------------------------------------ */

#define HOSTILE_RECORDER 300    /* over STROBE_RECORDER_MAX_CONNECTIONS */
#define HOSTILE_STORE    150    /* over STROBE_STORE_SERVER_MAX_CLIENTS */
#define HOSTILE_CONTROL  60     /* over the control server's 16 */

typedef struct
{
  guint16     recorder_port;
  guint16     store_port;
  guint16     control_port;
  const char *discovery_dir;
  GArray     *fds;               /* the hostile sockets, closed by the test at the end */
  char       *channels_reply;
  gboolean    sent;
  gboolean    stopped;
} HostileJob;

static void
keep (HostileJob *job, int fd)
{
  g_array_append_val (job->fds, fd);
}

static gpointer
hostile_job (gpointer data)
{
  HostileJob *job = data;
  g_autoptr(GBytes) stream = small_stream ();
  gsize handshake_len;
  const guint8 *bytes = g_bytes_get_data (stream, NULL);
  g_autoptr(StrobeControlClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *recorder = g_strdup_printf ("127.0.0.1:%u", job->recorder_port);
  g_autofree char *cmd = g_strconcat ("send-to ", recorder, NULL);
  g_autofree char *reply = NULL;

  /* The handshake of small_stream: magic, versions, metadata size, metadata. */
  handshake_len = sizeof (StrobeWireHandshake) + ((const StrobeWireHandshake *) bytes)->metadata_size;
  for (guint i = 0; i < HOSTILE_RECORDER; i++)
    {
      int fd = connect_loopback (job->recorder_port);

      /* Half send a valid handshake and then nothing; half stop inside it. */
      send (fd, bytes, i % 2 ? handshake_len : 3, MSG_NOSIGNAL);
      keep (job, fd);
    }
  for (guint i = 0; i < HOSTILE_STORE; i++)
    {
      int fd = connect_loopback (job->store_port);

      if (i % 2)
        send (fd, "\x10\x00", 2, MSG_NOSIGNAL);   /* half a length prefix */
      keep (job, fd);
    }
  for (guint i = 0; i < HOSTILE_CONTROL; i++)
    {
      int fd = connect_loopback (job->control_port);

      if (i % 2)
        send (fd, "sta", 3, MSG_NOSIGNAL);        /* a line never finished */
      keep (job, fd);
    }
  /* Idle long enough to be the ones to go when a real peer needs room. */
  g_usleep (1500 * 1000);

  /* The program's user controls it, and it records. */
  client = strobe_control_client_new ("127.0.0.1", job->control_port);
  strobe_control_client_set_discovery_directory (client, job->discovery_dir);
  job->channels_reply = strobe_control_client_send (client, "channels", NULL, &error);
  g_assert_no_error (error);
  reply = strobe_control_client_send (client, cmd, NULL, &error);
  g_assert_no_error (error);
  job->sent = TRUE;
  g_usleep (500 * 1000);
  g_clear_pointer (&reply, g_free);
  reply = strobe_control_client_send (client, "stop", NULL, &error);
  g_assert_no_error (error);
  job->stopped = TRUE;
  return NULL;
}

static void
store_done (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (*slot == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (*slot);
  return *slot;
}

static void
test_hostile_peers (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-security-XXXXXX");
  g_autofree char *runtime_dir = test_dir_make_tmp ("strobe-security-XXXXXX");
  g_autofree char *disc = g_build_filename (runtime_dir, "strobe", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(StrobeStoreServer) server = NULL;
  g_autoptr(StrobeStoreClient) client = NULL;
  g_autoptr(GPtrArray) ended = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                                                      | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) program = NULL;
  g_autoptr(GDataInputStream) program_out = NULL;
  g_autoptr(GVariant) list = NULL;
  g_autoptr(GVariant) traces = NULL;
  g_autofree char *ready = NULL;
  GAsyncResult *result = NULL;
  HostileJob job = { 0 };
  struct rlimit rl;
  gboolean listed = FALSE;
  gint64 deadline;

  /* Hundreds of sockets on each side of loopback, all in this process. */
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &rl), ==, 0);
  if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 4096)
    {
      g_test_skip ("fewer than 4096 file descriptors allowed");
      return;
    }
  rl.rlim_cur = 4096;
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &rl), ==, 0);

  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  g_assert_true (strobe_recorder_start (recorder, &error));
  g_signal_connect (recorder, "session-ended", G_CALLBACK (on_session_ended), ended);
  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, 0);
  g_assert_true (strobe_store_server_start (server, &error));
  g_assert_no_error (error);

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "STROBE_TRACE", "Proc", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEHOST");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_CONTROL_PORT");
  program = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("PROCESS_EMITTER"), "serve", NULL);
  g_assert_no_error (error);
  program_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (program));
  ready = g_data_input_stream_read_line (program_out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (ready, "ready "));

  job.recorder_port = strobe_recorder_get_port (recorder);
  job.store_port = strobe_store_server_get_port (server);
  job.control_port = (guint16) atoi (ready + 6);
  job.discovery_dir = disc;
  job.fds = g_array_new (FALSE, FALSE, sizeof (int));
  run_while_serving (hostile_job, &job, 30000);
  g_assert_true (job.sent && job.stopped);
  g_assert_nonnull (strstr (job.channels_reply, "Proc=on"));

  /* The real program's recording ends cleanly, with the hostile peers still there. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  for (gboolean done = FALSE; !done && g_get_monotonic_time () < deadline;)
    {
      spin (20);
      for (guint i = 0; i < ended->len; i++)
        done |= g_strcmp0 (strobe_live_connection_get_program (g_ptr_array_index (ended, i)),
                           "process-emitter") == 0;
    }

  /* A store client still lists it. */
  {
    g_autofree char *secret = test_store_secret (dir);

    strobe_store_client_connect_async ("127.0.0.1", job.store_port, secret, NULL, store_done, &result);
  }
  client = strobe_store_client_connect_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  strobe_store_client_request_async (client, "GET", "v1/trace/list", NULL, NULL, store_done, &result);
  list = strobe_store_client_request_finish (client, wait_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  traces = g_variant_lookup_value (list, "traces", G_VARIANT_TYPE ("av"));
  for (guint i = 0; traces && i < g_variant_n_children (traces); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (traces, i);
      g_autoptr(GVariant) t = g_variant_get_variant (boxed);
      const char *program_name = NULL, *status = NULL;

      g_variant_lookup (t, "program", "&s", &program_name);
      g_variant_lookup (t, "status", "&s", &status);
      if (g_strcmp0 (program_name, "process-emitter") == 0)
        {
          g_assert_cmpstr (status, ==, "finished");
          listed = TRUE;
        }
    }
  g_assert_true (listed);
  g_test_message ("recorder: %u rejected or evicted", strobe_recorder_get_n_rejected (recorder));
  g_assert_cmpuint (strobe_recorder_get_n_rejected (recorder), >=, HOSTILE_RECORDER - STROBE_RECORDER_MAX_CONNECTIONS);

  for (guint i = 0; i < job.fds->len; i++)
    close (g_array_index (job.fds, int, i));
  g_array_unref (job.fds);
  g_free (job.channels_reply);
  g_output_stream_close (g_subprocess_get_stdin_pipe (program), NULL, NULL);
  g_subprocess_wait_check (program, NULL, &error);
  g_assert_no_error (error);
  strobe_store_client_close (client);
  strobe_store_server_stop (server);
  strobe_recorder_stop (recorder);
  test_dir_remove_all (dir);
  test_dir_remove_all (disc);
  test_dir_remove_all (runtime_dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/security/loopback-default", test_loopback_default);
  g_test_add_func ("/security/store-garbage", test_store_garbage);
  g_test_add_func ("/security/recorder-garbage", test_recorder_garbage);
  g_test_add_func ("/security/hostile-peers", test_hostile_peers);
  return g_test_run ();
}
