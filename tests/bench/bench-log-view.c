/* bench-log-view.c — see the header.
 *
 * The real StrobeLogView on the big trace, 1920×1080, in a window (for its display, fonts
 * and style) but rendered offscreen: a frame is the scroll position moved, the view laid
 * out (the rows that came into view get their items, formatted messages and cells), its
 * snapshot taken as its window does in a frame and rendered to a texture with the window's GSK
 * renderer (cairo unless GSK_RENDERER says otherwise) — what a frame costs the viewer,
 * without the X server's share. Two runs: a page down per frame from the top (reading),
 * then a jump to a random place in all the rows per frame (dragging the scrollbar).
 *
 * For comparison, the same jumps on screen through the window's frame clock (tick to
 * after-paint), which adds sending the frame to the X server (Xvfb here): informative.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <gtk/gtk.h>

#include "bench-common.h"
#include "bench-log-view.h"
#include "bench-stall.h"
#include "bench-widget.h"
#include "strobe-x11-shm.h"
#include "strobe-log-view.h"

#define FRAMES_PER_RUN 300
#define ONSCREEN_FRAMES 120

typedef struct
{
  GtkWindow     *window;
  GtkAdjustment *adj;
  GtkAdjustment *jump_adj;   /* jumps: the view's own scrollbar over a list longer than the
                              * table's window (in rows), else GTK's */
  GRand         *rand;
  guint          run;        /* 0: page down, 1: jumps */
  guint          frame;
  gint64         tick_us;
  GArray        *times;      /* double ms, per frame */
  gboolean       done;
  double         phase[4];   /* ns: scrolling (binding), layout, snapshot, rendering */
  double         cpu;        /* ns of this thread's CPU time in the frames */
  GArray        *cpu_times;  /* double ms, per frame: the main thread's CPU time */
  guint          made;       /* frames made by hand; every fourth is looked at */
  guint          blank;      /* of those looked at, the frames of a blank table */
} Scroll;

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  Scroll *s = data;
  double upper = gtk_adjustment_get_upper (s->jump_adj), page = gtk_adjustment_get_page_size (s->jump_adj);

  if (s->frame >= ONSCREEN_FRAMES)
    {
      s->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  s->tick_us = g_get_monotonic_time ();
  gtk_adjustment_set_value (s->jump_adj, g_rand_double_range (s->rand, 0, MAX (upper - page, 1)));
  s->frame++;
  return G_SOURCE_CONTINUE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Scroll        *s)
{
  double ms;

  if (s->tick_us == 0)
    return;
  ms = (double) (g_get_monotonic_time () - s->tick_us) / 1000.0;
  g_array_append_val (s->times, ms);
  s->tick_us = 0;
}

static gboolean
rows_shown (StrobeLogView *view)
{
  return g_list_model_get_n_items (G_LIST_MODEL (strobe_log_view_get_list (view))) > 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (strobe_log_view_get_column_view (view)));
}

static double
cpu_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static gboolean texture_shows_table (GdkTexture *texture, GtkWidget *view, GtkWidget *table);

