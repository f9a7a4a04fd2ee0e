/* test-recorder.c — the recorder over real loopback TCP into a temporary store.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "store-test-util.h"
#include "strobe-rate-window.h"
#include "strobe-recorder.h"

typedef struct
{
  char           *dir;
  StrobeStore    *store;
  StrobeRecorder *recorder;
  GPtrArray      *ended;       /* StrobeLiveConnection */
  GPtrArray      *started;     /* StrobeLiveConnection */
  GPtrArray      *rejections;  /* char * reason */
} Fixture;

static void
on_started (StrobeRecorder *recorder, StrobeLiveConnection *session, Fixture *f)
{
  g_ptr_array_add (f->started, g_object_ref (session));
}

static void
on_ended (StrobeRecorder *recorder, StrobeLiveConnection *session, Fixture *f)
{
  g_ptr_array_add (f->ended, g_object_ref (session));
}

static void
on_rejected (StrobeRecorder *recorder, const char *peer, const char *reason, Fixture *f)
{
  g_assert_nonnull (peer);
  g_ptr_array_add (f->rejections, g_strdup (reason));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = test_dir_new ();
  f->store = strobe_store_new (f->dir, &error);
  g_assert_no_error (error);
  f->recorder = strobe_recorder_new (f->store);
  strobe_recorder_set_port (f->recorder, 0);
  strobe_recorder_start (f->recorder, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strobe_recorder_get_port (f->recorder), !=, 0);
  f->started = g_ptr_array_new_with_free_func (g_object_unref);
  f->ended = g_ptr_array_new_with_free_func (g_object_unref);
  f->rejections = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->recorder, "session-started", G_CALLBACK (on_started), f);
  g_signal_connect (f->recorder, "session-ended", G_CALLBACK (on_ended), f);
  g_signal_connect (f->recorder, "connection-rejected", G_CALLBACK (on_rejected), f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->recorder);
  g_clear_object (&f->store);
  g_ptr_array_unref (f->started);
  g_ptr_array_unref (f->ended);
  g_ptr_array_unref (f->rejections);
  test_dir_remove_all (f->dir);
  g_free (f->dir);
}

typedef struct { GPtrArray *array; guint n; } CountWait;

static gboolean
array_has_n (gpointer data)
{
  CountWait *w = data;
  return w->array->len >= w->n;
}

static void
wait_for (GPtrArray *array, guint n, guint timeout_ms)
{
  CountWait w = { array, n };
  g_assert_true (test_wait_until (array_has_n, &w, timeout_ms));
}

static StrobeTrace *
trace_of_session (Fixture *f, StrobeLiveConnection *session)
{
  StrobeTrace *trace = strobe_store_lookup_trace (f->store, strobe_live_connection_get_trace_id (session));
  g_assert_nonnull (trace);
  return trace;
}

/* Waits until the store has seen the writer's final state. */
static gboolean
trace_not_live (gpointer data)
{
  return strobe_trace_get_status (data) != STROBE_TRACE_STATUS_LIVE;
}

static void
test_finished (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("finished-app", 1, 300 * 1024, TRUE, NULL);
  GThread *sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), stream, 4096);
  StrobeLiveConnection *session;
  StrobeTrace *trace;
  guint64 before_ns = (guint64) g_get_real_time () * 1000;

  wait_for (f->ended, 1, 5000);
  g_thread_join (sender);
  session = g_ptr_array_index (f->ended, 0);
  g_assert_cmpstr (strobe_live_connection_get_program (session), ==, "finished-app");
  g_assert_cmpuint (strobe_live_connection_get_pid (session), ==, 4243);
  g_assert_cmpuint (strobe_live_connection_get_control_port (session), ==, 1985);
  g_assert_true (g_str_has_prefix (strobe_live_connection_get_peer_address (session), "127.0.0.1:"));
  g_assert_cmpuint (strobe_live_connection_get_bytes_received (session), ==, g_bytes_get_size (stream));
  g_assert_cmpuint (g_list_model_get_n_items (strobe_recorder_get_sessions (f->recorder)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_sessions (f->store)), ==, 0);

  trace = trace_of_session (f, session);
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_cmpstr (strobe_trace_get_program (trace), ==, "finished-app");
  g_assert_cmpuint (strobe_trace_get_size (trace), ==, g_bytes_get_size (stream));
  /* When the recorder finished it: what the browser's Duration column ends at. */
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), >=, before_ns);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), <=, (guint64) g_get_real_time () * 1000);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream)));
  g_assert_cmpuint (f->rejections->len, ==, 0);
}

