/* timeline-common.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-sample-model.h"
#include "timeline-common.h"
#include "strobe-view.h"

void
timeline_fixture_open (TimelineFixture *f, const char *path, int width, int height)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  f->document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  /* The viewer makes its views, which name the models they need, before it loads: the
   * timeline names the sample model (its strip, CPU track and Samples panel). */
  strobe_document_get_model (f->document, STROBE_TYPE_SAMPLE_MODEL);
  strobe_document_load (f->document, NULL, &error);
  /* A damaged or cut-off trace loads what it can: that is what the view shows. */
  g_assert_true (strobe_document_get_status (f->document) != STROBE_DOCUMENT_STATUS_FAILED);
  f->state = strobe_view_state_new ();
  f->view = STROBE_TIMELINE_VIEW (strobe_view_new (STROBE_TYPE_TIMELINE_VIEW, f->document, f->state));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, width, height);
  gtk_window_set_decorated (f->window, FALSE);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  timeline_fixture_settle (f, 20);
}

void
timeline_fixture_close (TimelineFixture *f)
{
  if (f->window)
    gtk_window_destroy (f->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&f->state);
  g_clear_object (&f->document);
  f->window = NULL;
  f->view = NULL;
}

void
timeline_fixture_settle (TimelineFixture *f, double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  int quiet = 0;

  /* Busy means a worker will report back: wait for it, then a few idle turns for the
   * layout and the frame clock. */
  while (quiet < 5)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the timeline did not settle in %.0f s", timeout_s);
      if (g_main_context_iteration (NULL, FALSE))
        continue;
      if (strobe_timeline_view_is_busy (f->view))
        {
          quiet = 0;
          g_usleep (1000);
          continue;
        }
      quiet++;
      g_usleep (1000);
    }
}

GdkTexture *
timeline_render (GtkWidget *widget, GskRenderNode **node_out)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkWidget *parent = gtk_widget_get_parent (widget);
  GskRenderNode *node;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  GdkTexture *texture;
  graphene_point_t origin;

  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);
  g_assert_nonnull (parent);
  /* What GTK does for a frame: the widget's snapshot (drawn again, not its last node),
   * then the renderer. Placed at the origin, whatever its position in the window. */
  gtk_widget_queue_draw (widget);
  if (!gtk_widget_compute_point (widget, parent, &GRAPHENE_POINT_INIT (0, 0), &origin))
    origin = GRAPHENE_POINT_INIT (0, 0);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-origin.x, -origin.y));
  gtk_widget_snapshot_child (parent, widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (node_out)
    *node_out = node;
  else
    gsk_render_node_unref (node);
  return texture;
}

GdkTexture *
timeline_render_complete (TimelineFixture *f, GtkWidget *widget, double timeout_s)
{
  for (int i = 0; i < 50; i++)
    {
      GdkTexture *t = timeline_render (widget, NULL);

      /* Complete: every tile drawn was current, and nothing is on its way. */
      if (!strobe_timeline_view_is_busy (f->view)
          && strobe_timeline_widget_get_incomplete (strobe_timeline_view_get_timeline (f->view)) == 0)
        return t;
      g_object_unref (t);
      timeline_fixture_settle (f, timeout_s);
    }
  g_error ("the timeline kept asking for tiles");
  return NULL;
}
