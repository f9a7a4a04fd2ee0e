/* test-cpu.c — CPU scopes, frames, bookmarks, regions and counters through the models and
 * strobe-cli: golden traces recorded by cpu-emitter (tests/data/golden-cpu-*), fresh
 * recordings, range queries against brute force, and queries while the model grows.
 *
 * To re-record the golden traces (only when the format changes on purpose):
 *   _build/tests/cpu/cpu-emitter synthetic tests/data/golden-cpu-synthetic.strobe
 *   _build/tests/cpu/cpu-emitter threads tests/data/golden-cpu-threads.strobe
 *   LC_ALL=C _build/core/cli/strobe-cli stats --units=ticks tests/data/golden-cpu-synthetic.strobe \
 *     > tests/data/golden-cpu-synthetic.stats
 * (golden-cpu-threads.counts is hand-written from the program's structure.)
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "strobe-decoder.h"
#include "strobe-info-analyzer.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"
#include "strobe-trace-clock.h"

static char *golden_dir;
static const char *cli;
static const char *emitter;

static char *
data_path (const char *name)
{
  return g_build_filename (golden_dir, name, NULL);
}

typedef struct
{
  StrobeThreadsModel  *threads;
  StrobeTimelineModel *timeline;
} Models;

static void
models_clear (Models *m)
{
  g_clear_object (&m->threads);
  g_clear_object (&m->timeline);
}

static void
load (const char *path, Models *m)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;

  m->threads = strobe_threads_model_new ();
  m->timeline = strobe_timeline_model_new ();
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m->threads));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m->timeline));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strobe_timeline_model_is_complete (m->timeline));
}

static char *
run_cli (const char *const *args)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  char *out = NULL;

  g_ptr_array_add (argv, (gpointer) cli);
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  return out;
}

static const StrobeTimerStat *
find_stat (GArray *stats, const char *name)
{
  for (guint i = 0; i < stats->len; i++)
    if (g_str_equal (g_array_index (stats, StrobeTimerStat, i).name, name))
      return &g_array_index (stats, StrobeTimerStat, i);
  return NULL;
}

static void
check_stat (GArray *stats, const char *name, guint64 count, guint64 incl, guint64 excl, guint64 min,
            guint64 max, gdouble median)
{
  const StrobeTimerStat *s = find_stat (stats, name);

  if (s == NULL)
    g_error ("no statistics for %s", name);
  g_assert_cmpuint (s->count, ==, count);
  g_assert_cmpuint (s->inclusive, ==, incl);
  g_assert_cmpuint (s->exclusive, ==, excl);
  g_assert_cmpuint (s->min, ==, min);
  g_assert_cmpuint (s->max, ==, max);
  g_assert_cmpfloat_with_epsilon (s->mean, (gdouble) incl / (gdouble) count, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->median, median, 1e-9);
}

/* ---- golden: synthetic ------------------------------------------------------------- */

static void
test_golden_stats (void)
{
  g_autofree char *trace = data_path ("golden-cpu-synthetic.strobe");
  g_autofree char *expected_path = data_path ("golden-cpu-synthetic.stats");
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  const char *args[] = { "stats", "--units=ticks", trace, NULL };

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  out = run_cli (args);
  g_assert_cmpstr (out, ==, expected);
}

/* --thread by name (any case) gives what its stream id gives: the Worker's one timer. */
static void
test_golden_stats_thread (void)
{
  g_autofree char *trace = data_path ("golden-cpu-synthetic.strobe");
  const char *by_id[] = { "stats", "--units=ticks", "--thread=18", trace, NULL };
  const char *by_name[] = { "stats", "--units=ticks", "--thread=worker", trace, NULL };
  g_autofree char *id_out = run_cli (by_id);
  g_autofree char *name_out = run_cli (by_name);

  g_assert_cmpstr (name_out, ==, id_out);
  g_assert_nonnull (strstr (id_out, "Job"));
  g_assert_null (strstr (id_out, "Frame"));
}

/* The synthetic trace's times are ticks after t0 (see cpu-emitter.c), so every figure here
 * is computed by hand from the program. */
