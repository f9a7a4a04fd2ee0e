/* strobe-bench-sampling.c — what the Sampling channel costs a program, and the trace: the
 * same program (bench-sampling-workload: fixed CPU work through depth-16 frame-pointer call
 * chains, many distinct ones) run without sampling, at 1 kHz and at 10 kHz per thread,
 * interleaved round by round in one run, each tracing to a file.
 *
 * Figures (`name value unit`, then `ratio … MET|MISSED` against issue 22's targets):
 *   sampling.{off,1khz,10khz}.cpu_s    the least CPU time (user + system, the worker's
 *                                      draining included) of the rounds
 *   sampling.{1khz,10khz}.overhead     CPU time over the run without sampling, − 1 (%)
 *   sampling.{1khz,10khz}.wall_overhead the same for wall-clock time
 *   sampling.{1khz,10khz}.samples      samples in the trace (read back with StrobeSampleModel)
 *   sampling.{1khz,10khz}.bytes_per_sample  (trace bytes − the unsampled trace's) / samples,
 *                                      the median round's
 *   sampling.{1khz,10khz}.kernel_floor  the same program with a bare perf event (the CPU
 *                                      clock, no call chain, no ring) instead: what the
 *                                      kernel's sampling interrupts cost on this machine
 *   sampling.1khz_stack.{overhead,samples,bytes_per_sample}  the same at 1 kHz with 8 KiB
 *                                      stack copies (STROBE_SAMPLING_STACK), for code
 *                                      without frame pointers (no target: an option)
 *   sampling.{1khz,10khz}.overhead_beyond_kernel  overhead − kernel_floor (a ratio line too,
 *                                      against the same targets: what the channel itself costs)
 *   sampling.{1khz,10khz}.in_program_threads  the overhead of the working threads' CPU time
 *                                      alone (interrupts, the kernel's stack walks)
 *   sampling.{1khz,10khz}.in_strobe_threads_ms  the CPU time of the process's other threads
 *                                      beyond the unsampled run's (the worker's draining)
 *   sampling.perf_record_{1khz,10khz}.{overhead,in_program_threads}  the same workload under
 *                                      `perf record -F HZ -g` (perf's own process counted,
 *                                      as Strobe's worker is), when perf is installed, and
 *   ratio sampling.{1khz,10khz}.overhead_vs_perf_record  Strobe's overhead / perf record's
 *   sampling.per_sample.NAME           µs of CPU a sample costs, (cpu − off) / samples, for
 *                                      the bare events at 1 and 10 kHz, each knob of the bare
 *                                      event turned at 10 kHz (bench-sampling-workload's
 *                                      header: task clock, frequency mode, user only,
 *                                      inherited, call chain, switches, wake-ups, a 1-page
 *                                      ring, a tick-driven POSIX CPU timer), Strobe's 10 kHz
 *                                      and perf record's 10 kHz (--no-floors: without the knobs)
 *
 * and what the viewer does with the 10 kHz trace (--analysis: only that, on a run of its
 * own with 4 threads):
 *   sampling.analysis.samples          samples in it
 *   sampling.analysis.load_s           the document read with the sample model (wall)
 *   sampling.analysis.ready_s          then the Samples panel's job on every sample with a
 *                                      fresh symbolizer: the tree merged by function,
 *                                      bottom-up, callers and callees, every name
 *   sampling.analysis.ready_warm_s     the same job again with that symbolizer: what is
 *                                      left when every module is open (ready − ready_warm is
 *                                      opening them: libdw reading their DWARF, a separate
 *                                      debug file's compressed sections inflated — a fixed
 *                                      cost, ~0.15–0.3 s here with libc6-dbg installed)
 *   sampling.analysis.ready_per_1m_s   1 M samples symbolized and ready (target ≤ 2 s): a
 *                                      million would take 100 CPU seconds to record at
 *                                      10 kHz, so the job runs, with a fresh symbolizer, over
 *                                      the whole trace given K times (K = ⌈1 M / samples⌉:
 *                                      every sample counted K times, 1 M counted in all),
 *                                      plus K × load. It used to be (load + ready) × K: the
 *                                      fixed cost of opening the modules multiplied by K
 *                                      (~60), which made it swing 1.3–8 s with the page
 *                                      cache, the load and whether debug files are installed
 *   sampling.analysis.scope_tree_ms    the panel's job for one selected interval of one
 *                                      thread (the busiest thread's middle tenth), the
 *                                      symbolizer warm as the panel keeps it: ≤ 100 ms
 *
 *   strobe-bench-sampling [--quick] [--no-floors] [--analysis] [--dir DIR] [--trace FILE]
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-common.h"
#include "strobe-document.h"
#include "strobe-memory-symbols.h"
#include "strobe-sample-model.h"
#include "strobe-samples-job.h"

typedef struct
{
  const char *name;
  guint       hz;       /* 0: sampling off */
  guint       bare_hz;  /* a bare perf event of the workload's own instead (the floor) */
  guint       stack;    /* bytes of user stack copied with each sample (STROBE_SAMPLING_STACK) */
  const char *knobs;    /* with bare_hz: BENCH_BARE_PERF, that event's settings */
  guint       perf_hz;  /* `perf record -F perf_hz -g` of the workload instead */
  double      cpu[16];  /* the whole process's (and perf's, for perf record) */
  double      work[16]; /* the workload's working threads' alone */
  double      ticks[16];/* with the "tick" knob: the timer's signals */
  double      wall[16];
  guint64     bytes[16];
} Config;

