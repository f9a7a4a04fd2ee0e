/* strobe-bench-memory-view.c — the memory view's figures on a trace the runtime writes
 * here: 10 M allocations with 50 k distinct call stacks (made up by a stack walker of
 * ours, eight calling functions at frame #0), 30 tags and three heaps, in three patterns
 * so that every query has about a million answers:
 *
 *   P  1 M blocks allocated in the first 40 % of the trace, freed between 60 and 80 %
 *   L  1 M blocks allocated in the last 20 %, never freed (the leaks)
 *   T  8 M temporary blocks throughout, each freed right after it is made
 *
 *   load.*, model.*  the trace into a StrobeDocument; the memory model's bytes per allocation
 *   query.*          each allocation list over ~1 M answers (target ≤ 1000 ms, aim 200),
 *                    grouping and sorting one, aggregations over a 1 M-allocation range;
 *                    next to copying the same 1 M records out of the model (the floor);
 *                    the heap a list of every allocation takes, per answer (≤ 8 bytes)
 *   tree.*           top-down and bottom-up call trees and the caller/callee table of the
 *                    whole trace and of a tenth of it
 *   series.*         the graphs' samples (every tag and heap) of the whole trace and a tenth
 *   frame.*          the real StrobeMemoryView at 1920×1080 in a window, rendered offscreen
 *                    with GSK's cairo renderer, while another view pans and zooms the shared
 *                    range frame after frame: median (target ≤ 8 ms) and maximum (≤ 16 ms);
 *                    and how long new samples take to show (informative). Needs a display
 *                    (xvfb-run), skipped without one.
 *   load.hidden, .view_shown  the trace read in the document's thread with no page shown and
 *                    with the Memory page shown, its graphs following the growing trace:
 *                    the ratio ≤ 1.5 (the graphs must not hold the reading back)
 *
 * Usage: strobe-bench-memory-view [--quick] [--dir DIR] [--allocations N] [--trace FILE]
 *                                  [--queries-only [--rounds N]] [--series-only] [--loads-only]
 *   (--quick: 2 M allocations, 10 k stacks; --allocations: N instead of 10 M, the same
 *   patterns in proportion; --trace: the queries on a trace written before — e.g.
 *   strobe-bench-scale's 100 M allocations, issue 20's size — read, never written or
 *   removed, its answers whatever its pattern gives; --queries-only: the queries alone,
 *   --rounds N times in one process, to compare two builds on a noisy machine)
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <time.h>
#include <gtk/gtk.h>

#include <strobe/strobe.h>

#include "bench-common.h"
#include "bench-widget.h"
#include "strobe-x11-shm.h"
#include "strobe-document.h"
#include "strobe-memory-callers.h"
#include "strobe-memory-query.h"
#include "strobe-memory-series.h"
#include "strobe-memory-model-private.h"
#include "strobe-memory-symbols.h"
#include "strobe-memory-view.h"

#define N_TAGS  30
#define N_SITES 8
#define FRAMES  300

static gboolean quick;
static gboolean queries_only;
static gboolean series_only;
static gboolean loads_only;
static gint rounds = 1;
static gint64 n_allocs_arg;
static const char *bench_dir, *trace_arg;
static guint64 n_allocs;
static guint n_stacks;

/* ---- the trace ------------------------------------------------------------------------------ */

static __thread guint current_stack;

/* Callers above frame #0: the stack's number in base 8, one digit a frame, 6 to 9 deep. */
static int
walker (void **frames, int max)
{
  int n = 0;
  guint s = current_stack, depth = 6 + s % 4;

  for (int i = 0; i < 4 && n < max; i++)
    frames[n++] = NULL;
  for (guint k = 0; k < depth && n < max; k++, s /= 8)
    frames[n++] = (void *) (uintptr_t) (0x7f0000000000ull + (guint64) k * 0x100000 + (guint64) (s % 8) * 0x40 +
                                        (guint64) (k < 6 ? 0 : current_stack % 64) * 0x1000);
  return n;
}

