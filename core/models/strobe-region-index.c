/* strobe-region-index.c
 *
 * A trace may hold millions of regions; laying them out in lanes is O(R log R), so it is
 * done once per change of the regions, not per query. A query finds the last region that
 * begins by its end time with a binary search, then walks the blocks of BLOCK regions up to
 * there, skipping a block whose latest end is before its start: regions by begin time are
 * not sorted by end, but a block's latest end bounds them all. A query costs the number of
 * blocks before its end (R / 64) plus what it returns, never a copy or a sort of all.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-region-index.h"

#define BLOCK 64

struct _StrobeRegionIndex
{
  gatomicrefcount refs;
  GArray         *regions;      /* StrobeTimelineRegion, by begin time, lanes set */
  guint64        *block_end;    /* the latest end of each BLOCK regions */
  guint           n_lanes;
};

static gint
region_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeTimelineRegion *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

/* Binary min-heaps for the lanes, by (end, lane): busy lanes by the end of their region,
 * free lanes (end 0) by number. */
typedef struct
{
  guint64 end;
  guint32 lane;
} BusyLane;

static gboolean
busy_less (const BusyLane *a, const BusyLane *b)
{
  return a->end < b->end || (a->end == b->end && a->lane < b->lane);
}

static void
busy_push (GArray *h, BusyLane v)
{
  guint i = h->len;

  g_array_append_val (h, v);
  while (i > 0 && busy_less (&v, &g_array_index (h, BusyLane, (i - 1) / 2)))
    {
      g_array_index (h, BusyLane, i) = g_array_index (h, BusyLane, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  g_array_index (h, BusyLane, i) = v;
}

static BusyLane
busy_pop (GArray *h)
{
  BusyLane top = g_array_index (h, BusyLane, 0), last = g_array_index (h, BusyLane, h->len - 1);
  guint i = 0, n = h->len - 1;

  g_array_set_size (h, n);
  while (n > 0)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && busy_less (&g_array_index (h, BusyLane, c + 1), &g_array_index (h, BusyLane, c)))
        c++;
      if (!busy_less (&g_array_index (h, BusyLane, c), &last))
        break;
      g_array_index (h, BusyLane, i) = g_array_index (h, BusyLane, c);
      i = c;
    }
  if (n > 0)
    g_array_index (h, BusyLane, i) = last;
  return top;
}

StrobeRegionIndex *
strobe_region_index_new (GArray *regions)
{
  g_autoptr (GArray) busy = g_array_new (FALSE, FALSE, sizeof (BusyLane));
  g_autoptr (GArray) free_lanes = g_array_new (FALSE, FALSE, sizeof (BusyLane));
  StrobeRegionIndex *self;
  guint32 n_lanes = 0;
  guint n_blocks;

  g_return_val_if_fail (regions != NULL && g_array_get_element_size (regions) == sizeof (StrobeTimelineRegion), NULL);

  /* Greedy by begin time: the lowest lane free at a region's begin, so a region keeps its
   * lane whatever the window. With the lanes in heaps that is O(R log R) however many
   * overlap. */
  g_array_sort (regions, region_cmp);
  for (guint i = 0; i < regions->len; i++)
    {
      StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, i);
      BusyLane b;

      while (busy->len && g_array_index (busy, BusyLane, 0).end <= r->begin)
        {
          BusyLane f = { 0, busy_pop (busy).lane };
          busy_push (free_lanes, f);
        }
      b.lane = free_lanes->len ? busy_pop (free_lanes).lane : n_lanes++;
      b.end = r->end;
      busy_push (busy, b);
      r->lane = (guint16) MIN (b.lane, G_MAXUINT16);
    }

  self = g_new0 (StrobeRegionIndex, 1);
  g_atomic_ref_count_init (&self->refs);
  self->regions = regions;
  self->n_lanes = MIN (n_lanes, (guint32) G_MAXUINT16 + 1);
  n_blocks = (regions->len + BLOCK - 1) / BLOCK;
  self->block_end = g_new0 (guint64, MAX (n_blocks, 1));
  for (guint i = 0; i < regions->len; i++)
    self->block_end[i / BLOCK] = MAX (self->block_end[i / BLOCK], g_array_index (regions, StrobeTimelineRegion, i).end);
  return self;
}

StrobeRegionIndex *
strobe_region_index_ref (StrobeRegionIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->refs);
  return self;
}

void
strobe_region_index_unref (StrobeRegionIndex *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->refs))
    {
      g_array_unref (self->regions);
      g_free (self->block_end);
      g_free (self);
    }
}

guint
strobe_region_index_get_n (const StrobeRegionIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->regions->len;
}

guint
strobe_region_index_get_lanes (const StrobeRegionIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_lanes;
}

guint
strobe_region_index_query (const StrobeRegionIndex *self, guint64 t0, guint64 t1, GArray *out)
{
  const StrobeTimelineRegion *r;
  guint lo = 0, hi, start;

  g_return_val_if_fail (self != NULL && out != NULL, 0);

  if (t1 < t0)
    return 0;
  r = (const StrobeTimelineRegion *) (gpointer) self->regions->data;
  hi = self->regions->len;
  /* [0, hi): the regions that begin by t1. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r[mid].begin <= t1)
        lo = mid + 1;
      else
        hi = mid;
    }
  start = out->len;
  for (guint b = 0; b * BLOCK < hi; b++)
    {
      guint end = MIN ((b + 1) * BLOCK, hi);

      if (self->block_end[b] < t0)
        continue;
      for (guint i = b * BLOCK; i < end; i++)
        if (r[i].end >= t0)
          g_array_append_val (out, r[i]);
    }
  return out->len - start;
}