static char *perf_tool;   /* perf's path, NULL when it is not installed */

/* Runs the workload once; its CPU time (its working threads' apart) and wall time in
 * seconds, the trace's size. */
static gboolean
run_once (const char *trace, const Config *c, long iterations, int threads, double *cpu, double *work, double *ticks,
          double *wall, guint64 *bytes)
{
  char iters[32], hz_s[16], bare_s[16], threads_s[16], stack_s[16], fd_s[16], perf_hz_s[16], buf[64];
  g_autofree char *perf_data = g_strconcat (trace, ".perf", NULL);
  char *workload[] = { (char *) BENCH_SAMPLING_WORKLOAD, iters, threads_s, NULL };
  const char *perf_argv[] = { perf_tool, "record", "-q", "-o", perf_data, "-F", perf_hz_s, "-g", "--",
                              BENCH_SAMPLING_WORKLOAD, iters, threads_s, NULL };
  char **argv = c->perf_hz ? (char **) perf_argv : workload;
  g_auto (GStrv) env = g_get_environ ();
  posix_spawn_file_actions_t actions;
  struct rusage ru;
  struct stat st;
  gint64 t0;
  pid_t pid;
  int status, pipe_fd[2], spawned;
  ssize_t got;

  if (c->perf_hz && perf_tool == NULL)
    return FALSE;
  g_snprintf (iters, sizeof iters, "%ld", iterations);
  g_snprintf (threads_s, sizeof threads_s, "%d", threads);
  g_snprintf (hz_s, sizeof hz_s, "%u", c->hz ? c->hz : 1000);
  g_snprintf (perf_hz_s, sizeof perf_hz_s, "%u", c->perf_hz);
  env = g_environ_setenv (env, "STROBE_TRACEFILE", trace, TRUE);
  env = g_environ_setenv (env, "STROBE_TRACE", c->hz ? "sampling" : "", TRUE);
  env = g_environ_setenv (env, "STROBE_SAMPLING_HZ", hz_s, TRUE);
  g_snprintf (stack_s, sizeof stack_s, "%u", c->stack);
  env = g_environ_setenv (env, "STROBE_SAMPLING_STACK", stack_s, TRUE);
  env = g_environ_unsetenv (env, "STROBE_TRACEHOST");
  g_snprintf (bare_s, sizeof bare_s, "%u", c->bare_hz);
  env = g_environ_setenv (env, "BENCH_BARE_PERF_HZ", bare_s, TRUE);
  env = g_environ_setenv (env, "BENCH_BARE_PERF", c->knobs ? c->knobs : "", TRUE);
  /* The working threads' CPU time comes back through a pipe: the rest of the process's
   * (or, under perf record, perf's) is the sampler's own. */
  if (pipe (pipe_fd) != 0)
    return FALSE;
  g_snprintf (fd_s, sizeof fd_s, "%d", pipe_fd[1]);
  env = g_environ_setenv (env, "BENCH_WORK_CPU_FD", fd_s, TRUE);
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addclose (&actions, pipe_fd[0]);
  if (c->perf_hz)
    {
      posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen (&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    }
  /* The wall clock itself, whatever STROBE_BENCH_CLOCK says: bench_now_ns () would read
   * this process's CPU time, which the child's run does not move. */
  t0 = g_get_monotonic_time ();
  spawned = posix_spawn (&pid, argv[0], &actions, NULL, argv, env);
  posix_spawn_file_actions_destroy (&actions);
  close (pipe_fd[1]);
  if (spawned != 0)
    {
      close (pipe_fd[0]);
      return FALSE;
    }
  got = read (pipe_fd[0], buf, sizeof buf - 1);
  close (pipe_fd[0]);
  if (wait4 (pid, &status, 0, &ru) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0 || got <= 0)
    return FALSE;
  *wall = (double) (g_get_monotonic_time () - t0) * 1e-6;
  *cpu = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec * 1e-6
         + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec * 1e-6;
  buf[got] = '\0';
  {
    char *end;
    *work = g_ascii_strtod (buf, &end) * 1e-9;
    *ticks = g_ascii_strtod (end, NULL);
  }
  *bytes = stat (trace, &st) == 0 ? (guint64) st.st_size : 0;
  g_unlink (perf_data);
  return TRUE;
}

static guint64
count_samples (const char *trace)
{
  g_autoptr (GFile) file = g_file_new_for_path (trace);
  g_autoptr (StrobeDocument) doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_INFO);
  StrobeSampleModel *model = strobe_document_get_model (doc, STROBE_TYPE_SAMPLE_MODEL);
  StrobeSampleSummary summary;

  if (!strobe_document_load (doc, NULL, NULL))
    return 0;
  strobe_sample_model_get_summary (model, &summary);
  return summary.samples;
}