static uint32_t heaps[3], tags[N_TAGS];

#define SITE(k)                                                                                  \
  static __attribute__ ((noinline)) void site_##k (guint64 a, guint64 size, guint32 heap)         \
  {                                                                                              \
    strobe_memory_alloc ((const void *) (uintptr_t) a, size, 0, heap);                           \
    __asm__ volatile ("" ::: "memory");                                                          \
  }
SITE (0) SITE (1) SITE (2) SITE (3) SITE (4) SITE (5) SITE (6) SITE (7)

static void (*const sites[N_SITES]) (guint64, guint64, guint32) = {
  site_0, site_1, site_2, site_3, site_4, site_5, site_6, site_7,
};

static void
alloc_one (guint64 address, guint64 x)
{
  guint s = (guint) (x % n_stacks);
  guint64 size = 16 + (x >> 20) % 4080;

  current_stack = s;
  strobe_memory_tag_push (tags[s % N_TAGS]);
  sites[s % N_SITES] (address, size, heaps[s % 3]);
  strobe_memory_tag_pop ();
}

static guint32
heap_of (guint64 x)
{
  return heaps[(guint) (x % n_stacks) % 3];
}

static guint64
mix (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  return x;
}

#define P_BASE 0x100000000000ull
#define L_BASE 0x200000000000ull
#define T_BASE 0x300000000000ull

/* Slots in order: P among the first 40 %, P's frees between 60 and 80 %, L in the last
 * 20 %, temporaries everywhere else. */
static void
write_trace (const char *path)
{
  guint64 slots = n_allocs, p = 0, p_freed = 0, l = 0, tmp = 0, n_p = n_allocs / 10;

  if (!strobe_output_file (path))
    g_error ("cannot open %s: %s", path, g_strerror (errno));
  for (guint64 i = 0; i < slots; i++)
    {
      double f = (double) i / (double) slots;
      guint64 x = mix (i + 1);

      if (f < 0.4 && i % 4 == 0 && p < n_p)
        alloc_one (P_BASE + 16 * p++, x);
      else if (f >= 0.6 && f < 0.8 && i % 2 == 0 && p_freed < n_p)
        {
          guint64 k = p_freed++;
          strobe_memory_free ((const void *) (uintptr_t) (P_BASE + 16 * k), heap_of (mix (k * 4 + 1)));
          /* and a temporary in the same slot, so the count of allocations stays */
          alloc_one (T_BASE, x);
          strobe_memory_free ((const void *) (uintptr_t) T_BASE, heap_of (x));
          tmp++;
        }
      else if (f >= 0.8 && i % 2 == 0 && l < n_p)
        alloc_one (L_BASE + 16 * l++, x);
      else
        {
          alloc_one (T_BASE, x);
          strobe_memory_free ((const void *) (uintptr_t) T_BASE, heap_of (x));
          tmp++;
        }
      if ((i & 0xffff) == 0xffff)
        strobe_flush ();
    }
  strobe_flush ();
  strobe_output_stop ();
  bench_report ("trace.persistent", (double) p, "allocations (P)");
  bench_report ("trace.leaks", (double) l, "allocations (L)");
  bench_report ("trace.temporary", (double) tmp, "allocations (T)");
}

/* ---- queries --------------------------------------------------------------------------------- */

static double
ms_since (double t0)
{
  return (bench_now_ns () - t0) / 1e6;
}

static guint64
time_of (StrobeMemoryModel *m, guint64 index)
{
  StrobeMemoryAlloc r;

  strobe_memory_model_get_alloc (m, MIN (index, strobe_memory_model_get_count (m) - 1), &r);
  return r.alloc_time;
}

