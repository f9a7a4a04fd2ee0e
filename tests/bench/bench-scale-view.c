/* bench-scale-view.c — see the header.
 *
 * The page is the viewer's Timeline page (timeline widget and timers panel) in a
 * 1920×1080 window; the trace is read with strobe_document_load_async, as the viewer
 * reads a file. A frame is drawn the way GTK draws one — the widget's snapshot, then GSK's
 * cairo renderer — timed on the main thread while the tiles are painted by their workers;
 * GTK's own drawing of the window to the X server is held back so that only the timed
 * frames compete with the reading for the two cores. Frames come at 60 a second with the
 * pointer moving (the hover line changes every frame), the main loop running in between
 * as GTK's frame clock would let it.
 *
 * A frame's CPU time is not only the viewer's: on this virtual machine a frame during
 * which the hypervisor took the CPUs (steal, /proc/stat) ran 10–20 times its usual CPU
 * time for the same nodes, which rendered again at once took the usual 2 ms. So each
 * frame notes the steal during it, and the most CPU of a frame without any is reported
 * beside the most of all. STROBE_BENCH_VIEW_DUMP=DIR writes a line per frame to
 * DIR/frames.txt and, for a frame over 16 ms of CPU (STROBE_BENCH_VIEW_DUMP_MS), its nodes
 * (DIR/frame-N.node, for replaying) and the same nodes' render timed again three times.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench-common.h"
#include "bench-scale-view.h"
#include "bench-stall.h"
#include "bench-widget.h"
#include "strobe-x11-shm.h"
#include "strobe-timeline-model.h"
#include "strobe-timeline-tiles.h"
#include "strobe-timeline-tracks.h"
#include "strobe-timeline-view.h"
#include "strobe-timeline-widget.h"
#include "strobe-view.h"

#define WIDTH       1920
#define HEIGHT      1080
#define FRAME_NS    16.7e6
#define MAX_FRAMES  100000

typedef struct
{
  const char *name;
  double      seconds;   /* the visible span; 0: the whole trace (read so far) */
} Zoom;

static const Zoom zooms[] = { { "whole", 0 }, { "1s", 1.0 }, { "1ms", 0.001 } };

typedef struct
{
  StrobeDocument       *document;
  StrobeViewState      *state;
  StrobeTimelineWidget *w;
  BenchStall            stall;
  GArray               *times[2][G_N_ELEMENTS (zooms)];   /* [loading, loaded][zoom], ms */
  GArray               *cpu[2][G_N_ELEMENTS (zooms)];     /* the main thread's CPU time in each */
  double                longest[2][G_N_ELEMENTS (zooms)][3]; /* the longest frame: wall, CPU, waiting for a core */
  /* The frame with the most CPU: that, in the kernel, page faults (major + minor), in
   * the snapshot, the CPUs' time stolen by the hypervisor meanwhile, tile nodes made. */
  double                costliest[2][G_N_ELEMENTS (zooms)][6];
  double                unstolen[2][G_N_ELEMENTS (zooms)];   /* the most CPU of a frame without steal */
  guint                 stolen[2][G_N_ELEMENTS (zooms)];     /* frames with steal */
  guint                 hover;
  double                t_open;
} Ctx;

/* The main thread's CPU time in the last frame, and its time runnable but waiting for a
 * core (the scheduler's run_delay): on the shared machine a frame's wall time is also
 * that; what is neither is time it slept (a lock). */
static double frame_cpu_ms, frame_wait_ms, frame_sys_ms, frame_faults, frame_snapshot_cpu_ms, frame_steal_ms;
static guint64 frame_nodes_made;
static const char *dump_dir;   /* STROBE_BENCH_VIEW_DUMP */
static double dump_ms = 16;    /* STROBE_BENCH_VIEW_DUMP_MS: the frames kept, by CPU time */
static FILE *dump_log;
static guint dump_n;

