/* strobe-time-axis.h — the one time axis of a trace's charts: the document's clock and the
 * view state's visible range, selection and cursor, in one object that charts hold instead
 * of each keeping a copy of the clock and connecting to half a dozen properties.
 *
 * The range a chart shows is the visible range, or the bounds (the whole trace, or what a
 * view says its charts span) when nobody set a range that meets them. For one width the
 * axis hands out a StrobeTimeScale (a value: tile painters take it to their threads), and
 * it turns ticks into seconds and text through the core clock type only.
 *
 * Signals: "range-changed" when the range shown may have moved (visible range, bounds),
 * "marks-changed" when the selection or the cursor did. Main thread only.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

#include "strobe-document.h"
#include "strobe-time-scale.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIME_AXIS (strobe_time_axis_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimeAxis, strobe_time_axis, STROBE, TIME_AXIS, GObject)

StrobeTimeAxis  *strobe_time_axis_new          (StrobeDocument         *document,
                                                StrobeViewState        *state);
StrobeDocument  *strobe_time_axis_get_document (StrobeTimeAxis         *self);
StrobeViewState *strobe_time_axis_get_state    (StrobeTimeAxis         *self);

/* ---- the clock: asked of the document each time, so it is never stale ------------------- */
void             strobe_time_axis_get_clock    (StrobeTimeAxis         *self,
                                                StrobeTraceClock       *clock);
/* Seconds from the trace's start (negative before it). */
gdouble          strobe_time_axis_to_seconds   (StrobeTimeAxis         *self,
                                                guint64                 time);
/* A length of time in seconds, and @seconds as a length in ticks (saturated). */
gdouble          strobe_time_axis_duration     (StrobeTimeAxis         *self,
                                                guint64                 ticks);
guint64          strobe_time_axis_duration_ticks (StrobeTimeAxis       *self,
                                                  gdouble               seconds);
/* @time from the trace's start as the viewer prints times ("1.234 s"). */
char            *strobe_time_axis_format_time  (StrobeTimeAxis         *self,
                                                guint64                 time);

/* ---- the range --------------------------------------------------------------------------- */
/* What the charts span, [@first, @last]; until it is set, the document's extent. */
void             strobe_time_axis_set_bounds   (StrobeTimeAxis         *self,
                                                guint64                 first,
                                                guint64                 last);
gboolean         strobe_time_axis_get_bounds   (StrobeTimeAxis         *self,
                                                guint64                *first,
                                                guint64                *last);
/* The range shown, @end > @start; FALSE while there are no bounds. */
gboolean         strobe_time_axis_get_range    (StrobeTimeAxis         *self,
                                                guint64                *start,
                                                guint64                *end);
/* The range shown over @width pixels; FALSE (and @scale untouched) as get_range. */
gboolean         strobe_time_axis_get_scale    (StrobeTimeAxis         *self,
                                                int                     width,
                                                StrobeTimeScale        *scale);
/* The ruler of @scale: ticks (StrobeRulerTick) at least @min_px apart when labelled, times
 * from the trace's start; @step receives the labelled step in seconds. */
GArray          *strobe_time_axis_ticks        (StrobeTimeAxis         *self,
                                                const StrobeTimeScale  *scale,
                                                gdouble                 min_px,
                                                gdouble                *step);
/* A major tick's label ("250 ms") as the ruler of @scale prints it. */
char            *strobe_time_axis_tick_label   (StrobeTimeAxis         *self,
                                                const StrobeTimeScale  *scale,
                                                const StrobeRulerTick  *tick,
                                                gdouble                 step);

G_END_DECLS
