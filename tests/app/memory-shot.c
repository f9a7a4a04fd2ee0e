/* memory-shot.c — renders the memory view of a trace to a PNG, as its snapshot test does
 * (for looking at it, and for making the test's expected image).
 *
 * Usage: memory-shot TRACE OUT.png [WIDTH HEIGHT [TAB [GRAPH.png]]] (TAB: allocations,
 * bottom-up, top-down, callers, flame, sizes). Run with GSK_RENDERER=cairo GDK_BACKEND=x11
 * under xvfb-run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "memory-common.h"

int
main (int argc, char **argv)
{
  MemoryFixture f = { 0 };
  g_autoptr (GdkTexture) texture = NULL;
  int width = 1400, height = 900;

  if (argc < 3)
    {
      g_printerr ("usage: %s TRACE OUT.png [WIDTH HEIGHT [TAB [GRAPH.png]]]\n", argv[0]);
      return 2;
    }
  if (argc >= 5)
    {
      width = atoi (argv[3]);
      height = atoi (argv[4]);
    }
  gtk_init ();
  memory_fixture_open (&f, argv[1], width, height);
  if (argc >= 6)
    {
      strobe_memory_view_show_tab (f.view, argv[5]);
      strobe_memory_tree_panel_expand_top (strobe_memory_view_get_tree_panel (f.view, STROBE_MEMORY_TREE_BOTTOM_UP), 3);
      strobe_memory_tree_panel_expand_top (strobe_memory_view_get_tree_panel (f.view, STROBE_MEMORY_TREE_TOP_DOWN), 6);
    }
  if (!memory_fixture_settle (&f, 30))
    g_printerr ("the view did not settle\n");
  memory_iterate (200);
  texture = widget_render (GTK_WIDGET (f.window));
  if (texture == NULL || !gdk_texture_save_to_png (texture, argv[2]))
    {
      g_printerr ("cannot write %s\n", argv[2]);
      return 1;
    }
  if (argc >= 7)
    {
      g_autoptr (GdkTexture) graph = widget_render (GTK_WIDGET (strobe_memory_view_get_graph (f.view)));
      gdk_texture_save_to_png (graph, argv[6]);
    }
  memory_fixture_close (&f);
  return 0;
}
