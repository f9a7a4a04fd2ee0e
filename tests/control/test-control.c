/* test-control.c — the control server, the tail and discovery, end to end: a real
 * instrumented program (control-target, started with no output) driven through
 * StrobeControlClient, recording into a StrobeRecorder started here.
 *
 * Each program gets its own XDG_RUNTIME_DIR, so discovery sees only it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "strobe-analysis.h"
#include "strobe-auth.h"
#include "strobe-threads-model.h"
#include "strobe-control-address.h"
#include "strobe-clock-align.h"
#include "strobe-clock-measures.h"
#include "strobe-clock-offset.h"
#include "strobe-control-client.h"
#include "strobe-discovery.h"
#include "strobe-recorder.h"
#include "test-log-analyzer.h"
#include "test-dirs.h"

/* ---- the target program ------------------------------------------------------------- */

typedef struct
{
  GSubprocess      *proc;
  GDataInputStream *out;
  GOutputStream    *in;
  char             *runtime_dir;   /* its XDG_RUNTIME_DIR */
  guint16           port;
} Target;

/* @env: NULL-terminated NAME, VALUE pairs. */
static Target *
target_start (const char *period_us, const char *const *env)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  Target *t = g_new0 (Target, 1);

  t->runtime_dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", t->runtime_dir, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEHOST");
  for (guint i = 0; env && env[i]; i += 2)
    g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
  t->proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("CONTROL_TARGET"),
                                         period_us ? period_us : "200", NULL);
  g_assert_no_error (error);
  t->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (t->proc));
  t->in = g_subprocess_get_stdin_pipe (t->proc);
  line = g_data_input_stream_read_line (t->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "ready "));
  t->port = (guint16) atoi (line + 6);
  g_assert_cmpuint (t->port, !=, 0);
  return t;
}

/* strobe_time() in the program, now. */
static guint64
target_time (Target *t)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;

  g_output_stream_write_all (t->in, "time\n", 5, NULL, NULL, &error);
  g_assert_no_error (error);
  line = g_data_input_stream_read_line (t->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "time "));
  return g_ascii_strtoull (line + 5, NULL, 10);
}

static char *
target_discovery_dir (Target *t)
{
  return g_build_filename (t->runtime_dir, "strobe", NULL);
}

static void
target_stop (Target *t)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *disc = target_discovery_dir (t);

  g_output_stream_write_all (t->in, "quit\n", 5, NULL, NULL, NULL);
  g_subprocess_wait_check (t->proc, NULL, &error);
  g_assert_no_error (error);
  /* strobe_shutdown removed the discovery file. */
  {
    g_autofree char *name = g_strdup_printf ("%s.discovery", g_subprocess_get_identifier (t->proc));
    g_autofree char *path = g_build_filename (disc, name, NULL);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }
  g_object_unref (t->out);
  g_object_unref (t->proc);
  test_dir_remove_all (t->runtime_dir);
  g_free (t->runtime_dir);
  g_free (t);
}

/* The client finds the program's secret in its discovery directory, as the CLI and the
 * viewer do in theirs. */
static StrobeControlClient *
target_client (Target *t)
{
  StrobeControlClient *c = strobe_control_client_new ("127.0.0.1", t->port);
  g_autofree char *dir = target_discovery_dir (t);

  strobe_control_client_set_discovery_directory (c, dir);
  return c;
}

static char *
target_secret (Target *t)
{
  g_autofree char *dir = target_discovery_dir (t);
  g_autoptr (StrobeDiscovery) d = strobe_discovery_new (dir);
  g_autoptr (StrobeProcessInfo) info = strobe_discovery_lookup_port (d, t->port);

  g_assert_nonnull (info);
  g_assert_nonnull (strobe_process_info_get_control_secret (info));
  return g_strdup (strobe_process_info_get_control_secret (info));
}

/* ---- the challenge–response by hand (runtime/CONTROL.md, "Authentication") ----------- */

static char *
read_line (GDataInputStream *in)
{
  return g_data_input_stream_read_line (in, NULL, NULL, NULL);
}

static void
write_text (GOutputStream *out, const char *text)
{
  g_autoptr (GError) error = NULL;

  g_output_stream_write_all (out, text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
}

/* Reads the greeting: the server's nonce. */
static void
read_challenge (GDataInputStream *in, uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES])
{
  g_autofree char *line = read_line (in);

  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "strobe-control challenge "));
  g_assert_true (strobe_hex_decode (line + 25, strlen (line + 25), server_nonce, STROBE_AUTH_NONCE_BYTES));
}

/* The client's half with @client_nonce; returns the client proof it sent (hex), checking
 * the server's first. */
static char *
raw_authenticate_with (GDataInputStream *in, GOutputStream *out, const char *secret,
                       const uint8_t client_nonce[STROBE_AUTH_NONCE_BYTES])
{
  uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES];
  char hex[STROBE_AUTH_HEX_SIZE], proof[STROBE_AUTH_HEX_SIZE];
  g_autofree char *auth = NULL, *answer = NULL, *verdict = NULL, *send_proof = NULL;

  read_challenge (in, server_nonce);
  strobe_hex_encode (client_nonce, STROBE_AUTH_NONCE_BYTES, hex, sizeof hex);
  auth = g_strconcat ("auth ", hex, "\n", NULL);
  write_text (out, auth);
  answer = read_line (in);
  g_assert_nonnull (answer);
  g_assert_true (g_str_has_prefix (answer, "ok auth "));
  g_assert_true (strobe_auth_check_hex ("control", STROBE_AUTH_SERVER, secret, strlen (secret), server_nonce,
                                        client_nonce, answer + 8, strlen (answer + 8)));
  g_assert_true (strobe_auth_proof_hex ("control", STROBE_AUTH_CLIENT, secret, strlen (secret), server_nonce,
                                        client_nonce, proof));
  send_proof = g_strconcat ("auth-proof ", proof, "\n", NULL);
  write_text (out, send_proof);
  verdict = read_line (in);
  g_assert_cmpstr (verdict, ==, "ok authenticated");
  return g_strdup (proof);
}

static void
raw_authenticate (GDataInputStream *in, GOutputStream *out, const char *secret)
{
  uint8_t nonce[STROBE_AUTH_NONCE_BYTES];
  g_autofree char *proof = NULL;

  g_assert_true (strobe_auth_nonce (nonce));
  proof = raw_authenticate_with (in, out, secret, nonce);
}

static GSocketConnection *
raw_connect (const char *address, guint16 port, GDataInputStream **in)
{
  g_autoptr (GSocketClient) sc = g_socket_client_new ();
  g_autoptr (GError) error = NULL;
  GSocketConnection *conn = g_socket_client_connect_to_host (sc, address, port, NULL, &error);

  g_assert_no_error (error);
  *in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
  return conn;
}

/* A raw connection that has authenticated. */
static GSocketConnection *
target_raw (Target *t, GDataInputStream **in)
{
  g_autofree char *secret = target_secret (t);
  GSocketConnection *conn = raw_connect ("127.0.0.1", t->port, in);

  raw_authenticate (*in, g_io_stream_get_output_stream (G_IO_STREAM (conn)), secret);
  return conn;
}

/* The server's half, for fake servers that know @secret (they speak first). */
static gboolean
fake_server_authenticate (GDataInputStream *in, GOutputStream *out, const char *secret)
{
  uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES], client_nonce[STROBE_AUTH_NONCE_BYTES];
  char hex[STROBE_AUTH_HEX_SIZE], proof[STROBE_AUTH_HEX_SIZE];
  g_autofree char *greeting = NULL, *auth = NULL, *answer = NULL, *client_proof = NULL;

  g_assert_true (strobe_auth_nonce (server_nonce));
  strobe_hex_encode (server_nonce, sizeof server_nonce, hex, sizeof hex);
  greeting = g_strconcat ("strobe-control challenge ", hex, "\n", NULL);
  write_text (out, greeting);
  auth = read_line (in);
  while (auth && *auth == '\0')   /* the client's keep-alive */
    {
      g_free (auth);
      auth = read_line (in);
    }
  if (auth == NULL || !g_str_has_prefix (auth, "auth ")
      || !strobe_hex_decode (auth + 5, strlen (auth + 5), client_nonce, sizeof client_nonce))
    return FALSE;
  strobe_auth_proof_hex ("control", STROBE_AUTH_SERVER, secret, strlen (secret), server_nonce, client_nonce, proof);
  answer = g_strconcat ("ok auth ", proof, "\n", NULL);
  write_text (out, answer);
  client_proof = read_line (in);
  if (client_proof == NULL || !g_str_has_prefix (client_proof, "auth-proof ")
      || !strobe_auth_check_hex ("control", STROBE_AUTH_CLIENT, secret, strlen (secret), server_nonce,
                                 client_nonce, client_proof + 11, strlen (client_proof + 11)))
    return FALSE;
  write_text (out, "ok authenticated\n");
  return TRUE;
}

static char *
send_ok (StrobeControlClient *c, const char *command)
{
  g_autoptr (GError) error = NULL;
  char *reply = strobe_control_client_send (c, command, NULL, &error);

  g_assert_no_error (error);
  return reply;
}

static void
send_refused (StrobeControlClient *c, const char *command, const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send (c, command, NULL, &error);

  g_assert_null (reply);
  g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED);
  if (expected && !strstr (error->message, expected))
    g_error ("“%s” answered “%s”, expected “%s”", command, error->message, expected);
}

static guint64
status_uint (StrobeControlClient *c, const char *key)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) status = strobe_control_client_status (c, &error);

  g_assert_no_error (error);
  g_assert_true (g_hash_table_contains (status, key));
  return g_ascii_strtoull (g_hash_table_lookup (status, key), NULL, 10);
}

/* ---- what a decoded trace holds --------------------------------------------------- */

typedef struct
{
  gboolean  clean;
  gboolean  spec;           /* Ctl.Spec from before the connect */
  guint16   control_port;
  guint64   frequency;
  GArray   *alpha_times;
  GArray   *beta_times;
  GArray   *beta_toggles;   /* Timestamp of Beta's toggles, alternately on, off */
  GArray   *beta_states;    /* gboolean per toggle */
  guint32   beta_id;
  char     *thread_names;   /* space-separated, sorted */
  guint64   late, gaps;
} Decoded;

enum { R_SPEC, R_ALPHA, R_BETA, R_ANNOUNCE, R_TOGGLE };

