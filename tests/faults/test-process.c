/* test-process.c — the runtime inside real programs (process-emitter): fork(), signal
 * handlers, counters from many threads, the program's own options against the
 * environment's automatic start, and what the runtime says about settings it cannot use.
 * Every trace is read back by the real decoder and models.
 *
 *   /process/fork-file       a child's exit() leaves its parent's trace file whole
 *   /process/fork-follow     STROBE_FOLLOW_FORK=1: the child writes a trace of its own
 *   /process/fork-host       over TCP the child's exit does not end the parent's stream
 *   /process/signals         a 20 kHz SIGALRM handler that emits events and CPU scopes
 *   /process/counters        8 threads adding to one counter: values in production order
 *   /process/options-win     strobe_init()'s options apply after the automatic start
 *   /process/env-report      unusable settings are reported on stderr, not ignored
 *   /process/escapes         terminal escapes in names and messages of a trace reach the
 *                            terminal escaped through every strobe-cli printer
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "strobe-analysis.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"
#include "test-log-analyzer.h"
#include "test-dirs.h"

static const char *emitter_path;

/* ---- running the program ------------------------------------------------------------ */

typedef struct
{
  char *out;
  char *err;
  int   status;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

/* @env: NULL-terminated NAME, VALUE pairs, set on top of a clean environment (no STROBE_*
 * from the caller, a private XDG_RUNTIME_DIR: discovery files stay in @dir). */
static void
run_emitter (const char *dir, const char *const *args, const char *const *env, Run *r)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = g_listenv ();

  for (guint i = 0; names[i]; i++)
    if (g_str_has_prefix (names[i], "STROBE_"))
      envp = g_environ_unsetenv (envp, names[i]);
  envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", dir, TRUE);
  for (guint i = 0; env && env[i]; i += 2)
    envp = g_environ_setenv (envp, env[i], env[i + 1], TRUE);
  g_ptr_array_add (argv, (char *) emitter_path);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  memset (r, 0, sizeof *r);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &r->out, &r->err,
                &r->status, &error);
  g_assert_no_error (error);
  if (*r->err)
    g_test_message ("process-emitter stderr: %s", r->err);
}

static guint64
fact (const Run *r, const char *key)
{
  g_auto(GStrv) lines = g_strsplit (r->out, "\n", -1);
  gsize n = strlen (key);

  for (guint i = 0; lines[i]; i++)
    if (strncmp (lines[i], key, n) == 0 && lines[i][n] == ' ')
      return g_ascii_strtoull (lines[i] + n + 1, NULL, 10);
  g_error ("process-emitter said no “%s”: %s", key, r->out);
  return 0;
}

/* ---- reading traces back -------------------------------------------------------------- */

enum { R_SEQ = 1, R_TICK, R_COUNTER_SPEC, R_COUNTER_SET };

typedef struct
{
  GArray  *seqs[4];        /* guint64 Seq of Proc.Seq, by phase */
  GArray  *ticks;          /* guint64 Seq of Proc.Tick */
  GArray  *counter;        /* gint64 values of the counter "Proc/shared", in order */
  guint32  counter_id;
  GError  *error;
  gboolean ended;
  StrobeTimelineModel *timeline;
} Trace;

static guint64
field_uint (const StrobeEvent *ev, const char *name)
{
  StrobeFieldAccessor acc = STROBE_FIELD_ACCESSOR_INIT (name);

  return strobe_event_get_uint (ev, &acc);
}