static void
test_synthetic_model (void)
{
  g_autofree char *trace = data_path ("golden-cpu-synthetic.strobe");
  Models m = { 0 };
  guint64 t0, last;
  g_autoptr (GArray) stats = NULL;
  g_autoptr (GArray) arr = NULL;
  g_autoptr (GArray) tids = NULL;
  g_autoptr (GArray) counters = NULL;

  load (trace, &m);
  g_assert_true (strobe_timeline_model_get_time_range (m.timeline, &t0, &last));

  /* Whole trace: the golden stats, as numbers. */
  stats = strobe_timer_stats_compute (m.timeline, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  g_assert_cmpuint (stats->len, ==, 5);
  check_stat (stats, "Frame", 3, 3000, 900, 1000, 1000, 1000);
  check_stat (stats, "Update", 4, 1600, 1140, 100, 500, 500);
  check_stat (stats, "Physics", 7, 460, 460, 10, 100, 50);
  check_stat (stats, "Render", 3, 600, 600, 200, 200, 200);
  check_stat (stats, "Job", 5, 1500, 1500, 100, 500, 300);
  g_assert_cmpstr (g_array_index (stats, StrobeTimerStat, 0).name, ==, "Frame");
  g_clear_pointer (&stats, g_array_unref);

  /* [t0+150, t0+1250]: durations clipped to the range. */
  stats = strobe_timer_stats_compute (m.timeline, t0 + 150, t0 + 1250, STROBE_TIMER_STATS_ALL_THREADS);
  check_stat (stats, "Frame", 2, 850 + 250, 200 + 100, 250, 850, 550);
  check_stat (stats, "Update", 2, 450 + 150, 300 + 100, 150, 450, 300);
  check_stat (stats, "Physics", 3, 200, 200, 50, 100, 50);
  check_stat (stats, "Render", 1, 200, 200, 200, 200, 200);
  check_stat (stats, "Job", 2, 200, 200, 50, 150, 100);
  g_clear_pointer (&stats, g_array_unref);

  /* One thread only. */
  tids = strobe_timeline_model_get_threads (m.timeline);
  g_assert_cmpuint (tids->len, ==, 2);
  stats = strobe_timer_stats_compute (m.timeline, 0, G_MAXUINT64, g_array_index (tids, guint16, 1));
  g_assert_cmpuint (stats->len, ==, 1);
  check_stat (stats, "Job", 5, 1500, 1500, 100, 500, 300);

  /* Scopes by depth. */
  arr = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  g_assert_cmpuint (strobe_timeline_model_get_depth_count (m.timeline, g_array_index (tids, guint16, 0)), ==, 3);
  g_assert_cmpuint (strobe_timeline_model_get_scopes (m.timeline, g_array_index (tids, guint16, 0), 0, 0, G_MAXUINT64, arr), ==, 4);
  g_assert_cmpuint (g_array_index (arr, StrobeTimelineScope, 0).begin, ==, t0);
  g_assert_cmpuint (g_array_index (arr, StrobeTimelineScope, 3).begin, ==, t0 + 3000);
  g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, g_array_index (arr, StrobeTimelineScope, 3).name_id), ==, "Update");
  g_array_set_size (arr, 0);
  /* Physics at depth 2 overlapping [t0+300, t0+1200]: [200,300], [400,450], [1200,1300]. */
  g_assert_cmpuint (strobe_timeline_model_get_scopes (m.timeline, g_array_index (tids, guint16, 0), 2, t0 + 300, t0 + 1200, arr), ==, 3);
  g_array_unref (g_steal_pointer (&arr));

  /* Frames. */
  arr = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  g_assert_cmpuint (strobe_timeline_model_get_frame_count (m.timeline, 0), ==, 3);
  g_assert_cmpuint (strobe_timeline_model_get_frames (m.timeline, 0, 0, G_MAXUINT64, arr), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      StrobeTimelineFrame *f = &g_array_index (arr, StrobeTimelineFrame, i);
      g_assert_cmpuint (f->begin, ==, t0 + 1000 * i);
      g_assert_cmpuint (f->end, ==, t0 + 1000 * (i + 1));
      g_assert_cmpuint (f->index, ==, i);
      g_assert_cmpuint (f->flags, ==, 0);
    }
  g_array_set_size (arr, 0);
  g_assert_cmpuint (strobe_timeline_model_get_frames (m.timeline, 1, 0, G_MAXUINT64, arr), ==, 1);
  g_assert_cmpuint (g_array_index (arr, StrobeTimelineFrame, 0).end - g_array_index (arr, StrobeTimelineFrame, 0).begin, ==, 2500);
  g_array_set_size (arr, 0);
  g_assert_cmpuint (strobe_timeline_model_get_frames (m.timeline, 0, t0 + 1500, t0 + 1600, arr), ==, 1);
  g_array_unref (g_steal_pointer (&arr));

  /* Bookmarks: "Start" at t0, then the text bookmark "Done". */
  arr = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_assert_cmpuint (strobe_timeline_model_get_bookmarks (m.timeline, 0, G_MAXUINT64, arr), ==, 2);
  g_assert_cmpuint (g_array_index (arr, StrobeTimelineBookmark, 0).time, ==, t0);
  g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, g_array_index (arr, StrobeTimelineBookmark, 0).name_id), ==, "Start");
  g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, g_array_index (arr, StrobeTimelineBookmark, 1).name_id), ==, "Done");
  g_array_unref (g_steal_pointer (&arr));

  /* Regions: Loading [0,1500] lane 0; Streaming [1200,2900] lane 1 (Loading still open);
   * Streaming [1800,2500] lane 0 (an end closes the latest open region of its name). */
  arr = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_assert_cmpuint (strobe_timeline_model_get_regions (m.timeline, 0, G_MAXUINT64, arr), ==, 3);
  {
    StrobeTimelineRegion *r = (StrobeTimelineRegion *) (gpointer) arr->data;
    g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, r[0].name_id), ==, "Loading");
    g_assert_cmpuint (r[0].begin, ==, t0);
    g_assert_cmpuint (r[0].end, ==, t0 + 1500);
    g_assert_cmpuint (r[0].lane, ==, 0);
    g_assert_cmpstr (strobe_timeline_model_get_name (m.timeline, r[1].name_id), ==, "Streaming");
    g_assert_cmpuint (r[1].begin, ==, t0 + 1200);
    g_assert_cmpuint (r[1].end, ==, t0 + 2900);
    g_assert_cmpuint (r[1].lane, ==, 1);
    g_assert_cmpuint (r[2].begin, ==, t0 + 1800);
    g_assert_cmpuint (r[2].end, ==, t0 + 2500);
    g_assert_cmpuint (r[2].lane, ==, 0);
  }
  g_array_unref (g_steal_pointer (&arr));

  /* Counters, by name: Load (float, percent) 25 50 75; Objects (int, count) 10 20 30 25. */
  counters = strobe_timeline_model_get_counters (m.timeline);
  g_assert_cmpuint (counters->len, ==, 2);
  {
    StrobeTimelineCounter *load_c = &g_array_index (counters, StrobeTimelineCounter, 0);
    StrobeTimelineCounter *objects = &g_array_index (counters, StrobeTimelineCounter, 1);
    static const gint64 expect_objects[] = { 10, 20, 30, 25 };

    g_assert_cmpstr (load_c->name, ==, "Load");
    g_assert_cmpuint (load_c->type, ==, STROBE_TIMELINE_COUNTER_FLOAT);
    g_assert_cmpuint (load_c->unit, ==, STROBE_TIMELINE_UNIT_PERCENT);
    g_assert_cmpstr (objects->name, ==, "Objects");
    g_assert_cmpuint (objects->type, ==, STROBE_TIMELINE_COUNTER_INT);
    arr = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
    g_assert_cmpuint (strobe_timeline_model_get_counter_samples (m.timeline, objects->index, 0, G_MAXUINT64, arr), ==, 4);
    for (guint i = 0; i < 4; i++)
      g_assert_cmpint (g_array_index (arr, StrobeCounterSample, i).int_value, ==, expect_objects[i]);
    g_array_set_size (arr, 0);
    g_assert_cmpuint (strobe_timeline_model_get_counter_samples (m.timeline, load_c->index, 0, G_MAXUINT64, arr), ==, 3);
    g_assert_cmpfloat (g_array_index (arr, StrobeCounterSample, 2).value, ==, 75.0);
  }

  /* Threads: names, groups. */
  {
    StrobeThreadInfo info = { 0 };
    g_assert_true (strobe_threads_model_lookup (m.threads, g_array_index (tids, guint16, 0), &info));
    g_assert_cmpstr (info.name, ==, "Main");
    g_assert_cmpstr (info.group, ==, "Game");
    g_assert_cmpint (info.sort_hint, ==, -1);
    strobe_thread_info_clear (&info);
  }
  models_clear (&m);
}

