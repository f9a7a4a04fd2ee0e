/* strobe-bench-scale.c — issue 20: a trace a hundred times bigger than the tests. Records,
 * with the real runtime, a game-like workload of N scopes (a game thread, a render thread
 * and four workers; the skewed names and depths of strobe-bench-cpu's workload; frames,
 * counters and some log messages), keeps the file, then measures what reading it costs:
 * `strobe-cli info` (the decoder and the nesting count, no model), `strobe-cli stats` (rate and peak
 * resident memory), `strobe-cli compare` of the trace with itself, the document a viewer opens (every model: rate, peak memory, bytes a
 * scope, the timers of a 1 % range). With --allocations / --messages it also writes
 * traces of that many allocations and log messages and measures `strobe-cli memory` and
 * `strobe-cli log --grep` on them. The viewer's Timeline page opens the scopes trace as the
 * viewer does, read as it is shown (bench-scale-view.c: open → first complete frame,
 * frames at three zooms while loading and after, the main thread's stalls), under
 * xvfb-run without a display. Every reader runs as a child process, so its peak
 * resident memory (wait4's ru_maxrss) is its own.
 *
 * Usage: strobe-bench-scale [--quick] [--scopes N] [--allocations N] [--messages N]
 *                           [--dir DIR] [--reuse] [--no-view]
 * Default 1 000 000 000 scopes (minutes to write, a few GB of file); --quick: 20 M.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "bench-decode.h"
#include "bench-scale-view.h"

#include "strobe-call-tree.h"
#include "strobe-document.h"
#include "strobe-log-model.h"
#include "strobe-scope-search.h"
#include "strobe-stream-copy.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static gboolean quick, reuse;
static const char *bench_dir;
static gint64 n_scopes, n_allocations = -1, n_messages = -1;
static char *open_path;   /* child mode: --measure-open FILE */
static char *decode_path; /* child mode: --measure-decode FILE */
static char *view_path;   /* child mode: --measure-view FILE */
static gboolean no_view;
static char *walk_path;   /* child mode: --measure-decode-walk FILE */
static char *log_path;    /* child mode: --measure-log FILE */

/* ---- the workload: strobe-bench-cpu's call tree, per thread ------------------------- */

#define N_NAMES 300

static StrobeCpuSpec specs[N_NAMES];
static char *spec_names[N_NAMES];
static StrobeLogCategory log_category = { .name = "Scale", .verbosity = STROBE_LOG_VERBOSE,
                                          .default_verbosity = STROBE_LOG_LOG };
static StrobeLogSpec log_spec = { .verbosity = STROBE_LOG_LOG, .category = &log_category,
                                  .file = __FILE__, .line = __LINE__, .format = "frame %llu: %u entities" };
static StrobeCounter counter_entities = STROBE_COUNTER_INIT ("scale.entities", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);
static StrobeCounter counter_load = STROBE_COUNTER_INIT ("scale.load", STROBE_COUNTER_FLOAT, STROBE_UNIT_PERCENT);

typedef struct
{
  const char *name;
  guint       index;
  guint64     share;          /* scopes to emit */
  gint        frame_type;     /* -1: none (a worker) */
  guint32     rng;
  guint64     emitted;
} Emitter;

static inline guint32
next_rand (Emitter *e)
{
  e->rng = e->rng * 1664525u + 1013904223u;
  return e->rng >> 8;
}

static void
spin (guint iters)
{
  volatile guint x = 0;
  for (guint i = 0; i < iters; i++)
    x += i;
}

/* strobe-bench-cpu's node, leaves an eighth as long (or a billion scopes would take half
 * an hour of spinning): 60 % short leaves, 35 % middling, 5 % long. */
static guint64
node (Emitter *e, guint depth, guint site)
{
  guint64 n = 1;
  StrobeCpuSpec *spec = &specs[(site * 7 + depth * 31 + e->index * 13) % N_NAMES];
  guint children;

  if (!strobe_cpu_begin (spec))
    return 0;
  if (depth >= 8 || (depth > 2 && next_rand (e) % 4 == 0))
    children = 0;
  else
    children = depth < 2 ? 4 + next_rand (e) % 4 : next_rand (e) % 5;
  if (children == 0)
    {
      guint r = next_rand (e) % 100;
      spin (r < 60 ? r / 8 : r < 95 ? 10 + r : 500 + r * 3);
    }
  for (guint c = 0; c < children; c++)
    {
      n += node (e, depth + 1, site * 5 + c + (next_rand (e) % 3 == 0 ? next_rand (e) % 40 : 0));
      if (next_rand (e) % 3 == 0)
        spin (2);
    }
  strobe_cpu_end ();
  return n;
}

static void *
emitter_main (void *data)
{
  Emitter *e = data;

  strobe_thread_set_name (e->name, "scale", (int32_t) e->index);
  for (guint64 frame = 0; e->emitted < e->share; frame++)
    {
      if (e->frame_type >= 0)
        strobe_frame_begin ((StrobeFrameType) e->frame_type);
      e->emitted += node (e, 0, (guint) (frame % 3));
      if (e->frame_type >= 0)
        strobe_frame_end ((StrobeFrameType) e->frame_type);
      if (e->frame_type == STROBE_FRAME_GAME)
        {
          strobe_counter_set_int (&counter_entities, (int64_t) (1000 + frame % 977));
          strobe_counter_set_float (&counter_load, (double) (frame % 100));
          if (frame % 16 == 0)
            {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
              strobe__log_message (&log_spec, log_spec.format, (unsigned long long) frame, (unsigned) (frame % 977));
#pragma GCC diagnostic pop
            }
        }
    }
  return NULL;
}