static void
thread_usage (double *sys_ms, double *faults)
{
  struct rusage ru;

  getrusage (RUSAGE_THREAD, &ru);
  *sys_ms = (double) ru.ru_stime.tv_sec * 1e3 + (double) ru.ru_stime.tv_usec / 1e3;
  *faults = (double) (ru.ru_majflt + ru.ru_minflt);
}

static double
run_delay_ns (void)
{
  g_autofree char *text = NULL;
  unsigned long long cpu = 0, delay = 0;

  if (!g_file_get_contents ("/proc/thread-self/schedstat", &text, NULL, NULL)
      || sscanf (text, "%llu %llu", &cpu, &delay) != 2)
    return 0;
  return (double) delay;
}

static double
render_cpu_ms (GskRenderer *renderer, GskRenderNode *node, GtkWidget *widget)
{
  double c0 = bench_thread_cpu_ns ();
  GdkTexture *t = gsk_renderer_render_texture (
    renderer, node, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget)));

  g_object_unref (t);
  return (bench_thread_cpu_ns () - c0) / 1e6;
}

/* A costly frame's nodes, to replay, and the same render timed again at once: slow
 * again, the moment was; fast, the frame's nodes were not the cost. */
static void
dump_nodes (GtkWidget *widget, GskRenderer *renderer, GskRenderNode *node)
{
  g_autofree char *name = g_strdup_printf ("%s/frame-%u.node", dump_dir, dump_n++);
  g_autoptr(GBytes) bytes = gsk_render_node_serialize (node);

  g_file_set_contents (name, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL);
  if (dump_log == NULL)
    return;
  fprintf (dump_log, "# %s: %.2f ms CPU, rendered again:", name, frame_cpu_ms);
  for (int i = 0; i < 3; i++)
    fprintf (dump_log, " %.2f", render_cpu_ms (renderer, node, widget));
  fprintf (dump_log, " ms\n");
}

/* One frame as GTK draws it: the widget's snapshot and the renderer, in ms. */
static double
frame (GtkWidget *widget)
{
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  GskRenderNode *node;
  GdkTexture *t;
  StrobeTileCounts k0, k1;
  double d0, t0, c0, s0, f0, st0, ms;

  strobe_timeline_widget_get_tile_counts (STROBE_TIMELINE_WIDGET (widget), &k0);
  st0 = bench_steal_ms ();
  thread_usage (&s0, &f0);
  d0 = run_delay_ns ();
  t0 = bench_now_ns ();
  c0 = bench_thread_cpu_ns ();
  node = bench_widget_snapshot (widget);
  frame_snapshot_cpu_ms = (bench_thread_cpu_ns () - c0) / 1e6;
  strobe_timeline_widget_get_tile_counts (STROBE_TIMELINE_WIDGET (widget), &k1);
  t = gsk_renderer_render_texture (renderer, node,
                                   &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget)));
  ms = (bench_now_ns () - t0) / 1e6;
  frame_cpu_ms = (bench_thread_cpu_ns () - c0) / 1e6;
  frame_wait_ms = (run_delay_ns () - d0) / 1e6;
  thread_usage (&frame_sys_ms, &frame_faults);
  frame_sys_ms -= s0;
  frame_faults -= f0;
  frame_steal_ms = bench_steal_ms () - st0;
  frame_nodes_made = k1.nodes_made - k0.nodes_made;
  if (dump_dir && frame_cpu_ms > dump_ms)
    dump_nodes (widget, renderer, node);
  g_object_unref (t);
  gsk_render_node_unref (node);
  return ms;
}

static gboolean
complete (StrobeTimelineWidget *w)
{
  return strobe_timeline_widget_get_incomplete (w) == 0 && strobe_timeline_widget_get_pending (w) == 0;
}

static guint64
model_scopes (StrobeDocument *document)
{
  StrobeTimelineStats st;

  strobe_timeline_model_get_stats (strobe_document_get_timeline (document), &st);
  return st.scopes;
}