static void
test_cut_off (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("killed-app", 2, 200 * 1024, FALSE, NULL);
  GThread *sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), stream, 0);
  StrobeTrace *trace;

  wait_for (f->ended, 1, 5000);
  g_thread_join (sender);
  trace = trace_of_session (f, g_ptr_array_index (f->ended, 0));
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  g_assert_nonnull (strobe_trace_get_reason (trace));
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream)));

  /* A fresh store (another process, later) reaches the same verdict from the files. */
  {
    g_autoptr(StrobeStore) again = strobe_store_new (f->dir, NULL);
    StrobeTrace *t = strobe_store_lookup_trace (again, strobe_trace_get_id (trace));
    g_assert_nonnull (t);
    g_assert_cmpint (strobe_trace_get_status (t), ==, STROBE_TRACE_STATUS_CUT_OFF);
  }
}

static void
test_garbage (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) garbage = g_bytes_new_static ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
  GThread *sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), garbage, 0);
  g_autoptr(GDir) dir = NULL;

  wait_for (f->rejections, 1, 5000);
  g_thread_join (sender);
  g_assert_nonnull (strstr (g_ptr_array_index (f->rejections, 0), "magic"));
  g_assert_cmpuint (strobe_recorder_get_n_rejected (f->recorder), ==, 1);
  g_assert_cmpuint (f->started->len, ==, 0);
  /* Rejected at the handshake: no file was ever created. */
  dir = g_dir_open (f->dir, 0, NULL);
  g_assert_null (g_dir_read_name (dir));
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 0);
}

static void
test_short_handshake (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stub = g_bytes_new_static ("STRB\x01", 5);
  GThread *sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), stub, 0);

  wait_for (f->rejections, 1, 5000);
  g_thread_join (sender);
  g_assert_nonnull (strstr (g_ptr_array_index (f->rejections, 0), "handshake"));
}

static void
test_corrupt_packet (Fixture *f, gconstpointer data)
{
  gsize hs_len;
  g_autoptr(GBytes) good = test_build_stream ("corrupt-app", 3, 50 * 1024, FALSE, &hs_len);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(GBytes) stream = NULL;
  static const guint8 bogus[12] = { 5, 0, 0, 0, 16, 0, 0, 0, 5, 0, 0, 0 };   /* size 5 < 12 */
  StrobeTrace *trace;
  GThread *sender;

  g_byte_array_append (bad, g_bytes_get_data (good, NULL), (guint) g_bytes_get_size (good));
  g_byte_array_append (bad, bogus, sizeof bogus);
  g_byte_array_append (bad, (const guint8 *) "trailing", 8);
  stream = g_byte_array_free_to_bytes (g_steal_pointer (&bad));
  sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), stream, 7);

  wait_for (f->ended, 1, 5000);
  g_thread_join (sender);
  trace = trace_of_session (f, g_ptr_array_index (f->ended, 0));
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  g_assert_nonnull (strstr (strobe_trace_get_reason (trace), "Invalid packet size"));
  /* Cut back to the last whole packet: exactly the good part. */
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (good, NULL), g_bytes_get_size (good)));
}

/* End is the last packet: the trace ends with it and bytes after it are not stored,
 * as no reader reads them (PROTOCOL.md §6). A control packet the decoder rejects (here
 * its raw_size is not size - 12) is not an End, even with End's kind byte. */
