/* timeline-common.h — what the timeline's tests and its benchmark share: a trace loaded
 * into a StrobeDocument, the timeline view in a window of a fixed size, and the widget
 * rendered to a texture the way GTK would draw it (GSK's cairo renderer under
 * GSK_RENDERER=cairo), waiting until every tile is drawn.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-timeline-view.h"

G_BEGIN_DECLS

typedef struct
{
  StrobeDocument     *document;
  StrobeViewState    *state;
  GtkWindow          *window;
  StrobeTimelineView *view;
} TimelineFixture;

/* Loads @path (all models) synchronously and shows its timeline view in a @width × @height
 * window. */
void        timeline_fixture_open     (TimelineFixture *f,
                                       const char      *path,
                                       int              width,
                                       int              height);
void        timeline_fixture_close    (TimelineFixture *f);
/* Iterates the main context until the view has nothing pending (tiles, statistics,
 * details), or fails after @timeout_s. */
void        timeline_fixture_settle   (TimelineFixture *f,
                                       double           timeout_s);
/* @widget as GTK draws it: snapshot → render node → the window's renderer → texture.
 * @node_out (may be NULL) receives the render node. */
GdkTexture *timeline_render           (GtkWidget       *widget,
                                       GskRenderNode  **node_out);
/* Renders until nothing is pending after a render, so the picture is complete. */
GdkTexture *timeline_render_complete  (TimelineFixture *f,
                                       GtkWidget       *widget,
                                       double           timeout_s);

G_END_DECLS