/* ---- golden and fresh: four threads ------------------------------------------------ */

/* Every scope at depth d + 1 lies inside one at depth d; counts per name per depth. */
static void
check_threads_structure (Models *m)
{
  g_autoptr (GArray) infos = strobe_threads_model_get_threads (m->threads);
  static const char *const names[] = { "Alpha", "Beta", "Gamma", "Delta" };
  /* depth: name, count (per thread, 3 x work (2, 2)) */
  static const struct { const char *name; guint count; } levels[] = {
    { "Manual", 3 }, { "Work", 3 }, { "Dyn2", 6 }, { "Work", 6 }, { "Dyn1", 12 }, { "Work", 12 }, { "Leaf", 12 },
  };
  guint found = 0, last_order = 0;
  g_autofree char *process = strobe_threads_model_dup_process_name (m->threads);

  g_assert_cmpstr (process, ==, "cpu-emitter threads");
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    for (guint i = 0; i < infos->len; i++)
      {
        StrobeThreadInfo *t = &g_array_index (infos, StrobeThreadInfo, i);
        g_autoptr (GArray) prev = NULL;
        gboolean open = g_str_equal (names[n], "Gamma");

        if (!g_str_equal (t->name, names[n]))
          continue;
        found++;
        /* Display order: GroupA (Alpha, Beta) then GroupB (Gamma, Delta). */
        if (n > 0)
          g_assert_cmpuint (t->order, >, last_order);
        last_order = t->order;
        g_assert_cmpstr (t->group, ==, n < 2 ? "GroupA" : "GroupB");
        g_assert_cmpuint (strobe_timeline_model_get_depth_count (m->timeline, t->id), ==, 7);
        for (guint d = 0; d < G_N_ELEMENTS (levels); d++)
          {
            g_autoptr (GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
            guint named = 0, k = 0;

            strobe_timeline_model_get_scopes (m->timeline, t->id, d, 0, G_MAXUINT64, scopes);
            for (guint s = 0; s < scopes->len; s++)
              {
                StrobeTimelineScope *sc = &g_array_index (scopes, StrobeTimelineScope, s);
                const char *name = strobe_timeline_model_get_name (m->timeline, sc->name_id);

                g_assert_cmpuint (sc->end, >=, sc->begin);
                if (s > 0)
                  g_assert_cmpuint (sc->begin, >=, g_array_index (scopes, StrobeTimelineScope, s - 1).end);
                if (g_str_equal (name, levels[d].name))
                  {
                    named++;
                    g_assert_cmpuint (sc->flags, ==, 0);
                  }
                else
                  {
                    /* Gamma's open scope and the leaf under it. */
                    if (!open)
                      g_error ("thread %s, depth %u: scope %u of %u is named \"%s\" (flags %u), not %s",
                               t->name, d, s, scopes->len, name, sc->flags, levels[d].name);
                    g_assert_true (d == 0 ? g_str_equal (name, "Open") : g_str_equal (name, "Leaf"));
                    g_assert_cmpuint (sc->flags, ==, d == 0 ? STROBE_SCOPE_CLOSED_AT_END : 0);
                  }
                /* Nesting: inside a parent of the previous depth. */
                if (prev)
                  {
                    while (k < prev->len && g_array_index (prev, StrobeTimelineScope, k).end < sc->begin)
                      k++;
                    g_assert_cmpuint (k, <, prev->len);
                    g_assert_cmpuint (g_array_index (prev, StrobeTimelineScope, k).begin, <=, sc->begin);
                    g_assert_cmpuint (g_array_index (prev, StrobeTimelineScope, k).end, >=, sc->end);
                  }
              }
            g_assert_cmpuint (named, ==, levels[d].count);
            g_assert_cmpuint (scopes->len, ==, levels[d].count + ((open && d < 2) ? 1 : 0));
            g_clear_pointer (&prev, g_array_unref);
            prev = g_steal_pointer (&scopes);
          }
      }
  g_assert_cmpuint (found, ==, 4);
}

/* `export --format=csv --what=timers` computes its timers while it reads the trace (a
 * stream; with --from/--to a second reading): every row, for the whole trace and for
 * segments given in seconds, is what the timeline model's statistics say of the same
 * ticks, formatted as the exporter formats them. */
static void
test_export_timers (void)
{
  static const char *const traces[] = { "golden-cpu-threads.strobe", "golden-compare-a.strobe" };
  /* Parts of each trace's length; < 0: that edge not given. */
  static const gdouble ranges[][2] = { { -1, -1 }, { 0.3, 0.7 }, { 0.25, -1 }, { -1, 0.6 } };
  guint rows = 0;

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *trace = data_path (traces[i]);
      g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
      g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
      g_autoptr (StrobeTimelineModel) timeline = strobe_timeline_model_new ();
      g_autoptr (GError) error = NULL;
      StrobeTraceClock clock;
      guint64 first, last;

      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (timeline));
      g_assert_true (strobe_decoder_read_file (decoder, trace, NULL, &error));
      g_assert_no_error (error);
      strobe_trace_clock_init (&clock, strobe_info_analyzer_get_metadata (info));
      g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
      strobe_trace_clock_set_base (&clock, first);
      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        {
          gdouble length = strobe_trace_clock_to_seconds (&clock, last);
          g_autofree char *from = ranges[r][0] >= 0 ? g_strdup_printf ("--from=%.9fs", ranges[r][0] * length) : NULL;
          g_autofree char *to = ranges[r][1] >= 0 ? g_strdup_printf ("--to=%.9f", ranges[r][1] * length) : NULL;
          const char *args[] = { "export", "--format=csv", "--what=timers", trace, from ? from : to, from ? to : NULL,
                                 NULL };
          g_autofree char *out = run_cli (args);
          g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
          guint64 t0 = 0, t1 = G_MAXUINT64;
          g_autoptr (GArray) stats = NULL;

          /* The same seconds the command line read. */
          if (from)
            t0 = strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (from + strlen ("--from="), NULL));
          if (to)
            t1 = strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (to + strlen ("--to="), NULL));
          stats = strobe_timer_stats_compute (timeline, t0, t1, STROBE_TIMER_STATS_ALL_THREADS);
          g_assert_cmpuint (g_strv_length (lines), ==, stats->len + 2);   /* the header, the final newline */
          g_assert_cmpstr (lines[0], ==, "name,count,inclusive_s,exclusive_s,min_s,max_s,mean_s,median_s");
          for (guint k = 0; k < stats->len; k++)
            {
              const StrobeTimerStat *st = &g_array_index (stats, StrobeTimerStat, k);
              gdouble v[] = { (gdouble) st->inclusive, (gdouble) st->exclusive, (gdouble) st->min,
                              (gdouble) st->max, st->mean, st->median };
              g_autoptr (GString) want = g_string_new (NULL);

              g_string_append_printf (want, "%s,%" G_GUINT64_FORMAT, st->name, st->count);
              for (guint f = 0; f < G_N_ELEMENTS (v); f++)
                {
                  char buf[G_ASCII_DTOSTR_BUF_SIZE];

                  g_string_append_printf (want, ",%s",
                                          g_ascii_formatd (buf, sizeof buf, "%.9f",
                                                           strobe_trace_clock_ticks_to_seconds (&clock, v[f])));
                }
              g_assert_cmpstr (lines[k + 1], ==, want->str);
              rows++;
            }
        }
    }
  g_assert_cmpuint (rows, >, 20);
}

