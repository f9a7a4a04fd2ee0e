/* strobe-bench-timeline.c — the timeline view on a big trace: frame times at several
 * zooms and during a pan, opening a trace to its first complete frame, the viewer's
 * resident memory, the timers panel over the whole trace and the main thread's longest
 * stall meanwhile, and the latency of a live scope to the screen.
 *
 *   xvfb-run -a -s "-screen 0 2000x1200x24" _build/tests/bench/strobe-bench-timeline [--quick]
 *
 * The trace is made first by this process with the runtime: 8 threads, nested scopes to
 * a depth of 12 with names from a skewed distribution of 400, frames, 4 counters and log
 * messages (10 M scopes, 1 M counter samples and 100 k messages; --quick: a fifth). The
 * widget is drawn offscreen the way GTK draws a frame — snapshot, then GSK's cairo
 * renderer — at 1920×1080. A frame's time is that, on the main thread; the tiles are
 * painted by worker threads meanwhile, and a frame is "complete" once every tile it shows
 * is up to date. Live: bench-live-emitter streams to a recorder of this process; each of
 * its Probe scopes is timed from its end (its timestamp, the same TSC) to the end of the
 * first complete frame drawn after the view learnt of it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "bench-stall.h"
#include "bench-widget.h"
#include "strobe-x11-shm.h"
#include "strobe-recorder.h"
#include "strobe-scope-search.h"
#include "strobe-store.h"
#include "strobe-timeline-view.h"
#include "strobe-timeline-widget.h"
#include "strobe-view.h"
#include "test-dirs.h"

#define WIDTH   1920
#define HEIGHT  1080

static gboolean quick;
static gboolean no_live;
static gboolean only_live;
static const char *bench_dir;
static gint64 n_scopes;

/* ---- the trace ------------------------------------------------------------------------ */

#define GEN_THREADS 8
#define GEN_NAMES   400
#define MAX_DEPTH   12

STROBE_LOG_CATEGORY_DEFINE (LogBench, STROBE_LOG_VERBOSITY_LOG);

static StrobeCpuSpec gen_specs[GEN_NAMES];
static StrobeCounter gen_counters[4] = {
  STROBE_COUNTER_INIT ("Entities", STROBE_COUNTER_INT, STROBE_UNIT_COUNT),
  STROBE_COUNTER_INIT ("Memory", STROBE_COUNTER_INT, STROBE_UNIT_BYTES),
  STROBE_COUNTER_INIT ("Load", STROBE_COUNTER_FLOAT, STROBE_UNIT_PERCENT),
  STROBE_COUNTER_INIT ("Queue", STROBE_COUNTER_INT, STROBE_UNIT_COUNT),
};

typedef struct
{
  guint    index;
  guint32  rng;
  guint64  target;
  guint64  scopes;
  guint64  counted;
} GenThread;

static guint32
next_rand (GenThread *g)
{
  g->rng = g->rng * 1664525u + 1013904223u;
  return g->rng >> 8;
}

static void
gen_spin (guint n)
{
  volatile guint x = 0;
  for (guint i = 0; i < n; i++)
    x += i;
}

/* Skewed: a few names are most of the scopes (as in a real program's hot loops). */
static StrobeCpuSpec *
pick_spec (GenThread *g, guint depth)
{
  gdouble r = (next_rand (g) & 0xffff) / 65536.0;
  guint i = (guint) (GEN_NAMES * r * r * r);
  return &gen_specs[(i + depth * 7) % GEN_NAMES];
}

static void
gen_after_scope (GenThread *g)
{
  g->scopes++;
  if (g->scopes % 10 == 0)
    {
      guint k = (guint) (g->counted++ % 4);
      if (k == 2)
        strobe_counter_set_float (&gen_counters[2], (gdouble) (next_rand (g) % 1000) / 10.0);
      else
        strobe_counter_set_int (&gen_counters[k], (gint64) (next_rand (g) % 100000) * (k == 1 ? 1024 : 1));
    }
  if (g->scopes % 100 == 0)
    {
      guint r = next_rand (g) % 100;
      if (r < 2)
        STROBE_LOG_MESSAGE (LogBench, STROBE_LOG_ERROR, "thread %u: step %u failed (%d)", g->index, r, -1);
      else if (r < 10)
        STROBE_LOG_MESSAGE (LogBench, STROBE_LOG_WARNING, "thread %u: queue at %u", g->index, r * 10);
      else
        STROBE_LOG_MESSAGE (LogBench, STROBE_LOG_LOG, "thread %u: %" G_GUINT64_FORMAT " scopes", g->index, g->scopes);
    }
}

