/* strobe-memory-group.c — several processes' memory on one time axis.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-memory-group.h"

gint64
strobe_memory_group_live_at (const StrobeMemoryGroupMember *members, guint n, gdouble seconds, guint at_peak)
{
  gint64 sum = 0;

  for (guint i = 0; i < n; i++)
    {
      StrobeMemorySummary s;
      gint64 bytes = 0, count = 0;

      strobe_memory_model_get_summary (members[i].model, &s);
      if (i == at_peak)
        {
          sum += s.peak_bytes;
          continue;
        }
      if (s.allocs == 0 || strobe_trace_clock_to_seconds (&members[i].clock, s.first_time) > seconds)
        continue;
      strobe_memory_model_get_totals_at (members[i].model, strobe_trace_clock_from_seconds (&members[i].clock, seconds),
                                         &bytes, &count);
      sum += bytes;
    }
  return sum;
}

void
strobe_memory_group_total (const StrobeMemoryGroupMember *members, guint n, StrobeMemoryGroupTotal *out)
{
  gdouble lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;

  g_return_if_fail (out != NULL);
  *out = (StrobeMemoryGroupTotal) { 0 };
  for (guint i = 0; i < n; i++)
    {
      StrobeMemorySummary s;

      strobe_memory_model_get_summary (members[i].model, &s);
      out->allocs += s.allocs;
      out->frees += s.frees;
      out->live_bytes += s.live_bytes;
      out->bytes_allocated = s.bytes_allocated > G_MAXUINT64 - out->bytes_allocated
                               ? G_MAXUINT64 : out->bytes_allocated + s.bytes_allocated;
      if (s.allocs)
        {
          lo = MIN (lo, strobe_trace_clock_to_seconds (&members[i].clock, s.first_time));
          hi = MAX (hi, strobe_trace_clock_to_seconds (&members[i].clock, s.last_time));
        }
    }
  out->any = lo <= hi;
  if (!out->any)
    return;
  out->first_seconds = lo;
  out->last_seconds = hi;
  /* The peak of the sum is not the sum of the peaks: looked for at each member's own peak
   * and at evenly spread moments. */
  for (guint i = 0; i < n; i++)
    {
      StrobeMemorySummary s;
      gdouble t;
      gint64 v;

      strobe_memory_model_get_summary (members[i].model, &s);
      if (s.allocs == 0)
        continue;
      t = strobe_trace_clock_to_seconds (&members[i].clock, s.peak_time);
      if ((v = strobe_memory_group_live_at (members, n, t, i)) > out->peak_bytes)
        out->peak_bytes = v, out->peak_seconds = t;
    }
  for (guint k = 0; k <= STROBE_MEMORY_GROUP_SAMPLES; k++)
    {
      gdouble t = lo + (hi - lo) * k / STROBE_MEMORY_GROUP_SAMPLES;
      gint64 v = strobe_memory_group_live_at (members, n, t, G_MAXUINT);

      if (v > out->peak_bytes)
        out->peak_bytes = v, out->peak_seconds = t;
    }
}
