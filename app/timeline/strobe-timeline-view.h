/* strobe-timeline-view.h — the "Timeline" page of a trace: the timeline widget with its
 * toolbar (follow live, zoom, colours, frame target, tracks), find (Ctrl+F, F3 /
 * Shift+F3), the details of the selected scope under it and the timers panel beside it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-samples-panel.h"
#include "strobe-timeline-widget.h"
#include "strobe-timers-panel.h"
#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMELINE_VIEW (strobe_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimelineView, strobe_timeline_view, STROBE, TIMELINE_VIEW, StrobeView)

StrobeTimelineWidget *strobe_timeline_view_get_timeline   (StrobeTimelineView *self);
StrobeTimersPanel    *strobe_timeline_view_get_timers     (StrobeTimelineView *self);
/* The Samples panel beside the timers (app/samples): the selected scope's or range's samples. */
StrobeSamplesPanel   *strobe_timeline_view_get_samples    (StrobeTimelineView *self);
/* Brings "timers" or "samples" to the front of the side panel. */
void                  strobe_timeline_view_show_side      (StrobeTimelineView *self,
                                                           const char         *page);
/* Starts a search for scope names containing @text (what typing in the find bar does). */
void                  strobe_timeline_view_find           (StrobeTimelineView *self,
                                                           const char         *text);
/* Matches of the last search (-1 while it runs). */
gint64                strobe_timeline_view_get_match_count (StrobeTimelineView *self);
/* Goes to the next (or previous) match, centred and selected. */
void                  strobe_timeline_view_find_step      (StrobeTimelineView *self,
                                                           gboolean            backward);
/* The details panel's text (what assistive technologies read). */
const char           *strobe_timeline_view_get_details    (StrobeTimelineView *self);
/* TRUE while the details of the selected scope are being gathered. */
gboolean              strobe_timeline_view_is_busy        (StrobeTimelineView *self);

G_END_DECLS