/* The median over rounds of (trace bytes − the unsampled run's) / samples; *@samples:
 * that round's count. Not one round's: a round the machine preempted often has more
 * switch records per sample. */
static double
bytes_per_sample (const char *dir, const Config *c, const Config *off, int rounds, guint64 *samples)
{
  double per[16];
  guint64 count[16];
  int n = 0;

  for (int r = 0; r < rounds; r++)
    {
      g_autofree char *base = g_strdup_printf ("%s-%d.strobe", c->name, r);
      g_autofree char *trace = g_build_filename (dir, base, NULL);
      guint64 s = count_samples (trace);
      double v;
      int at;

      if (s == 0)
        continue;
      v = (double) ((gint64) c->bytes[r] - (gint64) off->bytes[r]) / (double) s;
      /* Insertion sort: a handful of rounds. */
      for (at = n; at > 0 && per[at - 1] > v; at--)
        {
          per[at] = per[at - 1];
          count[at] = count[at - 1];
        }
      per[at] = v;
      count[at] = s;
      n++;
    }
  if (n == 0)
    return 0;
  *samples = count[n / 2];
  return per[n / 2];
}

static double
least (const double *v, int n)
{
  double m = v[0];

  for (int i = 1; i < n; i++)
    m = MIN (m, v[i]);
  return m;
}

