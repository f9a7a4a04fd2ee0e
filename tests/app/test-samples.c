/* test-samples.c — the Samples panel beside the timers (app/samples), on real traces of
 * tests/sampling's probe:
 *
 * - scope: selecting the probe's "Slow" scope on the timeline fills the panel with exactly
 *   that interval on that thread: the bottom-up tree's heaviest function is leaf_hot with
 *   ≥ 80 % of the samples (as the probe spends ~90 % there), the flame graph draws the
 *   same tree, leaf_hot's callers are slow_work, the scopes leaf_hot dominates include
 *   "Slow", and activating that row selects it on the timeline;
 * - range: a selected range without a scope counts every thread's samples in it;
 * - not permitted: a refusal (the probe told to fail with EACCES) says which setting and
 *   what to do, in the heading and the accessible description;
 * - never on: a trace without the Sampling channel says how to turn it on;
 * - samples only: a trace of samples without scopes opens on the Samples panel;
 * - cut stacks: stacks deeper than their copy are told in a short line, why in a popover.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "strobe-callers-panel.h"
#include "strobe-flame-graph.h"
#include "strobe-sample-model.h"
#include "strobe-sample-row.h"
#include "strobe-scope-search.h"
#include "strobe-timeline-tracks.h"
#include "timeline-common.h"

static const char *probe, *probe_nofp;

/* A trace of @program (the probe) in @mode; @stack_copy: STROBE_SAMPLING_STACK, or NULL. */
static char *
run_program (const char *dir, const char *program, const char *mode, const char *errno_value, const char *channels,
             const char *stack_copy)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s%s-%s%s.strobe", mode, errno_value ? "-refused" : "", channels,
                                           stack_copy ? "-copies" : "");
  char *trace = g_build_filename (dir, name, NULL);

  g_subprocess_launcher_unsetenv (l, "STROBE_TRACEHOST");
  g_subprocess_launcher_setenv (l, "STROBE_TRACE", channels, TRUE);
  g_subprocess_launcher_setenv (l, "STROBE_TRACEFILE", trace, TRUE);
  if (errno_value)
    g_subprocess_launcher_setenv (l, "STROBE_SAMPLING_TEST_ERRNO", errno_value, TRUE);
  if (stack_copy)
    g_subprocess_launcher_setenv (l, "STROBE_SAMPLING_STACK", stack_copy, TRUE);
  p = g_subprocess_launcher_spawn (l, &error, program, mode, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static char *
run_probe_channels (const char *dir, const char *mode, const char *errno_value, const char *channels)
{
  return run_program (dir, probe, mode, errno_value, channels, NULL);
}

static char *
run_probe_mode (const char *dir, const char *mode, const char *errno_value)
{
  return run_probe_channels (dir, mode, errno_value, "cpu,sampling");
}

static const char *trace_dir;
static char *probe_trace, *refused_trace, *states_trace;

static StrobeSamplesPanel *
panel_of (TimelineFixture *f)
{
  StrobeSamplesPanel *panel = strobe_timeline_view_get_samples (f->view);

  g_assert_nonnull (panel);
  strobe_timeline_view_show_side (f->view, "samples");
  return panel;
}

/* The first row of @view's model (a tree list row's item). */
static StrobeSampleRow *
first_row (GtkColumnView *view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, 0);

  g_assert_nonnull (row);
  return gtk_tree_list_row_get_item (row);
}

static gboolean
has_name (GListModel *rows, const char *prefix)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (StrobeSampleRow) r = g_list_model_get_item (rows, i);
      if (g_str_has_prefix (strobe_sample_row_get_name (r), prefix))
        return TRUE;
    }
  return FALSE;
}

