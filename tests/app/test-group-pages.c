/* test-group-pages.c — a group tab's pages other than the timeline (app/group): the Log
 * page merging every process's messages on the one time axis (rows, their order, the
 * Process column, the Process, text and range filters), recorded here from two
 * log-emitter processes that take turns, so that the right order is known.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>

#include "strobe-group-view.h"
#include "strobe-timer-stats.h"
#include "strobe-view.h"
#include "test-dirs.h"
#include "widget-find.h"

#define BURST 10

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *out;
} Emitter;

static void
emitter_start (Emitter *e, const char *trace)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                                                       | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_subprocess_launcher_setenv (launcher, "STROBE_TRACEFILE", trace, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEHOST");
  g_subprocess_launcher_setenv (launcher, "STROBE_DISCOVERY", "0", TRUE);
  e->process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("LOG_EMITTER"), NULL);
  g_assert_no_error (error);
  e->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (e->process));
  line = g_data_input_stream_read_line (e->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ready");
}

static void
emitter_say (Emitter *e, const char *command, const char *expect_prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_output_stream_write_all (g_subprocess_get_stdin_pipe (e->process), command, strlen (command), NULL, NULL, &error);
  g_assert_no_error (error);
  if (expect_prefix == NULL)
    return;
  line = g_data_input_stream_read_line (e->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, expect_prefix));
}

static void
emitter_finish (Emitter *e)
{
  g_autoptr(GError) error = NULL;

  emitter_say (e, "quit\n", NULL);
  g_subprocess_wait_check (e->process, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&e->out);
  g_clear_object (&e->process);
}

typedef struct
{
  char            *dir;
  GtkWindow       *window;
  StrobeGroupView *view;
} Fixture;

static void
iterate (guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static void
wait_filtered (Fixture *f)
{
  StrobeGroupLogPage *page = strobe_group_view_get_log_page (f->view);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  do
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      iterate (5);
    }
  while (strobe_group_log_page_is_filtering (page));
  iterate (20);
}

/* Two processes, A and B, taking turns: A logs a burst, then B, then A, then B. */
static void
fixture_open (Fixture *f)
{
  g_autofree char *a_path = NULL, *b_path = NULL;
  Emitter a = { 0 }, b = { 0 };
  GFile *files[2];
  gint64 deadline;

  f->dir = test_dir_make_tmp ("group-pages-XXXXXX");
  a_path = g_build_filename (f->dir, "a.strobe", NULL);
  b_path = g_build_filename (f->dir, "b.strobe", NULL);
  emitter_start (&a, a_path);
  emitter_start (&b, b_path);
  for (int round = 1; round <= 2; round++)
    {
      g_autofree char *done = g_strdup_printf ("done %d", round * BURST);

      emitter_say (&a, "burst 10\n", done);
      emitter_say (&b, "burst 10\n", done);
    }
  emitter_finish (&a);
  emitter_finish (&b);

  files[0] = g_file_new_for_path (a_path);
  files[1] = g_file_new_for_path (b_path);
  f->view = STROBE_GROUP_VIEW (strobe_group_view_new_for_files (NULL, files, 2));
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, 900);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!strobe_group_view_is_loaded (f->view))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      iterate (1);
    }
  strobe_group_view_show_page (f->view, "log");
  wait_filtered (f);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  test_dir_remove_all (f->dir);
  g_free (f->dir);
}

/* Which member each row is, as a string: "0000000000111…". */
static char *
members_of_rows (StrobeGroupLog *log)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (log)); i++)
    {
      guint member = 9;

      g_assert_true (strobe_group_log_locate (log, i, &member, NULL));
      g_string_append_c (s, (char) ('0' + member));
    }
  return g_string_free (s, FALSE);
}

static char *
member_label (Fixture *f, guint member)
{
  const StrobeWireMetadata *meta = strobe_document_get_metadata (strobe_group_view_get_document (f->view, member));

  return g_strdup_printf ("log-emitter (pid %u)", meta->process_id);
}

/* Every message of both, in the order they were logged (the turns), each row's seconds
 * on the group's axis never going back, and each row's Process cell its process. */