/* One offscreen frame: scroll, lay out, snapshot, render. Returns its time in ms. */
static double
offscreen_frame (Scroll *s, GtkWidget *view, GskRenderer *renderer, GtkAdjustment *adj, double value)
{
  int w = gtk_widget_get_width (view), h = gtk_widget_get_height (view);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  double t0 = bench_now_ns (), t1, t2, t3, c0 = cpu_now_ns ();

  gtk_adjustment_set_value (adj, value);
  t1 = bench_now_ns ();
  /* As the frame clock's layout does after GTK's: the rows bound and on screen filled
   * (the others after the frame, in the main loop between two frames). Twice, as GDK runs
   * the layout phase again when it was asked for during it: rows that show other messages
   * after a window's move ask for it as their cells are filled. Allocated once, the table
   * was not, and GTK 4.8 left it out of the snapshot ("without a current allocation"):
   * every frame after a move of the 200-row window came out blank. */
  for (int pass = 0; pass < 2; pass++)
    {
      gtk_widget_size_allocate (view, &(GtkAllocation) { 0, 0, w, h }, -1);
      strobe_log_view_fill_cells (STROBE_LOG_VIEW (view));
    }
  t2 = bench_now_ns ();
  /* The view's snapshot as its window takes it in a frame: the widgets whose drawing
   * changed draw again, the others give their cached render nodes. */
  gtk_widget_snapshot_child (gtk_widget_get_parent (view), view, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  t3 = bench_now_ns ();
  if (node != NULL)
    texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  s->phase[0] += t1 - t0;
  s->phase[1] += t2 - t1;
  s->phase[2] += t3 - t2;
  s->phase[3] += bench_now_ns () - t3;
  s->cpu += cpu_now_ns () - c0;
  {
    double cpu_ms = (cpu_now_ns () - c0) / 1e6, ms = (bench_now_ns () - t0) / 1e6;
    GtkWidget *table = GTK_WIDGET (strobe_log_view_get_column_view (STROBE_LOG_VIEW (view)));

    g_array_append_val (s->cpu_times, cpu_ms);
    /* Untimed: was it of a drawn table (see window_shifts)? Every fourth frame: the
     * texture's download and look took two thirds of the bench's time in its frames,
     * twice the frames', and left the caches cold for the next. */
    if (s->made++ % 4 == 0 && (texture == NULL || !texture_shows_table (texture, view, table)))
      s->blank++;
    return ms;
  }
}

static void
report (const char *name, GArray *times, guint from, guint n, gboolean ratios)
{
  g_autofree double *v = g_new (double, n);
  g_autofree char *median = g_strdup_printf ("scroll.%s_median", name);
  g_autofree char *p95 = g_strdup_printf ("scroll.%s_p95", name);
  g_autofree char *max = g_strdup_printf ("scroll.%s_max", name);
  g_autofree char *rmed = g_strdup_printf ("scroll_%s_median_ms", name);
  g_autofree char *rmax = g_strdup_printf ("scroll_%s_max_ms", name);
  double m;

  for (guint i = 0; i < n; i++)
    v[i] = g_array_index (times, double, from + i);
  m = bench_median (v, (int) n);   /* sorts */
  bench_report (median, m, "ms");
  bench_report (p95, v[(n * 95) / 100], "ms");
  bench_report (max, v[n - 1], "ms");
  if (ratios)
    {
      bench_report_ratio (rmed, m, "<=", 8);
      bench_report_ratio (rmax, v[n - 1], "<=", 16);
    }
}

static GtkWidget *
find_search_entry (GtkWidget *widget)
{
  if (GTK_IS_SEARCH_ENTRY (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_search_entry (c);
      if (found)
        return found;
    }
  return NULL;
}

/* Types @text into the view's filter entry with the view on screen, and measures the main
 * thread until the list has filtered every message and the rows are shown. */
static void
filter_stall (const char *prefix, StrobeLogView *view, GtkWidget *entry, const char *text)
{
  BenchStall stall = { 0 };
  StrobeLogList *list = strobe_log_view_get_list (view);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC, quiet_until = 0;
  gint64 start_by = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  guint n0 = g_list_model_get_n_items (G_LIST_MODEL (list));
  gboolean started = FALSE;
  double t0;
  char key[64];

  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (view));
  t0 = bench_now_ns ();
  /* The gap starts with the keystroke: a search entry emptied reports it at once, inside
   * set_text, before the timer's first tick. */
  bench_stall_mark (&stall);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  /* The entry waits for a pause in the typing; then until the worker is done, and a
   * tenth of a second of frames. */
  while (g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, TRUE);
      started |= strobe_log_list_is_filtering (list) || g_list_model_get_n_items (G_LIST_MODEL (list)) != n0;
      if (!started && g_get_monotonic_time () < start_by)
        continue;
      if (strobe_log_list_is_filtering (list))
        quiet_until = 0;
      else if (quiet_until == 0)
        quiet_until = g_get_monotonic_time () + 100000;
      else if (g_get_monotonic_time () > quiet_until)
        break;
    }
  bench_stall_stop (&stall);
  g_snprintf (key, sizeof key, "%s.rows", prefix);
  bench_report (key, (double) g_list_model_get_n_items (G_LIST_MODEL (list)), "rows");
  g_snprintf (key, sizeof key, "%s.time", prefix);
  bench_report (key, (bench_now_ns () - t0) / 1e6 - 100, "ms (typed → every message tested, the entry's pause included)");
  bench_stall_report (prefix, &stall, TRUE);
}

/* A message selected in another view far from the rows on screen (a log tick clicked in
 * the timeline), 40 times, the view on screen: it selects the message and scrolls to it,
 * and the main thread's budget is measured as while typing. */
