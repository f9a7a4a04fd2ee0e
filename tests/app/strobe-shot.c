/* strobe-shot.c — the viewer's pictures for the README: opens a trace in a real window,
 * shows each view named on the command line, waits until it has drawn, and saves the
 * window as a PNG. Run under a display (xvfb-run) with GSK_RENDERER=cairo;
 * build-aux/make-screenshots.sh drives it.
 *
 *   strobe-shot TRACE OUTDIR [WIDTHxHEIGHT] [PAGE…]     (pages: overview timeline log memory,
 *                                                        samples: the timeline's Samples panel
 *                                                        on the slowest "A* search")
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>

#include "strobe-application.h"
#include "strobe-build-tree.h"
#include "strobe-document-view.h"
#include "strobe-scope-search.h"
#include "strobe-timeline-view.h"
#include "strobe-window.h"
#include "widget-render.h"

static int status = 1;
static char **arguments;
static int n_arguments;

static void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static gboolean
save_png (GtkWidget *widget, const char *path)
{
  g_autoptr(GdkTexture) texture = widget_render (widget);

  return texture != NULL && gdk_texture_save_to_png (texture, path);
}

/* The pseudo-page "samples": the timeline with the demo's longest "A* search" scope selected
 * and the Samples panel's flame graph of its interval beside it (where its time went). */
static gboolean
show_samples (StrobeDocumentView *view)
{
  StrobeTimelineModel *m = strobe_document_get_timeline (strobe_document_view_get_document (view));
  StrobeTimelineView *timeline;
  StrobeScopeMatch match;
  StrobeScopeRef ref;
  guint32 id = G_MAXUINT32;

  if (m == NULL || !strobe_document_view_show_view (view, "timeline"))
    return FALSE;
  timeline = STROBE_TIMELINE_VIEW (strobe_document_view_get_view (view, "timeline"));
  if (!strobe_timeline_model_find_name (m, "A* search", &id) || !strobe_scope_search_longest (m, id, 0, G_MAXUINT64, &match, NULL, NULL))
    return FALSE;
  ref = (StrobeScopeRef) { match.thread_id, match.depth, match.name_id, match.begin, match.end };
  strobe_timeline_widget_show_scope (strobe_timeline_view_get_timeline (timeline), &ref);
  strobe_timeline_view_show_side (timeline, "samples");
  gtk_stack_set_visible_child_name (strobe_samples_panel_get_pages (strobe_timeline_view_get_samples (timeline)),
                                    "flame");
  return TRUE;
}

static void
activate_cb (GApplication *app)
{
  const char *trace = arguments[1], *outdir = arguments[2];
  int width = 1400, height = 860, first_page = 3;
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (trace);
  StrobeWindow *window;
  StrobeDocument *document;
  GtkWidget *view;
  gint64 deadline;

  g_application_hold (app);
  if (n_arguments > 3 && sscanf (arguments[3], "%dx%d", &width, &height) == 2)
    first_page = 4;
  window = strobe_window_new (GTK_APPLICATION (app), strobe_application_get_services (STROBE_APPLICATION (app)));
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  document = strobe_window_open_file (window, file);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!strobe_document_is_loaded (document) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  if (!strobe_document_is_loaded (document) || strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    {
      g_printerr ("strobe-shot: could not load %s\n", trace);
      goto out;
    }
  view = strobe_window_get_current_page (window);
  status = 0;
  for (int i = first_page; i < n_arguments; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.png", arguments[i]);
      g_autofree char *path = g_build_filename (outdir, name, NULL);

      if (g_str_equal (arguments[i], "samples") ? !show_samples (STROBE_DOCUMENT_VIEW (view))
                                                : !strobe_document_view_show_view (STROBE_DOCUMENT_VIEW (view), arguments[i]))
        {
          g_printerr ("strobe-shot: the viewer has no view “%s”\n", arguments[i]);
          status = 1;
          continue;
        }
      /* Views draw and query on workers: give them time to finish what they show. */
      iterate_for (2500);
      if (!save_png (GTK_WIDGET (window), path))
        {
          g_printerr ("strobe-shot: could not write %s\n", path);
          status = 1;
          continue;
        }
      g_print ("%s\n", path);
    }
out:
  gtk_window_destroy (GTK_WINDOW (window));
  g_application_release (app);
  /* The application stays up for its recorder while it has no window: say we are done. */
  g_application_quit (app);
}

int
main (int argc, char **argv)
{
  g_autoptr(StrobeApplication) app = NULL;
  g_autofree char *home = g_dir_make_tmp ("strobe-shot-XXXXXX", NULL);
  g_autofree char *store = g_build_filename (home, "store", NULL);
  char *app_argv[] = { argv[0], NULL };

  if (argc < 4)
    {
      g_printerr ("usage: strobe-shot TRACE OUTDIR [WIDTHxHEIGHT] PAGE…\n");
      return 2;
    }
  arguments = argv;
  n_arguments = argc;
  strobe_build_tree_init_i18n ();
  /* Nothing of the user's: settings in memory, a store of its own, any free port. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("GTK_USE_PORTAL", "0", TRUE);
  app = g_object_new (STROBE_TYPE_APPLICATION,
                      "application-id", STROBE_APP_ID ".Screenshots",
                      "flags", G_APPLICATION_NON_UNIQUE,
                      "resource-base-path", "/org/strobe/Viewer",
                      "store-directory", store,
                      "recorder-port", 0,
                      NULL);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  g_application_run (G_APPLICATION (app), 1, app_argv);
  return status;
}