static void
on_event (guint route, const StrobeEvent *ev, gpointer data)
{
  Decoded *d = data;
  gint f;

  switch (route)
    {
    case R_SPEC:
      {
        g_autofree char *name = strobe_event_get_string_at (ev, strobe_event_type_find_field (ev->type, "Name"));
        d->spec = g_str_equal (name, "declared-before-connect");
      }
      break;
    case R_ALPHA:
    case R_BETA:
      {
        guint64 time = strobe_event_get_uint_at (ev, strobe_event_type_find_field (ev->type, "Time"));
        g_array_append_val (route == R_ALPHA ? d->alpha_times : d->beta_times, time);
      }
      break;
    case R_ANNOUNCE:
      {
        g_autofree char *name = strobe_event_get_string_at (ev, strobe_event_type_find_field (ev->type, "Name"));
        if (g_str_equal (name, "Beta"))
          d->beta_id = (guint32) strobe_event_get_uint_at (ev, strobe_event_type_find_field (ev->type, "Id"));
      }
      break;
    case R_TOGGLE:
      f = strobe_event_type_find_field (ev->type, "Id");
      if (d->beta_id && strobe_event_get_uint_at (ev, f) == d->beta_id)
        {
          guint64 ts = strobe_event_get_uint_at (ev, strobe_event_type_find_field (ev->type, "Timestamp"));
          gboolean on = strobe_event_get_uint_at (ev, strobe_event_type_find_field (ev->type, "Enabled")) != 0;
          g_array_append_val (d->beta_toggles, ts);
          g_array_append_val (d->beta_states, on);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

static gint
compare_str (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

static Decoded *
decode (const char *path)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeThreadsModel) info = strobe_threads_model_new ();
  g_autoptr (TestFuncAnalyzer) func = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  Decoded *d = g_new0 (Decoded, 1);
  StrobeDecoderStats stats;
  g_autoptr (GArray) threads = NULL;

  d->alpha_times = g_array_new (FALSE, FALSE, sizeof (guint64));
  d->beta_times = g_array_new (FALSE, FALSE, sizeof (guint64));
  d->beta_toggles = g_array_new (FALSE, FALSE, sizeof (guint64));
  d->beta_states = g_array_new (FALSE, FALSE, sizeof (gboolean));
  func = test_func_analyzer_new (R_SPEC, "Ctl", "Spec", on_event, d);
  test_func_analyzer_add (func, R_ALPHA, "Ctl", "Alpha");
  test_func_analyzer_add (func, R_BETA, "Ctl", "Beta");
  test_func_analyzer_add (func, R_ANNOUNCE, "$Trace", "ChannelAnnounce");
  test_func_analyzer_add (func, R_TOGGLE, "$Trace", "ChannelToggle");
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (func));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  d->clean = strobe_decoder_get_ended_cleanly (decoder);
  d->control_port = strobe_decoder_get_metadata (decoder)->control_port;
  d->frequency = strobe_decoder_get_metadata (decoder)->clock_frequency;
  strobe_decoder_get_stats (decoder, &stats);
  d->late = stats.late_events;
  d->gaps = stats.gaps;
  threads = strobe_threads_model_get_threads (info);
  for (guint i = 0; i < threads->len; i++)
    {
      StrobeThreadInfo *th = &g_array_index (threads, StrobeThreadInfo, i);
      if (*th->name)
        g_ptr_array_add (names, th->name);
    }
  g_ptr_array_sort (names, compare_str);
  g_ptr_array_add (names, NULL);
  d->thread_names = g_strjoinv (" ", (char **) names->pdata);
  return d;
}

static void
decoded_free (Decoded *d)
{
  g_array_unref (d->alpha_times);
  g_array_unref (d->beta_times);
  g_array_unref (d->beta_toggles);
  g_array_unref (d->beta_states);
  g_free (d->thread_names);
  g_free (d);
}

static guint
count_before (GArray *times, guint64 t)
{
  guint n = 0;

  for (guint i = 0; i < times->len; i++)
    n += g_array_index (times, guint64, i) < t;
  return n;
}

/* ---- recorder fixture ------------------------------------------------------------- */

typedef struct
{
  char           *dir;
  StrobeStore    *store;
  StrobeRecorder *recorder;
  GPtrArray      *ended;
} Rec;

static void
on_ended (StrobeRecorder *recorder, StrobeLiveConnection *session, Rec *r)
{
  g_ptr_array_add (r->ended, g_object_ref (session));
}

static Rec *
rec_start (void)
{
  g_autoptr (GError) error = NULL;
  Rec *r = g_new0 (Rec, 1);

  r->dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  r->store = strobe_store_new (r->dir, &error);
  g_assert_no_error (error);
  r->recorder = strobe_recorder_new (r->store);
  strobe_recorder_set_port (r->recorder, 0);
  strobe_recorder_start (r->recorder, &error);
  g_assert_no_error (error);
  r->ended = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (r->recorder, "session-ended", G_CALLBACK (on_ended), r);
  return r;
}

static char *
rec_address (Rec *r)
{
  return g_strdup_printf ("127.0.0.1:%u", strobe_recorder_get_port (r->recorder));
}

/* The stored path of the @n-th recording once it has ended. */
static const char *
rec_wait_trace (Rec *r, guint n)
{
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  StrobeTrace *trace;

  while (r->ended->len < n && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  g_assert_cmpuint (r->ended->len, >=, n);
  trace = strobe_store_lookup_trace (r->store,
                                     strobe_live_connection_get_trace_id (g_ptr_array_index (r->ended, n - 1)));
  g_assert_nonnull (trace);
  return strobe_trace_get_path (trace);
}

static void
rec_free (Rec *r)
{
  strobe_recorder_stop (r->recorder);
  g_object_unref (r->recorder);
  g_object_unref (r->store);
  g_ptr_array_unref (r->ended);
  test_dir_remove_all (r->dir);
  g_free (r->dir);
  g_free (r);
}

/* ---- tests -------------------------------------------------------------------------- */

/* The program runs with no output; a client finds it by name, sends it to a recorder,
 * switches Beta on and off, stops; then again. */
static void
test_late_connect (void)
{
  Rec *r = rec_start ();
  Target *t = target_start (NULL, NULL);
  g_autofree char *disc_dir = target_discovery_dir (t);
  g_autoptr (StrobeDiscovery) discovery = strobe_discovery_new (disc_dir);
  g_autoptr (StrobeControlClient) c = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *host = NULL;
  g_autofree char *addr = rec_address (r);
  g_autofree char *reply = NULL;
  guint16 port = 0;
  guint64 connect_time, slack;
  Decoded *d, *d2;

  /* Found by name through discovery, not tracing yet. */
  strobe_discovery_resolve (discovery, "control-target", &host, &port, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (port, ==, t->port);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (discovery)), ==, 1);
  {
    g_autoptr (StrobeProcessInfo) info = g_list_model_get_item (G_LIST_MODEL (discovery), 0);
    g_assert_false (strobe_process_info_get_tracing (info));
    g_assert_cmpstr (strobe_process_info_get_program (info), ==, "control-target");
  }

  g_usleep (300 * 1000);   /* history for the tail */
  c = strobe_control_client_new (host, port);
  strobe_control_client_set_discovery_directory (c, disc_dir);
  g_assert_cmpuint (status_uint (c, "tail_packets"), >, 0);
  connect_time = target_time (t);
  strobe_control_client_send_to (c, addr, &error);
  g_assert_no_error (error);
  strobe_discovery_refresh (discovery);
  {
    g_autoptr (StrobeProcessInfo) info = g_list_model_get_item (G_LIST_MODEL (discovery), 0);
    g_assert_true (strobe_process_info_get_tracing (info));
  }
  g_usleep (100 * 1000);
  strobe_control_client_set_channels (c, "Beta", TRUE, &error);
  g_assert_no_error (error);
  g_usleep (300 * 1000);
  strobe_control_client_set_channels (c, "Beta", FALSE, &error);
  g_assert_no_error (error);
  g_usleep (300 * 1000);
  strobe_control_client_stop (c, &error);
  g_assert_no_error (error);

  d = decode (rec_wait_trace (r, 1));
  g_assert_true (d->clean);
  g_assert_cmpuint (d->control_port, ==, t->port);
  /* Names from before the connect resolved: the important cache came first. */
  g_assert_true (d->spec);
  g_assert_nonnull (strstr (d->thread_names, "alpha-worker"));
  g_assert_nonnull (strstr (d->thread_names, "beta-worker"));
  /* The tail: history from before the connect. */
  g_assert_cmpuint (count_before (d->alpha_times, connect_time), >, 100);
  /* Beta toggled on then off, and none of its events outside that window. An event reads
   * its time after its channel check, and the toggle its timestamp after switching the
   * flag, so a preempted thread can put either a little off: allow 100 ms of slack (Beta
   * logs every ~200 µs, so a leaking gate would show thousands of events out there). */
  g_assert_cmpuint (d->beta_toggles->len, ==, 2);
  g_assert_true (g_array_index (d->beta_states, gboolean, 0));
  g_assert_false (g_array_index (d->beta_states, gboolean, 1));
  g_assert_cmpuint (d->beta_times->len, >, 10);
  slack = d->frequency / 10;
  for (guint i = 0; i < d->beta_times->len; i++)
    {
      guint64 bt = g_array_index (d->beta_times, guint64, i);
      g_assert_cmpuint (bt + slack, >=, g_array_index (d->beta_toggles, guint64, 0));
      g_assert_cmpuint (bt, <=, g_array_index (d->beta_toggles, guint64, 1) + slack);
    }
  g_test_message ("first trace: %u alpha (%u before connect), %u beta, %" G_GUINT64_FORMAT
                  " late, %" G_GUINT64_FORMAT " gaps", d->alpha_times->len,
                  count_before (d->alpha_times, connect_time), d->beta_times->len, d->late, d->gaps);

  /* A second connect after stop: complete on its own, without the first one's events. */
  g_usleep (100 * 1000);
  reply = send_ok (c, "channels");
  g_assert_nonnull (strstr (reply, "Beta=off"));
  strobe_control_client_send_to (c, addr, &error);
  g_assert_no_error (error);
  g_usleep (100 * 1000);
  strobe_control_client_stop (c, &error);
  g_assert_no_error (error);
  d2 = decode (rec_wait_trace (r, 2));
  g_assert_true (d2->clean);
  g_assert_true (d2->spec);
  g_assert_nonnull (strstr (d2->thread_names, "alpha-worker"));
  g_assert_cmpuint (d2->alpha_times->len, >, 0);
  g_assert_cmpuint (g_array_index (d2->alpha_times, guint64, 0), >,
                    g_array_index (d->alpha_times, guint64, d->alpha_times->len - 1));
  g_assert_cmpuint (d2->beta_times->len, ==, 0);

  decoded_free (d);
  decoded_free (d2);
  target_stop (t);
  rec_free (r);
}

/* A connect that asks for less history than the ring holds: tail=0 replays none of it,
 * a limit above 0 some. */
static void
test_tail_requested (void)
{
  Rec *r = rec_start ();
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autoptr (GError) error = NULL;
  g_autofree char *addr = rec_address (r);
  guint64 connect_time, margin;
  Decoded *none, *some;

  g_usleep (300 * 1000);   /* history for the tail */
  connect_time = target_time (t);
  strobe_control_client_send_to_tail (c, addr, 0, &error);
  g_assert_no_error (error);
  g_usleep (100 * 1000);
  strobe_control_client_stop (c, &error);
  g_assert_no_error (error);
  none = decode (rec_wait_trace (r, 1));
  g_assert_true (none->clean);
  g_assert_true (none->spec);   /* the important cache is always replayed */
  /* Events committed but not yet drained at the connect are live data, not tail: allow
   * 50 ms before the connect, nothing older. */
  margin = none->frequency / 20;
  g_assert_cmpuint (count_before (none->alpha_times, connect_time - margin), ==, 0);
  g_assert_cmpuint (none->alpha_times->len, >, 0);

  g_usleep (300 * 1000);
  connect_time = target_time (t);
  strobe_control_client_send_to_tail (c, addr, 64 * 1024, &error);
  g_assert_no_error (error);
  g_usleep (100 * 1000);
  strobe_control_client_stop (c, &error);
  g_assert_no_error (error);
  some = decode (rec_wait_trace (r, 2));
  g_assert_true (some->clean);
  /* A limit that is not 0 still replays history. */
  g_assert_cmpuint (count_before (some->alpha_times, connect_time - margin), >, 0);

  decoded_free (none);
  decoded_free (some);
  target_stop (t);
  rec_free (r);
}

/* The asked port is taken: the server hops, and the trace says where it went. */
static void
test_port_hop (void)
{
  g_autoptr (GSocketListener) listener = g_socket_listener_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) c = NULL;
  g_autofree char *taken = NULL;
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "hop.strobe", NULL);
  g_autofree char *cmd = g_strconcat ("write-to ", file, NULL);
  g_autofree char *r1 = NULL, *r2 = NULL;
  const char *env[3] = { "STROBE_CONTROL_PORT", NULL, NULL };
  guint16 port;
  Target *t;
  Decoded *d;

  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  taken = g_strdup_printf ("%u", port);
  env[1] = taken;
  t = target_start (NULL, env);
  g_assert_cmpuint (t->port, !=, port);
  c = target_client (t);
  r1 = send_ok (c, cmd);
  g_usleep (50 * 1000);
  r2 = send_ok (c, "stop");
  d = decode (file);
  g_assert_cmpuint (d->control_port, ==, t->port);
  decoded_free (d);
  target_stop (t);
  test_dir_remove_all (dir);
}

/* Malformed and oversize lines are answered with an error, counted, and not run; the
 * connection stays usable. */
static void
test_malformed (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (GSocketConnection) conn = NULL;
  g_autoptr (GDataInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) c = NULL;
  g_autoptr (GString) big = g_string_new (NULL);
  GOutputStream *out;
  const char *bad[] = {
    "frobnicate\n", "channels Beta maybe\n", "send-to\n", "send-to a b\n", "snapshot\n",
    "snapshot print-to x\n", "stop now\n", "status\x01\n",
  };
  char *line;

  conn = target_raw (t, &in);
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_output_stream_write_all (out, bad[i], strlen (bad[i]), NULL, NULL, &error);
      g_assert_no_error (error);
      line = g_data_input_stream_read_line (in, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (line, "error "));
      g_free (line);
    }
  /* 64 KiB without a newline, then "stop": one error for the whole line, nothing run. */
  for (guint i = 0; i < 64 * 1024 / 8; i++)
    g_string_append (big, "channels");
  g_string_append (big, " all on\r\nstatus\r\n");
  g_output_stream_write_all (out, big->str, big->len, NULL, NULL, &error);
  g_assert_no_error (error);
  line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_cmpstr (line, ==, "error line too long (limit 1024 bytes)");
  g_free (line);
  line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_true (g_str_has_prefix (line, "ok program=control-target"));
  g_assert_nonnull (strstr (line, " oversize=1 "));
  g_assert_nonnull (strstr (line, " malformed=8 "));
  g_free (line);

  c = target_client (t);
  {
    g_autoptr (GHashTable) channels = strobe_control_client_list_channels (c, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (g_hash_table_lookup (channels, "Beta"), ==, "off");   /* "all on" never ran */
    g_assert_cmpstr (g_hash_table_lookup (channels, "Alpha"), ==, "on");
  }
  g_assert_cmpuint (status_uint (c, "oversize"), ==, 1);
  g_assert_cmpuint (status_uint (c, "tracing"), ==, 0);
  target_stop (t);
}