static void
test_after_end (Fixture *f, gconstpointer data)
{
  static const guint8 fake_end[13] = { 13, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 2 };
  g_autoptr(GBytes) good = test_build_stream ("after-end-app", 4, 20 * 1024, FALSE, NULL);
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GBytes) stream = NULL;
  StrobeWireBuf end = { 0 };
  StrobeTrace *trace;
  GThread *sender;
  gsize finished_len;

  g_byte_array_append (bytes, g_bytes_get_data (good, NULL), (guint) g_bytes_get_size (good));
  g_byte_array_append (bytes, fake_end, sizeof fake_end);
  g_assert_true (strobe_wire_write_control (&end, STROBE_CONTROL_END, NULL, 0));
  g_byte_array_append (bytes, end.data, (guint) end.len);
  finished_len = bytes->len;
  g_byte_array_append (bytes, end.data, (guint) end.len);
  g_byte_array_append (bytes, (const guint8 *) "trailing garbage", 16);
  strobe_wire_buf_clear (&end);
  stream = g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
  sender = test_send_in_thread (strobe_recorder_get_port (f->recorder), stream, 5);

  wait_for (f->ended, 1, 5000);
  g_thread_join (sender);
  trace = trace_of_session (f, g_ptr_array_index (f->ended, 0));
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), finished_len));
}

#define N_SENDERS 32

static void
test_concurrent (Fixture *f, gconstpointer data)
{
  GBytes *streams[N_SENDERS];
  GThread *senders[N_SENDERS];
  g_autoptr(GHashTable) by_program = g_hash_table_new (g_str_hash, g_str_equal);
  char programs[N_SENDERS][32];

  for (guint i = 0; i < N_SENDERS; i++)
    {
      g_snprintf (programs[i], sizeof programs[i], "sender-%02u", i);
      streams[i] = test_build_stream (programs[i], 100 + i, 1024 * 1024, TRUE, NULL);
      g_hash_table_insert (by_program, programs[i], streams[i]);
    }
  for (guint i = 0; i < N_SENDERS; i++)
    senders[i] = test_send_in_thread (strobe_recorder_get_port (f->recorder), streams[i], 64 * 1024);

  wait_for (f->ended, N_SENDERS, 15000);
  for (guint i = 0; i < N_SENDERS; i++)
    g_thread_join (senders[i]);

  for (guint i = 0; i < f->ended->len; i++)
    {
      StrobeLiveConnection *session = g_ptr_array_index (f->ended, i);
      StrobeTrace *trace = trace_of_session (f, session);
      GBytes *expected = g_hash_table_lookup (by_program, strobe_live_connection_get_program (session));
      g_autofree char *contents = NULL;
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;
      gsize len;

      g_assert_nonnull (expected);
      g_hash_table_remove (by_program, strobe_live_connection_get_program (session));   /* once each */
      g_assert_true (g_file_get_contents (strobe_trace_get_path (trace), &contents, &len, NULL));
      want = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, expected);
      got = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);
      g_assert_cmpstr (got, ==, want);
      g_assert_true (test_wait_until (trace_not_live, trace, 2000));
      g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
    }
  g_assert_cmpuint (g_hash_table_size (by_program), ==, 0);
  for (guint i = 0; i < N_SENDERS; i++)
    g_bytes_unref (streams[i]);
}

/* A live session: visible with its metadata while the sender still sends; the trace is
 * live; stopping the recorder makes it cut off, never "live" forever. */
typedef struct
{
  guint16  port;
  GBytes  *stream;
  GMutex   lock;
  GCond    cond;
  gboolean release;
} HoldJob;

static gpointer
hold_thread (gpointer data)
{
  HoldJob *job = data;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  GOutputStream *out;

  connection = g_socket_client_connect_to_host (client, "127.0.0.1", job->port, NULL, NULL);
  g_assert_nonnull (connection);
  out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_output_stream_write_all (out, g_bytes_get_data (job->stream, NULL),
                             g_bytes_get_size (job->stream), NULL, NULL, NULL);
  g_mutex_lock (&job->lock);
  while (!job->release)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return NULL;
}

static gboolean
trace_has_size (gpointer data)
{
  gpointer *args = data;
  return strobe_trace_get_size (args[0]) == GPOINTER_TO_SIZE (args[1]);
}