static void
far_jump_stall (StrobeLogView *view, StrobeViewState *state, GRand *rand)
{
  BenchStall stall = { 0 };
  guint64 total = strobe_log_list_get_total (strobe_log_view_get_list (view));
  const guint jumps = 40;
  double c0;

  if (total == 0)
    return;
  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (view));
  c0 = bench_thread_cpu_ns ();
  for (guint i = 0; i < jumps; i++)
    {
      gint64 until;

      bench_stall_mark (&stall);
      strobe_view_state_set_selected_message (state, (guint64) g_rand_double_range (rand, 0, (double) total));
      /* Until it is painted, and a little more. */
      until = g_get_monotonic_time () + 50000;
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, TRUE);
    }
  bench_stall_stop (&stall);
  /* The longest frame is one of 40 on a noisy machine; what a jump costs in all is steadier
   * for comparing two builds. */
  bench_report ("far_jump.main_cpu_per_jump", (bench_thread_cpu_ns () - c0) / 1e6 / jumps,
                "ms (the main thread's CPU time a jump took in all: handlers, frames, fills)");
  bench_report ("far_jump.frame_cpu_per_jump", stall.frame_cpu_sum / jumps,
                "ms (of it in GTK's frames, every frame after the jump)");
  bench_stall_report ("far_jump", &stall, TRUE);
}

/* A list longer than the table's window: the window moved by half of it with the same rows
 * on screen (what scrolling across its edge does), and GTK's frame after it, 20 times back
 * and forth: the main thread's CPU time of each. The frames are GTK's own: made by hand
 * (offscreen_frame) after these moves, every frame after them drew the table blank —
 * GTK 4.8 then renders a tree with a dead node in it — and the figures of the on-screen
 * jumps, far jumps and filters that followed were of a table nobody saw. */
static void
window_shifts (StrobeLogView *view)
{
  StrobeLogRows *rows = strobe_log_view_get_rows (view);
  guint half = strobe_log_rows_get_window (rows) / 2;
  double worst = 0, sum = 0;
  BenchStall stall = { 0 };

  if (!strobe_log_rows_is_windowed (rows))
    return;
  bench_stall_start (&stall);
  bench_stall_watch_frames (&stall, GTK_WIDGET (view));
  for (guint i = 0; i < 20; i++)
    {
      guint start = strobe_log_rows_get_window_start (rows);
      double c0 = cpu_now_ns (), ms;
      gint64 until;

      strobe_log_window_move (strobe_log_view_get_window (view), i % 2 == 0 ? start + half : start - MIN (start, half));
      ms = (cpu_now_ns () - c0) / 1e6;
      sum += ms;
      worst = MAX (worst, ms);
      until = g_get_monotonic_time () + 60000;
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
    }
  bench_stall_stop (&stall);
  bench_report ("scroll.window_shift_cpu_mean", sum / 20, "ms (the window moved by half, GTK scrolled back as far)");
  bench_report ("scroll.window_shift_cpu_max", worst, "ms");
  bench_report ("scroll.window_shift_frame_cpu_max", stall.max_frame_cpu, "ms (GTK's frames after them)");
  bench_report_ratio ("scroll_window_shift_cpu_max_ms", worst, "<=", 4);
}

/* @texture (the view rendered) has text where the table is (@table's bounds in the view):
 * dark opaque pixels, every second one looked at. GTK 4.8's blank table is transparent. */
static gboolean
texture_shows_table (GdkTexture *texture, GtkWidget *view, GtkWidget *table)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) w * h * 4);
  graphene_rect_t bounds;
  guint dark = 0;

  if (!gtk_widget_compute_bounds (table, view, &bounds))
    return FALSE;
  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (int y = MAX ((int) bounds.origin.y, 0); y < MIN ((int) (bounds.origin.y + bounds.size.height), h); y += 2)
    for (int x = MAX ((int) bounds.origin.x, 0); x < MIN ((int) (bounds.origin.x + bounds.size.width), w); x += 2)
      {
        const guchar *p = pixels + ((gsize) y * w + x) * 4;

        dark += p[3] > 250 && p[0] + p[1] + p[2] < 3 * 100;
      }
  return dark > 250;
}

/* The table as the window draws it now has text on it. A view benchmark's frames are of
 * something only if this holds (see window_shifts). */
static gboolean
table_drawn (StrobeLogView *view)
{
  GtkWidget *widget = GTK_WIDGET (view);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return FALSE;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  return texture_shows_table (texture, widget, GTK_WIDGET (strobe_log_view_get_column_view (view)));
}

static void
report_drawn (StrobeLogView *view, const char *after)
{
  gboolean drawn = table_drawn (view);
  g_autofree char *name = g_strdup_printf ("table_drawn_after_%s", after);

  if (!drawn)
    printf ("scroll: the table was blank after the %s: their figures are of frames nobody saw\n", after);
  bench_report_ratio (name, drawn ? 1 : 0, ">=", 1);
}

