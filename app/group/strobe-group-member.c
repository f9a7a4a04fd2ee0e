/* strobe-group-member.c — one process of a group tab.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-group-member.h"
#include "strobe-spin-wheel.h"

/* The timeline's ruler (its own, like every member's: each process's section reads on its
 * own) and how tall a member's section may grow before its tracks scroll. */
#define RULER_H      46
#define MAX_HEIGHT   460
#define LIFETIME_H   8

gdouble
strobe_group_member_to_seconds (StrobeGroupMember *member, guint64 ticks)
{
  StrobeTraceClock clock;

  strobe_document_get_clock (member->document, &clock);
  return strobe_trace_clock_to_seconds (&clock, ticks);
}

guint64
strobe_group_member_from_seconds (StrobeGroupMember *member, gdouble seconds)
{
  StrobeTraceClock clock;

  strobe_document_get_clock (member->document, &clock);
  return strobe_trace_clock_from_seconds (&clock, seconds);
}

char *
strobe_group_member_dup_label (StrobeGroupMember *member)
{
  const StrobeWireMetadata *meta = strobe_document_get_metadata (member->document);
  g_autofree char *program = NULL;

  if (meta == NULL)
    return g_strdup (strobe_document_get_title (member->document));
  program = meta->program_name_len
              ? g_utf8_make_valid (meta->program_name, (gssize) meta->program_name_len)
              : g_strdup (strobe_document_get_title (member->document));
  /* Translators: a process of a group: its program and pid */
  return g_strdup_printf (_("%s (pid %u)"), program, meta->process_id);
}

/* The process's lifetime, first to last event, as a bar on the range the timeline shows:
 * a child that started later begins further right, one that ended stops. */
static void
draw_lifetime (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  StrobeGroupMember *member = data;
  guint64 a, b, first, last;
  gdouble x0, x1;
  GdkRGBA fg;

  if (!strobe_document_get_extent (member->document, &first, &last))
    return;
  strobe_view_state_get_visible_range (member->state, &a, &b);
  if (b <= a)
    return;
  x0 = ((gdouble) first - (gdouble) a) / (gdouble) (b - a) * width;
  x1 = ((gdouble) last - (gdouble) a) / (gdouble) (b - a) * width;
  x0 = CLAMP (x0, -1, width + 1);
  x1 = CLAMP (x1, -1, width + 1);
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  fg.alpha = 0.15;
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_rectangle (cr, 0, height / 2.0 - 0.5, width, 1);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1.0);
  cairo_rectangle (cr, x0, 1, MAX (x1 - x0, 2), height - 2);
  cairo_fill (cr);
}

/* "Runs from … to …", or that there is no event yet. */
static char *
dup_lifetime_text (StrobeGroupMember *member)
{
  guint64 first, last;

  if (strobe_document_get_extent (member->document, &first, &last))
    /* Translators: a process's lifetime on the group's axis, in seconds */
    return g_strdup_printf (_("Runs from %.6f s to %.6f s%s"), strobe_group_member_to_seconds (member, first),
                            strobe_group_member_to_seconds (member, last),
                            strobe_document_is_live (member->document) ? _(", still running") : "");
  return g_strdup (_("No event yet"));
}

static gboolean
lifetime_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                     StrobeGroupMember *member)
{
  g_autofree char *life = dup_lifetime_text (member);

  gtk_tooltip_set_text (tooltip, life);
  return TRUE;
}

gint64
strobe_group_member_get_adjust_ns (StrobeGroupMember *member)
{
  return (gint64) llround (gtk_spin_button_get_value (member->adjust) * 1e6);
}

/* The reference is what the others move against: moving it would move them all. */
static void
update_adjust (StrobeGroupMember *member, const char *label)
{
  gboolean reference = member->aligned && member->alignment == STROBE_CLOCK_ALIGN_REFERENCE;
  /* Translators: the spin button that moves a process's tracks in time by hand, in ms */
  g_autofree char *name = g_strdup_printf (_("Clock offset of %s by hand, in milliseconds"), label);

  const char *tip = reference ? _("The reference clock: the other processes are moved against it")
                               : _("Move this process's tracks in time by hand (ms): when its clock "
                                   "could not be measured, or to check an alignment");

  gtk_widget_set_sensitive (GTK_WIDGET (member->adjust), member->aligned && !reference);
  /* Only when it changes: setting a tooltip costs GTK 4.8 an X round trip (see below). */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (member->adjust)), tip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (member->adjust), tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (member->adjust), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

