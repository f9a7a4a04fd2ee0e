/* strobe-bench-session.c — the analysis session (core/document) as the viewer uses it:
 *
 *   open.decoder_alone       a 10 M-scope trace (with log messages, counters and
 *                            allocations) through the decoder and a counting analyzer
 *   open.all_models          the same file opened as a StrobeDocument with every model
 *   stall.load_max           the main loop's longest gap between iterations while that
 *                            document loads on its worker, with a "changed" handler that
 *                            queries every model as views do
 *   stall.live_max           the same while a program streams to a recorder at full speed
 *                            and the document follows the live trace
 *
 * The targets (issue 9): a main-thread stall of at most 4 ms, loading or live.
 *
 * Usage: strobe-bench-session [--quick] [--scopes N] [--dir DIR]
 *        strobe-bench-session --emit HOST:PORT SECONDS   (the live program)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "strobe-document.h"
#include "strobe-recorder.h"
#include "strobe-timer-stats.h"

STROBE_LOG_CATEGORY_DEFINE (LogBench, STROBE_LOG_VERBOSITY_LOG);

static StrobeCounter bench_counter = STROBE_COUNTER_INIT ("Bench/items", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);

/* Nested scopes like a frame's work, with a log message, a counter sample and an
 * allocation and free every 1000 scopes. Returns the scopes emitted. */
static guint64
emit (guint64 scopes, gint64 until_us)
{
  static StrobeCpuSpec s0 = STROBE_CPU_SPEC_INIT ("Frame");
  static StrobeCpuSpec s1 = STROBE_CPU_SPEC_INIT ("Update");
  static StrobeCpuSpec s2 = STROBE_CPU_SPEC_INIT ("Physics");
  static StrobeCpuSpec s3 = STROBE_CPU_SPEC_INIT ("Render");
  guint64 n = 0;
  static char block[64];

  while (until_us ? g_get_monotonic_time () < until_us : n < scopes)
    {
      strobe_cpu_begin (&s0);
      n++;
      for (int i = 0; i < 333; i++)
        {
          strobe_cpu_begin (&s1);
          strobe_cpu_begin (&s2);
          strobe_cpu_end ();
          strobe_cpu_begin (&s3);
          strobe_cpu_end ();
          strobe_cpu_end ();
          n += 3;
        }
      strobe_cpu_end ();
      STROBE_LOG_MESSAGE (LogBench, STROBE_LOG_LOG, "frame %llu: %d items, %.2f ms",
                          (unsigned long long) n, (int) (n % 97), (double) (n % 1000) / 7.0);
      strobe_counter_set_int (&bench_counter, (int64_t) (n % 500));
      strobe_memory_alloc (block + (n / 1000) % 32, 64, 0, STROBE_MEMORY_HEAP_SYSTEM);
      strobe_memory_free (block + (n / 1000) % 32, STROBE_MEMORY_HEAP_SYSTEM);
      /* Keep the buffers from filling faster than the worker writes: no drops. */
      if (!until_us && (n / 1000) % 64 == 0)
        strobe_flush ();
    }
  return n;
}

static int
run_emitter (const char *host, double seconds)
{
  StrobeInitOptions opts = { 0 };

  /* On a 2-core machine the program, the recorder and the decoder already want more
   * than there is: let the scheduler prefer the viewer, as a desktop's would. */
  if (nice (10) == -1 && errno != 0)
    g_printerr ("nice: %s\n", g_strerror (errno));
  strobe_channels_set_enabled ("Cpu,Log,Counters,Memory", true);
  opts.buffer_bytes = 64u << 20;
  strobe_init (&opts);
  if (!strobe_output_host (host))
    return 1;
  emit (0, g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC));
  strobe_shutdown ();
  return 0;
}

/* ---- the floor: the decoder alone ------------------------------------------------------- */

#define BENCH_TYPE_COUNTER (bench_counter_get_type ())
G_DECLARE_FINAL_TYPE (BenchCounter, bench_counter, BENCH, COUNTER, GObject)

struct _BenchCounter
{
  GObject parent_instance;
  guint64 events;
};

