/* strobe-flame-graph.h — the one flame graph: a StrobeCostTree drawn as rows of rectangles,
 * each node as wide as its share of its parent's value in one cost column, its children
 * below it, largest first. What the nodes are (their names, colours and what their cost
 * says) the view that owns the tree tells through StrobeFlameGraphFuncs, so the CPU timers
 * and the memory call trees draw with the same widget.
 *
 * Mouse: hovering names a node ("hover-text", and the tooltip when "has-tooltip" is set);
 * a click selects a node and a double click zooms into it, or with "click-zooms" a click
 * zooms (and selects); the secondary button zooms out a level. With "show-ancestors" the
 * zoomed node's ancestors stay drawn above it, full width (a click on one zooms out to
 * it); without, the zoomed node is the top row.
 *
 * Keys: arrows move the selection (Up: the parent, Down: the largest child, Left/Right:
 * the neighbour on the row), Return zooms into it, Backspace zooms out a level, Escape to
 * the top. "show-node" (guint node) when the selection changes. The accessible
 * description is the hover text.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-cost-tree.h"

G_BEGIN_DECLS

#define STROBE_FLAME_GRAPH_NO_HIGHLIGHT G_MAXUINT64

/* What a view says about its tree's nodes (@node is never the root for @colors: the root
 * is grey in every flame graph). */
typedef struct
{
  char *(*name)     (StrobeCostTree *tree, guint node, gpointer user_data);
  char *(*describe) (StrobeCostTree *tree, guint node, gpointer user_data);
  void  (*colors)   (StrobeCostTree *tree, guint node, GdkRGBA *fill, GdkRGBA *text, gpointer user_data);
} StrobeFlameGraphFuncs;

#define STROBE_TYPE_FLAME_GRAPH (strobe_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (StrobeFlameGraph, strobe_flame_graph, STROBE, FLAME_GRAPH, GtkWidget)

GtkWidget  *strobe_flame_graph_new            (void);
void        strobe_flame_graph_set_funcs      (StrobeFlameGraph            *self,
                                               const StrobeFlameGraphFuncs *funcs,
                                               gpointer                     user_data,
                                               GDestroyNotify               destroy);
/* @tree (a reference is taken; NULL: empty) drawn by @column's inclusive values (signed
 * columns: negative as 0), children in that order, descending, equal ones by @ties. The
 * zoom goes back to the root, the selection is cleared. */
void        strobe_flame_graph_set_tree       (StrobeFlameGraph            *self,
                                               StrobeCostTree              *tree,
                                               guint                        column,
                                               StrobeCostSortFlags          ties);
StrobeCostTree *strobe_flame_graph_get_tree   (StrobeFlameGraph            *self);
void        strobe_flame_graph_set_column     (StrobeFlameGraph            *self,
                                               guint                        column);
guint       strobe_flame_graph_get_column     (StrobeFlameGraph            *self);
/* Nodes of another key are dimmed; STROBE_FLAME_GRAPH_NO_HIGHLIGHT: none. */
void        strobe_flame_graph_set_highlight  (StrobeFlameGraph            *self,
                                               guint64                      key);
/* The node drawn as the whole width (0: the root). */
void        strobe_flame_graph_zoom           (StrobeFlameGraph            *self,
                                               guint                        node);
guint       strobe_flame_graph_get_zoom       (StrobeFlameGraph            *self);
/* G_MAXUINT: none. */
void        strobe_flame_graph_select         (StrobeFlameGraph            *self,
                                               guint                        node);
guint       strobe_flame_graph_get_selected   (StrobeFlameGraph            *self);
const char *strobe_flame_graph_get_hover_text (StrobeFlameGraph            *self);
/* The node drawn at (@x, @y), G_MAXUINT when none. */
guint       strobe_flame_graph_node_at        (StrobeFlameGraph            *self,
                                               double                       x,
                                               double                       y);
/* How many rectangles are drawn (tests). */
guint       strobe_flame_graph_get_n_drawn    (StrobeFlameGraph            *self);

G_END_DECLS
