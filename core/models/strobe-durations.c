/* strobe-durations.c — exact order statistics of a list of durations (medians and
 * quantiles by selection, no sort): the one definition the timer statistics, the duration
 * sketch while it is exact, and the comparison's timers and histograms share.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-durations.h"

/* k-th smallest (0-based) of v[0..n), reordering v so that every element before index k
 * is <= v[k]: quickselect with a median-of-three pivot and a three-way partition, so runs
 * of equal durations (common: quantised times) cost nothing extra. */
static guint64
select_kth (guint64 *v, gssize n, gssize k)
{
  gssize lo = 0, hi = n - 1;

  while (hi > lo)
    {
      guint64 x = v[lo], y = v[lo + (hi - lo) / 2], z = v[hi];
      guint64 pivot = x < y ? (y < z ? y : MAX (x, z)) : (x < z ? x : MAX (y, z));
      gssize lt = lo, i = lo, gt = hi;

      while (i <= gt)
        {
          guint64 t = v[i];
          if (t < pivot)
            {
              v[i++] = v[lt];
              v[lt++] = t;
            }
          else if (t > pivot)
            {
              v[i] = v[gt];
              v[gt--] = t;
            }
          else
            i++;
        }
      if (k < lt)
        hi = lt - 1;
      else if (k > gt)
        lo = gt + 1;
      else
        return pivot;
    }
  return v[lo];
}

gdouble
strobe_durations_median (guint64 *v, gsize n)
{
  guint64 a;

  if (n == 0)
    return 0;
  a = select_kth (v, (gssize) n, (gssize) (n / 2));
  if (n % 2)
    return (gdouble) a;
  /* The largest of the lower half, now all below index n / 2. */
  {
    guint64 b = v[0];
    for (gsize i = 1; i < n / 2; i++)
      b = MAX (b, v[i]);
    return ((gdouble) a + (gdouble) b) / 2;
  }
}

guint64
strobe_durations_quantile (guint64 *v, gsize n, gdouble q)
{
  gsize rank;

  g_return_val_if_fail (v != NULL || n == 0, 0);
  g_return_val_if_fail (q > 0 && q <= 1, 0);
  if (n == 0)
    return 0;
  rank = (gsize) (q * (gdouble) n);
  if ((gdouble) rank < q * (gdouble) n)
    rank++;   /* ⌈q n⌉ without libm */
  rank = CLAMP (rank, 1, n);
  return select_kth (v, (gssize) n, (gssize) rank - 1);
}