/* The frame just drawn in its zoom's figures (and the dump's log). */
static void
note_frame (Ctx *c, double ms, double *costliest, double *unstolen, guint *stolen)
{
  if (frame_cpu_ms > costliest[0])
    {
      costliest[0] = frame_cpu_ms;
      costliest[1] = frame_sys_ms;
      costliest[2] = frame_faults;
      costliest[3] = frame_snapshot_cpu_ms;
      costliest[4] = frame_steal_ms;
      costliest[5] = (double) frame_nodes_made;
    }
  if (frame_steal_ms > 0)
    (*stolen)++;
  else if (frame_cpu_ms > *unstolen)
    *unstolen = frame_cpu_ms;
  if (dump_log)
    fprintf (dump_log, "%.3f s: %.2f ms, CPU %.2f (snapshot %.2f, sys %.2f), %.0f faults, stolen %.0f ms, %" G_GUINT64_FORMAT
             " tile nodes made\n", (bench_now_ns () - c->t_open) / 1e9, ms, frame_cpu_ms, frame_snapshot_cpu_ms,
             frame_sys_ms, frame_faults, frame_steal_ms, frame_nodes_made);
}

/* A frame, then the main loop until the next is due: the bench's own frame is timed as a
 * frame, not counted as a stall of the loop. */
static double
paced_frame (Ctx *c, guint state, guint z)
{
  GArray *out = c->times[state][z], *cpu = c->cpu[state][z];
  double *longest = c->longest[state][z];
  double t0 = bench_now_ns (), ms;
  guint64 a, b;

  strobe_view_state_get_visible_range (c->state, &a, &b);
  c->hover = (c->hover + 1) % 200;
  strobe_view_state_set_hover (c->state, a + (b - a) / 200 * c->hover);
  ms = frame (GTK_WIDGET (c->w));
  if (out->len < MAX_FRAMES)
    g_array_append_val (out, ms);
  if (cpu->len < MAX_FRAMES)
    g_array_append_val (cpu, frame_cpu_ms);
  note_frame (c, ms, c->costliest[state][z], &c->unstolen[state][z], &c->stolen[state][z]);
  if (ms > longest[0])
    {
      longest[0] = ms;
      longest[1] = frame_cpu_ms;
      longest[2] = frame_wait_ms;
    }
  bench_stall_mark (&c->stall);
  do
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (500);
  while (bench_now_ns () - t0 < FRAME_NS);
  return ms;
}

/* The view at zoom @z about the middle of what is read so far, as a user's zoom sets it. */
static void
set_zoom (Ctx *c, guint z)
{
  StrobeTraceClock clock;
  guint64 first, last, mid, half;

  if (!strobe_document_get_extent (c->document, &first, &last))
    return;
  if (zooms[z].seconds == 0)
    {
      strobe_timeline_widget_zoom_to (c->w, first, last);
      return;
    }
  strobe_document_get_clock (c->document, &clock);
  half = strobe_trace_clock_ticks (&clock, zooms[z].seconds) / 2;
  mid = first + (last - first) / 2;
  strobe_timeline_widget_zoom_to (c->w, mid > half ? mid - half : 0, mid + half);
}