static void
test_log_merged (void)
{
  Fixture f = { 0 };
  StrobeGroupLogPage *page;
  StrobeGroupLog *log;
  GtkColumnView *columns;
  g_autoptr(GListModel) column_list = NULL;
  g_autoptr(GtkColumnViewColumn) second = NULL;
  g_autofree char *order = NULL;
  g_autofree char *label0 = NULL, *label1 = NULL;
  gdouble last = -G_MAXDOUBLE;

  fixture_open (&f);
  page = strobe_group_view_get_log_page (f.view);
  log = strobe_group_log_page_get_log (page);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 4 * BURST);
  order = members_of_rows (log);
  g_assert_cmpstr (order, ==, "0000000000111111111100000000001111111111");
  for (guint i = 0; i < 4 * BURST; i++)
    {
      gdouble s;
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (log), i);
      guint member, pos;

      g_assert_true (strobe_group_log_get_seconds (log, i, &s));
      g_assert_cmpfloat (s, >=, last);
      last = s;
      /* The item is its member's own. */
      g_assert_true (strobe_group_log_locate (log, i, &member, &pos));
      g_assert_true (strobe_log_item_get_model (item)
                     == strobe_document_get_log (strobe_group_view_get_document (f.view, member)));
      g_assert_cmpuint (strobe_group_log_find_item (log, member, pos), ==, i);
    }

  /* The Process column, right after the time, names each row's process. */
  columns = strobe_group_log_page_get_column_view (page);
  column_list = g_object_ref (gtk_column_view_get_columns (columns));
  second = g_list_model_get_item (column_list, 1);
  g_assert_cmpstr (gtk_column_view_column_get_title (second), ==, "Process");
  label0 = member_label (&f, 0);
  label1 = member_label (&f, 1);
  iterate (50);
  /* The first rows on screen: A's first burst, then B's. */
  g_assert_cmpuint (count_text (GTK_WIDGET (columns), label0), >=, BURST);
  g_assert_cmpuint (count_text (GTK_WIDGET (columns), label1), >=, 1);

  /* B's 14th message selected in B's state, as a log tick of its timeline does: the row
   * after A's first burst, B's first and A's second, 4th of B's second, selected here. */
  {
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (columns));
    g_autoptr(StrobeLogItem) item = NULL;

    strobe_view_state_set_selected_message (strobe_group_view_get_state (f.view, 1), BURST + 3);
    iterate (5);
    g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 3 * BURST + 3);
    item = g_object_ref (gtk_single_selection_get_selected_item (selection));
    g_assert_true (strobe_log_item_get_model (item) == strobe_document_get_log (strobe_group_view_get_document (f.view, 1)));
    g_assert_cmpuint (strobe_log_item_find_index (item), ==, BURST + 3);
    g_clear_object (&item);

    /* And the other way: a row chosen here (A's 5th) moves A's cursor to its moment, which
     * the tab sets in B's state too, on the same second of the group's axis. */
    gtk_single_selection_set_selected (selection, 4);
    item = g_object_ref (gtk_single_selection_get_selected_item (selection));
    g_assert_cmpuint (strobe_view_state_get_cursor (strobe_group_view_get_state (f.view, 0)), ==,
                      strobe_log_item_get_time (item));
    {
      StrobeTraceClock c0, c1;

      strobe_document_get_clock (strobe_group_view_get_document (f.view, 0), &c0);
      strobe_document_get_clock (strobe_group_view_get_document (f.view, 1), &c1);
      g_assert_cmpfloat_with_epsilon (
        strobe_trace_clock_to_seconds (&c1, strobe_view_state_get_cursor (strobe_group_view_get_state (f.view, 1))),
        strobe_trace_clock_to_seconds (&c0, strobe_log_item_get_time (item)), 1e-6);
    }
  }
  fixture_close (&f);
}

/* The Process filter keeps one process's rows; the text filter runs in each process and
 * the merge keeps their order; the range selected in the other process's state selects
 * it here too. */
