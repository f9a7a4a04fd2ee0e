/* strobe-timeline-widget-input.c
 *
 * The pointer: what is under it (hit tests query the model around one point), the
 * tooltip that says so, and the gestures — hover, scroll and pinch to zoom, drag to pan,
 * select or move a track, click to select or activate.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-widget-private.h"

/* ---- hit testing ----------------------------------------------------------------------- */

static void
hit_test (StrobeTimelineWidget *self, gdouble x, gdouble y, Hit *hit)
{
  StrobeTimeScale axis;
  const StrobeTrack *t;
  int ty, i;
  guint64 slack;

  memset (hit, 0, sizeof *hit);
  hit->track = -1;
  strobe_timeline_widget_get_axis (self, &axis);
  hit->time = strobe_time_scale_time (&axis, x);
  if (y < RULER_H)
    {
      hit->kind = HIT_RULER;
      return;
    }
  i = strobe_track_list_at_y (self->tracks, (int) (y - RULER_H + gtk_adjustment_get_value (self->vadj)));
  if (i < 0)
    return;
  hit->track = i;
  t = strobe_track_list_get (self->tracks, (guint) i);
  ty = (int) (y - RULER_H + gtk_adjustment_get_value (self->vadj)) - t->y;
  hit->kind = HIT_TRACK;
  slack = (guint64) MAX (axis.scale * 3, 1);

  if (t->kind == STROBE_TRACK_GROUP)
    {
      hit->kind = HIT_HEADER;
      return;
    }
  if (ty < STROBE_TRACK_HEADER_H && x < 200)
    {
      /* The name pill (its width is the layout's, but a generous strip is easier). */
      PangoLayout *layout = strobe_timeline_widget_text_layout (self, t->title, t->kind == STROBE_TRACK_THREAD);
      int w;
      pango_layout_get_pixel_size (layout, &w, NULL);
      if (x < w + 2 * HEADER_PAD + 24)
        {
          hit->kind = HIT_HEADER;
          return;
        }
    }
  switch (t->kind)
    {
    case STROBE_TRACK_THREAD:
      {
        int depth = strobe_track_row_at (t, ty);
        g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
        guint64 res = (guint64) MAX (floor (axis.scale), 1);
        guint64 lo = hit->time > slack ? hit->time - slack : 0;

        hit->thread_id = (guint16) t->id;
        if (depth < 0 && ty < STROBE_TRACK_HEADER_H)
          {
            GArray *ticks = g_hash_table_lookup (self->log_ticks, GUINT_TO_POINTER (t->id));
            guint64 best = G_MAXUINT64;
            if (ticks == NULL)
              return;
            /* The nearest message within a few pixels. */
            for (guint lo_i = 0, hi_i = ticks->len; ;)
              {
                if (lo_i >= hi_i)
                  {
                    for (guint k = lo_i > 2 ? lo_i - 2 : 0; k < MIN (lo_i + 2, ticks->len); k++)
                      {
                        const StrobeLogTick *tk = &g_array_index (ticks, StrobeLogTick, k);
                        guint64 d = tk->time > hit->time ? tk->time - hit->time : hit->time - tk->time;
                        if (d <= slack && d < best)
                          {
                            best = d;
                            hit->tick = *tk;
                            hit->kind = HIT_LOG;
                          }
                      }
                    break;
                  }
                guint mid = (lo_i + hi_i) / 2;
                if (g_array_index (ticks, StrobeLogTick, mid).time < hit->time)
                  lo_i = mid + 1;
                else
                  hi_i = mid;
              }
            return;
          }
        if (depth < 0)
          {
            int sy = strobe_track_samples_y (t);
            if (sy >= 0 && ty >= sy && ty < sy + STROBE_TRACK_SAMPLES_H)
              hit->kind = HIT_SAMPLES;
            return;
          }
        strobe_timeline_model_get_blocks (self->timeline, (guint16) t->id, (guint) depth, lo, hit->time + slack, res, blocks);
        for (guint k = 0; k < blocks->len; k++)
          {
            const StrobeTimelineBlock *b = &g_array_index (blocks, StrobeTimelineBlock, k);
            gdouble bx, bw;
            if (!strobe_time_scale_span (&axis, b->begin, b->end, -10, axis.width + 10, 1, &bx, &bw))
              continue;
            if (x >= bx - 1 && x <= bx + bw + 1)
              {
                hit->block = *b;
                hit->kind = b->count > 1 ? HIT_BLOCK : HIT_SCOPE;
                if (b->begin <= hit->time && hit->time <= b->end)
                  break;
              }
          }
      }
      break;
    case STROBE_TRACK_FRAMES:
      {
        g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
        strobe_timeline_model_get_frames (self->timeline, (guint8) t->id, hit->time, hit->time, frames);
        if (frames->len)
          {
            hit->frame = g_array_index (frames, StrobeTimelineFrame, frames->len - 1);
            hit->kind = HIT_FRAME;
          }
      }
      break;
    case STROBE_TRACK_REGIONS:
      {
        g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
        int lane = (ty - STROBE_TRACK_HEADER_H) / STROBE_TRACK_LANE_H;
        strobe_timeline_model_get_regions (self->timeline, hit->time, hit->time, regions);
        for (guint k = 0; k < regions->len; k++)
          if (t->collapsed || g_array_index (regions, StrobeTimelineRegion, k).lane == lane)
            {
              hit->region = g_array_index (regions, StrobeTimelineRegion, k);
              hit->kind = HIT_REGION;
              break;
            }
      }
      break;
    case STROBE_TRACK_COUNTER:
      hit->kind = HIT_COUNTER;
      break;
    case STROBE_TRACK_CPU:
      hit->kind = HIT_CPU;
      break;
    default:
      break;
    }
}

