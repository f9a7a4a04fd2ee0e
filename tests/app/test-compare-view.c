/* test-compare-view.c — the comparison page (app/compare) under Xvfb, on
 * tests/data/golden-compare-{a,b}.strobe (one program, B with Physics twice as slow, a new
 * allocation site and a new warning): the rows the page shows are exactly those changes,
 * sorting, filtering and per-frame figures, the distributions of the selected timer, Enter
 * on a row selecting the scope in A's timeline, Tab going round the page's controls; and a PNG snapshot of the distribution chart within a tolerance
 * (STROBE_UPDATE_SNAPSHOT=1 rewrites tests/data/compare-histogram.png).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>

#include "memory-common.h"
#include "strobe-compare-chart.h"
#include "strobe-compare-items.h"
#include "strobe-compare-view.h"
#include "strobe-format.h"
#include "strobe-memory-functions-panel.h"
#include "strobe-memory-items.h"
#include "strobe-memory-view.h"
#include "tab-walk.h"
#include "test-dirs.h"
#include "widget-find.h"

typedef struct
{
  StrobeDocument  *a, *b;
  StrobeViewState *state;
  GtkWindow       *window;
  StrobeCompareView *view;
} Fixture;

static StrobeDocument *
open_golden (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("GOLDEN_DIR"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  StrobeDocument *document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr(GError) error = NULL;

  strobe_document_load (document, NULL, &error);
  g_assert_no_error (error);
  return document;
}

/* The timer row's longest instance shown in trace @side, waited for. */
static gboolean
show_in (StrobeCompareView *view, guint position, StrobeCompareIn side)
{
  g_autoptr(GAsyncResult) result = NULL;

  strobe_compare_view_show_in_async (view, position, side, async_result_keep, &result);
  return strobe_compare_view_show_in_finish (view, async_result_wait (&result), NULL);
}

static void
wait_ready (Fixture *f)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!strobe_compare_view_is_ready (f->view) && g_get_monotonic_time () < end)
    memory_iterate (10);
  g_assert_true (strobe_compare_view_is_ready (f->view));
  memory_iterate (50);
}

static void
fixture_open (Fixture *f)
{
  f->a = open_golden ("golden-compare-a.strobe");
  f->b = open_golden ("golden-compare-b.strobe");
  f->state = strobe_view_state_new ();
  f->view = STROBE_COMPARE_VIEW (strobe_view_new (STROBE_TYPE_COMPARE_VIEW, f->a, f->state));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, 800);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  strobe_compare_view_set_other (f->view, f->b);
  wait_ready (f);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  memory_iterate (20);
  g_clear_object (&f->state);
  g_clear_object (&f->a);
  g_clear_object (&f->b);
}

static StrobeCompareItem *
find_row (GListModel *rows, const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrobeCompareItem) item = g_list_model_get_item (rows, i);
      if (g_strcmp0 (strobe_compare_item_get_name (item), name) == 0)
        return item;   /* the model keeps it */
    }
  return NULL;
}

static void
assert_close (gdouble a, gdouble b)
{
  g_assert_cmpfloat (fabs (a - b), <=, 1e-6 * MAX (fabs (b), 1e-9));
}

