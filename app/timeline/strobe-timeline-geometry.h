/* strobe-timeline-geometry.h — the timeline's own arithmetic, without GTK: zoom and pan,
 * tiles of the axis, durations. Time ↔ pixels and the ruler are the chart's
 * (strobe-time-scale.h). Kept apart so the unit tests can check it exactly.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-time-scale.h"

G_BEGIN_DECLS

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
void     strobe_tile_range       (const StrobeTimeScale *axis,
                                  guint64               origin,
                                  int                   size,
                                  gint64               *first,
                                  gint64               *last);
/* Where tile @index is on @axis, in whole pixels (so textures are not resampled). */
gdouble  strobe_tile_x           (const StrobeTimeScale *axis,
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
/* The widest text of each form strobe_format_ticks() gives, in the current language
 * ("888.8 мкс", "88 min 59 s"…): what a column of durations measures to never cut one. */
GStrv     strobe_format_ticks_widest (void);

G_END_DECLS