static void counter_begin (StrobeAnalyzer *a, StrobeAnalysisContext *ctx) { strobe_analysis_context_subscribe (ctx, 0, "*", "*"); }
static void counter_on_event (StrobeAnalyzer *a, guint route, const StrobeEvent *ev) { ((BenchCounter *) a)->events++; }
static void counter_iface_init (StrobeAnalyzerInterface *iface) { iface->begin = counter_begin; iface->on_event = counter_on_event; }
G_DEFINE_FINAL_TYPE_WITH_CODE (BenchCounter, bench_counter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, counter_iface_init))
static void bench_counter_class_init (BenchCounterClass *k) { }
static void bench_counter_init (BenchCounter *self) { }

static double
decode_only (const char *path)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(BenchCounter) counter = g_object_new (BENCH_TYPE_COUNTER, NULL);
  double t0 = bench_now_ns ();

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (counter));
  if (!strobe_decoder_read_file (decoder, path, NULL, NULL))
    g_error ("cannot decode %s", path);
  return (bench_now_ns () - t0) / 1e9;
}

/* ---- the main loop's stalls --------------------------------------------------------------- */

/* What the main thread had of the machine at one moment: its CPU time, its context
 * switches, and the time it sat runnable in the scheduler's queue (schedstat; 0 where
 * the kernel does not keep it). A gap the thread neither ran nor slept through is time it
 * waited for a CPU — a loaded machine, not our code. */
typedef struct
{
  double cpu_ns;
  double runqueue_ns;
  long   voluntary;     /* it slept or waited (one per gap is the main loop's own poll) */
  long   involuntary;   /* the scheduler took the CPU from it */
} Sched;

