/* strobe-memory-graph.h — the memory view's graphs on the trace's time axis: live bytes
 * (with their extremes within each pixel), live allocations, allocations and frees per
 * second, and live bytes stacked by tag and by heap. They show the view state's visible
 * range (the whole trace until another view sets one), its selection, cursor and hover,
 * and the markers A, B and C of the memory queries.
 *
 * The range, the clock, the selection and the cursor are the time axis's
 * (strobe-time-axis.h). The samples come from a query in a thread (strobe-memory-series.h); what they draw is
 * rasterized once into textures and reused, frame after frame, until new samples or a
 * new size come — while the next samples are on their way the last ones are stretched
 * onto the new range. Only hover, selection, cursor and markers are drawn anew.
 *
 * Mouse: the pointer sets the shared hover and shows the values there; a click sets the
 * cursor, a drag selects a range; the context menu sets a marker. Keys: Left/Right move
 * the cursor (Shift: select), Home/End, a/b/c set a marker at the cursor, Escape clears
 * the selection.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-info-analyzer.h"
#include "strobe-memory-names.h"
#include "strobe-memory-series.h"
#include "strobe-time-axis.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_MEMORY_LANE_BYTES,
  STROBE_MEMORY_LANE_COUNT,
  STROBE_MEMORY_LANE_RATE,
  STROBE_MEMORY_LANE_TAGS,
  STROBE_MEMORY_LANE_HEAPS,
  STROBE_MEMORY_N_LANES
} StrobeMemoryLane;

#define STROBE_TYPE_MEMORY_GRAPH (strobe_memory_graph_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryGraph, strobe_memory_graph, STROBE, MEMORY_GRAPH, GtkWidget)

GtkWidget *strobe_memory_graph_new          (void);
/* The time axis: the clock, the range shown (its bounds: what the graphs span), the
 * selection and the cursor. */
void       strobe_memory_graph_set_sources  (StrobeMemoryGraph      *self,
                                             StrobeMemoryNames      *names,
                                             StrobeTimeAxis         *axis);
/* The model grew: new samples (at most four times a second). While it is @growing (a trace
 * read or recorded) the graphs are made again at most a fifth of the time; once it is not,
 * at once. */
void       strobe_memory_graph_model_changed (StrobeMemoryGraph     *self,
                                              gboolean               growing);
/* What the graphs say over themselves while they are made for long (over 0.3 s, and not
 * just the trace grown a little): "Drawing the graphs… 40 %"; NULL when nothing. */
char      *strobe_memory_graph_dup_drawing_note (StrobeMemoryGraph  *self);
/* @which 0, 1, 2 for A, B, C; STROBE_VIEW_STATE_NONE hides it. */
void       strobe_memory_graph_set_marker   (StrobeMemoryGraph      *self,
                                             guint                   which,
                                             guint64                 time);
void       strobe_memory_graph_set_lane_visible (StrobeMemoryGraph  *self,
                                                 StrobeMemoryLane    lane,
                                                 gboolean            visible);
gboolean   strobe_memory_graph_get_lane_visible (StrobeMemoryGraph  *self,
                                                 StrobeMemoryLane    lane);
/* When the Memory channel was off (StrobeInfoGap, strobe_info_analyzer_dup_channel_gaps):
 * drawn as not recorded — hatched, labelled, and the hover says so — rather than as the
 * flat line the samples make there. Copied. */
void       strobe_memory_graph_set_gaps     (StrobeMemoryGraph      *self,
                                             GArray                 *gaps);
/* Where the memory model stopped reading (its budget: StrobeMemorySummary.not_analysed_from),
 * G_MAXUINT64 for nowhere: what follows drawn as not analysed, as the gaps are. */
void       strobe_memory_graph_set_not_analysed_from (StrobeMemoryGraph *self,
                                                      guint64            time);
/* The range shown: the visible range, or the whole trace when that is outside it. */
gboolean   strobe_memory_graph_get_range    (StrobeMemoryGraph      *self,
                                             guint64                *start,
                                             guint64                *end);
/* TRUE when what is drawn is the current range's samples (tests, benchmark). */
gboolean   strobe_memory_graph_is_ready     (StrobeMemoryGraph      *self);
/* The samples drawn (NULL before the first). */
StrobeMemorySeries *strobe_memory_graph_get_series (StrobeMemoryGraph *self);
/* The values the hover shows at @time, one line each (tests). */
char      *strobe_memory_graph_describe_at  (StrobeMemoryGraph      *self,
                                             guint64                 time);

G_END_DECLS