static void
gen_node (GenThread *g, guint depth)
{
  guint children;

  if (!strobe_cpu_begin (pick_spec (g, depth)))
    return;
  if (depth + 1 >= MAX_DEPTH || (depth > 2 && next_rand (g) % 3 == 0))
    children = 0;
  else
    children = depth < 2 ? 3 + next_rand (g) % 4 : next_rand (g) % 4;
  /* Leaves of a few hundred ns to tens of µs: the 10 M scopes span about ten seconds. */
  if (children == 0)
    gen_spin (next_rand (g) % 100 < 90 ? 300 + next_rand (g) % 3000 : 5000 + next_rand (g) % 30000);
  for (guint c = 0; c < children && g->scopes < g->target; c++)
    gen_node (g, depth + 1);
  strobe_cpu_end ();
  gen_after_scope (g);
}

static gpointer
gen_thread (gpointer data)
{
  GenThread *g = data;
  char name[32];

  g_snprintf (name, sizeof name, g->index == 0 ? "Main" : "Worker %u", g->index);
  strobe_thread_set_name (name, g->index == 0 ? "Game" : "Workers", (int32_t) g->index);
  while (g->scopes < g->target)
    {
      if (g->index == 0)
        strobe_frame_begin (STROBE_FRAME_GAME);
      gen_node (g, 0);
      if (g->index == 0)
        strobe_frame_end (STROBE_FRAME_GAME);
    }
  return NULL;
}

static guint64
make_trace (const char *path, guint64 scopes)
{
  StrobeInitOptions options = { 0 };
  GenThread gens[GEN_THREADS];
  GThread *threads[GEN_THREADS];
  StrobeStats st;
  guint64 total = 0;

  /* Room for all of it in flight: a dropped event would make the trace smaller. */
  options.buffer_bytes = (size_t) 768 << 20;
  options.block_wait_ms = 5000;
  options.tail_bytes = STROBE_TAIL_NONE;
  options.control_port = STROBE_CONTROL_NONE;
  strobe_init (&options);
  for (guint i = 0; i < GEN_NAMES; i++)
    {
      gen_specs[i].line = 1000 + i;
      gen_specs[i].name = g_strdup_printf ("System%02u/Task%03u", i % 23, i);
      gen_specs[i].file = __FILE__;
    }
  strobe_channels_set_enabled ("cpu,frame,counters,log", true);
  strobe_set_process_name ("strobe-bench-timeline");
  if (!strobe_output_file (path))
    g_error ("cannot write %s", path);
  for (guint i = 0; i < GEN_THREADS; i++)
    {
      gens[i] = (GenThread) { i, 12345 + i * 7919, scopes / GEN_THREADS, 0, 0 };
      threads[i] = g_thread_new ("gen", gen_thread, &gens[i]);
    }
  for (guint i = 0; i < GEN_THREADS; i++)
    {
      g_thread_join (threads[i]);
      total += gens[i].scopes;
    }
  strobe_flush ();
  strobe_get_stats (&st);
  bench_report ("trace.dropped", (double) st.events_dropped, "events");
  strobe_output_stop ();
  return total;
}

/* ---- helpers ----------------------------------------------------------------------------- */

static double
rss_mb (const char *field)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (p = strstr (status, field)) == NULL)
    return -1;
  return g_ascii_strtod (p + strlen (field) + 1, NULL) / 1024.0;
}

/* One frame as GTK draws it: the widget's snapshot and the renderer, in ms. */
static double
frame (GtkWidget *widget)
{
  double t0 = bench_now_ns ();
  GskRenderNode *node = bench_widget_snapshot (widget);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  GdkTexture *t = gsk_renderer_render_texture (renderer, node,
                                               &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                    gtk_widget_get_height (widget)));
  double ms = (bench_now_ns () - t0) / 1e6;

  g_object_unref (t);
  gsk_render_node_unref (node);
  return ms;
}