/* With a write directory, write-to stays inside it whatever the path says. */
static void
test_write_dir (void)
{
  g_autofree char *base = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *allowed = g_build_filename (base, "allowed", NULL);
  g_autofree char *outside = g_build_filename (base, "outside", NULL);
  g_autofree char *link_dir = g_build_filename (allowed, "escape", NULL);
  g_autofree char *link_file = g_build_filename (allowed, "trap.strobe", NULL);
  g_autofree char *victim = g_build_filename (outside, "victim.strobe", NULL);
  g_autofree char *abs_out = g_strconcat ("write-to ", outside, "/abs.strobe", NULL);
  g_autofree char *abs_in = g_strconcat ("write-to ", allowed, "/abs-in.strobe", NULL);
  g_autofree char *good = g_build_filename (allowed, "sub", "good.strobe", NULL);
  g_autofree char *sub = g_build_filename (allowed, "sub", NULL);
  const char *env[] = { "STROBE_CONTROL_WRITE_DIR", allowed, NULL };
  g_autoptr (StrobeControlClient) c = NULL;
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL;
  Target *t;

  g_assert_cmpint (g_mkdir (allowed, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (outside, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_cmpint (symlink (outside, link_dir), ==, 0);
  g_assert_cmpint (symlink (victim, link_file), ==, 0);
  t = target_start (NULL, env);
  c = target_client (t);

  send_refused (c, "write-to ../outside/x.strobe", "escapes");
  send_refused (c, "write-to sub/../../outside/x.strobe", "escapes");
  send_refused (c, abs_out, "escapes");
  send_refused (c, "write-to escape/x.strobe", "escapes");       /* symlinked directory */
  send_refused (c, "write-to trap.strobe", "symbolic link");     /* symlinked file */
  send_refused (c, "snapshot write-to ../snap.strobe", "escapes");
  g_assert_cmpuint (status_uint (c, "refused"), ==, 6);
  g_assert_false (g_file_test (victim, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (status_uint (c, "tracing"), ==, 0);

  r1 = send_ok (c, "write-to sub/good.strobe");
  r2 = send_ok (c, "stop");
  g_assert_true (g_file_test (good, G_FILE_TEST_IS_REGULAR));
  r3 = send_ok (c, abs_in);
  r4 = send_ok (c, "stop");
  target_stop (t);
  test_dir_remove_all (base);
}

static gboolean
interface_address (char *buf, gsize size)
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
          found = inet_ntop (AF_INET, &a, buf, (socklen_t) size) != NULL;
      }
  freeifaddrs (list);
  return found;
}

/* The listening address in /proc/net/tcp for @port, as hex ("0100007F" = 127.0.0.1). */
static char *
listen_address (guint16 port)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *want = g_strdup_printf (":%04X", port);

  g_assert_true (g_file_get_contents ("/proc/net/tcp", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr (GPtrArray) w = g_ptr_array_new ();
      for (guint j = 0; f[j]; j++)
        if (*f[j])
          g_ptr_array_add (w, f[j]);
      if (w->len > 3 && g_str_has_suffix (w->pdata[1], want) && g_str_equal (w->pdata[3], "0A"))
        return g_strndup (w->pdata[1], 8);
    }
  return NULL;
}

/* Loopback only unless asked; a remote peer may not write-to without a write directory. */
static void
test_listen (void)
{
  const char *env_all[] = { "STROBE_CONTROL_LISTEN", "all", NULL };
  char ip[64];
  Target *t = target_start (NULL, NULL);
  g_autofree char *a1 = listen_address (t->port);
  g_autofree char *a2 = NULL;

  g_assert_cmpstr (a1, ==, "0100007F");
  target_stop (t);

  t = target_start (NULL, env_all);
  a2 = listen_address (t->port);
  g_assert_cmpstr (a2, ==, "00000000");
  if (interface_address (ip, sizeof ip))
    {
      g_autoptr (StrobeControlClient) remote = strobe_control_client_new (ip, t->port);
      g_autoptr (StrobeControlClient) local = target_client (t);
      g_autofree char *secret = target_secret (t);
      g_autofree char *reply = NULL;

      /* A client never sends a local program's secret to another host by itself. */
      send_refused (remote, "status", "authentication required");
      strobe_control_client_set_secret (remote, secret);
      reply = send_ok (remote, "status");   /* reads are fine */

      send_refused (remote, "write-to /tmp/strobe-control-remote.strobe", "remote");
      g_assert_false (g_file_test ("/tmp/strobe-control-remote.strobe", G_FILE_TEST_EXISTS));
      g_assert_cmpuint (status_uint (local, "refused"), ==, 2);
    }
  else
    g_test_message ("no non-loopback IPv4 address: remote write-to not tested");
  target_stop (t);
}

/* A snapshot of recent history while tracing carries on. */
static void
test_snapshot (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *main_file = g_build_filename (dir, "main.strobe", NULL);
  g_autofree char *snap_file = g_build_filename (dir, "snap.strobe", NULL);
  g_autofree char *c1 = g_strconcat ("write-to ", main_file, NULL);
  g_autofree char *c2 = g_strconcat ("snapshot write-to ", snap_file, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL;
  guint64 before;
  Decoded *snap, *full;

  g_usleep (200 * 1000);
  before = target_time (t);
  r1 = send_ok (c, c1);
  g_usleep (200 * 1000);
  r2 = send_ok (c, c2);
  g_assert_cmpuint (status_uint (c, "tracing"), ==, 1);
  g_usleep (100 * 1000);
  r3 = send_ok (c, "stop");

  snap = decode (snap_file);
  full = decode (main_file);
  g_assert_true (snap->clean);
  g_assert_true (snap->spec);
  g_assert_nonnull (strstr (snap->thread_names, "alpha-worker"));
  /* The whole tail: from before the output started, through the snapshot. */
  g_assert_cmpuint (count_before (snap->alpha_times, before), >, 0);
  g_assert_cmpuint (snap->alpha_times->len, >, count_before (snap->alpha_times, before));
  /* The output went on past the snapshot. */
  g_assert_cmpuint (g_array_index (full->alpha_times, guint64, full->alpha_times->len - 1), >,
                    g_array_index (snap->alpha_times, guint64, snap->alpha_times->len - 1));
  decoded_free (snap);
  decoded_free (full);
  target_stop (t);
  test_dir_remove_all (dir);
}

/* The tail is bounded by its size; 0 disables it. */
static void
test_tail_size (void)
{
  const char *env_off[] = { "STROBE_TAIL_MB", "0", NULL };
  const char *env_one[] = { "STROBE_TAIL_MB", "1", NULL };
  Target *t = target_start ("20", env_off);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autoptr (StrobeControlClient) c2 = NULL;

  g_usleep (200 * 1000);
  g_assert_cmpuint (status_uint (c, "tail_limit"), ==, 0);
  g_assert_cmpuint (status_uint (c, "tail_packets"), ==, 0);
  target_stop (t);

  t = target_start ("0", env_one);
  c2 = target_client (t);
  g_usleep (500 * 1000);
  g_assert_cmpuint (status_uint (c2, "tail_limit"), ==, 1024 * 1024);
  g_assert_cmpuint (status_uint (c2, "tail_bytes"), <=, 1024 * 1024);
  g_assert_cmpuint (status_uint (c2, "tail_bytes"), >, 512 * 1024);
  target_stop (t);
}

/* Discovery follows programs as they come, change state and go; stale entries vanish. */
static void
count_changes (GListModel *model, guint pos, guint removed, guint added, guint *n)
{
  (*n)++;
}

static void
test_discovery (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *dir = target_discovery_dir (t);
  g_autofree char *stale = g_build_filename (dir, "999999999.discovery", NULL);
  g_autofree char *recycled = g_strdup_printf ("%s/%u.discovery", dir, (guint) getpid ());
  g_autoptr (StrobeDiscovery) discovery = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autofree char *r1 = NULL, *r2 = NULL;
  g_autofree char *file = g_build_filename (t->runtime_dir, "d.strobe", NULL);
  g_autofree char *cmd = g_strconcat ("write-to ", file, NULL);
  g_autofree char *host = NULL;
  guint changes = 0;
  guint16 port;
  gint64 until;

  /* A dead process's entry, and one whose pid was reused (our pid, other start ticks). */
  g_assert_true (g_file_set_contents (stale, "strobe-discovery=1\nprogram=ghost\npid=999999999\ncontrol_port=1985\n", -1, NULL));
  {
    g_autofree char *text = g_strdup_printf ("strobe-discovery=1\nprogram=ghost\npid=%u\ncontrol_port=1985\nproc_start_ticks=1\n",
                                             (guint) getpid ());
    g_assert_true (g_file_set_contents (recycled, text, -1, NULL));
  }
  discovery = strobe_discovery_new (dir);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (discovery)), ==, 1);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (recycled, G_FILE_TEST_EXISTS));
  strobe_discovery_resolve (discovery, "ghost", &host, &port, &error);
  g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The monitor sees the tracing state change without a refresh from us. */
  strobe_discovery_watch (discovery, &error);
  g_assert_no_error (error);
  g_signal_connect (discovery, "items-changed", G_CALLBACK (count_changes), &changes);
  r1 = send_ok (c, cmd);
  until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (changes == 0 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  {
    g_autoptr (StrobeProcessInfo) info = g_list_model_get_item (G_LIST_MODEL (discovery), 0);
    g_assert_true (strobe_process_info_get_tracing (info));
    g_assert_true (g_str_has_prefix (strobe_process_info_get_output (info), "file:"));
  }
  r2 = send_ok (c, "stop");
  g_object_unref (g_steal_pointer (&discovery));
  target_stop (t);
}

/* Async commands run in order and complete on the caller's context. */
typedef struct
{
  GPtrArray *replies;
  guint      pending;
} AsyncState;

static void
async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncState *s = data;
  GError *error = NULL;
  char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (source), result, &error);

  g_ptr_array_add (s->replies, reply ? reply : g_strdup_printf ("ERROR %s", error->message));
  g_clear_error (&error);
  s->pending--;
}

static void
test_async (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  AsyncState s = { g_ptr_array_new_with_free_func (g_free), 4 };

  strobe_control_client_send_async (c, "channels Beta on", NULL, async_done, &s);
  strobe_control_client_send_async (c, "channels", NULL, async_done, &s);
  strobe_control_client_send_async (c, "bogus", NULL, async_done, &s);
  strobe_control_client_send_async (c, "channels Beta off", NULL, async_done, &s);
  while (s.pending)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (s.replies->pdata[0], ==, "channels Beta on");
  g_assert_nonnull (strstr (s.replies->pdata[1], "Beta=on"));
  g_assert_cmpstr (s.replies->pdata[2], ==, "ERROR unknown command");
  g_assert_cmpstr (s.replies->pdata[3], ==, "channels Beta off");
  g_ptr_array_unref (s.replies);
  target_stop (t);
}

/* `clock` over a real control connection: the reply parses, every round trip counts, and
 * on loopback the stated uncertainty (half the best round trip) is small. */