static void
test_log_filters (void)
{
  Fixture f = { 0 };
  StrobeGroupLogPage *page;
  StrobeGroupLog *log;
  GtkWidget *entry, *range;
  g_autofree char *order = NULL;
  gdouble s0, s1;
  StrobeViewState *state1;
  StrobeTraceClock clock1;

  fixture_open (&f);
  page = strobe_group_view_get_log_page (f.view);
  log = strobe_group_log_page_get_log (page);

  strobe_group_log_page_set_process (page, 1);
  wait_filtered (&f);
  g_clear_pointer (&order, g_free);
  order = members_of_rows (log);
  g_assert_cmpstr (order, ==, "11111111111111111111");
  g_assert_nonnull (find_text (GTK_WIDGET (page), "20 of 40 messages"));
  strobe_group_log_page_set_process (page, G_MAXUINT);
  wait_filtered (&f);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (log)), ==, 4 * BURST);

  /* Half of each burst is the worker thread's "worker message N". */
  entry = find_type (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY);
  gtk_editable_set_text (GTK_EDITABLE (entry), "worker message");
  /* The search entry waits a little before it says the text changed. */
  iterate (200);
  wait_filtered (&f);
  g_clear_pointer (&order, g_free);
  order = members_of_rows (log);
  g_assert_cmpstr (order, ==, "00000111110000011111");
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (log)); i++)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (log), i);

      g_assert_true (g_str_has_prefix (strobe_log_item_get_text (item), "worker message"));
    }
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  iterate (200);
  wait_filtered (&f);

  /* B's second burst selected in B's state: A's state has it too, and the log in the
   * range shows only that burst. */
  g_assert_true (strobe_group_log_get_seconds (log, 3 * BURST, &s0));
  g_assert_true (strobe_group_log_get_seconds (log, 4 * BURST - 1, &s1));
  state1 = strobe_group_view_get_state (f.view, 1);
  strobe_document_get_clock (strobe_group_view_get_document (f.view, 1), &clock1);
  strobe_view_state_set_selection (state1, strobe_trace_clock_from_seconds (&clock1, s0),
                                   strobe_trace_clock_from_seconds (&clock1, s1));
  g_assert_true (strobe_view_state_get_selection (strobe_group_view_get_state (f.view, 0), NULL, NULL));
  range = find_text (GTK_WIDGET (page), "Selected Range");
  g_assert_nonnull (range);
  while (range != NULL && !GTK_IS_TOGGLE_BUTTON (range))
    range = gtk_widget_get_parent (range);
  g_assert_nonnull (range);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (range), TRUE);
  wait_filtered (&f);
  g_clear_pointer (&order, g_free);
  order = members_of_rows (log);
  g_assert_cmpstr (order, ==, "1111111111");
  fixture_close (&f);
}

/* Two traces with memory (checked in) as one tab: the Total row is the sum of the
 * processes' rows, its peak what `strobe-cli memory` of the same two files says, and
 * choosing a process shows that process's own memory view. */
