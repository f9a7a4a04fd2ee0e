/* strobe-cli-memory-total.c — `strobe-cli memory FILE FILE…` (or --group NAME): after each
 * process's own summary, the group's: a line per process and their total, the peak of all
 * of them together found on the group's one time axis.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>

#include "strobe-cli.h"
#include "strobe-memory-model.h"
#include "strobe-text.h"

#define SAMPLES 4000

/* Live bytes of every process together at @seconds on the group's axis; member @at_peak
 * (G_MAXUINT: none) counted as its own peak, which that moment is for it — seconds and
 * back to ticks can land a tick before the allocation that made the peak. */
static gint64
total_at (GPtrArray *members, gdouble seconds, guint at_peak)
{
  gint64 sum = 0;

  for (guint i = 0; i < members->len; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (members, i);
      StrobeMemoryModel *model = strobe_document_get_memory (m->document);
      StrobeMemorySummary s;
      gint64 bytes = 0, count = 0;

      strobe_memory_model_get_summary (model, &s);
      if (i == at_peak)
        {
          sum += (gint64) s.peak_bytes;
          continue;
        }
      if (s.allocs == 0 || strobe_trace_clock_to_seconds (&m->clock, s.first_time) > seconds)
        continue;
      strobe_memory_model_get_totals_at (model, strobe_trace_clock_from_seconds (&m->clock, seconds), &bytes, &count);
      sum += bytes;
    }
  return sum;
}

void
strobe_cli_memory_print_total (GPtrArray *files)
{
  int status;
  g_autoptr(GPtrArray) members = strobe_cli_load_members (files, STROBE_DOCUMENT_MODEL_MEMORY, FALSE, &status);
  StrobeMemorySummary total = { 0 };
  gdouble lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, peak_at = 0;
  gint64 peak = 0;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Translators: the header of `strobe-cli memory` of several traces' total */
  printf (_("\n== All %u processes, on one time axis\n"), members->len);
  printf ("  %-32s %10s %10s %14s %14s %14s\n", _("process"), _("allocs"), _("frees"), _("live bytes"),
          _("peak bytes"), _("total bytes"));
  for (guint i = 0; i < members->len; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (members, i);
      g_autofree char *label = strobe_text_escape (m->label, STROBE_TEXT_PLAIN);
      StrobeMemorySummary s;

      strobe_memory_model_get_summary (strobe_document_get_memory (m->document), &s);
      printf ("  %-32s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
              " %14" G_GUINT64_FORMAT "\n", label, s.allocs, s.frees, s.live_bytes, s.peak_bytes, s.bytes_allocated);
      total.allocs += s.allocs;
      total.frees += s.frees;
      total.live_bytes += s.live_bytes;
      total.bytes_allocated = s.bytes_allocated > G_MAXUINT64 - total.bytes_allocated
                                ? G_MAXUINT64 : total.bytes_allocated + s.bytes_allocated;
      if (s.allocs)
        {
          lo = MIN (lo, strobe_trace_clock_to_seconds (&m->clock, s.first_time));
          hi = MAX (hi, strobe_trace_clock_to_seconds (&m->clock, s.last_time));
        }
    }
  /* The peak of the sum is not the sum of the peaks: the processes peak at different
   * moments. Looked for at each process's own peak and at evenly spread moments. */
  for (guint i = 0; i < members->len && lo <= hi; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (members, i);
      StrobeMemorySummary s;
      gdouble t;
      gint64 v;

      strobe_memory_model_get_summary (strobe_document_get_memory (m->document), &s);
      if (s.allocs == 0)
        continue;
      t = strobe_trace_clock_to_seconds (&m->clock, s.peak_time);
      if ((v = total_at (members, t, i)) > peak)
        peak = v, peak_at = t;
    }
  for (guint k = 0; k <= SAMPLES && lo <= hi; k++)
    {
      gdouble t = lo + (hi - lo) * k / SAMPLES;
      gint64 v = total_at (members, t, G_MAXUINT);

      if (v > peak)
        peak = v, peak_at = t;
    }
  printf ("  %-32s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
          " %14" G_GUINT64_FORMAT "\n", _("total"), total.allocs, total.frees, total.live_bytes, peak,
          total.bytes_allocated);
  if (peak > 0)
    /* Translators: the highest live bytes of all processes together, and when */
    printf (_("Peak of all processes together: %" PRId64 " bytes at %s s (at each process's peak and %u moments between)\n"),
            (int64_t) peak, g_ascii_formatd (buf, sizeof buf, "%.6f", peak_at), SAMPLES + 1);
}
