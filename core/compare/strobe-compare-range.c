/* strobe-compare-range.c — a comparison's range resolved on one trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "strobe-compare-range.h"

void
strobe_compare_range_clear (StrobeCompareRange *range)
{
  g_clear_pointer (&range->region, g_free);
  g_clear_pointer (&range->until, g_free);
}

/* The first bookmark @from, then the first @until at or after it: two captures of one
 * program pass the same marks in the same order. */
static gboolean
bookmark_span (StrobeTimelineModel *timeline, const char *from, const char *until, guint64 *t0, guint64 *t1)
{
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  gboolean started = FALSE;

  strobe_timeline_model_get_bookmarks (timeline, 0, G_MAXUINT64, marks);
  for (guint i = 0; i < marks->len; i++)
    {
      const StrobeTimelineBookmark *b = &g_array_index (marks, StrobeTimelineBookmark, i);
      const char *name = strobe_timeline_model_get_name (timeline, b->name_id);

      if (!started && g_strcmp0 (name, from) == 0)
        {
          *t0 = b->time;
          started = TRUE;
          /* The same name twice: from its first to its next. */
          continue;
        }
      if (started && g_strcmp0 (name, until) == 0)
        {
          *t1 = b->time;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
region_span (StrobeTimelineModel *timeline, const char *name, guint64 *t0, guint64 *t1)
{
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));

  /* Regions come by begin time, so the first match is the trace's first instance: two
   * captures of one program pass through it in the same order. */
  strobe_timeline_model_get_regions (timeline, 0, G_MAXUINT64, regions);
  for (guint i = 0; i < regions->len; i++)
    {
      const StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, i);

      if (g_strcmp0 (strobe_timeline_model_get_name (timeline, r->name_id), name) == 0)
        {
          *t0 = r->begin;
          *t1 = r->end;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
frame_span (StrobeTimelineModel *timeline, guint64 first, guint64 last, guint64 *t0, guint64 *t1,
            GError **error)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  guint n = strobe_timeline_model_get_frame_count (timeline, STROBE_TIMELINE_FRAME_GAME);

  if (n == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the trace has no game frames"));
      return FALSE;
    }
  if (first > last || last >= n)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("the trace has game frames 0–%u, not %" PRIu64 "–%" PRIu64),
                   n ? n - 1 : 0, first, last);
      return FALSE;
    }
  /* Frames are few next to scopes: one pass over all of them finds both ends. */
  strobe_timeline_model_get_frames (timeline, STROBE_TIMELINE_FRAME_GAME, 0, G_MAXUINT64, frames);
  for (guint i = 0; i < frames->len; i++)
    {
      const StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, i);

      if (f->index == first)
        *t0 = f->begin;
      if (f->index == last)
        *t1 = f->end;
    }
  return TRUE;
}

gboolean
strobe_compare_range_resolve (const StrobeCompareRange *range, StrobeDocument *document,
                              StrobeCompareSpan *out, GError **error)
{
  StrobeTimelineModel *timeline;
  StrobeTraceClock clock;
  guint64 first = 0, last = 0;

  g_return_val_if_fail (range != NULL, FALSE);
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  timeline = strobe_document_get_timeline (document);
  strobe_document_get_clock (document, &clock);
  memset (out, 0, sizeof *out);
  out->t0 = 0;
  out->t1 = G_MAXUINT64;
  if (!strobe_document_get_extent (document, &first, &last))
    first = last = 0;
  switch (range->kind)
    {
    case STROBE_COMPARE_RANGE_WHOLE:
      break;
    case STROBE_COMPARE_RANGE_TIME:
      out->t0 = strobe_trace_clock_from_seconds (&clock, range->from);
      out->t1 = strobe_trace_clock_from_seconds (&clock, range->to);
      if (range->to < range->from || out->t0 > last)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("the range does not lie in the trace (it lasts %.6f s)"),
                       strobe_trace_clock_to_seconds (&clock, last));
          return FALSE;
        }
      break;
    case STROBE_COMPARE_RANGE_FRAMES:
      if (timeline == NULL || !frame_span (timeline, range->first_frame, range->last_frame, &out->t0, &out->t1, error))
        {
          if (timeline == NULL)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the trace has no frames"));
          return FALSE;
        }
      break;
    case STROBE_COMPARE_RANGE_REGION:
      if (timeline == NULL || !region_span (timeline, range->region, &out->t0, &out->t1))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the trace has no region “%s”"),
                       range->region ? range->region : "");
          return FALSE;
        }
      break;
    case STROBE_COMPARE_RANGE_BOOKMARKS:
      if (timeline == NULL || !bookmark_span (timeline, range->region, range->until, &out->t0, &out->t1))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("the trace has no bookmark “%s” followed by a bookmark “%s”"),
                       range->region ? range->region : "", range->until ? range->until : "");
          return FALSE;
        }
      break;
    }

  {
    guint64 a = MAX (out->t0, first), b = MIN (out->t1, last);
    out->seconds = b > a ? strobe_trace_clock_duration (&clock, b - a) : 0;
  }
  if (timeline)
    for (guint k = 0; k < STROBE_TIMELINE_FRAME_KINDS; k++)
      {
        g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));

        strobe_timeline_model_get_frames (timeline, k, out->t0, out->t1, frames);
        for (guint i = 0; i < frames->len; i++)
          {
            const StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, i);
            if (strobe_compare_span_has_frame (out, f))
              out->frames[k]++;
          }
      }
  return TRUE;
}

gboolean
strobe_compare_span_has_frame (const StrobeCompareSpan *span, const StrobeTimelineFrame *frame)
{
  return frame->begin >= span->t0 && frame->end > frame->begin && frame->end <= span->t1
         && !(frame->flags & (STROBE_SCOPE_OPEN | STROBE_SCOPE_CLOSED_AT_END));
}

char *
strobe_compare_range_describe (const StrobeCompareRange *range)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (range != NULL, NULL);

  switch (range->kind)
    {
    case STROBE_COMPARE_RANGE_TIME:
      return g_strdup_printf (_("%s–%s s"), g_ascii_formatd (a, sizeof a, "%.6f", range->from),
                              g_ascii_formatd (b, sizeof b, "%.6f", range->to));
    case STROBE_COMPARE_RANGE_FRAMES:
      return g_strdup_printf (_("frames %" PRIu64 "–%" PRIu64), range->first_frame,
                              range->last_frame);
    case STROBE_COMPARE_RANGE_REGION:
      return g_strdup_printf (_("region “%s”"), range->region ? range->region : "");
    case STROBE_COMPARE_RANGE_BOOKMARKS:
      return g_strdup_printf (_("bookmarks “%s”–“%s”"), range->region ? range->region : "",
                              range->until ? range->until : "");
    case STROBE_COMPARE_RANGE_WHOLE:
    default:
      return g_strdup (_("whole trace"));
    }
}