static void
test_memory_total (void)
{
  g_autofree char *a = g_build_filename (g_getenv ("GOLDEN_DIR"), "golden-logmem.strobe", NULL);
  g_autofree char *b = g_build_filename (g_getenv ("GOLDEN_DIR"), "golden-memtrace.strobe", NULL);
  GFile *files[2] = { g_file_new_for_path (a), g_file_new_for_path (b) };
  StrobeGroupView *view = STROBE_GROUP_VIEW (strobe_group_view_new_for_files (NULL, files, 2));
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  StrobeGroupMemoryPage *page = strobe_group_view_get_memory_page (view);
  StrobeMemoryGroupTotal total;
  guint64 allocs = 0, frees = 0, bytes = 0;
  gint64 max_peak = 0, sum_peaks = 0, live = 0;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  g_autofree char *cli_out = NULL;
  g_autofree char *total_line = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  GtkWidget *memory_view;

  g_object_unref (files[0]);
  g_object_unref (files[1]);
  gtk_window_set_default_size (window, 1200, 900);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);
  while (!strobe_group_view_is_loaded (view))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      iterate (1);
    }
  strobe_group_view_show_page (view, "memory");
  iterate (20);
  for (guint i = 0; i < 2; i++)
    {
      StrobeMemorySummary s;

      strobe_memory_model_get_summary (strobe_document_get_memory (strobe_group_view_get_document (view, i)), &s);
      g_assert_cmpuint (s.allocs, >, 0);
      allocs += s.allocs;
      frees += s.frees;
      bytes += s.bytes_allocated;
      live += s.live_bytes;
      max_peak = MAX (max_peak, s.peak_bytes);
      sum_peaks += s.peak_bytes;
    }
  strobe_group_memory_page_get_total (page, &total);
  g_assert_true (total.any);
  g_assert_cmpuint (total.allocs, ==, allocs);
  g_assert_cmpuint (total.frees, ==, frees);
  g_assert_cmpuint (total.bytes_allocated, ==, bytes);
  g_assert_cmpint (total.live_bytes, ==, live);
  g_assert_cmpint (total.peak_bytes, >=, max_peak);
  g_assert_cmpint (total.peak_bytes, <=, sum_peaks);
  /* The table says so: a Total row with the summed allocations. */
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, allocs);

    g_assert_nonnull (find_text (GTK_WIDGET (page), "Total"));
    g_assert_nonnull (find_text (GTK_WIDGET (page), count));
  }

  /* The command line's total of the same two files: the same peak. */
  {
    const char *argv[] = { g_getenv ("STROBE_CLI"), "memory", a, b, NULL };
    g_auto(GStrv) lines = NULL;
    g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT, total.peak_bytes);

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &cli_out, NULL,
                                 &status, &error));
    g_assert_no_error (error);
    lines = g_strsplit (cli_out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (g_strstrip (lines[i]), "total "))
        total_line = g_strdup (lines[i]);
    g_assert_nonnull (total_line);
    {
      g_auto(GStrv) words = g_strsplit_set (total_line, " ", -1);
      guint k = 0;
      const char *fields[6] = { NULL };

      for (guint i = 0; words[i] != NULL && k < 6; i++)
        if (*words[i])
          fields[k++] = words[i];
      g_assert_cmpuint (k, ==, 6);
      g_assert_cmpstr (fields[4], ==, want);
    }
  }

  /* A process chosen: its own memory view, on its document. */
  g_assert_null (strobe_group_memory_page_get_view (page, 1));
  strobe_group_memory_page_select (page, 1);
  iterate (20);
  memory_view = strobe_group_memory_page_get_view (page, 1);
  g_assert_nonnull (memory_view);
  g_assert_true (gtk_widget_get_mapped (memory_view));
  g_assert_true (strobe_view_get_document (STROBE_VIEW (memory_view)) == strobe_group_view_get_document (view, 1));
  strobe_group_memory_page_select (page, G_MAXUINT);
  iterate (5);
  g_assert_false (gtk_widget_get_mapped (memory_view));

  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
wait_timers (StrobeGroupTimersPage *page)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  do
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      iterate (5);
    }
  while (strobe_group_timers_page_is_busy (page));
}

/* The count of @name in member @member's own statistics over [t0, t1]. */
static guint64
own_count (StrobeGroupView *view, guint member, const char *name, guint64 t0, guint64 t1)
{
  StrobeTimelineModel *model = strobe_document_get_timeline (strobe_group_view_get_document (view, member));
  g_autoptr(GArray) stats = strobe_timer_stats_compute (model, t0, t1, STROBE_TIMER_STATS_ALL_THREADS);

  for (guint i = 0; i < stats->len; i++)
    if (g_str_equal (g_array_index (stats, StrobeTimerStat, i).name, name))
      return g_array_index (stats, StrobeTimerStat, i).count;
  return 0;
}

static guint
n_timers (StrobeGroupView *view, guint member)
{
  StrobeTimelineModel *model = strobe_document_get_timeline (strobe_group_view_get_document (view, member));
  g_autoptr(GArray) stats = strobe_timer_stats_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);

  return stats->len;
}

/* Every top row of the timer grouping is the sum of its processes' rows, each of which is
 * what that process's own statistics say; By Process: a row per process with all its
 * timers; a selected range counts only its scopes. */
