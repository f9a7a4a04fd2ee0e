/* strobe-bench-compare.c — issue 21's targets: comparing two 10 M-scope traces (the
 * timers table ≤ 2 s), the histograms of one timer (≤ 100 ms), the memory comparison of
 * two 1 M-allocation traces (≤ 2 s). The baselines in the same run: the timer statistics of
 * each trace alone one after the other (the comparison runs both at once), and a
 * histogram from walking the scopes again (the page draws it from the pass's sketches).
 *
 * Usage: strobe-bench-compare [--scopes N] [--allocs N] [--quick]
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "bench-common.h"
#include "strobe-compare-histogram.h"
#include "strobe-compare-memory.h"
#include "strobe-compare-timers.h"
#include "test-dirs.h"

static void
emit (const char *path, gint64 scopes, gint64 allocs, gboolean changed)
{
  g_autofree char *s = g_strdup_printf ("%" G_GINT64_FORMAT, scopes);
  g_autofree char *a = g_strdup_printf ("%" G_GINT64_FORMAT, allocs);
  const char *argv[] = { BENCH_COMPARE_EMITTER, path, s, a, changed ? "--changed" : NULL, NULL };
  g_autoptr(GError) error = NULL;
  gint status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("bench-compare-emitter: %s", error->message);
}

static StrobeDocument *
open_trace (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrobeDocument *document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr(GError) error = NULL;

  if (!strobe_document_load (document, NULL, &error))
    g_error ("%s: %s", path, error->message);
  return document;
}

#define RUNS 3

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = g_option_context_new ("— comparison benchmarks");
  gint64 scopes = 10000000, allocs = 1000000;
  gboolean quick = FALSE;
  GOptionEntry entries[] = {
    { "scopes", 0, 0, G_OPTION_ARG_INT64, &scopes, "CPU scopes per trace (default 10 M)", "N" },
    { "allocs", 0, 0, G_OPTION_ARG_INT64, &allocs, "Allocations per trace (default 1 M)", "N" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "1 M scopes, 100 k allocations", NULL },
    { NULL },
  };
  g_autofree char *dir = NULL, *pa = NULL, *pb = NULL;
  g_autoptr(StrobeDocument) a = NULL, b = NULL;
  StrobeCompareRange whole = { 0 };
  StrobeCompareSpan sa, sb;
  StrobeTraceClock ca, cb;
  double stats[RUNS], timers[RUNS], hist[RUNS], walk[RUNS], mem[RUNS], t0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, NULL))
    return 2;
  if (quick)
    scopes = 1000000, allocs = 100000;
  dir = test_dir_make_tmp ("strobe-bench-compare-XXXXXX");
  pa = g_build_filename (dir, "a.strobe", NULL);
  pb = g_build_filename (dir, "b.strobe", NULL);
  emit (pa, scopes, allocs, FALSE);
  emit (pb, scopes, allocs, TRUE);
  t0 = bench_now_ns ();
  a = open_trace (pa);
  b = open_trace (pb);
  bench_report ("compare.open_both_s", (bench_now_ns () - t0) / 1e9, "s");
  strobe_document_get_clock (a, &ca);
  strobe_document_get_clock (b, &cb);
  strobe_compare_range_resolve (&whole, a, &sa, NULL);
  strobe_compare_range_resolve (&whole, b, &sb, NULL);

  for (int r = 0; r < RUNS; r++)
    {
      g_autoptr(GArray) x = NULL, y = NULL, rows = NULL, da = NULL, db = NULL;
      g_autoptr(StrobeCompareHistogram) h = NULL;
      g_autoptr(StrobeCompareMemory) m = NULL;
      g_autoptr(StrobeCompareSketches) sketches = NULL;
      const StrobeCompareTimer *physics = NULL;

      t0 = bench_now_ns ();
      x = strobe_timer_stats_compute (strobe_document_get_timeline (a), 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
      y = strobe_timer_stats_compute (strobe_document_get_timeline (b), 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
      stats[r] = (bench_now_ns () - t0) / 1e9;
      t0 = bench_now_ns ();
      rows = strobe_compare_timers_full (a, &sa, b, &sb, &sketches, NULL, NULL, NULL);
      timers[r] = (bench_now_ns () - t0) / 1e9;
      for (guint i = 0; i < rows->len; i++)
        if (g_str_equal (g_array_index (rows, StrobeCompareTimer, i).name, "Physics"))
          physics = &g_array_index (rows, StrobeCompareTimer, i);
      if (physics == NULL)
        g_error ("no Physics row");
      t0 = bench_now_ns ();
      h = strobe_compare_histogram_new_sketched (sketches, physics, &ca, &cb, 64, TRUE);
      hist[r] = (bench_now_ns () - t0) / 1e9;
      g_assert (h->n_a == physics->a.count && h->n_b == physics->b.count);
      g_clear_pointer (&h, strobe_compare_histogram_free);
      t0 = bench_now_ns ();
      da = strobe_compare_durations (a, "Physics", &sa, NULL, NULL);
      db = strobe_compare_durations (b, "Physics", &sb, NULL, NULL);
      h = strobe_compare_histogram_new (da, &ca, db, &cb, 64, TRUE);
      walk[r] = (bench_now_ns () - t0) / 1e9;
      t0 = bench_now_ns ();
      m = strobe_compare_memory (a, &sa, b, &sb, STROBE_MEMORY_BY_FUNCTION, NULL, NULL);
      mem[r] = (bench_now_ns () - t0) / 1e9;
      g_assert (rows->len == 5 && m->sites->len >= 4);
    }
  bench_report ("compare.scopes_per_trace", (double) scopes, "scopes");
  bench_report ("compare.allocs_per_trace", (double) allocs, "allocations");
  bench_report ("compare.stats_alone_both_s", bench_median (stats, RUNS), "s");
  bench_report ("compare.timers_s", bench_median (timers, RUNS), "s");
  bench_report ("compare.histogram_one_timer_ms", bench_median (hist, RUNS) * 1e3, "ms");
  bench_report ("compare.histogram_rescan_s", bench_median (walk, RUNS), "s");
  bench_report ("compare.memory_by_function_s", bench_median (mem, RUNS), "s");
  /* Two cores free: about one half. A loaded machine has no second core to give. */
  bench_report_ratio ("compare.timers / stats alone one after the other", bench_median (timers, RUNS) / bench_median (stats, RUNS), "<=", 1.0);
  bench_report_ratio ("compare.histogram / rescan", bench_median (hist, RUNS) / bench_median (walk, RUNS), "<=", 0.1);
  bench_report_ratio ("compare.timers_s", bench_median (timers, RUNS), "<=", 2.0);
  bench_report_ratio ("compare.histogram_one_timer_s", bench_median (hist, RUNS), "<=", 0.1);
  bench_report_ratio ("compare.memory_s", bench_median (mem, RUNS), "<=", 2.0);
  test_dir_remove_all (dir);
  return 0;
}
