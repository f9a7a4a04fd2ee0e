/* strobe-timeline-geometry.h — the timeline's arithmetic, without GTK: time ↔ pixels,
 * ruler ticks and their labels, zoom and pan, where a scope lands on screen, tiles. Kept
 * apart so the unit tests can check it exactly.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-trace-clock.h"

G_BEGIN_DECLS

/* Ticks at x = 0 and ticks per pixel: what a horizontal position means. */
typedef struct
{
  guint64 start;
  gdouble scale;        /* ticks per pixel, > 0 */
  int     width;        /* pixels */
} StrobeTimeAxis;

/* The axis showing [@start, @end] over @width pixels (at least one tick per width). */
void     strobe_time_axis_init   (StrobeTimeAxis       *axis,
                                  guint64               start,
                                  guint64               end,
                                  int                   width);
/* Where @time is (may be off either side). */
gdouble  strobe_time_axis_x      (const StrobeTimeAxis *axis,
                                  guint64               time);
/* The time at @x, saturated to [0, G_MAXUINT64]. */
guint64  strobe_time_axis_time   (const StrobeTimeAxis *axis,
                                  gdouble               x);
guint64  strobe_time_axis_end    (const StrobeTimeAxis *axis);

/* Where a scope [@begin, @end] is drawn between @clip_x0 and @clip_x1: FALSE when it is
 * outside; otherwise @x and @w, at least @min_w wide (a scope never vanishes at any zoom),
 * clipped to the range (plus a pixel, so clipped edges do not show). */
gboolean strobe_time_axis_span   (const StrobeTimeAxis *axis,
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
                                  const StrobeTimeAxis   *axis,
                                  gdouble                 min_px,
                                  gdouble                *step);
/* A tick label: @seconds in the unit that suits @range_end (s, ms, µs, ns: the magnitude of
 * the largest time shown), with as many decimals as @step needs. "1.23456 s", "250 ms". */
char    *strobe_ruler_label      (gdouble               seconds,
                                  gdouble               step,
                                  gdouble               range_end);

/* ---- zoom and pan --------------------------------------------------------------------- */

/* The range [*start, *end] zoomed by @factor (< 1 zooms in) around the point at fraction
 * @anchor (0 left, 1 right) of it, kept at least @min_span ticks long and inside [lo, hi]
 * when it fits (a range wider than [lo, hi] is centred on it). */
void     strobe_time_zoom        (guint64              *start,
                                  guint64              *end,
                                  gdouble               factor,
                                  gdouble               anchor,
                                  guint64               min_span,
                                  guint64               lo,
                                  guint64               hi);
/* The range moved by @delta ticks (negative: earlier), not past [lo, hi] when it fits;
 * its length is kept. */
void     strobe_time_pan         (guint64              *start,
                                  guint64              *end,
                                  gint64                delta,
                                  guint64               lo,
                                  guint64               hi);
/* The range that shows [begin, end] with @margin (a fraction of its length) each side. */
void     strobe_time_fit         (guint64              *start,
                                  guint64              *end,
                                  guint64               begin,
                                  guint64               end_time,
                                  gdouble               margin);

/* ---- tiles ----------------------------------------------------------------------------- */

/* Tiles are fixed squares of the timeline laid over an origin (the trace's start): tile
 * @index covers pixels [index × size, (index + 1) × size) of the axis whose x = 0 is the
 * origin, at one scale, so panning reuses them. The indexes of the tiles that cover
 * [x0, x1) of @axis: */
void     strobe_tile_range       (const StrobeTimeAxis *axis,
                                  guint64               origin,
                                  int                   size,
                                  gint64               *first,
                                  gint64               *last);
/* Where tile @index is on @axis, in whole pixels (so textures are not resampled). */
gdouble  strobe_tile_x           (const StrobeTimeAxis *axis,
                                  guint64               origin,
                                  int                   size,
                                  gint64                index);
/* The time the left edge of tile @index stands for. */
guint64  strobe_tile_time        (gdouble               scale,
                                  guint64               origin,
                                  int                   size,
                                  gint64                index);

/* ---- durations --------------------------------------------------------------------------- */

/* "12.3 ms", "850 µs", "1.500 s", "120 ns": three significant digits, locale-independent
 * decimal point as the rest of the viewer prints it. */
char    *strobe_format_ticks     (const StrobeTraceClock *clock,
                                  guint64                 ticks);

G_END_DECLS