/* What the viewer does with @trace's samples (see the header). */
static void
analysis (const char *trace)
{
  g_autoptr (GFile) file = g_file_new_for_path (trace);
  g_autoptr (StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  StrobeSampleModel *model = strobe_document_get_model (document, STROBE_TYPE_SAMPLE_MODEL);
  g_autoptr (StrobeSymbolizer) sym = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) threads = NULL;
  StrobeSamplesResult *r;
  StrobeSampleSummary summary;
  StrobeSampleInterval all = { 0, 0, G_MAXUINT64 }, scope = { 0 };
  guint64 busiest = 0;
  double t0, load_s, ready_s, ready_warm_s, ready_1m_s, scope_ms;
  guint repeat;
  guint64 counted;

  t0 = bench_now_ns ();
  strobe_document_load (document, NULL, &error);
  load_s = (bench_now_ns () - t0) / 1e9;
  strobe_sample_model_get_summary (model, &summary);
  if (error != NULL || summary.samples == 0)
    {
      g_printerr ("strobe-bench-sampling: %s has no samples (%s)\n", trace, error ? error->message : "none");
      return;
    }
  t0 = bench_now_ns ();
  sym = strobe_memory_symbolizer_new (strobe_document_get_memory (document));
  r = strobe_samples_compute (model, strobe_document_get_memory (document), sym, &all, 1, NULL, &error);
  ready_s = (bench_now_ns () - t0) / 1e9;
  g_assert_nonnull (r);
  strobe_samples_result_free (r);
  t0 = bench_now_ns ();
  r = strobe_samples_compute (model, strobe_document_get_memory (document), sym, &all, 1, NULL, &error);
  ready_warm_s = (bench_now_ns () - t0) / 1e9;
  g_assert_nonnull (r);
  strobe_samples_result_free (r);
  {
    g_autoptr (StrobeSymbolizer) fresh = NULL;
    g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof all);

    repeat = (guint) ((1000000 + summary.samples - 1) / summary.samples);
    for (guint i = 0; i < repeat; i++)
      g_array_append_val (times, all);
    t0 = bench_now_ns ();
    fresh = strobe_memory_symbolizer_new (strobe_document_get_memory (document));
    r = strobe_samples_compute (model, strobe_document_get_memory (document), fresh, (StrobeSampleInterval *) times->data,
                                times->len, NULL, &error);
    ready_1m_s = (bench_now_ns () - t0) / 1e9 + load_s * repeat;
    g_assert_nonnull (r);
    counted = r->total;
    strobe_samples_result_free (r);
  }

  threads = strobe_sample_model_get_threads (model);
  for (guint i = 0; i < threads->len; i++)
    {
      const StrobeSampleThread *t = &g_array_index (threads, StrobeSampleThread, i);
      if (t->samples > busiest)
        {
          busiest = t->samples;
          scope.system_id = t->system_id;
          scope.begin = t->first + (t->last - t->first) / 20 * 9;
          scope.end = t->first + (t->last - t->first) / 20 * 11;
        }
    }
  t0 = bench_now_ns ();
  r = strobe_samples_compute (model, strobe_document_get_memory (document), sym, &scope, 1, NULL, &error);
  scope_ms = (bench_now_ns () - t0) / 1e6;
  g_assert_nonnull (r);
  bench_report ("sampling.analysis.samples", (double) summary.samples, "samples");
  bench_report ("sampling.analysis.load_s", load_s, "s");
  bench_report ("sampling.analysis.ready_s", ready_s, "s");
  bench_report ("sampling.analysis.ready_warm_s", ready_warm_s, "s");
  bench_report ("sampling.analysis.counted_1m", (double) counted, "samples");
  bench_report ("sampling.analysis.ready_per_1m_s", ready_1m_s, "s");
  bench_report ("sampling.analysis.scope_samples", (double) r->total, "samples");
  bench_report ("sampling.analysis.scope_tree_ms", scope_ms, "ms");
  bench_report_ratio ("sampling.analysis.ready_per_1m_s", ready_1m_s, "<=", 2.0);
  bench_report_ratio ("sampling.analysis.scope_tree_ms", scope_ms, "<=", 100.0);
  strobe_samples_result_free (r);
}

static const Config *
config_named (const Config *configs, int n, const char *name)
{
  for (int k = 0; k < n; k++)
    if (g_str_equal (configs[k].name, name))
      return &configs[k];
  g_assert_not_reached ();
}

/* CPU time over the unsampled run's, − 1, in %: of the whole process (perf's too under
 * perf record), and of the working threads alone (*@program). */