static goffset
file_size (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 ? (goffset) st.st_size : -1;
}

/* Reads @path through before its readers are timed: they are measured reading a file in the
 * page cache. The test machines run a DAMON "pageout" scheme (kdamond) that reclaims file
 * pages not touched for a minute — the messages trace, measured last, was read from disk
 * in some runs and not in others (`strobe-cli log --grep` 12.4 s against 7.3 s warm). The
 * time it took says which it was. */
static void
warm_file (const char *path, const char *key)
{
  g_autofree char *name = g_strdup_printf ("%s.warm_seconds", key);
  g_autofree guint8 *buf = g_malloc (16u << 20);
  double t0 = bench_now_ns ();
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return;
  while (read (fd, buf, 16u << 20) > 0)
    ;
  close (fd);
  bench_report (name, (bench_now_ns () - t0) / 1e9,
                "s (the file read into the page cache before it is measured; under 0.3 s a GB when it was there already)");
}

static gboolean
have_file (const char *path)
{
  return reuse && file_size (path) > 0;
}

static void
write_scopes (const char *path, guint64 n)
{
  static const struct { const char *name; guint percent; gint frame; } roles[] = {
    { "game", 30, STROBE_FRAME_GAME }, { "render", 20, STROBE_FRAME_RENDER },
    { "worker-0", 13, -1 }, { "worker-1", 13, -1 }, { "worker-2", 12, -1 }, { "worker-3", 12, -1 },
  };
  Emitter e[G_N_ELEMENTS (roles)];
  pthread_t threads[G_N_ELEMENTS (roles)];
  StrobeStats st0, st1;
  guint64 total = 0;
  double t0 = bench_now_ns ();

  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  strobe_get_stats (&st0);
  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    {
      e[i] = (Emitter) { roles[i].name, i, n * roles[i].percent / 100, roles[i].frame, 12345u + i * 7919u, 0 };
      pthread_create (&threads[i], NULL, emitter_main, &e[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    {
      pthread_join (threads[i], NULL);
      total += e[i].emitted;
    }
  strobe_flush ();
  strobe_get_stats (&st1);
  strobe_output_stop ();
  bench_report ("write.scopes", (double) total, "scopes");
  bench_report ("write.seconds", (bench_now_ns () - t0) / 1e9, "s");
  bench_report ("write.dropped", (double) (st1.events_dropped - st0.events_dropped), "events");
}

/* Allocations from 4 threads: mostly temporaries freed at once, one in 8 kept until the
 * end of its thread's run, a few hundred sites by tag. */
static void *
alloc_main (void *data)
{
  Emitter *e = data;
  guint64 base = 0x100000000000ull * (e->index + 1);

  strobe_thread_set_name (e->name, "scale", (int32_t) e->index);
  for (guint64 i = 0; i < e->share; i++)
    {
      guint32 r = next_rand (e);
      guint64 addr = r % 8 == 0 ? base + 0x1000000000ull + 16 * i : base + 16 * (i % 64);

      strobe_memory_alloc ((const void *) (uintptr_t) addr, 16 + r % 4000, 0, 0);
      if (r % 8 != 0)
        strobe_memory_free ((const void *) (uintptr_t) addr, 0);
      if ((i & 0xffff) == 0xffff)
        strobe_flush ();
    }
  return NULL;
}

static const char *const words[] = { "alice", "bob", "example.org", "textures", "meshes", "audio" };

static void *
log_main (void *data)
{
  static StrobeLogSpec s = { .verbosity = STROBE_LOG_LOG, .category = &log_category,
                             .file = __FILE__, .line = __LINE__, .format = "request %u from %s took %.3f ms" };
  Emitter *e = data;

  strobe_thread_set_name (e->name, "scale", (int32_t) e->index);
  for (guint64 i = 0; i < e->share; i++)
    {
      guint32 r = next_rand (e);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      strobe__log_message (&s, s.format, (unsigned) i, words[r % G_N_ELEMENTS (words)], (double) (r % 10000) / 7.0);
#pragma GCC diagnostic pop
      if ((i & 0xffff) == 0xffff)
        strobe_flush ();
    }
  return NULL;
}

static void
write_threads (const char *path, guint64 n, void *(*fn) (void *), const char *what)
{
  Emitter e[4];
  pthread_t threads[4];
  StrobeStats st0, st1;
  double t0 = bench_now_ns ();
  g_autofree char *seconds = g_strdup_printf ("write.%s_seconds", what);
  g_autofree char *dropped = g_strdup_printf ("write.%s_dropped", what);

  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  strobe_get_stats (&st0);
  for (guint i = 0; i < 4; i++)
    {
      static const char *const names[] = { "worker-0", "worker-1", "worker-2", "worker-3" };
      e[i] = (Emitter) { names[i], i, n / 4 + (i < n % 4), -1, 777u + i, 0 };
      pthread_create (&threads[i], NULL, fn, &e[i]);
    }
  for (guint i = 0; i < 4; i++)
    pthread_join (threads[i], NULL);
  strobe_flush ();
  strobe_get_stats (&st1);
  strobe_output_stop ();
  bench_report (seconds, (bench_now_ns () - t0) / 1e9, "s");
  bench_report (dropped, (double) (st1.events_dropped - st0.events_dropped), "events");
}

/* ---- measuring: child processes ------------------------------------------------------ */

typedef struct
{
  double seconds;
  double cpu_seconds;   /* user + system, all its threads */
  double peak_bytes;
  int    status;
} Run;

static double
cpu_of (const struct rusage *ru)
{
  return (double) ru->ru_utime.tv_sec + (double) ru->ru_utime.tv_usec / 1e6 +
         (double) ru->ru_stime.tv_sec + (double) ru->ru_stime.tv_usec / 1e6;
}

/* Wrapper mode (--run-measured RESULT SHOW PROGRAM ARGS…): forks and runs PROGRAM, then
 * writes its peak resident KiB, CPU seconds and exit status to RESULT. Why a wrapper: a
 * child's ru_maxrss is at least the resident size of the process it was spawned from
 * (exec keeps the old address space's high-water mark), and this bench holds the
 * runtime's 256 MiB of buffers — every child measured the bench's peak, not its own
 * (2 M messages: `log --grep` and `info` both "38.9 MiB"). The wrapper, freshly started,
 * is a few MiB. */
static int
run_measured (const char *result, gboolean show, char **argv)
{
  struct rusage ru;
  int status = 0;
  pid_t pid = fork ();
  FILE *f;

  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      if (!show)
        {
          int null = open ("/dev/null", O_WRONLY);

          if (null >= 0)
            dup2 (null, STDOUT_FILENO);
        }
      execv (argv[0], argv);
      _exit (127);
    }
  if (wait4 (pid, &status, 0, &ru) < 0)
    g_error ("wait4: %s", g_strerror (errno));
  f = fopen (result, "w");
  if (f == NULL)
    g_error ("%s: %s", result, g_strerror (errno));
  fprintf (f, "%ld %.6f %d\n", ru.ru_maxrss, cpu_of (&ru),
           WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
  fclose (f);
  return 0;
}

static char *self_path (void);

/* Runs @argv with its stdout to /dev/null (or inherited when @show): wall time and peak
 * resident memory, through the wrapper above. */
static Run
run_child (char **argv, gboolean show)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) wrapped = g_ptr_array_new ();
  g_autofree char *self = self_path ();
  g_autofree char *result = NULL, *text = NULL;
  long maxrss_kib = 0;
  int fd, status = 0;
  Run r = { 0 };
  double t0;

  fd = g_file_open_tmp ("strobe-bench-scale-run-XXXXXX", &result, &error);
  if (fd < 0)
    g_error ("%s", error->message);
  close (fd);
  g_ptr_array_add (wrapped, self);
  g_ptr_array_add (wrapped, (char *) "--run-measured");
  g_ptr_array_add (wrapped, result);
  g_ptr_array_add (wrapped, (char *) (show ? "1" : "0"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (wrapped, argv[i]);
  g_ptr_array_add (wrapped, NULL);
  t0 = bench_now_ns ();
  if (!g_spawn_sync (NULL, (char **) wrapped->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, NULL, NULL, &status, &error))
    g_error ("%s: %s", argv[0], error->message);
  r.seconds = (bench_now_ns () - t0) / 1e9;
  if (!g_file_get_contents (result, &text, NULL, &error) ||
      sscanf (text, "%ld %lf %d", &maxrss_kib, &r.cpu_seconds, &r.status) != 3)
    g_error ("%s: no figures from the wrapper", argv[0]);
  g_unlink (result);
  r.peak_bytes = (double) maxrss_kib * 1024.0;
  if (r.status != 0)
    printf ("# %s %s exited with status %d\n", argv[0], argv[1], r.status);
  return r;
}

/* Runs @argv with its stdout captured into @out: wall time and peak resident memory. */
static Run
run_capture (char **argv, char **out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GIOChannel) ch = NULL;
  struct rusage ru;
  GPid pid;
  gint out_fd;
  int status = 0;
  gsize len;
  Run r = { 0 };
  double t0 = bench_now_ns ();

  if (!g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                 NULL, &out_fd, NULL, &error))
    g_error ("%s: %s", argv[0], error->message);
  ch = g_io_channel_unix_new (out_fd);
  g_io_channel_set_close_on_unref (ch, TRUE);
  g_io_channel_read_to_end (ch, out, &len, NULL);
  if (wait4 (pid, &status, 0, &ru) < 0)
    g_error ("wait4: %s", g_strerror (errno));
  r.seconds = (bench_now_ns () - t0) / 1e9;
  r.peak_bytes = (double) ru.ru_maxrss * 1024.0;
  r.cpu_seconds = cpu_of (&ru);
  r.status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  if (r.status != 0)
    printf ("# %s %s exited with status %d\n", argv[0], argv[1], r.status);
  return r;
}

/* User + system seconds of this process so far. */
static double
process_cpu (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return cpu_of (&ru);
}

/* What a user asks of one name on a big trace, each a walk on a worker thread: its
 * longest instance over the whole trace (the timers panel's and the compare page's "show
 * it"), and Ctrl+F for its text, the commonest name and the rarest. */
static void
measure_search (StrobeTimelineModel *timeline, GArray *stats, guint64 first, guint64 last)
{
  const StrobeTimerStat *common = NULL, *rare = NULL;

  for (guint i = 0; i < stats->len; i++)
    {
      const StrobeTimerStat *st = &g_array_index (stats, StrobeTimerStat, i);

      if (common == NULL || st->count > common->count)
        common = st;
      if (rare == NULL || st->count < rare->count)
        rare = st;
    }
  if (common == NULL)
    return;
  for (guint k = 0; k < 2; k++)
    {
      const StrobeTimerStat *st = k == 0 ? common : rare;
      const char *which = k == 0 ? "common" : "rare";
      const char *name = strobe_timeline_model_get_name (timeline, st->name_id);
      g_autoptr(GArray) found = NULL;
      StrobeScopeMatch m;
      guint64 total = 0;
      double t0 = bench_now_ns (), cpu0 = process_cpu ();

      if (!strobe_scope_search_longest (timeline, st->name_id, first, last, &m, NULL, NULL) || m.end - m.begin != st->max)
        g_error ("the longest %s is not the timers' max", name);
      printf ("search.longest_%s %.1f ms (%s, %" G_GUINT64_FORMAT " of them)\n", which, (bench_now_ns () - t0) / 1e6,
              name, st->count);
      printf ("search.longest_%s_cpu %.1f ms\n", which, (process_cpu () - cpu0) * 1e3);
      t0 = bench_now_ns ();
      cpu0 = process_cpu ();
      /* As many as the timeline's Ctrl+F keeps (app/timeline/strobe-timeline-view.c). */
      found = strobe_scope_search (timeline, name, 1u << 20, &total, NULL, NULL);
      printf ("search.find_%s %.1f ms (%" G_GUINT64_FORMAT " found)\n", which, (bench_now_ns () - t0) / 1e6, total);
      printf ("search.find_%s_cpu %.1f ms\n", which, (process_cpu () - cpu0) * 1e3);
      fflush (stdout);
    }
}

/* The callers and callees of the most common timer, as the timers panel finds them when a
 * row is chosen, over the middle 1 % and the whole trace. */
static void
measure_links (StrobeTimelineModel *timeline, GArray *stats, guint64 first, guint64 last)
{
  const StrobeTimerStat *common = NULL;
  guint64 span = last - first;

  for (guint i = 0; i < stats->len; i++)
    if (common == NULL || g_array_index (stats, StrobeTimerStat, i).count > common->count)
      common = &g_array_index (stats, StrobeTimerStat, i);
  for (guint k = 0; common != NULL && k < 2; k++)
    {
      guint64 t0 = k == 0 ? first + span / 2 : first, t1 = k == 0 ? first + span / 2 + span / 100 : last, sum = 0;
      g_autoptr(GArray) callers = NULL;
      g_autoptr(GArray) callees = NULL;
      double w0 = bench_now_ns (), cpu0 = process_cpu ();

      if (!strobe_call_tree_links (timeline, common->name_id, t0, t1, STROBE_TIMER_STATS_ALL_THREADS, &callers, &callees,
                                   NULL, NULL, NULL))
        g_error ("the callers were not found");
      printf ("links.%s %.1f ms (%u callers, %u callees)\n", k == 0 ? "range_1pc" : "whole_trace",
              (bench_now_ns () - w0) / 1e6, callers->len, callees->len);
      printf ("links.%s_cpu %.1f ms\n", k == 0 ? "range_1pc" : "whole_trace", (process_cpu () - cpu0) * 1e3);
      for (guint i = 0; i < callers->len; i++)
        sum += g_array_index (callers, StrobeCallLink, i).count;
      if (k == 1 && sum != common->count)
        g_error ("the callers count %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, sum, common->count);
    }
  /* Every timer's at once (the panel keeps them when a timer's took long): the next timer
   * chosen in the range is answered without a walk. */
  for (guint k = 0; common != NULL && k < 2; k++)
    {
      guint64 t0 = k == 0 ? first + span / 2 : first, t1 = k == 0 ? first + span / 2 + span / 100 : last;
      double w0 = bench_now_ns (), cpu0 = process_cpu ();
      g_autoptr(StrobeCallPairs) pairs = strobe_call_tree_pairs (timeline, t0, t1, STROBE_TIMER_STATS_ALL_THREADS,
                                                                 NULL, NULL, NULL);
      g_autoptr(GArray) callers = NULL;
      g_autoptr(GArray) callees = NULL;

      printf ("pairs.%s %.1f ms (%zu name pairs)\n", k == 0 ? "range_1pc" : "whole_trace", (bench_now_ns () - w0) / 1e6,
              (size_t) strobe_call_pairs_get_n_pairs (pairs));
      printf ("pairs.%s_cpu %.1f ms\n", k == 0 ? "range_1pc" : "whole_trace", (process_cpu () - cpu0) * 1e3);
      w0 = bench_now_ns ();
      strobe_call_pairs_get_links (pairs, common->name_id, &callers, &callees);
      printf ("pairs.%s_one_timer %.3f ms (a timer's callers and callees from them)\n",
              k == 0 ? "range_1pc" : "whole_trace", (bench_now_ns () - w0) / 1e6);
    }
  fflush (stdout);
}

/* Child mode: the document a viewer opens, every model; its own figures on stdout. */
static int
measure_open (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrobeDocument) doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) stats = NULL;
  StrobeTimelineModel *timeline;
  StrobeTimelineStats ms;
  guint64 first = 0, last = 0, span;
  double t0 = bench_now_ns (), t, cpu0;

  if (!strobe_document_load (doc, NULL, &error))
    g_error ("%s: %s", path, error->message);
  t = (bench_now_ns () - t0) / 1e9;
  timeline = strobe_document_get_timeline (doc);
  strobe_timeline_model_get_stats (timeline, &ms);
  printf ("open.seconds %.3f s\n", t);
  printf ("open.scopes %" G_GUINT64_FORMAT " scopes\n", ms.scopes);
  if (ms.memory_overflows)
    printf ("open.scopes_not_kept %" G_GUINT64_FORMAT " scopes (the memory budget, %" G_GUINT64_FORMAT " MiB, reached)\n",
            ms.memory_overflows, ms.memory_budget >> 20);
  printf ("open.rate %.2f M scopes/s (every model, as the viewer opens it)\n", (double) ms.scopes / t / 1e6);
  printf ("open.model_bytes_per_scope %.2f B (timeline model, whole)\n", (double) ms.total_bytes / (double) MAX (ms.scopes, 1));
  printf ("open.resident_bytes_per_scope %.2f B (resident now)\n", bench_rss_mib () * 1048576.0 / (double) MAX (ms.scopes, 1));

  /* The timers of the middle 1 % of the trace, then of the whole trace; their CPU time
   * too (every thread of the process), as the wall time on a shared machine swings. */
  strobe_timeline_model_get_time_range (timeline, &first, &last);
  span = last - first;
  t0 = bench_now_ns ();
  cpu0 = process_cpu ();
  stats = strobe_timer_stats_compute (timeline, first + span / 2, first + span / 2 + span / 100, STROBE_TIMER_STATS_ALL_THREADS);
  printf ("timers.range_1pc %.1f ms (%u names)\n", (bench_now_ns () - t0) / 1e6, stats->len);
  printf ("timers.range_1pc_cpu %.1f ms\n", (process_cpu () - cpu0) * 1e3);
  g_clear_pointer (&stats, g_array_unref);
  t0 = bench_now_ns ();
  cpu0 = process_cpu ();
  stats = strobe_timer_stats_compute (timeline, first, last, STROBE_TIMER_STATS_ALL_THREADS);
  printf ("timers.whole_trace %.1f ms (%u names)\n", (bench_now_ns () - t0) / 1e6, stats->len);
  printf ("timers.whole_trace_cpu %.1f ms\n", (process_cpu () - cpu0) * 1e3);
  fflush (stdout);
  measure_search (timeline, stats, first, last);
  /* The call tree (the flame graph's) of the same two ranges, as the timers panel asks for
   * it when a selection is made. */
  for (guint k = 0; k < 2; k++)
    {
      guint64 t0_tree = k == 0 ? first + span / 2 : first, t1_tree = k == 0 ? first + span / 2 + span / 100 : last;
      StrobeCostTree *tree;

      t0 = bench_now_ns ();
      cpu0 = process_cpu ();
      tree = strobe_call_tree_compute (timeline, t0_tree, t1_tree, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
      printf ("tree.%s %.1f ms (%u nodes)\n", k == 0 ? "range_1pc" : "whole_trace", (bench_now_ns () - t0) / 1e6,
              strobe_cost_tree_get_n_nodes (tree));
      printf ("tree.%s_cpu %.1f ms\n", k == 0 ? "range_1pc" : "whole_trace", (process_cpu () - cpu0) * 1e3);
      strobe_cost_tree_unref (tree);
    }
  measure_links (timeline, stats, first, last);
  return 0;
}

/* Child mode: the log as `strobe-cli log --grep` reads it (only the log model), the text
 * filter timed apart from the load — the "filter ≤ 10 s" — and what the model
 * says it keeps. Peak from VmHWM: this process's own address space. */
static int
measure_log (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrobeDocument) doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_LOG);
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  StrobeLogFilter filter = { .text = "example.org" };
  StrobeLogModelMemory mem;
  StrobeLogModel *model;
  guint64 n, hits = 0;
  double t0 = bench_now_ns (), t, cpu0;
  const char *hwm;

  if (!strobe_document_load (doc, NULL, &error))
    g_error ("%s: %s", path, error->message);
  t = (bench_now_ns () - t0) / 1e9;
  model = strobe_document_get_log (doc);
  n = strobe_log_model_get_count (model);
  printf ("log.open_seconds %.3f s (only the log model, as strobe-cli log)\n", t);
  printf ("log.messages %" G_GUINT64_FORMAT " messages\n", n);
  t0 = bench_now_ns ();
  cpu0 = process_cpu ();
  /* In windows as strobe-cli log does: the answer of 100 M messages is not kept whole. */
  for (guint64 from = 0; from < n; from += 1u << 20)
    {
      g_autoptr(GArray) part = strobe_log_model_filter (model, &filter, from, MIN (n, from + (1u << 20)));

      hits += part->len;
    }
  t = (bench_now_ns () - t0) / 1e9;
  printf ("log.filter_seconds %.3f s (text \"%s\" over every message)\n", t, filter.text);
  printf ("log.filter_cpu_seconds %.3f s (every thread)\n", process_cpu () - cpu0);
  printf ("log.filter_ns_per_message %.1f ns (wall)\n", t * 1e9 / (double) MAX (n, 1));
  printf ("log.filter_hits %" G_GUINT64_FORMAT " messages\n", hits);
  strobe_log_model_get_memory (model, &mem);
  printf ("log.model_bytes_per_message %.2f B (the model's own count: records, order, arguments cached, tables)\n",
          (double) mem.total / (double) MAX (n, 1));
  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) && (hwm = strstr (status, "VmHWM:")) != NULL)
    printf ("log.peak_bytes_per_message %.2f B (peak resident of this process)\n",
            g_ascii_strtod (hwm + 6, NULL) * 1024.0 / (double) MAX (n, 1));
  fflush (stdout);
  return 0;
}

