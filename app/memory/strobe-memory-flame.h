/* strobe-memory-flame.h — a flame graph of a memory call tree: the root's row on top,
 * each node as wide as its share of the chosen cost (peak, leaked, allocations,
 * temporary or bytes allocated), its callees below it, largest first. The rectangles
 * and their labels are one cached render node, made again only for a new tree, cost,
 * zoom or width; hover and selection are drawn over it.
 *
 * Mouse: hover names a node (the "hover-text" property), a click selects it, a double
 * click zooms into it. Keys: arrows move the selection (Up: the caller, Down: the
 * largest callee, Left/Right: siblings), Return zooms into it, Backspace or Escape zooms
 * out. Signal "show-node" (guint node) when the selection changes.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_FLAME (strobe_memory_flame_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryFlame, strobe_memory_flame, STROBE, MEMORY_FLAME, GtkWidget)

GtkWidget  *strobe_memory_flame_new          (void);
void        strobe_memory_flame_set_names    (StrobeMemoryFlame *self,
                                              StrobeMemoryNames *names);
/* A top-down tree (NULL: empty). */
void        strobe_memory_flame_set_tree     (StrobeMemoryFlame *self,
                                              StrobeMemoryTree  *tree);
void        strobe_memory_flame_set_cost     (StrobeMemoryFlame *self,
                                              StrobeMemoryCost   cost);
StrobeMemoryCost strobe_memory_flame_get_cost (StrobeMemoryFlame *self);
/* The node drawn as the whole width (0: the root). */
void        strobe_memory_flame_zoom         (StrobeMemoryFlame *self,
                                              guint              node);
guint       strobe_memory_flame_get_zoom     (StrobeMemoryFlame *self);
void        strobe_memory_flame_select       (StrobeMemoryFlame *self,
                                              guint              node);
/* G_MAXUINT: none. */
guint       strobe_memory_flame_get_selected (StrobeMemoryFlame *self);
/* The node drawn at (@x, @y), G_MAXUINT when none (tests). */
guint       strobe_memory_flame_node_at      (StrobeMemoryFlame *self,
                                              double             x,
                                              double             y);
/* How many rectangles are drawn (tests). */
guint       strobe_memory_flame_get_n_drawn  (StrobeMemoryFlame *self);
const char *strobe_memory_flame_get_hover_text (StrobeMemoryFlame *self);

G_END_DECLS