static void
test_live_session (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("live-app", 5, 64 * 1024, FALSE, NULL);
  HoldJob job = { strobe_recorder_get_port (f->recorder), stream };
  GThread *thread;
  StrobeLiveConnection *session;
  StrobeTrace *trace;
  gpointer args[2];

  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  thread = g_thread_new ("holder", hold_thread, &job);

  wait_for (f->started, 1, 5000);
  session = g_ptr_array_index (f->started, 0);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_sessions (f->store)), ==, 1);
  g_assert_cmpstr (strobe_live_connection_get_program (session), ==, "live-app");
  g_assert_cmpuint (strobe_live_connection_get_control_port (session), ==, 1985);
  g_assert_true (g_str_has_prefix (strobe_live_connection_get_peer_address (session), "127.0.0.1:"));
  g_assert_true (strobe_store_lookup_session (f->store, strobe_live_connection_get_id (session)) == session);

  trace = trace_of_session (f, session);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_LIVE);
  args[0] = trace;
  args[1] = GSIZE_TO_POINTER (g_bytes_get_size (stream));
  g_assert_true (test_wait_until (trace_has_size, args, 3000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_LIVE);
  /* Renaming or deleting a trace that is being written is refused. */
  g_assert_false (strobe_store_delete_trace (f->store, strobe_trace_get_id (trace), NULL));

  strobe_recorder_stop (f->recorder);
  g_assert_cmpuint (f->ended->len, ==, 1);
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  /* Shutting the recorder down is a user's stop, not a crash, and the record is whole:
   * its end time is known (issue 24 item 11). */
  g_assert_true (strobe_trace_get_stopped (trace));
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), >=, strobe_live_connection_get_start_time_ns (session));
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), <=, (guint64) g_get_real_time () * 1000);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream)));

  g_mutex_lock (&job.lock);
  job.release = TRUE;
  g_cond_signal (&job.cond);
  g_mutex_unlock (&job.lock);
  g_thread_join (thread);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
}

/* The recorder's process died mid-recording: its .live marker names a dead pid. */
static void
test_dead_recorder (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("orphan", 6, 10 * 1024, FALSE, NULL);
  g_autofree char *path = g_build_filename (f->dir, "orphan.strobe", NULL);
  g_autofree char *live = g_build_filename (f->dir, "orphan.strobe.live", NULL);
  g_autofree char *marker = NULL;
  g_autoptr(StrobeStore) store = NULL;
  StrobeTrace *trace;
  pid_t pid;

  /* A pid that certainly is dead: a child we reaped. */
  {
    const char *argv[] = { "/bin/true", NULL };
    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                  NULL, NULL, &pid, NULL));
    waitpid (pid, NULL, 0);
  }
  marker = g_strdup_printf ("[Recorder]\nPid=%d\nHost=%s\n", (int) pid, g_get_host_name ());
  g_assert_true (g_file_set_contents (live, marker, -1, NULL));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL),
                                      (gssize) g_bytes_get_size (stream), NULL));

  /* Its last write, a known moment (the file's time, as a recorder leaves it). */
  {
    struct timespec times[2] = { { 1700000000, 250000000 }, { 1700000000, 250000000 } };
    g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  }

  store = strobe_store_new (f->dir, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (store)), ==, 1);
  trace = g_list_model_get_item (strobe_store_get_traces (store), 0);
  g_object_unref (trace);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  /* The stale marker is cleaned up. */
  g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
  /* The record is finished on this start (issue 24 item 11): the end is the last write,
   * so the trace has a duration; it was a crash, not a user's stop. */
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, G_GUINT64_CONSTANT (1700000000250000000));
  g_assert_false (strobe_trace_get_stopped (trace));
  g_assert_nonnull (strstr (strobe_trace_get_reason (trace), "killed or crashed"));
  g_clear_object (&store);

  /* ... and kept: the next start reads it from the sidecar, without the marker. */
  {
    g_autofree char *info_path = g_build_filename (f->dir, "orphan.strobe.info", NULL);
    g_autoptr(GKeyFile) info = g_key_file_new ();

    g_assert_true (g_key_file_load_from_file (info, info_path, G_KEY_FILE_NONE, NULL));
    g_assert_cmpuint (g_key_file_get_uint64 (info, "Trace", "Ended", NULL), ==,
                      G_GUINT64_CONSTANT (1700000000250000000));
    g_autofree char *status = g_key_file_get_string (info, "Trace", "Status", NULL);

    g_assert_cmpstr (status, ==, "cut-off");
  }
  store = strobe_store_new (f->dir, NULL);
  trace = g_list_model_get_item (strobe_store_get_traces (store), 0);
  g_object_unref (trace);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, G_GUINT64_CONSTANT (1700000000250000000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
}