static void
report_query (const char *name, double ms, guint64 answers)
{
  g_autofree char *n_name = g_strdup_printf ("query.%s_answers", name);
  g_autofree char *t_name = g_strdup_printf ("query.%s", name);
  g_autofree char *r_name = g_strdup_printf ("query_%s_ms", name);
  g_autofree char *a_name = g_strdup_printf ("query_%s_aim_ms", name);

  bench_report (t_name, ms, "ms");
  bench_report (n_name, (double) answers, "allocations");
  bench_report_ratio (r_name, ms, "<=", 1000);
  bench_report_ratio (a_name, ms, "<=", 200);
  if (trace_arg)
    {
      /* Issue 20: any query at 100 M allocations within 2 s, whatever its answer's size. */
      g_autofree char *i_name = g_strdup_printf ("query_%s_issue20_ms", name);
      bench_report_ratio (i_name, ms, "<=", 2000);
    }
}

static void
bench_queries (StrobeMemoryModel *m)
{
  guint64 n = strobe_memory_model_get_count (m);
  guint64 t0 = time_of (m, 0), t40 = time_of (m, n * 4 / 10), t50 = time_of (m, n / 2), t525 = time_of (m, n * 525 / 1000);
  guint64 t60 = time_of (m, n * 6 / 10), t70 = time_of (m, n * 7 / 10);
  guint64 lifetime = (t525 - t40) / 1000;
  const struct { const char *name; StrobeMemorySelection sel; } selections[] = {
    { "live_at", { STROBE_MEMORY_SELECT_LIVE_AT, t50, 0, 0 } },
    { "allocated", { STROBE_MEMORY_SELECT_ALLOCATED, t40, t525, 0 } },
    { "growth", { STROBE_MEMORY_SELECT_ALLOCATED_LIVE, t0, t40, t50 } },
    { "freed", { STROBE_MEMORY_SELECT_FREED, t60, t70, 0 } },
    { "leaks", { STROBE_MEMORY_SELECT_LEAKS, 0, 0, 0 } },
    { "short_lived", { STROBE_MEMORY_SELECT_SHORT_LIVED, t40, t525, lifetime } },
    { "long_lived", { STROBE_MEMORY_SELECT_LONG_LIVED, t0, t40, lifetime } },
  };
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (m);
  g_autoptr (StrobeMemoryAllocList) live = NULL;
  double t;

  /* The floor: the same number of records copied out of the model, one page at a time. */
  {
    g_autofree StrobeMemoryAlloc *page = g_new (StrobeMemoryAlloc, 4096);
    g_autofree guint64 *idx = g_new (guint64, 4096);
    guint64 want = MIN (n, (guint64) 1000000);

    t = bench_now_ns ();
    for (guint64 at = 0; at < want; at += 4096)
      {
        guint k = (guint) MIN ((guint64) 4096, want - at);
        for (guint i = 0; i < k; i++)
          idx[i] = at + i;
        strobe_memory_model_get_allocs (m, idx, k, page);
      }
    bench_report ("query.baseline_copy_1m", ms_since (t), "ms (copying 1 M records out, the floor)");
  }
  for (guint i = 0; i < G_N_ELEMENTS (selections); i++)
    {
      g_autoptr (StrobeMemoryAllocList) list = NULL;

      t = bench_now_ns ();
      list = strobe_memory_model_select (m, &selections[i].sel, NULL, NULL, NULL, NULL);
      report_query (selections[i].name, ms_since (t), strobe_memory_alloc_list_get_n_items (list));
      if (i == 0)
        live = g_steal_pointer (&list);
    }
  /* What an answer holds: every allocation of the trace listed (the heap it took). */
  {
    StrobeMemorySelection every = { STROBE_MEMORY_SELECT_ALLOCATED, 0, G_MAXUINT64 - 1, 0 };
    g_autoptr (StrobeMemoryAllocList) list = NULL;
    struct mallinfo2 before = mallinfo2 (), after;

    list = strobe_memory_model_select (m, &every, NULL, NULL, NULL, NULL);
    after = mallinfo2 ();
    if (list != NULL && strobe_memory_alloc_list_get_n_items (list) > 0)
      bench_report_ratio ("query_list_bytes_per_answer",
                          (double) ((after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd))
                            / (double) strobe_memory_alloc_list_get_n_items (list), "<=", 8);
  }
  /* What the table does with an answer: sort it by a column, group it. */
  t = bench_now_ns ();
  g_assert_true (strobe_memory_alloc_list_sort (live, STROBE_MEMORY_FIELD_SIZE, TRUE, NULL));
  report_query ("sort_by_size", ms_since (t), strobe_memory_alloc_list_get_n_items (live));
  {
    static const struct { const char *name; StrobeMemoryGroupBy by; } groups[] = {
      { "group_by_tag", STROBE_MEMORY_BY_TAG }, { "group_by_function", STROBE_MEMORY_BY_FUNCTION },
      { "group_by_stack", STROBE_MEMORY_BY_STACK },
    };

    for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
      {
        g_autoptr (StrobeMemoryAggregate) agg = NULL;

        t = bench_now_ns ();
        agg = strobe_memory_alloc_list_group (live, m, groups[i].by, strobe_memory_symbolizer_frame_func, sym, NULL, NULL);
        report_query (groups[i].name, ms_since (t), strobe_memory_alloc_list_get_n_items (live));
      }
  }
  /* Aggregations over a range of about 1 M allocations, peak and all. */
  {
    static const struct { const char *name; StrobeMemoryGroupBy by; } aggs[] = {
      { "aggregate_by_stack", STROBE_MEMORY_BY_STACK }, { "aggregate_by_function", STROBE_MEMORY_BY_FUNCTION },
      { "aggregate_by_tag", STROBE_MEMORY_BY_TAG }, { "aggregate_by_size", STROBE_MEMORY_BY_SIZE },
    };
    guint64 a = t40, b = time_of (m, n * 5 / 10);

    for (guint i = 0; i < G_N_ELEMENTS (aggs); i++)
      {
        g_autoptr (StrobeMemoryAggregate) agg = NULL;

        t = bench_now_ns ();
        agg = strobe_memory_model_aggregate (m, a, b, aggs[i].by, strobe_memory_symbolizer_frame_func, sym,
                                             NULL, NULL, NULL, NULL);
        report_query (aggs[i].name, ms_since (t), n / 10);
      }
  }
}