/* Called on the main thread only: its schedstat file is opened once (-1: not there). */
static void
sched_sample (Sched *out)
{
  static int schedstat = -2;
  struct timespec ts;
  struct rusage usage;
  unsigned long long run_ns, wait_ns;
  char buf[128];
  ssize_t n;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  out->cpu_ns = (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
  getrusage (RUSAGE_THREAD, &usage);
  out->voluntary = usage.ru_nvcsw;
  out->involuntary = usage.ru_nivcsw;
  out->runqueue_ns = 0;
  if (schedstat == -2)
    schedstat = open ("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (schedstat >= 0 && (n = pread (schedstat, buf, sizeof buf - 1, 0)) > 0)
    {
      buf[n] = '\0';
      if (sscanf (buf, "%llu %llu", &run_ns, &wait_ns) == 2)
        out->runqueue_ns = (double) wait_ns;
    }
}

typedef struct
{
  gint64  last_us;
  Sched   last;
  gint64  max_gap_us;
  Sched   in_max_gap;   /* differences across the longest gap */
  guint64 ticks;
  guint   changes;
  double  handler_max_ms;
  gboolean done;
} Stalls;

/* A 1 ms timer: the gap between two of its runs beyond 1 ms is time the main loop could
 * not run, whoever held it. */
static gboolean
tick_cb (gpointer data)
{
  Stalls *s = data;
  gint64 now = g_get_monotonic_time ();
  Sched sched;

  sched_sample (&sched);
  if (s->last_us != 0 && now - s->last_us > s->max_gap_us)
    {
      s->max_gap_us = now - s->last_us;
      s->in_max_gap.cpu_ns = sched.cpu_ns - s->last.cpu_ns;
      s->in_max_gap.runqueue_ns = sched.runqueue_ns - s->last.runqueue_ns;
      s->in_max_gap.voluntary = sched.voluntary - s->last.voluntary;
      s->in_max_gap.involuntary = sched.involuntary - s->last.involuntary;
    }
  s->last_us = now;
  s->last = sched;
  s->ticks++;
  return G_SOURCE_CONTINUE;
}

static void
report_stalls (const char *prefix, const Stalls *s, const char *what)
{
  g_autofree char *max = g_strdup_printf ("stall.%s_max", prefix);
  g_autofree char *busy = g_strdup_printf ("stall.%s_max_busy", prefix);
  g_autofree char *queue = g_strdup_printf ("stall.%s_max_runqueue", prefix);
  g_autofree char *vol = g_strdup_printf ("stall.%s_max_voluntary_switches", prefix);
  g_autofree char *invol = g_strdup_printf ("stall.%s_max_involuntary_switches", prefix);
  g_autofree char *handler = g_strdup_printf ("stall.%s_handler_max", prefix);

  bench_report (max, (double) s->max_gap_us / 1000.0, what);
  bench_report (busy, s->in_max_gap.cpu_ns / 1e6, "ms (of it the main thread ran)");
  bench_report (queue, s->in_max_gap.runqueue_ns / 1e6,
                "ms (of it the main thread was runnable, waiting for a CPU)");
  bench_report (vol, (double) s->in_max_gap.voluntary, "(it slept or waited; one is the loop's poll)");
  bench_report (invol, (double) s->in_max_gap.involuntary, "(the scheduler preempted it)");
  bench_report (handler, s->handler_max_ms, "ms (longest \"changed\" handler querying every model)");
}

/* What the views do on the main thread when the trace grows: copy what the overview and
 * the status bar show, and read the small summaries. (Views run heavy queries — a
 * timeline's geometry, a log filter, a memory query — on workers; their own benchmarks
 * measure those.) */
static void
changed_cb (StrobeDocument *document, StrobeDocumentChanges changes, Stalls *s)
{
  double t0 = bench_now_ns ();
  g_autoptr(GPtrArray) types = strobe_info_analyzer_dup_event_types (strobe_document_get_info (document));
  g_autoptr(GPtrArray) channels = strobe_info_analyzer_dup_channels (strobe_document_get_info (document));
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (strobe_document_get_timeline (document));
  StrobeMemorySummary summary;
  StrobeInfoStats stats;
  StrobeDecoderStats dstats;
  StrobeTraceClock clock;

  s->changes++;
  strobe_info_analyzer_get_stats (strobe_document_get_info (document), &stats);
  strobe_document_get_decoder_stats (document, &dstats);
  strobe_document_get_clock (document, &clock);
  strobe_memory_model_get_summary (strobe_document_get_memory (document), &summary);
  (void) strobe_log_model_get_count (strobe_document_get_log (document));
  (void) strobe_timeline_model_get_n_names (strobe_document_get_timeline (document));
  s->handler_max_ms = MAX (s->handler_max_ms, (bench_now_ns () - t0) / 1e6);
}

static void
loaded_cb (GObject *object, GAsyncResult *result, gpointer data)
{
  ((Stalls *) data)->done = TRUE;
  strobe_document_load_finish (STROBE_DOCUMENT (object), result, NULL);
}

static void
run_until (Stalls *s, gint64 until_us)
{
  while (!s->done && (until_us == 0 || g_get_monotonic_time () < until_us))
    g_main_context_iteration (NULL, TRUE);
}

static void
load_stall (const char *path, Stalls *out)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  Stalls s = { 0 };
  guint source = g_timeout_add (1, tick_cb, &s);

  g_signal_connect (document, "changed", G_CALLBACK (changed_cb), &s);
  strobe_document_load_async (document, NULL, loaded_cb, &s);
  run_until (&s, 0);
  g_source_remove (source);
  *out = s;
}

typedef struct
{
  StrobeTrace *trace;
} TraceWait;

static void
trace_added_cb (StrobeStore *store, StrobeTrace *trace, TraceWait *w)
{
  if (w->trace == NULL)
    w->trace = g_object_ref (trace);
}

static void
live_stall (const char *self_path, const char *dir, double seconds, Stalls *out, guint64 *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (dir, &error);
  g_autoptr(StrobeRecorder) recorder = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GSubprocess) emitter = NULL;
  g_autofree char *host = NULL;
  g_autofree char *secs = g_strdup_printf ("%.1f", seconds + 1.0);
  TraceWait w = { NULL };
  Stalls s = { 0 };
  gint64 deadline;
  guint source;

  if (store == NULL)
    g_error ("store: %s", error->message);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  if (!strobe_recorder_start (recorder, &error))
    g_error ("recorder: %s", error->message);
  host = g_strdup_printf ("127.0.0.1:%u", strobe_recorder_get_port (recorder));
  g_signal_connect (store, "trace-added", G_CALLBACK (trace_added_cb), &w);
  emitter = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, self_path, "--emit", host, secs, NULL);
  if (emitter == NULL)
    g_error ("emitter: %s", error->message);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (w.trace == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  if (w.trace == NULL)
    g_error ("the live trace did not show up");

  document = strobe_document_new_for_trace (store, w.trace, STROBE_DOCUMENT_MODEL_ALL);
  g_signal_connect (document, "changed", G_CALLBACK (changed_cb), &s);
  source = g_timeout_add (1, tick_cb, &s);
  strobe_document_load_async (document, NULL, loaded_cb, &s);
  run_until (&s, g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC));
  g_source_remove (source);
  *out = s;
  *bytes = strobe_document_get_bytes_read (document);
  g_subprocess_wait (emitter, NULL, NULL);
  strobe_document_cancel (document);
  s.done = FALSE;
  run_until (&s, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  strobe_recorder_stop (recorder);
  g_clear_object (&w.trace);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— the analysis session's figures");
  gboolean quick = FALSE;
  gint64 scopes = 0;
  g_autofree char *tmp = NULL;
  const char *dir = NULL;
  g_autofree char *path = NULL, *live_dir = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A smaller trace, fewer runs", NULL },
    { "scopes", 0, 0, G_OPTION_ARG_INT64, &scopes, "Scopes in the trace (default 10 M; 2 M with --quick)", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Where to write the trace", "DIR" },
    { NULL },
  };
  StrobeInitOptions opts = { 0 };
  double decode[3], open[3];
  Stalls load, live;
  guint64 live_bytes = 0, n;
  int runs;

  if (argc == 4 && g_str_equal (argv[1], "--emit"))
    return run_emitter (argv[2], g_ascii_strtod (argv[3], NULL));

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, NULL))
    return 2;
  if (scopes <= 0)
    scopes = quick ? 2000000 : 10000000;
  runs = quick ? 1 : 3;
  if (dir == NULL)
    dir = tmp = g_dir_make_tmp ("strobe-bench-session-XXXXXX", NULL);
  path = g_build_filename (dir, "session.strobe", NULL);
  live_dir = g_build_filename (dir, "store", NULL);

  printf ("# strobe-bench-session %s: name value unit\n", PACKAGE_VERSION);
  strobe_channels_set_enabled ("Cpu,Log,Counters,Memory", true);
  opts.buffer_bytes = 256u << 20;
  opts.control_port = STROBE_CONTROL_NONE;
  strobe_init (&opts);
  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  n = emit ((guint64) scopes, 0);
  strobe_flush ();
  strobe_output_stop ();
  bench_report ("trace.scopes", (double) n, "scopes");
  {
    GStatBuf st;
    g_stat (path, &st);
    bench_report ("trace.file_bytes", (double) st.st_size, "B");
  }

  for (int r = 0; r < runs; r++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
      double t0;

      decode[r] = decode_only (path);
      t0 = bench_now_ns ();
      if (!strobe_document_load (document, NULL, NULL))
        g_error ("cannot load %s", path);
      open[r] = (bench_now_ns () - t0) / 1e9;
    }
  bench_report ("open.decoder_alone", bench_median (decode, runs), "s");
  bench_report ("open.all_models", bench_median (open, runs), "s (StrobeDocument, every model)");
  bench_report ("open.all_models_vs_decoder", bench_median (open, runs) / bench_median (decode, runs), "x");

  load_stall (path, &load);
  report_stalls ("load", &load, "ms (longest main-loop gap while loading)");
  bench_report ("stall.load_changed", load.changes, "notifications");

  live_stall (argv[0], live_dir, quick ? 2.0 : 4.0, &live, &live_bytes);
  report_stalls ("live", &live, "ms (longest main-loop gap while following a live trace)");
  bench_report ("stall.live_bytes", (double) live_bytes, "B received while measured");

  bench_report_ratio ("main_thread_stall_loading_ms", load.max_gap_us / 1000.0, "<=", 4.0);
  bench_report_ratio ("main_thread_stall_live_ms", live.max_gap_us / 1000.0, "<=", 4.0);
  /* The part of the worst gap the main thread itself spent working: what is ours even on
   * a machine too busy to schedule it (the runqueue line says how long it waited for a CPU). */
  bench_report_ratio ("main_thread_busy_in_stall_loading_ms", load.in_max_gap.cpu_ns / 1e6, "<=", 4.0);
  bench_report_ratio ("main_thread_busy_in_stall_live_ms", live.in_max_gap.cpu_ns / 1e6, "<=", 4.0);

  strobe_shutdown ();
  g_unlink (path);
  return 0;
}
