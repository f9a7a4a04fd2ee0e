/* strobe-durations.h — exact order statistics of a list of durations.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The nearest-rank @q-quantile (0 < @q <= 1: the ⌈q n⌉-th smallest) of @v[0..@n), which is
 * reordered; the selection the timer statistics' medians and p95 use, for other durations
 * too (frame times). 0 when @n is 0. */
guint64 strobe_durations_quantile (guint64 *v, gsize n, gdouble q);
/* The median as the timer statistics give it (the mean of the two middle values when @n
 * is even) of @v[0..@n), which is reordered. 0 when @n is 0. */
gdouble strobe_durations_median   (guint64 *v, gsize n);

G_END_DECLS