static void
test_rows (void)
{
  Fixture f = { 0 };
  GListModel *timers, *sites, *messages;
  const char *names[] = { "Frame", "Update", "Physics", "AI", "Render" };
  guint new_sites = 0;

  fixture_open (&f);
  timers = strobe_compare_view_get_rows (f.view, "timers");
  g_assert_cmpuint (g_list_model_get_n_items (timers), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      StrobeCompareItem *item = find_row (timers, names[i]);
      gdouble a, b;

      g_assert_nonnull (item);
      g_assert_cmpint (strobe_compare_item_get_in (item), ==, STROBE_COMPARE_IN_BOTH);
      strobe_compare_item_get_metric (item, STROBE_COMPARE_MEAN, &a, &b);
      if (g_str_equal (names[i], "Physics"))
        {
          assert_close (a, 0.001);
          assert_close (b, 0.002);
        }
      else
        assert_close (b, a);
    }
  /* What a person sees in the row: the change in percent. */
  g_assert_nonnull (find_text (GTK_WIDGET (f.view), "+100.0%"));

  sites = strobe_compare_view_get_rows (f.view, "sites");
  g_assert_cmpuint (g_list_model_get_n_items (sites), >=, 3);
  for (guint i = 0; i < g_list_model_get_n_items (sites); i++)
    {
      g_autoptr(StrobeCompareItem) item = g_list_model_get_item (sites, i);
      if (strobe_compare_item_get_in (item) != STROBE_COMPARE_IN_BOTH)
        {
          g_assert_cmpint (strobe_compare_item_get_in (item), ==, STROBE_COMPARE_IN_B);
          new_sites++;
        }
    }
  g_assert_cmpuint (new_sites, ==, 1);
  messages = strobe_compare_view_get_rows (f.view, "messages");
  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, 1);
  {
    g_autoptr(StrobeCompareItem) item = g_list_model_get_item (messages, 0);
    g_assert_cmpint (strobe_compare_item_get_in (item), ==, STROBE_COMPARE_IN_B);
    g_assert_true (g_str_has_prefix (strobe_compare_item_get_name (item), "LogGame: Physics over budget"));
  }
  g_assert_cmpuint (g_list_model_get_n_items (strobe_compare_view_get_rows (f.view, "frames")), ==, 1);
  fixture_close (&f);
}

static StrobeDocument *
new_golden (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("GOLDEN_DIR"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
}

static void
load_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_assert_true (strobe_document_load_finish (STROBE_DOCUMENT (source), result, NULL));
}

/* A trace still being read (A or B) is compared once it is all there, the page saying
 * meanwhile what it waits for: a comparison of the part read so far would call the rest's
 * scopes gone. The rows are then those of traces read first. Counts and bytes read in
 * full ("16 384"), not in %g. */
static void
test_waits_for_reading (void)
{
  for (guint side = 0; side < 2; side++)
    {
      Fixture f = { 0 };
      StrobeDocument *later;
      GtkLabel *status;
      GListModel *timers;

      f.a = side == 0 ? new_golden ("golden-compare-a.strobe") : open_golden ("golden-compare-a.strobe");
      f.b = side == 1 ? new_golden ("golden-compare-b.strobe") : open_golden ("golden-compare-b.strobe");
      later = side == 0 ? f.a : f.b;
      f.state = strobe_view_state_new ();
      f.view = STROBE_COMPARE_VIEW (strobe_view_new (STROBE_TYPE_COMPARE_VIEW, f.a, f.state));
      f.window = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_default_size (f.window, 1200, 800);
      gtk_window_set_child (f.window, GTK_WIDGET (f.view));
      gtk_window_present (f.window);
      strobe_compare_view_set_other (f.view, f.b);
      memory_iterate (50);
      status = GTK_LABEL (find_named (GTK_WIDGET (f.view), "status_label"));
      g_assert_false (strobe_compare_view_is_ready (f.view));
      g_assert_nonnull (strstr (gtk_label_get_text (status), side == 0 ? "trace A" : "trace B"));
      g_assert_true (gtk_widget_get_visible (find_named (GTK_WIDGET (f.view), "progress_bar")));
      timers = strobe_compare_view_get_rows (f.view, "timers");
      g_assert_cmpuint (g_list_model_get_n_items (timers), ==, 0);

      strobe_document_load_async (later, NULL, load_cb, NULL);
      wait_ready (&f);
      g_assert_cmpuint (g_list_model_get_n_items (timers), ==, 5);
      for (guint i = 0; i < g_list_model_get_n_items (timers); i++)
        {
          g_autoptr(StrobeCompareItem) item = g_list_model_get_item (timers, i);
          gdouble a, b;

          g_assert_cmpint (strobe_compare_item_get_in (item), ==, STROBE_COMPARE_IN_BOTH);
          strobe_compare_item_get_metric (item, STROBE_COMPARE_COUNT, &a, &b);
          g_assert_cmpfloat (a, ==, b);
          g_assert_cmpfloat (a, >=, 60);
        }
      g_assert_null (strstr (gtk_label_get_text (status), "Waiting"));
      if (side == 1)
        {
          g_autofree char *grouped = strobe_format_count (16384);

          gtk_stack_set_visible_child_name (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (find_type (GTK_WIDGET (f.view), GTK_TYPE_STACK_SWITCHER))), "memory");
          memory_iterate (100);
          g_assert_nonnull (find_text (GTK_WIDGET (f.view), grouped));
        }
      fixture_close (&f);
    }
}