void
strobe_group_member_update_header (StrobeGroupMember *member)
{
  g_autofree char *label = strobe_group_member_dup_label (member);
  g_autofree char *text = NULL;
  g_autofree char *life = NULL;
  g_autofree char *expand_name = NULL;
  g_autofree char *timeline_name = NULL;

  if (member->aligned)
    /* Translators: a process's header in a group tab: "program (pid N) · shared clock" */
    text = g_strdup_printf (_("%s · %s"), label, member->alignment_text ? member->alignment_text
                                                   : strobe_clock_alignment_name (member->alignment));
  else
    text = g_strdup (label);
  if (g_strcmp0 (gtk_label_get_text (member->title), text) != 0)
    gtk_label_set_text (member->title, text);
  life = dup_lifetime_text (member);
  /* Not the tooltip: GTK 4.8 looks for the pointer (an X round trip) each time one is
   * set, and a loading group updates every header many times a second (lifetime_tooltip_cb
   * writes it when asked). */
  gtk_accessible_update_property (GTK_ACCESSIBLE (member->lifetime), GTK_ACCESSIBLE_PROPERTY_LABEL, life, -1);
  /* Translators: the button that shows or hides a process's tracks in a group tab */
  expand_name = g_strdup_printf (_("Tracks of %s"), label);
  /* Translators: a process's timeline in a group tab, for screen readers */
  timeline_name = g_strdup_printf (_("Timeline of %s"), label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (member->timeline), GTK_ACCESSIBLE_PROPERTY_LABEL, timeline_name, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (member->expander), GTK_ACCESSIBLE_PROPERTY_LABEL, expand_name, -1);
  update_adjust (member, label);
  gtk_widget_queue_draw (member->lifetime);
}

static void
expander_toggled_cb (GtkToggleButton *button, StrobeGroupMember *member)
{
  gboolean open = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (GTK_WIDGET (member->timeline), open);
  gtk_button_set_icon_name (GTK_BUTTON (button), open ? "pan-down-symbolic" : "pan-end-symbolic");
}

void
strobe_group_member_fit_height (StrobeGroupMember *member)
{
  StrobeTrackList *tracks = strobe_timeline_widget_get_tracks (member->timeline);
  int bottom = 0;

  for (guint i = 0; i < strobe_track_list_get_n (tracks); i++)
    {
      const StrobeTrack *t = strobe_track_list_get (tracks, i);

      if (t->height > 0)
        bottom = MAX (bottom, t->y + t->height);
    }
  gtk_widget_set_size_request (GTK_WIDGET (member->timeline), -1, MIN (RULER_H + MAX (bottom, 40) + 6, MAX_HEIGHT));
}

gboolean
strobe_group_member_locate (StrobeGroupMember *member,
                            guint16            thread_id,
                            guint64            time,
                            GtkWidget         *target,
                            graphene_point_t  *point)
{
  GtkWidget *timeline = GTK_WIDGET (member->timeline);
  StrobeTrackList *tracks = strobe_timeline_widget_get_tracks (member->timeline);
  int index = strobe_track_list_find (tracks, STROBE_TRACK_THREAD, thread_id);
  int width = gtk_widget_get_width (timeline), height = gtk_widget_get_height (timeline);
  guint64 a, b;
  graphene_point_t local;

  strobe_view_state_get_visible_range (member->state, &a, &b);
  if (b <= a || width <= 0)
    return FALSE;
  local.x = (float) (((gdouble) time - (gdouble) a) / (gdouble) (b - a) * width);
  if (!gtk_widget_get_visible (timeline))
    {
      /* Collapsed: on the header's lifetime bar. */
      local.y = LIFETIME_H / 2.0f;
      return gtk_widget_compute_point (member->lifetime, target, &local, point);
    }
  if (index < 0 || strobe_track_list_get (tracks, (guint) index)->height == 0)
    local.y = RULER_H;
  else
    local.y = (float) (strobe_timeline_widget_get_track_top (member->timeline, (guint) index)
                       + STROBE_TRACK_HEADER_H + STROBE_TRACK_ROW_H / 2.0);
  local.y = CLAMP (local.y, RULER_H, MAX (height - 2, RULER_H));
  return gtk_widget_compute_point (timeline, target, &local, point);
}

