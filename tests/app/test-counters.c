/* test-counters.c — a view added from outside the app: tests/app/counters/ (a counters
 * table with its own model, layout and selection) registered with one line, opened in a
 * real window on a trace. Nothing in app/ or core/ names it: the document makes its model
 * because the view asks for it, the document view shows its page because it is registered.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-application.h"
#include "strobe-document-view.h"
#include "strobe-window.h"
#include "test-counters-model.h"
#include "test-counters-view.h"
#include "test-dirs.h"
#include "widget-find.h"

static StrobeApplication *the_app;
static char *work_dir;

static gboolean
loaded (gpointer data)
{
  StrobeDocument *document = strobe_window_get_current_document (data);

  return document != NULL && strobe_document_is_loaded (document);
}

static void
wait_for (GSourceFunc cond, gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for the trace to load");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  for (int i = 0; i < 20; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* What the timeline model (another reader of the same events) says of each counter:
 * "name|samples|last|min|max", sorted by name. */
static GPtrArray *
expected_rows (StrobeDocument *document)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (document);
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (timeline);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < counters->len; i++)
    {
      StrobeTimelineCounter *c = &g_array_index (counters, StrobeTimelineCounter, i);
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
      double min = G_MAXDOUBLE, max = -G_MAXDOUBLE;

      strobe_timeline_model_get_counter_samples (timeline, c->index, 0, G_MAXUINT64, samples);
      g_assert_cmpuint (samples->len, >, 0);
      for (guint j = 0; j < samples->len; j++)
        {
          min = MIN (min, g_array_index (samples, StrobeCounterSample, j).value);
          max = MAX (max, g_array_index (samples, StrobeCounterSample, j).value);
        }
      g_ptr_array_add (rows, g_strdup_printf ("%s|%u|%g|%g|%g", c->name, samples->len,
                                              g_array_index (samples, StrobeCounterSample, samples->len - 1).value,
                                              min, max));
    }
  g_ptr_array_sort (rows, compare_rows);
  return rows;
}

static void
test_counters_view (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (g_getenv ("STROBE_TIMELINE_TRACE"));
  StrobeWindow *window = strobe_window_new (GTK_APPLICATION (the_app), strobe_application_get_services (the_app));
  StrobeDocumentView *page;
  StrobeDocument *document;
  TestCountersView *view;
  g_autoptr(GPtrArray) expected = NULL;
  g_auto(GStrv) rows = NULL;
  g_auto(GStrv) shown = NULL;   /* in the table's order */

  gtk_window_present (GTK_WINDOW (window));
  document = strobe_window_open_file (window, file);
  g_assert_nonnull (document);
  wait_for (loaded, window);

  page = STROBE_DOCUMENT_VIEW (strobe_window_get_current_page (window));
  view = TEST_COUNTERS_VIEW (strobe_document_view_get_view (page, "counters"));
  g_assert_nonnull (view);
  g_assert_true (strobe_document_view_show_view (page, "counters"));
  wait_for ((GSourceFunc) gtk_widget_get_mapped, view);

  /* Every counter, with the values another model computed from the same trace. */
  expected = expected_rows (document);
  g_assert_cmpuint (expected->len, >, 0);
  rows = test_counters_view_dup_rows (view);
  shown = g_strdupv (rows);
  qsort (rows, g_strv_length (rows), sizeof (char *), compare_rows);
  g_assert_cmpuint (g_strv_length (rows), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    g_assert_cmpstr (rows[i], ==, g_ptr_array_index (expected, i));
  /* And on screen: the first counter's name is a visible cell. */
  {
    g_auto(GStrv) first = g_strsplit (rows[0], "|", 2);

    g_assert_nonnull (find_text (GTK_WIDGET (view), first[0]));
  }

  /* Its selection is its own: choosing a counter leaves the shared view state alone. */
  g_assert_null (test_counters_view_get_selected (view));
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (gtk_column_view_get_model (
    GTK_COLUMN_VIEW (find_type (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW)))), 0);
  {
    g_auto(GStrv) first = g_strsplit (shown[0], "|", 2);

    g_assert_cmpstr (test_counters_view_get_selected (view), ==, first[0]);
  }
  g_assert_cmpuint (strobe_view_state_get_cursor (strobe_document_view_get_state (page)), ==, STROBE_VIEW_STATE_NONE);

  /* The registry hands everyone the one instance: the standard models are in it too. */
  g_assert_nonnull (strobe_document_get_model (document, TEST_TYPE_COUNTERS_MODEL));
  g_assert_true (strobe_document_get_model (document, STROBE_TYPE_TIMELINE_MODEL) == strobe_document_get_timeline (document));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
run_tests_cb (GApplication *app, int *status)
{
  g_application_hold (app);
  *status = g_test_run ();
  /* The window activate opened: the application quits when its last window goes. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL;
       l = gtk_application_get_windows (GTK_APPLICATION (app)))
    gtk_window_destroy (l->data);
  g_application_release (app);
}

int
main (int argc, char *argv[])
{
  char *app_argv[] = { argv[0], NULL };
  g_autofree char *store_dir = NULL;
  int status = 1;

  work_dir = test_dir_make_tmp ("strobe-counters-XXXXXX");
  g_setenv ("XDG_DATA_HOME", work_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", work_dir, TRUE);
  g_setenv ("XDG_CACHE_HOME", work_dir, TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  store_dir = g_build_filename (work_dir, "store", NULL);

  /* The one registration line. */
  strobe_view_register (TEST_TYPE_COUNTERS_VIEW);

  g_test_add_func ("/counters-view/shows-counters", test_counters_view);

  the_app = g_object_new (STROBE_TYPE_APPLICATION,
                          "application-id", STROBE_APP_ID,
                          "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                          "resource-base-path", "/org/strobe/Viewer",
                          "store-directory", store_dir,
                          "recorder-port", 0,
                          NULL);
  g_signal_connect_after (the_app, "activate", G_CALLBACK (run_tests_cb), &status);
  if (g_application_run (G_APPLICATION (the_app), 1, app_argv) != 0)
    return 1;
  g_clear_object (&the_app);
  test_dir_remove_all (work_dir);
  return status;
}
