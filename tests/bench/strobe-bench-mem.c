/* strobe-bench-mem.c — the Log and Memory channels' figures, each next to its baseline
 * from the same run:
 *
 *   cost.log_3args        one STROBE_LOG_MESSAGE with three arguments (%d %s %.3f) into a
 *                         file output; target <= 3 clock reads
 *   preload.*             bench-malloc (5 M malloc/free pairs of mixed sizes) plain, with
 *                         libstrobe-preload.so writing a trace file, with call stacks, and
 *                         under heaptrack; the live table's cost with tracing off
 *   cc1.*, python.*,      real programs: cc1 compiling a GTK-heavy C file of this tree,
 *   churn.*               python3 with PYTHONMALLOC=malloc on a regular loop (python) and
 *                         on an irregular dict/list/json churn (churn): plain, traced
 *                         without and with call stacks, under heaptrack; overheads, trace
 *                         sizes and bytes per allocation+free pair next to heaptrack's
 *                         file, then `strobe-cli memory` on the stacks trace next to
 *                         heaptrack_print on heaptrack's (time, peak memory). Targets:
 *                         with stacks, at most half heaptrack's overhead, a trace at most
 *                         2× its file; the analysis at most heaptrack_print's time and 2×
 *                         its memory
 *   symbols.*             symbolizing the cc1 trace's frames with libdw, cold and cached
 *   model.*               StrobeMemoryModel over the python trace: build rate, bytes per
 *                         allocation, a query over 1 M allocations
 *
 * heaptrack (Debian's package) is looked for on the PATH; its lines are skipped without
 * it (or with --no-heaptrack). Usage: strobe-bench-mem [--quick] [--no-programs] [--no-heaptrack]
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include <strobe/strobe.h>

#include "bench-common.h"

#include "strobe-decoder.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"
#include "strobe-memory-symbols.h"

STROBE_LOG_CATEGORY_DEFINE (LogBench, STROBE_LOG_VERBOSITY_LOG);

static gboolean quick, no_programs, no_heaptrack;
static char *heaptrack, *heaptrack_print;

/* ---- the log message against a clock read, burst by burst ------------------------ */

static void
burst_log (int n)
{
  for (int i = 0; i < n; i++)
    STROBE_LOG_MESSAGE (LogBench, STROBE_LOG_LOG, "frame %d: %s in %.3f ms", i, "ok", 1.25);
}

static void
bench_log (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "log.strobe", NULL);
  double clock_ns, log_ns, ratio;
  StrobeStats st;

  strobe_channel_set_enabled ("Log", true);
  strobe_output_file (path);
  log_ns = bench_measure (burst_log, BENCH_BURST, &ratio, &clock_ns);
  strobe_get_stats (&st);
  strobe_output_stop ();
  bench_report ("cost.clock_read", clock_ns, "ns");
  bench_report ("cost.log_3args", log_ns, "ns");
  bench_report ("log.dropped", (double) st.events_dropped, "events");
  bench_report_ratio ("log_3args/clock_read", ratio, "<=", 3.0);
  g_unlink (path);
}

/* ---- running programs ------------------------------------------------------------- */

static double last_cpu;   /* the last run_program's child CPU time (user + system), s */

static double
children_cpu (void)
{
  struct rusage ru;

  getrusage (RUSAGE_CHILDREN, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double
run_program (char **argv, char **envp)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  double c0 = children_cpu (), t0 = bench_now_ns ();

  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_printerr ("strobe-bench-mem: %s failed: %s %s\n", argv[0], error ? error->message : "", err ? err : "");
      return -1;
    }
  last_cpu = children_cpu () - c0;
  return (bench_now_ns () - t0) / 1e9;
}

static double
best_of (int n, char **argv, char **envp)
{
  double best = -1;
  for (int i = 0; i < n; i++)
    {
      double t = run_program (argv, envp);
      if (t >= 0 && (best < 0 || t < best))
        best = t;
    }
  return best;
}

