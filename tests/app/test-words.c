/* test-words.c — what the viewer's words look like in each language (issue 24 item 17,
 * and item 10's counts): run once per language (LANGUAGE from tests/app/meson.build, the
 * build tree's translations).
 *
 * - the timeline's ruler says its units in the language ("1.5 毫秒", not "1.5 ms");
 * - no figure in the timers table is cut short — "153.4 м…" could be мс or мкс —, counts
 *   of eight digits included, and the callers panel's hint is there whole;
 * - the overview's tab titles set off their counts as the language does, with no stray
 *   spaces ("事件类型 (27)", not "事件类型(E)（27）");
 * - the comparison's timers table shows its names and words whole, as wide as they are
 *   («пропало», not «про…»), and scrolls sideways for the rest;
 * - the log table's verbosity words are whole beside their icon ("Предупреждение", not
 *   "Предупр…").
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-build-tree.h"
#include "strobe-compare-view.h"
#include "strobe-format.h"
#include "strobe-log-view.h"
#include "strobe-overview-view.h"
#include "strobe-time-scale.h"
#include "strobe-timer-row.h"
#include "strobe-timers-panel.h"
#include "strobe-view.h"
#include "timeline-common.h"
#include "widget-find.h"

static const char *golden_dir;
static const char *language;

static char *
data_path (const char *name)
{
  return g_build_filename (golden_dir, name, NULL);
}

/* What each language must say; C is the source language. */
static const char *
expected (const char *c, const char *ru, const char *zh_cn)
{
  if (g_strcmp0 (language, "ru") == 0)
    return ru;
  if (g_strcmp0 (language, "zh_CN") == 0)
    return zh_cn;
  return c;
}

static void
test_ruler_units (void)
{
  g_autofree char *ms = strobe_ruler_label (0.0015, 0.0005, 0.002);
  g_autofree char *s = strobe_ruler_label (2.5, 0.5, 3);
  g_autofree char *us = strobe_ruler_label (2e-6, 1e-6, 5e-6);
  g_autofree char *ns = strobe_ruler_label (20e-9, 10e-9, 50e-9);

  g_assert_cmpstr (ms, ==, expected ("1.5 ms", "1.5 мс", "1.5 毫秒"));
  g_assert_cmpstr (s, ==, expected ("2.5 s", "2.5 с", "2.5 秒"));
  g_assert_cmpstr (us, ==, expected ("2 µs", "2 мкс", "2 微秒"));
  g_assert_cmpstr (ns, ==, expected ("20 ns", "20 нс", "20 纳秒"));
}

/* Every right-aligned cell (the figures) under @widget shows its whole text; returns how
 * many it looked at. */