static void
report_times (const Ctx *c, guint s, guint z)
{
  const char *state = s == 0 ? "loading" : "loaded";
  GArray *times = c->times[s][z], *cpu = c->cpu[s][z];
  const double *longest = c->longest[s][z], *costliest = c->costliest[s][z];
  char key[96];
  double *v = (double *) (gpointer) times->data, *u = (double *) (gpointer) cpu->data;
  int n = (int) times->len;

  if (n == 0)
    {
      printf ("# view: no frame at %s zoom %s\n", zooms[z].name, state);
      return;
    }
  g_snprintf (key, sizeof key, "view.frame.%s.%s.frames", zooms[z].name, state);
  bench_report (key, n, "frames");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.median", zooms[z].name, state);
  bench_report (key, bench_median (v, n), "ms");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.max", zooms[z].name, state);
  bench_report (key, v[n - 1], "ms");   /* sorted by the median */
  g_snprintf (key, sizeof key, "view.frame.%s.%s.cpu_median", zooms[z].name, state);
  bench_report (key, bench_median (u, n), "ms (the main thread's CPU time in a frame)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.cpu_max", zooms[z].name, state);
  bench_report (key, u[n - 1], "ms");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.longest_cpu", zooms[z].name, state);
  bench_report (key, longest[1], "ms (of the longest frame, the main thread ran)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.longest_waiting", zooms[z].name, state);
  bench_report (key, longest[2], "ms (of it the main thread was runnable, waiting for a core; the rest it slept)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.costliest_sys", zooms[z].name, state);
  bench_report (key, costliest[1], "ms (of the frame with the most CPU, in the kernel)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.costliest_faults", zooms[z].name, state);
  bench_report (key, costliest[2], "page faults in it");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.costliest_snapshot_cpu", zooms[z].name, state);
  bench_report (key, costliest[3], "ms (of it the widget's snapshot; the rest GSK's render)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.costliest_steal", zooms[z].name, state);
  bench_report (key, costliest[4], "ms (the CPUs' time the hypervisor took during it, all CPUs, 10 ms steps)");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.costliest_new_nodes", zooms[z].name, state);
  bench_report (key, costliest[5], "tile nodes made in it");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.frames_stolen", zooms[z].name, state);
  bench_report (key, c->stolen[s][z], "frames during which the hypervisor took CPU time");
  g_snprintf (key, sizeof key, "view.frame.%s.%s.cpu_max_unstolen", zooms[z].name, state);
  bench_report (key, c->unstolen[s][z], "ms (the most CPU of a frame without steal)");
  /* On the shared machine the wall time is the scheduler's as much as the viewer's: the
   * same targets by the main thread's CPU time. */
  g_snprintf (key, sizeof key, "view_frame_%s_%s_cpu_median_ms", zooms[z].name, state);
  bench_report_ratio (key, u[n / 2], "<=", 8);
  g_snprintf (key, sizeof key, "view_frame_%s_%s_cpu_max_ms", zooms[z].name, state);
  bench_report_ratio (key, u[n - 1], "<=", 16);
  g_snprintf (key, sizeof key, "view_frame_%s_%s_cpu_max_unstolen_ms", zooms[z].name, state);
  bench_report_ratio (key, c->unstolen[s][z], "<=", 16);
  g_snprintf (key, sizeof key, "view_frame_%s_%s_median_ms", zooms[z].name, state);
  bench_report_ratio (key, v[n / 2], "<=", 8);
  g_snprintf (key, sizeof key, "view_frame_%s_%s_max_ms", zooms[z].name, state);
  bench_report_ratio (key, v[n - 1], "<=", 16);
}

/* Open → the first complete frame showing scopes (every tile it shows up to date with
 * the model at the time), the page left at the zoom it chooses itself. */
static double
first_frame (Ctx *c, double t0)
{
  GtkWidget *w = GTK_WIDGET (c->w);

  for (;;)
    {
      paced_frame (c, 0, 0);
      if (complete (c->w) && model_scopes (c->document) > 0
          && strobe_track_list_get_n (strobe_timeline_widget_get_tracks (c->w)) > 0)
        {
          double s = (bench_now_ns () - t0) / 1e9;
          bench_report ("view.first_frame_scopes", (double) model_scopes (c->document),
                        "scopes (read when the first complete frame was drawn)");
          return s;
        }
      if (bench_now_ns () - t0 > 600e9)
        return -1;
      (void) w;
    }
}