static char *
self_path (void)
{
  return g_file_read_link ("/proc/self/exe", NULL);
}

static void
ratio_line (const char *name, double value, const char *op, double target)
{
  bench_report_ratio (name, value, op, target);
}

/* Reads `name value unit` lines a child printed for one figure (its stdout, captured). */
static double
child_figure (const char *out, const char *name)
{
  g_autofree char *key = g_strdup_printf ("\n%s ", name);
  g_autofree char *text = g_strdup_printf ("\n%s", out);
  const char *p = strstr (text, key);

  return p ? g_ascii_strtod (p + strlen (key), NULL) : -1;
}

static void
measure_scopes (const char *path, guint64 scopes)
{
  g_autofree char *self = self_path ();
  char *info[] = { (char *) STROBE_CLI_PATH, (char *) "info", (char *) path, NULL };
  char *decode[] = { self, (char *) "--measure-decode", (char *) path, NULL };
  char *walk[] = { self, (char *) "--measure-decode-walk", (char *) path, NULL };
  char *stats[] = { (char *) STROBE_CLI_PATH, (char *) "stats", (char *) path, NULL };
  char *compare[] = { (char *) STROBE_CLI_PATH, (char *) "compare", (char *) "--section=timers,frames",
                      (char *) "--format=csv", (char *) path, (char *) path, NULL };
  char *open[] = { self, (char *) "--measure-open", (char *) path, NULL };
  g_autofree char *open_out = NULL;
  Run r_decode, r_walk, r_info, r_stats, r_compare, r_open;
  double stats_rate, open_rate, one_pc;

  /* The document a viewer opens, in a child: its stdout is captured to read its rate. */
  r_open = run_capture (open, &open_out);
  fputs (open_out ? open_out : "", stdout);
  open_rate = child_figure (open_out, "open.rate");
  one_pc = child_figure (open_out, "timers.range_1pc");
  bench_report ("open.cpu_seconds", r_open.cpu_seconds, "s (load, timers of a 1 % range and of the whole trace)");
  bench_report ("open.peak", r_open.peak_bytes / 1048576.0, "MiB");
  if (child_figure (open_out, "open.scopes") > 0)
    scopes = (guint64) child_figure (open_out, "open.scopes");
  bench_report ("open.peak_bytes_per_scope", r_open.peak_bytes / (double) scopes, "B (peak resident, timers of the whole trace included)");

  r_decode = run_child (decode, FALSE);
  bench_report ("decode.seconds", r_decode.seconds, "s (the decoder alone, reading the file: the floor)");
  bench_report ("decode.cpu_seconds", r_decode.cpu_seconds, "s");
  bench_report ("decode.rate", (double) scopes / r_decode.seconds / 1e6, "M scopes/s");
  bench_report ("decode.cpu_rate", (double) scopes / r_decode.cpu_seconds / 1e6, "M scopes/s of CPU time");

  /* The fair "decoder alone" for scopes: every record decoded, nothing kept. decode.*
   * never reads inside a batch, so its rate is LZ4's and the framing's, not a scope's. */
  r_walk = run_child (walk, FALSE);
  bench_report ("decode.walk_seconds", r_walk.seconds, "s (the decoder with every scope record decoded: the fair floor)");
  bench_report ("decode.walk_cpu_seconds", r_walk.cpu_seconds, "s");
  bench_report ("decode.walk_rate", (double) scopes / r_walk.seconds / 1e6, "M scopes/s");
  bench_report ("decode.walk_cpu_rate", (double) scopes / r_walk.cpu_seconds / 1e6, "M scopes/s of CPU time");

  r_info = run_child (info, FALSE);
  bench_report ("cli.info_seconds", r_info.seconds, "s (decoder, info analyzer and nesting count; no model)");
  bench_report ("cli.info_rate", (double) scopes / r_info.seconds / 1e6, "M scopes/s");
  bench_report ("cli.info_cpu_seconds", r_info.cpu_seconds, "s");
  bench_report ("cli.info_peak", r_info.peak_bytes / 1048576.0, "MiB");

  r_stats = run_child (stats, FALSE);
  stats_rate = (double) scopes / r_stats.seconds / 1e6;
  bench_report ("cli.stats_seconds", r_stats.seconds, "s");
  bench_report ("cli.stats_cpu_seconds", r_stats.cpu_seconds, "s (user + system: on a loaded machine, wall time is the scheduler's too)");
  bench_report ("cli.stats_rate", stats_rate, "M scopes/s");
  bench_report ("cli.stats_cpu_rate", (double) scopes / r_stats.cpu_seconds / 1e6, "M scopes/s of CPU time");
  bench_report ("cli.stats_peak", r_stats.peak_bytes / 1048576.0, "MiB");
  bench_report ("cli.stats_bytes_per_scope", r_stats.peak_bytes / (double) scopes, "B (peak resident)");

  /* A CI gate's comparison of two such captures (here the trace with itself): their
   * timers computed while each is read, as stats does, no model of the scopes. */
  r_compare = run_child (compare, FALSE);
  bench_report ("cli.compare_seconds", r_compare.seconds, "s (the trace against itself: timers and frames)");
  bench_report ("cli.compare_cpu_seconds", r_compare.cpu_seconds, "s");
  bench_report ("cli.compare_peak", r_compare.peak_bytes / 1048576.0, "MiB");
  bench_report ("cli.compare_bytes_per_scope", r_compare.peak_bytes / (2.0 * (double) scopes), "B (peak resident, a scope of either trace)");

  ratio_line ("stats_M_scopes_per_s", stats_rate, ">=", 30);
  ratio_line ("stats_vs_decoder", r_decode.seconds / r_stats.seconds, ">=", 0.5);
  ratio_line ("stats_vs_decoder_cpu", r_decode.cpu_seconds / r_stats.cpu_seconds, ">=", 0.5);
  ratio_line ("stats_vs_decoder_walk", r_walk.seconds / r_stats.seconds, ">=", 0.5);
  ratio_line ("stats_vs_decoder_walk_cpu", r_walk.cpu_seconds / r_stats.cpu_seconds, ">=", 0.5);
  /* 4 GiB for a billion scopes. */
  ratio_line ("stats_peak_bytes_per_scope", r_stats.peak_bytes / (double) scopes, "<=", 4 * GIB / 1e9);
  ratio_line ("open_M_scopes_per_s", open_rate, ">=", 30);
  ratio_line ("open_vs_decoder", open_rate / ((double) scopes / r_decode.seconds / 1e6), ">=", 0.5);
  ratio_line ("open_vs_decoder_walk", open_rate / ((double) scopes / r_walk.seconds / 1e6), ">=", 0.5);
  ratio_line ("open_peak_bytes_per_scope", r_open.peak_bytes / (double) scopes, "<=", 8);
  ratio_line ("timers_1pc_ms", one_pc, "<=", 200);
}