static void
test_golden_threads (void)
{
  g_autofree char *trace = data_path ("golden-cpu-threads.strobe");
  g_autofree char *counts_path = data_path ("golden-cpu-threads.counts");
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  const char *args[] = { "stats", "--sort=name", trace, NULL };
  g_auto (GStrv) lines = NULL;
  GString *counts = g_string_new (NULL);
  g_autofree char *got = NULL;
  Models m = { 0 };

  /* The CLI's name and count columns (times vary from run to run of the emitter). */
  g_assert_true (g_file_get_contents (counts_path, &expected, NULL, NULL));
  out = run_cli (args);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 1; lines[i] && *lines[i]; i++)
    {
      g_auto (GStrv) cols = g_strsplit_set (lines[i], " ", -1);
      guint c = 0;
      const char *name = NULL, *count = NULL;
      for (guint k = 0; cols[k]; k++)
        if (*cols[k])
          {
            if (c == 0)
              name = cols[k];
            else if (c == 1)
              count = cols[k];
            c++;
          }
      g_string_append_printf (counts, "%s %s\n", name, count);
    }
  got = g_string_free (counts, FALSE);
  g_assert_cmpstr (got, ==, expected);

  load (trace, &m);
  check_threads_structure (&m);
  models_clear (&m);
}