static void
test_clock (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) pairs = NULL;
  g_autofree char *reply = NULL;
  StrobeClockOffset offset;

  reply = strobe_control_client_send (c, "clock", NULL, &error);
  g_assert_no_error (error);
  pairs = strobe_control_parse_pairs (reply);
  g_assert_nonnull (g_hash_table_lookup (pairs, "ticks"));
  g_assert_nonnull (g_hash_table_lookup (pairs, "frequency"));
  g_assert_nonnull (g_hash_table_lookup (pairs, "ns"));
  g_assert_cmpuint (strlen (g_hash_table_lookup (pairs, "domain")), ==, 32);
  g_assert_true (strobe_control_client_measure_clock (c, 8, &offset, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (offset.samples, ==, 8);
  g_assert_cmpuint (offset.uncertainty_ns, <, 50 * G_TIME_SPAN_MILLISECOND * 1000);
  g_test_message ("control.clock_uncertainty %" G_GUINT64_FORMAT " ns (best of 8 on loopback)",
                  offset.uncertainty_ns);
  target_stop (t);
}

/* Across machines the offset comes from round trips whose two directions may take very
 * different times: simulated here, with a known offset, one-way delays from 20 µs to 40 ms
 * drawn independently each way. The stated uncertainty always contains the true offset,
 * and more round trips make it no larger. */
static void
test_clock_offset_simulated (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  const gint64 truth = G_GINT64_CONSTANT (-1234567890123);   /* the other host is behind */

  for (guint trial = 0; trial < 200; trial++)
    {
      StrobeClockSample samples[16];
      guint64 previous = G_MAXUINT64;

      for (guint n = 1; n <= G_N_ELEMENTS (samples); n++)
        {
          StrobeClockSample *s = &samples[n - 1];
          StrobeClockOffset o;
          gint64 there = g_rand_int_range (rand, 20000, 40000000);
          gint64 back = g_rand_int_range (rand, 20000, 40000000);

          s->sent_ns = 1000000000 + (gint64) trial * 100000000 + (gint64) n * 1000000;
          s->remote_ns = s->sent_ns + there + truth;
          s->received_ns = s->sent_ns + there + g_rand_int_range (rand, 0, 5000) + back;
          g_assert_true (strobe_clock_offset_from_samples (samples, n, &o));
          g_assert_cmpuint (o.samples, ==, n);
          g_assert_cmpint (ABS (o.offset_ns - truth), <=, (gint64) o.uncertainty_ns);
          g_assert_cmpuint (o.uncertainty_ns, <=, previous);
          previous = o.uncertainty_ns;
        }
    }
  /* A reply before its request is no sample. */
  {
    StrobeClockSample bad = { 100, 50, 0 };
    StrobeClockOffset o;
    g_assert_false (strobe_clock_offset_from_samples (&bad, 1, &o));
  }
}

/* ---- a delaying proxy: another host's network, simulated -------------------------------- */

typedef struct
{
  GSocket *from, *to;
  gulong   delay_us;   /* every chunk waits this long before it is passed on */
} Pump;

static gpointer
pump_thread (gpointer data)
{
  Pump *p = data;
  char buf[4096];
  gssize n;

  while ((n = g_socket_receive (p->from, buf, sizeof buf, NULL, NULL)) > 0)
    {
      gsize done = 0;

      g_usleep (p->delay_us);
      while (done < (gsize) n)
        {
          gssize w = g_socket_send (p->to, buf + done, (gsize) n - done, NULL, NULL);
          if (w <= 0)
            break;
          done += (gsize) w;
        }
    }
  g_socket_shutdown (p->to, FALSE, TRUE, NULL);
  return NULL;
}

typedef struct
{
  GSocket *listener;
  guint16  port;          /* where the client connects */
  guint16  target_port;
  Pump     there, back;
  GThread *accept_thread, *pumps[2];
} Proxy;

static gpointer
proxy_accept_thread (gpointer data)
{
  Proxy *x = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) addr = g_inet_socket_address_new (lo, x->target_port);

  x->there.from = g_socket_accept (x->listener, NULL, &error);
  g_assert_no_error (error);
  x->there.to = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_connect (x->there.to, addr, NULL, &error));
  g_socket_set_option (x->there.from, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  g_socket_set_option (x->there.to, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  x->back.from = x->there.to;
  x->back.to = x->there.from;
  x->pumps[0] = g_thread_new ("proxy-there", pump_thread, &x->there);
  x->pumps[1] = g_thread_new ("proxy-back", pump_thread, &x->back);
  return NULL;
}

/* One connection to @target_port, delayed by @there_us towards it and @back_us back. */
static Proxy *
proxy_start (guint16 target_port, gulong there_us, gulong back_us)
{
  Proxy *x = g_new0 (Proxy, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;

  x->target_port = target_port;
  x->there.delay_us = there_us;
  x->back.delay_us = back_us;
  x->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (x->listener, any, TRUE, &error));
  g_assert_true (g_socket_listen (x->listener, &error));
  bound = g_socket_get_local_address (x->listener, &error);
  g_assert_no_error (error);
  x->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  x->accept_thread = g_thread_new ("proxy-accept", proxy_accept_thread, x);
  return x;
}

static void
proxy_stop (Proxy *x)
{
  g_thread_join (x->accept_thread);
  g_socket_shutdown (x->there.from, TRUE, TRUE, NULL);
  g_socket_shutdown (x->there.to, TRUE, TRUE, NULL);
  for (guint i = 0; i < 2; i++)
    g_thread_join (x->pumps[i]);
  g_object_unref (x->there.from);
  g_object_unref (x->there.to);
  g_object_unref (x->listener);
  g_free (x);
}

/* The measure read back from the trace places the program on the axis of a trace that
 * reads this machine's CLOCK_MONOTONIC (made up here: the measurer's own clock) where it
 * truly is: a tick the program read between two readings of our clock lands between them
 * on the axis, give or take the stated uncertainty — the sign conventions of the runtime's
 * `ns`, the measure and the alignment agree. */
static void
check_placed_by_measure (StrobeControlClient *direct, const StrobeWireMetadata *far_meta, GArray *measures,
                         const char *domain_hex)
{
  StrobeWireMetadata ref_meta = { 0 };
  StrobeClockAlignMember m[2] = { { 0 } };
  const StrobeClockMeasure *best = &g_array_index (measures, StrobeClockMeasure, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) pairs = NULL;
  g_autofree char *reply = NULL;
  struct timespec ts;
  guint64 before, after, ticks = 0;
  gdouble at, lo, hi, u = (gdouble) best->uncertainty_ns * 1e-9;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  before = (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
  reply = strobe_control_client_send (direct, "clock", NULL, &error);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  after = (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
  g_assert_no_error (error);
  pairs = strobe_control_parse_pairs (reply);
  g_assert_true (g_ascii_string_to_unsigned (g_hash_table_lookup (pairs, "ticks"), 10, 0, G_MAXUINT64, &ticks, NULL));

  ref_meta.clock_source = 0;
  for (int i = 0; i < 16; i++)
    {
      char byte[3] = { domain_hex[2 * i], domain_hex[2 * i + 1], 0 };
      ref_meta.clock_domain[i] = (guint8) strtoul (byte, NULL, 16);
    }
  ref_meta.clock_frequency = 1000000000;
  ref_meta.clock_origin = before - 1000000000;                       /* a second before */
  ref_meta.start_time_ns = far_meta->start_time_ns - 1000000000;     /* the earlier starter */
  m[0].metadata = &ref_meta;
  m[1].metadata = far_meta;
  m[1].measures = (const StrobeClockMeasure *) measures->data;
  m[1].n_measures = measures->len;
  for (guint i = 0; i < 2; i++)
    strobe_trace_clock_init (&m[i].clock, m[i].metadata);
  strobe_clock_align (m, 2);
  g_assert_cmpint (m[0].alignment, ==, STROBE_CLOCK_ALIGN_REFERENCE);
  g_assert_cmpint (m[1].alignment, ==, STROBE_CLOCK_ALIGN_OFFSET);
  at = strobe_trace_clock_to_seconds (&m[1].clock, ticks);
  lo = strobe_trace_clock_to_seconds (&m[0].clock, before);
  hi = strobe_trace_clock_to_seconds (&m[0].clock, after);
  g_test_message ("control.clock_placed %.1f µs after our first reading (read between, within ± %.1f µs)",
                  (at - lo) * 1e6, u * 1e6);
  g_assert_cmpfloat (at, >=, lo - u);
  g_assert_cmpfloat (at, <=, hi + u);
}

/* A program reached through a network whose two directions differ (12 ms there, 1 ms
 * back, as a proxy delays them): the offset measured through it, recorded in the
 * program's trace, is the one measured directly on loopback — the truth, to a few µs —
 * within the uncertainty it states, although the asymmetry alone moves its estimate by
 * several ms. The trace then carries it as $Trace.ClockOffset, field for field. */
static void
test_clock_offset_recorded (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) direct = target_client (t);
  g_autoptr (StrobeControlClient) far = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeClockMeasures) measures = strobe_clock_measures_new ();
  g_autoptr (GArray) got = NULL;
  g_autofree char *secret = target_secret (t);
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "far.strobe", NULL);
  g_autofree char *cmd = g_strconcat ("write-to ", file, NULL);
  g_autofree char *r1 = NULL, *r2 = NULL;
  StrobeClockOffset truth, measured;
  gboolean recorded = FALSE;
  char ours[33];
  Proxy *proxy = proxy_start (t->port, 12000, 1000);
  gint64 error_ns;

  far = strobe_control_client_new ("127.0.0.1", proxy->port);
  strobe_control_client_set_secret (far, secret);
  g_assert_true (strobe_control_client_sync_clock (far, 8, TRUE, &measured, &recorded, &error));
  g_assert_no_error (error);
  g_assert_true (recorded);
  g_assert_true (strobe_control_client_measure_clock (direct, 8, &truth, &error));
  g_assert_no_error (error);
  error_ns = ABS (measured.offset_ns - truth.offset_ns);
  g_test_message ("control.clock_offset_through_proxy error %" G_GINT64_FORMAT " ns, stated ± %"
                  G_GUINT64_FORMAT " ns (direct ± %" G_GUINT64_FORMAT " ns)", error_ns,
                  measured.uncertainty_ns, truth.uncertainty_ns);
  g_assert_cmpuint (measured.uncertainty_ns, >=, 6500 * 1000);       /* half of 13 ms at least */
  g_assert_cmpint (error_ns, >, 3000 * 1000);                        /* (12 - 1) / 2 ms of bias */
  g_assert_cmpint (error_ns, <=, (gint64) (measured.uncertainty_ns + truth.uncertainty_ns));
  g_assert_true (strobe_clock_local_domain (ours));
  g_assert_cmpstr (measured.domain, ==, ours);   /* this machine, in truth */

  /* Into a file: the important cache replays the event there. */
  r1 = send_ok (direct, cmd);
  r2 = send_ok (direct, "stop");
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (measures));
  strobe_decoder_read_file (decoder, file, NULL, &error);
  g_assert_no_error (error);
  got = strobe_clock_measures_dup (measures);
  g_assert_cmpuint (got->len, ==, 1);
  g_assert_cmpstr (g_array_index (got, StrobeClockMeasure, 0).domain, ==, ours);
  g_assert_cmpint (g_array_index (got, StrobeClockMeasure, 0).offset_ns, ==, measured.offset_ns);
  g_assert_cmpuint (g_array_index (got, StrobeClockMeasure, 0).uncertainty_ns, ==, measured.uncertainty_ns);
  g_assert_cmpuint (g_array_index (got, StrobeClockMeasure, 0).rounds, ==, 8);
  check_placed_by_measure (direct, strobe_decoder_get_metadata (decoder), got, ours);
  {
    /* With the loopback measure instead: to within some µs. */
    g_autoptr (GArray) tight = g_array_new (FALSE, TRUE, sizeof (StrobeClockMeasure));
    StrobeClockMeasure t_m = { { 0 }, truth.offset_ns, truth.uncertainty_ns, truth.samples };

    g_strlcpy (t_m.domain, ours, sizeof t_m.domain);
    g_array_append_val (tight, t_m);
    check_placed_by_measure (direct, strobe_decoder_get_metadata (decoder), tight, ours);
  }

  /* On one machine a sync records only a program that does not read our CLOCK_MONOTONIC
   * (a TSC): its trace can then meet one of another machine measured from here. */
  g_assert_true (strobe_control_client_sync_clock (direct, 4, FALSE, &measured, &recorded, &error));
  g_assert_no_error (error);
  g_assert_cmpint (recorded, ==, measured.source != 0);
  send_refused (direct, "clock-offset domain=00 offset=1 uncertainty=2 rounds=3", "usage");
  send_refused (direct, "clock-offset offset=1 uncertainty=2 rounds=3", "usage");

  strobe_control_client_close (far);
  proxy_stop (proxy);
  target_stop (t);
  test_dir_remove_all (dir);
}

/* @live: the file is still being written (its last packet may be cut). */
static GArray *
recorded_measures (const char *path, gboolean live)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeClockMeasures) measures = strobe_clock_measures_new ();
  g_autoptr (GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (measures));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  if (!live)
    g_assert_no_error (error);
  return strobe_clock_measures_dup (measures);
}

/* The one live recording's file, once the recorder has it. */
static char *
rec_live_path (Rec *r)
{
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  GListModel *sessions = strobe_recorder_get_sessions (r->recorder);

  while (g_list_model_get_n_items (sessions) == 0 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 1);
  {
    g_autoptr (StrobeLiveConnection) session = g_list_model_get_item (sessions, 0);
    StrobeTrace *trace = strobe_store_lookup_trace (r->store, strobe_live_connection_get_trace_id (session));

    g_assert_nonnull (trace);
    return g_strdup (strobe_trace_get_path (trace));
  }
}