static void
test_scope (void)
{
  TimelineFixture f = { 0 };
  StrobeSamplesPanel *panel;
  StrobeTimelineWidget *widget;
  g_autoptr (GArray) matches = NULL;
  g_autoptr (StrobeSampleRow) top = NULL, hot = NULL;
  const StrobeScopeMatch *slow = NULL;
  StrobeScopeRef ref;
  StrobeCostTree *flame_tree;
  GListModel *scopes;
  GtkColumnView *scopes_view;
  guint slow_row = G_MAXUINT;

  timeline_fixture_open (&f, probe_trace, 1400, 900);
  timeline_fixture_settle (&f, 30);
  panel = panel_of (&f);
  widget = strobe_timeline_view_get_timeline (f.view);
  matches = strobe_scope_search (strobe_document_get_timeline (f.document), "Slow", G_MAXUINT, NULL, NULL, NULL);
  for (guint i = 0; i < matches->len; i++)
    if (g_str_equal (strobe_timeline_model_get_name (strobe_document_get_timeline (f.document),
                                                     g_array_index (matches, StrobeScopeMatch, i).name_id), "Slow"))
      slow = &g_array_index (matches, StrobeScopeMatch, i);
  g_assert_nonnull (slow);
  ref = (StrobeScopeRef) { slow->thread_id, slow->depth, slow->name_id, slow->begin, slow->end };
  strobe_timeline_widget_set_selected_scope (widget, &ref);
  timeline_fixture_settle (&f, 30);

  g_test_message ("heading: %s", strobe_samples_panel_get_heading (panel));
  g_assert_nonnull (strstr (strobe_samples_panel_get_heading (panel), "Scope “Slow”"));
  /* 0.6 s at 1 kHz: hundreds of samples, and only that interval's. */
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), >=, 200);
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), <=, 1000);

  top = first_row (strobe_samples_panel_get_tree_view (panel, TRUE));
  g_assert_cmpstr (strobe_sample_row_get_name (top), ==, "leaf_hot");
  g_assert_cmpfloat (strobe_sample_row_get_share (top), >=, 0.8);

  /* The flame graph draws the panel's top-down tree: its root is every sample. */
  flame_tree = strobe_flame_graph_get_tree (STROBE_FLAME_GRAPH (strobe_samples_panel_get_flame (panel)));
  g_assert_nonnull (flame_tree);
  g_assert_cmpuint (strobe_cost_tree_get_inclusive (flame_tree, 0, 0), ==, strobe_samples_panel_get_total (panel));

  /* Choosing leaf_hot: its caller is slow_work; it dominates the Slow scope. */
  strobe_samples_panel_choose (panel, strobe_sample_row_get_key (top));
  timeline_fixture_settle (&f, 30);
  g_assert_true (has_name (strobe_callers_panel_get_callers (STROBE_CALLERS_PANEL (strobe_samples_panel_get_callers (panel))),
                           "slow_work"));
  scopes = strobe_samples_panel_get_scopes (panel);
  for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
    {
      g_autoptr (StrobeSampleRow) r = g_list_model_get_item (scopes, i);
      if (g_str_has_prefix (strobe_sample_row_get_name (r), "Slow at "))
        {
          slow_row = i;
          g_assert_cmpfloat (strobe_sample_row_get_share (r), >=, 0.8);
        }
    }
  g_assert_cmpuint (slow_row, !=, G_MAXUINT);

  /* Activating it shows that scope on the timeline (it is selected already: unselect). */
  strobe_timeline_widget_set_selected_scope (widget, NULL);
  timeline_fixture_settle (&f, 30);
  gtk_stack_set_visible_child_name (strobe_samples_panel_get_pages (panel), "scopes");
  strobe_samples_panel_choose (panel, strobe_sample_row_get_key (top));
  timeline_fixture_settle (&f, 30);
  scopes_view = NULL;
  {
    GtkWidget *page = gtk_stack_get_visible_child (strobe_samples_panel_get_pages (panel));
    GtkWidget *w = gtk_widget_get_last_child (page);
    scopes_view = GTK_COLUMN_VIEW (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (w)));
  }
  for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
    {
      g_autoptr (StrobeSampleRow) r = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (scopes_view)), i);
      if (g_str_has_prefix (strobe_sample_row_get_name (r), "Slow at "))
        {
          g_signal_emit_by_name (scopes_view, "activate", i);
          break;
        }
    }
  g_assert_nonnull (strobe_timeline_widget_get_selected_scope (widget));
  g_assert_cmpuint (strobe_timeline_widget_get_selected_scope (widget)->name_id, ==, slow->name_id);
  g_assert_cmpuint (strobe_timeline_widget_get_selected_scope (widget)->begin, ==, slow->begin);

  /* Bottom-up's top row is leaf_hot; top-down's root path starts outside it. */
  hot = first_row (strobe_samples_panel_get_tree_view (panel, FALSE));
  g_assert_cmpstr (strobe_sample_row_get_name (hot), !=, "leaf_hot");
  timeline_fixture_close (&f);
}