static char *
record (const char *scenario)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-cpu-XXXXXX", NULL);
  char *path = g_build_filename (dir, "trace.strobe", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, emitter, scenario, path, NULL);

  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
  return path;
}

static void
remove_recording (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_fresh_threads (void)
{
  g_autofree char *trace = record ("threads");
  Models m = { 0 };

  load (trace, &m);
  check_threads_structure (&m);
  models_clear (&m);
  remove_recording (trace);
}

/* ---- queries against brute force ------------------------------------------------- */

static void
check_queries (StrobeTimelineModel *tl, guint16 tid, gboolean complete)
{
  guint depths = strobe_timeline_model_get_depth_count (tl, tid);
  GRand *rand = g_rand_new_with_seed (42);
  guint64 first, last;

  g_assert_true (strobe_timeline_model_get_time_range (tl, &first, &last));
  for (guint d = 0; d < depths; d++)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      g_autoptr (GArray) got = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));

      strobe_timeline_model_get_scopes (tl, tid, d, 0, G_MAXUINT64, all);
      for (guint q = 0; q < 40; q++)
        {
          guint64 span = last - first + 1;
          guint64 a = first + (guint64) (g_rand_double (rand) * (gdouble) span);
          guint64 b = a + (guint64) (g_rand_double (rand) * (gdouble) (q < 20 ? 5000 : span));
          guint64 r = q % 3 == 0 ? 1 : q % 3 == 1 ? 97 : (b - a) / 1000 + 1;
          guint expect_first = G_MAXUINT, expect_n = 0;
          guint64 total = 0;

          for (guint i = 0; i < all->len; i++)
            {
              StrobeTimelineScope *s = &g_array_index (all, StrobeTimelineScope, i);
              if (s->begin <= b && s->end >= a)
                {
                  if (expect_first == G_MAXUINT)
                    expect_first = i;
                  expect_n++;
                }
            }
          g_array_set_size (got, 0);
          g_assert_cmpuint (strobe_timeline_model_get_scopes (tl, tid, d, a, b, got), ==, expect_n);
          for (guint i = 0; i < expect_n; i++)
            g_assert_cmpmem (&g_array_index (got, StrobeTimelineScope, i), sizeof (StrobeTimelineScope),
                             &g_array_index (all, StrobeTimelineScope, expect_first + i), sizeof (StrobeTimelineScope));

          /* LOD: the blocks hold exactly those scopes, in order, without overlapping, and
           * there are few of them whatever the number of scopes. */
          g_array_set_size (blocks, 0);
          strobe_timeline_model_get_blocks (tl, tid, d, a, b, r, blocks);
          for (guint i = 0; i < blocks->len; i++)
            {
              StrobeTimelineBlock *bl = &g_array_index (blocks, StrobeTimelineBlock, i);
              total += bl->count;
              g_assert_cmpuint (bl->end, >=, bl->begin);
              if (i > 0)
                g_assert_cmpuint (bl->begin, >=, g_array_index (blocks, StrobeTimelineBlock, i - 1).end);
              if (bl->count == 1 && complete)
                g_assert_cmpuint (bl->end - bl->begin, <, G_MAXUINT64);
            }
          g_assert_cmpuint (total, ==, expect_n);
          if (r > 1)
            g_assert_cmpuint (blocks->len, <=, 2 * ((b - a) / r + 2) + 2);
        }
    }
  g_rand_free (rand);
}