/* The viewer's Timeline page on the scopes trace, in a child of its own (its peak is the
 * viewer's); under xvfb-run when there is no display. */
static void
measure_view (const char *path)
{
  g_autofree char *self = self_path ();
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");
  char *direct[] = { self, (char *) "--measure-view", (char *) path, NULL };
  char *wrapped[] = { xvfb, (char *) "-a", (char *) "-s", (char *) "-screen 0 2000x1200x24",
                      self, (char *) "--measure-view", (char *) path, NULL };
  gboolean display = g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL;
  g_autofree char *out = NULL;
  Run r;

  if (!display && xvfb == NULL)
    {
      printf ("# view: no display and no xvfb-run: the viewer's figures are not measured\n");
      return;
    }
  r = run_capture (display ? direct : wrapped, &out);
  fputs (out ? out : "", stdout);
  bench_report ("view.peak", r.peak_bytes / 1048576.0, "MiB (the viewer's process, the page open on the whole trace)");
  bench_report ("view.cpu_seconds", r.cpu_seconds, "s (user + system, every thread: reading, tiles, frames)");
}

static void
measure_allocations (const char *path, guint64 n)
{
  char *memory[] = { (char *) STROBE_CLI_PATH, (char *) "memory", (char *) path, NULL };
  Run r;

  /* Issue 20's figure is the full model's (what the memory view reads into): strobe-cli
   * memory's own report reads into a summary model, in proportion to the live set. */
  g_setenv ("STROBE_CLI_MEMORY_FULL", "1", TRUE);
  r = run_child (memory, FALSE);
  g_unsetenv ("STROBE_CLI_MEMORY_FULL");

  bench_report ("cli.memory_seconds", r.seconds, "s");
  bench_report ("cli.memory_cpu_seconds", r.cpu_seconds, "s");
  bench_report ("cli.memory_peak", r.peak_bytes / 1048576.0, "MiB");
  bench_report ("cli.memory_bytes_per_allocation", r.peak_bytes / (double) n, "B (peak resident)");
  ratio_line ("memory_bytes_per_allocation", r.peak_bytes / (double) n, "<=", 32);
}