/* One run of @argv, its output discarded: wall seconds, its CPU seconds (user + system:
 * on a shared machine the wall time is mostly the scheduler's) and its own peak RSS in MB.
 * Linux keeps the larger of a process's peak and that of the memory it had before its
 * exec — for a child forked from this process (which holds a model by now) that is this
 * process's — so the child is started by a fresh copy of this program
 * (--measure-child), small when it forks, which reports the child's figures. */
static double
run_measured (char **argv, char **envp, double *cpu, double *rss_mb)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  int status = 0;
  double wall = -1, kb = -1;

  *rss_mb = -1;
  *cpu = -1;
  g_ptr_array_add (args, (char *) "/proc/self/exe");
  g_ptr_array_add (args, (char *) "--measure-child");
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);
  if (!g_spawn_sync (NULL, (char **) args->pdata, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                     &status, &error)
      || !g_spawn_check_wait_status (status, NULL) || sscanf (out, "%lf %lf %lf", &wall, &kb, cpu) != 3)
    {
      g_printerr ("strobe-bench-mem: %s failed%s%s\n", argv[0], error ? ": " : "", error ? error->message : "");
      return -1;
    }
  *rss_mb = kb / 1024.0;
  return wall;
}

/* --measure-child ARGV…: runs ARGV with its output discarded and prints its wall
 * seconds, peak resident KiB and CPU seconds (see run_measured). */
static int
measure_child (char **argv)
{
  struct rusage ru;
  int status = 0;
  double t0 = bench_now_ns ();
  pid_t pid = fork ();

  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);
      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
      execvp (argv[0], argv);
      _exit (127);
    }
  if (pid < 0)
    return 1;
  while (wait4 (pid, &status, 0, &ru) < 0)
    ;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 1;
  printf ("%.6f %ld %.6f\n", (bench_now_ns () - t0) / 1e9, ru.ru_maxrss,
          (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
          + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6);
  return 0;
}

static gint64
file_size (const char *path)
{
  GStatBuf sb;

  return g_stat (path, &sb) == 0 ? (gint64) sb.st_size : -1;
}

/* heaptrack -o PREFIX writes PREFIX.zst (or .gz): the size of whatever it wrote, and
 * its path in @path (may be NULL). */
static gint64
heaptrack_size (const char *dir, const char *prefix, gboolean remove, char **path)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  gint64 size = -1;

  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, prefix))
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);
        gint64 n = file_size (p);

        if (n > size && path)
          {
            g_free (*path);
            *path = g_strdup (p);
          }
        size = MAX (size, n);
        if (remove)
          g_unlink (p);
      }
  return size;
}

static char **
env_with (char **base, ...)
{
  char **env = g_strdupv (base);
  va_list ap;
  const char *name;

  va_start (ap, base);
  while ((name = va_arg (ap, const char *)))
    env = g_environ_setenv (env, name, va_arg (ap, const char *), TRUE);
  va_end (ap);
  return env;
}

static StrobeMemoryModel *
load_model (const char *trace, double *seconds)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *model = strobe_memory_model_new ();
  double t0 = bench_now_ns ();

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  if (error)
    g_printerr ("strobe-bench-mem: %s: %s\n", trace, error->message);
  if (seconds)
    *seconds = (bench_now_ns () - t0) / 1e9;
  return model;
}

/* ---- the interposer on bench-malloc ------------------------------------------------ */

