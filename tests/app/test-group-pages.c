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

int
main (int argc, char **argv)
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/group-pages/log-merged", test_log_merged);
  g_test_add_func ("/group-pages/log-filters", test_log_filters);
  return g_test_run ();
}
