/* strobe-clock-align.h — several traces on one time axis (PROTOCOL.md §1, "Traces on one
 * clock"). Traces that read one clock (same clock domain and source) are aligned on their
 * raw timestamps with one frequency and origin, the reference's; the others through an
 * offset measured over a control connection when there is one, else through their
 * wall-clock start times. Time 0 is the earliest first event of them all.
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

typedef struct
{
  /* in */
  const StrobeWireMetadata *metadata;
  StrobeTraceClock          clock;           /* the trace's own (strobe_document_get_clock()) */
  gboolean                  has_extent;
  guint64                   first, last;     /* ticks of its first and last event */
  gboolean                  has_offset;      /* its clock runs offset_ns ahead of the reference's */
  gint64                    offset_ns;
  guint64                   uncertainty_ns;
  /* out */
  StrobeClockAlignment      alignment;
} StrobeClockAlignMember;

/* Rewrites every member's clock so that strobe_trace_clock_to_seconds() gives seconds on
 * the one axis. The reference is the member that started first (wall clock). */
void        strobe_clock_align            (StrobeClockAlignMember *members,
                                           guint                   n);
/* "shared clock", "measured offset", …, translated. */
const char *strobe_clock_alignment_name   (StrobeClockAlignment    alignment);

G_END_DECLS