typedef struct
{
  double cpu0, cpu;   /* ns, the main thread's */
  guint  painted;
} FirstPaint;

static void
first_before_cb (GdkFrameClock *clock, FirstPaint *p)
{
  p->cpu0 = cpu_now_ns ();
}

static void
first_after_cb (GdkFrameClock *clock, FirstPaint *p)
{
  if (p->cpu0 > 0 && p->painted++ == 0)
    p->cpu = cpu_now_ns () - p->cpu0;
}

/* The view's first frames on screen, before the scrolling is timed: the first draws every
 * widget of the page and every glyph it shows for the first time (8–17 ms of snapshot and
 * 7–13 ms of rendering in the first offscreen frame, which took them when the window had
 * not painted yet — it was page_down's maximum). Reported apart: it is the page
 * appearing, not a page down. */
static void
first_paint (Scroll *s, StrobeLogView *view)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (s->window));
  FirstPaint p = { 0 };
  gulong before = g_signal_connect (clock, "before-paint", G_CALLBACK (first_before_cb), &p);
  gulong after = g_signal_connect_after (clock, "after-paint", G_CALLBACK (first_after_cb), &p);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_widget_queue_draw (GTK_WIDGET (view));
  /* Two frames: the cells filled after the first are drawn by the second. */
  while (p.painted < 2 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, before);
  g_signal_handler_disconnect (clock, after);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  bench_report ("scroll.first_paint_cpu", p.cpu / 1e6, "ms (the page's first frame on screen, the main thread's CPU: informative)");
}

/* A log view of @document alone in a 1920×1080 window, its rows on screen; NULL (the window
 * gone) when they did not show within 10 s. */
static StrobeLogView *
present_view (StrobeDocument *document, StrobeViewState *state, GtkWindow **window)
{
  StrobeLogView *view = STROBE_LOG_VIEW (strobe_view_new (STROBE_TYPE_LOG_VIEW, document, state));
  gint64 deadline;

  *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (*window, 1920, 1080);
  gtk_window_set_child (*window, GTK_WIDGET (view));
  strobe_x11_shm_keep (*window);
  gtk_window_present (*window);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!rows_shown (view) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  for (int i = 0; i < 30; i++)
    g_main_context_iteration (NULL, FALSE);
  if (!rows_shown (view))
    {
      printf ("scroll: skipped, the table did not show\n");
      gtk_window_destroy (*window);
      *window = NULL;
      return NULL;
    }
  return view;
}

