/* strobe-memory-overview.c — see strobe-memory-overview.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-overview.h"

#include <string.h>

#define OVERVIEW_MAX 4096

void
strobe_memory_overview_init (StrobeMemoryOverview *ov)
{
  ov->buckets = g_new0 (StrobeMemoryBucket, OVERVIEW_MAX);
  ov->shift = 10;
  ov->origin = 0;
  ov->started = FALSE;
}

void
strobe_memory_overview_clear (StrobeMemoryOverview *ov)
{
  g_clear_pointer (&ov->buckets, g_free);
}

void
strobe_memory_overview_start (StrobeMemoryOverview *ov, guint64 t)
{
  ov->origin = t;
  ov->started = TRUE;
}

/* Halves the resolution: merges pairs. */
static void
halve (StrobeMemoryOverview *ov)
{
  for (guint i = 0; i < OVERVIEW_MAX / 2; i++)
    {
      StrobeMemoryBucket *x = &ov->buckets[2 * i], *y = &ov->buckets[2 * i + 1], m;

      if (x->used && y->used)
        {
          m.min_bytes = MIN (x->min_bytes, y->min_bytes);
          m.max_bytes = MAX (x->max_bytes, y->max_bytes);
          m.last_bytes = y->last_bytes;
          m.last_count = y->last_count;
          m.used = TRUE;
        }
      else
        m = y->used ? *y : *x;
      ov->buckets[i] = m;
    }
  memset (ov->buckets + OVERVIEW_MAX / 2, 0, sizeof (StrobeMemoryBucket) * (OVERVIEW_MAX / 2));
}

void
strobe_memory_overview_note (StrobeMemoryOverview *ov, guint64 t, gint64 bytes, gint64 count)
{
  guint64 b = (t - ov->origin) >> ov->shift;
  StrobeMemoryBucket *k;

  while (b >= OVERVIEW_MAX)
    {
      halve (ov);
      if (ov->shift >= 63)
        {
          b = OVERVIEW_MAX - 1;
          break;
        }
      ov->shift++;
      b = (t - ov->origin) >> ov->shift;
    }
  k = &ov->buckets[b];
  if (!k->used)
    {
      k->used = TRUE;
      k->min_bytes = k->max_bytes = bytes;
    }
  k->min_bytes = MIN (k->min_bytes, bytes);
  k->max_bytes = MAX (k->max_bytes, bytes);
  k->last_bytes = bytes;
  k->last_count = count;
}

/* The extremes of [t0, t1) from the events in it, merging allocations and the free log in
 * the order they were applied; @out holds the value before it. */
static void
fine (const StrobeMemoryStore *st, guint64 t0, guint64 t1, StrobeMemorySample *out)
{
  guint64 i = t0 ? strobe_memory_store_allocs_upto (st, t0 - 1) : 0;
  guint64 j = t0 ? strobe_memory_store_frees_upto (st, t0 - 1) : 0;
  guint64 ie = strobe_memory_store_allocs_upto (st, t1 - 1), je = strobe_memory_store_frees_upto (st, t1 - 1);
  gint64 v = out->min_bytes;

  while (i < ie || j < je)
    {
      if (i < ie && (j >= je || i < strobe_memory_store_entry_after (st, j)))
        {
          v = strobe_memory_sat_add_signed (v, strobe_memory_signed_size (strobe_memory_store_size (st, i)));
          i++;
        }
      else
        {
          v = strobe_memory_sat_add_signed (v, -strobe_memory_store_entry_bytes (st, j));
          j++;
        }
      out->min_bytes = MIN (out->min_bytes, v);
      out->max_bytes = MAX (out->max_bytes, v);
    }
}

guint
strobe_memory_overview_series (const StrobeMemoryOverview *ov, const StrobeMemoryStore *st, guint64 a, guint64 b,
                               guint n, StrobeMemorySample *out)
{
  guint64 step = MAX ((b - a) / n, 1);

  for (guint s = 0; s < n; s++)
    {
      guint64 t0 = a + s * step, t1 = s + 1 == n ? b : t0 + step;
      gint64 bytes, count;

      if (t0 > 0)
        strobe_memory_store_totals_at (st, t0 - 1, &bytes, &count);
      else
        bytes = count = 0;
      out[s].time = t0;
      out[s].min_bytes = out[s].max_bytes = bytes;
      if (ov->shift < 64 && step >= (G_GUINT64_CONSTANT (1) << ov->shift) && ov->started)
        {
          /* Coarse: the overview buckets that start inside [t0, t1). */
          guint64 o = ov->origin, unit = G_GUINT64_CONSTANT (1) << ov->shift;
          guint64 first = t0 > o ? (t0 - o) / unit + ((t0 - o) % unit != 0) : 0;
          guint64 last = t1 > o ? (t1 - o) >> ov->shift : 0;

          for (guint64 k = first; k < MIN (last, (guint64) OVERVIEW_MAX); k++)
            if (ov->buckets[k].used)
              {
                out[s].min_bytes = MIN (out[s].min_bytes, ov->buckets[k].min_bytes);
                out[s].max_bytes = MAX (out[s].max_bytes, ov->buckets[k].max_bytes);
              }
        }
      else
        fine (st, t0, t1, &out[s]);
      strobe_memory_store_totals_at (st, t1 - 1, &out[s].last_bytes, &out[s].last_count);
      out[s].min_bytes = MIN (out[s].min_bytes, out[s].last_bytes);
      out[s].max_bytes = MAX (out[s].max_bytes, out[s].last_bytes);
    }
  return n;
}
