/* strobe-timeline-widget-overlay.c
 *
 * What changes with the pointer and the view state, drawn directly over the tiles:
 * bookmarks, drops, the selection, the hover and cursor lines, outlines of the selected
 * and hovered scope; then the ruler with its strip of markers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-widget-private.h"

/* The rectangle of a scope of a thread track on screen; FALSE when not shown. */
static gboolean
scope_rect (StrobeTimelineWidget *self, StrobeTimeScale *axis, guint16 thread_id, guint depth, guint64 begin,
            guint64 end, graphene_rect_t *out)
{
  int i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, thread_id);
  const StrobeTrack *t;
  gdouble x, w;

  if (i < 0)
    return FALSE;
  t = strobe_track_list_get (self->tracks, (guint) i);
  if (t->height == 0 || t->collapsed || depth >= t->depths)
    return FALSE;
  if (!strobe_time_scale_span (axis, begin, end, -4, axis->width + 4, 1, &x, &w))
    return FALSE;
  *out = GRAPHENE_RECT_INIT (x, RULER_H + t->y - gtk_adjustment_get_value (self->vadj) + strobe_track_row_y (depth),
                             w, STROBE_TRACK_ROW_H - 1);
  return TRUE;
}

void
strobe_timeline_widget_draw_outline (GtkSnapshot *snapshot, const graphene_rect_t *r, gdouble width, const GdkRGBA *color)
{
  GskRoundedRect rr;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (r->origin.x - width, r->origin.y - width,
                                                             r->size.width + 2 * width, r->size.height + 2 * width), 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

gboolean
strobe_timeline_widget_get_end_marker (StrobeTimelineWidget *self, const char **reason)
{
  switch (strobe_document_get_status (self->document))
    {
    case STROBE_DOCUMENT_STATUS_CUT_OFF:
      *reason = _("Cut off");
      return TRUE;
    case STROBE_DOCUMENT_STATUS_DAMAGED:
      *reason = _("Damaged");
      return TRUE;
    case STROBE_DOCUMENT_STATUS_CANCELLED:
      *reason = _("Loading cancelled");
      return TRUE;
    default:
      return FALSE;
    }
}

/* "Damaged at offset 12345" from the decoder's message, which names the offset. */
static char *
end_reason_text (StrobeTimelineWidget *self, const char *reason)
{
  const GError *error = strobe_document_get_error (self->document);
  g_autoptr(GRegex) re = NULL;
  g_autoptr(GMatchInfo) m = NULL;

  gboolean truncated;

  if (strobe_document_get_status (self->document) != STROBE_DOCUMENT_STATUS_DAMAGED || error == NULL)
    return g_strdup (reason);
  truncated = g_error_matches (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_TRUNCATED);
  re = g_regex_new ("offset ([0-9]+)", 0, 0, NULL);
  if (re && g_regex_match (re, error->message, 0, &m))
    {
      g_autofree char *offset = g_match_info_fetch (m, 1);
      /* Translators: %s is a byte offset in the trace file */
      return g_strdup_printf (truncated ? _("Cut off at offset %s") : _("Damaged at offset %s"), offset);
    }
  return g_strdup (truncated ? _("Cut off") : reason);
}

void
strobe_timeline_widget_draw_overlays (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  guint64 s0, s1, cursor, hover;
  GArray *bookmarks = self->facts.bookmarks, *drops = self->facts.drops;
  const StrobeScopeRef *sel = self->selected_scope;
  const char *reason;
  graphene_rect_t r;
  GdkRGBA c;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_H, width, MAX (height - RULER_H, 0)));

  /* Drops: the time where events are missing is never left looking idle. */
  for (guint i = 0; i < drops->len; i++)
    {
      const StrobeTimelineDrop *d = &g_array_index (drops, StrobeTimelineDrop, i);
      gdouble x, w;
      if (strobe_time_scale_span (axis, d->begin, d->end, 0, width, 2, &x, &w))
        {
          c = p->red;
          c.alpha = 0.10;
          strobe_timeline_widget_fill_rect (snapshot, x, RULER_H, w, height - RULER_H, &c);
        }
    }

  /* Bookmarks: a line each (their labels are on the ruler). */
  for (guint i = 0; i < bookmarks->len; i++)
    {
      gdouble x = floor (strobe_time_scale_x (axis, g_array_index (bookmarks, StrobeTimelineBookmark, i).time));
      c = p->bookmark;
      c.alpha = 0.7;
      strobe_timeline_widget_fill_rect (snapshot, x, RULER_H, 1, height - RULER_H, &c);
    }

  /* The selected range: a tint over it, lines at its edges. */
  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      gdouble x0 = strobe_time_scale_x (axis, s0), x1 = strobe_time_scale_x (axis, s1);
      x0 = CLAMP (x0, -2, width + 2);
      x1 = CLAMP (x1, -2, width + 2);
      strobe_timeline_widget_fill_rect (snapshot, x0, RULER_H, MAX (x1 - x0, 1), height - RULER_H, &p->accent_fill);
      strobe_timeline_widget_fill_rect (snapshot, x0, RULER_H, 1, height - RULER_H, &p->accent);
      strobe_timeline_widget_fill_rect (snapshot, x1, RULER_H, 1, height - RULER_H, &p->accent);
    }

  /* Where the data ends in a cut-off or damaged trace. */
  if (self->have_extent && strobe_timeline_widget_get_end_marker (self, &reason))
    {
      gdouble x = strobe_time_scale_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          strobe_timeline_widget_fill_rect (snapshot, x, RULER_H, 2, height - RULER_H, &p->red);
          c = p->red;
          c.alpha = 0.06;
          strobe_timeline_widget_fill_rect (snapshot, x + 2, RULER_H, MAX (width - x - 2, 0), height - RULER_H, &c);
        }
    }

  if (sel && scope_rect (self, axis, sel->thread_id, sel->depth, sel->begin, sel->end, &r))
    strobe_timeline_widget_draw_outline (snapshot, &r, 2, &p->accent);
  if (self->hovering && (self->hover.kind == HIT_SCOPE || self->hover.kind == HIT_BLOCK)
      && scope_rect (self, axis, self->hover.thread_id, self->hover.block.depth, self->hover.block.begin,
                     self->hover.block.end, &r))
    strobe_timeline_widget_draw_outline (snapshot, &r, 1, &p->fg);

  cursor = strobe_view_state_get_cursor (self->state);
  if (cursor != STROBE_VIEW_STATE_NONE)
    {
      gdouble x = strobe_time_scale_x (axis, cursor);
      c = (GdkRGBA) { 0.95, 0.55, 0.10, 1 };
      strobe_timeline_widget_fill_rect (snapshot, floor (x), RULER_H, 1.5, height - RULER_H, &c);
    }
  hover = strobe_view_state_get_hover (self->state);
  if (hover != STROBE_VIEW_STATE_NONE)
    {
      gdouble x = strobe_time_scale_x (axis, hover);
      c = p->fg;
      c.alpha = 0.45;
      strobe_timeline_widget_fill_rect (snapshot, floor (x), RULER_H, 1, height - RULER_H, &c);
    }
  if (self->drag == DRAG_REORDER && self->drop_index >= 0)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) self->drop_index);
      gdouble y = RULER_H + t->y - gtk_adjustment_get_value (self->vadj);
      strobe_timeline_widget_fill_rect (snapshot, 0, y - 1, width, 3, &p->accent);
    }
  gtk_snapshot_pop (snapshot);
}

