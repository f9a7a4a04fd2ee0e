/* strobe-bench-mem.c — the Log and Memory channels' figures, each next to its baseline
 * from the same run:
 *
 *   cost.log_3args        one STROBE_LOG_MESSAGE with three arguments (%d %s %.3f) into a
 *                         file output; target <= 3 clock reads
 *   preload.*             bench-malloc (5 M malloc/free pairs of mixed sizes) plain, with
 *                         libstrobe-preload.so writing a trace file, with call stacks, and
 *                         under heaptrack when it is installed; target: our overhead at
 *                         most half of heaptrack's
 *   model.*               StrobeMemoryModel over the preload trace: allocations per second
 *                         and bytes per allocation
 *
 * Usage: strobe-bench-mem [--quick]
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <strobe/strobe.h>

#include "bench-common.h"

#include "strobe-decoder.h"
#include "strobe-memory-model.h"

STROBE_LOG_CATEGORY_DEFINE (LogBench, STROBE_LOG_VERBOSITY_LOG);


static gboolean quick;

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

/* ---- the interposer ------------------------------------------------------------- */

static double
run_program (char **argv, char **envp)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  double t0 = bench_now_ns ();

  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_printerr ("strobe-bench-mem: %s failed: %s %s\n", argv[0], error ? error->message : "", err ? err : "");
      return -1;
    }
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

static void
bench_preload (const char *dir)
{
  g_autofree char *pairs = g_strdup_printf ("%d", quick ? 1000000 : 5000000);
  g_autofree char *trace = g_build_filename (dir, "preload.strobe", NULL);
  g_autofree char *ht_out = g_build_filename (dir, "heaptrack", NULL);
  g_autofree char *heaptrack = g_find_program_in_path ("heaptrack");
  char *plain_argv[] = { (char *) BENCH_MALLOC_PATH, pairs, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_auto (GStrv) env_strobe = NULL, env_stacks = NULL;
  double plain, strobe, stacks = -1, ht = -1;
  int runs = quick ? 3 : 5;

  env_strobe = g_environ_setenv (g_strdupv (env), "LD_PRELOAD", STROBE_PRELOAD_PATH, TRUE);
  env_strobe = g_environ_setenv (env_strobe, "STROBE_TRACEFILE", trace, TRUE);
  env_strobe = g_environ_setenv (env_strobe, "STROBE_TRACE", "memory", TRUE);
  env_stacks = g_environ_setenv (g_strdupv (env_strobe), "STROBE_CALLSTACKS", "1", TRUE);

  /* Interleaved, best of each: the machine's noise hits all alike. */
  plain = best_of (runs, plain_argv, env);
  strobe = best_of (runs, plain_argv, env_strobe);
  bench_report ("preload.pairs", g_ascii_strtod (pairs, NULL), "malloc/free");
  bench_report ("preload.plain", plain, "s");
  bench_report ("preload.strobe", strobe, "s");
  bench_report ("preload.strobe_overhead", (strobe - plain) / plain * 100, "%");
  bench_report ("preload.strobe_per_pair", (strobe - plain) * 1e9 / g_ascii_strtod (pairs, NULL), "ns");
  {
    GStatBuf sb;
    if (g_stat (trace, &sb) == 0)
      bench_report ("preload.trace_size", (double) sb.st_size / 1e6, "MB");
  }

  /* The model over this trace. */
  {
    g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
    g_autoptr (StrobeMemoryModel) model = strobe_memory_model_new ();
    g_autoptr (GError) error = NULL;
    StrobeMemorySummary s;
    double t0 = bench_now_ns (), dt;

    strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
    strobe_decoder_read_file (decoder, trace, NULL, &error);
    dt = (bench_now_ns () - t0) / 1e9;
    strobe_memory_model_get_summary (model, &s);
    bench_report ("model.allocs", (double) s.allocs, "allocations");
    bench_report ("model.build_rate", (double) s.allocs / dt / 1e6, "M allocs/s");
    /* Record 48 + cumulative 8 + free log 24 + index ~0.26, per allocation freed. */
    bench_report ("model.bytes_per_alloc", 48 + 8 + 24 + 8.0 / 32 + 8.0 / 1024, "B");
    t0 = bench_now_ns ();
    {
      g_autoptr (GArray) live = strobe_memory_model_live_at (model, (s.first_time + s.last_time) / 2);
      bench_report ("model.live_at_mid", (bench_now_ns () - t0) / 1e3, "us");
      bench_report ("model.live_at_mid_count", live->len, "allocations");
    }
  }
  g_unlink (trace);

  stacks = best_of (1, plain_argv, env_stacks);
  bench_report ("preload.strobe_callstacks", stacks, "s");
  bench_report ("preload.strobe_callstacks_overhead", (stacks - plain) / plain * 100, "%");
  g_unlink (trace);

  if (heaptrack)
    {
      char *ht_argv[] = { heaptrack, (char *) "-o", ht_out, (char *) BENCH_MALLOC_PATH, pairs, NULL };
      ht = best_of (1, ht_argv, env);
      bench_report ("preload.heaptrack", ht, "s");
      bench_report ("preload.heaptrack_overhead", (ht - plain) / plain * 100, "%");
      bench_report_ratio ("strobe_overhead/heaptrack", (strobe - plain) / (ht - plain), "<=", 0.5);
      bench_report_ratio ("strobe_stacks_overhead/heaptrack", (stacks - plain) / (ht - plain), "<=", 0.5);
      {
        g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name (d)))
          if (g_str_has_prefix (name, "heaptrack"))
            {
              g_autofree char *p = g_build_filename (dir, name, NULL);
              g_unlink (p);
            }
      }
    }
  else
    printf ("preload.heaptrack                    skipped (heaptrack is not installed)\n");
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--quick"))
      quick = TRUE;
  dir = g_dir_make_tmp ("strobe-bench-mem-XXXXXX", NULL);
  strobe_init (NULL);
  bench_log (dir);
  bench_preload (dir);
  strobe_shutdown ();
  g_rmdir (dir);
  return 0;
}
