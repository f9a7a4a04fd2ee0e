/* strobe-clock-align.h — several traces on one time axis (PROTOCOL.md §1, "Traces on one
 * clock"). Traces that read one clock (same clock domain and source) are aligned on their
 * raw timestamps with one frequency and origin, the reference's; the others through an
 * offset measured over a control connection when there is one, else through their
 * wall-clock start times; any member may be moved by hand on top. Time 0 is the earliest
 * first event of them all.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-trace-clock.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_CLOCK_ALIGN_REFERENCE,   /* the trace the others are aligned to */
  STROBE_CLOCK_ALIGN_SHARED,      /* one clock with the reference: exact */
  STROBE_CLOCK_ALIGN_OFFSET,      /* a measured offset, ± its uncertainty */
  STROBE_CLOCK_ALIGN_WALL,        /* wall-clock start times only: as good as the clocks were set */
} StrobeClockAlignment;

/* A peer's measure of a trace's clock against its own CLOCK_MONOTONIC, over the control
 * connection: the trace's $Trace.ClockOffset events (PROTOCOL.md §5). */
typedef struct
{
  char    domain[33];      /* the peer's clock domain (boot id): 32 lower-case hex digits */
  gint64  offset_ns;       /* the trace's clock in ns (ticks × 10⁹ / its frequency) minus the peer's */
  guint64 uncertainty_ns;  /* the true offset is within this of offset_ns */
  guint32 rounds;          /* round trips it rests on */
} StrobeClockMeasure;

typedef struct
{
  /* in */
  const StrobeWireMetadata *metadata;
  StrobeTraceClock          clock;           /* the trace's own (strobe_document_get_clock()) */
  gboolean                  has_extent;
  guint64                   first, last;     /* ticks of its first and last event */
  const StrobeClockMeasure *measures;        /* its clock measured by peers (may be NULL) */
  guint                     n_measures;
  gint64                    adjust_ns;       /* by hand: the trace drawn this much later */
  /* out */
  StrobeClockAlignment      alignment;
  gint64                    offset_ns;       /* OFFSET: its clock (ns) minus the reference's */
  guint64                   uncertainty_ns;  /* OFFSET: ± this */
  guint32                   rounds;          /* OFFSET: round trips of the measures used */
} StrobeClockAlignMember;

/* Rewrites every member's clock so that strobe_trace_clock_to_seconds() gives seconds on
 * the one axis. The reference is the member that started first (wall clock). A member
 * reads the reference's clock (SHARED), or both clocks were measured by one peer, or one
 * of them is the CLOCK_MONOTONIC a peer measured the other against (OFFSET: the best
 * such pair, ± the sum of their uncertainties), or else their wall-clock starts are all
 * there is (WALL). A member's adjust_ns moves it on top of any of these. */
void        strobe_clock_align            (StrobeClockAlignMember *members,
                                           guint                   n);
/* "shared clock", "measured offset", …, translated. */
const char *strobe_clock_alignment_name   (StrobeClockAlignment    alignment);
/* How @member was aligned, for people: "same clock", "offset +1.234567 ms ± 19.5 µs
 * (8 round trips)", "wall-clock start only", each with ", moved +2 ms by hand" when it
 * was; translated. */
char       *strobe_clock_align_describe   (const StrobeClockAlignMember *member);

G_END_DECLS