static void
bench_trees (StrobeMemoryModel *m, guint64 a, guint64 b, const char *what)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (m);
  g_autoptr (StrobeMemoryTree) td = NULL, bu = NULL;
  g_autoptr (StrobeMemoryCallers) callers = NULL;
  g_autofree char *n_td = g_strdup_printf ("tree.%s_top_down", what), *n_bu = g_strdup_printf ("tree.%s_bottom_up", what);
  g_autofree char *n_cc = g_strdup_printf ("tree.%s_callers", what), *n_nodes = g_strdup_printf ("tree.%s_nodes", what);
  g_autofree char *r_td = g_strdup_printf ("tree_%s_top_down_ms", what), *r_bu = g_strdup_printf ("tree_%s_bottom_up_ms", what);
  double t, ms;

  t = bench_now_ns ();
  td = strobe_memory_model_build_tree (m, a, b, STROBE_MEMORY_TREE_TOP_DOWN, strobe_memory_symbolizer_frame_func, sym,
                                       NULL, NULL, NULL, NULL);
  ms = ms_since (t);
  bench_report (n_td, ms, "ms");
  bench_report_ratio (r_td, ms, "<=", 1000);
  bench_report (n_nodes, strobe_memory_tree_get_n_nodes (td), "nodes (top-down)");
  t = bench_now_ns ();
  bu = strobe_memory_model_build_tree (m, a, b, STROBE_MEMORY_TREE_BOTTOM_UP, strobe_memory_symbolizer_frame_func, sym,
                                       NULL, NULL, NULL, NULL);
  ms = ms_since (t);
  bench_report (n_bu, ms, "ms");
  bench_report_ratio (r_bu, ms, "<=", 1000);
  t = bench_now_ns ();
  callers = strobe_memory_callers_new (td, NULL, NULL);
  bench_report (n_cc, ms_since (t), "ms");
}

