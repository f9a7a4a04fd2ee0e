/* strobe-duration-sketch.c — see the header. A value v >= 128 with its highest bit at e
 * goes to octave e - 6, bucket (v >> (e - 7)) - 128: buckets 2^(e-7) wide, so the middle
 * of one is within 2^(e-8) <= v / 256 of any value in it; below 256 buckets are 1 wide.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-duration-sketch.h"
#include "strobe-durations.h"

#define SUBS     128
#define OCTAVES  58      /* e = 7 .. 63 → 1 .. 57, and 0 for v < 128 */
/* Past the exact limit values wait in a buffer and go into their buckets a buffer at a
 * time: one name's buckets are then in cache for the lot, where adding each value as it
 * comes missed the cache for nearly every scope (hundreds of names, KiBs of buckets each). */
#define PENDING  STROBE_DURATION_SKETCH_PENDING

static inline void
bucket_of (guint64 v, guint *octave, guint *sub)
{
  guint e;

  if (v < SUBS)
    {
      *octave = 0;
      *sub = (guint) v;
      return;
    }
  e = 63 - (guint) __builtin_clzll (v);
  *octave = e - 6;
  *sub = (guint) (v >> (e - 7)) - SUBS;
}

/* The lowest value of a bucket and its width. */
static inline void
bucket_range (guint octave, guint sub, guint64 *low, guint64 *width)
{
  if (octave == 0)
    {
      *low = sub;
      *width = 1;
      return;
    }
  *width = (guint64) 1 << (octave - 1);
  *low = ((guint64) SUBS + sub) << (octave - 1);
}

static void
hist_add (StrobeDurationSketch *self, guint64 v, guint64 count)
{
  guint o, s;

  bucket_of (v, &o, &s);
  if (G_UNLIKELY (self->octaves[o] == NULL))
    self->octaves[o] = g_new0 (guint64, SUBS);
  self->octaves[o][s] += count;
}

/* With the pointers in locals: through self, each bucket's increment made the compiler
 * read them all again (a store through a guint64 * may change them). */
static void
flush_pending (StrobeDurationSketch *self)
{
  guint64 **octaves = self->octaves;
  const guint64 *values = self->exact;
  guint n = self->pending;

  for (guint i = 0; i < n; i++)
    {
      guint o, s;
      guint64 *row;

      bucket_of (values[i], &o, &s);
      row = octaves[o];
      if (G_UNLIKELY (row == NULL))
        row = octaves[o] = g_new0 (guint64, SUBS);
      row[s]++;
    }
  self->pending = 0;
}

/* Past the exact limit: the values go into buckets; the array becomes the buffer. */
static void
to_histogram (StrobeDurationSketch *self)
{
  self->octaves = g_new0 (guint64 *, OCTAVES);
  for (guint64 i = 0; i < self->n; i++)
    hist_add (self, self->exact[i], 1);
  self->exact = g_renew (guint64, self->exact, PENDING);
  self->exact_cap = PENDING;
  self->pending = 0;
}

void
strobe_duration_sketch_add_slow (StrobeDurationSketch *self, guint64 value)
{
  if (G_LIKELY (self->octaves != NULL))
    {
      self->exact[self->pending++] = value;
      self->n++;
      if (G_UNLIKELY (self->pending == PENDING))
        flush_pending (self);
      return;
    }
  if (self->n == STROBE_DURATION_SKETCH_EXACT)
    {
      to_histogram (self);
      strobe_duration_sketch_add_slow (self, value);
      return;
    }
  if (self->n == self->exact_cap)
    {
      self->exact_cap = self->exact_cap ? MIN (self->exact_cap * 2, STROBE_DURATION_SKETCH_EXACT) : 4;
      self->exact = g_renew (guint64, self->exact, self->exact_cap);
    }
  self->exact[self->n++] = value;
}

