/* strobe-timeline-widget.h — the timeline itself: a ruler over frames, regions, thread
 * groups and threads (nested CPU scopes as a flame chart, log messages as ticks) and
 * counters, drawn with GtkSnapshot from tiles painted off the main thread.
 *
 * It owns the visible range and the selection of the trace's StrobeViewState (the shared
 * time axis) and sets its selected scope, hover time and selected message. Keys (when
 * focused): + − 0 zoom, arrows pan (or, with a scope selected, go to its parent, first
 * child and siblings), Home/End, F zooms to the selection, Esc clears it, Shift+←/→
 * select a range, Enter selects the selected scope's time range.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-timeline-painter.h"
#include "strobe-timeline-tiles.h"
#include "strobe-timeline-tracks.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMELINE_WIDGET (strobe_timeline_widget_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimelineWidget, strobe_timeline_widget, STROBE, TIMELINE_WIDGET, GtkWidget)

GtkWidget            *strobe_timeline_widget_new              (StrobeDocument       *document,
                                                               StrobeViewState      *state);
/* The document grew or changed status. */
void                  strobe_timeline_widget_update           (StrobeTimelineWidget *self,
                                                               StrobeDocumentChanges changes);

void                  strobe_timeline_widget_set_color_scheme (StrobeTimelineWidget *self,
                                                               StrobeTimelineColors  scheme);
StrobeTimelineColors  strobe_timeline_widget_get_color_scheme (StrobeTimelineWidget *self);
/* The frame time the frames track measures against, in seconds (1/60 by default). */
void                  strobe_timeline_widget_set_frame_target (StrobeTimelineWidget *self,
                                                               gdouble               seconds);
gdouble               strobe_timeline_widget_get_frame_target (StrobeTimelineWidget *self);
void                  strobe_timeline_widget_set_hide_empty   (StrobeTimelineWidget *self,
                                                               gboolean              hide);
gboolean              strobe_timeline_widget_get_hide_empty   (StrobeTimelineWidget *self);
/* Instances of one scope name stand out, the rest is dimmed; G_MAXUINT32: none. */
void                  strobe_timeline_widget_set_highlight    (StrobeTimelineWidget *self,
                                                               guint32               name_id);

/* The selected scope (NULL: none): the timeline page's own selection, shown outlined and
 * in the details; not in the shared view state, since no other view follows it. */
const StrobeScopeRef *strobe_timeline_widget_get_selected_scope (StrobeTimelineWidget *self);
void                  strobe_timeline_widget_set_selected_scope (StrobeTimelineWidget *self,
                                                                 const StrobeScopeRef *scope);
/* Brings a scope into view (zooming out if it is wider than the view, in if it is less
 * than a few pixels) and selects it. */
void                  strobe_timeline_widget_show_scope       (StrobeTimelineWidget *self,
                                                               const StrobeScopeRef *scope);
/* Shows [start, end] with a small margin. */
void                  strobe_timeline_widget_zoom_to          (StrobeTimelineWidget *self,
                                                               guint64               start,
                                                               guint64               end);
void                  strobe_timeline_widget_zoom_fit         (StrobeTimelineWidget *self);
/* Several processes on one axis (app/group): zooming and panning stay within [@first,
 * @last] (ticks of this trace), the session's span, not this trace's extent; fit (0) shows
 * it; the widget no longer fits or follows a live trace by itself — the group tab does it
 * for every process at once. */
void                  strobe_timeline_widget_set_span         (StrobeTimelineWidget *self,
                                                               guint64               first,
                                                               guint64               last);

/* The tracks (for the tracks menu); changes through the functions below. */
StrobeTrackList      *strobe_timeline_widget_get_tracks       (StrobeTimelineWidget *self);
void                  strobe_timeline_widget_set_track_hidden (StrobeTimelineWidget *self,
                                                               guint                 index,
                                                               gboolean              hidden);
void                  strobe_timeline_widget_set_track_collapsed (StrobeTimelineWidget *self,
                                                               guint                 index,
                                                               gboolean              collapsed);
gboolean              strobe_timeline_widget_move_track       (StrobeTimelineWidget *self,
                                                               guint                 from,
                                                               guint                 to);
void                  strobe_timeline_widget_reset_tracks     (StrobeTimelineWidget *self);

/* Where track @index begins, in the widget's coordinates (its header row), and what a
 * click there does: select a scope, open a log message in the log view, zoom to a frame,
 * collapse a track… (tests and assistive technologies use it like the pointer). */
gdouble               strobe_timeline_widget_get_track_top    (StrobeTimelineWidget *self,
                                                               guint                 index);
void                  strobe_timeline_widget_activate_at      (StrobeTimelineWidget *self,
                                                               gdouble               x,
                                                               gdouble               y);

/* The vertical scrolling of the tracks (the view puts a scrollbar beside). */
GtkAdjustment        *strobe_timeline_widget_get_vadjustment  (StrobeTimelineWidget *self);

/* Work not done yet: tiles being drawn, log ticks being gathered (tests and the
 * benchmark wait for 0). */
guint                 strobe_timeline_widget_get_pending      (StrobeTimelineWidget *self);
/* Tiles the last frame drew without their up-to-date picture (0: a complete frame). */
guint                 strobe_timeline_widget_get_incomplete   (StrobeTimelineWidget *self);
/* Bytes of drawn tiles held. */
gsize                 strobe_timeline_widget_get_cache_bytes  (StrobeTimelineWidget *self);
/* The tile cache's counts: for tests and benchmarks. */
void                  strobe_timeline_widget_get_tile_counts  (StrobeTimelineWidget *self,
                                                               StrobeTileCounts     *counts);

G_END_DECLS