static void
bench_series (StrobeMemoryModel *m, guint64 a, guint64 b, const char *what)
{
  g_autofree char *name = g_strdup_printf ("series.%s_1900_points", what);
  g_autofree char *totals = g_strdup_printf ("series.%s_totals_only", what);
  g_autoptr (StrobeMemorySeries) s = NULL, s0 = NULL;
  double t;

  t = bench_now_ns ();
  s = strobe_memory_model_build_series (m, a, b, 1900, 8, NULL, NULL, NULL, NULL);
  bench_report (name, ms_since (t), "ms (every tag and heap, from the model's checkpoints)");
  t = bench_now_ns ();
  s0 = strobe_memory_model_build_series (m, a, b, 1900, 0, NULL, NULL, NULL, NULL);
  bench_report (totals, ms_since (t), "ms (live bytes, counts, rates)");
}

/* The graphs' series of the whole trace, then of a tenth of it. */
static void
bench_all_series (StrobeMemoryModel *m, const StrobeMemorySummary *s)
{
  bench_series (m, s->first_time, s->last_time + 1, "whole");
  bench_series (m, s->first_time + (s->last_time - s->first_time) * 45 / 100,
                s->first_time + (s->last_time - s->first_time) * 55 / 100, "tenth");
  bench_report ("series.checkpoint_bytes_per_alloc",
                (double) strobe_memory_series_cache_bytes (strobe_memory_model_series_cache (m)) / (double) s->allocs,
                "B (the model's checkpoints for the graphs, in model.bytes_per_alloc)");
}

/* ---- frames ---------------------------------------------------------------------------------- */

static double
cpu_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/* One frame of the graphs: their snapshot as their window takes it (what did not change
 * comes from their caches), rendered to a texture of their size. */
static double
frame (GtkWidget *graph, GskRenderer *renderer, GArray *cpu)
{
  int w = gtk_widget_get_width (graph), h = gtk_widget_get_height (graph);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  double t0 = bench_now_ns (), c0 = cpu_now_ns ();

  gtk_widget_snapshot_child (gtk_widget_get_parent (graph), graph, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node != NULL)
    texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  {
    double c = (cpu_now_ns () - c0) / 1e6;
    g_array_append_val (cpu, c);
  }
  return (bench_now_ns () - t0) / 1e6;
}

/* Wall time per frame (the targets), and the main thread's own CPU time per frame: on a
 * loaded 2-core machine the rest of a long frame is the scheduler's (the samples' thread
 * and other programs run meanwhile). */
static void
report_frames (const char *name, GArray *times, GArray *cpu)
{
  g_autofree char *median = g_strdup_printf ("frame.%s_median", name), *max = g_strdup_printf ("frame.%s_max", name);
  g_autofree char *p95 = g_strdup_printf ("frame.%s_p95", name);
  g_autofree char *cpu_med = g_strdup_printf ("frame.%s_cpu_median", name), *cpu_max = g_strdup_printf ("frame.%s_cpu_max", name);
  g_autofree char *rmed = g_strdup_printf ("frame_%s_median_ms", name), *rmax = g_strdup_printf ("frame_%s_max_ms", name);
  g_autofree char *rcpu = g_strdup_printf ("frame_%s_cpu_max_ms", name);
  double *v = (double *) (void *) times->data, *c = (double *) (void *) cpu->data, m, cm;
  guint n = times->len;

  m = bench_median (v, (int) n);
  cm = bench_median (c, (int) n);
  bench_report (median, m, "ms");
  bench_report (p95, v[n * 95 / 100], "ms");
  bench_report (max, v[n - 1], "ms");
  bench_report (cpu_med, cm, "ms (the main thread's own CPU time)");
  bench_report (cpu_max, c[n - 1], "ms");
  bench_report_ratio (rmed, m, "<=", 8);
  bench_report_ratio (rmax, v[n - 1], "<=", 16);
  bench_report_ratio (rcpu, c[n - 1], "<=", 16);
}