static void
on_event (guint route, const StrobeEvent *ev, gpointer data)
{
  Trace *t = data;
  guint64 seq;

  switch (route)
    {
    case R_SEQ:
      {
        guint64 phase = field_uint (ev, "Phase");

        g_assert_cmpuint (phase, <, 4);
        seq = field_uint (ev, "Seq");
        g_array_append_val (t->seqs[phase], seq);
      }
      break;
    case R_TICK:
      seq = field_uint (ev, "Seq");
      if (seq != G_MAXUINT64)
        g_array_append_val (t->ticks, seq);
      break;
    case R_COUNTER_SPEC:
      {
        StrobeFieldAccessor acc = STROBE_FIELD_ACCESSOR_INIT ("Name");
        g_autofree char *name = strobe_event_get_string (ev, &acc);

        if (g_strcmp0 (name, "Proc/shared") == 0)
          t->counter_id = (guint32) field_uint (ev, "Id");
      }
      break;
    case R_COUNTER_SET:
      if (field_uint (ev, "Id") == t->counter_id)
        {
          StrobeFieldAccessor acc = STROBE_FIELD_ACCESSOR_INIT ("Value");
          gint64 v = strobe_event_get_int (ev, &acc);
          g_array_append_val (t->counter, v);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
trace_load (const char *path, Trace *t)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(TestFuncAnalyzer) a = test_func_analyzer_new (R_SEQ, "Proc", "Seq", on_event, t);

  memset (t, 0, sizeof *t);
  for (guint i = 0; i < 4; i++)
    t->seqs[i] = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->ticks = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->counter = g_array_new (FALSE, FALSE, sizeof (gint64));
  test_func_analyzer_add (a, R_TICK, "Proc", "Tick");
  test_func_analyzer_add (a, R_COUNTER_SPEC, "Counters", "Spec");
  test_func_analyzer_add (a, R_COUNTER_SET, "Counters", "SetInt");
  t->timeline = strobe_timeline_model_new ();
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (a));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (t->timeline));
  strobe_decoder_read_file (dec, path, NULL, &t->error);
  t->ended = strobe_decoder_get_ended_cleanly (dec);
}

static void
trace_clear (Trace *t)
{
  for (guint i = 0; i < 4; i++)
    g_array_unref (t->seqs[i]);
  g_array_unref (t->ticks);
  g_array_unref (t->counter);
  g_clear_error (&t->error);
  g_clear_object (&t->timeline);
}

/* Seq 0, 1, …, n-1 exactly once each, in order (one thread per phase). */
static void
assert_run (GArray *seqs, guint64 n)
{
  g_assert_cmpuint (seqs->len, ==, n);
  for (guint i = 0; i < seqs->len; i++)
    g_assert_cmpuint (g_array_index (seqs, guint64, i), ==, i);
}

static void
assert_prefix_run (GArray *seqs)
{
  for (guint i = 0; i < seqs->len; i++)
    g_assert_cmpuint (g_array_index (seqs, guint64, i), ==, i);
}

/* ---- fork ----------------------------------------------------------------------------- */

#define FORK_N 3000

static void
test_fork_file (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "fork.strobe", NULL);
  const char *args[] = { "fork", G_STRINGIFY (FORK_N), NULL };
  const char *env[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEFILE", path, NULL };
  g_autofree char *child_path = NULL;
  Run r;
  Trace t;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (fact (&r, "status"), ==, 0);
  trace_load (path, &t);
  g_assert_no_error (t.error);
  g_assert_true (t.ended);
  assert_run (t.seqs[0], FORK_N);            /* before the fork: once, not twice */
  g_assert_cmpuint (t.seqs[1]->len, ==, 0);  /* the child's events are not the parent's */
  assert_run (t.seqs[2], FORK_N);            /* after the child's exit: all there */
  g_assert_cmpuint (t.seqs[3]->len, >, 0);
  assert_prefix_run (t.seqs[3]);
  /* No trace of its own without the opt-in. */
  child_path = g_strdup_printf ("%s/fork.%" G_GUINT64_FORMAT ".strobe", dir, fact (&r, "child"));
  g_assert_false (g_file_test (child_path, G_FILE_TEST_EXISTS));
  trace_clear (&t);
  run_clear (&r);
  test_dir_remove_all (dir);
}

static void
test_fork_follow (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "fork.strobe", NULL);
  const char *args[] = { "fork", G_STRINGIFY (FORK_N), NULL };
  const char *env[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEFILE", path, "STROBE_FOLLOW_FORK", "1",
                        NULL };
  g_autofree char *child_path = NULL;
  Run r;
  Trace t;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  trace_load (path, &t);
  g_assert_no_error (t.error);
  g_assert_true (t.ended);
  assert_run (t.seqs[0], FORK_N);
  g_assert_cmpuint (t.seqs[1]->len, ==, 0);
  assert_run (t.seqs[2], FORK_N);
  trace_clear (&t);

  /* The child's own trace: its events only, nothing from before the fork, nothing of
   * the thread that did not follow it into the child. */
  child_path = g_strdup_printf ("%s/fork.%" G_GUINT64_FORMAT ".strobe", dir, fact (&r, "child"));
  trace_load (child_path, &t);
  g_assert_no_error (t.error);
  g_assert_true (t.ended);
  g_assert_cmpuint (t.seqs[0]->len, ==, 0);
  assert_run (t.seqs[1], FORK_N);
  g_assert_cmpuint (t.seqs[2]->len, ==, 0);
  g_assert_cmpuint (t.seqs[3]->len, ==, 0);
  trace_clear (&t);
  run_clear (&r);
  test_dir_remove_all (dir);
}