static void
test_queries (void)
{
  g_autofree char *trace = record ("many");
  Models m = { 0 };
  g_autoptr (GArray) tids = NULL;
  StrobeTimelineStats st;
  g_autoptr (GArray) stats = NULL;
  guint64 count = 0;

  load (trace, &m);
  tids = strobe_timeline_model_get_threads (m.timeline);
  g_assert_cmpuint (tids->len, ==, 1);
  check_queries (m.timeline, g_array_index (tids, guint16, 0), TRUE);
  strobe_timeline_model_get_stats (m.timeline, &st);
  g_assert_cmpuint (st.scopes, >, 50000);
  g_assert_cmpuint (st.unmatched_ends, ==, 0);
  /* 12 bytes a scope, plus chunk headers and the ends of scopes longer than 2^32 ticks. */
  g_assert_cmpuint (st.scope_bytes, <=, st.scopes * 13);
  stats = strobe_timer_stats_compute (m.timeline, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  for (guint i = 0; i < stats->len; i++)
    {
      StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      count += s->count;
      g_assert_cmpuint (s->exclusive, <=, s->inclusive);
      g_assert_cmpfloat (s->median, >=, (gdouble) s->min);
      g_assert_cmpfloat (s->median, <=, (gdouble) s->max);
    }
  g_assert_cmpuint (count, ==, st.scopes);
  /* Scopes around the 2^33-tick gaps are longer than 32 bits of ticks. */
  g_assert_cmpuint (g_array_index (stats, StrobeTimerStat, 0).max, >, G_MAXUINT32);
  models_clear (&m);
  remove_recording (trace);
}

/* ---- live: queries from another thread while the model grows ----------------------- */

typedef struct
{
  StrobeTimelineModel *timeline;
  gint                 stop;
  gint                 rounds;
} Reader;

static gpointer
reader_main (gpointer data)
{
  Reader *r = data;
  g_autoptr (GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));

  while (!g_atomic_int_get (&r->stop))
    {
      g_autoptr (GArray) tids = strobe_timeline_model_get_threads (r->timeline);
      guint64 first, last;

      if (tids->len && strobe_timeline_model_get_time_range (r->timeline, &first, &last))
        {
          guint16 tid = g_array_index (tids, guint16, 0);
          guint depths = strobe_timeline_model_get_depth_count (r->timeline, tid);
          GArray *stats;

          for (guint d = 0; d < depths; d++)
            {
              g_array_set_size (scopes, 0);
              g_array_set_size (blocks, 0);
              strobe_timeline_model_get_scopes (r->timeline, tid, d, first, last, scopes);
              strobe_timeline_model_get_blocks (r->timeline, tid, d, first, last, (last - first) / 500 + 1, blocks);
              for (guint i = 1; i < scopes->len; i++)
                g_assert_cmpuint (g_array_index (scopes, StrobeTimelineScope, i).begin, >=,
                                  g_array_index (scopes, StrobeTimelineScope, i - 1).begin);
            }
          stats = strobe_timer_stats_compute (r->timeline, first, last, STROBE_TIMER_STATS_ALL_THREADS);
          g_array_unref (stats);
        }
      g_atomic_int_inc (&r->rounds);
    }
  return NULL;
}