/* ---- tooltips --------------------------------------------------------------------------- */

static char *
thread_name (StrobeTimelineWidget *self, guint16 id)
{
  int i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, id);
  return i >= 0 ? g_strdup (strobe_track_list_get (self->tracks, (guint) i)->title) : g_strdup_printf ("%u", id);
}

static char *
scope_tooltip (StrobeTimelineWidget *self, const Hit *hit)
{
  const StrobeTimelineBlock *b = &hit->block;
  const char *name = strobe_timeline_model_get_name (self->timeline, b->name_id);
  g_autofree char *thread = thread_name (self, hit->thread_id);
  g_autofree char *start = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, b->begin), 1e-9,
                                               strobe_time_axis_to_seconds (self->axis, b->begin));
  g_autofree char *incl = strobe_timeline_widget_format_ticks (self, b->end - b->begin);
  g_autofree char *excl = NULL;
  g_autofree char *esc = g_markup_escape_text (name ? name : "", -1);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  const char *flag = "";

  if (b->count > 1)
    {
      g_autofree char *n = strobe_format_count (b->count);
      /* Translators: a level-of-detail block of the timeline: many scopes too small to draw */
      return g_strdup_printf (_("<b>%s scopes</b> in %s, first “%s”\n%s from %s, depth %u\nZoom in to see them."),
                              n, incl, esc, thread, start, b->depth);
    }
  /* Exclusive time: minus the direct children — a bounded count of them, as the tooltip
   * comes on the main thread and a long scope may hold millions. */
  strobe_timeline_model_get_scopes_max (self->timeline, hit->thread_id, b->depth + 1u, b->begin, b->end,
                                        MAX_TOOLTIP_CHILDREN + 1, children);
  if (children->len <= MAX_TOOLTIP_CHILDREN)
    {
      guint64 sum = 0;
      for (guint i = 0; i < children->len; i++)
        {
          const StrobeTimelineScope *c = &g_array_index (children, StrobeTimelineScope, i);
          guint64 cb = MAX (c->begin, b->begin), ce = MIN (c->end, b->end);
          sum += ce > cb ? ce - cb : 0;
        }
      excl = strobe_timeline_widget_format_ticks (self, (b->end - b->begin) > sum ? (b->end - b->begin) - sum : 0);
    }
  else
    excl = g_strdup ("…");
  if (b->flags & STROBE_SCOPE_CLOSED_AT_END)
    flag = _("\n<i>Still open when the trace ended: drawn to where the data stops.</i>");
  else if (b->flags & STROBE_SCOPE_OPEN)
    flag = _("\n<i>Still running.</i>");
  return g_strdup_printf (_("<b>%s</b>\nThread: %s\nStart: %s\nInclusive: %s\nExclusive: %s\nDepth: %u%s"),
                          esc, thread, start, incl, excl, b->depth, flag);
}