void
strobe_duration_sketch_merge (StrobeDurationSketch *self, StrobeDurationSketch *from)
{
  if (from->octaves == NULL)
    {
      for (guint64 i = 0; i < from->n; i++)
        strobe_duration_sketch_add (self, from->exact[i]);
    }
  else
    {
      flush_pending (from);
      if (self->octaves == NULL)
        to_histogram (self);
      flush_pending (self);
      for (guint o = 0; o < OCTAVES; o++)
        if (from->octaves[o])
          for (guint s = 0; s < SUBS; s++)
            if (from->octaves[o][s])
              {
                if (self->octaves[o] == NULL)
                  self->octaves[o] = g_new0 (guint64, SUBS);
                self->octaves[o][s] += from->octaves[o][s];
              }
      self->n += from->n;
    }
  strobe_duration_sketch_clear (from);
}

/* The middle of the bucket holding the k-th smallest (0-based). */
static gdouble
hist_kth (const StrobeDurationSketch *self, guint64 k)
{
  guint64 seen = 0;

  for (guint o = 0; o < OCTAVES; o++)
    if (self->octaves[o])
      for (guint s = 0; s < SUBS; s++)
        {
          seen += self->octaves[o][s];
          if (seen > k)
            {
              guint64 low, width;
              bucket_range (o, s, &low, &width);
              return (gdouble) low + (gdouble) (width - 1) / 2;
            }
        }
  return 0;
}

gdouble
strobe_duration_sketch_median (StrobeDurationSketch *self)
{
  guint64 n = self->n;

  if (self->octaves == NULL)
    return strobe_durations_median (self->exact, n);
  flush_pending (self);
  return n % 2 ? hist_kth (self, n / 2) : (hist_kth (self, n / 2 - 1) + hist_kth (self, n / 2)) / 2;
}

guint64
strobe_duration_sketch_quantile (StrobeDurationSketch *self, gdouble q)
{
  guint64 n = self->n, rank;

  g_return_val_if_fail (q > 0 && q <= 1, 0);
  if (self->octaves == NULL)
    return strobe_durations_quantile (self->exact, n, q);
  flush_pending (self);
  /* The same nearest rank, ⌈q n⌉, in the buckets. */
  rank = (guint64) (q * (gdouble) n);
  if ((gdouble) rank < q * (gdouble) n)
    rank++;
  rank = CLAMP (rank, 1, n);
  return (guint64) hist_kth (self, rank - 1);
}

void
strobe_duration_sketch_add_bucket_slow (StrobeDurationSketch *self, guint bucket, guint64 count)
{
  guint o = bucket / SUBS, s = bucket % SUBS;

  g_return_if_fail (bucket < STROBE_DURATION_SKETCH_BUCKETS);
  if (count == 0)
    return;
  if (self->octaves == NULL)
    to_histogram (self);
  if (G_UNLIKELY (self->octaves[o] == NULL))
    self->octaves[o] = g_new0 (guint64, SUBS);
  self->octaves[o][s] += count;
  self->n += count;
}

gboolean
strobe_duration_sketch_is_exact (const StrobeDurationSketch *self)
{
  return self->octaves == NULL;
}

void
strobe_duration_sketch_foreach (const StrobeDurationSketch *self, StrobeDurationSketchFunc func, gpointer data)
{
  g_return_if_fail (self != NULL && func != NULL);

  if (self->octaves == NULL)
    {
      for (guint64 i = 0; i < self->n; i++)
        func (self->exact[i], 1, 1, data);
      return;
    }
  for (guint i = 0; i < self->pending; i++)
    func (self->exact[i], 1, 1, data);
  for (guint o = 0; o < OCTAVES; o++)
    if (self->octaves[o])
      for (guint s = 0; s < SUBS; s++)
        if (self->octaves[o][s])
          {
            guint64 low, width;
            bucket_range (o, s, &low, &width);
            func (low, width, self->octaves[o][s], data);
          }
}

void
strobe_duration_sketch_clear (StrobeDurationSketch *self)
{
  g_free (self->exact);
  if (self->octaves)
    for (guint o = 0; o < OCTAVES; o++)
      g_free (self->octaves[o]);
  g_free (self->octaves);
  *self = (StrobeDurationSketch) { 0 };
}

void
strobe_duration_sketch_free (StrobeDurationSketch *self)
{
  if (self == NULL)
    return;
  strobe_duration_sketch_clear (self);
  g_free (self);
}
