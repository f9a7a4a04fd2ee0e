/* strobe-bench-cpu.c — CPU scopes: emitter cost against a clock read, bytes per scope in
 * the file for a realistic workload, model memory per scope, and analysis rate of a big
 * trace into the timeline model. Same output style as strobe-bench: `name value unit`
 * lines, then `ratio … MET/MISSED` lines against the targets of the issue.
 *
 * Usage: strobe-bench-cpu [--quick] [--dir DIR] [--scopes N]
 */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "bench-decode.h"

#include "strobe-decoder.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"

static gboolean quick;
static const char *bench_dir;
static gint64 big_scopes;

/* ---- cost of a scope ------------------------------------------------------------------ */


/* The real block-scope macro: begin and end, each with its own clock read. */
static void
burst_scope (int n)
{
  for (int i = 0; i < n; i++)
    {
      STROBE_CPU_SCOPE ("bench");
    }
}

static void
burst_begin_end (int n)
{
  static StrobeCpuSpec spec = STROBE_CPU_SPEC_INIT ("bench.api");
  for (int i = 0; i < n; i++)
    if (strobe_cpu_begin (&spec))
      strobe_cpu_end ();
}

static void
burst_dynamic (int n)
{
  static const char *const names[4] = { "dyn.a", "dyn.b", "dyn.c", "dyn.d" };
  for (int i = 0; i < n; i++)
    {
      STROBE_CPU_SCOPE_DYNAMIC (names[i & 3]);
    }
}

static void
burst_disabled (int n)
{
  strobe_channel_set_enabled ("Cpu", false);
  for (int i = 0; i < n; i++)
    {
      STROBE_CPU_SCOPE ("bench.off");
    }
  strobe_channel_set_enabled ("Cpu", true);
}

/* ---- a realistic workload: many names, mixed depths and durations ------------------- */

#define N_NAMES 300

static StrobeCpuSpec specs[N_NAMES];
static char *spec_names[N_NAMES];
static guint32 rng = 12345;

static guint32
next_rand (void)
{
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void
spin (guint iters)
{
  volatile guint x = 0;
  for (guint i = 0; i < iters; i++)
    x += i;
}

/* A call tree like a game frame's: systems (depth 1–2) call subsystems that loop over
 * entities (leaves of 20 ns – 2 µs, a few long ones), to a depth of up to 8. Names come
 * from a pool of 300 with a skewed distribution; the same call sites repeat each frame. */
static guint64
workload_node (guint depth, guint site)
{
  guint64 n = 1;
  StrobeCpuSpec *spec = &specs[(site * 7 + depth * 31) % N_NAMES];
  guint children;

  if (!strobe_cpu_begin (spec))
    return 0;
  if (depth >= 8 || (depth > 2 && next_rand () % 4 == 0))
    children = 0;
  else
    children = depth < 2 ? 4 + next_rand () % 4 : next_rand () % 5;
  if (children == 0)
    {
      guint r = next_rand () % 100;
      spin (r < 60 ? 5 + r : r < 95 ? 50 + r * 10 : 2000 + r * 20);
    }
  for (guint c = 0; c < children; c++)
    {
      n += workload_node (depth + 1, site * 5 + c + (next_rand () % 3 == 0 ? next_rand () % 40 : 0));
      if (next_rand () % 3 == 0)
        spin (10);
    }
  strobe_cpu_end ();
  return n;
}

static guint64
workload (guint64 min_scopes)
{
  guint64 n = 0;

  for (guint frame = 0; n < min_scopes; frame++)
    {
      strobe_frame_begin (STROBE_FRAME_GAME);
      n += workload_node (0, frame % 3);
      strobe_frame_end (STROBE_FRAME_GAME);
    }
  return n;
}

/* Tight nested scopes for the analysis benchmark: depth 4 under a root per 1000. */
static guint64
big_trace (guint64 scopes)
{
  static StrobeCpuSpec s0 = STROBE_CPU_SPEC_INIT ("root");
  static StrobeCpuSpec s1 = STROBE_CPU_SPEC_INIT ("a");
  static StrobeCpuSpec s2 = STROBE_CPU_SPEC_INIT ("b");
  static StrobeCpuSpec s3 = STROBE_CPU_SPEC_INIT ("c");
  guint64 n = 0;

  while (n < scopes)
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
      /* Keep the buffers from filling faster than the worker writes: no drops. */
      if ((n / 1000) % 64 == 0)
        strobe_flush ();
    }
  return n;
}