static GtkColumnViewColumn *
column (GtkColumnView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
      if (g_strcmp0 (gtk_column_view_column_get_title (c), title) == 0)
        return c;
    }
  g_assert_not_reached ();
}

static void
test_sort_filter_normalise (void)
{
  Fixture f = { 0 };
  GListModel *timers;
  GtkColumnView *table;
  GtkDropDown *norm;
  GtkEditable *filter;
  g_autoptr(StrobeCompareItem) first = NULL;
  gdouble a, b;

  fixture_open (&f);
  timers = strobe_compare_view_get_rows (f.view, "timers");
  table = GTK_COLUMN_VIEW (find_named (GTK_WIDGET (f.view), "timers_view"));
  gtk_column_view_sort_by_column (table, column (table, "Mean Δ%"), GTK_SORT_DESCENDING);
  memory_iterate (20);
  first = g_list_model_get_item (timers, 0);
  g_assert_cmpstr (strobe_compare_item_get_name (first), ==, "Physics");

  /* Per frame: Physics' 60 ms in 60 frames is 1 ms a frame in A. */
  norm = GTK_DROP_DOWN (find_named (GTK_WIDGET (f.view), "norm_drop"));
  gtk_drop_down_set_selected (norm, 1);
  memory_iterate (20);
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_INCL, &a, &b);
  assert_close (a, 0.001);
  assert_close (b, 0.002);
  strobe_compare_item_get_metric (find_row (timers, "AI"), STROBE_COMPARE_COUNT, &a, &b);
  assert_close (a, 2);

  filter = GTK_EDITABLE (find_named (GTK_WIDGET (f.view), "filter_entry"));
  gtk_editable_set_text (filter, "phys");
  memory_iterate (300);
  g_assert_cmpuint (g_list_model_get_n_items (timers), ==, 1);
  gtk_editable_set_text (filter, "");
  memory_iterate (300);
  g_assert_cmpuint (g_list_model_get_n_items (timers), ==, 5);

  /* Frames 10–19 of each: ten frames, ten calls. */
  gtk_editable_set_text (GTK_EDITABLE (find_named (GTK_WIDGET (f.view), "range_entry")), "10-19");
  g_signal_emit_by_name (find_named (GTK_WIDGET (f.view), "range_entry"), "activate");
  wait_ready (&f);
  gtk_drop_down_set_selected (norm, 0);
  memory_iterate (20);
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_COUNT, &a, &b);
  assert_close (a, 10);
  assert_close (b, 10);
  fixture_close (&f);
}