static double
overhead (const Config *c, const Config *off, int rounds, double *program)
{
  if (program)
    *program = 100.0 * (least (c->work, rounds) / least (off->work, rounds) - 1.0);
  return 100.0 * (least (c->cpu, rounds) / least (off->cpu, rounds) - 1.0);
}

/* The Sampling channel at 1 and 10 kHz: overhead, the kernel's floor under it, bytes. */
static void
report_sampled (const char *dir, const Config *configs, int n, int rounds)
{
  const Config *off = config_named (configs, n, "off");

  for (int k = 0; k < 2; k++)
    {
      const Config *c = config_named (configs, n, k == 0 ? "1khz" : "10khz");
      const Config *bare = config_named (configs, n, k == 0 ? "kernel_1khz" : "kernel_10khz");
      double program, over = overhead (c, off, rounds, &program);
      double wall_over = 100.0 * (least (c->wall, rounds) / least (off->wall, rounds) - 1.0);
      double kfloor = overhead (bare, off, rounds, NULL);
      double own_ms = 1e3 * ((least (c->cpu, rounds) - least (c->work, rounds))
                             - (least (off->cpu, rounds) - least (off->work, rounds)));
      guint64 samples = 0;
      double per = bytes_per_sample (dir, c, off, rounds, &samples);
      double target = k == 0 ? 1.0 : 5.0;
      g_autofree char *n1 = g_strdup_printf ("sampling.%s.overhead", c->name);
      g_autofree char *n2 = g_strdup_printf ("sampling.%s.wall_overhead", c->name);
      g_autofree char *n3 = g_strdup_printf ("sampling.%s.samples", c->name);
      g_autofree char *n4 = g_strdup_printf ("sampling.%s.bytes_per_sample", c->name);
      g_autofree char *n5 = g_strdup_printf ("sampling.%s.kernel_floor", c->name);
      g_autofree char *n6 = g_strdup_printf ("sampling.%s.overhead_beyond_kernel", c->name);
      g_autofree char *n7 = g_strdup_printf ("sampling.%s.in_program_threads", c->name);
      g_autofree char *n8 = g_strdup_printf ("sampling.%s.in_strobe_threads_ms", c->name);

      bench_report (n1, over, "%");
      bench_report (n2, wall_over, "%");
      bench_report (n3, (double) samples, "samples");
      bench_report (n4, per, "B");
      /* The kernel's timer interrupts alone, and what sampling costs beyond them. */
      bench_report (n5, kfloor, "%");
      bench_report (n6, over - kfloor, "%");
      /* Where it went: the sampled threads (interrupts, the kernel's walk of their stacks)
       * and Strobe's own (the worker reading the rings, interning, writing). */
      bench_report (n7, program, "%");
      bench_report (n8, own_ms, "ms");
      bench_report_ratio (n1, over, "<=", target);
      /* The part the Sampling channel itself answers for, against the same targets: a
       * virtual machine's timer interrupts alone can exceed them (the floor above). */
      bench_report_ratio (n6, over - kfloor, "<=", target);
      bench_report_ratio (n4, per, "<=", 48.0);
    }
  {
    /* Stack copies (code without frame pointers): what they cost beside 1 kHz without. */
    const Config *c = config_named (configs, n, "1khz_stack");
    guint64 samples = 0;
    double per = bytes_per_sample (dir, c, off, rounds, &samples);

    bench_report ("sampling.1khz_stack.overhead", overhead (c, off, rounds, NULL), "%");
    bench_report ("sampling.1khz_stack.samples", (double) samples, "samples");
    bench_report ("sampling.1khz_stack.bytes_per_sample", per, "B");
  }
}

/* `perf record -F HZ -g` of the same workload, as its users run it: the total CPU time
 * (perf's own process, which writes perf.data and reads it again for build ids at the
 * end, included — as Strobe's worker is), the workload's threads apart, and Strobe's
 * overhead as a share of perf record's (≤ 1: no dearer than the tool everyone has). */