static void
bench_preload (const char *dir)
{
  g_autofree char *pairs = g_strdup_printf ("%d", quick ? 1000000 : 5000000);
  g_autofree char *trace = g_build_filename (dir, "preload.strobe", NULL);
  g_autofree char *ht_out = g_build_filename (dir, "heaptrack-malloc", NULL);
  char *plain_argv[] = { (char *) BENCH_MALLOC_PATH, pairs, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_auto (GStrv) env_strobe = NULL, env_stacks = NULL, env_idle = NULL, env_table = NULL;
  double plain, strobe, stacks, idle, table, idle_cpu, table_cpu, ht = -1, n = g_ascii_strtod (pairs, NULL);
  int runs = quick ? 3 : 5;

  env = g_environ_unsetenv (env, "STROBE_TRACE");
  env = g_environ_unsetenv (env, "STROBE_TRACEFILE");
  env = g_environ_unsetenv (env, "STROBE_TRACEHOST");
  env_strobe = env_with (env, "LD_PRELOAD", STROBE_PRELOAD_PATH, "STROBE_TRACEFILE", trace,
                         "STROBE_TRACE", "memory", NULL);
  env_stacks = env_with (env_strobe, "STROBE_CALLSTACKS", "1", NULL);
  /* Tracing off (no output, channel off): the interposer's idle cost, and the live
   * table's on top of it. */
  env_idle = env_with (env, "LD_PRELOAD", STROBE_PRELOAD_PATH, "STROBE_DISCOVERY", "0", NULL);
  env_table = env_with (env_idle, "STROBE_MEMORY_LIVE_TABLE", "1", NULL);

  /* Interleaved, best of each: the machine's noise hits all alike. */
  plain = best_of (runs, plain_argv, env);
  strobe = best_of (runs, plain_argv, env_strobe);
  bench_report ("preload.pairs", n, "malloc/free");
  bench_report ("preload.plain", plain, "s");
  bench_report ("preload.strobe", strobe, "s");
  bench_report ("preload.strobe_overhead", (strobe - plain) / plain * 100, "%");
  bench_report ("preload.strobe_per_pair", (strobe - plain) * 1e9 / n, "ns");
  bench_report ("preload.trace_size", (double) file_size (trace) / 1e6, "MB");
  bench_report ("preload.trace_bytes_per_pair", (double) file_size (trace) / n, "B");
  g_unlink (trace);
  stacks = best_of (runs, plain_argv, env_stacks);
  bench_report ("preload.strobe_callstacks", stacks, "s");
  bench_report ("preload.strobe_callstacks_per_pair", (stacks - plain) * 1e9 / n, "ns");
  g_unlink (trace);

  /* The table costs CPU on the allocating thread only (no worker runs with tracing off):
   * its figure is the child's CPU time, which a loaded machine disturbs far less than
   * wall time. An allocation's cost is its insert and, later, its free's removal. */
  idle = table = idle_cpu = table_cpu = G_MAXDOUBLE;
  for (int i = 0; i < runs; i++)
    {
      idle = MIN (idle, run_program (plain_argv, env_idle));
      idle_cpu = MIN (idle_cpu, last_cpu);
      table = MIN (table, run_program (plain_argv, env_table));
      table_cpu = MIN (table_cpu, last_cpu);
    }
  bench_report ("preload.idle", idle, "s");
  bench_report ("preload.idle_per_pair", (idle - plain) * 1e9 / n, "ns");
  bench_report ("preload.live_table", table, "s");
  bench_report ("preload.live_table_wall_per_alloc", (table - idle) * 1e9 / n, "ns");
  bench_report ("preload.idle_cpu", idle_cpu, "s");
  bench_report ("preload.live_table_cpu", table_cpu, "s");
  bench_report ("preload.live_table_per_alloc", (table_cpu - idle_cpu) * 1e9 / n, "ns");
  bench_report_ratio ("live_table_ns_per_alloc", (table_cpu - idle_cpu) * 1e9 / n, "<=", 15.0);

  if (heaptrack)
    {
      char *ht_argv[] = { heaptrack, (char *) "-o", ht_out, (char *) BENCH_MALLOC_PATH, pairs, NULL };
      ht = best_of (1, ht_argv, env);
      bench_report ("preload.heaptrack", ht, "s");
      bench_report ("preload.heaptrack_overhead", (ht - plain) / plain * 100, "%");
      bench_report ("preload.heaptrack_per_pair", (ht - plain) * 1e9 / n, "ns");
      bench_report_ratio ("malloc_strobe_overhead/heaptrack", (strobe - plain) / (ht - plain), "<=", 0.5);
      bench_report_ratio ("malloc_stacks_overhead/heaptrack", (stacks - plain) / (ht - plain), "<=", 0.5);
      heaptrack_size (dir, "heaptrack-malloc", TRUE, NULL);
    }
  else
    printf ("preload.heaptrack                    skipped (heaptrack is not installed)\n");
}

/* ---- real programs ------------------------------------------------------------------ */

typedef struct
{
  const char *name;        /* "cc1", "python" */
  char      **argv;
  char      **env;         /* the plain run's */
  int         runs;
} Program;

/* Plain, traced without and with stacks, heaptrack; returns the stacks trace (kept). */
static char *
bench_program (const char *dir, const Program *p, StrobeMemoryModel **model_out)
{
  g_autofree char *trace = g_strdup_printf ("%s/%s.strobe", dir, p->name);
  g_autofree char *stacks_trace = g_strdup_printf ("%s/%s-stacks.strobe", dir, p->name);
  g_autofree char *ht_prefix = g_strdup_printf ("heaptrack-%s", p->name);
  g_autofree char *ht_out = g_build_filename (dir, ht_prefix, NULL);
  g_auto (GStrv) env_strobe = env_with (p->env, "LD_PRELOAD", STROBE_PRELOAD_PATH, "STROBE_TRACEFILE", trace,
                                        "STROBE_TRACE", "memory", NULL);
  g_auto (GStrv) env_stacks = env_with (p->env, "LD_PRELOAD", STROBE_PRELOAD_PATH, "STROBE_TRACEFILE", stacks_trace,
                                        "STROBE_TRACE", "memory", "STROBE_CALLSTACKS", "1", NULL);
  double plain = G_MAXDOUBLE, strobe = G_MAXDOUBLE, stacks = G_MAXDOUBLE, ht = -1;
  double plain_cpu = G_MAXDOUBLE, strobe_cpu = G_MAXDOUBLE, stacks_cpu = G_MAXDOUBLE;
  g_autofree char *name = NULL;
  StrobeMemorySummary s;
  gint64 size, stacks_size;
  StrobeMemoryModel *model;

  for (int i = 0; i < p->runs; i++)
    {
      plain = MIN (plain, run_program (p->argv, p->env));
      plain_cpu = MIN (plain_cpu, last_cpu);
      strobe = MIN (strobe, run_program (p->argv, env_strobe));
      strobe_cpu = MIN (strobe_cpu, last_cpu);
      stacks = MIN (stacks, run_program (p->argv, env_stacks));
      stacks_cpu = MIN (stacks_cpu, last_cpu);
    }
  size = file_size (trace);
  stacks_size = file_size (stacks_trace);
  model = load_model (stacks_trace, NULL);
  strobe_memory_model_get_summary (model, &s);
#define FIG(what) (g_free (name), name = g_strdup_printf ("%s.%s", p->name, what))
  bench_report (FIG ("allocations"), (double) s.allocs, "allocations");
  bench_report (FIG ("plain"), plain, "s");
  bench_report (FIG ("strobe"), strobe, "s");
  bench_report (FIG ("strobe_x_plain"), strobe / plain, "x");
  bench_report (FIG ("strobe_stacks"), stacks, "s");
  bench_report (FIG ("strobe_stacks_x_plain"), stacks / plain, "x");
  bench_report (FIG ("trace_size"), (double) size / 1e6, "MB");
  bench_report (FIG ("trace_size_stacks"), (double) stacks_size / 1e6, "MB");
  bench_report (FIG ("bytes_per_pair"), (double) size / (double) s.allocs, "B");
  bench_report (FIG ("bytes_per_pair_stacks"), (double) stacks_size / (double) s.allocs, "B");
  /* What stacks cost on their own: capture and dedup (CPU, which a loaded machine
   * disturbs less than wall time) and the trace bytes of their nodes. */
  bench_report (FIG ("plain_cpu"), plain_cpu, "s");
  bench_report (FIG ("strobe_cpu"), strobe_cpu, "s");
  bench_report (FIG ("strobe_stacks_cpu"), stacks_cpu, "s");
  bench_report (FIG ("stacks_cpu_per_alloc"), (stacks_cpu - strobe_cpu) * 1e9 / (double) MAX (s.allocs, 1), "ns");
  bench_report (FIG ("stack_nodes"), (double) s.stacks, "nodes");
  bench_report (FIG ("stack_bytes_per_node"), (double) (stacks_size - size) / (double) MAX (s.stacks, 1), "B");
  g_unlink (trace);
  if (heaptrack)
    {
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      gint64 ht_size;

      g_ptr_array_add (argv, heaptrack);
      g_ptr_array_add (argv, (char *) "-o");
      g_ptr_array_add (argv, ht_out);
      for (guint i = 0; p->argv[i]; i++)
        g_ptr_array_add (argv, p->argv[i]);
      g_ptr_array_add (argv, NULL);
      g_autofree char *ht_file = NULL;
      double ht_cpu;

      ht = best_of (1, (char **) argv->pdata, p->env);
      ht_cpu = last_cpu;
      ht_size = heaptrack_size (dir, ht_prefix, FALSE, &ht_file);
      bench_report (FIG ("heaptrack"), ht, "s");
      bench_report (FIG ("heaptrack_x_plain"), ht / plain, "x");
      bench_report (FIG ("heaptrack_file"), (double) ht_size / 1e6, "MB");
      bench_report (FIG ("heaptrack_bytes_per_pair"), (double) ht_size / (double) s.allocs, "B");
      bench_report_ratio (FIG ("stacks_overhead/heaptrack"), (stacks - plain) / (ht - plain), "<=", 0.5);
      bench_report_ratio (FIG ("nostacks_overhead/heaptrack"), (strobe - plain) / (ht - plain), "<=", 0.5);
      bench_report (FIG ("heaptrack_cpu"), ht_cpu, "s");
      bench_report_ratio (FIG ("stacks_cpu_overhead/heaptrack"), (stacks_cpu - plain_cpu) / (ht_cpu - plain_cpu), "<=", 0.5);
      bench_report_ratio (FIG ("stacks_trace/heaptrack_file"), (double) stacks_size / (double) ht_size, "<=", 2.0);
      bench_report_ratio (FIG ("trace/heaptrack_file"), (double) size / (double) ht_size, "<=", 2.0);
      /* The analysis: strobe-cli memory's report against heaptrack_print's, each reading
       * the file with stacks and printing its summary and top lists. */
      if (heaptrack_print && ht_file)
        {
          char *hp_argv[] = { heaptrack_print, ht_file, NULL };
          char *cli_argv[] = { (char *) STROBE_CLI_PATH, (char *) "memory", stacks_trace, NULL };
          double hp = G_MAXDOUBLE, cli = G_MAXDOUBLE, hp_rss = 0, cli_rss = 0, rss;
          double hp_cpu = G_MAXDOUBLE, cli_cpu = G_MAXDOUBLE, c;

          /* Alternated, best of 3 (1 with --quick): a change of the machine's load hits both. */
          for (int i = 0; i < (quick ? 1 : 3); i++)
            {
              hp = MIN (hp, run_measured (hp_argv, p->env, &c, &rss));
              hp_cpu = MIN (hp_cpu, c);
              hp_rss = MAX (hp_rss, rss);
              cli = MIN (cli, run_measured (cli_argv, p->env, &c, &rss));
              cli_cpu = MIN (cli_cpu, c);
              cli_rss = MAX (cli_rss, rss);
            }
          bench_report (FIG ("analysis_strobe_cli"), cli, "s");
          bench_report (FIG ("analysis_strobe_cli_cpu"), cli_cpu, "s");
          bench_report (FIG ("analysis_strobe_cli_rss"), cli_rss, "MB");
          bench_report (FIG ("analysis_heaptrack_print"), hp, "s");
          bench_report (FIG ("analysis_heaptrack_print_cpu"), hp_cpu, "s");
          bench_report (FIG ("analysis_heaptrack_print_rss"), hp_rss, "MB");
          bench_report_ratio (FIG ("analysis_time/heaptrack_print"), cli / hp, "<=", 1.0);
          bench_report_ratio (FIG ("analysis_cpu/heaptrack_print"), cli_cpu / hp_cpu, "<=", 1.0);
          bench_report_ratio (FIG ("analysis_memory/heaptrack_print"), cli_rss / hp_rss, "<=", 2.0);
        }
      if (ht_file)
        g_unlink (ht_file);
    }
  else
    printf ("%s.heaptrack                        skipped (heaptrack is not installed)\n", p->name);
#undef FIG
  *model_out = model;
  return g_steal_pointer (&stacks_trace);
}

static char *
cc1_path (void)
{
  char *out = NULL;
  char *argv[] = { (char *) "gcc", (char *) "-print-prog-name=cc1", NULL };

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL, NULL))
    return NULL;
  g_strstrip (out);
  if (!g_file_test (out, G_FILE_TEST_IS_EXECUTABLE))
    g_clear_pointer (&out, g_free);
  return out;
}