int
bench_scale_view (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Ctx c = { 0 };
  GtkWidget *view;
  GtkWindow *win;
  GdkSurface *surface;
  double t0, t_first, t_loaded;
  guint z = 0;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  bench_view_process ();
  if (!bench_view_gtk_init ())
    {
      printf ("# view: no display (run under xvfb-run -a)\n");
      return 77;
    }
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
      {
        c.times[s][i] = g_array_new (FALSE, FALSE, sizeof (double));
        c.cpu[s][i] = g_array_new (FALSE, FALSE, sizeof (double));
      }
  c.document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  c.state = strobe_view_state_new ();
  view = GTK_WIDGET (strobe_view_new (STROBE_TYPE_TIMELINE_VIEW, c.document, c.state));
  c.w = strobe_timeline_view_get_timeline (STROBE_TIMELINE_VIEW (view));
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
  surface = gtk_native_get_surface (GTK_NATIVE (win));
  if (g_signal_handlers_block_matched (surface, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                       g_signal_lookup ("render", GDK_TYPE_SURFACE), 0, NULL, NULL, win) == 0)
    printf ("# view: GTK's own drawing of the window could not be held back\n");
  bench_report ("view.width", gtk_widget_get_width (GTK_WIDGET (c.w)), "px (the timeline widget in the page)");
  bench_report ("view.height", gtk_widget_get_height (GTK_WIDGET (c.w)), "px");

  bench_stall_start (&c.stall);
  /* GTK's own frames of the window (layout and snapshot: its drawing is held back) are
   * frames too, not work outside them: the timers panel's rows made as it fills are laid
   * out in them. */
  bench_stall_watch_frames (&c.stall, GTK_WIDGET (win));
  bench_stall_watch_changes (&c.stall, c.document);
  t0 = bench_now_ns ();
  c.t_open = t0;
  if ((dump_dir = g_getenv ("STROBE_BENCH_VIEW_DUMP")) != NULL)
    {
      g_autofree char *log = g_build_filename (dump_dir, "frames.txt", NULL);

      g_mkdir_with_parents (dump_dir, 0755);
      if (g_getenv ("STROBE_BENCH_VIEW_DUMP_MS"))
        dump_ms = g_ascii_strtod (g_getenv ("STROBE_BENCH_VIEW_DUMP_MS"), NULL);
      if ((dump_log = fopen (log, "w")) != NULL)
        setvbuf (dump_log, NULL, _IOLBF, 0);
    }
  strobe_document_load_async (c.document, NULL, NULL, NULL);
  t_first = first_frame (&c, t0);
  bench_report ("view.first_frame", t_first, "s (open → first complete frame of the page, what is read so far)");
  bench_report_ratio ("view_first_frame_s", t_first < 0 ? 1e9 : t_first, "<=", 3);

  /* While the rest is read: a second of frames at each zoom in turn, the zoom set again
   * each time about the middle of what is read by then. */
  while (!strobe_document_is_loaded (c.document))
    {
      set_zoom (&c, z);
      for (int i = 0; i < 60 && !strobe_document_is_loaded (c.document); i++)
        paced_frame (&c, 0, z);
      z = (z + 1) % G_N_ELEMENTS (zooms);
    }
  t_loaded = (bench_now_ns () - t0) / 1e9;
  /* The views' handling of the last change (every model, log ticks) is the loading's. */
  for (int i = 0; i < 30; i++)
    paced_frame (&c, 0, z);
  bench_stall_stop (&c.stall);
  bench_report ("view.loaded", t_loaded, "s (open → every scope read)");
  bench_report ("view.scopes", (double) model_scopes (c.document), "scopes");
  bench_stall_report ("view_load", &c.stall, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    report_times (&c, 0, i);

  /* Once read: each zoom until every tile is up to date, then 30 frames more. */
  bench_iterate ();
  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    {
      double t_set = bench_now_ns (), done = -1;
      int after = 0;
      char key[96];

      set_zoom (&c, i);
      while (after < 30 && bench_now_ns () - t_set < 120e9)
        {
          paced_frame (&c, 1, i);
          if (done < 0 && complete (c.w))
            done = (bench_now_ns () - t_set) / 1e6;
          if (done >= 0)
            after++;
        }
      g_snprintf (key, sizeof key, "view.frame.%s.loaded.complete_after", zooms[i].name);
      bench_report (key, done, "ms (the zoom set → every tile up to date)");
      report_times (&c, 1, i);
    }
  strobe_view_state_set_hover (c.state, STROBE_VIEW_STATE_NONE);
  fflush (stdout);
  if (dump_log)
    fclose (dump_log);
  /* The process ends here: tearing down a billion scopes is not a figure. */
  _exit (0);
}