static char *
tooltip_markup (StrobeTimelineWidget *self, const Hit *hit)
{
  switch (hit->kind)
    {
    case HIT_SCOPE:
    case HIT_BLOCK:
      return scope_tooltip (self, hit);
    case HIT_LOG:
      {
        StrobeLogMessage m;
        if (self->log && strobe_log_model_get_message (self->log, hit->tick.index, &m))
          {
            g_autofree char *text = g_markup_escape_text (m.text ? m.text : "", -1);
            g_autofree char *at = strobe_ruler_label (strobe_time_axis_to_seconds (self->axis, m.time), 1e-9,
                                                      strobe_time_axis_to_seconds (self->axis, m.time));
            const char *cat = m.spec && m.spec->category ? m.spec->category->name : "";
            char *out = g_strdup_printf ("<b>%s</b> %s · %s\n%s", strobe_log_verbosity_name (m.verbosity), cat, at, text);
            g_free (m.text);
            return out;
          }
        return NULL;
      }
    case HIT_FRAME:
      {
        g_autofree char *d = strobe_timeline_widget_format_ticks (self, hit->frame.end - hit->frame.begin);
        return g_strdup_printf (_("Frame %u: %s"), hit->frame.index, d);
      }
    case HIT_REGION:
      {
        g_autofree char *d = strobe_timeline_widget_format_ticks (self, hit->region.end - hit->region.begin);
        g_autofree char *esc = g_markup_escape_text (strobe_timeline_model_get_name (self->timeline, hit->region.name_id), -1);
        return g_strdup_printf ("<b>%s</b>: %s", esc, d);
      }
    case HIT_SAMPLES:
    case HIT_CPU:
      {
        StrobeTimeScale axis;
        StrobeTraceClock clock;
        g_autofree char *text = NULL;

        if (self->samples == NULL)
          return NULL;
        strobe_timeline_widget_get_axis (self, &axis);
        strobe_time_axis_get_clock (self->axis, &clock);
        text = hit->kind == HIT_CPU
               ? strobe_timeline_describe_cpu (self->samples, &clock, hit->time, (guint64) MAX (axis.scale * 2, 1))
               : strobe_timeline_describe_strip (self->samples, &clock,
                                                 (guint32) strobe_threads_model_get_system_id (self->threads, hit->thread_id),
                                                 hit->time, (guint64) MAX (axis.scale * 2, 1));
        return text ? g_markup_escape_text (text, -1) : NULL;
      }
    case HIT_HEADER:
      {
        const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) hit->track);
        g_autofree char *esc = g_markup_escape_text (t->title, -1);
        return g_strdup_printf (_("<b>%s</b>\nClick to collapse or expand, drag to move, right-click for more."), esc);
      }
    case HIT_RULER:
      {
        g_autoptr(GArray) drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
        const char *reason;
        strobe_timeline_model_get_drops (self->timeline, hit->time, hit->time, drops);
        if (drops->len)
          {
            g_autofree char *n = strobe_format_count (g_array_index (drops, StrobeTimelineDrop, 0).count);
            return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "The program dropped %s event somewhere in this interval: the trace is incomplete here.",
                                                 "The program dropped %s events somewhere in this interval: the trace is incomplete here.",
                                                 g_array_index (drops, StrobeTimelineDrop, 0).count), n);
          }
        if (self->have_extent && strobe_timeline_widget_get_end_marker (self, &reason) && hit->time >= self->last)
          {
            const GError *e = strobe_document_get_error (self->document);
            g_autofree char *esc = e ? g_markup_escape_text (e->message, -1) : NULL;
            return g_strdup_printf (_("<b>The data ends here</b> (%s).%s%s"), reason, esc ? "\n" : "", esc ? esc : "");
          }
        return NULL;
      }
    default:
      return NULL;
    }
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer data)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  g_autofree char *markup = NULL;
  Hit hit;

  if (keyboard || self->drag != DRAG_NONE)
    return FALSE;
  /* While the reading thread adds a batch, no tooltip this time rather than a wait: GTK
   * asks again as the pointer moves. */
  if (self->timeline && !strobe_timeline_widget_read_model (self))
    return FALSE;
  hit_test (self, x, y, &hit);
  markup = tooltip_markup (self, &hit);
  if (self->timeline)
    strobe_timeline_model_read_unlock (self->timeline);
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- pointer ----------------------------------------------------------------------------- */