/* A program that sends its trace to a recorder by itself is measured by the recorder as
 * it connects (here told to measure every program: on one machine it would not), with the
 * shared secret; the offset is in the recording. Left to its default, the recorder does
 * not measure a program of its own machine. */
static void
test_recorder_measures_clock (void)
{
  const char *secret = "recorder-measures-clock-secret";
  const char *env[] = { "STROBE_CONTROL_SECRET", secret, NULL };
  Rec *r = rec_start ();
  g_autofree char *addr = rec_address (r);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) got = NULL;
  g_autoptr (GArray) none = NULL;
  StrobeClockOffset truth;
  const StrobeClockMeasure *m;
  char ours[33];
  Target *t;

  g_setenv ("STROBE_CONTROL_SECRET", secret, TRUE);
  strobe_recorder_set_clock_mode (r->recorder, STROBE_RECORDER_CLOCK_ALWAYS);
  t = target_start (NULL, env);
  {
    g_autoptr (StrobeControlClient) c = target_client (t);
    gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

    strobe_control_client_send_to (c, addr, &error);
    g_assert_no_error (error);
    g_autofree char *live = NULL;

    /* The recorder's measure runs beside the recording: until its event is in the file. */
    live = rec_live_path (r);
    while (g_get_monotonic_time () < until)
      {
        g_autoptr (GArray) so_far = recorded_measures (live, TRUE);
        if (so_far->len > 0)
          break;
        g_main_context_iteration (NULL, FALSE);
        g_usleep (20 * 1000);
      }
    g_assert_true (strobe_control_client_measure_clock (c, 8, &truth, &error));
    g_assert_no_error (error);
    strobe_control_client_stop (c, &error);
    g_assert_no_error (error);
  }
  got = recorded_measures (rec_wait_trace (r, 1), FALSE);
  g_assert_cmpuint (got->len, ==, 1);
  m = &g_array_index (got, StrobeClockMeasure, 0);
  g_assert_true (strobe_clock_local_domain (ours));
  g_assert_cmpstr (m->domain, ==, ours);
  g_assert_cmpuint (m->rounds, ==, 8);
  g_assert_cmpint (ABS (m->offset_ns - truth.offset_ns), <=, (gint64) (m->uncertainty_ns + truth.uncertainty_ns));
  g_test_message ("control.recorder_clock_offset ± %" G_GUINT64_FORMAT " ns (8 round trips on loopback)",
                  m->uncertainty_ns);
  target_stop (t);

  strobe_recorder_set_clock_mode (r->recorder, STROBE_RECORDER_CLOCK_OTHER_MACHINES);
  t = target_start (NULL, env);
  {
    g_autoptr (StrobeControlClient) c = target_client (t);

    strobe_control_client_send_to (c, addr, &error);
    g_assert_no_error (error);
    g_usleep (300 * 1000);
    strobe_control_client_stop (c, &error);
    g_assert_no_error (error);
  }
  none = recorded_measures (rec_wait_trace (r, 2), FALSE);
  g_assert_cmpuint (none->len, ==, 0);
  target_stop (t);
  g_unsetenv ("STROBE_CONTROL_SECRET");
  rec_free (r);
}

static char *
run_cli (Target *t, int *status, const char *const *args)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  char *out = NULL;

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", t->runtime_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  g_ptr_array_add (argv, (gpointer) g_getenv ("STROBE_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (proc);
  return out;
}

/* strobe-cli ps / control by pid and by name, and serve recording a late connect. */
static void
test_cli (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *pid = g_strdup (g_subprocess_get_identifier (t->proc));
  g_autofree char *store = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autoptr (GSubprocess) serve = NULL;
  g_autoptr (GDataInputStream) serve_out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *ps = NULL, *channels = NULL, *bad = NULL, *status = NULL, *sent = NULL, *stopped = NULL;
  g_autofree char *dest = NULL;
  g_autoptr (GDir) dir = NULL;
  guint recorder_port = 0, store_port = 0;
  int rc;

  ps = run_cli (t, &rc, (const char *[]) { "ps", NULL });
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (ps, pid));
  g_assert_nonnull (strstr (ps, "control-target"));
  channels = run_cli (t, &rc, (const char *[]) { "control", pid, "channels", NULL });
  g_assert_cmpint (rc, ==, 0);
  g_assert_nonnull (strstr (channels, "Alpha on\nBeta off\n"));
  bad = run_cli (t, &rc, (const char *[]) { "control", "no-such-program", "stop", NULL });
  g_assert_cmpint (rc, ==, 1);

  serve = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("STROBE_CLI"), "serve",
                            "--store-dir", store, "--recorder-port", "0", "--store-port", "0", NULL);
  g_assert_no_error (error);
  serve_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (serve));
  line = g_data_input_stream_read_line (serve_out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sscanf (line, "recorder on port %u, store on port %u", &recorder_port, &store_port), ==, 2);
  dest = g_strdup_printf ("127.0.0.1:%u", recorder_port);
  sent = run_cli (t, &rc, (const char *[]) { "control", "control-target", "send-to", dest, NULL });
  g_assert_cmpint (rc, ==, 0);
  status = run_cli (t, &rc, (const char *[]) { "control", "control-target", "status", NULL });
  g_assert_nonnull (strstr (status, "tracing 1\n"));
  {
    g_autofree char *clock = run_cli (t, &rc, (const char *[]) { "control", pid, "clock", NULL });

    g_assert_cmpint (rc, ==, 0);
    g_assert_true (g_str_has_prefix (clock, "offset "));
    g_assert_nonnull (strstr (clock, " ns (the best of 8 round trips)\n"));
  }
  g_usleep (100 * 1000);
  stopped = run_cli (t, &rc, (const char *[]) { "control", pid, "stop", NULL });
  g_assert_cmpint (rc, ==, 0);
  g_clear_pointer (&line, g_free);
  line = g_data_input_stream_read_line (serve_out, NULL, NULL, &error);   /* recording … */
  g_assert_true (g_str_has_prefix (line, "recording control-target"));
  g_clear_pointer (&line, g_free);
  line = g_data_input_stream_read_line (serve_out, NULL, NULL, &error);   /* finished … */
  g_assert_true (g_str_has_prefix (line, "finished control-target"));
  g_subprocess_send_signal (serve, SIGTERM);
  g_subprocess_wait_check (serve, NULL, &error);
  g_assert_no_error (error);
  dir = g_dir_open (store, 0, &error);
  g_assert_no_error (error);
  {
    const char *name;
    gboolean found = FALSE;
    while ((name = g_dir_read_name (dir)))
      if (g_str_has_suffix (name, ".strobe"))
        {
          g_autofree char *path = g_build_filename (store, name, NULL);
          Decoded *d = decode (path);
          g_assert_true (d->clean);
          g_assert_true (d->spec);
          decoded_free (d);
          found = TRUE;
        }
    g_assert_true (found);
  }
  target_stop (t);
  test_dir_remove_all (store);
}

/* ---- hardening: who may control, what write-to may touch, what a peer is told -------- */

/* Only a peer that proves it knows the program's secret (mode 0600 discovery file) may run
 * commands. The secret never crosses the wire; an exchange out of order or a wrong proof
 * ends the connection; a proof recorded from an earlier connection is refused (the
 * server's nonce is new each time). */
static void
test_auth (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *disc = target_discovery_dir (t);
  g_autofree char *name = g_strdup_printf ("%s.discovery", g_subprocess_get_identifier (t->proc));
  g_autofree char *file = g_build_filename (disc, name, NULL);
  g_autofree char *secret = target_secret (t);
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) stranger = strobe_control_client_new ("127.0.0.1", t->port);
  g_autoptr (StrobeControlClient) c = NULL;
  uint8_t nonce[STROBE_AUTH_NONCE_BYTES], server_nonce[STROBE_AUTH_NONCE_BYTES];
  char nonce_hex[STROBE_AUTH_HEX_SIZE];
  g_autofree char *recorded_proof = NULL;
  GStatBuf st;
  char *line;

  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (strlen (secret), ==, 32);
  g_assert_true (strobe_auth_nonce (nonce));
  strobe_hex_encode (nonce, sizeof nonce, nonce_hex, sizeof nonce_hex);

  /* Commands before the exchange are refused; a malformed step ends the connection. */
  {
    g_autoptr (GDataInputStream) in = NULL;
    g_autoptr (GSocketConnection) conn = raw_connect ("127.0.0.1", t->port, &in);
    GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));

    read_challenge (in, server_nonce);
    write_text (out, "channels all on\nstatus\nauth 0123456789abcdef\nstatus\n");
    line = read_line (in);
    g_assert_true (g_str_has_prefix (line, "error authentication required"));
    g_free (line);
    line = read_line (in);
    g_assert_true (g_str_has_prefix (line, "error authentication required"));
    g_free (line);
    line = read_line (in);
    g_assert_true (g_str_has_prefix (line, "error usage: auth NONCE"));
    g_free (line);
    g_assert_null (read_line (in));   /* closed: no more replies */
  }
  /* auth-proof before auth. */
  {
    g_autoptr (GDataInputStream) in = NULL;
    g_autoptr (GSocketConnection) conn = raw_connect ("127.0.0.1", t->port, &in);

    read_challenge (in, server_nonce);
    write_text (g_io_stream_get_output_stream (G_IO_STREAM (conn)),
                "auth-proof 00000000000000000000000000000000000000000000000000000000000000ff\n");
    line = read_line (in);
    g_assert_true (g_str_has_prefix (line, "error auth-proof before auth"));
    g_free (line);
    g_assert_null (read_line (in));
  }
  /* A good exchange, recorded … */
  {
    g_autoptr (GDataInputStream) in = NULL;
    g_autoptr (GSocketConnection) conn = raw_connect ("127.0.0.1", t->port, &in);

    recorded_proof = raw_authenticate_with (in, g_io_stream_get_output_stream (G_IO_STREAM (conn)), secret,
                                            nonce);
    g_assert_null (strstr (recorded_proof, secret));
  }
  /* … and replayed, same client nonce and proof, on a new connection: refused. */
  {
    g_autoptr (GDataInputStream) in = NULL;
    g_autoptr (GSocketConnection) conn = raw_connect ("127.0.0.1", t->port, &in);
    GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
    g_autofree char *auth = g_strconcat ("auth ", nonce_hex, "\n", NULL);
    g_autofree char *replay = g_strconcat ("auth-proof ", recorded_proof, "\nstatus\n", NULL);

    read_challenge (in, server_nonce);
    write_text (out, auth);
    line = read_line (in);
    g_assert_true (g_str_has_prefix (line, "ok auth "));
    g_free (line);
    write_text (out, replay);
    line = read_line (in);
    g_assert_cmpstr (line, ==, "error authentication failed");
    g_free (line);
    g_assert_null (read_line (in));   /* closed before "status" */
  }

  /* Without the secret (another user's discovery directory has none of ours): the client
   * does not even connect. */
  strobe_control_client_set_discovery_directory (stranger, t->runtime_dir);
  g_assert_null (strobe_control_client_send (stranger, "stop", NULL, &error));
  g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  c = target_client (t);
  {
    g_autoptr (GHashTable) channels = strobe_control_client_list_channels (c, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (g_hash_table_lookup (channels, "Beta"), ==, "off");   /* "all on" never ran */
  }
  g_assert_cmpuint (status_uint (c, "refused"), ==, 5);
  target_stop (t);
}

/* write-to never blocks on a FIFO, never opens a device, never follows a symbolic link
 * and never replaces a file that is not a Strobe trace; it does replace a trace. */
