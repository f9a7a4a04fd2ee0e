/* strobe-memory-queries.h — Unreal's investigation queries with markers A, B and C: the
 * allocations live at A; allocated in [A, B]; allocated in [A, B] and still live at C
 * (growth); freed in [A, B]; leaks (never freed); short- and long-lived ones (allocated in
 * [A, B], freed within a lifetime, or living longer). Markers are set from the graph,
 * from the view state's cursor (the timeline's) or typed in seconds.
 *
 * The answer is a table (address, size, tag, heap, thread, allocation and free time, top
 * frame) sorted by any column, with its totals, and optionally grouped by tag, heap,
 * size, thread, function or call stack in a second table with each group's totals.
 * Queries run off the main thread (strobe-memory-job.h), cancellable, with progress;
 * sorting by another column runs the query again in that order.
 *
 * Signals: "show-allocation" (guint64 model index) when a row is selected;
 * "show-group" (StrobeMemoryCostItem) when a group is; "markers-changed".
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-names.h"
#include "strobe-time-axis.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_QUERIES (strobe_memory_queries_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryQueries, strobe_memory_queries, STROBE, MEMORY_QUERIES, GtkWidget)

/* No grouping, for set_group_by. */
#define STROBE_MEMORY_QUERIES_NO_GROUPS (-1)

GtkWidget             *strobe_memory_queries_new            (void);
/* The time axis: the clock, the cursor and the selection the markers may come from. */
void                   strobe_memory_queries_set_sources    (StrobeMemoryQueries    *self,
                                                             StrobeMemoryNames      *names,
                                                             StrobeTimeAxis         *axis);
/* The trace's extent (first, last tick): the markers' first places. */
void                   strobe_memory_queries_set_trace      (StrobeMemoryQueries    *self,
                                                             guint64                 first,
                                                             guint64                 last);
/* @which 0, 1, 2: A, B, C. */
void                   strobe_memory_queries_set_marker     (StrobeMemoryQueries    *self,
                                                             guint                   which,
                                                             guint64                 time);
guint64                strobe_memory_queries_get_marker     (StrobeMemoryQueries    *self,
                                                             guint                   which);
/* The short-/long-lived threshold, in ticks. */
void                   strobe_memory_queries_set_lifetime   (StrobeMemoryQueries    *self,
                                                             guint64                 ticks);
void                   strobe_memory_queries_set_kind       (StrobeMemoryQueries    *self,
                                                             StrobeMemorySelect      kind);
StrobeMemorySelect     strobe_memory_queries_get_kind       (StrobeMemoryQueries    *self);
/* A StrobeMemoryGroupBy, or STROBE_MEMORY_QUERIES_NO_GROUPS. */
void                   strobe_memory_queries_set_group_by   (StrobeMemoryQueries    *self,
                                                             int                     by);
void                   strobe_memory_queries_run            (StrobeMemoryQueries    *self);
void                   strobe_memory_queries_cancel         (StrobeMemoryQueries    *self);
gboolean               strobe_memory_queries_is_running     (StrobeMemoryQueries    *self);
/* The answer shown (NULL before the first). */
StrobeMemoryAllocList *strobe_memory_queries_get_result     (StrobeMemoryQueries    *self);
GtkColumnView         *strobe_memory_queries_get_table      (StrobeMemoryQueries    *self);
GtkColumnView         *strobe_memory_queries_get_groups_table (StrobeMemoryQueries  *self);
/* "10 allocations, 12 340 bytes (12.3 kB)" */
const char            *strobe_memory_queries_get_totals_text (StrobeMemoryQueries   *self);
/* The focus goes to the table (or the query's first control when it is empty). */
void                   strobe_memory_queries_focus          (StrobeMemoryQueries    *self);

G_END_DECLS
