/* strobe-change-log.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-change-log.h"

#include <string.h>

void
strobe_change_log_note (StrobeChangeLog *log, guint64 generation, guint64 from)
{
  StrobeChangeMark *last = log->n ? &log->marks[log->n - 1] : NULL;

  if (last && last->generation == generation)
    {
      last->from = MIN (last->from, from);
      return;
    }
  if (log->n == STROBE_CHANGE_MARKS)
    {
      /* The oldest joins the next: its time then counts from the next's generation on. */
      log->marks[1].from = MIN (log->marks[1].from, log->marks[0].from);
      memmove (&log->marks[0], &log->marks[1], (STROBE_CHANGE_MARKS - 1) * sizeof (StrobeChangeMark));
      log->n--;
    }
  log->marks[log->n].generation = generation;
  log->marks[log->n].from = from;
  log->n++;
}

guint64
strobe_change_log_query (const StrobeChangeLog *log, guint64 since)
{
  guint64 from = G_MAXUINT64;

  for (guint i = 0; i < log->n; i++)
    if (log->marks[i].generation > since)
      from = MIN (from, log->marks[i].from);
  return from;
}