static void
test_write_to_targets (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *precious = g_build_filename (dir, "precious.txt", NULL);
  g_autofree char *link = g_build_filename (dir, "link.strobe", NULL);
  g_autofree char *trace = g_build_filename (dir, "trace.strobe", NULL);
  g_autofree char *cmd_fifo = g_strconcat ("write-to ", fifo, NULL);
  g_autofree char *cmd_snap_fifo = g_strconcat ("snapshot write-to ", fifo, NULL);
  g_autofree char *cmd_precious = g_strconcat ("write-to ", precious, NULL);
  g_autofree char *cmd_link = g_strconcat ("write-to ", link, NULL);
  g_autofree char *cmd_trace = g_strconcat ("write-to ", trace, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autofree char *contents = NULL;
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_true (g_file_set_contents (precious, "keep me", -1, NULL));
  g_assert_cmpint (symlink (precious, link), ==, 0);

  send_refused (c, cmd_fifo, "not a regular file");
  send_refused (c, cmd_snap_fifo, "not a regular file");
  send_refused (c, "write-to /dev/null", "not a regular file");
  send_refused (c, cmd_precious, "not a Strobe trace");
  send_refused (c, cmd_link, "symbolic link");
  g_assert_true (g_file_get_contents (precious, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me");
  g_assert_cmpuint (status_uint (c, "refused"), ==, 5);   /* and the server still answers */

  /* A new file, then the same trace replaced. */
  r1 = send_ok (c, cmd_trace);
  r2 = send_ok (c, "stop");
  r3 = send_ok (c, cmd_trace);
  r4 = send_ok (c, "stop");
  {
    Decoded *d = decode (trace);
    g_assert_true (d->clean);
    decoded_free (d);
  }
  target_stop (t);
  test_dir_remove_all (dir);
}

/* One HOST[:PORT] syntax: the program, the client library and the CLI refuse the same
 * addresses with the same reason. */
static void
test_addresses (void)
{
  static const struct
  {
    const char *text;
    const char *host;    /* NULL: refused */
    guint16     port;
  } cases[] = {
    { "localhost", "localhost", 1980 },        { "127.0.0.1:2000", "127.0.0.1", 2000 },
    { "[::1]:1", "::1", 1 },                   { "[::1]", "::1", 1980 },
    { "::1", "::1", 1980 },                    { "host:65535", "host", 65535 },
    { "127.0.0.1:99999", NULL, 0 },            { "host:65536", NULL, 0 },
    { "host:0", NULL, 0 },                     { "host:", NULL, 0 },
    { ":1980", NULL, 0 },                      { "", NULL, 0 },
    { "localhost:notaport", NULL, 0 },         { "host:+80", NULL, 0 },
    { "host:-1", NULL, 0 },                    { "[::1", NULL, 0 },
    { "[::1]x", NULL, 0 },                     { "a b:1", NULL, 0 },
  };
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *host = NULL;
      guint16 port = 0;
      gboolean ok = strobe_control_parse_address (cases[i].text, 1980, &host, &port, &error);

      if (cases[i].host)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (host, ==, cases[i].host);
          g_assert_cmpuint (port, ==, cases[i].port);
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID);
          g_assert_true (g_str_has_prefix (error->message, "“"));
          g_assert_nonnull (strstr (error->message, "” is not HOST[:PORT]: "));
          /* The client refuses it before sending; the program gives the same reason. */
          if (*cases[i].text && !strpbrk (cases[i].text, " "))
            {
              g_autoptr (GError) local = NULL;
              g_autoptr (GError) remote = NULL;
              g_autofree char *cmd = g_strconcat ("send-to ", cases[i].text, NULL);
              g_autofree char *reply = strobe_control_client_send (c, cmd, NULL, &remote);
              const char *why = strstr (error->message, ": ") + 2;

              g_assert_false (strobe_control_client_send_to (c, cases[i].text, &local));
              g_assert_error (local, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID);
              g_assert_null (reply);
              g_assert_error (remote, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED);
              if (!strstr (remote->message, why))
                g_error ("send-to %s: “%s”, expected “%s”", cases[i].text, remote->message, why);
            }
        }
    }
  g_assert_cmpuint (status_uint (c, "tracing"), ==, 0);
  target_stop (t);
}

/* Names that match no channel are said in the reply and remembered, up to a bound. */
static void
test_unknown_channels (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autoptr (GError) error = NULL;
  g_autofree char *r1 = send_ok (c, "channels beta,cpux on");
  g_autofree char *r2 = send_ok (c, "channels beta off");
  gboolean refused = FALSE;
  guint i;

  g_assert_cmpstr (r1, ==, "channels beta,cpux on (no channel named cpux yet: it applies if one registers)");
  g_assert_cmpstr (r2, ==, "channels beta off");
  /* Thousands of made-up names: the first few hundred are remembered, then refused. */
  for (i = 0; i < 200 && !refused; i++)
    {
      g_autoptr (GString) cmd = g_string_new ("channels ");
      g_autofree char *reply = NULL;

      for (guint j = 0; j < 20; j++)
        g_string_append_printf (cmd, "%sname%u_%u", j ? "," : "", i, j);
      g_string_append (cmd, " on");
      reply = strobe_control_client_send (c, cmd->str, NULL, &error);
      if (reply == NULL)
        {
          g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED);
          g_assert_true (g_str_has_prefix (error->message, "too many channel names"));
          g_clear_error (&error);
          refused = TRUE;
        }
    }
  g_assert_true (refused);
  g_assert_cmpuint (i, <=, 14);   /* 256 names remembered at most */
  {
    g_autoptr (GHashTable) channels = strobe_control_client_list_channels (c, &error);
    GHashTableIter iter;
    gpointer key;

    g_assert_no_error (error);
    g_assert_true (g_hash_table_contains (channels, "Beta"));
    g_hash_table_iter_init (&iter, channels);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_assert_false (g_str_has_prefix (key, "name"));   /* remembered, not channels */
  }
  target_stop (t);
}

/* A lone tail=N is an option with no path; the CLI passes tail= to write-to too. */
static void
test_target_options (void)
{
  Target *t = target_start (NULL, NULL);
  g_autoptr (StrobeControlClient) c = target_client (t);
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *file = g_build_filename (dir, "tail0.strobe", NULL);
  g_autofree char *cwd_file = g_build_filename (dir, "tail=5", NULL);
  g_autofree char *pid = g_strdup (g_subprocess_get_identifier (t->proc));
  g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL;
  int rc;

  send_refused (c, "write-to tail=5", "write-to needs a PATH");
  send_refused (c, "send-to tail=5", "send-to needs a HOST[:PORT]");
  g_assert_false (g_file_test (cwd_file, G_FILE_TEST_EXISTS));
  out = run_cli (t, &rc, (const char *[]) { "control", pid, "write-to", file, "tail=0", NULL });
  g_assert_cmpint (rc, ==, 0);
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  out2 = run_cli (t, &rc, (const char *[]) { "control", pid, "stop", NULL });
  g_assert_cmpint (rc, ==, 0);
  out3 = run_cli (t, &rc, (const char *[]) { "control", pid, "send-to", "127.0.0.1:99999", NULL });
  g_assert_cmpint (rc, ==, 2);
  target_stop (t);
  test_dir_remove_all (dir);
}

/* A listener for a fake server on 127.0.0.1 at a port the kernel picks (*port). */
static GSocketListener *
fake_listener_new (guint16 *port)
{
  GSocketListener *listener = g_socket_listener_new ();
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) sa = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  g_socket_listener_add_address (listener, sa, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                 &bound, &error);
  g_assert_no_error (error);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  return listener;
}

/* A fake control server that answers with a line without end: the client stops at
 * STROBE_CONTROL_MAX_REPLY instead of growing with it. */
typedef struct
{
  GSocketListener *listener;
  gsize            sent;
} FakeServer;

static gpointer
fake_server_thread (gpointer data)
{
  FakeServer *f = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (f->listener, NULL, NULL, NULL);
  g_autofree char *chunk = g_malloc (65536);
  GOutputStream *out;

  g_assert_nonnull (conn);
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  memset (chunk, 'x', 65536);
  g_output_stream_write_all (out, "ok ", 3, NULL, NULL, NULL);
  /* Up to 64 MiB, until the client hangs up. */
  while (f->sent < 64u << 20 && g_output_stream_write_all (out, chunk, 65536, NULL, NULL, NULL))
    f->sent += 65536;
  return NULL;
}

static void
test_reply_limit (void)
{
  guint16 port;
  FakeServer f = { fake_listener_new (&port), 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) c = NULL;
  g_autofree char *reply = NULL;
  GThread *thread;

  thread = g_thread_new ("fake", fake_server_thread, &f);
  c = strobe_control_client_new ("127.0.0.1", port);
  strobe_control_client_set_secret (c, "not-needed-by-a-fake");
  /* The fake answers "ok xxx…" to the auth line already. */
  reply = strobe_control_client_send (c, "status", NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "longer than"));
  strobe_control_client_close (c);
  g_thread_join (thread);
  g_assert_cmpuint (f.sent, <, 64u << 20);   /* the client hung up instead of reading on */
  g_socket_listener_close (f.listener);
  g_object_unref (f.listener);
}

/* A program's (or a fake server's) reply reaches the terminal escaped. The fake knows the
 * secret the CLI is given, so it gets as far as a command. */
#define EVIL_SECRET "evil-but-known-secret"

static gpointer
evil_server_thread (gpointer data)
{
  GSocketListener *listener = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (listener, NULL, NULL, NULL);
  g_autoptr (GDataInputStream) in = NULL;
  static const char reply[] = "ok program=evil\x1b]52;c;aGk=\x07 pid=1 output=\xe2\x80\xae" "exe\n";
  g_autofree char *line = NULL;

  g_assert_nonnull (conn);
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
  g_assert_true (fake_server_authenticate (in, g_io_stream_get_output_stream (G_IO_STREAM (conn)), EVIL_SECRET));
  line = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (conn)), reply,
                             sizeof reply - 1, NULL, NULL, NULL);
  g_output_stream_flush (g_io_stream_get_output_stream (G_IO_STREAM (conn)), NULL, NULL);
  g_usleep (200 * 1000);
  return NULL;
}

static void
test_cli_escapes (void)
{
  guint16 port;
  g_autoptr (GSocketListener) listener = fake_listener_new (&port);
  Target fake = { 0 };
  g_autofree char *target = NULL, *out = NULL;
  GThread *thread;
  int rc;

  target = g_strdup_printf ("127.0.0.1:%u", port);
  fake.runtime_dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  thread = g_thread_new ("evil", evil_server_thread, listener);
  g_setenv ("STROBE_CONTROL_SECRET", EVIL_SECRET, TRUE);
  out = run_cli (&fake, &rc, (const char *[]) { "control", target, "status", NULL });
  g_unsetenv ("STROBE_CONTROL_SECRET");
  g_thread_join (thread);
  g_assert_cmpint (rc, ==, 0);
  g_assert_null (strchr (out, '\x1b'));
  g_assert_null (strchr (out, '\x07'));
  g_assert_null (strstr (out, "\xe2\x80\xae"));
  g_assert_nonnull (strstr (out, "program evil\\u001b]52;c;aGk=\\u0007\n"));
  g_assert_nonnull (strstr (out, "output \\u202eexe\n"));
  test_dir_remove_all (fake.runtime_dir);
  g_free (fake.runtime_dir);
}

/* ---- another user's listener on the program's port (issue 25, item 1) ----------------- */

/* A listening socket at @address:@port, or NULL (with a message) when this machine has no
 * such address. */
static GSocket *
listen_at (const char *address, guint16 port)
{
  g_autoptr (GInetAddress) ia = g_inet_address_new_from_string (address);
  g_autoptr (GSocketAddress) sa = g_inet_socket_address_new (ia, port);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocket) s = g_socket_new (g_inet_address_get_family (ia), G_SOCKET_TYPE_STREAM,
                                        G_SOCKET_PROTOCOL_TCP, &error);

  g_assert_no_error (error);
  if (!g_socket_bind (s, sa, TRUE, &error) || !g_socket_listen (s, &error))
    {
      g_test_message ("cannot listen on %s:%u (%s): that address is not tested", address, port,
                      error->message);
      return NULL;
    }
  g_socket_set_blocking (s, FALSE);
  return g_steal_pointer (&s);
}

typedef struct
{
  GSocketListener *listener;
  GString         *received;
} Impostor;

/* Greets like a control server and answers "auth NONCE" with a made-up proof (without the
 * secret it cannot make a real one); keeps every byte it receives. */
static gpointer
impostor_thread (gpointer data)
{
  Impostor *f = data;
  g_autoptr (GSocketConnection) conn = g_socket_listener_accept (f->listener, NULL, NULL, NULL);
  g_autoptr (GDataInputStream) in = NULL;
  GOutputStream *out;
  uint8_t junk[STROBE_AUTH_NONCE_BYTES];
  char hex[STROBE_AUTH_HEX_SIZE];
  char buf[512];
  gssize n;

  g_assert_nonnull (conn);
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  g_assert_true (strobe_auth_nonce (junk));
  strobe_hex_encode (junk, sizeof junk, hex, sizeof hex);
  {
    g_autofree char *greeting = g_strconcat ("strobe-control challenge ", hex, "\n", NULL);
    write_text (out, greeting);
  }
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
  {
    g_autofree char *line = read_line (in);
    g_autofree char *answer = NULL;

    while (line && *line == '\0')   /* the client's keep-alive */
      {
        g_free (line);
        line = read_line (in);
      }
    if (line == NULL)
      return NULL;
    g_string_append_printf (f->received, "%s\n", line);
    g_assert_true (strobe_auth_nonce (junk));
    strobe_hex_encode (junk, sizeof junk, hex, sizeof hex);
    answer = g_strconcat ("ok auth ", hex, "\n", NULL);
    write_text (out, answer);
  }
  while ((n = g_input_stream_read (G_INPUT_STREAM (in), buf, sizeof buf, NULL, NULL)) > 0)
    g_string_append_len (f->received, buf, n);
  return NULL;
}