/* A label on a rounded background centred on @x, but not left of @min_left (what is
 * already labelled there); returns its right end. */
static gdouble
pill_after (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const char *text, gdouble x, gdouble min_left,
            gdouble y, const GdkRGBA *bg, const GdkRGBA *fg, int width)
{
  PangoLayout *layout = strobe_timeline_widget_text_layout (self, text, FALSE);
  int w, h;
  GskRoundedRect r;

  pango_layout_get_pixel_size (layout, &w, &h);
  x = CLAMP (MAX (x - (w + 8) / 2.0, min_left), 0, MAX (width - w - 8, 0));
  gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT (x, y, w + 8, h + 2), 3);
  gtk_snapshot_push_rounded_clip (snapshot, &r);
  strobe_timeline_widget_fill_rect (snapshot, x, y, w + 8, h + 2, bg);
  gtk_snapshot_pop (snapshot);
  strobe_timeline_widget_append_text (snapshot, layout, x + 4, y + 1, fg);
  return x + w + 8;
}

void
strobe_timeline_widget_draw_pill (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const char *text, gdouble x, gdouble y,
      const GdkRGBA *bg, const GdkRGBA *fg, int width)
{
  pill_after (self, snapshot, text, x, -G_MAXDOUBLE, y, bg, fg, width);
}

