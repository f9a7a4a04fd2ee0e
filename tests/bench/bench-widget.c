/* bench-widget.c — see bench-widget.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "bench-widget.h"

#include "strobe-give-way.h"
#include "strobe-heap-reserve.h"

void
bench_view_process (void)
{
  strobe_heap_reserve_start ();
  strobe_give_way_enable ();
  if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
}

gboolean
bench_view_gtk_init (void)
{
  static GtkCssProvider *css;

  if (!gtk_init_check ())
    return FALSE;
  if (css == NULL)
    {
      css = gtk_css_provider_new ();
      gtk_css_provider_load_from_resource (css, "/org/strobe/Viewer/style.css");
      gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    }
  return TRUE;
}

void
bench_iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

GskRenderNode *
bench_widget_snapshot (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  graphene_point_t origin;

  gtk_widget_queue_draw (widget);
  if (!gtk_widget_compute_point (widget, gtk_widget_get_parent (widget), &GRAPHENE_POINT_INIT (0, 0), &origin))
    origin = GRAPHENE_POINT_INIT (0, 0);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-origin.x, -origin.y));
  gtk_widget_snapshot_child (gtk_widget_get_parent (widget), widget, snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}
