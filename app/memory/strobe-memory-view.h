/* strobe-memory-view.h — the Memory page of a trace: heap over time, what was live at any
 * moment, leaks, range queries and call trees, all answered from the memory model's
 * indexes (core/models), never by reading the trace again.
 *
 * Graphs on the session's time axis (strobe-memory-graph.h) over a summary of the whole
 * trace (strobe-memory-figures.h); below, in tabs: the A/B/C allocation queries
 * (strobe-memory-queries.h), heaptrack's bottom-up and top-down call trees, caller/callee,
 * a flame graph of a chosen cost and a size histogram — over the whole trace or the
 * selected range ("Selected Range"); beside them the call stack of whatever is selected
 * (strobe-memory-stack-panel.h). Notices say what a damaged, cut-off or late-connected trace
 * cannot tell.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-functions-panel.h"
#include "strobe-memory-figures.h"
#include "strobe-flame-graph.h"
#include "strobe-memory-graph.h"
#include "strobe-memory-histogram.h"
#include "strobe-memory-queries.h"
#include "strobe-memory-stack-panel.h"
#include "strobe-memory-tree-panel.h"
#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_VIEW (strobe_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryView, strobe_memory_view, STROBE, MEMORY_VIEW, StrobeView)

/* The parts, for tests and the benchmark. */
StrobeMemoryGraph        *strobe_memory_view_get_graph      (StrobeMemoryView *self);
StrobeMemoryFigures      *strobe_memory_view_get_figures    (StrobeMemoryView *self);
StrobeMemoryQueries      *strobe_memory_view_get_queries    (StrobeMemoryView *self);
StrobeMemoryTreePanel    *strobe_memory_view_get_tree_panel (StrobeMemoryView *self,
                                                             StrobeMemoryTreeKind kind);
StrobeMemoryFunctionsPanel *strobe_memory_view_get_callers    (StrobeMemoryView *self);
StrobeFlameGraph         *strobe_memory_view_get_flame      (StrobeMemoryView *self);
StrobeMemoryHistogram    *strobe_memory_view_get_histogram  (StrobeMemoryView *self);
StrobeMemoryStackPanel        *strobe_memory_view_get_stack      (StrobeMemoryView *self);
GtkColumnView            *strobe_memory_view_get_sizes_table (StrobeMemoryView *self);
/* The tab shown: "allocations", "bottom-up", "top-down", "callers", "flame", "sizes". */
void                      strobe_memory_view_show_tab       (StrobeMemoryView *self,
                                                             const char       *name);
/* TRUE while the call trees (and the histogram) are being made for the current range. */
gboolean                  strobe_memory_view_is_analysing   (StrobeMemoryView *self);
/* The notice shown ("" when none). */
const char               *strobe_memory_view_get_notice     (StrobeMemoryView *self);
/* The view's own selection: the allocation (memory model index) whose stack is shown;
 * STROBE_VIEW_STATE_NONE for none. Setting it shows that allocation's stack. */
guint64                   strobe_memory_view_get_selected_allocation (StrobeMemoryView *self);
void                      strobe_memory_view_set_selected_allocation (StrobeMemoryView *self,
                                                                      guint64           index);
/* Only the selected range for the trees, flame graph and histogram. */
void                      strobe_memory_view_set_range_only (StrobeMemoryView *self,
                                                             gboolean          selected);

G_END_DECLS