static void
test_range (void)
{
  TimelineFixture f = { 0 };
  StrobeSamplesPanel *panel;
  StrobeSampleModel *model;
  guint64 first, last, mid;

  timeline_fixture_open (&f, probe_trace, 1400, 900);
  timeline_fixture_settle (&f, 30);
  panel = panel_of (&f);
  model = strobe_document_get_model (f.document, STROBE_TYPE_SAMPLE_MODEL);
  /* Nothing selected: the whole trace. */
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), ==, strobe_sample_model_count (model, 0, 0, G_MAXUINT64));
  g_assert_true (strobe_document_get_extent (f.document, &first, &last));
  mid = first + (last - first) / 2;
  strobe_view_state_set_selection (f.state, first, mid);
  timeline_fixture_settle (&f, 30);
  g_assert_nonnull (strstr (strobe_samples_panel_get_heading (panel), "Selection of "));
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), ==, strobe_sample_model_count (model, 0, first, mid));
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), <, strobe_sample_model_count (model, 0, 0, G_MAXUINT64));
  timeline_fixture_close (&f);
}

/* The pixel at (@x, @y) of @px (@w wide, BGRA premultiplied as GDK downloads it). */
static void
pixel (const guchar *px, int w, int x, int y, double *r, double *g, double *b)
{
  const guchar *p = px + ((gsize) y * (gsize) w + (gsize) x) * 4;

  *b = p[0] / 255.0;
  *g = p[1] / 255.0;
  *r = p[2] / 255.0;
}

static gboolean
saturated (double r, double g, double b)
{
  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 0.3;
}

/* The "states" probe's thread Pattern sleeps, spins and waits in scopes of those names:
 * rendered as GTK draws it, its strip is coloured (running green, preempted amber) in the
 * middle of each Spin and only a grey line in the middle of each Sleep and Wait; the CPU
 * track is there. The picture is written beside the traces (a snapshot of real, timed
 * samples: checked by colour, not against a golden image). */