StrobeGroupMember *
strobe_group_member_new (StrobeDocument *document, const char *trace_id)
{
  StrobeGroupMember *member = g_new0 (StrobeGroupMember, 1);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  member->document = g_object_ref (document);
  member->trace_id = g_strdup (trace_id);
  member->state = strobe_view_state_new ();
  member->flows = g_object_ref (strobe_document_get_model (document, STROBE_TYPE_FLOW_POINTS));
  member->measures = g_object_ref (strobe_document_get_model (document, STROBE_TYPE_CLOCK_MEASURES));

  member->section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (member->section, "strobe-group-member");
  member->expander = GTK_TOGGLE_BUTTON (gtk_toggle_button_new ());
  gtk_button_set_has_frame (GTK_BUTTON (member->expander), FALSE);
  gtk_widget_set_valign (GTK_WIDGET (member->expander), GTK_ALIGN_CENTER);
  member->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (member->title, 0);
  gtk_label_set_ellipsize (member->title, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (member->title), "heading");
  member->lifetime = gtk_drawing_area_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (member->lifetime), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (member->lifetime), LIFETIME_H);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (member->lifetime), draw_lifetime, member, NULL);
  gtk_widget_set_has_tooltip (member->lifetime, TRUE);
  g_signal_connect (member->lifetime, "query-tooltip", G_CALLBACK (lifetime_tooltip_cb), member);
  gtk_widget_set_hexpand (member->lifetime, TRUE);
  gtk_box_append (GTK_BOX (title_box), GTK_WIDGET (member->title));
  gtk_box_append (GTK_BOX (title_box), member->lifetime);
  gtk_widget_set_hexpand (title_box, TRUE);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (member->expander));
  gtk_box_append (GTK_BOX (header), title_box);
  /* ±1000 s: beyond, two machines' clocks were not set at all, and the wall clock is off. */
  member->adjust = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (-1e6, 1e6, 0.001));
  gtk_spin_button_set_digits (member->adjust, 3);
  gtk_spin_button_set_value (member->adjust, 0);
  gtk_widget_set_valign (GTK_WIDGET (member->adjust), GTK_ALIGN_CENTER);
  /* The tab's sections scroll with the wheel: one passing over the button must not move
   * the process in time. */
  strobe_spin_wheel_when_focused (member->adjust);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (member->adjust));
  gtk_widget_set_margin_start (header, 4);
  gtk_widget_set_margin_end (header, 4);
  gtk_widget_set_margin_top (header, 4);

  member->timeline = STROBE_TIMELINE_WIDGET (strobe_timeline_widget_new (document, member->state));
  gtk_widget_set_vexpand (GTK_WIDGET (member->timeline), FALSE);
  gtk_box_append (GTK_BOX (member->section), header);
  gtk_box_append (GTK_BOX (member->section), GTK_WIDGET (member->timeline));
  g_signal_connect (member->expander, "toggled", G_CALLBACK (expander_toggled_cb), member);
  gtk_toggle_button_set_active (member->expander, TRUE);
  expander_toggled_cb (member->expander, member);
  g_signal_connect_swapped (member->timeline, "tracks-changed", G_CALLBACK (strobe_group_member_fit_height), member);
  g_signal_connect_swapped (member->state, "notify::visible-start", G_CALLBACK (gtk_widget_queue_draw), member->lifetime);
  g_signal_connect_swapped (member->state, "notify::visible-end", G_CALLBACK (gtk_widget_queue_draw), member->lifetime);
  strobe_group_member_fit_height (member);
  strobe_group_member_update_header (member);
  return member;
}

void
strobe_group_member_free (StrobeGroupMember *member)
{
  if (member == NULL)
    return;
  strobe_document_cancel (member->document);
  g_signal_handlers_disconnect_by_data (member->state, member->lifetime);
  g_signal_handlers_disconnect_by_data (member->timeline, member);
  g_signal_handlers_disconnect_by_data (member->expander, member);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (member->lifetime), NULL, NULL, NULL);
  g_signal_handlers_disconnect_by_func (member->lifetime, lifetime_tooltip_cb, member);
  g_clear_object (&member->flows);
  g_clear_object (&member->measures);
  g_free (member->alignment_text);
  g_clear_object (&member->state);
  g_clear_object (&member->document);
  g_free (member->trace_id);
  g_free (member);
}