static gboolean
complete (StrobeTimelineWidget *w)
{
  return strobe_timeline_widget_get_incomplete (w) == 0 && strobe_timeline_widget_get_pending (w) == 0;
}

static GtkWindow *
window_with (GtkWidget *child)
{
  GtkWindow *w = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (w, WIDTH, HEIGHT);
  gtk_window_set_decorated (w, FALSE);
  gtk_window_set_child (w, child);
  strobe_x11_shm_keep (w);
  gtk_window_present (w);
  for (int i = 0; i < 50; i++)
    {
      bench_iterate ();
      g_usleep (2000);
    }
  return w;
}

/* ---- frames at a zoom ------------------------------------------------------------------- */

static void
frames_at (const char *name, StrobeTimelineWidget *w, StrobeViewState *state, guint64 a, guint64 b, double target_med,
           double target_max)
{
  double t_change, times[200], complete_ms = -1;
  int n = 0, after = 0;
  char key[64];

  strobe_view_state_set_visible_range (state, a, b);
  t_change = bench_now_ns ();
  /* Frames back to back, the pointer moving (what changes every frame), tiles coming in
   * between; then 30 frames more once complete. */
  while (n < (int) G_N_ELEMENTS (times) && after < 30)
    {
      strobe_view_state_set_hover (state, a + (b - a) / 200 * (guint64) (n % 200));
      times[n++] = frame (GTK_WIDGET (w));
      if (complete_ms < 0 && complete (w))
        complete_ms = (bench_now_ns () - t_change) / 1e6;
      if (complete_ms >= 0)
        after++;
      bench_iterate ();
    }
  strobe_view_state_set_hover (state, STROBE_VIEW_STATE_NONE);
  g_snprintf (key, sizeof key, "frame.%s.median", name);
  bench_report (key, bench_median (times, n), "ms");
  g_snprintf (key, sizeof key, "frame.%s.max", name);
  bench_report (key, times[n - 1], "ms");   /* sorted by the median */
  g_snprintf (key, sizeof key, "frame.%s.complete_after", name);
  bench_report (key, complete_ms, "ms (the range changed → every tile up to date)");
  g_snprintf (key, sizeof key, "frame_%s_median_ms", name);
  bench_report_ratio (key, bench_median (times, n), "<=", target_med);
  g_snprintf (key, sizeof key, "frame_%s_max_ms", name);
  bench_report_ratio (key, times[n - 1], "<=", target_max);
}

static void
pan_frames (StrobeTimelineWidget *w, StrobeViewState *state, guint64 a, guint64 b)
{
  double times[60];
  int incomplete = 0;
  guint64 len = b - a, step = len / 60;
  double t_stop, settle = -1;

  /* One view's width in 60 frames, as a drag at 60 frames a second would. */
  for (int i = 0; i < 60; i++)
    {
      strobe_view_state_set_visible_range (state, a + step * (guint64) i, a + step * (guint64) i + len);
      times[i] = frame (GTK_WIDGET (w));
      if (!complete (w))
        incomplete++;
      bench_iterate ();
    }
  t_stop = bench_now_ns ();
  for (int i = 0; i < 2000 && settle < 0; i++)
    {
      frame (GTK_WIDGET (w));
      if (complete (w))
        settle = (bench_now_ns () - t_stop) / 1e6;
      bench_iterate ();
    }
  bench_report ("frame.pan.median", bench_median (times, 60), "ms");
  bench_report ("frame.pan.max", times[59], "ms");
  bench_report ("frame.pan.incomplete", incomplete, "of 60 frames (a tile still coming at the leading edge)");
  bench_report ("frame.pan.complete_after", settle, "ms (after the last pan step)");
  bench_report_ratio ("frame_pan_median_ms", bench_median (times, 60), "<=", 8);
  bench_report_ratio ("frame_pan_max_ms", times[59], "<=", 16);
}

/* ---- live --------------------------------------------------------------------------------- */

typedef struct
{
  GHashTable *seen;        /* probe end -> 1 */
  GArray     *waiting;     /* probe ends the view has been told of, not yet drawn */
  GArray     *latencies;   /* ms */
  StrobeDocument *document;
  gboolean    changed;     /* the timeline grew since the probes were looked for */
} Live;

