/* strobe-memory-group.h — the memory of several processes on one time axis (a session
 * group): each one's summary, and their live bytes together — whose peak is not the sum of
 * their peaks, since they peak at different moments. What `strobe-cli memory` of several
 * traces prints and the group tab's Memory page shows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

typedef struct
{
  StrobeMemoryModel *model;
  StrobeTraceClock   clock;     /* aligned: seconds on the group's axis */
} StrobeMemoryGroupMember;

typedef struct
{
  guint64  allocs;
  guint64  frees;
  gint64   live_bytes;         /* at each one's end */
  guint64  bytes_allocated;    /* saturating */
  gint64   peak_bytes;         /* of all of them together */
  gdouble  peak_seconds;       /* when, on the group's axis */
  gdouble  first_seconds;      /* the first and last allocation or free of any */
  gdouble  last_seconds;
  gboolean any;                /* some member allocated */
} StrobeMemoryGroupTotal;

/* How many evenly spread moments the peak is looked for at (with each member's peak). */
#define STROBE_MEMORY_GROUP_SAMPLES 4000

/* Live bytes of every member together at @seconds on the group's axis; member @at_peak
 * (G_MAXUINT: none) counted as its own peak, which that moment is for it — seconds and
 * back to ticks can land a tick before the allocation that made the peak. */
gint64 strobe_memory_group_live_at (const StrobeMemoryGroupMember *members,
                                    guint                          n,
                                    gdouble                        seconds,
                                    guint                          at_peak);
/* The totals, and the peak of the sum looked for at each member's own peak and at
 * STROBE_MEMORY_GROUP_SAMPLES + 1 moments between the first and last event of any. */
void   strobe_memory_group_total   (const StrobeMemoryGroupMember *members,
                                    guint                          n,
                                    StrobeMemoryGroupTotal        *out);

G_END_DECLS
