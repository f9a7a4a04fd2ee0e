/* strobe-rate-window.h — bytes received over the last few seconds, for telling a peer
 * that streams a trace from one that drips a byte now and then to hold a slot.
 *
 * The window is split into buckets of window / STROBE_RATE_WINDOW_BUCKETS; a bucket older
 * than the window no longer counts. One thread adds (the connection's), any thread reads
 * (the recorder's, when it must choose whom to drop); a mutex keeps them apart, which is
 * cheap because reads happen only when the recorder is full.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STROBE_RATE_WINDOW_BUCKETS 8

typedef struct
{
  GMutex  lock;
  gint64  bucket_us;                                 /* length of one bucket */
  gint64  started;                                   /* monotonic µs */
  gint64  index[STROBE_RATE_WINDOW_BUCKETS];         /* which bucket each slot holds */
  guint64 bytes[STROBE_RATE_WINDOW_BUCKETS];
} StrobeRateWindow;

void    strobe_rate_window_init  (StrobeRateWindow *self,
                                  gint64            window_us,
                                  gint64            now);
void    strobe_rate_window_clear (StrobeRateWindow *self);
void    strobe_rate_window_add   (StrobeRateWindow *self,
                                  guint64           bytes,
                                  gint64            now);
/* Bytes counted in the window that ends at @now. */
guint64 strobe_rate_window_bytes (StrobeRateWindow *self,
                                  gint64            now);
/* Bytes per second over the window, or over the time since init when that is shorter
 * (a peer that just arrived is judged by what it sent so far, not diluted by time it was
 * not there for). */
double  strobe_rate_window_rate  (StrobeRateWindow *self,
                                  gint64            now);

G_END_DECLS