static void
test_live (void)
{
  g_autofree char *trace = record ("many");
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeTimelineModel) timeline = strobe_timeline_model_new ();
  g_autoptr (GError) error = NULL;
  Reader r = { timeline, 0, 0 };
  GThread *reader;
  g_autoptr (GArray) tids = NULL;

  g_assert_true (g_file_get_contents (trace, &data, &len, NULL));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (timeline));
  reader = g_thread_new ("reader", reader_main, &r);
  for (gsize pos = 0; pos < len; pos += 997)
    {
      g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data + pos, MIN (997, len - pos), &error));
      g_assert_no_error (error);
      /* Now and then let the reader finish a round against the model as it is. */
      if (pos % (997 * 16) == 0)
        {
          gint seen = g_atomic_int_get (&r.rounds);
          while (g_atomic_int_get (&r.rounds) == seen)
            g_thread_yield ();
        }
    }
  g_assert_true (strobe_decoder_finish (decoder, &error));
  g_atomic_int_set (&r.stop, 1);
  g_thread_join (reader);
  g_assert_cmpint (r.rounds, >, 0);
  tids = strobe_timeline_model_get_threads (timeline);
  check_queries (timeline, g_array_index (tids, guint16, 0), TRUE);
  remove_recording (trace);
}

/* A scope open when the data stops is shown open (live) until the trace ends, then closed
 * at its last timestamp and flagged. */
