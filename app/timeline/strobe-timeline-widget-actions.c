/* strobe-timeline-widget-actions.c
 *
 * The keyboard side: the selected scope, selecting and stepping between scopes, the
 * timeline.* actions and their key bindings, and the tracks' context menu.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-widget-private.h"

/* ---- selection and navigation --------------------------------------------------------- */

void
strobe_timeline_widget_set_selected_scope (StrobeTimelineWidget *self,
                                           const StrobeScopeRef *scope)
{
  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));

  if (scope == NULL && self->selected_scope == NULL)
    return;
  if (scope != NULL && self->selected_scope != NULL && memcmp (scope, self->selected_scope, sizeof *scope) == 0)
    return;
  g_clear_pointer (&self->selected_scope, strobe_scope_ref_free);
  if (scope != NULL)
    self->selected_scope = strobe_scope_ref_copy (scope);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* By name: the property is installed with the others in the widget's class_init. */
  g_object_notify (G_OBJECT (self), "selected-scope");
}
void
strobe_timeline_widget_select_scope (StrobeTimelineWidget *self, guint16 thread_id, const StrobeTimelineBlock *b)
{
  StrobeScopeRef ref = { thread_id, b->depth, b->name_id, b->begin, b->end };
  strobe_timeline_widget_set_selected_scope (self, &ref);
}

void
strobe_timeline_widget_show_scope (StrobeTimelineWidget *self, const StrobeScopeRef *scope)
{
  StrobeTimeScale axis;
  guint64 a, b, len;
  int i;

  g_return_if_fail (STROBE_IS_TIMELINE_WIDGET (self));
  g_return_if_fail (scope != NULL);

  strobe_timeline_widget_get_axis (self, &axis);
  strobe_view_state_get_visible_range (self->state, &a, &b);
  len = b - a;
  if (scope->end - scope->begin > len * 0.9 || (scope->end - scope->begin) / axis.scale < 4)
    strobe_timeline_widget_zoom_to (self, scope->begin, scope->end);
  else if (scope->begin < a || scope->end > b)
    {
      /* Centred, at the same zoom. */
      guint64 mid = scope->begin + (scope->end - scope->begin) / 2;
      strobe_timeline_widget_mark_user_moved (self);
      strobe_timeline_widget_set_visible_range (self, mid > len / 2 ? mid - len / 2 : 0, (mid > len / 2 ? mid - len / 2 : 0) + len);
    }
  strobe_timeline_widget_set_selected_scope (self, scope);
  /* And vertically into view. */
  i = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, scope->thread_id);
  if (i >= 0)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) i);
      gdouble y = t->y + strobe_track_row_y (scope->depth), v = gtk_adjustment_get_value (self->vadj);
      int h = strobe_timeline_widget_tracks_height (self);
      if (t->height > 0 && (y < v || y + STROBE_TRACK_ROW_H > v + h))
        gtk_adjustment_set_value (self->vadj, MAX (y - h / 3.0, 0));
    }
}

/* The scope of @thread at @depth that contains @time (or begins first after it when @after). */
static gboolean
scope_at (StrobeTimelineWidget *self, guint16 thread, guint depth, guint64 t0, guint64 t1, gboolean last,
          StrobeScopeRef *out)
{
  g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  const StrobeTimelineScope *x;

  if (strobe_timeline_model_get_scopes (self->timeline, thread, depth, t0, t1, s) == 0)
    return FALSE;
  x = &g_array_index (s, StrobeTimelineScope, last ? s->len - 1 : 0);
  *out = (StrobeScopeRef) { thread, (guint16) depth, x->name_id, x->begin, x->end };
  return TRUE;
}

static gboolean
sibling (StrobeTimelineWidget *self, const StrobeScopeRef *cur, gboolean next, StrobeScopeRef *out)
{
  StrobeScopeRef parent;
  guint64 lo = 0, hi = G_MAXUINT64, w;

  if (cur->depth > 0 && scope_at (self, cur->thread_id, cur->depth - 1u, cur->begin, cur->begin, FALSE, &parent))
    {
      lo = parent.begin;
      hi = parent.end;
    }
  else if (self->have_extent)
    {
      lo = self->first;
      hi = self->last;
    }
  /* Widening windows: a neighbour is usually close, and never a huge copy. */
  for (w = MAX ((cur->end - cur->begin) * 2, 1024);; w = w > G_MAXUINT64 / 4 ? G_MAXUINT64 : w * 4)
    {
      g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      guint64 a = next ? cur->end + 1 : (cur->begin > w ? cur->begin - w : 0);
      guint64 b = next ? (cur->end > G_MAXUINT64 - w ? G_MAXUINT64 : cur->end + w) : (cur->begin ? cur->begin - 1 : 0);

      a = MAX (a, lo);
      b = MIN (b, hi);
      if (a <= b && strobe_timeline_model_get_scopes (self->timeline, cur->thread_id, cur->depth, a, b, s) > 0)
        for (guint k = 0; k < s->len; k++)
          {
            guint i = next ? k : s->len - 1 - k;
            const StrobeTimelineScope *x = &g_array_index (s, StrobeTimelineScope, i);
            if (next ? x->begin > cur->begin : x->begin < cur->begin)
              {
                if (x->begin < lo || x->end > hi)
                  return FALSE;
                *out = (StrobeScopeRef) { cur->thread_id, cur->depth, x->name_id, x->begin, x->end };
                return TRUE;
              }
          }
      if ((next && b >= hi) || (!next && a <= lo) || w == G_MAXUINT64)
        return FALSE;
    }
}