void
bench_log_view_scroll (StrobeDocument *document)
{
  g_autoptr(StrobeViewState) state = NULL;
  Scroll s = { 0 };
  StrobeLogView *view;
  GdkFrameClock *clock;
  gulong paint_id;
  gint64 deadline;

  bench_view_process ();
  if (!bench_view_gtk_init ())
    {
      printf ("scroll: skipped, no display (run under xvfb-run -a)\n");
      return;
    }

  state = strobe_view_state_new ();
  view = present_view (document, state, &s.window);
  if (view == NULL)
    return;
  first_paint (&s, view);

  s.adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (strobe_log_view_get_column_view (view)));
  s.jump_adj = strobe_log_rows_is_windowed (strobe_log_view_get_rows (view))
               ? strobe_log_window_get_adjustment (strobe_log_view_get_window (view)) : s.adj;
  bench_report ("scroll.table_rows", (double) g_list_model_get_n_items (G_LIST_MODEL (strobe_log_view_get_rows (view))),
                "rows (the table's window of the list)");
  s.rand = g_rand_new_with_seed (42);
  s.times = g_array_new (FALSE, FALSE, sizeof (double));
  s.cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  {
    GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (s.window));

    bench_report ("scroll.renderer", 0, G_OBJECT_TYPE_NAME (renderer));
    /* One offscreen frame where the page is, untimed: rendering to a texture draws with
     * cairo's image backend, whose glyph cache the window's frames did not fill (the first
     * offscreen frame took 7–13 ms more for it). */
    offscreen_frame (&s, GTK_WIDGET (view), renderer, s.adj, gtk_adjustment_get_value (s.adj));
    g_array_set_size (s.cpu_times, 0);
    memset (s.phase, 0, sizeof s.phase);
    s.cpu = 0;
    for (guint run = 0; run < 2; run++)
      for (guint f = 0; f < FRAMES_PER_RUN; f++)
        {
          GtkAdjustment *adj = run == 0 ? s.adj : s.jump_adj;
          double upper = gtk_adjustment_get_upper (adj), page = gtk_adjustment_get_page_size (adj);
          double value = run == 0 ? gtk_adjustment_get_value (adj) + page
                                  : g_rand_double_range (s.rand, 0, MAX (upper - page, 1));
          double ms = offscreen_frame (&s, GTK_WIDGET (view), renderer, adj, value);

          g_array_append_val (s.times, ms);
          /* What else the main loop has to do between two frames (idle work). */
          while (g_main_context_iteration (NULL, FALSE))
            ;
        }
    report ("page_down", s.times, 0, FRAMES_PER_RUN, TRUE);
    bench_report ("scroll.phase_scroll_bind", s.phase[0] / 1e6 / (2 * FRAMES_PER_RUN), "ms per frame (moving the rows: items made, cells bound)");
    bench_report ("scroll.phase_layout", s.phase[1] / 1e6 / (2 * FRAMES_PER_RUN), "ms per frame");
    bench_report ("scroll.phase_snapshot", s.phase[2] / 1e6 / (2 * FRAMES_PER_RUN), "ms per frame");
    bench_report ("scroll.phase_render", s.phase[3] / 1e6 / (2 * FRAMES_PER_RUN), "ms per frame (cairo, to a texture)");
    bench_report ("scroll.cpu_per_frame", s.cpu / 1e6 / (2 * FRAMES_PER_RUN), "ms (the main thread's CPU time: what other processes do not change)");
    report ("jump", s.times, FRAMES_PER_RUN, FRAMES_PER_RUN, TRUE);
    /* The same frames by the main thread's CPU time: on a shared machine a frame's wall
     * time also holds the time it waited for a CPU. */
    report ("jump_cpu", s.cpu_times, FRAMES_PER_RUN, FRAMES_PER_RUN, TRUE);
    report ("page_down_cpu", s.cpu_times, 0, FRAMES_PER_RUN, TRUE);
    g_array_set_size (s.times, 0);
  }
  /* Made by hand, the frames of a list longer than the window came out of a blank table at
   * 10 M messages after some hundred jumps (session 50): said, not hidden. */
  bench_report ("scroll.offscreen_blank_frames", s.blank, "frames of a blank table, of every fourth frame made by hand");
  {
    guint looked = (s.made + 3) / 4;

    bench_report_ratio ("offscreen_frames_drawn", looked > 0 ? (double) (looked - s.blank) / looked : 0, ">=", 1);
  }
  /* The figures of GTK's own frames in a window of their own: after the frames made by
   * hand above (and their window moves), GTK 4.8 drew the table blank in every frame that
   * followed at 10 M and 100 M messages (table_drawn_after_*, session 50). */
  gtk_window_destroy (s.window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  view = present_view (document, state, &s.window);
  if (view == NULL)
    {
      g_array_unref (s.times);
      g_array_unref (s.cpu_times);
      g_rand_free (s.rand);
      return;
    }
  s.adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (strobe_log_view_get_column_view (view)));
  s.jump_adj = strobe_log_rows_is_windowed (strobe_log_view_get_rows (view))
               ? strobe_log_window_get_adjustment (strobe_log_view_get_window (view)) : s.adj;
  window_shifts (view);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (s.window));
  paint_id = g_signal_connect_after (clock, "after-paint", G_CALLBACK (after_paint_cb), &s);
  gtk_widget_add_tick_callback (GTK_WIDGET (s.window), tick_cb, &s, NULL);
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (!s.done && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, paint_id);
  bench_report ("rss.trace_shown", bench_rss_mib (), "MiB (with the log view on screen, after scrolling)");

  bench_report ("scroll.rows", (double) g_list_model_get_n_items (G_LIST_MODEL (strobe_log_view_get_list (view))), "rows");
  if (s.times->len >= ONSCREEN_FRAMES / 2)
    report ("onscreen_jump", s.times, 0, s.times->len, FALSE);
  else
    printf ("scroll: only %u frames were painted on screen\n", s.times->len);
  report_drawn (view, "onscreen_jumps");
  far_jump_stall (view, state, s.rand);
  report_drawn (view, "far_jumps");
  /* Typing a filter with the view on screen, and clearing it: the worker tests, the main
   * thread takes in its results. */
  {
    GtkWidget *entry = find_search_entry (GTK_WIDGET (view));

    if (entry)
      {
        filter_stall ("type_filter", view, entry, "example.org");
        filter_stall ("clear_filter", view, entry, "");
      }
    else
      printf ("type_filter: skipped, no filter entry\n");
  }
  g_array_unref (s.times);
  g_array_unref (s.cpu_times);
  g_rand_free (s.rand);
  gtk_window_destroy (s.window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}