/* A recorder cut off inside a packet (kill -9 between two reads): the next start scans
 * the file to its last whole packet, keeps the size, and finishes the record. */
static void
test_dead_recorder_mid_packet (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("torn", 8, 10 * 1024, FALSE, NULL);
  g_autofree char *path = g_build_filename (f->dir, "torn.strobe", NULL);
  g_autofree char *live = g_build_filename (f->dir, "torn.strobe.live", NULL);
  g_autofree char *marker = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(StrobeTrace) trace = NULL;
  gsize len = g_bytes_get_size (stream) - 7;   /* the last packet torn */
  struct stat st;
  pid_t pid;

  {
    const char *argv[] = { "/bin/true", NULL };
    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                  NULL, NULL, &pid, NULL));
    waitpid (pid, NULL, 0);
  }
  marker = g_strdup_printf ("[Recorder]\nPid=%d\nHost=%s\n", (int) pid, g_get_host_name ());
  g_assert_true (g_file_set_contents (live, marker, -1, NULL));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL), (gssize) len, NULL));
  g_assert_cmpint (stat (path, &st), ==, 0);

  store = strobe_store_new (f->dir, NULL);
  trace = g_list_model_get_item (strobe_store_get_traces (store), 0);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  g_assert_cmpuint (strobe_trace_get_size (trace), ==, len);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==,
                    (guint64) st.st_mtim.tv_sec * 1000000000u + (guint64) st.st_mtim.tv_nsec);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), >, strobe_trace_get_start_time_ns (trace) - 1);
  g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
}

/* ---- a recorder killed with SIGKILL mid-recording ---------------------------------- */

static const char *self_path;

/* The child: a recorder on a free port, printing the port, until killed. */
static int
run_recorder_child (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  strobe_recorder_start (recorder, &error);
  g_assert_no_error (error);
  g_print ("%u\n", strobe_recorder_get_port (recorder));
  fflush (stdout);
  g_main_loop_run (loop);
  return 0;
}

static gboolean
store_has_live_trace_of_size (gpointer data)
{
  gpointer *args = data;
  GListModel *traces = strobe_store_get_traces (args[0]);
  g_autoptr(StrobeTrace) trace = NULL;

  if (g_list_model_get_n_items (traces) != 1)
    return FALSE;
  trace = g_list_model_get_item (traces, 0);
  return strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE
         && strobe_trace_get_size (trace) == GPOINTER_TO_SIZE (args[1]);
}