static void
motion_cb (GtkEventControllerMotion *ctrl, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  self->hovering = TRUE;
  self->hover_x = x;
  self->hover_y = y;
  if (self->drag == DRAG_NONE && self->timeline && !strobe_timeline_widget_read_model (self))
    {
      /* A batch being added: the last hit stands a moment, the time follows the pointer. */
      StrobeTimeScale axis;
      strobe_timeline_widget_get_axis (self, &axis);
      self->hover.time = strobe_time_scale_time (&axis, x);
    }
  else if (self->drag == DRAG_NONE)
    {
      hit_test (self, x, y, &self->hover);
      if (self->timeline)
        strobe_timeline_model_read_unlock (self->timeline);
    }
  strobe_view_state_set_hover (self->state, self->hover.time);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *ctrl, StrobeTimelineWidget *self)
{
  self->hovering = FALSE;
  self->hover.kind = HIT_NONE;
  strobe_view_state_set_hover (self->state, STROBE_VIEW_STATE_NONE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (GtkEventControllerScroll *ctrl, gdouble dx, gdouble dy, StrobeTimelineWidget *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (ctrl));
  gboolean wheel = gtk_event_controller_scroll_get_unit (ctrl) == GDK_SCROLL_UNIT_WHEEL;
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  /* As in Tracy and Insights: the wheel zooms around the pointer; Shift and the wheel pans,
   * Ctrl and the wheel scrolls the tracks (a touchpad's sideways swipe pans too). */
  if (mods & GDK_CONTROL_MASK)
    {
      if (dy != 0)
        gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + dy * (wheel ? 54 : 1));
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK)
    {
      strobe_timeline_widget_pan_by (self, (dy != 0 ? dy : dx) * (wheel ? w / 10.0 : 1));
      return TRUE;
    }
  if (dx != 0)
    strobe_timeline_widget_pan_by (self, dx * (wheel ? w / 10.0 : 1));
  if (dy != 0)
    strobe_timeline_widget_zoom_by (self, pow (ZOOM_STEP, wheel ? dy : dy / 20.0), self->hovering ? self->hover_x : w / 2.0);
  return TRUE;
}

static void
pinch_begin_cb (GtkGesture *gesture, GdkEventSequence *seq, StrobeTimelineWidget *self)
{
  strobe_view_state_get_visible_range (self->state, &self->pinch_start, &self->pinch_end);
}