static void
report_perf_record (const Config *configs, int n, int rounds)
{
  const Config *off = config_named (configs, n, "off");

  if (perf_tool == NULL)
    {
      g_printerr ("strobe-bench-sampling: perf is not installed: no perf record baseline\n");
      return;
    }
  for (int k = 0; k < 2; k++)
    {
      const Config *c = config_named (configs, n, k == 0 ? "perf_record_1khz" : "perf_record_10khz");
      const Config *mine = config_named (configs, n, k == 0 ? "1khz" : "10khz");
      double program, over = overhead (c, off, rounds, &program), strobe = overhead (mine, off, rounds, NULL);
      g_autofree char *n1 = g_strdup_printf ("sampling.%s.overhead", c->name);
      g_autofree char *n2 = g_strdup_printf ("sampling.%s.in_program_threads", c->name);
      g_autofree char *n3 = g_strdup_printf ("sampling.%s.overhead_vs_perf_record", mine->name);

      bench_report (n1, over, "%");
      bench_report (n2, program, "%");
      bench_report_ratio (n3, over > 0 ? strobe / over : 0, "<=", 1.0);
    }
}

/* A bare perf event's cost per sample (µs of CPU) with each knob turned, at 10 kHz:
 * which of perf's settings move the floor. The samples are the working thread's CPU
 * time × the frequency. */
