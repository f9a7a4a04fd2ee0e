/* strobe-bench-group.c — a session group in the viewer (issue 23): 8 processes of 10 M
 * scopes each opened as one group tab; the time to the first frame that shows every
 * process's tracks, to every trace read, and frame times (median, max) while the view
 * zooms and pans over all eight timelines.
 *
 *   xvfb-run -a -s "-screen 0 2000x1200x24" _build/tests/bench/strobe-bench-group [--quick]
 *
 * One trace of 10 M scopes (--quick: 2 M) is written by this process with the runtime (8
 * threads, nested scopes to a depth of 10, frames), then copied under 8 names: eight
 * processes with the same content on one clock — what is measured is reading and drawing
 * eight of them at once, not how they differ. A frame is the whole tab drawn as GTK draws
 * it (snapshot, then GSK's cairo renderer) at 1920×1080.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "strobe-group-view.h"
#include "strobe-timeline-widget.h"

#define WIDTH      1920
#define HEIGHT     1080
#define PROCESSES  8
#define THREADS    8
#define NAMES      200
#define MAX_DEPTH  10

static StrobeCpuSpec specs[NAMES];

typedef struct
{
  guint   index;
  guint32 rng;
  guint64 target;
  guint64 scopes;
} Gen;

static guint32
next_rand (Gen *g)
{
  g->rng = g->rng * 1664525u + 1013904223u;
  return g->rng >> 8;
}

static void
node (Gen *g, guint depth)
{
  guint children;

  if (!strobe_cpu_begin (&specs[(next_rand (g) % NAMES + depth * 7) % NAMES]))
    return;
  children = depth + 1 >= MAX_DEPTH || (depth > 2 && next_rand (g) % 3 == 0) ? 0
             : depth < 2 ? 3 + next_rand (g) % 4 : next_rand (g) % 4;
  if (children == 0)
    {
      volatile guint x = 0;
      for (guint i = 0; i < 200 + next_rand (g) % 800; i++)
        x += i;
    }
  for (guint c = 0; c < children && g->scopes < g->target; c++)
    node (g, depth + 1);
  strobe_cpu_end ();
  g->scopes++;
}

static gpointer
gen_thread (gpointer data)
{
  Gen *g = data;
  char name[32];

  g_snprintf (name, sizeof name, g->index == 0 ? "Main" : "Worker %u", g->index);
  strobe_thread_set_name (name, g->index == 0 ? "Game" : "Workers", (int32_t) g->index);
  while (g->scopes < g->target)
    {
      if (g->index == 0)
        strobe_frame_begin (STROBE_FRAME_GAME);
      node (g, 0);
      if (g->index == 0)
        strobe_frame_end (STROBE_FRAME_GAME);
    }
  return NULL;
}

static void
make_trace (const char *path, guint64 scopes)
{
  StrobeInitOptions options = { 0 };
  Gen gens[THREADS];
  GThread *threads[THREADS];
  StrobeStats st;

  options.buffer_bytes = (size_t) 512 << 20;
  options.block_wait_ms = 5000;
  options.tail_bytes = STROBE_TAIL_NONE;
  options.control_port = STROBE_CONTROL_NONE;
  strobe_init (&options);
  for (guint i = 0; i < NAMES; i++)
    {
      specs[i].line = 100 + i;
      specs[i].name = g_strdup_printf ("Group%02u/Step%03u", i % 17, i);
      specs[i].file = __FILE__;
    }
  strobe_channels_set_enabled ("cpu,frame", true);
  if (!strobe_output_file (path))
    g_error ("cannot write %s", path);
  for (guint i = 0; i < THREADS; i++)
    {
      gens[i] = (Gen) { i, 4242 + i * 7919, scopes / THREADS, 0 };
      threads[i] = g_thread_new ("gen", gen_thread, &gens[i]);
    }
  for (guint i = 0; i < THREADS; i++)
    g_thread_join (threads[i]);
  strobe_flush ();
  strobe_get_stats (&st);
  bench_report ("group.trace_dropped", (double) st.events_dropped, "events");
  strobe_output_stop ();
}

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The tab as GTK draws it: snapshot and renderer, in ms. */
static double
frame (GtkWidget *widget)
{
  double t0 = bench_now_ns ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  GdkTexture *t;
  double ms;

  gtk_widget_snapshot_child (gtk_widget_get_parent (widget), widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  t = node ? gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT)) : NULL;
  ms = (bench_now_ns () - t0) / 1e6;
  g_clear_object (&t);
  g_clear_pointer (&node, gsk_render_node_unref);
  return ms;
}

