/* memory-common.h — the memory view on a trace in a window of its own, for the memory
 * view's tests, its snapshot tool and its benchmark: open, wait until every part has its
 * answer, render to a texture as the window would (GSK's renderer, offscreen).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "widget-render.h"

#include "strobe-document.h"
#include "strobe-memory-view.h"

typedef struct
{
  StrobeDocument   *document;
  StrobeViewState  *state;
  StrobeMemoryView *view;
  GtkWindow        *window;
} MemoryFixture;

/* Loads @path (synchronously), shows the view at @width × @height and waits until it has
 * settled. */
void        memory_fixture_open   (MemoryFixture *f, const char *path, int width, int height);
/* The main loop until the graph, the query and the trees have their answers (at most
 * @seconds). FALSE when they did not. */
gboolean    memory_fixture_settle (MemoryFixture *f, double seconds);
void        memory_fixture_close  (MemoryFixture *f);
/* Runs the main loop for about @ms milliseconds. */
void        memory_iterate        (guint ms);
/* @actual against $GOLDEN_DIR/@name.png within a tolerance (a channel may differ by 24,
 * one pixel in 200 by more: text hinting moves); fails the test naming the pixels and
 * leaving @name-actual.png in the current directory. STROBE_UPDATE_SNAPSHOT=1 rewrites
 * the golden image first. */
void        memory_check_snapshot (GdkTexture *actual, const char *name);