static void
report_floors (const Config *configs, int n, int rounds)
{
  const Config *off = config_named (configs, n, "off");
  const char *names[] = { "kernel_1khz", "kernel_10khz", "floor_task_clock", "floor_freq", "floor_user_only",
                          "floor_inherit", "floor_chain", "floor_chain_switch", "floor_chain_switch_wake",
                          "floor_chain_switch_1page", "floor_tick_signal", "10khz", "perf_record_10khz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const Config *c = config_named (configs, n, names[i]);
      double hz = c->bare_hz ? c->bare_hz : c->hz ? c->hz : c->perf_hz;
      double samples = least (c->work, rounds) * hz;
      double us;

      /* The tick timer fires as often as the kernel's tick lets it, not at hz. */
      if (c->knobs && g_str_equal (c->knobs, "tick"))
        {
          samples = least (c->ticks, rounds);
          bench_report ("sampling.floor_tick_signal.per_s", samples / least (c->work, rounds), "Hz");
        }
      us = 1e6 * (least (c->cpu, rounds) - least (off->cpu, rounds)) / MAX (samples, 1.0);
      g_autofree char *name = g_strdup_printf ("sampling.per_sample.%s", c->name);

      if (c->cpu[0] > 0)
        bench_report (name, us, "us");
    }
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE, analysis_only = FALSE, no_floors = FALSE, floors;
  g_autofree char *dir_opt = NULL, *trace_opt = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Shorter runs", NULL },
    { "analysis", 0, 0, G_OPTION_ARG_NONE, &analysis_only, "Only what the viewer does with a 10 kHz trace", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir_opt, "Where the traces go (default: a temporary directory)", "DIR" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_opt, "Only the analysis figures, of this trace", "FILE" },
    { "no-floors", 0, 0, G_OPTION_ARG_NONE, &no_floors, "Without the bare perf events' settings compared", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("— the cost of the Sampling channel");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  /* Name, Strobe's frequency, a bare event's instead, stack copy, that event's knobs,
   * perf record's frequency instead. */
  Config configs[] = {
    { "off" }, { "1khz", 1000 }, { "10khz", 10000 },
    { "kernel_1khz", 0, 1000 }, { "kernel_10khz", 0, 10000 },
    { "1khz_stack", 1000, 0, 8192 },
    { "perf_record_1khz", .perf_hz = 1000 }, { "perf_record_10khz", .perf_hz = 10000 },
    /* The floor's knobs (bench-sampling-workload's header), at 10 kHz where they show. */
    { "floor_task_clock", 0, 10000, 0, "task" }, { "floor_freq", 0, 10000, 0, "freq" },
    { "floor_user_only", 0, 10000, 0, "user" }, { "floor_inherit", 0, 10000, 0, "inherit" },
    { "floor_chain", 0, 10000, 0, "chain" }, { "floor_chain_switch", 0, 10000, 0, "chain,switch" },
    { "floor_chain_switch_wake", 0, 10000, 0, "chain,switch,wake" },
    { "floor_chain_switch_1page", 0, 10000, 0, "chain,switch,small" },
    { "floor_tick_signal", 0, 10000, 0, "tick" },
  };
  const int n_configs = G_N_ELEMENTS (configs);
  int rounds;
  long iterations = 2000;
  double cpu, work, ticks, wall, target = quick ? 0.5 : 1.5;
  guint64 bytes;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (trace_opt)
    {
      analysis (trace_opt);
      return 0;
    }
  floors = !no_floors;
  perf_tool = g_find_program_in_path ("perf");
  rounds = quick ? 3 : 7;
  dir = dir_opt ? g_strdup (dir_opt) : g_dir_make_tmp ("strobe-bench-sampling-XXXXXX", NULL);
  g_mkdir_with_parents (dir, 0700);

  /* Enough work for the target time without sampling. */
  for (;;)
    {
      g_autofree char *trace = g_build_filename (dir, "calibrate.strobe", NULL);
      if (!run_once (trace, &configs[0], iterations, 1, &cpu, &work, &ticks, &wall, &bytes))
        {
          g_printerr ("strobe-bench-sampling: %s did not run\n", BENCH_SAMPLING_WORKLOAD);
          return 1;
        }
      g_unlink (trace);
      if (cpu >= target * 0.8)
        break;
      iterations = (long) ((double) iterations * MIN (10.0, target / MAX (cpu, 0.01)));
    }
  bench_report ("sampling.iterations", (double) iterations, "calls");
  if (analysis_only)
    {
      g_autofree char *trace = g_build_filename (dir, "analysis.strobe", NULL);
      /* Four threads at 10 kHz, twice the calibrated work: as many samples as a few
       * seconds give. */
      Config analysed = { "analysis", 10000 };

      if (!run_once (trace, &analysed, iterations * 2, 4, &cpu, &work, &ticks, &wall, &bytes))
        {
          g_printerr ("strobe-bench-sampling: the analysis run failed\n");
          return 1;
        }
      analysis (trace);
      if (!dir_opt)
        {
          g_unlink (trace);
          g_rmdir (dir);
        }
      return 0;
    }

  /* Interleaved, the order turned each round: a machine that slows down mid-run weighs
   * on every configuration alike. */
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < n_configs; k++)
      {
        Config *c = &configs[(k + r) % n_configs];
        g_autofree char *name = g_strdup_printf ("%s-%d.strobe", c->name, r);
        g_autofree char *trace = g_build_filename (dir, name, NULL);

        if ((c->perf_hz && perf_tool == NULL) || (c->knobs && !floors))
          continue;
        if (!run_once (trace, c, iterations, 1, &c->cpu[r], &c->work[r], &c->ticks[r], &c->wall[r], &c->bytes[r]))
          {
            g_printerr ("strobe-bench-sampling: the %s run failed\n", c->name);
            return 1;
          }
      }

  for (int k = 0; k < n_configs; k++)
    if (configs[k].cpu[0] > 0)
      {
        g_autofree char *n = g_strdup_printf ("sampling.%s.cpu_s", configs[k].name);
        bench_report (n, least (configs[k].cpu, rounds), "s");
      }
  report_sampled (dir, configs, n_configs, rounds);
  report_perf_record (configs, n_configs, rounds);
  if (floors)
    report_floors (configs, n_configs, rounds);
  {
    g_autofree char *trace = g_build_filename (dir, "10khz-0.strobe", NULL);
    analysis (trace);
  }
  if (!dir_opt)
    {
      for (int r = 0; r < rounds; r++)
        for (int k = 0; k < n_configs; k++)
          {
            g_autofree char *name = g_strdup_printf ("%s-%d.strobe", configs[k].name, r);
            g_autofree char *trace = g_build_filename (dir, name, NULL);
            g_unlink (trace);
          }
      g_rmdir (dir);
    }
  return 0;
}