static void
test_distribution_and_jump (void)
{
  Fixture f = { 0 };
  GListModel *timers;
  StrobeCompareChart *chart;
  const StrobeCompareHistogram *h;
  guint64 sel0 = 0, sel1 = 0;
  StrobeTraceClock clock;
  gint64 end;
  guint physics = G_MAXUINT;

  fixture_open (&f);
  timers = strobe_compare_view_get_rows (f.view, "timers");
  for (guint i = 0; i < g_list_model_get_n_items (timers); i++)
    {
      g_autoptr(StrobeCompareItem) item = g_list_model_get_item (timers, i);
      if (g_str_equal (strobe_compare_item_get_name (item), "Physics"))
        physics = i;
    }
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (timers), physics, TRUE);
  chart = STROBE_COMPARE_CHART (find_type (GTK_WIDGET (f.view), STROBE_TYPE_COMPARE_CHART));
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (strobe_compare_chart_get_histogram (chart) == NULL && g_get_monotonic_time () < end)
    memory_iterate (10);
  h = strobe_compare_chart_get_histogram (chart);
  g_assert_nonnull (h);
  g_assert_cmpuint (h->n_a, ==, 60);
  /* STROBE_SCREENSHOT_DIR=DIR: the page as the README shows it. */
  if (g_getenv ("STROBE_SCREENSHOT_DIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("STROBE_SCREENSHOT_DIR"), "compare.png", NULL);
      g_autoptr(GdkTexture) shot = NULL;

      memory_iterate (200);
      shot = widget_render (GTK_WIDGET (f.window));
      gdk_texture_save_to_png (shot, path);
    }
  g_assert_cmpuint (h->n_b, ==, 60);
  assert_close (h->median_a, 0.001);
  assert_close (h->median_b, 0.002);
  /* Drawn from the durations the table's pass kept: bin for bin what walking the scopes
   * again gives. */
  {
    StrobeCompareRange whole = { 0 };
    StrobeCompareSpan sa, sb;
    StrobeTraceClock ca, cb;
    g_autoptr(GArray) da = NULL, db = NULL;
    g_autoptr(StrobeCompareHistogram) walked = NULL;

    g_assert_true (strobe_compare_range_resolve (&whole, f.a, &sa, NULL));
    g_assert_true (strobe_compare_range_resolve (&whole, f.b, &sb, NULL));
    strobe_document_get_clock (f.a, &ca);
    strobe_document_get_clock (f.b, &cb);
    da = strobe_compare_durations (f.a, "Physics", &sa, NULL, NULL);
    db = strobe_compare_durations (f.b, "Physics", &sb, NULL, NULL);
    walked = strobe_compare_histogram_new (da, &ca, db, &cb, h->n_bins, h->log);
    g_assert_cmpfloat (walked->lo, ==, h->lo);
    g_assert_cmpfloat (walked->hi, ==, h->hi);
    g_assert_cmpmem (walked->a, h->n_bins * sizeof (guint64), h->a, h->n_bins * sizeof (guint64));
    g_assert_cmpmem (walked->b, h->n_bins * sizeof (guint64), h->b, h->n_bins * sizeof (guint64));
  }

  /* Enter on the row: Physics' longest instance in A becomes the selection. */
  strobe_document_get_clock (f.a, &clock);
  g_signal_emit_by_name (find_named (GTK_WIDGET (f.view), "timers_view"), "activate", physics);
  /* Every Physics of A lasts 1 ms: the selection is one of them, once the worker found it. */
  {
    gint64 until = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

    while (!strobe_view_state_get_selection (f.state, &sel0, &sel1) && g_get_monotonic_time () < until)
      memory_iterate (10);
  }
  g_assert_true (strobe_view_state_get_selection (f.state, &sel0, &sel1));
  assert_close (strobe_trace_clock_duration (&clock, sel1 - sel0), 0.001);

  /* Keyboard: Tab goes round the page's controls. */
  tab_walk_assert (f.window, find_type (GTK_WIDGET (f.view), GTK_TYPE_BUTTON), 30, 6);
  fixture_close (&f);
}

/* What win.show-function was asked (the test's window stands in for StrobeWindow's). */
static char *shown_function[3];

static void
show_function_cb (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  for (guint i = 0; i < 3; i++)
    g_clear_pointer (&shown_function[i], g_free);
  g_variant_get (parameter, "(sss)", &shown_function[0], &shown_function[1], &shown_function[2]);
}