/* Every distinct frame of the trace's stacks, symbolized with a new symbolizer (cold:
 * files opened, DWARF read), then again (cached). */
static void
bench_symbols (StrobeMemoryModel *model)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeMemoryFrame));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  StrobeMemorySummary s;
  double t0, cold, cached;
  guint resolved = 0;

  strobe_memory_model_get_summary (model, &s);
  /* Each trie node's own frame, once per address. */
  for (guint64 id = 1; id <= s.stacks && id <= G_MAXUINT32 && frames->len < 20000; id++)
    {
      StrobeMemoryFrame f;
      if (strobe_memory_model_get_frames (model, (guint32) id, &f, 1) == 1
          && !g_hash_table_contains (seen, &f.address))
        {
          g_array_append_val (frames, f);
          g_hash_table_add (seen, g_memdup2 (&f.address, sizeof f.address));
        }
    }
  t0 = bench_now_ns ();
  for (guint i = 0; i < frames->len; i++)
    {
      const StrobeMemoryFrame *f = &g_array_index (frames, StrobeMemoryFrame, i);
      resolved += strobe_symbolizer_lookup (sym, f->module, f->address)->resolved;
    }
  cold = (bench_now_ns () - t0) / 1e9;
  t0 = bench_now_ns ();
  for (int r = 0; r < 10; r++)
    for (guint i = 0; i < frames->len; i++)
      {
        const StrobeMemoryFrame *f = &g_array_index (frames, StrobeMemoryFrame, i);
        strobe_symbolizer_lookup (sym, f->module, f->address);
      }
  cached = (bench_now_ns () - t0) / 1e9 / 10;
  bench_report ("symbols.frames", frames->len, "frames");
  bench_report ("symbols.resolved", resolved, "frames");
  bench_report ("symbols.cold_rate", frames->len / cold, "frames/s");
  bench_report ("symbols.cached_rate", frames->len / cached, "frames/s");
}