static void
navigate (StrobeTimelineWidget *self, int direction)
{
  const StrobeScopeRef *cur = self->selected_scope;
  StrobeScopeRef to;
  gboolean found = FALSE;

  if (cur == NULL)
    {
      /* Without a scope: arrows pan and scroll. */
      int w = gtk_widget_get_width (GTK_WIDGET (self));
      if (direction == 0)
        strobe_timeline_widget_pan_by (self, -w / 8.0);
      else if (direction == 1)
        strobe_timeline_widget_pan_by (self, w / 8.0);
      else
        gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + (direction == 2 ? -40 : 40));
      return;
    }
  switch (direction)
    {
    case 0: found = sibling (self, cur, FALSE, &to); break;
    case 1: found = sibling (self, cur, TRUE, &to); break;
    case 2:
      found = cur->depth > 0 && scope_at (self, cur->thread_id, cur->depth - 1u, cur->begin, cur->begin, FALSE, &to);
      break;
    case 3:
      found = scope_at (self, cur->thread_id, cur->depth + 1u, cur->begin, cur->end, FALSE, &to)
              && to.begin >= cur->begin && to.end <= cur->end;
      break;
    default:
      break;
    }
  if (found)
    strobe_timeline_widget_show_scope (self, &to);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* The outermost scope at the centre of the view, on the first shown thread that has one. */
static void
select_at_centre (StrobeTimelineWidget *self)
{
  guint64 a, b, mid;
  guint n = strobe_track_list_get_n (self->tracks);

  strobe_view_state_get_visible_range (self->state, &a, &b);
  mid = a + (b - a) / 2;
  for (guint i = 0; i < n; i++)
    {
      const StrobeTrack *t = strobe_track_list_get (self->tracks, i);
      StrobeScopeRef r;

      if (t->kind != STROBE_TRACK_THREAD || t->height == 0 || t->depths == 0)
        continue;
      if (scope_at (self, (guint16) t->id, 0, mid, mid, FALSE, &r) || scope_at (self, (guint16) t->id, 0, a, b, FALSE, &r))
        {
          strobe_timeline_widget_show_scope (self, &r);
          return;
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
}

/* ---- actions --------------------------------------------------------------------------- */

static void
action_zoom (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int dir = g_variant_get_int32 (param);
  gdouble x = self->hovering ? self->hover_x : gtk_widget_get_width (widget) / 2.0;

  if (dir == 0)
    strobe_timeline_widget_zoom_fit (self);
  else
    strobe_timeline_widget_zoom_by (self, dir > 0 ? 1 / ZOOM_STEP / ZOOM_STEP : ZOOM_STEP * ZOOM_STEP, x);
}

static void
action_zoom_selection (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = self->selected_scope;
  guint64 a, b;

  if (strobe_view_state_get_selection (self->state, &a, &b))
    strobe_timeline_widget_zoom_to (self, a, b);
  else if (sel)
    strobe_timeline_widget_zoom_to (self, sel->begin, sel->end);
  else
    gtk_widget_error_bell (widget);
}

static void
action_clear (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);

  self->kb_anchor_set = FALSE;
  if (strobe_view_state_get_selection (self->state, NULL, NULL))
    strobe_view_state_clear_selection (self->state);
  else if (self->selected_scope)
    strobe_timeline_widget_set_selected_scope (self, NULL);
}

static void
action_navigate (GtkWidget *widget, const char *name, GVariant *param)
{
  navigate (STROBE_TIMELINE_WIDGET (widget), g_variant_get_int32 (param));
}

static void
action_go (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint64 a, b, len;

  if (!self->have_extent)
    return;
  strobe_view_state_get_visible_range (self->state, &a, &b);
  len = b - a;
  strobe_timeline_widget_mark_user_moved (self);
  if (g_variant_get_int32 (param) < 0)
    strobe_timeline_widget_set_visible_range (self, self->first, self->first + len);
  else
    strobe_timeline_widget_set_visible_range (self, self->last > len ? self->last - len : 0, MAX (self->last, len));
}

/* Shift+←/→: a range grows and shrinks from an anchor (the selected scope's start, or
 * the view's centre), by a twentieth of the view per press. */
static void
action_select_step (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int dir = g_variant_get_int32 (param);
  guint64 a, b, s0, s1, step, edge;

  strobe_view_state_get_visible_range (self->state, &a, &b);
  step = MAX ((b - a) / 20, 1);
  if (!strobe_view_state_get_selection (self->state, &s0, &s1) || !self->kb_anchor_set)
    {
      const StrobeScopeRef *sel = self->selected_scope;
      self->kb_anchor = sel ? sel->begin : a + (b - a) / 2;
      self->kb_anchor_set = TRUE;
      s0 = s1 = self->kb_anchor;
    }
  edge = s0 == self->kb_anchor ? s1 : s0;
  if (dir > 0)
    edge = edge > G_MAXUINT64 - step ? G_MAXUINT64 : edge + step;
  else
    edge = edge > step ? edge - step : 0;
  if (edge == self->kb_anchor)
    strobe_view_state_clear_selection (self->state);
  else
    strobe_view_state_set_selection (self->state, MIN (edge, self->kb_anchor), MAX (edge, self->kb_anchor));
}

static void
action_select_scope_range (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = self->selected_scope;

  if (sel == NULL)
    {
      select_at_centre (self);
      return;
    }
  self->kb_anchor_set = FALSE;
  strobe_view_state_set_selection (self->state, sel->begin, sel->end);
}

static void
action_select_centre (GtkWidget *widget, const char *name, GVariant *param)
{
  select_at_centre (STROBE_TIMELINE_WIDGET (widget));
}

static void
action_page (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj)
                                          + g_variant_get_int32 (param) * gtk_adjustment_get_page_increment (self->vadj));
}

