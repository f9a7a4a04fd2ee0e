/* strobe-flame-graph.h — the call tree of a range merged by name path (strobe-call-tree.h)
 * drawn as a flame graph: the outermost scopes at the top, each node as wide as its
 * inclusive time. Click (or Enter) zooms into a node, Backspace (or a click on an
 * ancestor) zooms out; the arrow keys move between nodes; the chosen node is described to
 * assistive technologies.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-cost-tree.h"
#include "strobe-timeline-model.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

#define STROBE_TYPE_FLAME_GRAPH (strobe_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (StrobeFlameGraph, strobe_flame_graph, STROBE, FLAME_GRAPH, GtkWidget)

GtkWidget *strobe_flame_graph_new      (void);
/* @tree: strobe_call_tree_compute()'s (a reference is taken); NULL clears. */
void       strobe_flame_graph_set_tree (StrobeFlameGraph       *self,
                                        StrobeTimelineModel    *model,
                                        StrobeCostTree         *tree,
                                        const StrobeTraceClock *clock);
/* Nodes drawn in name @name_id stand out; G_MAXUINT32: none. */
void       strobe_flame_graph_set_highlight (StrobeFlameGraph  *self,
                                             guint32            name_id);

G_END_DECLS