/* The discovery directory of a program that died: its entry (our own pid and start ticks,
 * so it is not stale) names @port, where someone else now listens. */
static char *
dead_program_dir (guint16 port, const char *secret)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *disc = g_build_filename (dir, "strobe", NULL);
  g_autofree char *name = g_strdup_printf ("%u.discovery", (unsigned) getpid ());
  g_autofree char *path = g_build_filename (disc, name, NULL);
  g_autofree char *stat = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL));
  fields = g_strsplit (strrchr (stat, ')') + 2, " ", -1);   /* fields[0] is field 3 */
  text = g_strdup_printf ("strobe-discovery=1\nprogram=dead\npid=%u\ncontrol_port=%u\n"
                          "control_address=127.0.0.1\ntracing=0\noutput=\nstart_time=0\n"
                          "proc_start_ticks=%s\ncontrol_secret=%s\n",
                          (unsigned) getpid (), port, fields[19], secret);
  g_assert_cmpint (g_mkdir (disc, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&disc);
}

/* Another local user listens on the program's port at [::1] and 127.0.0.2. A client given
 * "localhost:P", "[::1]:P" or "127.0.0.2:P" goes to the exact address of the program's
 * discovery file and never to them. A listener at the announced address that is not the
 * program (the program died; someone took its port) cannot prove it knows the secret: the
 * client stops before proving anything, so that listener gets neither the secret nor a
 * proof it could use. As a real second user (nobody, with setpriv) where this runs as
 * root. */
static void
test_impostor (void)
{
  static const char *const others[] = { "::1", "127.0.0.2" };
  static const char *const targets[] = { "localhost", "::1", "127.0.0.2", "127.0.0.1" };
  Target *t = target_start (NULL, NULL);
  g_autofree char *secret = target_secret (t);
  g_autofree char *pid = g_strdup (g_subprocess_get_identifier (t->proc));
  g_autofree char *expected_pid = g_strdup_printf ("pid=%s ", pid);
  GSocket *fakes[G_N_ELEMENTS (others)] = { NULL };

  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    fakes[i] = listen_at (others[i], t->port);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr (StrobeControlClient) c = strobe_control_client_new (targets[i], t->port);
      g_autofree char *dir = target_discovery_dir (t);
      g_autofree char *reply = NULL;
      g_autofree char *cli_target = strchr (targets[i], ':') ? g_strdup_printf ("[%s]:%u", targets[i], t->port)
                                                            : g_strdup_printf ("%s:%u", targets[i], t->port);
      g_autofree char *out = NULL;
      int rc;

      strobe_control_client_set_discovery_directory (c, dir);
      reply = send_ok (c, "status");
      g_assert_nonnull (strstr (reply, expected_pid));
      out = run_cli (t, &rc, (const char *[]) { "control", cli_target, "status", NULL });
      g_assert_cmpint (rc, ==, 0);
      g_assert_nonnull (strstr (out, pid));
    }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (fakes[i])
      {
        /* Nobody connected: nothing waits in its backlog. */
        g_assert_cmpuint (g_socket_condition_check (fakes[i], G_IO_IN), ==, 0);
        g_socket_close (fakes[i], NULL);
        g_object_unref (fakes[i]);
      }

  /* The program is gone and another listener has its port at the very address. */
  {
    guint16 port;
    Impostor f = { fake_listener_new (&port), g_string_new (NULL) };
    g_autoptr (GError) error = NULL;
    g_autoptr (StrobeControlClient) c = NULL;
    g_autofree char *disc = NULL;
    GThread *thread;

    disc = dead_program_dir (port, secret);
    thread = g_thread_new ("impostor", impostor_thread, &f);
    c = strobe_control_client_new ("localhost", port);
    strobe_control_client_set_discovery_directory (c, disc);
    g_assert_null (strobe_control_client_send (c, "channels all on", NULL, &error));
    g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_AUTHENTIC);
    strobe_control_client_close (c);
    g_thread_join (thread);
    /* All it got: our nonce. */
    g_assert_true (g_str_has_prefix (f.received->str, "auth "));
    g_assert_cmpuint (f.received->len, ==, 5 + 64 + 1);
    g_assert_null (strstr (f.received->str, secret));
    g_socket_listener_close (f.listener);
    g_object_unref (f.listener);
    g_string_free (f.received, TRUE);
    test_dir_remove_all (disc);   /* …/strobe; its parent is left, empty */
  }

  /* The same with a real second user. */
  if (geteuid () != 0 || !g_file_test ("/usr/bin/setpriv", G_FILE_TEST_IS_EXECUTABLE)
      || !g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    g_test_message ("not root (or no setpriv, no /usr/bin/python3): another user's listener not simulated");
  else
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *script = NULL;
      g_autofree char *v6 = g_strdup_printf ("[::1]:%u", t->port);
      g_autofree char *v4 = g_strdup_printf ("127.0.0.2:%u", t->port);
      g_autofree char *heard = NULL;
      g_autofree char *line = NULL;
      g_autoptr (GSubprocess) nobody = NULL;
      g_autoptr (GDataInputStream) nobody_out = NULL;
      g_autofree char *empty = test_dir_make_tmp ("strobe-control-XXXXXX");
      Target elsewhere = { .runtime_dir = empty };
      g_autofree char *out = NULL;
      int rc;

      g_assert_true (g_file_get_contents (g_getenv ("CONTROL_IMPOSTOR"), &script, NULL, NULL));
      nobody = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error,
                                 "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                 "/usr/bin/python3", "-c", script, v6, v4, NULL);
      g_assert_no_error (error);
      nobody_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (nobody));
      line = g_data_input_stream_read_line (nobody_out, NULL, NULL, &error);
      if (g_strcmp0 (line, "ready") != 0)
        g_test_message ("the second user's listener did not start (%s): not simulated", line ? line : "no output");
      else
        {
          for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
            {
              g_autofree char *cli_target = strchr (targets[i], ':') ? g_strdup_printf ("[%s]:%u", targets[i], t->port)
                                                                    : g_strdup_printf ("%s:%u", targets[i], t->port);
              g_autofree char *reply = run_cli (t, &rc, (const char *[]) { "control", cli_target, "channels", "all", "on", NULL });

              g_assert_cmpint (rc, ==, 0);
            }
          /* Told the secret but not where the program is, a client that reaches nobody's
           * listener stops at its missing proof. */
          g_setenv ("STROBE_CONTROL_SECRET", secret, TRUE);
          out = run_cli (&elsewhere, &rc, (const char *[]) { "control", v6, "status", NULL });
          g_unsetenv ("STROBE_CONTROL_SECRET");
          g_assert_cmpint (rc, !=, 0);
        }
      g_subprocess_force_exit (nobody);
      g_subprocess_wait (nobody, NULL, NULL);
      {
        g_autoptr (GString) all = g_string_new (NULL);
        char *l;

        while ((l = g_data_input_stream_read_line (nobody_out, NULL, NULL, NULL)))
          {
            g_string_append_printf (all, "%s\n", l);
            g_free (l);
          }
        heard = g_string_free (g_steal_pointer (&all), FALSE);
      }
      g_test_message ("the second user's listener heard:\n%s", heard);
      g_assert_null (strstr (heard, secret));
      g_assert_null (strstr (heard, "auth-proof"));
      g_assert_null (strstr (heard, "channels"));
      test_dir_remove_all (empty);
    }
  target_stop (t);
}

/* ---- a reconnect flood (issue 25, item 6) ------------------------------------------- */

typedef struct
{
  guint16       port;
  volatile gint stop;
  guint         connections;
} Flooder;

/* Connects again and again and says nothing, keeping its newest 64 connections open. */
static gpointer
flooder_thread (gpointer data)
{
  Flooder *f = data;
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (f->port),
                            .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int open_fds[64];
  guint n = 0;

  while (!g_atomic_int_get (&f->stop))
    {
      int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

      g_assert_cmpint (fd, >=, 0);
      if (connect (fd, (struct sockaddr *) &sa, sizeof sa) < 0)
        {
          close (fd);
          g_usleep (100);
          continue;
        }
      g_atomic_int_inc (&f->connections);   /* several flooders share the count */
      if (n == G_N_ELEMENTS (open_fds))
        {
          close (open_fds[0]);
          memmove (open_fds, open_fds + 1, (n - 1) * sizeof open_fds[0]);
          n--;
        }
      open_fds[n++] = fd;
    }
  while (n)
    close (open_fds[--n]);
  return NULL;
}

/* Three peers reconnect without end and never say anything; every real command still
 * succeeds (the silent ones are evicted, never a client in the middle of its exchange), and
 * the program says how many it evicted. */
static void
test_flood (void)
{
  Target *t = target_start (NULL, NULL);
  Flooder f = { .port = t->port };
  GThread *threads[3];
  g_autofree char *dir = target_discovery_dir (t);
  g_autoptr (StrobeControlClient) probe = target_client (t);
  gint64 worst = 0, start;
  guint commands = 40;

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("flooder", flooder_thread, &f);
  g_usleep (300 * 1000);   /* the slots are full of silent peers by now */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < commands; i++)
    {
      g_autoptr (StrobeControlClient) c = strobe_control_client_new ("127.0.0.1", t->port);
      g_autoptr (GError) error = NULL;
      g_autofree char *reply = NULL;
      gint64 t0 = g_get_monotonic_time ();

      strobe_control_client_set_discovery_directory (c, dir);
      reply = strobe_control_client_send (c, i % 2 ? "status" : "channels", NULL, &error);
      if (reply == NULL)
        g_error ("command %u of %u failed during the flood: %s", i + 1, commands, error->message);
      worst = MAX (worst, g_get_monotonic_time () - t0);
    }
  g_test_message ("%u commands during the flood: %.1f ms each on average, worst %.1f ms; "
                  "%u flood connections", commands,
                  (g_get_monotonic_time () - start) / 1000.0 / commands, worst / 1000.0, (guint) g_atomic_int_get (&f.connections));
  g_atomic_int_set (&f.stop, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (status_uint (probe, "evicted"), >, 0);
  target_stop (t);
}

/* Who gives a slot up when all 16 are taken: the silent peers, oldest first, told why;
 * never a peer in the middle of its exchange, however many newcomers arrive. */