/* Issue 21: a memory row to that allocation site in either trace's own memory view. Enter
 * on a site both traces have: A's memory view (on the same view state) shows the caller/
 * callee tab with that function selected; "Show in B's Memory" asks the window for B's tab,
 * its memory page and that function; a site only B has cannot be shown in A. */
static void
test_site_jump (void)
{
  Fixture f = { 0 };
  GListModel *sites;
  StrobeMemoryView *memory;
  GtkWindow *memory_window;
  StrobeMemoryFunctionsPanel *panel;
  GtkSelectionModel *functions;
  g_autoptr(GSimpleActionGroup) win = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) action = g_simple_action_new ("show-function", G_VARIANT_TYPE ("(sss)"));
  g_autofree char *uri_b = NULL;
  guint both = G_MAXUINT, only_b = G_MAXUINT;
  const char *name;
  gint64 end;

  fixture_open (&f);
  g_signal_connect (action, "activate", G_CALLBACK (show_function_cb), NULL);
  g_action_map_add_action (G_ACTION_MAP (win), G_ACTION (action));
  gtk_widget_insert_action_group (GTK_WIDGET (f.window), "win", G_ACTION_GROUP (win));
  memory = STROBE_MEMORY_VIEW (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, f.a, f.state));
  memory_window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (memory_window, 1000, 700);
  gtk_window_set_child (memory_window, GTK_WIDGET (memory));
  gtk_window_present (memory_window);
  end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  memory_iterate (100);
  while (strobe_memory_view_is_analysing (memory) && g_get_monotonic_time () < end)
    memory_iterate (20);

  sites = strobe_compare_view_get_rows (f.view, "sites");
  for (guint i = 0; i < g_list_model_get_n_items (sites); i++)
    {
      g_autoptr(StrobeCompareItem) item = g_list_model_get_item (sites, i);
      const char *n = strobe_compare_item_get_name (item);

      if (strobe_compare_item_get_in (item) == STROBE_COMPARE_IN_B)
        only_b = i;
      else if (both == G_MAXUINT && n[0] != '(')
        both = i;
    }
  g_assert_cmpuint (both, !=, G_MAXUINT);
  g_assert_cmpuint (only_b, !=, G_MAXUINT);
  {
    g_autoptr(StrobeCompareItem) item = g_list_model_get_item (sites, both);
    name = g_intern_string (strobe_compare_item_get_name (item));
  }

  /* Enter on the row: A's memory view, that function selected. */
  g_signal_emit_by_name (find_named (GTK_WIDGET (f.view), "sites_view"), "activate", both);
  memory_iterate (50);
  g_assert_cmpstr (strobe_view_state_get_selected_function (f.state), ==, name);
  panel = strobe_memory_view_get_callers (memory);
  functions = gtk_column_view_get_model (strobe_memory_functions_panel_get_functions (panel));
  {
    g_autoptr(StrobeMemoryCostItem) selected = NULL;
    guint at = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (functions));

    g_assert_cmpuint (at, !=, GTK_INVALID_LIST_POSITION);
    selected = g_list_model_get_item (G_LIST_MODEL (functions), at);
    g_assert_cmpstr (strobe_memory_cost_item_get_name (selected), ==, name);
  }
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (panel)));

  /* B: the window is asked for B's memory page and the function. */
  g_assert_true (strobe_compare_view_show_site_in (f.view, both, STROBE_COMPARE_IN_B));
  uri_b = g_file_get_uri (strobe_document_get_file (f.b));
  g_assert_cmpstr (shown_function[0], ==, uri_b);
  g_assert_cmpstr (shown_function[1], ==, "memory");
  g_assert_cmpstr (shown_function[2], ==, name);
  /* A site only B has is not in A. */
  g_assert_false (strobe_compare_view_show_site_in (f.view, only_b, STROBE_COMPARE_IN_A));
  g_assert_true (strobe_compare_view_show_site_in (f.view, only_b, STROBE_COMPARE_IN_B));

  gtk_window_destroy (memory_window);
  for (guint i = 0; i < 3; i++)
    g_clear_pointer (&shown_function[i], g_free);
  fixture_close (&f);
}