static void
action_track_collapse (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint i = (guint) g_variant_get_int32 (param);

  if (i < strobe_track_list_get_n (self->tracks))
    strobe_timeline_widget_set_track_collapsed (self, i, !strobe_track_list_get (self->tracks, i)->collapsed);
}

static void
action_track_hide (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  guint i = (guint) g_variant_get_int32 (param);

  if (i < strobe_track_list_get_n (self->tracks))
    strobe_timeline_widget_set_track_hidden (self, i, TRUE);
}

/* The shown track of the same level before (or after) @i. */
int
strobe_timeline_widget_track_neighbour (StrobeTimelineWidget *self, guint i, int dir)
{
  guint n = strobe_track_list_get_n (self->tracks);
  const StrobeTrack *t = strobe_track_list_get (self->tracks, i);

  for (int k = (int) i + dir; k >= 0 && k < (int) n; k += dir)
    {
      const StrobeTrack *o = strobe_track_list_get (self->tracks, (guint) k);
      gboolean tg = t->kind == STROBE_TRACK_THREAD && t->group && *t->group;
      gboolean og = o->kind == STROBE_TRACK_THREAD && o->group && *o->group;

      if (tg != og || (tg && g_strcmp0 (t->group, o->group) != 0))
        {
          if (tg)
            return -1;   /* left the group */
          continue;
        }
      if (o->height > 0 || o->kind == STROBE_TRACK_GROUP)
        return k;
    }
  return -1;
}

static void
action_track_move (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  int i, dir, to;

  g_variant_get (param, "(ii)", &i, &dir);
  if (i < 0 || (guint) i >= strobe_track_list_get_n (self->tracks))
    return;
  to = strobe_timeline_widget_track_neighbour (self, (guint) i, dir);
  if (to < 0)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  if (dir > 0)
    {
      /* After the neighbour: before the one after it (or at the end of the level). */
      int after = strobe_timeline_widget_track_neighbour (self, (guint) to, 1);
      strobe_timeline_widget_move_track (self, (guint) i, after >= 0 ? (guint) after : G_MAXUINT);
    }
  else
    strobe_timeline_widget_move_track (self, (guint) i, (guint) to);
}

static void
action_tracks_reset (GtkWidget *widget, const char *name, GVariant *param)
{
  strobe_timeline_widget_reset_tracks (STROBE_TIMELINE_WIDGET (widget));
}

