/* widget-render.h — a shown widget drawn as its window's renderer draws it, for the tests
 * that look at pixels (the memory view's snapshots, the log's level icon) and strobe-shot.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

/* @widget (in a shown window) as a texture; NULL: nothing drawn. */
static inline GdkTexture *
widget_render (GtkWidget *widget)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL || renderer == NULL)
    return NULL;
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
}