static void
bench_model (const char *trace, StrobeMemoryModel *model)
{
  g_autoptr (StrobeMemoryModel) again = NULL;
  g_autoptr (StrobeMemoryAggregate) agg = NULL;
  g_autoptr (StrobeMemoryTree) tree = NULL;
  StrobeMemorySummary s;
  StrobeMemoryAlloc a, b;
  double build, t0, ms_agg, ms_tree;
  guint64 n = strobe_memory_model_get_count (model), last = MIN (n, 1000000) - 1;

  again = load_model (trace, &build);
  strobe_memory_model_get_summary (again, &s);
  bench_report ("model.allocs", (double) s.allocs, "allocations");
  bench_report ("model.build_rate", (double) s.allocs / build / 1e6, "M allocs/s");
  bench_report ("model.bytes_per_alloc", (double) strobe_memory_model_get_memory_bytes (again) / (double) s.allocs, "B");
  /* A range of 1 M allocations: by function (symbols not read: frames as keys) and the
   * bottom-up tree. */
  strobe_memory_model_get_alloc (again, 0, &a);
  strobe_memory_model_get_alloc (again, last, &b);
  t0 = bench_now_ns ();
  agg = strobe_memory_model_aggregate (again, a.alloc_time, b.alloc_time, STROBE_MEMORY_BY_STACK, NULL, NULL,
                                       NULL, NULL, NULL, NULL);
  ms_agg = (bench_now_ns () - t0) / 1e6;
  t0 = bench_now_ns ();
  tree = strobe_memory_model_build_tree (again, a.alloc_time, b.alloc_time, STROBE_MEMORY_TREE_BOTTOM_UP, NULL, NULL,
                                         NULL, NULL, NULL, NULL);
  ms_tree = (bench_now_ns () - t0) / 1e6;
  bench_report ("model.query_allocs", (double) (last + 1), "allocations");
  bench_report ("model.aggregate_by_stack", ms_agg, "ms");
  bench_report ("model.bottom_up_tree", ms_tree, "ms");
  bench_report ("model.tree_nodes", strobe_memory_tree_get_n_nodes (tree), "nodes");
  bench_report_ratio ("query_1M_allocs_ms", MAX (ms_agg, ms_tree), "<=", 1000);
}

