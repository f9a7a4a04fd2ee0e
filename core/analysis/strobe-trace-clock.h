/* strobe-trace-clock.h — a trace's clock as one value: ticks ↔ seconds, the trace's start,
 * wall-clock time. Every view and every strobe-cli subcommand converts times with it, so a
 * zero or absurd frequency and times before the start are handled in one place.
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
/* Wall-clock time of @ticks, ns since the Unix epoch; 0 when the start time is unknown. */
guint64 strobe_trace_clock_to_wall_ns   (const StrobeTraceClock   *clock,
                                         guint64                   ticks);

G_END_DECLS