static void
pinch_cb (GtkGestureZoom *gesture, gdouble scale, StrobeTimelineWidget *self)
{
  gdouble cx, cy;
  guint64 a = self->pinch_start, b = self->pinch_end, lo, hi;
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  if (!(scale > 0) || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  strobe_timeline_widget_bounds (self, &lo, &hi);
  strobe_time_zoom (&a, &b, 1 / scale, cx / MAX (w, 1), MIN_SPAN, lo, hi);
  self->user_moved = TRUE;
  strobe_timeline_widget_set_visible_range (self, a, b);
}

static void
drag_begin_cb (GtkGestureDrag *gesture, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  StrobeTimeScale axis;
  Hit hit;

  strobe_timeline_widget_get_axis (self, &axis);
  hit_test (self, x, y, &hit);
  self->drag_x = x;
  self->drag_y = y;
  strobe_view_state_get_visible_range (self->state, &self->drag_start, &self->drag_end);
  self->drag_vadj = gtk_adjustment_get_value (self->vadj);
  self->drag_anchor = strobe_time_scale_time (&axis, x);
  self->drop_index = -1;
  if (hit.kind == HIT_RULER || (mods & GDK_SHIFT_MASK))
    self->drag = DRAG_SELECT;
  else if (hit.kind == HIT_HEADER)
    {
      self->drag = DRAG_REORDER;
      self->drag_track = hit.track;
    }
  else
    self->drag = DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture, gdouble ox, gdouble oy, StrobeTimelineWidget *self)
{
  StrobeTimeScale axis;

  if (fabs (ox) < 3 && fabs (oy) < 3 && self->drop_index < 0)
    return;
  strobe_timeline_widget_get_axis (self, &axis);
  switch (self->drag)
    {
    case DRAG_PAN:
      {
        guint64 a = self->drag_start, b = self->drag_end, lo, hi;
        gdouble d = -ox * (gdouble) (b - a) / MAX (axis.width, 1);
        strobe_timeline_widget_bounds (self, &lo, &hi);
        strobe_time_pan (&a, &b, (gint64) CLAMP (d, (gdouble) G_MININT64, (gdouble) G_MAXINT64), lo, hi);
        strobe_timeline_widget_mark_user_moved (self);
        strobe_timeline_widget_set_visible_range (self, a, b);
        gtk_adjustment_set_value (self->vadj, self->drag_vadj - oy);
      }
      break;
    case DRAG_SELECT:
      {
        guint64 t = strobe_time_scale_time (&axis, self->drag_x + ox);
        self->kb_anchor_set = FALSE;
        strobe_view_state_set_selection (self->state, MIN (t, self->drag_anchor), MAX (t, self->drag_anchor));
      }
      break;
    case DRAG_REORDER:
      {
        int i = strobe_track_list_at_y (self->tracks,
                                        (int) (self->drag_y + oy - RULER_H + gtk_adjustment_get_value (self->vadj)));
        self->drop_index = i;
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;
    default:
      break;
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture, gdouble ox, gdouble oy, StrobeTimelineWidget *self)
{
  if (self->drag == DRAG_REORDER && self->drop_index >= 0 && self->drop_index != self->drag_track)
    {
      int to = self->drop_index;
      /* Dropped on the lower half of a track: after it. */
      if (to > self->drag_track)
        to = strobe_timeline_widget_track_neighbour (self, (guint) to, 1);
      strobe_timeline_widget_move_track (self, (guint) self->drag_track, to >= 0 ? (guint) to : G_MAXUINT);
    }
  self->drag = DRAG_NONE;
  self->drop_index = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
activate_log (StrobeTimelineWidget *self, const StrobeLogTick *tick)
{
  StrobeLogMessage m;
  guint64 index = tick->index;

  /* A live trace may have shifted positions since the ticks were gathered: look near by. */
  if (self->log && strobe_log_model_get_message (self->log, index, &m))
    {
      gboolean same = m.time == tick->time;
      g_free (m.text);
      for (guint64 d = 1; !same && d < 256; d++)
        for (int s = -1; s <= 1 && !same; s += 2)
          {
            guint64 i = s < 0 ? (index >= d ? index - d : G_MAXUINT64) : index + d;
            if (i != G_MAXUINT64 && strobe_log_model_get_message (self->log, i, &m))
              {
                if (m.time == tick->time)
                  {
                    index = i;
                    same = TRUE;
                  }
                g_free (m.text);
              }
          }
    }
  strobe_view_state_set_cursor (self->state, tick->time);
  strobe_view_state_set_selected_message (self->state, index);
  gtk_widget_activate_action (GTK_WIDGET (self), "document.show-page", "s", "log");
}

static void
click_pressed_cb (GtkGestureClick *gesture, int n_press, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  Hit hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  hit_test (self, x, y, &hit);
  if (button == GDK_BUTTON_SECONDARY)
    {
      if (hit.track >= 0)
        strobe_timeline_widget_show_track_menu (self, hit.track, x, y);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (n_press == 2 && button == GDK_BUTTON_PRIMARY)
    {
      if (hit.kind == HIT_SCOPE || hit.kind == HIT_BLOCK)
        strobe_timeline_widget_zoom_to (self, hit.block.begin, hit.block.end);
      else if (hit.kind == HIT_REGION)
        strobe_timeline_widget_zoom_to (self, hit.region.begin, hit.region.end);
    }
}

static void
click_released_cb (GtkGestureClick *gesture, int n_press, gdouble x, gdouble y, StrobeTimelineWidget *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button != GDK_BUTTON_PRIMARY || n_press != 1)
    return;
  strobe_timeline_widget_activate_at (self, x, y);
}

gdouble
strobe_timeline_widget_get_track_top (StrobeTimelineWidget *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), 0);
  g_return_val_if_fail (index < strobe_track_list_get_n (self->tracks), 0);

  return RULER_H + strobe_track_list_get (self->tracks, index)->y - gtk_adjustment_get_value (self->vadj);
}

void
strobe_timeline_widget_activate_at (StrobeTimelineWidget *self, gdouble x, gdouble y)
{
  Hit hit;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  hit_test (self, x, y, &hit);
  switch (hit.kind)
    {
    case HIT_HEADER:
      strobe_timeline_widget_set_track_collapsed (self, (guint) hit.track,
                                                  !strobe_track_list_get (self->tracks, (guint) hit.track)->collapsed);
      break;
    case HIT_SCOPE:
      strobe_timeline_widget_select_scope (self, hit.thread_id, &hit.block);
      break;
    case HIT_BLOCK:
      strobe_timeline_widget_zoom_to (self, hit.block.begin, hit.block.end);
      break;
    case HIT_LOG:
      activate_log (self, &hit.tick);
      break;
    case HIT_FRAME:
      /* Tracy's frame click: the frame in view and selected, so the timers give that
       * frame's statistics. */
      strobe_timeline_widget_zoom_to (self, hit.frame.begin, hit.frame.end);
      strobe_view_state_set_selection (self->state, hit.frame.begin, hit.frame.end);
      break;
    case HIT_REGION:
      /* Its time selected, as Insights' regions: every view follows (double-click zooms). */
      strobe_timeline_widget_set_selected_scope (self, NULL);
      strobe_view_state_set_selection (self->state, hit.region.begin, hit.region.end);
      break;
    case HIT_TRACK:
    case HIT_COUNTER:
      strobe_timeline_widget_set_selected_scope (self, NULL);
      break;
    default:
      break;
    }
}

void
strobe_timeline_widget_init_input (StrobeTimelineWidget *self)
{
  GtkEventController *ctrl;
  GtkGesture *gesture;

  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  ctrl = gtk_event_controller_motion_new ();
  g_signal_connect (ctrl, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (ctrl, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), ctrl);

  ctrl = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (ctrl, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), ctrl);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