void
strobe_timeline_widget_draw_ruler (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(GArray) ticks = NULL;
  GArray *drops = self->facts.drops, *bookmarks = self->facts.bookmarks;
  gdouble step, range_end, last_label_end = -1, end_left = G_MAXDOUBLE, end_right = -G_MAXDOUBLE;
  guint64 s0, s1, hover, t1 = strobe_time_scale_end (axis);
  GdkRGBA white = { 1, 1, 1, 1 }, strip = p->line;
  const char *reason;

  strobe_timeline_widget_fill_rect (snapshot, 0, 0, width, RULER_H, &p->bg);
  strip.alpha = 0.05;
  strobe_timeline_widget_fill_rect (snapshot, 0, MARKS_Y - 2, width, RULER_H - MARKS_Y + 1, &strip);
  strobe_timeline_widget_fill_rect (snapshot, 0, RULER_H - 1, width, 1, &p->line);
  ticks = strobe_time_axis_ticks (self->axis, axis, 100, &step);
  range_end = strobe_time_axis_to_seconds (self->axis, t1);
  for (guint i = 0; i < ticks->len; i++)
    {
      const StrobeRulerTick *t = &g_array_index (ticks, StrobeRulerTick, i);
      gdouble x = floor (t->x);

      strobe_timeline_widget_fill_rect (snapshot, x, t->major ? 4 : TICKS_H - 5, 1, t->major ? TICKS_H - 4 : 5, &p->dim);
      if (t->major)
        {
          g_autofree char *text = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, t->time), step, range_end);
          PangoLayout *layout = strobe_timeline_widget_text_layout (self, text, FALSE);
          GdkRGBA grid = p->line;
          int w;

          /* A label that would run off the right edge is left out rather than cut. */
          pango_layout_get_pixel_size (layout, &w, NULL);
          if (x + 3 + w <= width)
            strobe_timeline_widget_append_text (snapshot, layout, x + 3, 2, &p->dim);
          grid.alpha = 0.07;
          strobe_timeline_widget_fill_rect (snapshot, x, RULER_H, 1, height - RULER_H, &grid);
        }
    }

  /* Where the end-of-data label goes (drawn last, over everything): no bookmark label
   * under it. */
  if (self->have_extent && strobe_timeline_widget_get_end_marker (self, &reason))
    {
      gdouble x = strobe_time_scale_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          g_autofree char *text = end_reason_text (self, reason);
          int w;

          pango_layout_get_pixel_size (strobe_timeline_widget_text_layout (self, text, FALSE), &w, NULL);
          end_left = CLAMP (x - (w + 8) / 2.0, 0, MAX (width - w - 8, 0)) - 4;
          end_right = end_left + w + 16;
        }
    }

  /* Bookmarks: a flag each, labelled while they do not crowd each other. */
  for (guint i = 0; i < bookmarks->len; i++)
    {
      const StrobeTimelineBookmark *b = &g_array_index (bookmarks, StrobeTimelineBookmark, i);
      gdouble x = floor (strobe_time_scale_x (axis, b->time));

      strobe_timeline_widget_fill_rect (snapshot, x, MARKS_Y - 2, 1, RULER_H - MARKS_Y + 2, &p->bookmark);
      if (x > last_label_end)
        {
          PangoLayout *layout = strobe_timeline_widget_text_layout (self, g_ptr_array_index (self->facts.bookmark_names, i), FALSE);
          int w, h;

          pango_layout_get_pixel_size (layout, &w, &h);
          if (x + w + 8 > end_left && x < end_right)
            continue;
          strobe_timeline_widget_fill_rect (snapshot, x, MARKS_Y, w + 8, h + 2, &p->bookmark);
          strobe_timeline_widget_append_text (snapshot, layout, x + 4, MARKS_Y + 1, &white);
          last_label_end = x + w + 12;
        }
    }

  for (guint i = 0; i < drops->len; i++)
    {
      const StrobeTimelineDrop *d = &g_array_index (drops, StrobeTimelineDrop, i);
      gdouble x, w;
      if (strobe_time_scale_span (axis, d->begin, d->end, 0, width, 2, &x, &w))
        {
          g_autofree char *n = strobe_format_count (d->count);
          g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event dropped", "%s events dropped", d->count), n);
          strobe_timeline_widget_fill_rect (snapshot, x, RULER_H - 4, w, 4, &p->red);
          /* After the bookmark labels before it, not over them. */
          last_label_end = pill_after (self, snapshot, text, x + w / 2, last_label_end - 4, MARKS_Y, &p->red, &white,
                                       width) + 4;
        }
    }

  if (strobe_view_state_get_selection (self->state, &s0, &s1))
    {
      gdouble x0 = CLAMP (strobe_time_scale_x (axis, s0), -2, width + 2);
      gdouble x1 = CLAMP (strobe_time_scale_x (axis, s1), -2, width + 2);
      g_autofree char *d = strobe_timeline_widget_format_ticks (self, s1 - s0);

      strobe_timeline_widget_fill_rect (snapshot, x0, 0, MAX (x1 - x0, 1), RULER_H, &p->accent_fill);
      strobe_timeline_widget_fill_rect (snapshot, x0, RULER_H - 3, MAX (x1 - x0, 1), 3, &p->accent);
      strobe_timeline_widget_draw_pill (self, snapshot, d, (x0 + x1) / 2, MARKS_Y, &p->accent, &white, width);
    }

  if (self->have_extent && strobe_timeline_widget_get_end_marker (self, &reason))
    {
      gdouble x = strobe_time_scale_x (axis, self->last);
      if (x >= -2 && x <= width + 2)
        {
          g_autofree char *text = end_reason_text (self, reason);
          strobe_timeline_widget_fill_rect (snapshot, x, 0, 2, RULER_H, &p->red);
          strobe_timeline_widget_draw_pill (self, snapshot, text, x, MARKS_Y, &p->red, &white, width);
        }
    }

  hover = strobe_view_state_get_hover (self->state);
  if (hover != STROBE_VIEW_STATE_NONE && self->hovering)
    {
      /* Relative to the trace's start, and when it was on the wall clock. */
      gdouble x = strobe_time_scale_x (axis, hover);
      g_autofree char *rel = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, hover), step / 100,
                                                 range_end);
      g_autofree char *wall = NULL;
      StrobeTraceClock clock;

      strobe_time_axis_get_clock (self->axis, &clock);
      wall = strobe_trace_clock_format_wall (&clock, hover, STROBE_WALL_TIME_US);
      g_autofree char *text = wall ? g_strdup_printf ("%s · %s", rel, wall) : g_strdup (rel);

      strobe_timeline_widget_draw_pill (self, snapshot, text, x, 2, &p->fg, &p->bg, width);
    }
}