/* The probes the view has been told of: looked for between frames, where the bench's own
 * search over the model is not counted as the viewer's stall. */
static void
live_changed (StrobeDocument *document, StrobeDocumentChanges changes, Live *l)
{
  if (changes & STROBE_DOCUMENT_CHANGED_TIMELINE)
    l->changed = TRUE;
}

static void
live_find_probes (Live *l)
{
  g_autoptr (GArray) probes = NULL;

  if (!l->changed)
    return;
  l->changed = FALSE;
  probes = strobe_scope_search (strobe_document_get_timeline (l->document), "Probe", G_MAXUINT, NULL, NULL, NULL);
  for (guint i = 0; probes && i < probes->len; i++)
    {
      guint64 end = g_array_index (probes, StrobeScopeMatch, i).end;
      if (!g_hash_table_contains (l->seen, &g_array_index (probes, StrobeScopeMatch, i).end))
        {
          guint64 *k = g_new (guint64, 1);
          *k = end;
          g_hash_table_add (l->seen, k);
          g_array_append_val (l->waiting, end);
        }
    }
}

static void
live_latency (StrobeTimelineWidget *unused)
{
  g_autofree char *dir = g_build_filename (bench_dir, "live-store", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeStore) store = NULL;
  g_autoptr (StrobeRecorder) recorder = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autofree char *host = NULL;
  StrobeTrace *trace = NULL;
  StrobeDocument *document;
  StrobeViewState *state;
  GtkWidget *view;
  GtkWindow *win;
  Live l = { 0 };
  BenchStall stall = { 0 };
  double deadline, frame_max = 0;
  StrobeTraceClock clock;
  guint32 emitter_pid;
  gint64 spawned_us;

  g_mkdir_with_parents (dir, 0700);
  store = strobe_store_new (dir, &error);
  g_assert_no_error (error);
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, 0);
  if (!strobe_recorder_start (recorder, &error))
    g_error ("recorder: %s", error->message);
  host = g_strdup_printf ("127.0.0.1:%u", strobe_recorder_get_port (recorder));
  g_subprocess_launcher_setenv (launcher, "STROBE_TRACEHOST", host, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  spawned_us = g_get_monotonic_time ();
  proc = g_subprocess_launcher_spawn (launcher, &error, BENCH_LIVE_EMITTER, quick ? "4" : "8", NULL);
  g_assert_no_error (error);

  /* This run's emitter's trace, by its pid: a store kept in --dir lists the traces of
   * earlier runs too, and timing an earlier run's probes measured how long ago it ran
   * (308 882 ms five minutes after one; millions of ms later on). */
  emitter_pid = (guint32) g_ascii_strtoull (g_subprocess_get_identifier (proc), NULL, 10);
  deadline = bench_now_ns () + 10e9;
  while (trace == NULL && bench_now_ns () < deadline)
    {
      GListModel *traces = strobe_store_get_traces (store);
      g_main_context_iteration (NULL, TRUE);
      for (guint i = 0; trace == NULL && i < g_list_model_get_n_items (traces); i++)
        {
          g_autoptr (StrobeTrace) t = g_list_model_get_item (traces, i);
          if (strobe_trace_get_pid (t) == emitter_pid)
            trace = g_object_ref (t);
        }
    }
  if (trace == NULL)
    g_error ("no live trace within 10 s");
  document = strobe_document_new_for_trace (store, trace, STROBE_DOCUMENT_MODEL_ALL);
  g_object_unref (trace);
  state = strobe_view_state_new ();
  strobe_view_state_set_follow_live (state, TRUE);
  view = GTK_WIDGET (strobe_view_new (STROBE_TYPE_TIMELINE_VIEW, document, state));
  win = window_with (view);
  l.seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  l.waiting = g_array_new (FALSE, FALSE, sizeof (guint64));
  l.latencies = g_array_new (FALSE, FALSE, sizeof (double));
  l.document = document;
  g_signal_connect (document, "changed", G_CALLBACK (live_changed), &l);
  strobe_document_load_async (document, NULL, NULL, NULL);
  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (win));
  bench_stall_watch_changes (&stall, document);

  /* Frames at 120 a second while the program runs. */
  while (strobe_document_is_live (document) || !strobe_document_is_loaded (document))
    {
      StrobeTimelineWidget *w = strobe_timeline_view_get_timeline (STROBE_TIMELINE_VIEW (view));
      double t0 = bench_now_ns ();
      guint n_waiting;

      live_find_probes (&l);
      n_waiting = l.waiting->len;

      frame_max = MAX (frame_max, frame (GTK_WIDGET (w)));
      /* The bench's own frame is not a stall of the viewer's: gaps are measured between
       * frames, while the main loop handles what the live trace brings. */
      bench_stall_mark (&stall);
      if (complete (w) && n_waiting)
        {
          guint64 now = strobe_time ();
          strobe_document_get_clock (document, &clock);
          for (guint i = 0; i < n_waiting; i++)
            {
              double ms = strobe_trace_clock_duration (&clock, now - g_array_index (l.waiting, guint64, i)) * 1e3;
              double run_ms = (g_get_monotonic_time () - spawned_us) / 1e3;

              /* A probe ends after its program started: a longer wait is another trace's
               * probe, or a trace time not on this process's clock. */
              if (ms < 0 || ms > run_ms + 1)
                g_error ("a probe seen %.0f ms after its end, the program started %.0f ms ago", ms, run_ms);
              g_array_append_val (l.latencies, ms);
            }
          g_array_remove_range (l.waiting, 0, n_waiting);
        }
      /* Events are handled between frames however long a frame took, as GTK's frame
       * clock does. */
      do
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (500);
      while (bench_now_ns () - t0 < 8.3e6);
      if (bench_now_ns () > deadline + 30e9)
        break;
    }
  bench_stall_stop (&stall);
  g_subprocess_wait (proc, NULL, NULL);
  bench_report ("live.frame_max", frame_max, "ms (the view's longest frame, offscreen, while live)");
  bench_report_ratio ("live_frame_max_ms", frame_max, "<=", 16);
  bench_stall_report ("live", &stall, TRUE);
  if (l.latencies->len)
    {
      double *v = (double *) (gpointer) l.latencies->data;
      /* The first probes were in the trace before the view opened. */
      guint skip = MIN (3, l.latencies->len - 1);
      bench_report ("live.probes", l.latencies->len - skip, "scopes");
      bench_report ("live.latency_median", bench_median (v + skip, (int) (l.latencies->len - skip)), "ms");
      bench_report ("live.latency_max", v[l.latencies->len - 1], "ms");
      bench_report_ratio ("live_scope_to_screen_median_ms", bench_median (v + skip, (int) (l.latencies->len - skip)), "<=", 250);
    }
  else
    bench_report ("live.probes", 0, "scopes (none drawn)");
  gtk_window_destroy (win);
  bench_iterate ();
  g_object_unref (state);
  g_object_unref (document);
  strobe_recorder_stop (recorder);
  g_hash_table_unref (l.seen);
  g_array_unref (l.waiting);
  g_array_unref (l.latencies);
}

