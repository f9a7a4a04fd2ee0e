/* memory-common.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "memory-common.h"

void
memory_iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  do
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (2000);
    }
  while (g_get_monotonic_time () < end);
}

static gboolean
settled (MemoryFixture *f)
{
  StrobeMemoryView *v = f->view;

  return gtk_widget_get_mapped (GTK_WIDGET (v)) && strobe_memory_graph_is_ready (strobe_memory_view_get_graph (v)) &&
         !strobe_memory_queries_is_running (strobe_memory_view_get_queries (v)) && !strobe_memory_view_is_analysing (v);
}

gboolean
memory_fixture_settle (MemoryFixture *f, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  /* Twice in a row: an answer may start the next query. */
  for (guint calm = 0; calm < 3;)
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      memory_iterate (20);
      calm = settled (f) ? calm + 1 : 0;
    }
  return TRUE;
}

void
memory_fixture_open (MemoryFixture *f, const char *path, int width, int height)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (css, "/org/strobe/Viewer/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  f->document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  strobe_document_load (f->document, NULL, NULL);
  f->state = strobe_view_state_new ();
  f->view = STROBE_MEMORY_VIEW (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, f->document, f->state));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, width, height);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  memory_fixture_settle (f, 30);
}

void
memory_fixture_close (MemoryFixture *f)
{
  if (f->window)
    gtk_window_destroy (f->window);
  memory_iterate (10);
  g_clear_object (&f->state);
  g_clear_object (&f->document);
  f->window = NULL;
  f->view = NULL;
}

void
memory_check_snapshot (GdkTexture *actual, const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s.png", name);
  g_autofree char *expected_path = g_build_filename (g_getenv ("GOLDEN_DIR"), file, NULL);
  g_autoptr (GdkTexture) expected = NULL;
  g_autoptr (GError) error = NULL;
  int w = gdk_texture_get_width (actual), h = gdk_texture_get_height (actual);
  g_autofree guchar *pa = NULL, *pe = NULL;
  guint64 differing = 0;

  if (g_getenv ("STROBE_UPDATE_SNAPSHOT"))
    gdk_texture_save_to_png (actual, expected_path);
  expected = gdk_texture_new_from_filename (expected_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (expected), ==, w);
  g_assert_cmpint (gdk_texture_get_height (expected), ==, h);
  pa = g_malloc ((gsize) w * (gsize) h * 4);
  pe = g_malloc ((gsize) w * (gsize) h * 4);
  gdk_texture_download (actual, pa, (gsize) w * 4);
  gdk_texture_download (expected, pe, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * (gsize) h; i++)
    for (guint ch = 0; ch < 4; ch++)
      if (ABS ((int) pa[i * 4 + ch] - (int) pe[i * 4 + ch]) > 24)
        {
          differing++;
          break;
        }
  if (differing > (guint64) w * (guint64) h / 200)
    {
      g_autofree char *actual_file = g_strdup_printf ("%s-actual.png", name);
      g_autofree char *out = g_build_filename (g_get_current_dir (), actual_file, NULL);

      gdk_texture_save_to_png (actual, out);
      g_error ("%s differs from %s in %" G_GUINT64_FORMAT " pixels: the actual image is %s", name, expected_path,
               differing, out);
    }
}