void
strobe_timeline_widget_show_track_menu (StrobeTimelineWidget *self, int track, gdouble x, gdouble y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  const StrobeTrack *t = strobe_track_list_get (self->tracks, (guint) track);
  g_autofree char *collapse = g_strdup_printf ("timeline.track-collapse(%d)", track);
  g_autofree char *hide = g_strdup_printf ("timeline.track-hide(%d)", track);
  g_autofree char *up = g_strdup_printf ("timeline.track-move((%d,-1))", track);
  g_autofree char *down = g_strdup_printf ("timeline.track-move((%d,1))", track);

  g_menu_append (menu, t->collapsed ? _("_Expand") : _("_Collapse"), collapse);
  g_menu_append (menu, _("_Hide"), hide);
  g_menu_append (section, _("Move _Up"), up);
  g_menu_append (section, _("Move _Down"), down);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_menu_append (menu, _("_Reset Tracks"), "timeline.tracks-reset");
  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
action_track_menu (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineWidget *self = STROBE_TIMELINE_WIDGET (widget);
  const StrobeScopeRef *sel = self->selected_scope;
  int track = self->hovering ? self->hover.track : -1;
  gdouble y = self->hover_y;

  if (sel)
    {
      track = strobe_track_list_find (self->tracks, STROBE_TRACK_THREAD, sel->thread_id);
      if (track >= 0)
        y = RULER_H + strobe_track_list_get (self->tracks, (guint) track)->y - gtk_adjustment_get_value (self->vadj) + 8;
    }
  if (track < 0)
    {
      /* The first shown track. */
      for (guint i = 0; i < strobe_track_list_get_n (self->tracks) && track < 0; i++)
        if (strobe_track_list_get (self->tracks, i)->height > 0)
          {
            track = (int) i;
            y = RULER_H + strobe_track_list_get (self->tracks, i)->y - gtk_adjustment_get_value (self->vadj) + 8;
          }
    }
  if (track >= 0)
    strobe_timeline_widget_show_track_menu (self, track, 20, y);
}

static void
bind_int (GtkWidgetClass *klass, guint key, GdkModifierType mods, const char *action, int value)
{
  gtk_widget_class_add_binding_action (klass, key, mods, action, "i", value);
}

void
strobe_timeline_widget_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom", "i", action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL, action_zoom_selection);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, action_clear);
  gtk_widget_class_install_action (widget_class, "timeline.navigate", "i", action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.go", "i", action_go);
  gtk_widget_class_install_action (widget_class, "timeline.select-step", "i", action_select_step);
  gtk_widget_class_install_action (widget_class, "timeline.select-scope-range", NULL, action_select_scope_range);
  gtk_widget_class_install_action (widget_class, "timeline.select-centre", NULL, action_select_centre);
  gtk_widget_class_install_action (widget_class, "timeline.page", "i", action_page);
  gtk_widget_class_install_action (widget_class, "timeline.track-collapse", "i", action_track_collapse);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", "i", action_track_hide);
  gtk_widget_class_install_action (widget_class, "timeline.track-move", "(ii)", action_track_move);
  gtk_widget_class_install_action (widget_class, "timeline.tracks-reset", NULL, action_tracks_reset);
  gtk_widget_class_install_action (widget_class, "timeline.track-menu", NULL, action_track_menu);

  bind_int (widget_class, GDK_KEY_plus, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_equal, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom", 1);
  bind_int (widget_class, GDK_KEY_minus, 0, "timeline.zoom", -1);
  bind_int (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom", -1);
  bind_int (widget_class, GDK_KEY_0, 0, "timeline.zoom", 0);
  bind_int (widget_class, GDK_KEY_KP_0, 0, "timeline.zoom", 0);
  bind_int (widget_class, GDK_KEY_Left, 0, "timeline.navigate", 0);
  bind_int (widget_class, GDK_KEY_Right, 0, "timeline.navigate", 1);
  bind_int (widget_class, GDK_KEY_Up, 0, "timeline.navigate", 2);
  bind_int (widget_class, GDK_KEY_Down, 0, "timeline.navigate", 3);
  bind_int (widget_class, GDK_KEY_Home, 0, "timeline.go", -1);
  bind_int (widget_class, GDK_KEY_End, 0, "timeline.go", 1);
  bind_int (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "timeline.select-step", -1);
  bind_int (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "timeline.select-step", 1);
  bind_int (widget_class, GDK_KEY_Page_Up, 0, "timeline.page", -1);
  bind_int (widget_class, GDK_KEY_Page_Down, 0, "timeline.page", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.zoom-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.select-scope-range", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.select-scope-range", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "timeline.select-centre", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.track-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.track-menu", NULL);
}