static void
measure_messages (const char *path, guint64 n)
{
  g_autofree char *self = self_path ();
  g_autofree char *log_out = NULL;
  g_autoptr(GError) error = NULL;
  char *log[] = { (char *) STROBE_CLI_PATH, (char *) "log", (char *) "--grep", (char *) "example.org",
                  (char *) "--count", (char *) path, NULL };
  char *info[] = { (char *) STROBE_CLI_PATH, (char *) "info", (char *) path, NULL };
  char *inside[] = { self, (char *) "--measure-log", (char *) path, NULL };
  Run r = run_child (log, FALSE);
  /* The same program reading the same file without the log model: what is left is the
   * model's and the filter's — at 2 M messages the program's own ~12 MiB would be 6 B a
   * message, at 100 M a tenth of one. */
  Run base = run_child (info, FALSE);
  double model;

  bench_report ("cli.log_grep_seconds", r.seconds, "s (open + text filter)");
  bench_report ("cli.log_grep_cpu_seconds", r.cpu_seconds, "s");
  bench_report ("cli.log_grep_peak", r.peak_bytes / 1048576.0, "MiB");
  bench_report ("cli.log_info_peak", base.peak_bytes / 1048576.0, "MiB (strobe-cli info on the same file: the baseline)");
  bench_report ("cli.log_bytes_per_message", r.peak_bytes / (double) n, "B (peak resident)");
  bench_report ("cli.log_rss_above_info_per_message", (r.peak_bytes - base.peak_bytes) / (double) n,
                "B (peak resident above the baseline's)");

  /* The load and the filter apart, in a child of their own. */
  if (!g_spawn_sync (NULL, inside, NULL, G_SPAWN_DEFAULT, NULL, NULL, &log_out, NULL, NULL, &error))
    g_error ("%s: %s", self, error->message);
  fputs (log_out ? log_out : "", stdout);
  model = child_figure (log_out, "log.model_bytes_per_message");
  ratio_line ("log_bytes_per_message", r.peak_bytes / (double) n, "<=", 20);
  ratio_line ("log_model_bytes_per_message", model, "<=", 20);
  ratio_line ("log_grep_seconds", r.seconds, "<=", 10);
  ratio_line ("log_filter_seconds", child_figure (log_out, "log.filter_seconds"), "<=", 10);
}

