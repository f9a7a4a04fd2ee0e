/* strobe-duration-sketch.h — medians of many durations in bounded memory, mergeable:
 * exact while it holds at most STROBE_DURATION_SKETCH_EXACT values, then a log-linear
 * histogram (HdrHistogram's layout: 128 buckets per power of two), whose answers are
 * within 1/256 of the true value (values below 256 stay exact). At most 58 KiB each,
 * whatever the count: the timers of a billion scopes keep no value per scope.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STROBE_DURATION_SKETCH_EXACT 1024

typedef struct
{
  guint64   n;
  guint64  *exact;      /* the values while n <= STROBE_DURATION_SKETCH_EXACT; then values
                         * not in the buckets yet */
  guint32   exact_cap;
  guint32   pending;    /* how many of those */
  guint64 **octaves;    /* once past it: counts, 128 per power of two, NULL until used */
} StrobeDurationSketch;

/* Past the exact limit values wait in a buffer of this many and go into their buckets a
 * buffer at a time (see strobe-duration-sketch.c). */
#define STROBE_DURATION_SKETCH_PENDING 128

/* What strobe_duration_sketch_add() does when the value cannot simply be stored. */
void    strobe_duration_sketch_add_slow (StrobeDurationSketch *self,
                                         guint64               value);

/* Zero-initialise a sketch before its first use. Inline: the timers add every scope, and
 * nearly always only store the value (a call was a tenth of `strobe-cli stats`). */
static inline void
strobe_duration_sketch_add (StrobeDurationSketch *self,
                            guint64               value)
{
  if (self->octaves != NULL ? self->pending + 1 < STROBE_DURATION_SKETCH_PENDING
                            : self->n < self->exact_cap)
    {
      self->exact[self->octaves != NULL ? self->pending++ : self->n] = value;
      self->n++;
      return;
    }
  strobe_duration_sketch_add_slow (self, value);
}
/* Adds @from's values to @self and clears @from. */
void    strobe_duration_sketch_merge  (StrobeDurationSketch *self,
                                       StrobeDurationSketch *from);
/* The median (the mean of the two middle values for an even count), as
 * strobe_durations_median() gives it while the sketch is exact, else within 1/256 of
 * it. 0 when empty. */
gdouble strobe_duration_sketch_median (StrobeDurationSketch *self);
/* The nearest-rank @q-quantile (0 < @q <= 1), as strobe_durations_quantile() gives
 * it while exact, else within 1/256. */
guint64 strobe_duration_sketch_quantile (StrobeDurationSketch *self,
                                         gdouble               q);
gboolean strobe_duration_sketch_is_exact (const StrobeDurationSketch *self);

/* The sketch's buckets by number: 128 per power of two from 128 up (values below 128 one
 * bucket each), so a coarser histogram kept elsewhere (the timers' summaries,
 * strobe-timer-summary.h) is these numbers shifted right. */
#define STROBE_DURATION_SKETCH_BUCKETS (58 * 128)
static inline guint
strobe_duration_sketch_bucket (guint64 v)
{
  guint e;

  if (v < 128)
    return (guint) v;
  e = 63 - (guint) __builtin_clzll (v);
  return (e - 6) * 128 + (guint) (v >> (e - 7)) - 128;
}
/* Adds @count values of bucket @bucket (< STROBE_DURATION_SKETCH_BUCKETS) at once. The
 * sketch is no longer exact after: its answers are within its buckets (1/256). */
void    strobe_duration_sketch_add_bucket_slow (StrobeDurationSketch *self,
                                                guint                 bucket,
                                                guint64               count);
/* Inline: a range's timers merge millions of buckets from their summaries. */
static inline void
strobe_duration_sketch_add_bucket (StrobeDurationSketch *self,
                                   guint                 bucket,
                                   guint64               count)
{
  guint64 *row;

  if (G_LIKELY (self->octaves != NULL && (row = self->octaves[bucket >> 7]) != NULL))
    {
      row[bucket & 127] += count;
      self->n += count;
      return;
    }
  strobe_duration_sketch_add_bucket_slow (self, bucket, count);
}
/* Every value the sketch holds, in no particular order, as runs of @count values in
 * [@low, @low + @width): width 1 while exact; a bucket (within 1/256) after. Reads only,
 * so threads may walk a finished sketch at once: a histogram of the durations without
 * walking the scopes again. */
typedef void (*StrobeDurationSketchFunc) (guint64 low, guint64 width, guint64 count, gpointer data);
void    strobe_duration_sketch_foreach (const StrobeDurationSketch *self,
                                        StrobeDurationSketchFunc    func,
                                        gpointer                    data);
void    strobe_duration_sketch_clear  (StrobeDurationSketch *self);
/* Clears and frees a sketch that was allocated on its own. */
void    strobe_duration_sketch_free   (StrobeDurationSketch *self);

G_END_DECLS