static guint
assert_figures_whole (GtkWidget *widget)
{
  guint seen = 0;

  if (!gtk_widget_get_mapped (widget))
    return 0;
  if (GTK_IS_INSCRIPTION (widget) && gtk_inscription_get_xalign (GTK_INSCRIPTION (widget)) > 0.5
      && gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL)
    {
      const char *text = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
      int w;

      pango_layout_get_pixel_size (layout, &w, NULL);
      if (w > gtk_widget_get_width (widget))
        g_error ("\"%s\" needs %d pixels, its cell has %d", text, w, gtk_widget_get_width (widget));
      return 1;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    seen += assert_figures_whole (c);
  return seen;
}

/* Whether every mapped figure cell under @widget has been given its size: a row the column
 * view has just bound is mapped a frame before it is allocated. */
static gboolean
figures_allocated (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return TRUE;
  if (GTK_IS_INSCRIPTION (widget) && gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL
      && gtk_widget_get_width (widget) == 0)
    return FALSE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (!figures_allocated (c))
      return FALSE;
  return TRUE;
}

static void
test_timers_fit (void)
{
  TimelineFixture f = { 0 };
  g_autofree char *path = data_path ("golden-timeline.strobe");
  StrobeTimersPanel *timers;
  GListModel *rows;
  StrobeTimerRow *row;
  StrobeTimerStat big;
  StrobeTraceClock clock;
  GtkWidget *heading;
  guint seen;

  timeline_fixture_open (&f, path, 1200, 760);
  timers = strobe_timeline_view_get_timers (f.view);
  rows = strobe_timers_panel_get_rows (timers);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 3);
  /* A timer of ten million calls and the widest durations of each unit. */
  strobe_document_get_clock (f.document, &clock);
  row = g_list_model_get_item (rows, 0);
  big = *strobe_timer_row_get_stat (row);
  g_object_unref (row);
  big.count = 12345678;
  big.min = strobe_trace_clock_from_seconds (&clock, 888.8e-6) - strobe_trace_clock_from_seconds (&clock, 0);
  big.max = strobe_trace_clock_from_seconds (&clock, 888.8e-3) - strobe_trace_clock_from_seconds (&clock, 0);
  big.mean = strobe_trace_clock_from_seconds (&clock, 88.88e-6) - strobe_trace_clock_from_seconds (&clock, 0);
  {
    g_autoptr (StrobeTimeAxis) axis = strobe_time_axis_new (f.document, f.state);
    row = strobe_timer_row_new (&big, 0.5, axis);
    g_list_store_append (G_LIST_STORE (rows), row);
    g_object_unref (row);
  }
  timeline_fixture_settle (&f, 20);
  for (guint i = 0; i < 100 && !figures_allocated (strobe_timers_panel_get_table (timers)); i++)
    timeline_fixture_settle (&f, 5);
  seen = assert_figures_whole (strobe_timers_panel_get_table (timers));
  g_assert_cmpuint (seen, >, 3 * 9);
  {
    g_autofree char *count = strobe_format_count (12345678);
    g_assert_nonnull (find_text (GTK_WIDGET (timers), count));
  }

  /* The hint over the callers and callees, whole. */
  heading = find_type (GTK_WIDGET (timers), GTK_TYPE_LABEL);
  while (heading && !g_str_has_prefix (gtk_label_get_text (GTK_LABEL (heading)),
                                       expected ("Choose a timer", "Выберите таймер", "选择")))
    {
      GtkWidget *next = NULL;
      /* The next label in the tree. */
      for (GtkWidget *w = heading; w && next == NULL; w = gtk_widget_get_parent (w))
        for (GtkWidget *s = gtk_widget_get_next_sibling (w); s && next == NULL; s = gtk_widget_get_next_sibling (s))
          next = GTK_IS_LABEL (s) ? s : find_type (s, GTK_TYPE_LABEL);
      heading = next;
    }
  g_assert_nonnull (heading);
  g_assert_true (gtk_widget_get_mapped (heading));
  /* One line (a wrapping hint broke the side panel's height-for-width in Russian), and the
   * whole sentence fits it: nothing cut off. */
  g_assert_false (gtk_label_get_wrap (GTK_LABEL (heading)));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (heading))));
  timeline_fixture_close (&f);
}

/* A view of @type on the golden trace @name, in a window of its own, shown; the window
 * holds the document and the state. */
static GtkWidget *
view_open (GType type, const char *name, GtkWindow **window)
{
  g_autofree char *path = data_path (name);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr (StrobeViewState) state = strobe_view_state_new ();
  g_autoptr (GError) error = NULL;
  GtkWidget *view;

  strobe_document_load (document, NULL, &error);
  g_assert_no_error (error);
  view = GTK_WIDGET (strobe_view_new (type, document, state));
  *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (*window, 1200, 700);
  gtk_window_set_child (*window, view);
  gtk_window_present (*window);
  return view;
}