static goffset
file_size (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 ? (goffset) st.st_size : -1;
}

/* Decodes @path (read into memory first) into a timeline model; seconds of decoding. */
static double
analyse (const char *path, StrobeTimelineModel **model_out)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeTimelineModel *model = strobe_timeline_model_new ();
  double t0;

  if (!g_file_get_contents (path, &data, &len, &error))
    g_error ("%s", error->message);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  t0 = bench_now_ns ();
  if (!strobe_decoder_feed (decoder, (const guint8 *) data, len, &error)
      || !strobe_decoder_finish (decoder, &error))
    g_error ("%s: %s", path, error->message);
  t0 = (bench_now_ns () - t0) / 1e9;
  *model_out = model;
  return t0;
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— CPU scope benchmarks");
  g_autofree char *tmp = NULL;
  g_autofree char *path_work = NULL, *path_big = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Fewer and shorter runs", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_dir, "Where to write the trace files", "DIR" },
    { "scopes", 0, 0, G_OPTION_ARG_INT64, &big_scopes, "Scopes in the analysis trace (default 10 M; 2 M with --quick)", "N" },
    { NULL },
  };
  StrobeInitOptions opts = { 0 };
  double ratio, cost, t, work_model_bpp, work_bpp;
  StrobeStats st0, st1;
  StrobeTimelineModel *model = NULL;
  StrobeTimelineStats ms;
  guint64 n;
  goffset size;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, NULL))
    return 2;
  if (big_scopes <= 0)
    big_scopes = quick ? 2000000 : 10000000;
  if (bench_dir == NULL)
    bench_dir = tmp = g_dir_make_tmp ("strobe-bench-cpu-XXXXXX", NULL);
  path_work = g_build_filename (bench_dir, "workload.strobe", NULL);
  path_big = g_build_filename (bench_dir, "big.strobe", NULL);

  for (guint i = 0; i < N_NAMES; i++)
    {
      spec_names[i] = g_strdup_printf ("System%02u::Function%03u", i % 23, i);
      specs[i] = (StrobeCpuSpec) { 0, i, spec_names[i], __FILE__ };
    }

  strobe_channels_set_enabled ("Cpu,Frame", true);
  opts.buffer_bytes = 256u << 20;
  strobe_init (&opts);

  printf ("# strobe-bench-cpu %s: name value unit (median of %d bursts of %d)\n", PACKAGE_VERSION, BENCH_BURSTS, BENCH_BURST);
  bench_report ("clock.frequency", (double) strobe_clock_frequency () / 1e6, "MHz");

  /* Costs, into a file (so the batches really ship). */
  if (!strobe_output_file (path_work))
    g_error ("cannot open %s: %s", path_work, g_strerror (errno));
  strobe_get_stats (&st0);
  bench_report ("cost.clock_read", bench_measure (bench_burst_clock, BENCH_BURST, NULL, NULL), "ns");
  cost = bench_measure (burst_scope, BENCH_BURST, &ratio, NULL);
  bench_report ("cost.cpu_scope", cost, "ns (STROBE_CPU_SCOPE, begin + end)");
  bench_report ("cost.cpu_scope_vs_clock", ratio, "x");
  bench_report ("cost.cpu_begin_end_api", bench_measure (burst_begin_end, BENCH_BURST, NULL, NULL), "ns");
  bench_report ("cost.cpu_scope_dynamic", bench_measure (burst_dynamic, BENCH_BURST, NULL, NULL), "ns");
  bench_report ("cost.cpu_scope_disabled", bench_measure (burst_disabled, BENCH_BURST, NULL, NULL), "ns (channel off)");
  bench_report ("cpu.time_unit", (double) (1u << strobe__cpu_shift) * 1e9 / (double) strobe_clock_frequency (), "ns (2^shift ticks)");
  strobe_get_stats (&st1);
  bench_report ("hot.events_dropped", (double) (st1.events_dropped - st0.events_dropped), "events");
  strobe_output_stop ();

  /* Bytes per scope: only the workload in the file (a fresh output). */
  if (!strobe_output_file (path_work))
    g_error ("cannot open %s: %s", path_work, g_strerror (errno));
  strobe_get_stats (&st0);
  n = workload (quick ? 300000 : 1000000);
  strobe_flush ();
  strobe_get_stats (&st1);
  strobe_output_stop ();
  size = file_size (path_work);
  bench_report ("workload.scopes", (double) n, "scopes");
  bench_report ("workload.file_bytes", (double) size, "B");
  bench_report ("workload.dropped", (double) (st1.events_dropped - st0.events_dropped), "events");
  work_bpp = (double) size / (double) n;
  bench_report ("workload.bytes_per_scope", work_bpp, "B");

  t = analyse (path_work, &model);
  strobe_timeline_model_get_stats (model, &ms);
  bench_report ("model.workload_scopes", (double) ms.scopes, "scopes");
  bench_report ("model.bytes_per_scope", (double) ms.scope_bytes / (double) ms.scopes, "B (scope storage)");
  bench_report ("model.total_bytes_per_scope", (double) ms.total_bytes / (double) ms.scopes, "B (whole model)");
  work_model_bpp = (double) ms.scope_bytes / (double) ms.scopes;
  {
    double s0 = bench_now_ns ();
    g_autoptr (GArray) stats = strobe_timer_stats_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
    bench_report ("stats.workload_rate", (double) ms.scopes / ((bench_now_ns () - s0) / 1e9) / 1e6, "M scopes/s (timer stats, whole trace)");
  }
  g_clear_object (&model);

  /* Analysis of a big trace. */
  if (!strobe_output_file (path_big))
    g_error ("cannot open %s: %s", path_big, g_strerror (errno));
  strobe_get_stats (&st0);
  n = big_trace ((guint64) big_scopes);
  strobe_flush ();
  strobe_get_stats (&st1);
  strobe_output_stop ();
  bench_report ("big.scopes", (double) n, "scopes");
  bench_report ("big.file_bytes", (double) file_size (path_big), "B");
  bench_report ("big.dropped", (double) (st1.events_dropped - st0.events_dropped), "events");
  {
    double v[3];
    int runs = quick ? 1 : 3;
    for (int r = 0; r < runs; r++)
      v[r] = bench_decode_only (path_big, TRUE);
    bench_report ("big.decode_only_rate", (double) n / bench_median (v, runs) / 1e6, "M scopes/s (decoder alone, the floor)");
    for (int r = 0; r < runs; r++)
      {
        v[r] = analyse (path_big, &model);
        strobe_timeline_model_get_stats (model, &ms);
        if (r + 1 < runs)
          g_clear_object (&model);
      }
    t = bench_median (v, runs);
  }
  bench_report ("big.model_scopes", (double) ms.scopes, "scopes");
  bench_report ("big.analysis_rate", (double) ms.scopes / t / 1e6, "M scopes/s (decode + timeline model)");
  bench_report ("big.model_bytes_per_scope", (double) ms.scope_bytes / (double) ms.scopes, "B");
  g_clear_object (&model);

  bench_report_ratio ("cpu_scope_vs_clock", ratio, "<=", 2.3);
  bench_report_ratio ("workload_bytes_per_scope", work_bpp, "<=", 4.0);
  bench_report_ratio ("model_bytes_per_scope", work_model_bpp, "<=", 16.0);
  bench_report_ratio ("analysis_M_scopes_per_s", (double) ms.scopes / t / 1e6, ">=", 30.0);

  strobe_shutdown ();
  g_unlink (path_work);
  g_unlink (path_big);
  if (tmp)
    g_rmdir (tmp);
  return 0;
}
