/* timeline-shot.c — renders the timeline view of a trace to a PNG, as the snapshot tests
 * do (for looking at it, and for making a snapshot test's expected image).
 *
 * Usage: timeline-shot TRACE OUT.png [WIDTH HEIGHT [FROM TO]] (FROM, TO: seconds from the
 * trace's start). Run with GSK_RENDERER=cairo GDK_BACKEND=x11 under xvfb-run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "timeline-common.h"

int
main (int argc, char **argv)
{
  TimelineFixture f = { 0 };
  g_autoptr(GdkTexture) texture = NULL;
  int width = 1400, height = 900;

  if (argc < 3)
    {
      g_printerr ("usage: %s TRACE OUT.png [WIDTH HEIGHT [FROM TO]]\n", argv[0]);
      return 2;
    }
  if (argc >= 5)
    {
      width = atoi (argv[3]);
      height = atoi (argv[4]);
    }
  gtk_init ();
  timeline_fixture_open (&f, argv[1], width, height);
  if (argc >= 7)
    {
      StrobeTraceClock clock;
      strobe_document_get_clock (f.document, &clock);
      strobe_view_state_set_visible_range (f.state, strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (argv[5], NULL)),
                                           strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (argv[6], NULL)));
    }
  if (g_getenv ("SHOT_SELECT"))
    {
      StrobeTraceClock clock;
      g_auto(GStrv) v = g_strsplit (g_getenv ("SHOT_SELECT"), ",", 2);
      strobe_document_get_clock (f.document, &clock);
      strobe_view_state_set_selection (f.state, strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (v[0], NULL)),
                                       strobe_trace_clock_from_seconds (&clock, g_ascii_strtod (v[1], NULL)));
    }
  timeline_fixture_settle (&f, 60);
  texture = timeline_render_complete (&f, GTK_WIDGET (f.view), 60);
  if (g_getenv ("SHOT_NODES"))
    {
      GskRenderNode *node = NULL;
      g_autoptr(GdkTexture) again = timeline_render (GTK_WIDGET (f.view), &node);
      gsk_render_node_write_to_file (node, g_getenv ("SHOT_NODES"), NULL);
      gsk_render_node_unref (node);
    }
  if (!gdk_texture_save_to_png (texture, argv[2]))
    {
      g_printerr ("cannot write %s\n", argv[2]);
      return 1;
    }
  timeline_fixture_close (&f);
  return 0;
}