/* The frame times' page: game frames' distributions of both at once, their counts the
 * table's, the target line where the spin button puts it. */
static void
test_frame_times (void)
{
  Fixture f = { 0 };
  GListModel *frames;
  StrobeCompareChart *chart;
  const StrobeCompareHistogram *h;
  g_autoptr(StrobeCompareItem) game = NULL;
  gint64 end;

  fixture_open (&f);
  frames = strobe_compare_view_get_rows (f.view, "frames");
  g_assert_cmpuint (g_list_model_get_n_items (frames), >=, 1);
  game = g_list_model_get_item (frames, 0);
  g_assert_cmpstr (strobe_compare_item_get_name (game), ==, "frame.game");
  chart = STROBE_COMPARE_CHART (find_named (GTK_WIDGET (f.view), "frames_chart"));
  g_assert_nonnull (chart);
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (strobe_compare_chart_get_histogram (chart) == NULL && g_get_monotonic_time () < end)
    memory_iterate (10);
  h = strobe_compare_chart_get_histogram (chart);
  g_assert_nonnull (h);
  g_assert_cmpuint (h->n_a, ==, strobe_compare_item_get_timer (game)->a.count);
  g_assert_cmpuint (h->n_b, ==, strobe_compare_item_get_timer (game)->b.count);
  g_assert_cmpuint (h->n_a, >, 0);
  /* 60 frames a second by default; the spin button moves the line. */
  assert_close (strobe_compare_chart_get_target (chart), 0.0167);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_named (GTK_WIDGET (f.view), "target_spin")), 33.3);
  assert_close (strobe_compare_chart_get_target (chart), 0.0333);
  fixture_close (&f);
}

/* B from the window's open traces or the store: the menu lists other open traces, then
 * store traces that are neither A nor open, then a file; choosing an open trace compares
 * with that very document (its analysis is not done again). */