typedef struct
{
  int         listener;
  GByteArray *bytes;
} Sink;

/* Accepts one connection and keeps everything it sends until EOF. */
static gpointer
sink_thread (gpointer data)
{
  Sink *s = data;
  int fd = accept (s->listener, NULL, NULL);
  guint8 buf[65536];
  ssize_t n;

  g_assert_cmpint (fd, >=, 0);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_byte_array_append (s->bytes, buf, (guint) n);
  close (fd);
  return NULL;
}

static void
test_fork_host (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "received.strobe", NULL);
  g_autofree char *host = NULL;
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof sa;
  const char *args[] = { "fork", G_STRINGIFY (FORK_N), NULL };
  Sink sink = { socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), g_byte_array_new () };
  g_autoptr(GError) error = NULL;
  GThread *thread;
  Run r;
  Trace t;

  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (sink.listener, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  g_assert_cmpint (listen (sink.listener, 4), ==, 0);
  g_assert_cmpint (getsockname (sink.listener, (struct sockaddr *) &sa, &len), ==, 0);
  host = g_strdup_printf ("127.0.0.1:%u", ntohs (sa.sin_port));
  thread = g_thread_new ("sink", sink_thread, &sink);
  {
    const char *env[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEHOST", host, NULL };
    run_emitter (dir, args, env, &r);
  }
  g_thread_join (thread);
  close (sink.listener);
  g_assert_cmpint (r.status, ==, 0);
  g_file_set_contents (path, (const char *) sink.bytes->data, sink.bytes->len, &error);
  g_assert_no_error (error);

  /* One stream, ended once, at its end: the child's exit sent no End into it. */
  trace_load (path, &t);
  g_assert_no_error (t.error);
  g_assert_true (t.ended);
  assert_run (t.seqs[0], FORK_N);
  g_assert_cmpuint (t.seqs[1]->len, ==, 0);
  assert_run (t.seqs[2], FORK_N);
  trace_clear (&t);
  g_byte_array_unref (sink.bytes);
  run_clear (&r);
  test_dir_remove_all (dir);
}

/* ---- signal handlers ---------------------------------------------------------------- */

static guint64
scope_count (StrobeTimelineModel *m, const char *name)
{
  g_autoptr(GArray) stats = strobe_timer_stats_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  guint64 count = 0;

  for (guint i = 0; i < stats->len; i++)
    {
      StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      if (g_str_equal (s->name, name))
        count = s->count;
    }
  return count;
}

static void
test_signals (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "signals.strobe", NULL);
  const char *args[] = { "signals", "600000", "20000", NULL };
  const char *env[] = { "STROBE_TRACE", "Proc,Cpu", "STROBE_TRACEFILE", path,
                        "STROBE_CONTROL_PORT", "0", NULL };
  StrobeTimelineStats stats;
  guint64 ticks, handler_scopes;
  Run r;
  Trace t;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  ticks = fact (&r, "ticks");
  g_test_message ("%" G_GUINT64_FORMAT " handler runs, %" G_GUINT64_FORMAT " events dropped",
                  ticks, fact (&r, "dropped"));
  g_assert_cmpuint (ticks, >, 50);   /* the handler did interrupt the loop */

  trace_load (path, &t);
  g_assert_no_error (t.error);
  g_assert_true (t.ended);
  /* The interrupted thread lost nothing: every event and every scope of the loop. */
  assert_run (t.seqs[0], 600000);
  g_assert_cmpuint (scope_count (t.timeline, "main"), ==, 600000);
  strobe_timeline_model_get_stats (t.timeline, &stats);
  g_assert_cmpuint (stats.unmatched_ends, ==, 0);
  /* The handler's events are whole: in order, each at most once; the ones that
   * interrupted an emit were dropped and counted. */
  g_assert_cmpuint (t.ticks->len, <=, ticks);
  g_assert_cmpuint (t.ticks->len, >, 0);
  for (guint i = 1; i < t.ticks->len; i++)
    g_assert_cmpuint (g_array_index (t.ticks, guint64, i), >, g_array_index (t.ticks, guint64, i - 1));
  handler_scopes = scope_count (t.timeline, "handler");
  g_assert_cmpuint (handler_scopes, <=, ticks + 1);
  g_assert_cmpuint (ticks - t.ticks->len, <=, fact (&r, "dropped"));
  trace_clear (&t);
  run_clear (&r);
  test_dir_remove_all (dir);
}

