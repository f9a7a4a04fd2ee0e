/* strobe-clock-measures.h — what peers measured of a trace's clock: its $Trace.ClockOffset
 * events (PROTOCOL.md §5), for strobe_clock_align() to place a trace of another machine.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-clock-align.h"

G_BEGIN_DECLS

#define STROBE_TYPE_CLOCK_MEASURES (strobe_clock_measures_get_type ())
G_DECLARE_FINAL_TYPE (StrobeClockMeasures, strobe_clock_measures, STROBE, CLOCK_MEASURES, GObject)

/* An analyzer: add it to a document (or decoder) before it reads the trace. */
StrobeClockMeasures *strobe_clock_measures_new  (void);
/* The best measure of each peer (the smallest uncertainty; the later of equals), as
 * StrobeClockMeasure; any thread, while the trace is being read. Events whose peer clock
 * is not CLOCK_MONOTONIC (PeerSource ≠ 0) or whose PeerDomain is not 32 hex digits are
 * skipped. */
GArray              *strobe_clock_measures_dup  (StrobeClockMeasures *self);

G_END_DECLS