static void
test_sources (void)
{
  Fixture f = { 0 };
  g_autoptr(GListStore) documents = g_list_store_new (STROBE_TYPE_DOCUMENT);
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  g_autoptr(GFile) other = g_file_new_for_path ("/nonexistent/other.strobe");
  g_autoptr(GMenuModel) menu = NULL;
  g_autoptr(GMenuModel) open = NULL, store = NULL, last = NULL;
  g_autoptr(StrobeDocument) b2 = NULL;
  g_autofree char *label = NULL;

  fixture_open (&f);
  /* Compare against a fresh B first, then pick the open one from the menu. */
  b2 = open_golden ("golden-compare-b.strobe");
  g_list_store_append (documents, f.a);
  g_list_store_append (documents, b2);
  g_list_store_append (files, strobe_document_get_file (f.a));
  g_list_store_append (files, strobe_document_get_file (b2));
  g_list_store_append (files, other);
  strobe_compare_view_set_sources (f.view, G_LIST_MODEL (documents), G_LIST_MODEL (files));
  menu = strobe_compare_view_build_menu (f.view);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 3);
  open = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  store = g_menu_model_get_item_link (menu, 1, G_MENU_LINK_SECTION);
  last = g_menu_model_get_item_link (menu, 2, G_MENU_LINK_SECTION);
  g_assert_cmpint (g_menu_model_get_n_items (open), ==, 1);
  g_assert_cmpint (g_menu_model_get_n_items (store), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (store, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "other.strobe");
  g_assert_cmpint (g_menu_model_get_n_items (last), ==, 1);

  {
    g_autofree char *uri = g_file_get_uri (strobe_document_get_file (b2));
    gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.with", "s", uri);
  }
  g_assert_true (strobe_compare_view_get_other (f.view) == b2);
  wait_ready (&f);
  g_assert_nonnull (find_row (strobe_compare_view_get_rows (f.view, "timers"), "Physics"));
  /* Not in a window: B's tab cannot be shown, and the page says no rather than pretending. */
  {
    GListModel *rows = strobe_compare_view_get_rows (f.view, "timers");
    guint physics = G_MAXUINT;

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(StrobeCompareItem) item = g_list_model_get_item (rows, i);
        if (g_str_equal (strobe_compare_item_get_name (item), "Physics"))
          physics = i;
      }
    g_assert_false (show_in (f.view, physics, STROBE_COMPARE_IN_B));
    /* A's own tab is this one: that works without a window. */
    g_assert_true (show_in (f.view, physics, STROBE_COMPARE_IN_A));
    /* The instance is looked for off the main thread, and the last request is the one
     * shown: one made before it is cancelled. */
    {
      GAsyncResult *first = NULL, *second = NULL;
      g_autoptr(GError) error = NULL;

      strobe_compare_view_show_in_async (f.view, physics, STROBE_COMPARE_IN_A, async_result_keep, &first);
      strobe_compare_view_show_in_async (f.view, physics, STROBE_COMPARE_IN_A, async_result_keep, &second);
      g_assert_false (strobe_compare_view_show_in_finish (f.view, async_result_wait (&first), &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_true (strobe_compare_view_show_in_finish (f.view, async_result_wait (&second), NULL));
      g_object_unref (first);
      g_object_unref (second);
    }
  }
  fixture_close (&f);
}

static StrobeDocument *
record (const char *dir, const char *name, gboolean changed)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *argv[] = { g_getenv ("COMPARE_EMITTER"), path, changed ? "--changed" : NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  StrobeDocument *document;
  gint status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  file = g_file_new_for_path (path);
  document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_assert_true (strobe_document_load (document, NULL, &error));
  return document;
}

/* A new range: the progress bar shows from the start (before the main loop runs again)
 * and goes once the tables are in, full. */
static void
set_range (Fixture *f, const char *text)
{
  GtkWidget *bar = find_named (GTK_WIDGET (f->view), "progress_bar");

  gtk_editable_set_text (GTK_EDITABLE (find_named (GTK_WIDGET (f->view), "range_entry")), text);
  g_signal_emit_by_name (find_named (GTK_WIDGET (f->view), "range_entry"), "activate");
  g_assert_true (gtk_widget_get_visible (bar));
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), <, 1);
  wait_ready (f);
  g_assert_false (gtk_widget_get_visible (bar));
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), ==, 1);
}

/* The range entry's kinds on a fresh recording whose bookmarks Checkpoint and Boss mark
 * frames 10 and 20's starts: between them are frames 10–19, the same rows as "10-19";
 * seconds; a bad name says so. */
static void
test_ranges (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-compare-ranges-XXXXXX");
  Fixture f = { 0 };
  GListModel *timers;
  gdouble a, b, fa, fb;

  f.a = record (dir, "a.strobe", FALSE);
  f.b = record (dir, "b.strobe", TRUE);
  f.state = strobe_view_state_new ();
  f.view = STROBE_COMPARE_VIEW (strobe_view_new (STROBE_TYPE_COMPARE_VIEW, f.a, f.state));
  f.window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_child (f.window, GTK_WIDGET (f.view));
  gtk_window_present (f.window);
  strobe_compare_view_set_other (f.view, f.b);
  wait_ready (&f);
  timers = strobe_compare_view_get_rows (f.view, "timers");

  set_range (&f, "Checkpoint..Boss");
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_COUNT, &a, &b);
  assert_close (a, 10);
  assert_close (b, 10);
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_INCL, &a, &b);
  set_range (&f, "frames 10-19");
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_INCL, &fa, &fb);
  g_assert_cmpfloat (a, ==, fa);
  g_assert_cmpfloat (b, ==, fb);

  /* The first half second: some of the 60 frames, not all. */
  set_range (&f, "0-0.5 s");
  strobe_compare_item_get_metric (find_row (timers, "Physics"), STROBE_COMPARE_COUNT, &a, &b);
  g_assert_cmpfloat (a, >, 0);
  g_assert_cmpfloat (a, <, 60);

  set_range (&f, "Boss..Checkpoint");
  /* No Checkpoint after Boss: the page says so, naming them. */
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (find_named (GTK_WIDGET (f.view), "status_label"))), "“Boss”"));
  fixture_close (&f);
  test_dir_remove_all (dir);
}