/* ---- counters -------------------------------------------------------------------------- */

static void
test_counters (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "counters.strobe", NULL);
  const char *args[] = { "counters", "8", "10000", NULL };
  const char *env[] = { "STROBE_TRACE", "Counters", "STROBE_TRACEFILE", path,
                        "STROBE_CONTROL_PORT", "0", NULL };
  Run r;
  Trace t;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (fact (&r, "final"), ==, 80000);
  trace_load (path, &t);
  g_assert_no_error (t.error);
  g_assert_cmpuint (t.counter_id, !=, 0);
  /* In the trace's (serial) order, each value one more than the one before. */
  g_assert_cmpuint (t.counter->len, ==, 80000);
  for (guint i = 0; i < t.counter->len; i++)
    g_assert_cmpint (g_array_index (t.counter, gint64, i), ==, (gint64) i + 1);
  trace_clear (&t);
  run_clear (&r);
  test_dir_remove_all (dir);
}

/* ---- the program's own options ------------------------------------------------------- */

static void
test_options_win (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "options.strobe", NULL);
  g_autofree char *disc = g_build_filename (dir, "strobe", NULL);
  const char *args[] = { "options", NULL };
  const char *env[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEFILE", path, NULL };
  g_autoptr(GDir) d = NULL;
  Run r;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  /* control_port = STROBE_CONTROL_NONE: the server the automatic start opened is closed. */
  g_assert_cmpuint (fact (&r, "port"), ==, 0);
  /* no_worker: nothing ships until the program calls strobe_update(). */
  g_assert_cmpuint (fact (&r, "shipped_while_idle"), ==, 0);
  g_assert_cmpuint (fact (&r, "shipped_by_update"), >, 0);
  d = g_dir_open (disc, 0, NULL);
  g_assert_true (d == NULL || g_dir_read_name (d) == NULL);
  run_clear (&r);
  test_dir_remove_all (dir);
}

/* ---- settings the runtime cannot use ------------------------------------------------- */

static void
assert_said (const Run *r, const char *text)
{
  if (strstr (r->err, text) == NULL)
    g_error ("stderr does not say “%s”: %s", text, r->err);
}

static guint
count_said (const Run *r, const char *text)
{
  guint n = 0;

  for (const char *p = r->err; (p = strstr (p, text)); p += strlen (text))
    n++;
  return n;
}