static void
test_timers_by_process (void)
{
  g_autofree char *a = g_build_filename (g_getenv ("GROUP_DATA"), "pair-client.strobe", NULL);
  g_autofree char *b = g_build_filename (g_getenv ("GROUP_DATA"), "pair-server.strobe", NULL);
  GFile *files[2] = { g_file_new_for_path (a), g_file_new_for_path (b) };
  StrobeGroupView *view = STROBE_GROUP_VIEW (strobe_group_view_new_for_files (NULL, files, 2));
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  StrobeGroupTimersPage *page = strobe_group_view_get_timers_page (view);
  GListModel *rows;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  guint shared = 0;
  guint64 t0, t1, whole = 0, part = 0;

  g_object_unref (files[0]);
  g_object_unref (files[1]);
  gtk_window_set_default_size (window, 1200, 900);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);
  while (!strobe_group_view_is_loaded (view))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      iterate (1);
    }
  strobe_group_view_show_page (view, "timers");
  wait_timers (page);
  rows = strobe_group_timers_page_get_rows (page);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrobeGroupTimerRow) row = g_list_model_get_item (rows, i);
      GListModel *children = strobe_group_timer_row_get_children (row);
      guint64 sum = 0;

      g_assert_cmpuint (strobe_group_timer_row_get_member (row), ==, G_MAXUINT);
      g_assert_nonnull (children);
      for (guint k = 0; k < g_list_model_get_n_items (children); k++)
        {
          g_autoptr(StrobeGroupTimerRow) child = g_list_model_get_item (children, k);
          guint member = strobe_group_timer_row_get_member (child);

          g_assert_cmpuint (member, <, 2);
          g_assert_cmpuint (strobe_group_timer_row_get_count (child), ==,
                            own_count (view, member, strobe_group_timer_row_get_name (row), 0, G_MAXUINT64));
          g_assert_cmpfloat (strobe_group_timer_row_get_inclusive (child), <=, strobe_group_timer_row_get_inclusive (row));
          sum += strobe_group_timer_row_get_count (child);
        }
      g_assert_cmpuint (sum, ==, strobe_group_timer_row_get_count (row));
      shared += g_list_model_get_n_items (children) == 2;
      if (g_str_equal (strobe_group_timer_row_get_name (row), "Instant"))
        whole = strobe_group_timer_row_get_count (row);
    }
  /* Both processes mark "Instant": one row, two processes under it. */
  g_assert_cmpuint (shared, >=, 1);
  g_assert_cmpuint (whole, >, 0);

  strobe_group_timers_page_set_by_process (page, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(StrobeGroupTimerRow) row = g_list_model_get_item (rows, i);
      guint member = strobe_group_timer_row_get_member (row);

      g_assert_cmpuint (member, <, 2);
      g_assert_cmpuint (g_list_model_get_n_items (strobe_group_timer_row_get_children (row)), ==, n_timers (view, member));
    }
  strobe_group_timers_page_set_by_process (page, FALSE);

  /* The first half of the group selected (in the server's state): the Instant count is
   * each process's own count in its own ticks of that range. */
  {
    StrobeViewState *state = strobe_group_view_get_state (view, 1);
    guint64 a0, a1;

    strobe_view_state_get_visible_range (state, &t0, &t1);
    strobe_view_state_set_selection (state, t0, t0 + (t1 - t0) / 2);
    wait_timers (page);
    g_assert_true (strobe_view_state_get_selection (strobe_group_view_get_state (view, 0), &a0, &a1));
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(StrobeGroupTimerRow) row = g_list_model_get_item (rows, i);

        if (g_str_equal (strobe_group_timer_row_get_name (row), "Instant"))
          part = strobe_group_timer_row_get_count (row);
      }
    g_assert_cmpuint (part, ==, own_count (view, 0, "Instant", a0, a1)
                                  + own_count (view, 1, "Instant", t0, t0 + (t1 - t0) / 2));
    g_assert_cmpuint (part, <, whole);
  }

  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/group-pages/log-merged", test_log_merged);
  g_test_add_func ("/group-pages/log-filters", test_log_filters);
  g_test_add_func ("/group-pages/memory-total", test_memory_total);
  g_test_add_func ("/group-pages/timers-by-process", test_timers_by_process);
  return g_test_run ();
}