static void
test_chart_snapshot (void)
{
  g_autoptr(StrobeDocument) a = open_golden ("golden-compare-a.strobe");
  g_autoptr(StrobeDocument) b = open_golden ("golden-compare-b.strobe");
  g_autoptr(GdkTexture) actual = NULL;
  StrobeCompareRange whole = { 0 };
  StrobeCompareSpan sa, sb;
  StrobeTraceClock ca, cb;
  GArray *da, *db;
  GtkWindow *window;
  GtkWidget *chart;

  g_assert_true (strobe_compare_range_resolve (&whole, a, &sa, NULL));
  g_assert_true (strobe_compare_range_resolve (&whole, b, &sb, NULL));
  da = strobe_compare_durations (a, "Frame", &sa, NULL, NULL);
  db = strobe_compare_durations (b, "Physics", &sb, NULL, NULL);
  chart = strobe_compare_chart_new ();
  strobe_document_get_clock (a, &ca);
  strobe_document_get_clock (b, &cb);
  strobe_compare_chart_set_histogram (STROBE_COMPARE_CHART (chart), strobe_compare_histogram_new (da, &ca, db, &cb, 32, TRUE),
                                      "Frame / Physics");
  g_array_unref (da);
  g_array_unref (db);
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 600, 220);
  gtk_window_set_child (window, chart);
  gtk_window_present (window);
  {
    gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    while (!gtk_widget_get_mapped (chart) && g_get_monotonic_time () < end)
      memory_iterate (20);
  }
  memory_iterate (100);
  actual = widget_render (chart);
  g_assert_nonnull (actual);
  memory_check_snapshot (actual, "compare-histogram");
  gtk_window_destroy (window);
  memory_iterate (20);
}

/* Every control without a visible label of its own carries an accessible name. */
static void
test_accessible_names (void)
{
  Fixture f = { 0 };
  const char *names[] = { "range_entry", "filter_entry", "norm_drop", "timers_view", "frames_view", "target_spin" };

  fixture_open (&f);
  for (guint i = 0; i <= G_N_ELEMENTS (names); i++)
    {
      GtkWidget *w = i < G_N_ELEMENTS (names) ? find_named (GTK_WIDGET (f.view), names[i])
                                              : find_type (GTK_WIDGET (f.view), STROBE_TYPE_COMPARE_CHART);

      g_assert_nonnull (w);
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_PROPERTY_LABEL))
        g_error ("a %s has no accessible name", G_OBJECT_TYPE_NAME (w));
    }
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-view/accessible-names", test_accessible_names);
  g_test_add_func ("/compare-view/rows", test_rows);
  g_test_add_func ("/compare-view/waits-for-reading", test_waits_for_reading);
  g_test_add_func ("/compare-view/sort-filter-normalise", test_sort_filter_normalise);
  g_test_add_func ("/compare-view/distribution-and-jump", test_distribution_and_jump);
  g_test_add_func ("/compare-view/frame-times", test_frame_times);
  g_test_add_func ("/compare-view/site-jump", test_site_jump);
  g_test_add_func ("/compare-view/sources", test_sources);
  g_test_add_func ("/compare-view/ranges", test_ranges);
  g_test_add_func ("/compare-view/chart-snapshot", test_chart_snapshot);
  return g_test_run ();
}
