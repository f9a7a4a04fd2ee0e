/* strobe-memory-tree-panel.h — a memory call tree (heaptrack's top-down or bottom-up)
 * in a GtkColumnView over a GtkTreeListModel: function, then the inclusive peak, leaked,
 * allocations, temporary and bytes allocated of every stack through the node, and its
 * self peak and allocations. Children are made when a node is expanded, sorted by the
 * column clicked (descending first).
 *
 * Signal "show-node" (guint node of the tree) when a row is selected.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_TREE_PANEL (strobe_memory_tree_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryTreePanel, strobe_memory_tree_panel, STROBE, MEMORY_TREE_PANEL, GtkWidget)

GtkWidget        *strobe_memory_tree_panel_new       (const char            *accessible_name);
void              strobe_memory_tree_panel_set_names (StrobeMemoryTreePanel *self,
                                                      StrobeMemoryNames     *names);
/* NULL: empty. */
void              strobe_memory_tree_panel_set_tree  (StrobeMemoryTreePanel *self,
                                                      StrobeMemoryTree      *tree);
StrobeMemoryTree *strobe_memory_tree_panel_get_tree  (StrobeMemoryTreePanel *self);
GtkColumnView    *strobe_memory_tree_panel_get_view  (StrobeMemoryTreePanel *self);
/* Expands the first row's chain of largest children, @levels deep (tests, and a first
 * look at a new tree). */
void              strobe_memory_tree_panel_expand_top (StrobeMemoryTreePanel *self,
                                                       guint                  levels);

G_END_DECLS
