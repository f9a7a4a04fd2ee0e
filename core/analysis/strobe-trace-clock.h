/* strobe-trace-clock.h — a trace's clock as one value: ticks ↔ seconds, the trace's start,
 * wall-clock time and its text. Every view and every strobe-cli subcommand converts times
 * with it — nothing else divides by the clock's frequency or formats a wall-clock time —
 * so a zero or absurd frequency and times before the start are handled in one place.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-wire.h"

G_BEGIN_DECLS

typedef struct
{
  guint64  frequency;      /* ticks per second; never 0 (see frequency_valid) */
  guint64  origin;         /* ticks at the handshake's clock origin (the runtime's start) */
  guint64  start_time_ns;  /* wall clock at @origin, ns since the Unix epoch; 0: unknown */
  guint64  base;           /* ticks of the trace's start (its first event): time 0 for people */
  gboolean frequency_valid;/* FALSE when the trace gave none or an absurd one: 1 GHz assumed */
} StrobeTraceClock;

/* A frequency below 1 kHz or above 100 GHz cannot be a real timestamp clock. */
#define STROBE_TRACE_CLOCK_MIN_FREQUENCY G_GUINT64_CONSTANT (1000)
#define STROBE_TRACE_CLOCK_MAX_FREQUENCY G_GUINT64_CONSTANT (100000000000)

/* From the handshake (@metadata may be NULL: a 1 GHz clock starting at 0). The base is the
 * clock origin until strobe_trace_clock_set_base() says where the trace starts. */
void    strobe_trace_clock_init         (StrobeTraceClock         *clock,
                                         const StrobeWireMetadata *metadata);
void    strobe_trace_clock_set_base     (StrobeTraceClock         *clock,
                                         guint64                   base);
/* Seconds from the trace's start; negative before it. */
gdouble strobe_trace_clock_to_seconds   (const StrobeTraceClock   *clock,
                                         guint64                   ticks);
/* The tick at @seconds from the trace's start, saturated to [0, G_MAXUINT64]. */
guint64 strobe_trace_clock_from_seconds (const StrobeTraceClock   *clock,
                                         gdouble                   seconds);
/* A length of time: ticks → seconds, and back (saturated). */
gdouble strobe_trace_clock_duration     (const StrobeTraceClock   *clock,
                                         guint64                   ticks);
guint64 strobe_trace_clock_ticks        (const StrobeTraceClock   *clock,
                                         gdouble                   seconds);
/* A length of time given as a fractional number of ticks (a mean, a median) → seconds. */
gdouble strobe_trace_clock_ticks_to_seconds (const StrobeTraceClock *clock,
                                             gdouble                 ticks);
/* Several traces on one axis (strobe-clock-align.h): ns from the clock origin to @ticks
 * (negative before it), and the tick @ns from the origin; fractional, not saturated. */
gdouble strobe_trace_clock_ns_from_origin    (const StrobeTraceClock *clock,
                                              gdouble                 ticks);
gdouble strobe_trace_clock_ticks_from_origin (const StrobeTraceClock *clock,
                                              gdouble                 ns);
/* The clock's origin in ns of that clock (origin × 10⁹ / frequency), exactly: offsets
 * between two clocks are small differences of such numbers, which a double would round.
 * And a signed length in ns as fractional ticks. */
gint64  strobe_trace_clock_origin_ns         (const StrobeTraceClock *clock);
gdouble strobe_trace_clock_ticks_for_ns      (const StrobeTraceClock *clock,
                                              gdouble                 ns);
/* Wall-clock time of @ticks, ns since the Unix epoch; 0 when the start time is unknown. */
guint64 strobe_trace_clock_to_wall_ns   (const StrobeTraceClock   *clock,
                                         guint64                   ticks);

/* How wall-clock time is written: in the local time zone unless the style says UTC. */
typedef enum
{
  STROBE_WALL_DATE_TIME,      /* 2026-11-30 05:26:59 */
  STROBE_WALL_DATE_TIME_NS,   /* 2026-11-30 05:26:59.123456789 */
  STROBE_WALL_TIME_US,        /* 05:26:59.123456 */
  STROBE_WALL_ISO8601_UTC,    /* 2026-11-30T04:26:59.123456Z: UTC, for machines and logs */
} StrobeWallStyle;

/* The one wall-clock text: @unix_ns (ns since the Unix epoch) in @style; NULL when the
 * time is unknown (0, except in the ISO 8601 style) or out of range. */
char   *strobe_wall_time_format         (guint64                   unix_ns,
                                         StrobeWallStyle           style);
/* The wall-clock text of @ticks; NULL when the trace's start time is unknown. */
char   *strobe_trace_clock_format_wall  (const StrobeTraceClock   *clock,
                                         guint64                   ticks,
                                         StrobeWallStyle           style);

G_END_DECLS