static void
test_eviction (void)
{
  Target *t = target_start (NULL, NULL);
  g_autofree char *secret = target_secret (t);
  GSocketConnection *silent[16];
  GDataInputStream *silent_in[16];
  GSocketConnection *newcomers[40];
  GDataInputStream *newcomers_in[40];
  g_autoptr (GSocketConnection) slow = NULL;
  g_autoptr (GDataInputStream) slow_in = NULL;
  g_autoptr (StrobeControlClient) probe = NULL;
  uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES], client_nonce[STROBE_AUTH_NONCE_BYTES];
  uint8_t other_nonce[STROBE_AUTH_NONCE_BYTES];
  char hex[STROBE_AUTH_HEX_SIZE], proof[STROBE_AUTH_HEX_SIZE];
  GOutputStream *out;
  char *line;

  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    {
      silent[i] = raw_connect ("127.0.0.1", t->port, &silent_in[i]);
      read_challenge (silent_in[i], other_nonce);   /* accepted, then says nothing */
    }
  /* A client that answers its challenge, then is slow with its proof. */
  slow = raw_connect ("127.0.0.1", t->port, &slow_in);
  out = g_io_stream_get_output_stream (G_IO_STREAM (slow));
  write_text (out, "\n");
  read_challenge (slow_in, server_nonce);
  g_assert_true (strobe_auth_nonce (client_nonce));
  strobe_hex_encode (client_nonce, sizeof client_nonce, hex, sizeof hex);
  {
    g_autofree char *auth = g_strconcat ("auth ", hex, "\n", NULL);
    write_text (out, auth);
  }
  line = read_line (slow_in);
  g_assert_true (g_str_has_prefix (line, "ok auth "));
  g_free (line);
  /* The oldest silent peer made room for it, and was told why. */
  line = read_line (silent_in[0]);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "error busy: evicted to make room for a new connection"));
  g_free (line);
  g_assert_null (read_line (silent_in[0]));
  /* 40 newcomers that say nothing: they push each other and the silent ones out, never
   * the slow client. */
  for (guint i = 0; i < G_N_ELEMENTS (newcomers); i++)
    {
      newcomers[i] = raw_connect ("127.0.0.1", t->port, &newcomers_in[i]);
      read_challenge (newcomers_in[i], other_nonce);
    }
  for (guint i = 1; i < G_N_ELEMENTS (silent); i++)
    {
      line = read_line (silent_in[i]);
      g_assert_true (g_str_has_prefix (line, "error busy: evicted"));
      g_free (line);
    }
  strobe_auth_proof_hex ("control", STROBE_AUTH_CLIENT, secret, strlen (secret), server_nonce, client_nonce,
                         proof);
  {
    g_autofree char *send_proof = g_strconcat ("auth-proof ", proof, "\nstatus\n", NULL);
    write_text (out, send_proof);
  }
  line = read_line (slow_in);
  g_assert_cmpstr (line, ==, "ok authenticated");
  g_free (line);
  line = read_line (slow_in);
  g_assert_true (g_str_has_prefix (line, "ok program=control-target"));
  g_free (line);
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    {
      g_object_unref (silent_in[i]);
      g_object_unref (silent[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (newcomers); i++)
    {
      g_object_unref (newcomers_in[i]);
      g_object_unref (newcomers[i]);
    }
  probe = target_client (t);
  g_assert_cmpuint (status_uint (probe, "evicted"), >=, 1 + 40);
  target_stop (t);
}

/* A program that is busy says so, and the client tries again before giving up: not "the
 * program refused the control secret". */
typedef struct
{
  GSocketListener *listener;
  GCancellable    *cancel;
  guint            sent;
} BusyServer;

static gpointer
busy_server_thread (gpointer data)
{
  BusyServer *f = data;

  for (;;)
    {
      g_autoptr (GSocketConnection) conn = g_socket_listener_accept (f->listener, NULL, f->cancel, NULL);
      g_autoptr (GDataInputStream) in = NULL;
      GOutputStream *out;
      g_autofree char *first = NULL;

      if (conn == NULL)
        return NULL;
      out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
      in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (conn)));
      write_text (out, "strobe-control challenge 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n");
      first = read_line (in);   /* the client's empty line */
      write_text (out, "error busy: evicted to make room for a new connection (this one had not "
                       "authenticated and had not progressed for 300 ms); retry\n");
      f->sent++;
    }
}

static void
test_busy_retry (void)
{
  guint16 port;
  BusyServer f = { fake_listener_new (&port), g_cancellable_new (), 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeControlClient) c = NULL;
  g_autofree char *reply = NULL;
  GThread *thread;

  thread = g_thread_new ("busy", busy_server_thread, &f);
  c = strobe_control_client_new ("127.0.0.1", port);
  strobe_control_client_set_secret (c, "a-secret-of-sixteen-or-more");
  reply = strobe_control_client_send (c, "status", NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "busy (tried 5 times): evicted to make room"));
  g_assert_null (strstr (error->message, "secret"));
  g_cancellable_cancel (f.cancel);
  g_thread_join (thread);
  g_assert_cmpuint (f.sent, ==, 5);
  g_socket_listener_close (f.listener);
  g_object_unref (f.listener);
  g_object_unref (f.cancel);
}

/* ---- a chosen secret, guesses, the discovery directory (issue 25, item 8) ------------- */

/* Runs control-target with @env (NAME, VALUE pairs; a NULL value unsets NAME), as user
 * nobody with @as_nobody, tells it to quit as soon as it is ready, and returns what it
 * wrote on stderr; *port: the control port it said it got. */
static char *
target_stderr (const char *const *env, gboolean as_nobody, guint *port)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                               | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  char *err = NULL;

  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEHOST");
  for (guint i = 0; env && env[i]; i += 2)
    if (env[i + 1])
      g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
    else
      g_subprocess_launcher_unsetenv (launcher, env[i]);
  if (as_nobody)
    proc = g_subprocess_launcher_spawn (launcher, &error, "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup",
                                        "--clear-groups", g_getenv ("CONTROL_TARGET"), NULL);
  else
    proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("CONTROL_TARGET"), NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, "quit\n", NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (out, "ready "));
  *port = (guint) atoi (out + 6);
  return err;
}

/* A chosen STROBE_CONTROL_SECRET shorter than 16 characters is refused (no control server)
 * and the program says why. */
static void
test_secret_length (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-control-XXXXXX");
  const char *short_env[] = { "XDG_RUNTIME_DIR", dir, "STROBE_CONTROL_SECRET", "fifteen-chars15", NULL };
  const char *long_env[] = { "XDG_RUNTIME_DIR", dir, "STROBE_CONTROL_SECRET", "sixteen-chars-16", NULL };
  g_autofree char *err1 = NULL, *err2 = NULL;
  guint port = 1;

  err1 = target_stderr (short_env, FALSE, &port);
  g_assert_cmpuint (port, ==, 0);
  g_assert_nonnull (strstr (err1, "STROBE_CONTROL_SECRET must be 16 to 128 printable characters"));
  g_assert_nonnull (strstr (err1, "it has 15 characters"));
  err2 = target_stderr (long_env, FALSE, &port);
  g_assert_cmpuint (port, !=, 0);
  g_assert_null (strstr (err2, "STROBE_CONTROL_SECRET"));
  test_dir_remove_all (dir);
}

/* A wrong proof (the proof step after `auth`): returns the server's verdict. */
static char *
wrong_proof (guint16 port)
{
  g_autoptr (GDataInputStream) in = NULL;
  g_autoptr (GSocketConnection) conn = raw_connect ("127.0.0.1", port, &in);
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES];
  g_autofree char *answer = NULL;

  read_challenge (in, server_nonce);
  write_text (out, "auth 0000000000000000000000000000000000000000000000000000000000000001\n");
  answer = read_line (in);
  if (!g_str_has_prefix (answer, "ok auth "))
    return g_steal_pointer (&answer);
  write_text (out, "auth-proof 0000000000000000000000000000000000000000000000000000000000000002\n");
  return read_line (in);
}

/* Guessing a chosen secret is slowed down: after a failed proof, authentication pauses
 * (100 ms, doubling), the program says so, and the client waits it out by itself. A
 * generated secret cannot be guessed, so its failures pause nothing. */
static void
test_guess_backoff (void)
{
  static const char secret[] = "a-chosen-secret-of-24ch";
  const char *env[] = { "STROBE_CONTROL_SECRET", secret, NULL };
  Target *t = target_start (NULL, env);
  g_autoptr (StrobeControlClient) c = strobe_control_client_new ("127.0.0.1", t->port);
  g_autofree char *v1 = NULL, *v2 = NULL, *v3 = NULL, *v4 = NULL, *reply = NULL;
  gint64 start;

  v1 = wrong_proof (t->port);
  g_assert_cmpstr (v1, ==, "error authentication failed");
  v2 = wrong_proof (t->port);   /* at once: paused */
  g_assert_true (g_str_has_prefix (v2, "error busy: authentication paused for "));
  g_assert_nonnull (strstr (v2, " after 1 failed attempts"));
  g_usleep (150 * 1000);
  v3 = wrong_proof (t->port);   /* the pause is over; the second failure pauses 200 ms */
  g_assert_cmpstr (v3, ==, "error authentication failed");
  start = g_get_monotonic_time ();
  strobe_control_client_set_discovery_directory (c, t->runtime_dir);
  strobe_control_client_set_secret (c, secret);
  reply = send_ok (c, "status");   /* busy, retried until the pause is over */
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 100 * 1000);
  target_stop (t);

  t = target_start (NULL, NULL);
  g_clear_pointer (&v1, g_free);
  v1 = wrong_proof (t->port);
  g_assert_cmpstr (v1, ==, "error authentication failed");
  v4 = wrong_proof (t->port);
  g_assert_cmpstr (v4, ==, "error authentication failed");   /* not paused */
  target_stop (t);
}

/* With XDG_RUNTIME_DIR unset, the directory is /tmp/strobe-UID: one that another user made
 * first, or that others may write to, is refused, and the program and strobe-cli ps say
 * so. */
static void
test_discovery_dir (void)
{
  g_autofree char *runtime = test_dir_make_tmp ("strobe-control-XXXXXX");
  g_autofree char *shared = g_build_filename (runtime, "strobe", NULL);
  const char *env[] = { "XDG_RUNTIME_DIR", runtime, NULL };
  g_autofree char *err = NULL;
  guint port;

  /* A directory others may use. */
  g_assert_cmpint (g_mkdir (shared, 0700), ==, 0);
  g_assert_cmpint (g_chmod (shared, 0755), ==, 0);
  err = target_stderr (env, FALSE, &port);
  g_assert_cmpuint (port, !=, 0);   /* still controllable, only not announced */
  g_assert_nonnull (strstr (err, "has mode 0755: others may use it; it must be 0700"));
  g_assert_nonnull (strstr (err, "this program is not announced"));
  {
    g_autoptr (GDir) d = g_dir_open (shared, 0, NULL);
    g_assert_null (g_dir_read_name (d));   /* nothing written there */
  }
  {
    g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                                          | G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_autoptr (GSubprocess) ps = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *out = NULL, *ps_err = NULL;

    g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
    g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
    ps = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("STROBE_CLI"), "ps", NULL);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (ps, NULL, NULL, &out, &ps_err, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (ps_err, "has mode 0755"));
    g_assert_nonnull (strstr (ps_err, "its programs are not listed"));
  }

  /* Another user made /tmp/strobe-UID first: as nobody, with root's directory there. */
  if (geteuid () != 0 || !g_file_test ("/usr/bin/setpriv", G_FILE_TEST_IS_EXECUTABLE))
    g_test_message ("not root (or no setpriv): /tmp/strobe-UID made by another user not simulated");
  else
    {
      struct passwd *nobody = getpwnam ("nobody");
      g_autofree char *taken = nobody ? g_strdup_printf ("/tmp/strobe-%u", (unsigned) nobody->pw_uid) : NULL;
      const char *unset[] = { "XDG_RUNTIME_DIR", NULL, NULL };
      g_autofree char *err2 = NULL;

      if (taken == NULL || g_file_test (taken, G_FILE_TEST_EXISTS))
        g_test_message ("%s exists already (or no user nobody): not simulated", taken ? taken : "nobody");
      else
        {
          g_assert_cmpint (g_mkdir (taken, 0700), ==, 0);   /* root's, 0700 */
          err2 = target_stderr (unset, TRUE, &port);
          g_rmdir (taken);
          g_assert_nonnull (strstr (err2, taken));
          g_assert_nonnull (strstr (err2, "belongs to uid 0, not to you"));
        }
    }
  test_dir_remove_all (runtime);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/control/late-connect", test_late_connect);
  g_test_add_func ("/control/port-hop", test_port_hop);
  g_test_add_func ("/control/malformed", test_malformed);
  g_test_add_func ("/control/write-dir", test_write_dir);
  g_test_add_func ("/control/listen", test_listen);
  g_test_add_func ("/control/snapshot", test_snapshot);
  g_test_add_func ("/control/tail-size", test_tail_size);
  g_test_add_func ("/control/tail-requested", test_tail_requested);
  g_test_add_func ("/control/discovery", test_discovery);
  g_test_add_func ("/control/async", test_async);
  g_test_add_func ("/control/clock", test_clock);
  g_test_add_func ("/control/clock-offset-simulated", test_clock_offset_simulated);
  g_test_add_func ("/control/clock-offset-recorded", test_clock_offset_recorded);
  g_test_add_func ("/control/recorder-measures-clock", test_recorder_measures_clock);
  g_test_add_func ("/control/cli", test_cli);
  g_test_add_func ("/control/auth", test_auth);
  g_test_add_func ("/control/impostor", test_impostor);
  g_test_add_func ("/control/flood", test_flood);
  g_test_add_func ("/control/eviction", test_eviction);
  g_test_add_func ("/control/busy-retry", test_busy_retry);
  g_test_add_func ("/control/secret-length", test_secret_length);
  g_test_add_func ("/control/guess-backoff", test_guess_backoff);
  g_test_add_func ("/control/discovery-dir", test_discovery_dir);
  g_test_add_func ("/control/write-to-targets", test_write_to_targets);
  g_test_add_func ("/control/addresses", test_addresses);
  g_test_add_func ("/control/unknown-channels", test_unknown_channels);
  g_test_add_func ("/control/target-options", test_target_options);
  g_test_add_func ("/control/reply-limit", test_reply_limit);
  g_test_add_func ("/control/cli-escapes", test_cli_escapes);
  return g_test_run ();
}