static void
test_strip (void)
{
  TimelineFixture f = { 0 };
  StrobeTimelineWidget *widget;
  StrobeTrackList *tracks;
  StrobeTimelineModel *timeline;
  g_autoptr (GdkTexture) shot = NULL;
  g_autofree guchar *px = NULL;
  g_autofree char *png = NULL;
  const StrobeTrack *pattern = NULL;
  gboolean cpu = FALSE;
  guint64 a, b;
  int w, h, strip_y = -1;
  guint checked[3] = { 0 };

  timeline_fixture_open (&f, states_trace, 1400, 700);
  timeline_fixture_settle (&f, 30);
  widget = strobe_timeline_view_get_timeline (f.view);
  tracks = strobe_timeline_widget_get_tracks (widget);
  for (guint i = 0; i < strobe_track_list_get_n (tracks); i++)
    {
      const StrobeTrack *t = strobe_track_list_get (tracks, i);
      if (t->kind == STROBE_TRACK_CPU)
        cpu = t->height > 0;
      if (t->kind == STROBE_TRACK_THREAD && g_strcmp0 (t->title, "Pattern") == 0)
        {
          pattern = t;
          g_assert_true (t->sampled);
          strip_y = (int) strobe_timeline_widget_get_track_top (widget, i) + strobe_track_samples_y (t);
        }
    }
  g_assert_true (cpu);
  g_assert_nonnull (pattern);
  g_assert_cmpint (strobe_track_samples_y (pattern), >, 0);

  shot = timeline_render_complete (&f, GTK_WIDGET (widget), 30);
  w = gdk_texture_get_width (shot);
  h = gdk_texture_get_height (shot);
  px = g_malloc ((gsize) w * (gsize) h * 4);
  gdk_texture_download (shot, px, (gsize) w * 4);
  png = g_build_filename (trace_dir, "strip.png", NULL);
  gdk_texture_save_to_png (shot, png);
  g_test_message ("strip snapshot: %s", png);
  g_assert_cmpint (strip_y + STROBE_TRACK_SAMPLES_H, <, h);

  strobe_view_state_get_visible_range (f.state, &a, &b);
  timeline = strobe_document_get_timeline (f.document);
  for (guint k = 0; k < 3; k++)
    {
      static const char *names[] = { "Spin", "Sleep", "Wait" };
      g_autoptr (GArray) m = strobe_scope_search (timeline, names[k], G_MAXUINT, NULL, NULL, NULL);

      for (guint i = 0; m && i < m->len; i++)
        {
          const StrobeScopeMatch *s = &g_array_index (m, StrobeScopeMatch, i);
          guint64 mid = s->begin + (s->end - s->begin) / 2;
          int x = (int) ((double) (mid - a) / (double) (b - a) * w);
          double r, g, bl, lr, lg, lb;
          int run = 0;

          if (!g_str_equal (strobe_timeline_model_get_name (timeline, s->name_id), names[k]) || x < 0 || x >= w)
            continue;
          /* The band's top row (a state's band is there, a wait's line is not) and the
           * line's row. */
          pixel (px, w, x, strip_y + 2, &r, &g, &bl);
          pixel (px, w, x, strip_y + 4, &lr, &lg, &lb);
          if (k == 0)
            {
              /* Spinning: some column near the middle is running or preempted. */
              for (int dx = -3; dx <= 3; dx++)
                {
                  pixel (px, w, x + dx, strip_y + 2, &r, &g, &bl);
                  run += saturated (r, g, bl);
                }
              g_assert_cmpint (run, >, 0);
            }
          else
            {
              g_assert_false (saturated (r, g, bl));
              g_assert_false (saturated (lr, lg, lb));
              g_assert_cmpfloat (fabs (lr - r) + fabs (lg - g) + fabs (lb - bl), >, 0.1);
            }
          checked[k]++;
        }
    }
  g_assert_cmpuint (checked[0], >=, 2);
  g_assert_cmpuint (checked[1], >=, 2);
  g_assert_cmpuint (checked[2], >=, 2);
  timeline_fixture_close (&f);
}

static void
test_not_permitted (void)
{
  TimelineFixture f = { 0 };
  StrobeSamplesPanel *panel;
  const char *heading;

  timeline_fixture_open (&f, refused_trace, 1400, 900);
  timeline_fixture_settle (&f, 30);
  panel = panel_of (&f);
  heading = strobe_samples_panel_get_heading (panel);
  g_assert_nonnull (strstr (heading, "No samples: sampling was not permitted"));
  /* What to do about it. */
  g_assert_nonnull (strstr (heading, "CAP_PERFMON"));
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), ==, 0);
  timeline_fixture_close (&f);
}

static void
test_never_on (void)
{
  TimelineFixture f = { 0 };
  g_autofree char *golden = g_build_filename (g_getenv ("GOLDEN_DIR"), "golden-timeline.strobe", NULL);

  timeline_fixture_open (&f, golden, 1400, 900);
  timeline_fixture_settle (&f, 30);
  g_assert_nonnull (strstr (strobe_samples_panel_get_heading (panel_of (&f)), "Sampling channel was never on"));
  timeline_fixture_close (&f);
}

/* A profile without scopes (strobe-cli run --sample of an unmodified program) opens on the
 * Samples panel, whole trace, and the details say the samples are its story — not the
 * empty timers table and "turn the cpu channel on" alone. */
