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
#include "strobe-memory-group.h"
#include "strobe-text.h"

void
strobe_cli_memory_print_total (GPtrArray *files)
{
  int status;
  g_autoptr(GPtrArray) members = strobe_cli_load_members (files, STROBE_DOCUMENT_MODEL_MEMORY, 0, &status);
  g_autofree StrobeMemoryGroupMember *group = g_new0 (StrobeMemoryGroupMember, MAX (members->len, 1));
  StrobeMemoryGroupTotal total;
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

      group[i].model = strobe_document_get_memory (m->document);
      group[i].clock = m->clock;
      strobe_memory_model_get_summary (group[i].model, &s);
      printf ("  %-32s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
              " %14" G_GUINT64_FORMAT "\n", label, s.allocs, s.frees, s.live_bytes, s.peak_bytes, s.bytes_allocated);
    }
  strobe_memory_group_total (group, members->len, &total);
  printf ("  %-32s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
          " %14" G_GUINT64_FORMAT "\n", _("total"), total.allocs, total.frees, total.live_bytes, total.peak_bytes,
          total.bytes_allocated);
  if (total.peak_bytes > 0)
    /* Translators: the highest live bytes of all processes together, and when */
    printf (_("Peak of all processes together: %" PRId64 " bytes at %s s (at each process's peak and %u moments between)\n"),
            (int64_t) total.peak_bytes, g_ascii_formatd (buf, sizeof buf, "%.6f", total.peak_seconds),
            STROBE_MEMORY_GROUP_SAMPLES + 1);
}