/* ---- main ---------------------------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("— timeline view benchmark");
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = NULL, *path = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A fifth of the trace", NULL },
    { "scopes", 0, 0, G_OPTION_ARG_INT64, &n_scopes, "Scopes in the trace (default 10 M)", "N" },
    { "dir", 0, 0, G_OPTION_ARG_STRING, &bench_dir, "Where the trace goes (default: a temporary directory)", "DIR" },
    { "no-live", 0, 0, G_OPTION_ARG_NONE, &no_live, "Skip the live part", NULL },
    { "only-live", 0, 0, G_OPTION_ARG_NONE, &only_live, "Only the live part", NULL },
    { NULL },
  };
  guint64 scopes, first, last;
  double t0, t_loaded = 0, rss_before, rss_after, target_mb;
  StrobeDocument *document;
  StrobeViewState *state;
  GtkWidget *view;
  GtkWindow *win;
  StrobeTimelineWidget *tl;
  StrobeTimersPanel *timers;
  BenchStall stall = { 0 };

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (n_scopes <= 0)
    n_scopes = quick ? 2000000 : 10000000;
  if (bench_dir == NULL)
    bench_dir = tmp = g_dir_make_tmp ("strobe-bench-timeline-XXXXXX", NULL);
  /* The viewer's settings stay in memory; GSK's cairo renderer, as the issue measures. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  bench_view_process ();
  path = g_build_filename (bench_dir, "timeline.strobe", NULL);
  if (only_live)
    {
      if (!bench_view_gtk_init ())
        return 77;
      live_latency (NULL);
      return 0;
    }

  t0 = bench_now_ns ();
  scopes = make_trace (path, (guint64) n_scopes);
  bench_report ("trace.scopes", (double) scopes, "scopes");
  bench_report ("trace.make_time", (bench_now_ns () - t0) / 1e9, "s");
  {
    GStatBuf st;
    if (g_stat (path, &st) == 0)
      bench_report ("trace.file", (double) st.st_size / 1e6, "MB");
  }

  if (!bench_view_gtk_init ())
    {
      g_printerr ("no display: run under xvfb-run -a\n");
      return 77;
    }
  /* The floor of a frame: one colour over 1920×1080, through the same renderer. */
  {
    /* A label too: the fonts are loaded once, as by the viewer's start page. */
    GtkWidget *empty = gtk_label_new ("Strobe");
    GtkWindow *w = window_with (empty);
    GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (w));
    GskRenderNode *node = gsk_color_node_new (&(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
    double v[20];
    for (int i = 0; i < 20; i++)
      {
        double s0 = bench_now_ns ();
        g_object_unref (gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT)));
        v[i] = (bench_now_ns () - s0) / 1e6;
      }
    gsk_render_node_unref (node);
    bench_report ("frame.empty.median", bench_median (v, 20), "ms (one colour at 1920×1080: the renderer's floor)");
    gtk_window_destroy (w);
    bench_iterate ();
  }
  rss_before = rss_mb ("VmRSS:");
  bench_report ("rss.before_open", rss_before, "MB");

  /* Open → the first complete frame, the view's full page at 1920×1080. */
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);
    document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  }
  state = strobe_view_state_new ();
  view = GTK_WIDGET (strobe_view_new (STROBE_TYPE_TIMELINE_VIEW, document, state));
  win = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (win, WIDTH, HEIGHT);
  gtk_window_set_decorated (win, FALSE);
  gtk_window_set_child (win, view);
  strobe_x11_shm_keep (win);
  gtk_window_present (win);
  /* The page drawn once first: opening it is not reading the trace. */
  for (int i = 0; i < 30; i++)
    {
      bench_iterate ();
      g_usleep (3000);
    }
  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (win));
  bench_stall_watch_changes (&stall, document);
  t0 = bench_now_ns ();
  strobe_document_load_async (document, NULL, NULL, NULL);
  tl = strobe_timeline_view_get_timeline (STROBE_TIMELINE_VIEW (view));
  timers = strobe_timeline_view_get_timers (STROBE_TIMELINE_VIEW (view));
  for (;;)
    {
      g_main_context_iteration (NULL, TRUE);
      if (!strobe_document_is_loaded (document))
        continue;
      if (t_loaded == 0)
        {
          t_loaded = bench_now_ns ();
          bench_stall_report ("load", &stall, TRUE);
        }
      frame (GTK_WIDGET (tl));
      if (complete (tl))
        break;
    }
  bench_report ("open.loaded", (t_loaded - t0) / 1e9, "s");
  bench_report ("open.first_complete_frame", (bench_now_ns () - t0) / 1e9, "s");
  bench_report_ratio ("open_to_first_frame_s", (bench_now_ns () - t0) / 1e9, "<=", 1.5);
  /* Let the first statistics finish before measuring them on their own. */
  while (strobe_timers_panel_is_busy (timers))
    g_main_context_iteration (NULL, TRUE);
  bench_iterate ();
  rss_after = rss_mb ("VmRSS:");
  target_mb = 16.0 * (double) scopes / 1e6 + 150;
  bench_report ("rss.with_trace", rss_after, "MB (the viewer with the trace open)");
  bench_report ("rss.added", rss_after - rss_before, "MB");
  bench_report ("rss.target", target_mb, "MB (16 bytes a scope + 150 MB)");
  bench_report ("tiles.bytes", (double) strobe_timeline_widget_get_cache_bytes (tl) / 1e6, "MB of drawn tiles");
  {
    StrobeTimelineStats ms;

    strobe_timeline_model_get_stats (strobe_document_get_timeline (document), &ms);
    bench_report ("model.scope_bytes", (double) ms.scope_bytes / 1e6, "MB (the timeline model's scopes and timer summaries)");
    bench_report ("model.other_bytes", (double) (ms.total_bytes - ms.scope_bytes) / 1e6, "MB (its frames, counters, names, ...)");
  }
  bench_report_ratio ("rss_with_trace_mb", rss_after, "<=", target_mb);

  /* The timers panel over every scope: a selection of the whole trace, timed to the rows. */
  g_assert_true (strobe_document_get_extent (document, &first, &last));
  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (win));
  t0 = bench_now_ns ();
  strobe_view_state_set_selection (state, first, last);
  while (strobe_timers_panel_is_busy (timers))
    g_main_context_iteration (NULL, TRUE);
  bench_report ("timers.whole_trace", (bench_now_ns () - t0) / 1e9, "s (rows shown)");
  bench_report ("timers.rows", g_list_model_get_n_items (strobe_timers_panel_get_rows (timers)), "timers");
  bench_report_ratio ("timers_whole_trace_s", (bench_now_ns () - t0) / 1e9, "<=", 0.5);
  bench_stall_report ("timers", &stall, TRUE);
  strobe_view_state_clear_selection (state);
  bench_stall_stop (&stall);
  bench_report ("rss.peak", rss_mb ("VmHWM:"), "MB (the process's peak)");
  gtk_window_destroy (win);
  bench_iterate ();

  /* Frame times: the widget alone at 1920×1080. */
  {
    StrobeViewState *fs = strobe_view_state_new ();
    StrobeTimelineWidget *w = STROBE_TIMELINE_WIDGET (strobe_timeline_widget_new (document, fs));
    GtkWindow *fw = window_with (GTK_WIDGET (w));
    GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (fw));
    /* Only the frames timed here are drawn: GTK's own, to the X server, would compete
     * with them for the cores. */
    guint blocked = g_signal_handlers_block_matched (surface, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                                     g_signal_lookup ("render", GDK_TYPE_SURFACE), 0, NULL, NULL, fw);
    StrobeTraceClock clock;
    guint64 mid = first + (last - first) / 2;
    struct { const char *name; gdouble seconds; } zooms[] = { { "1s", 1.0 }, { "10ms", 0.01 }, { "100us", 0.0001 } };

    bench_report ("frame.widget_width", gtk_widget_get_width (GTK_WIDGET (w)), "px");
    if (blocked == 0)
      g_printerr ("note: GTK's own drawing of the window could not be held back\n");
    bench_report ("frame.widget_height", gtk_widget_get_height (GTK_WIDGET (w)), "px");
    strobe_document_get_clock (document, &clock);
    frames_at ("fit", w, fs, first, last, 8, 16);
    for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
      {
        guint64 half = strobe_trace_clock_ticks (&clock, zooms[z].seconds) / 2;
        frames_at (zooms[z].name, w, fs, mid - half, mid + half, 8, 16);
      }
    {
      guint64 half = strobe_trace_clock_ticks (&clock, 0.01) / 2;
      pan_frames (w, fs, mid - half, mid + half);
    }
    gtk_window_destroy (fw);
    bench_iterate ();
    g_object_unref (fs);
  }
  g_object_unref (state);
  g_object_unref (document);

  /* Last, so what it leaves in the allocator does not count in the viewer's memory. */
  /* The baseline: the same trace read synchronously into every model. */
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (StrobeDocument) d = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
    double s0 = bench_now_ns ();
    strobe_document_load (d, NULL, NULL);
    bench_report ("open.models_only", (bench_now_ns () - s0) / 1e9, "s (reading into every model, no view: the floor)");
  }


  if (!no_live)
    live_latency (NULL);

  if (g_getenv ("BENCH_KEEP"))
    g_print ("kept %s\n", path);
  else
    {
      g_unlink (path);
      if (tmp)
        test_dir_remove_all (tmp);
    }
  return 0;
}