static void
test_samples_only (void)
{
  TimelineFixture f = { 0 };
  g_autofree char *trace = run_probe_channels (trace_dir, "attribution", NULL, "sampling");
  StrobeSamplesPanel *panel;

  timeline_fixture_open (&f, trace, 1400, 900);
  timeline_fixture_settle (&f, 30);
  panel = strobe_timeline_view_get_samples (f.view);
  g_test_message ("details: %s", strobe_timeline_view_get_details (f.view));
  g_assert_true (g_str_has_prefix (strobe_timeline_view_get_details (f.view),
                                   "No CPU scopes in this trace, only samples\n"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (panel)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (strobe_timeline_view_get_timers (f.view))));
  g_assert_nonnull (strstr (strobe_samples_panel_get_heading (panel), "The whole trace"));
  g_assert_cmpuint (strobe_samples_panel_get_total (panel), >=, 200);
  /* The user's choice stands: back on the timers, the panel stays there. */
  strobe_timeline_view_show_side (f.view, "timers");
  timeline_fixture_settle (&f, 5);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (strobe_timeline_view_get_timers (f.view))));
  timeline_fixture_close (&f);
}

/* Stacks deeper than their copy (the probe built without frame pointers, its 16 KiB frame
 * past an 8 KiB copy): a short line above the trees says how many are incomplete, its Why?
 * button tells the rest — the whole note, which the heading's scrolled box showed cut
 * mid-sentence in a side panel's width — and the accessible description holds it all. */
static void
test_cut_stacks (void)
{
  TimelineFixture f = { 0 };
  g_autofree char *trace = run_program (trace_dir, probe_nofp, "bigframe", NULL, "sampling", "8192");
  StrobeSamplesPanel *panel;
  const char *line, *heading;

  timeline_fixture_open (&f, trace, 1400, 900);
  timeline_fixture_settle (&f, 30);
  panel = strobe_timeline_view_get_samples (f.view);
  heading = strobe_samples_panel_get_heading (panel);
  line = strobe_samples_panel_get_cut_line (panel);
  g_test_message ("heading: %s", heading);
  g_test_message ("cut line: %s", line ? line : "(none)");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_suffix (line, "% of the sampled call stacks are incomplete"));
  /* The note, whichever it is (the kernel may shorten the copies: then it says how far). */
  g_assert_nonnull (strstr (heading, "\n"));
  g_assert_nonnull (strstr (heading, "STROBE_SAMPLING_STACK="));
  g_assert_nonnull (strstr (strobe_samples_panel_get_cut_note (panel), "STROBE_SAMPLING_STACK="));
  g_assert_true (g_str_has_suffix (heading, strobe_samples_panel_get_cut_note (panel)));
  timeline_fixture_close (&f);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int rc;

  gtk_test_init (&argc, &argv, NULL);
  probe = g_getenv ("SAMPLING_PROBE");
  probe_nofp = g_getenv ("SAMPLING_PROBE_NOFP");
  g_assert_nonnull (probe);
  g_assert_nonnull (probe_nofp);
  dir = g_dir_make_tmp ("strobe-app-samples-XXXXXX", NULL);
  trace_dir = dir;
  probe_trace = run_probe_mode (dir, "attribution", NULL);
  refused_trace = run_probe_mode (dir, "attribution", "13");
  states_trace = run_probe_mode (dir, "states", NULL);
  g_test_add_func ("/samples/scope", test_scope);
  g_test_add_func ("/samples/range", test_range);
  g_test_add_func ("/samples/strip", test_strip);
  g_test_add_func ("/samples/not-permitted", test_not_permitted);
  g_test_add_func ("/samples/never-on", test_never_on);
  g_test_add_func ("/samples/samples-only", test_samples_only);
  g_test_add_func ("/samples/cut-stacks", test_cut_stacks);
  rc = g_test_run ();
  g_unlink (probe_trace);
  g_unlink (refused_trace);
  g_unlink (states_trace);
  g_free (states_trace);
  {
    g_autofree char *png = g_build_filename (dir, "strip.png", NULL);
    g_unlink (png);
  }
  g_rmdir (dir);
  g_free (probe_trace);
  g_free (refused_trace);
  return rc;
}