static void
test_recorder_killed (void)
{
  g_autofree char *dir = test_dir_new ();
  g_autoptr(GBytes) stream = test_build_stream ("victim", 7, 128 * 1024, FALSE, NULL);
  const char *argv[] = { self_path, "--recorder-child", dir, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(GInputStream) follow = NULL;
  g_autoptr(StrobeTrace) trace = NULL;
  g_autofree guint8 *buf = g_malloc (g_bytes_get_size (stream) + 1);
  char line[32] = { 0 };
  HoldJob job = { 0 };
  GThread *thread;
  gpointer args[2];
  gsize got = 0;
  GPid child;
  int out_fd;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &child, NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (out_fd, line, sizeof line - 1), >, 0);
  close (out_fd);

  job.port = (guint16) atoi (line);
  job.stream = stream;
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  thread = g_thread_new ("holder", hold_thread, &job);

  /* This process is "the viewer": its own store on the same directory sees the live trace. */
  store = strobe_store_new (dir, &error);
  g_assert_no_error (error);
  args[0] = store;
  args[1] = GSIZE_TO_POINTER (g_bytes_get_size (stream));
  g_assert_true (test_wait_until (store_has_live_trace_of_size, args, 5000));
  trace = g_list_model_get_item (strobe_store_get_traces (store), 0);
  follow = strobe_store_open_trace (store, strobe_trace_get_id (trace), 0, TRUE, &error);
  g_assert_no_error (error);

  kill (child, SIGKILL);
  waitpid (child, NULL, 0);
  g_spawn_close_pid (child);

  /* The follower reads every byte, then stops: the recorder is gone. */
  g_assert_true (g_input_stream_read_all (follow, buf, g_bytes_get_size (stream) + 1, &got,
                                          NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (buf, got, g_bytes_get_data (stream, NULL), g_bytes_get_size (stream));
  g_assert_true (test_wait_until (trace_not_live, trace, 3000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream)));

  g_mutex_lock (&job.lock);
  job.release = TRUE;
  g_cond_signal (&job.cond);
  g_mutex_unlock (&job.lock);
  g_thread_join (thread);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  g_clear_object (&follow);
  g_clear_object (&trace);
  g_clear_object (&store);
  test_dir_remove_all (dir);
}

/* ---- strobe-cli serve ended with SIGTERM mid-recording ------------------------------ */

/* The store service gets SIGTERM while a program streams to it: every recording is
 * finished with its end time and marked stopped (a user's act, not a crash), so a viewer
 * shows its duration and "Stopped" (issue 24 item 11). */
static void
test_serve_sigterm (void)
{
  const char *cli = g_getenv ("STROBE_CLI");
  g_autofree char *dir = NULL;
  g_autoptr(GBytes) stream = test_build_stream ("sigterm-app", 9, 64 * 1024, FALSE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(StrobeTrace) trace = NULL;
  g_autofree char *store_arg = NULL;
  char line[256] = { 0 };
  HoldJob job = { 0 };
  GThread *thread;
  gpointer args[2];
  guint64 before_ns;
  GPid child;
  int status = 0;
  int out_fd;

  if (cli == NULL)
    {
      g_test_skip ("STROBE_CLI is not set");
      return;
    }
  dir = test_dir_new ();
  store_arg = g_strdup_printf ("--store-dir=%s", dir);
  {
    const char *argv[] = { cli, "serve", "--recorder-port=0", "--store-port=0", store_arg, NULL };
    g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                             NULL, NULL, &child, NULL, &out_fd, NULL, &error));
    g_assert_no_error (error);
  }
  /* "recorder on port N, store on port M (…)" */
  for (gsize n = 0; n < sizeof line - 1 && !strchr (line, '\n'); )
    {
      ssize_t r = read (out_fd, line + n, sizeof line - 1 - n);
      g_assert_cmpint (r, >, 0);
      n += (gsize) r;
    }
  close (out_fd);
  g_assert_true (g_str_has_prefix (line, "recorder on port "));
  job.port = (guint16) atoi (line + strlen ("recorder on port "));
  g_assert_cmpuint (job.port, >, 0);
  job.stream = stream;
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  thread = g_thread_new ("holder", hold_thread, &job);

  store = strobe_store_new (dir, &error);
  g_assert_no_error (error);
  args[0] = store;
  args[1] = GSIZE_TO_POINTER (g_bytes_get_size (stream));
  g_assert_true (test_wait_until (store_has_live_trace_of_size, args, 5000));
  trace = g_list_model_get_item (strobe_store_get_traces (store), 0);
  before_ns = (guint64) g_get_real_time () * 1000;

  kill (child, SIGTERM);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_spawn_close_pid (child);
  g_assert_true (WIFEXITED (status));

  g_assert_true (test_wait_until (trace_not_live, trace, 3000));
  strobe_store_rescan (store);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);
  g_assert_true (strobe_trace_get_stopped (trace));
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), >=, before_ns);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), <=, (guint64) g_get_real_time () * 1000);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace),
                                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream)));

  g_mutex_lock (&job.lock);
  job.release = TRUE;
  g_cond_signal (&job.cond);
  g_mutex_unlock (&job.lock);
  g_thread_join (thread);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  g_clear_object (&trace);
  g_clear_object (&store);
  test_dir_remove_all (dir);
}