static void
bench_frames (StrobeDocument *doc)
{
  g_autoptr (StrobeViewState) state = NULL;
  g_autoptr (GArray) pan = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) still = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) latency = g_array_new (FALSE, FALSE, sizeof (double));
  GtkWindow *window;
  StrobeMemoryView *view;
  StrobeMemoryGraph *graph;
  GskRenderer *renderer;
  StrobeMemorySummary s;
  guint64 first, span;
  g_autoptr (GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 deadline;

  bench_view_process ();
  if (!bench_view_gtk_init ())
    {
      printf ("frame: skipped, no display (run under xvfb-run -a)\n");
      return;
    }
  state = strobe_view_state_new ();
  view = STROBE_MEMORY_VIEW (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, doc, state));
  graph = strobe_memory_view_get_graph (view);
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1920, 1080);
  gtk_window_set_child (window, GTK_WIDGET (view));
  strobe_x11_shm_keep (window);
  gtk_window_present (window);
  /* The first answers: the graph, the leaks query, the trees of the whole trace. */
  deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while ((!gtk_widget_get_mapped (GTK_WIDGET (graph)) || gtk_widget_get_width (GTK_WIDGET (graph)) < 100 ||
          !strobe_memory_graph_is_ready (graph) ||
          strobe_memory_view_is_analysing (view)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  bench_report ("frame.renderer", 0, G_OBJECT_TYPE_NAME (renderer));
  bench_report ("frame.graph_width", gtk_widget_get_width (GTK_WIDGET (graph)), "px");
  bench_report ("frame.graph_height", gtk_widget_get_height (GTK_WIDGET (graph)), "px");
  strobe_memory_model_get_summary (strobe_document_get_memory (doc), &s);
  first = s.first_time;
  span = s.last_time - s.first_time;

  /* The hover moving over a still graph: the cached drawing alone. */
  for (guint f = 0; f < FRAMES / 2; f++)
    {
      double ms;

      strobe_view_state_set_hover (state, first + span / (FRAMES / 2) * f);
      ms = frame (GTK_WIDGET (graph), renderer, cpu);
      g_array_append_val (still, ms);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  report_frames ("hover", still, cpu);
  g_array_set_size (cpu, 0);

  /* Another view pans and zooms the shared range, a step per frame; the samples of each
   * new range arrive from their thread meanwhile and are drawn when they do. */
  for (guint f = 0; f < FRAMES; f++)
    {
      double zoom = 1.0 / (1.0 + (double) (f % 100) / 10.0), ms;
      guint64 width = (guint64) ((double) span * zoom), start = first + (span - width) / FRAMES * f;
      gint64 until = g_get_monotonic_time () + 16000;

      strobe_view_state_set_visible_range (state, start, start + MAX (width, 1));
      ms = frame (GTK_WIDGET (graph), renderer, cpu);
      g_array_append_val (pan, ms);
      /* The rest of a 60 Hz frame for the main loop (answers that came in). */
      while (g_get_monotonic_time () < until)
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (500);
    }
  report_frames ("pan_zoom", pan, cpu);

  /* How long a jump's samples take to be drawn (a thread walking the window's events). */
  for (guint k = 0; k < 12; k++)
    {
      guint64 width = span / (1 + k % 4 * 3), start = first + (span - width) / 12 * k;
      double t0 = bench_now_ns (), ms;

      strobe_view_state_set_visible_range (state, start, start + MAX (width, 1));
      deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
      while (!strobe_memory_graph_is_ready (graph) && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, TRUE);
      ms = ms_since (t0);
      g_array_append_val (latency, ms);
    }
  {
    double *v = (double *) (void *) latency->data;
    double m = bench_median (v, (int) latency->len);

    bench_report ("frame.new_samples_median", m, "ms (range set → its samples drawn)");
    bench_report ("frame.new_samples_max", v[latency->len - 1], "ms");
  }
  bench_report ("rss.view_shown", bench_rss_mib (), "MiB");
  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  gboolean *done = user_data;

  strobe_document_load_finish (STROBE_DOCUMENT (source), result, NULL);
  *done = TRUE;
}

/* Reads @file in the document's thread, as the viewer does, with the Memory page shown
 * (@shown) or not; returns the seconds it took. */
static double
load_timed (GFile *file, gboolean shown)
{
  g_autoptr (StrobeDocument) doc = NULL;
  g_autoptr (StrobeViewState) state = NULL;
  GtkWindow *window = NULL;
  gboolean done = FALSE;
  double t;

  doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_INFO | STROBE_DOCUMENT_MODEL_THREADS | STROBE_DOCUMENT_MODEL_MEMORY);
  if (shown)
    {
      state = strobe_view_state_new ();
      window = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_default_size (window, 1920, 1080);
      gtk_window_set_child (window, GTK_WIDGET (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, doc, state)));
      strobe_x11_shm_keep (window);
      gtk_window_present (window);
    }
  t = bench_now_ns ();
  strobe_document_load_async (doc, NULL, loaded_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  t = ms_since (t) / 1e3;
  if (window)
    gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return t;
}

/* Reading a trace with the Memory page shown — its graphs following the trace as it
 * grows — against reading it with no page shown: the graphs must not hold the reading back. */
static void
bench_load_shown (GFile *file)
{
  double hidden, shown;

  if (!gtk_is_initialized ())
    return;
  hidden = load_timed (file, FALSE);
  shown = load_timed (file, TRUE);
  bench_report ("load.hidden", hidden, "s (read in the document's thread, no page shown)");
  bench_report ("load.view_shown", shown, "s (the Memory page shown meanwhile)");
  bench_report_ratio ("load_view_shown_vs_hidden", shown / hidden, "<=", 1.5);
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("— memory view benchmarks");
  g_autoptr (GError) error = NULL;
  g_autofree char *tmp = NULL, *path = NULL;
  g_autoptr (StrobeDocument) doc = NULL;
  g_autoptr (GFile) file = NULL;
  GOptionEntry entries[] = {
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A smaller trace (2 M allocations, 10 k stacks)", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_dir, "Where the trace goes (default: a temp dir)", "DIR" },
    { "allocations", 0, 0, G_OPTION_ARG_INT64, &n_allocs_arg, "Allocations to write (issue 20 asks 100 M: queries ≤ 2 s)", "N" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_arg, "Read this trace instead of writing one (never removed)", "FILE" },
    { "queries-only", 0, 0, G_OPTION_ARG_NONE, &queries_only, "Only the queries (no trees, graphs, frames, loads)", NULL },
    { "series-only", 0, 0, G_OPTION_ARG_NONE, &series_only, "The queries and the graphs' series (no trees, frames, loads)", NULL },
    { "loads-only", 0, 0, G_OPTION_ARG_NONE, &loads_only, "Only the trace read with and without the Memory page shown", NULL },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "With --queries-only: run them this many times (default 1)", "N" },
    { NULL },
  };
  StrobeInitOptions options = { 0 };
  StrobeMemoryModel *m;
  StrobeMemorySummary s;
  double t, rss0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  n_allocs = n_allocs_arg > 0 ? (guint64) n_allocs_arg : quick ? 2000000 : 10000000;
  n_stacks = quick ? 10000 : 50000;
  if (trace_arg)
    path = g_strdup (trace_arg);
  else
    {
      if (bench_dir == NULL)
        bench_dir = tmp = g_dir_make_tmp ("strobe-bench-memview-XXXXXX", NULL);
      path = g_build_filename (bench_dir, "memview.strobe", NULL);
    }

  options.block_wait_ms = 10000;
  options.control_port = STROBE_CONTROL_NONE;
  options.control_flags = STROBE_CONTROL_NO_DISCOVERY;
  strobe_init (&options);
  strobe_memory_set_stack_walker (walker);
  strobe_memory_set_callstacks (true);
  heaps[0] = STROBE_MEMORY_HEAP_SYSTEM;
  heaps[1] = strobe_memory_heap_register ("Pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  heaps[2] = strobe_memory_heap_register ("Arena", STROBE_MEMORY_NO_PARENT, STROBE_MEMORY_HEAP_ARENA);
  for (guint i = 0; i < N_TAGS; i++)
    {
      g_autofree char *name = g_strdup_printf ("Tag%02u", i);
      tags[i] = strobe_memory_tag_register (name, STROBE_MEMORY_TAG_NONE);
    }
  strobe_channel_set_enabled ("Memory", !trace_arg);
  t = bench_now_ns ();
  if (!trace_arg)
    write_trace (path);
  bench_report ("trace.write", ms_since (t) / 1e3, "s");
  {
    GStatBuf st;
    if (g_stat (path, &st) == 0)
      bench_report ("trace.bytes", (double) st.st_size, "B");
  }

  rss0 = bench_rss_mib ();
  file = g_file_new_for_path (path);
  if (loads_only)
    {
      bench_view_process ();
      if (!bench_view_gtk_init ())
        g_error ("no display: run under xvfb-run -a");
      bench_load_shown (file);
      goto done;
    }
  doc = strobe_document_new (file, STROBE_DOCUMENT_MODEL_INFO | STROBE_DOCUMENT_MODEL_THREADS | STROBE_DOCUMENT_MODEL_MEMORY);
  t = bench_now_ns ();
  if (!strobe_document_load (doc, NULL, &error))
    g_error ("%s: %s", path, error->message);
  bench_report ("load.document", ms_since (t) / 1e3, "s");
  m = strobe_document_get_memory (doc);
  strobe_memory_model_get_summary (m, &s);
  bench_report ("model.allocations", (double) s.allocs, "allocations");
  {
    GStatBuf st;
    if (g_stat (path, &st) == 0 && s.allocs)
      bench_report ("trace.bytes_per_alloc", (double) st.st_size / (double) s.allocs, "B");
  }
  bench_report ("model.stacks", (double) s.stacks, "call-stack nodes");
  bench_report ("model.live_at_end", (double) s.live_count, "allocations");
  bench_report ("model.bytes_per_alloc", (double) strobe_memory_model_get_memory_bytes (m) / (double) s.allocs,
                "B (records, indexes, free log, stacks)");
  bench_report ("rss.trace_open", bench_rss_mib () - rss0, "MiB (more than before)");

  bench_queries (m);
  for (gint r = 1; queries_only && r < rounds; r++)
    bench_queries (m);
  if (series_only)
    bench_all_series (m, &s);
  else if (!queries_only)
    {
      bench_trees (m, 0, G_MAXUINT64, "whole");
      bench_trees (m, s.first_time + (s.last_time - s.first_time) * 45 / 100, s.first_time + (s.last_time - s.first_time) * 55 / 100,
                   "tenth");
      bench_all_series (m, &s);
      bench_frames (doc);

      g_clear_object (&doc);
      bench_load_shown (file);
    }
done:
  if (!trace_arg)
    g_unlink (path);
  if (tmp)
    g_rmdir (tmp);
  return 0;
}