static void
test_env_report (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  const char *args[] = { "env", NULL };
  const char *env[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEFILE", "", "STROBE_TRACEHOST", "",
                        "STROBE_BUFFER_MB", "abc", "STROBE_TAIL_MB", "-3", "STROBE_CONTROL_PORT", "0",
                        "STROBE_LOG_VERBOSITY", "ProcLog=bogus", NULL };
  const char *env2[] = { "STROBE_TRACE", "Proc,cpux", "STROBE_TRACEHOST", "127.0.0.1:99999",
                         "STROBE_CONTROL_PORT", "0", "STROBE_LOG_VERBOSITY", "ProcLog=very-verbose",
                         NULL };
  const char *full[] = { "STROBE_TRACE", "Proc", "STROBE_TRACEFILE", "/dev/full",
                         "STROBE_CONTROL_PORT", "0", NULL };
  const char *quiet[] = { "STROBE_TRACE", "Proc", "STROBE_CONTROL_PORT", "0", "STROBE_BUFFER_MB", "8",
                          NULL };
  const char *args_args[] = { "args", "--trace=bogus", "x", "--", "--trace=after", NULL };
  const char *args_env[] = { "STROBE_CONTROL_PORT", "0", NULL };
  Run r;

  run_emitter (dir, args, env, &r);
  g_assert_cmpint (r.status, ==, 0);
  assert_said (&r, "STROBE_BUFFER_MB=abc");
  assert_said (&r, "STROBE_TAIL_MB=-3");
  assert_said (&r, "STROBE_TRACEFILE is set but empty");
  assert_said (&r, "STROBE_TRACEHOST is set but empty");
  assert_said (&r, "STROBE_LOG_VERBOSITY: “ProcLog=bogus” is not CATEGORY=LEVEL");
  g_assert_cmpuint (fact (&r, "verbose"), ==, 0);
  run_clear (&r);

  /* A channel nobody declared, a port that does not exist; the CLI's spelling of a level. */
  run_emitter (dir, args, env2, &r);
  g_assert_cmpint (r.status, ==, 0);
  assert_said (&r, "no channel named cpux (channels: ");
  assert_said (&r, "Proc");
  assert_said (&r, "trace host 127.0.0.1:99999 is not HOST[:PORT] (the port must be a number from 1 to 65535)");
  g_assert_cmpuint (count_said (&r, "STROBE_LOG_VERBOSITY"), ==, 0);
  g_assert_cmpuint (fact (&r, "verbose"), ==, 1);
  run_clear (&r);

  /* A trace file that cannot be written is reported once. */
  run_emitter (dir, args, full, &r);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_said (&r, "No space left on device"), ==, 1);
  assert_said (&r, "cannot write trace file /dev/full");
  run_clear (&r);

  /* An output that could not start is what strobe_output_error() says. */
  {
    const char *outerr[] = { "outerr", NULL };

    run_emitter (dir, outerr, args_env, &r);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpuint (fact (&r, "file"), ==, ENOENT);
    g_assert_cmpuint (fact (&r, "host"), ==, EINVAL);
    run_clear (&r);
  }

  /* --trace= is ours only before "--"; a name it gives that matches nothing is said. */
  run_emitter (dir, args_args, args_env, &r);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "rest args x -- --trace=after\n"));
  assert_said (&r, "no channel named bogus");
  g_assert_cmpuint (count_said (&r, "after"), ==, 0);
  run_clear (&r);

  /* Settings that are fine say nothing. */
  run_emitter (dir, args, quiet, &r);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  run_clear (&r);
  test_dir_remove_all (dir);
}

/* ---- text from a trace on a terminal ---------------------------------------------------- */

/* No byte of @out can drive a terminal: no C0 control but newline, no DEL, no C1 control,
 * no bidirectional override; and the escapes stand where the text was. */
static void
assert_inert (const char *what, const char *out, gboolean bidi_allowed)
{
  for (const char *p = out; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_utf8_validate (p, -1, NULL))
        g_error ("%s printed bytes that are not UTF-8: %s", what, p);
      if ((c < 0x20 && c != '\n') || (c >= 0x7f && c < 0xa0)
          || (!bidi_allowed && c >= 0x202a && c <= 0x202e))
        g_error ("%s printed U+%04X raw", what, c);
    }
}