/* ---- slow drips --------------------------------------------------------------------- */

/* The window the recorder judges peers by, on made-up times: old bytes leave it, a young
 * connection is judged over its own life, a drip is a few bytes a second. */
static void
test_rate_window (void)
{
  const gint64 s = G_USEC_PER_SEC, t0 = 5000 * s;   /* any monotonic time */
  StrobeRateWindow w;

  strobe_rate_window_init (&w, 1 * s, t0);
  strobe_rate_window_add (&w, 100, t0);
  g_assert_cmpuint (strobe_rate_window_bytes (&w, t0), ==, 100);
  g_assert_cmpfloat_with_epsilon (strobe_rate_window_rate (&w, t0 + s / 2), 200.0, 1e-6);
  g_assert_cmpuint (strobe_rate_window_bytes (&w, t0 + s - 1), ==, 100);
  g_assert_cmpuint (strobe_rate_window_bytes (&w, t0 + s + s / 4), ==, 0);
  /* A slot reused after a lap forgets what it held. */
  strobe_rate_window_add (&w, 7, t0 + 2 * s);
  g_assert_cmpuint (strobe_rate_window_bytes (&w, t0 + 2 * s), ==, 7);
  strobe_rate_window_clear (&w);

  /* One byte every 0.4 s for 4 s, after a 200-byte handshake: ≈ 2.5 bytes/s once the
   * handshake has left the window, far below a runtime's statistics alone. */
  strobe_rate_window_init (&w, 1 * s, t0);
  strobe_rate_window_add (&w, 200, t0);
  for (int i = 1; i <= 10; i++)
    strobe_rate_window_add (&w, 1, t0 + i * 2 * s / 5);
  g_assert_cmpfloat (strobe_rate_window_rate (&w, t0 + 4 * s), <=, 4.0);
  g_assert_cmpfloat (strobe_rate_window_rate (&w, t0 + 4 * s), >=, 1.0);
  strobe_rate_window_clear (&w);
}

#define DRIP_PEERS 256

typedef struct
{
  guint16  port;
  GBytes  *stream;
  gsize    handshake_len;
  gint     connected;   /* atomic: peers that sent their handshake */
  gint     stop;        /* atomic */
} Drip;

/* Issue 25 item 3: each peer sends a valid handshake, then one byte of a packet every
 * 0.4 s — always "sending", never recording anything. */
static gpointer
drip_thread (gpointer data)
{
  Drip *drip = data;
  const guint8 *bytes = g_bytes_get_data (drip->stream, NULL);
  int fds[DRIP_PEERS];
  gsize at = drip->handshake_len;

  for (guint i = 0; i < DRIP_PEERS; i++)
    {
      fds[i] = test_store_connect_fd (drip->port);
      send (fds[i], bytes, drip->handshake_len, MSG_NOSIGNAL);
      g_atomic_int_inc (&drip->connected);
    }
  while (!g_atomic_int_get (&drip->stop))
    {
      for (guint i = 0; i < DRIP_PEERS; i++)
        send (fds[i], bytes + at, 1, MSG_NOSIGNAL);   /* an evicted peer's send fails: fine */
      at++;
      g_usleep (400 * 1000);
    }
  for (guint i = 0; i < DRIP_PEERS; i++)
    close (fds[i]);
  return NULL;
}

static StrobeLiveConnection *
session_of (GPtrArray *sessions, const char *program)
{
  for (guint i = 0; i < sessions->len; i++)
    if (g_strcmp0 (strobe_live_connection_get_program (g_ptr_array_index (sessions, i)), program) == 0)
      return g_ptr_array_index (sessions, i);
  return NULL;
}

static gboolean
real_app_ended (gpointer data)
{
  return session_of (((Fixture *) data)->ended, "real-app") != NULL;
}

static gboolean
drip_ended (gpointer data)
{
  return session_of (((Fixture *) data)->ended, "drip") != NULL;
}

