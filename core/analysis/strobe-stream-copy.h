/* strobe-stream-copy.h — handing bytes to a thread on the other core without the cache
 * lines coming back first. Private to core/analysis and core/models.
 *
 * A buffer one thread fills and another reads, then gives back to be filled again, has
 * its lines in the reader's cache when the writer next writes them: each line waits on
 * the other core giving it up — on this project's test machines ~220 ns one way (a line's
 * round trip between the two vCPUs, measured: 430–440 ns). Non-temporal stores write
 * whole lines to memory without reading them first; the reader then reads them from
 * memory, in order, prefetched. That pays only where the two cores share no cache: on the
 * same machine an hour later the round trip was 98–108 ns, and the same copy 11 % slower
 * than memcpy (the host had moved the vCPUs). For data written once and read by another
 * thread only.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <string.h>
#include <glib.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Whether the process's first two CPUs are far apart: a cache line's round trip between
 * them over FAR_NS (strobe-stream-copy.c) — then handing bytes over is cheaper around the
 * caches, else through the cache the two cores share. Never waits: the last measure's
 * answer (FALSE before the first), a measure older than ten seconds starting another on
 * a thread of its own (512 round trips, a millisecond or less of both cores). Any thread.
 * STROBE_CORES_FAR=0 or 1 in the environment says it instead. */
gboolean strobe_cores_far         (void);
/* Measures now, on the caller's thread (tests, benchmarks): the answer, not kept, and
 * the round trip in @round_trip_ns (nullable; < 0 when not measured: one CPU, or no
 * answer from the other). */
gboolean strobe_cores_far_measure (double *round_trip_ns);

/* Copies @n bytes to @dst (8-byte aligned) with non-temporal stores; the last 8 bytes it
 * writes are padded with zeros, so @dst needs room for @n rounded up to 8. Before the
 * bytes are handed over: strobe_stream_fence(). */
static inline void
strobe_stream_copy (void *dst, const void *src, gsize n)
{
#if defined(__x86_64__)
  long long *d = dst;
  const guint8 *s = src;
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      long long v;

      memcpy (&v, s + i, 8);
      _mm_stream_si64 (d++, v);
    }
  if (i < n)
    {
      long long v = 0;

      memcpy (&v, s + i, n - i);
      _mm_stream_si64 (d, v);
    }
#else
  memcpy (dst, src, n);
#endif
}

/* memcpy, or strobe_stream_copy() where @streamed (the same room needed): for buffers
 * written one way or the other as strobe_cores_far() said when they were taken. */
static inline void
strobe_hand_copy (void *dst, const void *src, gsize n, gboolean streamed)
{
  if (streamed)
    strobe_stream_copy (dst, src, n);
  else
    memcpy (dst, src, n);
}

/* Orders the non-temporal stores before what follows (the hand-over). */
static inline void
strobe_stream_fence (void)
{
#if defined(__x86_64__)
  _mm_sfence ();
#endif
}
