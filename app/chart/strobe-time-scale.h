/* strobe-time-scale.h — a time axis at one width, as a value: ticks ↔ pixels, where a span
 * lands, the ruler's ticks and their labels. Without GTK and without a lock, so tile painters
 * on worker threads take a copy (StrobeTimeAxis hands it out for the current range), and the
 * unit tests check it exactly. Seconds come from the core clock type, never from dividing by
 * its frequency here.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-trace-clock.h"

G_BEGIN_DECLS

/* A time from a double, saturated to [0, G_MAXUINT64] (NaN: 0). */
guint64  strobe_time_saturate    (gdouble               v);

/* Ticks at x = 0 and ticks per pixel: what a horizontal position means. */
typedef struct
{
  guint64 start;
  gdouble scale;        /* ticks per pixel, > 0 */
  int     width;        /* pixels */
} StrobeTimeScale;

/* The axis showing [@start, @end] over @width pixels (at least one tick per width). */
void     strobe_time_scale_init   (StrobeTimeScale      *axis,
                                   guint64               start,
                                   guint64               end,
                                   int                   width);
/* Where @time is (may be off either side). */
gdouble  strobe_time_scale_x      (const StrobeTimeScale *axis,
                                   guint64               time);
/* The time at @x, saturated to [0, G_MAXUINT64]. */
guint64  strobe_time_scale_time   (const StrobeTimeScale *axis,
                                   gdouble               x);
guint64  strobe_time_scale_end    (const StrobeTimeScale *axis);

/* Where a scope [@begin, @end] is drawn between @clip_x0 and @clip_x1: FALSE when it is
 * outside; otherwise @x and @w, at least @min_w wide (a scope never vanishes at any zoom),
 * clipped to the range (plus a pixel, so clipped edges do not show). */
gboolean strobe_time_scale_span   (const StrobeTimeScale *axis,
                                   guint64               begin,
                                   guint64               end,
                                   gdouble               clip_x0,
                                   gdouble               clip_x1,
                                   gdouble               min_w,
                                   gdouble              *x,
                                   gdouble              *w);

/* ---- ruler --------------------------------------------------------------------------- */

typedef struct
{
  guint64  time;        /* ticks */
  gdouble  x;
  gboolean major;       /* labelled */
} StrobeRulerTick;

/* The labelled step: 1, 2 or 5 × 10^k seconds (k ≥ -9), the smallest that puts major ticks
 * at least @min_px apart; @minor receives how many minor intervals a major one has (5 or
 * 2, or 1 when even those would be too close). */
gdouble  strobe_ruler_step       (gdouble               seconds_per_px,
                                  gdouble               min_px,
                                  int                  *minor);
/* The ticks in [0, width] of @axis (StrobeRulerTick), times counted from @clock's base;
 * @step receives the major step in seconds. */
GArray  *strobe_ruler_ticks      (const StrobeTraceClock *clock,
                                  const StrobeTimeScale  *axis,
                                  gdouble                 min_px,
                                  gdouble                *step);
/* A tick label: @seconds in the unit that suits @range_end (s, ms, µs, ns: the magnitude of
 * the largest time shown), with as many decimals as @step needs. "1.23456 s", "250 ms". */
char    *strobe_ruler_label      (gdouble               seconds,
                                  gdouble               step,
                                  gdouble               range_end);

G_END_DECLS
