/* strobe-timeline-widget-tracks.c
 *
 * The timeline's tracks as the widget shows them: their layout in the widget's height and
 * the vertical adjustment, hiding, collapsing and moving one (remembered per program), and
 * the "tracks-changed" signal the tracks menu follows.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-timeline-widget-private.h"

static guint tracks_changed;

void
strobe_timeline_widget_class_init_tracks (GObjectClass *klass)
{
  /**
   * StrobeTimelineWidget::tracks-changed:
   *
   * Tracks appeared, or one was hidden, collapsed or moved (the tracks menu follows).
   */
  tracks_changed = g_signal_new ("tracks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

void
strobe_timeline_widget_emit_tracks_changed (StrobeTimelineWidget *self)
{
  g_signal_emit (self, tracks_changed, 0);
}

int
strobe_timeline_widget_tracks_height (StrobeTimelineWidget *self)
{
  return MAX (gtk_widget_get_height (GTK_WIDGET (self)) - RULER_H, 0);
}

void
strobe_timeline_widget_relayout (StrobeTimelineWidget *self)
{
  int h = strobe_timeline_widget_tracks_height (self);

  self->content_h = strobe_track_list_layout (self->tracks, self->hide_empty);
  gtk_adjustment_configure (self->vadj, CLAMP (gtk_adjustment_get_value (self->vadj), 0, MAX (self->content_h - h, 0)),
                            0, MAX (self->content_h, h), 40, MAX (h * 0.9, 1), h);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
save_layout (StrobeTimelineWidget *self)
{
  g_autofree char *s = strobe_track_list_save (self->tracks);

  strobe_timeline_layouts_store (self->program, s);
  strobe_timeline_widget_emit_tracks_changed (self);
}

StrobeTrackList *
strobe_timeline_widget_get_tracks (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), NULL);
  return self->tracks;
}

void
strobe_timeline_widget_set_track_hidden (StrobeTimelineWidget *self, guint index, gboolean hidden)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (index < strobe_track_list_get_n (self->tracks));

  strobe_track_list_set_hidden (self->tracks, index, hidden);
  strobe_timeline_widget_relayout (self);
  save_layout (self);
}

void
strobe_timeline_widget_set_track_collapsed (StrobeTimelineWidget *self, guint index, gboolean collapsed)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (index < strobe_track_list_get_n (self->tracks));

  strobe_track_list_set_collapsed (self->tracks, index, collapsed);
  strobe_timeline_widget_relayout (self);
  save_layout (self);
}

gboolean
strobe_timeline_widget_move_track (StrobeTimelineWidget *self, guint from, guint to)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), FALSE);

  if (!strobe_track_list_move (self->tracks, from, to))
    return FALSE;
  strobe_timeline_widget_relayout (self);
  save_layout (self);
  return TRUE;
}

void
strobe_timeline_widget_reset_tracks (StrobeTimelineWidget *self)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  strobe_track_list_reset (self->tracks);
  strobe_timeline_layouts_store (self->program, NULL);
  strobe_timeline_widget_relayout (self);
  strobe_timeline_widget_emit_tracks_changed (self);
}

GtkAdjustment *
strobe_timeline_widget_get_vadjustment (StrobeTimelineWidget *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_WIDGET (self), NULL);
  return self->vadj;
}
