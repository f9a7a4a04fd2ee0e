/* strobe-rate-window.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-rate-window.h"

void
strobe_rate_window_init (StrobeRateWindow *self,
                         gint64            window_us,
                         gint64            now)
{
  g_mutex_init (&self->lock);
  self->bucket_us = MAX (1, window_us / STROBE_RATE_WINDOW_BUCKETS);
  self->started = now;
  for (guint i = 0; i < STROBE_RATE_WINDOW_BUCKETS; i++)
    {
      self->index[i] = -1;
      self->bytes[i] = 0;
    }
}

void
strobe_rate_window_clear (StrobeRateWindow *self)
{
  g_mutex_clear (&self->lock);
}

void
strobe_rate_window_add (StrobeRateWindow *self,
                        guint64           bytes,
                        gint64            now)
{
  gint64 k = now / self->bucket_us;
  guint slot = (guint) (k % STROBE_RATE_WINDOW_BUCKETS);

  g_mutex_lock (&self->lock);
  if (self->index[slot] != k)
    {
      self->index[slot] = k;
      self->bytes[slot] = 0;
    }
  self->bytes[slot] += bytes;
  g_mutex_unlock (&self->lock);
}

guint64
strobe_rate_window_bytes (StrobeRateWindow *self,
                          gint64            now)
{
  gint64 k = now / self->bucket_us;
  guint64 sum = 0;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < STROBE_RATE_WINDOW_BUCKETS; i++)
    if (self->index[i] > k - STROBE_RATE_WINDOW_BUCKETS && self->index[i] <= k)
      sum += self->bytes[i];
  g_mutex_unlock (&self->lock);
  return sum;
}

double
strobe_rate_window_rate (StrobeRateWindow *self,
                         gint64            now)
{
  gint64 span = MIN (now - self->started, self->bucket_us * STROBE_RATE_WINDOW_BUCKETS);

  return (double) strobe_rate_window_bytes (self, now) / ((double) MAX (span, 1000) / G_USEC_PER_SEC);
}