static gboolean
all_tracks (StrobeGroupView *view)
{
  if (strobe_group_view_get_n_members (view) < PROCESSES)
    return FALSE;
  for (guint i = 0; i < PROCESSES; i++)
    if (strobe_track_list_get_n (strobe_timeline_widget_get_tracks (strobe_group_view_get_timeline (view, i))) == 0)
      return FALSE;
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  guint64 scopes = quick ? 2000000 : 10000000;
  g_autofree char *dir = g_dir_make_tmp ("strobe-bench-group-XXXXXX", NULL);
  g_autofree char *first = g_build_filename (dir, "p0.strobe", NULL);
  GFile *files[PROCESSES];
  GtkWidget *view;
  GtkWindow *window;
  double t0, first_frame = -1, loaded = -1, times[400];
  int n = 0;

  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_init ();
  make_trace (first, scopes);
  files[0] = g_file_new_for_path (first);
  for (guint i = 1; i < PROCESSES; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/p%u.strobe", dir, i);
      g_autoptr(GFile) to = NULL;

      files[i] = g_file_new_for_path (path);
      if (!g_file_copy (files[0], files[i], G_FILE_COPY_NONE, NULL, NULL, NULL, NULL))
        g_error ("cannot copy the trace");
    }
  bench_report ("group.processes", PROCESSES, "processes");
  bench_report ("group.scopes_per_process", (double) scopes, "scopes");

  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, WIDTH, HEIGHT);
  gtk_window_set_decorated (window, FALSE);
  gtk_window_present (window);
  iterate ();

  t0 = bench_now_ns ();
  view = strobe_group_view_new_for_files (NULL, files, PROCESSES);
  gtk_window_set_child (window, view);
  while (first_frame < 0 || loaded < 0)
    {
      /* One dispatch at a time: draining the context would not come back while eight
       * documents keep reporting. */
      g_main_context_iteration (NULL, FALSE);
      if (first_frame < 0 && all_tracks (STROBE_GROUP_VIEW (view)))
        {
          frame (view);
          first_frame = (bench_now_ns () - t0) / 1e6;
        }
      if (loaded < 0 && strobe_group_view_is_loaded (STROBE_GROUP_VIEW (view)))
        loaded = (bench_now_ns () - t0) / 1e6;
      g_usleep (1000);
      if ((bench_now_ns () - t0) / 1e9 > 600)
        g_error ("not read after 10 minutes");
    }
  for (int i = 0; i < 100; i++)
    {
      iterate ();
      g_usleep (2000);
    }
  bench_report ("group.first_frame_all_tracks", first_frame, "ms");
  bench_report ("group.all_read", loaded, "ms");
  bench_report_ratio ("group.first_frame_all_tracks", first_frame, "<=", 3000);

  /* Zooming in step by step and panning, a frame each; tiles are drawn between. */
  {
    StrobeViewState *state = strobe_group_view_get_state (STROBE_GROUP_VIEW (view), 0);
    guint64 a, b;

    strobe_view_state_get_visible_range (state, &a, &b);
    for (int i = 0; i < (int) G_N_ELEMENTS (times); i++)
      {
        guint64 len = b - a;

        if (i < 200)
          len = len - len / 50;
        a += i < 200 ? len / 100 : len / 40;
        b = a + len;
        strobe_view_state_set_visible_range (state, a, b);
        iterate ();
        times[n++] = frame (view);
      }
  }
  bench_sort (times, n);
  bench_report ("group.frame_median", bench_median (times, n), "ms");
  bench_report ("group.frame_max", times[n - 1], "ms");
  bench_report_ratio ("group.frame_median", bench_median (times, n), "<=", 8);
  bench_report_ratio ("group.frame_max", times[n - 1], "<=", 16);

  gtk_window_destroy (window);
  iterate ();
  for (guint i = 0; i < PROCESSES; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      g_unlink (path);
      g_object_unref (files[i]);
    }
  g_rmdir (dir);
  return 0;
}