/* Where the host has the two vCPUs: near (sharing a cache) or far apart — most of this
 * machine's speed swings between runs (tests/bench/README.md, session 45). */
static void
report_cores (const char *when)
{
  g_autofree char *name = g_strdup_printf ("machine.cores_round_trip_%s", when);
  double ns;

  (void) strobe_cores_far_measure (&ns);
  bench_report (name, ns, "ns (a cache line between the first two CPUs and back: ~100 sharing a cache, 420-480 apart)");
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— a billion scopes: write, then read with the CLI and the document");
  g_autofree char *tmp = NULL, *path = NULL, *path_allocs = NULL, *path_log = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "20 M scopes (and 2 M allocations and messages)", NULL },
    { "scopes", 0, 0, G_OPTION_ARG_INT64, &n_scopes, "Scopes to write (default 1 000 000 000)", "N" },
    { "allocations", 0, 0, G_OPTION_ARG_INT64, &n_allocations, "Allocations to write (default 100 M; 0: none)", "N" },
    { "messages", 0, 0, G_OPTION_ARG_INT64, &n_messages, "Log messages to write (default 100 M; 0: none)", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_dir, "Where the traces go, kept (default: a new temporary directory)", "DIR" },
    { "reuse", 0, 0, G_OPTION_ARG_NONE, &reuse, "Measure the traces already in --dir for these sizes instead of writing them", NULL },
    { "measure-open", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &open_path, NULL, NULL },
    { "measure-decode", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &decode_path, NULL, NULL },
    { "measure-view", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &view_path, NULL, NULL },
    { "no-view", 0, 0, G_OPTION_ARG_NONE, &no_view, "Skip the viewer's figures (the Timeline page on the scopes trace)", NULL },
    { "measure-decode-walk", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &walk_path, NULL, NULL },
    { "measure-log", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &log_path, NULL, NULL },
    { NULL },
  };
  StrobeInitOptions opts = { 0 };

  if (argc > 4 && strcmp (argv[1], "--run-measured") == 0)
    return run_measured (argv[2], argv[3][0] == '1', argv + 4);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, NULL))
    return 2;
  if (open_path)
    return measure_open (open_path);
  if (view_path)
    return bench_scale_view (view_path);
  if (log_path)
    return measure_log (log_path);
  if (decode_path)
    {
      bench_decode_only (decode_path, FALSE);
      return 0;
    }
  if (walk_path)
    {
      bench_decode_walk (walk_path, NULL);
      return 0;
    }
  if (n_scopes <= 0)
    n_scopes = quick ? 20000000 : 1000000000;
  if (n_allocations < 0)
    n_allocations = quick ? 2000000 : 100000000;
  if (n_messages < 0)
    n_messages = quick ? 2000000 : 100000000;
  if (bench_dir == NULL)
    bench_dir = tmp = g_dir_make_tmp ("strobe-bench-scale-XXXXXX", NULL);
  else if (g_mkdir_with_parents (bench_dir, 0700) != 0)
    g_error ("cannot make %s: %s", bench_dir, g_strerror (errno));
  path = g_strdup_printf ("%s/scopes-%" G_GINT64_FORMAT ".strobe", bench_dir, n_scopes);
  path_allocs = g_strdup_printf ("%s/allocations-%" G_GINT64_FORMAT ".strobe", bench_dir, n_allocations);
  path_log = g_strdup_printf ("%s/messages-%" G_GINT64_FORMAT ".strobe", bench_dir, n_messages);

  for (guint i = 0; i < N_NAMES; i++)
    {
      spec_names[i] = g_strdup_printf ("System%02u::Function%03u", i % 23, i);
      specs[i] = (StrobeCpuSpec) { 0, i, spec_names[i], __FILE__ };
    }
  strobe_channels_set_enabled ("Cpu,Frame,Counters,Log,Memory", true);
  opts.buffer_bytes = 256u << 20;
  /* Writers wait for the worker rather than drop: the file holds every scope. */
  opts.block_wait_ms = 5000;
  opts.control_port = STROBE_CONTROL_NONE;
  opts.tail_bytes = STROBE_TAIL_NONE;
  strobe_init (&opts);
  strobe_log_category_register (&log_category);

  printf ("# strobe-bench-scale %s: name value unit; traces kept in %s\n", PACKAGE_VERSION, bench_dir);
  {
    double load[3] = { 0 };
    if (getloadavg (load, 3) > 0)
      bench_report ("machine.load_average", load[0], "(1 min; the machine is shared: wall times swing with it)");
  }
  report_cores ("start");
  if (!have_file (path))
    write_scopes (path, (guint64) n_scopes);
  bench_report ("file.bytes", (double) file_size (path), "B");
  bench_report ("file.bytes_per_scope", (double) file_size (path) / (double) n_scopes, "B");
  if (n_allocations > 0 && !have_file (path_allocs))
    write_threads (path_allocs, (guint64) n_allocations, alloc_main, "allocations");
  if (n_messages > 0 && !have_file (path_log))
    write_threads (path_log, (guint64) n_messages, log_main, "messages");
  strobe_shutdown ();

  warm_file (path, "file");
  if (!no_view)
    measure_view (path);
  measure_scopes (path, (guint64) n_scopes);
  if (n_allocations > 0)
    {
      warm_file (path_allocs, "allocations");
      measure_allocations (path_allocs, (guint64) n_allocations);
    }
  if (n_messages > 0)
    {
      warm_file (path_log, "messages");
      measure_messages (path_log, (guint64) n_messages);
    }
  report_cores ("end");
  printf ("# traces kept in %s\n", bench_dir);
  return 0;
}