static void
bench_programs (const char *dir)
{
  g_autofree char *cc1 = cc1_path ();
  g_auto (GStrv) env = g_get_environ ();
  g_auto (GStrv) py_env = NULL;
  g_auto (GStrv) cc1_argv = NULL;
  g_autofree char *py_n = g_strdup_printf ("%d", quick ? 200000 : 900000);
  g_autofree char *churn_n = g_strdup_printf ("%d", quick ? 20000 : 100000);
  char *py_argv[] = { (char *) "/usr/bin/python3", (char *) BENCH_PYTHON_SCRIPT, py_n, NULL };
  char *churn_argv[] = { (char *) "/usr/bin/python3", (char *) BENCH_PYTHON_CHURN, churn_n, NULL };
  StrobeMemoryModel *model = NULL;

  env = g_environ_unsetenv (env, "STROBE_TRACE");
  env = g_environ_unsetenv (env, "STROBE_TRACEFILE");
  env = g_environ_unsetenv (env, "STROBE_TRACEHOST");
  if (cc1)
    {
      g_autofree char *cmd = g_strdup_printf ("%s -quiet %s %s -O2 -o /dev/null", cc1, BENCH_GTK_CFLAGS, BENCH_GTK_SOURCE);
      Program p = { "cc1", NULL, env, quick ? 2 : 3 };
      g_autofree char *trace = NULL;

      g_shell_parse_argv (cmd, NULL, &cc1_argv, NULL);
      p.argv = cc1_argv;
      trace = bench_program (dir, &p, &model);
      bench_symbols (model);
      g_clear_object (&model);
      g_unlink (trace);
    }
  else
    printf ("cc1.*                                skipped (gcc's cc1 not found)\n");
  if (g_file_test (py_argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      Program p = { "python", py_argv, NULL, quick ? 2 : 3 };
      g_autofree char *trace = NULL;

      py_env = env_with (env, "PYTHONMALLOC", "malloc", NULL);
      p.env = py_env;
      trace = bench_program (dir, &p, &model);
      bench_model (trace, model);
      g_clear_object (&model);
      g_unlink (trace);
    }
  else
    printf ("python.*                             skipped (/usr/bin/python3 not found)\n");
  if (g_file_test (churn_argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      Program p = { "churn", churn_argv, py_env, quick ? 1 : 3 };
      g_autofree char *trace = NULL;

      trace = bench_program (dir, &p, &model);
      g_clear_object (&model);
      g_unlink (trace);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;

  if (argc > 2 && g_str_equal (argv[1], "--measure-child"))
    return measure_child (argv + 2);
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--quick"))
      quick = TRUE;
    else if (g_str_equal (argv[i], "--no-programs"))
      no_programs = TRUE;
    else if (g_str_equal (argv[i], "--no-heaptrack"))
      no_heaptrack = TRUE;
  heaptrack = no_heaptrack ? NULL : g_find_program_in_path ("heaptrack");
  heaptrack_print = no_heaptrack ? NULL : g_find_program_in_path ("heaptrack_print");
  dir = g_dir_make_tmp ("strobe-bench-mem-XXXXXX", NULL);
  strobe_init (NULL);
  bench_log (dir);
  bench_preload (dir);
  if (!no_programs)
    bench_programs (dir);
  strobe_shutdown ();
  g_rmdir (dir);
  g_free (heaptrack);
  g_free (heaptrack_print);
  return 0;
}