static void
test_overview_tabs (void)
{
  GtkWindow *window;
  GtkWidget *view = view_open (STROBE_TYPE_OVERVIEW_VIEW, "golden-types.strobe", &window);
  GtkWidget *stack;
  g_autoptr (GListModel) pages = NULL;
  const char *want[3];
  guint found = 0;

  while (g_main_context_iteration (NULL, FALSE))
    ;
  want[0] = expected ("_Event Types (", "_Типы событий (", "事件类型 (");
  want[1] = expected ("T_hreads (", "Пото_ки (", "线程 (");
  want[2] = expected ("Channe_ls (", "Ка_налы (", "通道 (");
  stack = find_type (view, GTK_TYPE_STACK);
  while (stack && strchr (gtk_stack_page_get_title (gtk_stack_get_page (GTK_STACK (stack),
                                                                          gtk_stack_get_visible_child (GTK_STACK (stack)))) ?: "", '(') == NULL)
    stack = find_type (gtk_stack_get_visible_child (GTK_STACK (stack)), GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  pages = G_LIST_MODEL (gtk_stack_get_pages (GTK_STACK (stack)));
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr (GObject) page = g_list_model_get_item (pages, i);
      const char *title = gtk_stack_page_get_title (GTK_STACK_PAGE (page));

      g_test_message ("tab: %s", title);
      /* No full-width brackets beside ASCII ones, no space inside brackets. */
      g_assert_null (strstr (title, "（"));
      g_assert_null (strstr (title, "( "));
      g_assert_null (strstr (title, " )"));
      for (guint k = 0; k < G_N_ELEMENTS (want); k++)
        if (g_str_has_prefix (title, want[k]))
          found++;
    }
  g_assert_cmpuint (found, ==, 3);
  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Every cell of the first @columns columns under @widget (a column view's rows) shows its
 * whole text; returns how many it looked at. */
static guint
assert_first_columns_whole (GtkWidget *widget,
                            guint      columns)
{
  guint seen = 0;

  if (!gtk_widget_get_mapped (widget))
    return 0;
  if (g_strcmp0 (gtk_widget_get_css_name (widget), "row") == 0)
    {
      guint c = 0;

      for (GtkWidget *cell = gtk_widget_get_first_child (widget); cell && c < columns;
           cell = gtk_widget_get_next_sibling (cell), c++)
        {
          GtkWidget *ins = find_type (cell, GTK_TYPE_INSCRIPTION);
          const char *text = ins ? gtk_inscription_get_text (GTK_INSCRIPTION (ins)) : NULL;
          g_autoptr (PangoLayout) layout = NULL;
          int w;

          if (text == NULL || *text == '\0')
            continue;
          layout = gtk_widget_create_pango_layout (ins, text);
          pango_layout_get_pixel_size (layout, &w, NULL);
          if (w > gtk_widget_get_width (ins))
            g_error ("\"%s\" needs %d pixels, its cell has %d", text, w, gtk_widget_get_width (ins));
          seen++;
        }
      return seen;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    seen += assert_first_columns_whole (c, columns);
  return seen;
}

static gboolean
is_row_cell (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_INSCRIPTION (widget) && gtk_widget_get_mapped (widget)
         && gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL;
}

/* A comparison of @a against @b in a window narrower than its table's columns (it scrolls
 * rather than squeezing them), ready. */
static StrobeCompareView *
compare_open (GtkWindow *window, StrobeDocument *a, StrobeDocument *b, StrobeViewState *state)
{
  StrobeCompareView *view = STROBE_COMPARE_VIEW (strobe_view_new (STROBE_TYPE_COMPARE_VIEW, a, state));
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  gtk_window_set_default_size (window, 1000, 700);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);
  strobe_compare_view_set_other (view, b);
  while (!strobe_compare_view_is_ready (view) && g_get_monotonic_time () < end)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  g_assert_true (strobe_compare_view_is_ready (view));
  return view;
}

/* Waits until @table shows @text (or anything, when NULL) and every cell has its size. */
static void
table_settle (GtkWidget *table, const char *text)
{
  for (guint i = 0; i < 400; i++)
    {
      if ((text ? find_text (table, text) : find_where (table, is_row_cell, NULL)) != NULL && figures_allocated (table))
        break;
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
}

static void
test_compare_fits (void)
{
  g_autofree char *path_a = data_path ("golden-compare-a.strobe");
  g_autofree char *path_b = data_path ("golden-compare-b.strobe");
  g_autoptr (GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr (GFile) file_b = g_file_new_for_path (path_b);
  g_autoptr (StrobeDocument) a = strobe_document_new (file_a, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr (StrobeDocument) b = strobe_document_new (file_b, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr (StrobeViewState) state = strobe_view_state_new ();
  g_autoptr (GError) error = NULL;
  const char *gone = expected ("gone", "пропало", "消失");
  GtkWindow *window;
  StrobeCompareView *view;
  GtkWidget *table;
  guint seen;

  strobe_document_load (a, NULL, &error);
  g_assert_no_error (error);
  strobe_document_load (b, NULL, &error);
  g_assert_no_error (error);

  window = GTK_WINDOW (gtk_window_new ());
  view = compare_open (window, a, b, state);
  table = find_named (GTK_WIDGET (view), "timers_view");
  g_assert_nonnull (table);
  table_settle (table, NULL);
  /* The name, where the timer is and the calls of each side. */
  seen = assert_first_columns_whole (table, 5);
  g_test_message ("%u cells whole", seen);
  g_assert_cmpuint (seen, >=, 10);
  gtk_window_destroy (window);

  /* B against A: A's allocation site is "gone" («пропало») in B, whole beside the site. */
  window = GTK_WINDOW (gtk_window_new ());
  view = compare_open (window, b, a, state);
  table = find_named (GTK_WIDGET (view), "sites_view");
  g_assert_nonnull (table);
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_ancestor (table, GTK_TYPE_STACK)), "memory");
  table_settle (table, gone);
  g_assert_nonnull (find_text (table, gone));
  g_assert_cmpuint (assert_first_columns_whole (table, 2), >=, 2);
  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Each verbosity cell on screen shows its word whole: the word's width (in the cell's own
 * font, bold for a fatal one) fits the inscription beside the icon. */
static gboolean
is_level_cell (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_INSCRIPTION (widget) && gtk_widget_has_css_class (widget, "strobe-log-level")
         && gtk_widget_get_mapped (widget) && gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL;
}

static guint
assert_levels_whole (GtkWidget *widget)
{
  guint seen = 0;

  if (is_level_cell (widget, NULL))
    {
      const char *text = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
      int w;

      /* Its look: bold for a fatal one. */
      pango_layout_set_attributes (layout, gtk_inscription_get_attributes (GTK_INSCRIPTION (widget)));
      pango_layout_get_pixel_size (layout, &w, NULL);
      g_test_message ("level %s: %d px of text in a cell of %d", text, w, gtk_widget_get_width (widget));
      g_assert_cmpint (w, <=, gtk_widget_get_width (widget));
      return 1;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    seen += assert_levels_whole (c);
  return seen;
}

static void
test_log_levels_fit (void)
{
  GtkWindow *window;
  GtkWidget *view = view_open (STROBE_TYPE_LOG_VIEW, "golden-logmem.strobe", &window);
  const char *warning = expected ("Warning", "Предупреждение", "警告");

  for (guint i = 0; i < 200 && find_where (view, is_level_cell, NULL) == NULL; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;
  /* The trace has warnings: the longest word in Russian. */
  g_assert_nonnull (find_text (view, warning));
  g_assert_cmpuint (assert_levels_whole (view), >=, 3);
  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  language = g_getenv ("LANGUAGE");
  if (language && *language == '\0')
    language = NULL;
  gtk_test_init (&argc, &argv, NULL);
  /* After GTK's test set-up, which sets a locale of its own. */
  strobe_build_tree_init_i18n ();
  golden_dir = g_getenv ("GOLDEN_DIR");
  g_assert_nonnull (golden_dir);

  g_test_add_func ("/words/ruler-units", test_ruler_units);
  g_test_add_func ("/words/timers-fit", test_timers_fit);
  g_test_add_func ("/words/overview-tabs", test_overview_tabs);
  g_test_add_func ("/words/log-levels-fit", test_log_levels_fit);
  g_test_add_func ("/words/compare-fits", test_compare_fits);
  return g_test_run ();
}