static char *
run_cli (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  g_ptr_array_add (argv, (char *) g_getenv ("STROBE_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  return out;
}

/* The same with stdout on a terminal (a pseudo-terminal in raw mode). */
static char *
run_cli_tty (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  struct termios raw;
  int master = posix_openpt (O_RDWR | O_NOCTTY), slave, status;
  GPid pid;
  char buf[4096];
  ssize_t n;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);
  g_assert_cmpint (tcgetattr (slave, &raw), ==, 0);
  cfmakeraw (&raw);
  g_assert_cmpint (tcsetattr (slave, TCSANOW, &raw), ==, 0);
  g_ptr_array_add (argv, (char *) g_getenv ("STROBE_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_async_with_fds (NULL, (char **) argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                          &pid, -1, slave, -1, &error);
  g_assert_no_error (error);
  close (slave);
  /* EIO once the child has closed the last slave descriptor. */
  while ((n = read (master, buf, sizeof buf)) > 0)
    g_string_append_len (out, buf, n);
  close (master);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_escapes (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-process-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "evil.strobe", NULL);
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  /* argv[0] names the program in the trace. */
  const char *argv[] = { emitter_path, "evil\x1b]0;title\x07", "evil", NULL };
  const char *commands[][5] = {
    { "info", path, NULL }, { "log", path, NULL }, { "log", "--location", path, NULL },
    { "stats", path, NULL }, { "dump", path, NULL },
    { "memory", "--by=tag", path, NULL }, { "memory", "--by=heap", path, NULL },
    { "export", "--format=csv", "--what=log", path, NULL },
    { "export", "--format=csv", "--what=timers", path, NULL },
    { "export", "--format=csv", "--what=scopes", path, NULL },
    { "export", "--format=chrome-json", path, NULL },
  };
  const char *on_tty[][6] = {
    { "dump", path, NULL }, { "export", "--format=csv", "--what=log", path, NULL },
    { "export", "--format=csv", "--what=timers", path, NULL },
  };
  int status;

  envp = g_environ_setenv (envp, "STROBE_TRACE", "Proc,Cpu,Log,Memory", TRUE);
  envp = g_environ_setenv (envp, "STROBE_TRACEFILE", path, TRUE);
  envp = g_environ_setenv (envp, "STROBE_CONTROL_PORT", "0", TRUE);
  envp = g_environ_unsetenv (envp, "STROBE_TRACEHOST");
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_FILE_AND_ARGV_ZERO | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = run_cli (commands[i]);
      g_autofree char *what = g_strjoinv (" ", (char **) commands[i]);

      /* Into a pipe too: what reads it may be a terminal (less -R, tee, ssh). dump
       * escapes bidirectional overrides as PROTOCOL.md §10 says. */
      assert_inert (what, out, FALSE);
      g_assert_nonnull (strstr (out, "\\u001b"));   /* escaped, not dropped */
      g_assert_nonnull (strstr (out, "\\u202e"));
    }
  for (guint i = 0; i < G_N_ELEMENTS (on_tty); i++)
    {
      g_autofree char *out = run_cli_tty (on_tty[i]);
      g_autofree char *what = g_strjoinv (" ", (char **) on_tty[i]);

      assert_inert (what, out, FALSE);
      g_assert_nonnull (strstr (out, "\\u202e"));
    }
  {
    g_autofree char *info = run_cli (commands[0]);
    g_autofree char *log = run_cli (commands[1]);
    g_autofree char *stats = run_cli (commands[3]);

    g_assert_nonnull (strstr (info, "evil\\u001b]0;title\\u0007"));
    g_assert_nonnull (strstr (info, "thread-a\\u001b]52;c;aGk=\\u0007b\\u001b[2Jc\\u0085d\\u202ee"));
    g_assert_nonnull (strstr (log, "message-a\\u001b]52;c;aGk=\\u0007b\\u001b[2Jc\\u0085d\\u202ee-0"));
    g_assert_nonnull (strstr (stats, "scope-a\\u001b]52;c;aGk=\\u0007b"));
  }
  {
    g_autofree char *tags = run_cli (commands[5]);
    g_autofree char *heaps = run_cli (commands[6]);

    g_assert_nonnull (strstr (tags, "tag-a\\u001b]52;c;aGk=\\u0007b\\u001b[2Jc\\u0085d\\u202ee"));
    g_assert_nonnull (strstr (heaps, "heap-a\\u001b]52;c;aGk=\\u0007b\\u001b[2Jc\\u0085d\\u202ee"));
  }
  test_dir_remove_all (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  emitter_path = g_getenv ("PROCESS_EMITTER");
  g_assert_nonnull (emitter_path);
  g_test_add_func ("/process/fork-file", test_fork_file);
  g_test_add_func ("/process/fork-follow", test_fork_follow);
  g_test_add_func ("/process/fork-host", test_fork_host);
  g_test_add_func ("/process/signals", test_signals);
  g_test_add_func ("/process/counters", test_counters);
  g_test_add_func ("/process/options-win", test_options_win);
  g_test_add_func ("/process/env-report", test_env_report);
  g_test_add_func ("/process/escapes", test_escapes);
  return g_test_run ();
}