static void
test_slow_drip (void)
{
  Fixture f = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) real = test_build_stream ("real-app", 3, 100 * 1024, TRUE, NULL);
  Drip drip = { 0 };
  GThread *dripper, *sender;
  StrobeLiveConnection *session;
  StrobeTrace *trace;
  guint evicted = 0;

  f.dir = test_dir_new ();
  f.store = strobe_store_new (f.dir, &error);
  g_assert_no_error (error);
  f.recorder = strobe_recorder_new (f.store);
  strobe_recorder_set_port (f.recorder, 0);
  /* A short window keeps the test short; the rule is the same at the default. */
  strobe_recorder_set_rate_window (f.recorder, 1000);
  g_assert_true (strobe_recorder_start (f.recorder, &error));
  f.started = g_ptr_array_new_with_free_func (g_object_unref);
  f.ended = g_ptr_array_new_with_free_func (g_object_unref);
  f.rejections = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f.recorder, "session-started", G_CALLBACK (on_started), &f);
  g_signal_connect (f.recorder, "session-ended", G_CALLBACK (on_ended), &f);

  drip.port = strobe_recorder_get_port (f.recorder);
  drip.stream = test_build_stream ("drip", 9, 64 * 1024, FALSE, &drip.handshake_len);
  dripper = g_thread_new ("drip", drip_thread, &drip);
  wait_for (f.started, DRIP_PEERS, 20000);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_recorder_get_sessions (f.recorder)), ==, DRIP_PEERS);
  /* Every slot is taken by a peer that has been dripping for longer than the window. */
  test_spin (1500);

  sender = test_send_in_thread (drip.port, real, 4096);
  g_assert_true (test_wait_until (real_app_ended, &f, 20000));
  g_thread_join (sender);
  session = session_of (f.ended, "real-app");
  trace = trace_of_session (&f, session);
  g_assert_true (test_wait_until (trace_not_live, trace, 2000));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_true (test_file_equals (strobe_trace_get_path (trace), g_bytes_get_data (real, NULL),
                                   g_bytes_get_size (real)));
  /* Room was made by ending a dripping peer (its thread reports that a little later),
   * and its trace says why. */
  g_assert_true (test_wait_until (drip_ended, &f, 10000));
  for (guint i = 0; i < f.ended->len; i++)
    {
      StrobeTrace *t = trace_of_session (&f, g_ptr_array_index (f.ended, i));

      if (g_strcmp0 (strobe_live_connection_get_program (g_ptr_array_index (f.ended, i)), "drip") != 0)
        continue;
      g_assert_true (test_wait_until (trace_not_live, t, 2000));
      g_assert_nonnull (strstr (strobe_trace_get_reason (t), "slowest"));
      evicted++;
    }
  g_assert_cmpuint (evicted, >=, 1);

  g_atomic_int_set (&drip.stop, 1);
  g_thread_join (dripper);
  g_bytes_unref (drip.stream);
  strobe_recorder_stop (f.recorder);
  fixture_teardown (&f, NULL);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && g_str_equal (argv[1], "--recorder-child"))
    return run_recorder_child (argv[2]);
  self_path = argv[0];

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/recorder/recorder-killed", test_recorder_killed);
  g_test_add_func ("/recorder/serve-sigterm", test_serve_sigterm);
  g_test_add_func ("/recorder/rate-window", test_rate_window);
  g_test_add_func ("/recorder/slow-drip", test_slow_drip);

#define ADD(name, func) g_test_add ("/recorder/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("finished", test_finished);
  ADD ("cut-off", test_cut_off);
  ADD ("garbage", test_garbage);
  ADD ("short-handshake", test_short_handshake);
  ADD ("corrupt-packet", test_corrupt_packet);
  ADD ("after-end", test_after_end);
  ADD ("concurrent", test_concurrent);
  ADD ("live-session", test_live_session);
  ADD ("dead-recorder", test_dead_recorder);
  ADD ("dead-recorder-mid-packet", test_dead_recorder_mid_packet);
#undef ADD

  return g_test_run ();
}
