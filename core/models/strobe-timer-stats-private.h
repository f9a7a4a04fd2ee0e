/* strobe-timer-stats-private.h — the per name accumulator of the timer statistics, shared
 * by the range queries over a timeline model (strobe-timer-stats.c) and the streaming
 * timers of a whole trace (strobe-timer-stream.c), so both count, clip and sort alike.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-duration-sketch.h"
#include "strobe-timer-stats.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 count;
  guint64 inclusive;
  guint64 exclusive;
  guint64 min;
  guint64 max;
  StrobeDurationSketch durations;   /* inclusive times, for the median */
} StrobeTimerAcc;

/* One scope of @incl ticks (clipped to the range) whose direct children took @children. */
static inline void
strobe_timer_acc_add (StrobeTimerAcc *a, guint64 incl, guint64 children)
{
  if (a->count == 0)
    a->min = a->max = incl;
  a->count++;
  a->inclusive += incl;
  a->exclusive += incl > children ? incl - children : 0;
  a->min = MIN (a->min, incl);
  a->max = MAX (a->max, incl);
  strobe_duration_sketch_add (&a->durations, incl);
}

/* Adds @from[0..n) to @into[0..n), leaving @from empty. */
void    strobe_timer_accs_merge  (StrobeTimerAcc *into,
                                  StrobeTimerAcc *from,
                                  guint           n);
/* The StrobeTimerStat array of strobe_timer_stats_compute(), sorted the same way; the
 * accumulators' sketches are cleared (the array itself stays the caller's). */
GArray *strobe_timer_accs_finish (StrobeTimerAcc *acc,
                                  guint           n_names,
                                  const char   *(*name_of) (gpointer data, guint32 name_id),
                                  gpointer        data);
/* The same, moving each counted name's sketch into @sketches[name_id] (a new
 * StrobeDurationSketch, freed with strobe_duration_sketch_free; NULL for a name not
 * counted) instead of clearing it: the durations stay for a histogram. */
GArray *strobe_timer_accs_finish_keep (StrobeTimerAcc *acc,
                                       guint           n_names,
                                       const char   *(*name_of) (gpointer data, guint32 name_id),
                                       gpointer        data,
                                       GPtrArray      *sketches);

G_END_DECLS