static void
test_open_scope (void)
{
  g_autofree char *trace = data_path ("golden-cpu-threads.strobe");
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeTimelineModel) timeline = strobe_timeline_model_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) tids = NULL;
  guint open = 0, closed = 0;
  guint64 first, last;

  g_assert_true (g_file_get_contents (trace, &data, &len, NULL));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (timeline));
  g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data, len, &error));
  for (int pass = 0; pass < 2; pass++)
    {
      g_assert_true (strobe_timeline_model_get_time_range (timeline, &first, &last));
      tids = strobe_timeline_model_get_threads (timeline);
      for (guint i = 0; i < tids->len; i++)
        {
          g_autoptr (GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          strobe_timeline_model_get_scopes (timeline, g_array_index (tids, guint16, i), 0, last, last, scopes);
          for (guint k = 0; k < scopes->len; k++)
            {
              StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, k);
              if (s->flags == 0)
                continue;   /* the last scope of the thread that finished last */
              g_assert_cmpstr (strobe_timeline_model_get_name (timeline, s->name_id), ==, "Open");
              g_assert_cmpuint (s->end, ==, last);
              if (s->flags == STROBE_SCOPE_OPEN)
                open++;
              else if (s->flags == STROBE_SCOPE_CLOSED_AT_END)
                closed++;
            }
        }
      g_clear_pointer (&tids, g_array_unref);
      g_assert_cmpuint (open, ==, 1);
      g_assert_cmpuint (closed, ==, pass);
      if (pass == 0)
        g_assert_true (strobe_decoder_finish (decoder, &error));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  cli = g_getenv ("STROBE_CLI");
  emitter = g_getenv ("CPU_EMITTER");
  g_assert_nonnull (golden_dir);
  g_assert_nonnull (cli);
  g_assert_nonnull (emitter);

  g_test_add_func ("/cpu/golden/stats", test_golden_stats);
  g_test_add_func ("/cpu/golden/stats-thread", test_golden_stats_thread);
  g_test_add_func ("/cpu/golden/threads", test_golden_threads);
  g_test_add_func ("/cpu/golden/export-timers", test_export_timers);
  g_test_add_func ("/cpu/synthetic/model", test_synthetic_model);
  g_test_add_func ("/cpu/fresh/threads", test_fresh_threads);
  g_test_add_func ("/cpu/queries", test_queries);
  g_test_add_func ("/cpu/live", test_live);
  g_test_add_func ("/cpu/open-scope", test_open_scope);

  return g_test_run ();
}
