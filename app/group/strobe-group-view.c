/* strobe-group-view.c — a session group as one tab.
 *
 * Each process is a document of its own with its own view state; this tab keeps them in
 * step: the documents' clocks are replaced by the group's aligned ones, so one moment has
 * one number of seconds in every process, and a range or selection set in one process's
 * state is set, in that process's ticks, in every other's. The timelines no longer fit or
 * follow by themselves (strobe_timeline_widget_set_span): the tab fits all of them to the
 * group's span, and follows a live group's newest moment.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-flow-points.h"
#include "strobe-format.h"
#include "strobe-group-flows.h"
#include "strobe-group-log-page.h"
#include "strobe-group-memory-page.h"
#include "strobe-group-timers-page.h"
#include "strobe-group-member.h"
#include "strobe-group-view.h"
#include "strobe-store-group.h"
#include "strobe-timeline-model.h"

/* What a member's document builds: its tracks, its messages, its memory. */
#define GROUP_MODELS     (STROBE_DOCUMENT_MODEL_TIMELINE | STROBE_DOCUMENT_MODEL_LOG | STROBE_DOCUMENT_MODEL_MEMORY)
#define POLL_MS          250   /* a live group looks for new members this often */
#define FLOWS_MS         300   /* flows are joined again at most this often */
#define FOLLOW_SECONDS   10.0  /* a live group shows its last 10 s at first */

struct _StrobeGroupView
{
  GtkWidget         parent_instance;

  GtkStack         *pages;
  StrobeGroupLogPage *log_page;
  StrobeGroupMemoryPage *memory_page;
  StrobeGroupTimersPage *timers_page;
  GtkLabel         *summary_label;
  GtkLabel         *selection_label;
  GtkButton        *fit_button;
  GtkOverlay       *overlay;
  GtkBox           *members_box;
  GtkListBox       *flow_list;
  StrobeGroupFlows *flows_widget;

  GPtrArray        *members;        /* StrobeGroupMember, in the order they joined */
  GPtrArray        *flows;          /* StrobeFlow */
  StrobeStore      *store;
  char             *session;        /* a store's group: looked at again while it is live */
  char             *title;
  GCancellable     *cancellable;
  guint             poll_source;
  guint             flows_source;
  gboolean          syncing;        /* setting the other states: their notifications are ours */
  gboolean          fitting;        /* the tab itself moves the range: not the user */
  gboolean          moved;          /* the user moved the view: no more fitting */
  gboolean          follow;         /* keep a live group's newest moment in view */
  gboolean          have_span;
  gdouble           span_lo, span_hi;  /* the group's seconds, first to last event of any */
};

G_DEFINE_FINAL_TYPE (StrobeGroupView, strobe_group_view, GTK_TYPE_WIDGET)

static StrobeGroupMember *
member_at (StrobeGroupView *self, guint i)
{
  return g_ptr_array_index (self->members, i);
}

static StrobeGroupMember *
member_of_state (StrobeGroupView *self, StrobeViewState *state)
{
  for (guint i = 0; i < self->members->len; i++)
    if (member_at (self, i)->state == state)
      return member_at (self, i);
  return NULL;
}

/* ---- one range, one selection ---------------------------------------------------------- */

static void
update_selection_label (StrobeGroupView *self)
{
  StrobeGroupMember *m = self->members->len ? member_at (self, 0) : NULL;
  guint64 a, b;

  if (m != NULL && strobe_view_state_get_selection (m->state, &a, &b))
    {
      g_autofree char *len = strobe_format_duration_s (strobe_group_member_to_seconds (m, b)
                                                     - strobe_group_member_to_seconds (m, a));
      /* Translators: the selected range's length in a group tab */
      g_autofree char *text = g_strdup_printf (_("Selection: %s"), len);
      gtk_label_set_text (self->selection_label, text);
    }
  else
    gtk_label_set_text (self->selection_label, "");
}

/* @src's range, selection, cursor, hover and follow, in seconds, set in every other state. */
static void
sync_from (StrobeGroupView *self, StrobeGroupMember *src)
{
  guint64 a, b, sa, sb, cursor, hover;
  gdouble s0, s1, sel0 = 0, sel1 = 0, cur_s = 0, hov_s = 0;
  gboolean sel = strobe_view_state_get_selection (src->state, &sa, &sb);
  gboolean follow = strobe_view_state_get_follow_live (src->state);

  strobe_view_state_get_visible_range (src->state, &a, &b);
  s0 = strobe_group_member_to_seconds (src, a);
  s1 = strobe_group_member_to_seconds (src, b);
  if (sel)
    {
      sel0 = strobe_group_member_to_seconds (src, sa);
      sel1 = strobe_group_member_to_seconds (src, sb);
    }
  cursor = strobe_view_state_get_cursor (src->state);
  hover = strobe_view_state_get_hover (src->state);
  if (cursor != STROBE_VIEW_STATE_NONE)
    cur_s = strobe_group_member_to_seconds (src, cursor);
  if (hover != STROBE_VIEW_STATE_NONE)
    hov_s = strobe_group_member_to_seconds (src, hover);

  self->syncing = TRUE;
  for (guint i = 0; i < self->members->len; i++)
    {
      StrobeGroupMember *m = member_at (self, i);

      if (m == src)
        continue;
      strobe_view_state_set_visible_range (m->state, strobe_group_member_from_seconds (m, s0),
                                           strobe_group_member_from_seconds (m, s1));
      if (sel)
        strobe_view_state_set_selection (m->state, strobe_group_member_from_seconds (m, sel0),
                                         strobe_group_member_from_seconds (m, sel1));
      else
        strobe_view_state_clear_selection (m->state);
      strobe_view_state_set_cursor (m->state, cursor == STROBE_VIEW_STATE_NONE
                                                ? STROBE_VIEW_STATE_NONE : strobe_group_member_from_seconds (m, cur_s));
      strobe_view_state_set_hover (m->state, hover == STROBE_VIEW_STATE_NONE
                                               ? STROBE_VIEW_STATE_NONE : strobe_group_member_from_seconds (m, hov_s));
      strobe_view_state_set_follow_live (m->state, follow);
    }
  self->syncing = FALSE;
}

static void
state_changed_cb (StrobeViewState *state, GParamSpec *pspec, StrobeGroupView *self)
{
  StrobeGroupMember *src;

  if (self->syncing || (src = member_of_state (self, state)) == NULL)
    return;
  if (!self->fitting && (g_str_equal (pspec->name, "visible-start") || g_str_equal (pspec->name, "visible-end")))
    self->moved = TRUE;
  if (g_str_equal (pspec->name, "follow-live") && !strobe_view_state_get_follow_live (state))
    self->follow = FALSE;
  sync_from (self, src);
  update_selection_label (self);
  if (g_str_has_prefix (pspec->name, "selection-") || g_str_equal (pspec->name, "has-selection"))
    {
      strobe_group_log_page_selection_changed (self->log_page);
      strobe_group_timers_page_invalidate (self->timers_page);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->flows_widget));
}

/* The whole group (a little past its end, so where it stops shows), or a live group's
 * newest seconds; nothing once the user moved the view and does not follow. */
static void
fit (StrobeGroupView *self)
{
  StrobeGroupMember *m;
  gdouble lo, hi, len;

  if (!self->have_span || self->members->len == 0 || (self->moved && !self->follow))
    return;
  m = member_at (self, 0);
  if (self->follow)
    {
      guint64 a, b;

      strobe_view_state_get_visible_range (m->state, &a, &b);
      len = self->moved ? strobe_group_member_to_seconds (m, b) - strobe_group_member_to_seconds (m, a)
                        : MIN (self->span_hi - self->span_lo, FOLLOW_SECONDS);
      hi = self->span_hi;
      lo = hi - MAX (len, 1e-6);
    }
  else
    {
      lo = self->span_lo;
      hi = self->span_hi + MAX ((self->span_hi - self->span_lo) / 100, 1e-6);
    }
  self->fitting = TRUE;
  strobe_view_state_set_visible_range (m->state, strobe_group_member_from_seconds (m, lo),
                                       strobe_group_member_from_seconds (m, hi));
  self->fitting = FALSE;
}

static void
fit_clicked_cb (StrobeGroupView *self)
{
  self->moved = FALSE;
  self->follow = FALSE;
  fit (self);
}

/* ---- one clock -------------------------------------------------------------------------- */

/* Every member whose handshake was read on the one axis (the earliest starter's clock),
 * and the group's span on it. A member that joins later may move time 0. */
static void
realign (StrobeGroupView *self)
{
  g_autofree StrobeClockAlignMember *align = g_new0 (StrobeClockAlignMember, MAX (self->members->len, 1));
  g_autofree StrobeGroupMember **which = g_new0 (StrobeGroupMember *, MAX (self->members->len, 1));
  g_autoptr(GPtrArray) measures = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n = 0;
  gdouble lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < self->members->len; i++)
    {
      StrobeGroupMember *m = member_at (self, i);
      const StrobeWireMetadata *meta = strobe_document_get_metadata (m->document);

      if (meta == NULL)
        continue;
      align[n].metadata = meta;
      strobe_trace_clock_init (&align[n].clock, meta);
      align[n].has_extent = strobe_document_get_extent (m->document, &align[n].first, &align[n].last);
      if (align[n].has_extent)
        strobe_trace_clock_set_base (&align[n].clock, align[n].first);
      g_ptr_array_add (measures, strobe_clock_measures_dup (m->measures));
      align[n].measures = (const StrobeClockMeasure *) ((GArray *) g_ptr_array_index (measures, n))->data;
      align[n].n_measures = ((GArray *) g_ptr_array_index (measures, n))->len;
      align[n].adjust_ns = strobe_group_member_get_adjust_ns (m);
      which[n++] = m;
    }
  strobe_clock_align (align, n);
  for (guint k = 0; k < n; k++)
    {
      StrobeGroupMember *m = which[k];

      g_free (m->alignment_text);
      m->alignment_text = strobe_clock_align_describe (&align[k]);
      m->alignment = align[k].alignment;
      m->aligned = TRUE;
      strobe_document_set_clock (m->document, &align[k].clock);
      if (align[k].has_extent)
        {
          lo = MIN (lo, strobe_trace_clock_to_seconds (&align[k].clock, align[k].first));
          hi = MAX (hi, strobe_trace_clock_to_seconds (&align[k].clock, align[k].last));
        }
    }
  self->have_span = isfinite (lo) && isfinite (hi);
  if (!self->have_span)
    return;
  self->span_lo = lo;
  self->span_hi = MAX (hi, lo + 1e-6);
  for (guint k = 0; k < n; k++)
    strobe_timeline_widget_set_span (which[k]->timeline, strobe_group_member_from_seconds (which[k], self->span_lo),
                                     strobe_group_member_from_seconds (which[k], self->span_hi));
}

/* ---- flows ------------------------------------------------------------------------------- */

static char *
describe_flow (StrobeGroupView *self, const StrobeFlow *flow)
{
  GString *s = g_string_new (NULL);
  const StrobeFlowHop *first = &g_array_index (flow->hops, StrobeFlowHop, 0);
  const StrobeFlowHop *last = &g_array_index (flow->hops, StrobeFlowHop, flow->hops->len - 1);
  g_autofree char *len = strobe_format_duration_s (last->seconds - first->seconds);

  g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x  ", flow->id);
  for (guint k = 0; k < flow->hops->len; k++)
    {
      const StrobeFlowHop *hop = &g_array_index (flow->hops, StrobeFlowHop, k);
      g_autofree char *label = hop->trace < self->members->len
                                 ? strobe_group_member_dup_label (member_at (self, hop->trace)) : g_strdup ("?");

      g_string_append_printf (s, "%s%s", k ? " → " : "", label);
    }
  /* Translators: after a flow's processes: how long it took, first hop to last */
  g_string_append_printf (s, _("  · %s"), len);
  if (flow->unfinished)
    g_string_append_printf (s, " (%s)", _("no end"));
  return g_string_free (s, FALSE);
}

/* A row of the list: the flow's whole span, selected in every process and shown. */
static void
show_flow (StrobeGroupView *self, int index)
{
  const StrobeFlow *flow;
  const StrobeFlowHop *first, *last;
  StrobeGroupMember *m;
  gdouble s0, s1, pad;

  if (index < 0 || (guint) index >= self->flows->len)
    return;
  flow = g_ptr_array_index (self->flows, index);
  first = &g_array_index (flow->hops, StrobeFlowHop, 0);
  last = &g_array_index (flow->hops, StrobeFlowHop, flow->hops->len - 1);
  m = member_at (self, first->trace);
  s0 = first->seconds;
  s1 = MAX (last->seconds, s0 + 1e-9);
  pad = (s1 - s0) * 0.25;
  self->moved = TRUE;
  self->follow = FALSE;
  strobe_view_state_set_follow_live (m->state, FALSE);
  strobe_view_state_set_visible_range (m->state, strobe_group_member_from_seconds (m, s0 - pad),
                                       strobe_group_member_from_seconds (m, s1 + pad));
  strobe_view_state_set_selection (m->state, strobe_group_member_from_seconds (m, s0),
                                   strobe_group_member_from_seconds (m, s1));
}

static void
flow_clicked_cb (GtkButton *button, StrobeGroupView *self)
{
  show_flow (self, (int) GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "strobe-flow")));
}

static void
fill_flow_list (StrobeGroupView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->flow_list))) != NULL)
    gtk_list_box_remove (self->flow_list, child);
  for (guint f = 0; f < self->flows->len; f++)
    {
      g_autofree char *text = describe_flow (self, g_ptr_array_index (self->flows, f));
      GtkWidget *label = gtk_label_new (text);
      GtkWidget *button = gtk_button_new ();

      /* A button: activated by a click, the keyboard or an assistive technology alike. */
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
      g_object_set_data (G_OBJECT (button), "strobe-flow", GUINT_TO_POINTER (f));
      g_signal_connect (button, "clicked", G_CALLBACK (flow_clicked_cb), self);
      gtk_list_box_append (self->flow_list, button);
    }
}

static void
join_flows (StrobeGroupView *self)
{
  g_autoptr(GArray) hops = g_array_new (FALSE, FALSE, sizeof (StrobeFlowHop));
  g_autofree char *summary = NULL;
  guint live = 0;

  for (guint i = 0; i < self->members->len; i++)
    {
      StrobeGroupMember *m = member_at (self, i);
      g_autoptr(GArray) points = strobe_flow_points_dup_points (m->flows);

      live += strobe_document_is_live (m->document);
      for (guint k = 0; k < points->len; k++)
        {
          StrobeFlowHop hop = { .point = g_array_index (points, StrobeFlowPoint, k), .trace = i };

          hop.seconds = strobe_group_member_to_seconds (m, hop.point.time);
          g_array_append_val (hops, hop);
        }
    }
  strobe_group_flows_set (self->flows_widget, self->members, NULL);
  g_ptr_array_unref (self->flows);
  self->flows = strobe_flow_points_link (hops);
  strobe_group_flows_set (self->flows_widget, self->members, self->flows);
  fill_flow_list (self);

  summary = live
    /* Translators: a group tab's summary: its processes, how many still run, its flows */
    ? g_strdup_printf (_("%u processes (%u running), %u flows"), self->members->len, live, self->flows->len)
    /* Translators: a group tab's summary: its processes and flows */
    : g_strdup_printf (_("%u processes, %u flows"), self->members->len, self->flows->len);
  if (self->session != NULL)
    {
      /* Translators: a group tab's summary: the session's name, then the figures */
      char *with_name = g_strdup_printf (_("Session “%s”: %s"), self->session, summary);
      g_free (summary);
      summary = with_name;
    }
  gtk_label_set_text (self->summary_label, summary);
}

static gboolean
join_flows_cb (gpointer data)
{
  StrobeGroupView *self = data;

  self->flows_source = 0;
  join_flows (self);
  return G_SOURCE_REMOVE;
}

static void
queue_join_flows (StrobeGroupView *self)
{
  if (self->flows_source == 0)
    self->flows_source = g_timeout_add (FLOWS_MS, join_flows_cb, self);
}

/* The deepest scope of @hop's thread around its moment: where the flow point was made. */
static gboolean
scope_at_hop (StrobeGroupMember *m, const StrobeFlowHop *hop, StrobeScopeRef *ref)
{
  StrobeTimelineModel *model = strobe_document_get_timeline (m->document);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  gboolean any = FALSE;

  if (model == NULL)
    return FALSE;
  for (guint depth = 0; depth < strobe_timeline_model_get_depth_count (model, hop->point.thread_id); depth++)
    {
      g_array_set_size (found, 0);
      if (strobe_timeline_model_get_scopes (model, hop->point.thread_id, depth, hop->point.time,
                                            hop->point.time, found) == 0)
        break;
      {
        const StrobeTimelineScope *s = &g_array_index (found, StrobeTimelineScope, 0);

        *ref = (StrobeScopeRef) { .thread_id = hop->point.thread_id, .depth = s->depth,
                                  .name_id = s->name_id, .begin = s->begin, .end = s->end };
        any = TRUE;
      }
    }
  return any;
}

/* The scope at @hop selected and shown (the range centred on the moment at the current
 * zoom when it was in no scope), in its process's section, opened if need be. */
static void
show_hop (StrobeGroupView *self, const StrobeFlowHop *hop)
{
  StrobeGroupMember *m = member_at (self, hop->trace);
  StrobeScopeRef ref;

  self->moved = TRUE;
  self->follow = FALSE;
  strobe_view_state_set_follow_live (m->state, FALSE);
  if (!gtk_toggle_button_get_active (m->expander))
    gtk_toggle_button_set_active (m->expander, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (m->timeline));
  if (scope_at_hop (m, hop, &ref))
    strobe_timeline_widget_show_scope (m->timeline, &ref);
  else
    {
      guint64 a, b;
      gdouble len;

      strobe_view_state_get_visible_range (m->state, &a, &b);
      len = strobe_group_member_to_seconds (m, b) - strobe_group_member_to_seconds (m, a);
      strobe_view_state_set_visible_range (m->state, strobe_group_member_from_seconds (m, hop->seconds - len / 2),
                                           strobe_group_member_from_seconds (m, hop->seconds + len / 2));
    }
}

void
strobe_group_view_follow_flow (StrobeGroupView *self, guint flow, guint hop)
{
  const StrobeFlow *f;

  g_return_if_fail (STROBE_IS_GROUP_VIEW (self));
  g_return_if_fail (flow < self->flows->len);
  f = g_ptr_array_index (self->flows, flow);
  g_return_if_fail (hop + 1 < f->hops->len);
  show_hop (self, &g_array_index (f->hops, StrobeFlowHop, hop + 1));
}

/* A click on an arrow follows it: to its far end from where it was clicked. */
static void
overlay_pressed_cb (GtkGestureClick *gesture, int n_press, gdouble x, gdouble y, StrobeGroupView *self)
{
  guint f, k;
  const StrobeFlow *flow;
  graphene_point_t in, a, b;
  const StrobeFlowHop *ha, *hb;

  if (!gtk_widget_compute_point (GTK_WIDGET (self->overlay), GTK_WIDGET (self->flows_widget),
                                 &GRAPHENE_POINT_INIT (x, y), &in)
      || !strobe_group_flows_hit (self->flows_widget, in.x, in.y, &f, &k))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  flow = g_ptr_array_index (self->flows, f);
  ha = &g_array_index (flow->hops, StrobeFlowHop, k);
  hb = &g_array_index (flow->hops, StrobeFlowHop, k + 1);
  if (strobe_group_member_locate (member_at (self, ha->trace), ha->point.thread_id, ha->point.time,
                                  GTK_WIDGET (self->flows_widget), &a)
      && strobe_group_member_locate (member_at (self, hb->trace), hb->point.thread_id, hb->point.time,
                                     GTK_WIDGET (self->flows_widget), &b)
      && hypot (in.x - b.x, in.y - b.y) < hypot (in.x - a.x, in.y - a.y))
    show_hop (self, ha);
  else
    show_hop (self, hb);
}

/* ---- members ----------------------------------------------------------------------------- */

static void
document_changed_cb (StrobeDocument *document, StrobeDocumentChanges changes, StrobeGroupView *self)
{
  for (guint i = 0; i < self->members->len; i++)
    {
      StrobeGroupMember *m = member_at (self, i);

      if (m->document != document)
        continue;
      realign (self);
      strobe_timeline_widget_update (m->timeline, changes);
      fit (self);
      /* The clocks may have moved (a handshake read, a member with an earlier start):
       * everyone again on the first one's seconds. */
      sync_from (self, member_at (self, 0));
      for (guint k = 0; k < self->members->len; k++)
        {
          g_autofree char *label = strobe_group_member_dup_label (member_at (self, k));

          strobe_group_member_update_header (member_at (self, k));
          strobe_group_log_page_set_label (self->log_page, k, label);
          strobe_group_memory_page_set_label (self->memory_page, k, label);
          strobe_group_timers_page_set_label (self->timers_page, k, label);
        }
      strobe_group_log_page_document_changed (self->log_page, i, changes);
      strobe_group_memory_page_document_changed (self->memory_page);
      if (changes & (STROBE_DOCUMENT_CHANGED_TIMELINE | STROBE_DOCUMENT_CHANGED_INFO))
        strobe_group_timers_page_invalidate (self->timers_page);
      queue_join_flows (self);
      gtk_widget_queue_draw (GTK_WIDGET (self->flows_widget));
      return;
    }
}

/* Moved by hand: its tracks move, the others stay where they are on screen. */
static void
adjust_changed_cb (GtkSpinButton *button, StrobeGroupView *self)
{
  StrobeGroupMember *still = NULL;

  for (guint i = 0; i < self->members->len && still == NULL; i++)
    if (member_at (self, i)->adjust != button)
      still = member_at (self, i);
  realign (self);
  if (still != NULL)
    sync_from (self, still);
  for (guint k = 0; k < self->members->len; k++)
    strobe_group_member_update_header (member_at (self, k));
  queue_join_flows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->flows_widget));
}

static void
status_changed_cb (StrobeDocument *document, GParamSpec *pspec, StrobeGroupView *self)
{
  document_changed_cb (document, 0x1f, self);
}

static void
load_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  /* What went wrong is the document's status, shown in its header; a cancelled load is
   * a closed tab. */
  strobe_document_load_finish (STROBE_DOCUMENT (source), result, &error);
}

static void
add_member (StrobeGroupView *self, StrobeDocument *document, const char *trace_id)
{
  StrobeGroupMember *m = strobe_group_member_new (document, trace_id);
  g_autofree char *label = strobe_group_member_dup_label (m);
  static const char *const followed[] = {
    "notify::visible-start", "notify::visible-end", "notify::has-selection", "notify::selection-start",
    "notify::selection-end", "notify::cursor", "notify::hover", "notify::follow-live",
  };

  g_ptr_array_add (self->members, m);
  if (self->members->len > 1)
    gtk_box_append (self->members_box, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (self->members_box, m->section);
  strobe_group_log_page_add_member (self->log_page, document, m->state, label);
  strobe_group_memory_page_add_member (self->memory_page, document, m->state, label);
  strobe_group_timers_page_add_member (self->timers_page, document, m->state, label);
  /* A newcomer starts on the group's range, selection and follow. */
  if (self->members->len > 1)
    sync_from (self, member_at (self, 0));
  else
    strobe_view_state_set_follow_live (m->state, strobe_document_is_live (document));
  self->follow = self->follow || (self->members->len == 1 && strobe_document_is_live (document));
  for (guint i = 0; i < G_N_ELEMENTS (followed); i++)
    g_signal_connect_object (m->state, followed[i], G_CALLBACK (state_changed_cb), self, 0);
  g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self, 0);
  g_signal_connect_object (document, "notify::status", G_CALLBACK (status_changed_cb), self, 0);
  g_signal_connect_object (m->adjust, "value-changed", G_CALLBACK (adjust_changed_cb), self, 0);
  strobe_document_load_async (document, self->cancellable, load_done_cb, NULL);
  queue_join_flows (self);
}

static gboolean
has_trace (StrobeGroupView *self, const char *id)
{
  for (guint i = 0; i < self->members->len; i++)
    if (g_strcmp0 (member_at (self, i)->trace_id, id) == 0)
      return TRUE;
  return FALSE;
}

/* The store's group as it is now: a member not seen yet joins the tab. */
static gboolean
poll_session (gpointer data)
{
  StrobeGroupView *self = data;
  g_autoptr(StrobeStoreGroup) group = strobe_store_dup_group (self->store, self->session);

  if (group == NULL)
    return G_SOURCE_CONTINUE;
  for (guint i = 0; i < group->members->len; i++)
    {
      StrobeTrace *trace = g_ptr_array_index (group->members, i);
      g_autoptr(StrobeDocument) document = NULL;

      if (has_trace (self, strobe_trace_get_id (trace)))
        continue;
      document = strobe_document_new_for_trace (self->store, trace,
                                                GROUP_MODELS);
      add_member (self, document, strobe_trace_get_id (trace));
    }
  if (!group->live)
    {
      self->poll_source = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* ---- the object -------------------------------------------------------------------------- */

guint
strobe_group_view_get_n_members (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), 0);
  return self->members->len;
}

StrobeDocument *
strobe_group_view_get_document (StrobeGroupView *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  g_return_val_if_fail (index < self->members->len, NULL);
  return member_at (self, index)->document;
}

StrobeTimelineWidget *
strobe_group_view_get_timeline (StrobeGroupView *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  g_return_val_if_fail (index < self->members->len, NULL);
  return member_at (self, index)->timeline;
}

StrobeViewState *
strobe_group_view_get_state (StrobeGroupView *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  g_return_val_if_fail (index < self->members->len, NULL);
  return member_at (self, index)->state;
}

StrobeGroupLogPage *
strobe_group_view_get_log_page (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  return self->log_page;
}

StrobeGroupMemoryPage *
strobe_group_view_get_memory_page (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  return self->memory_page;
}

StrobeGroupTimersPage *
strobe_group_view_get_timers_page (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  return self->timers_page;
}

void
strobe_group_view_show_page (StrobeGroupView *self, const char *name)
{
  g_return_if_fail (STROBE_IS_GROUP_VIEW (self));
  gtk_stack_set_visible_child_name (self->pages, name);
}

GtkSpinButton *
strobe_group_view_get_adjust_button (StrobeGroupView *self, guint index)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  g_return_val_if_fail (index < self->members->len, NULL);
  return member_at (self, index)->adjust;
}

gboolean
strobe_group_view_is_loaded (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), FALSE);
  for (guint i = 0; i < self->members->len; i++)
    if (!strobe_document_is_loaded (member_at (self, i)->document))
      return FALSE;
  return self->members->len > 0 && self->flows_source == 0;
}

guint
strobe_group_view_get_n_flows (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), 0);
  return self->flows->len;
}

const char *
strobe_group_view_get_title (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  return self->title;
}

const char *
strobe_group_view_get_session (StrobeGroupView *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_VIEW (self), NULL);
  return self->session;
}

void
strobe_group_view_cancel (StrobeGroupView *self)
{
  g_return_if_fail (STROBE_IS_GROUP_VIEW (self));
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
}

static void
strobe_group_view_dispose (GObject *object)
{
  StrobeGroupView *self = STROBE_GROUP_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  g_clear_handle_id (&self->flows_source, g_source_remove);
  if (self->flows_widget != NULL)
    strobe_group_flows_set (self->flows_widget, NULL, NULL);
  /* The members first: their widgets are still there to disconnect from. */
  g_ptr_array_set_size (self->members, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_GROUP_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (strobe_group_view_parent_class)->dispose (object);
}

static void
strobe_group_view_finalize (GObject *object)
{
  StrobeGroupView *self = STROBE_GROUP_VIEW (object);

  g_ptr_array_unref (self->members);
  g_ptr_array_unref (self->flows);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_free (self->session);
  g_free (self->title);
  G_OBJECT_CLASS (strobe_group_view_parent_class)->finalize (object);
}

static void
strobe_group_view_class_init (StrobeGroupViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_group_view_dispose;
  object_class->finalize = strobe_group_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/group/strobe-group-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, pages);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, selection_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, fit_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, overlay);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, members_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupView, flow_list);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
strobe_group_view_init (StrobeGroupView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->log_page = STROBE_GROUP_LOG_PAGE (strobe_group_log_page_new ());
  /* Translators: a page of a group tab: every process's log messages in one table */
  gtk_stack_add_titled (self->pages, GTK_WIDGET (self->log_page), "log", _("Log"));
  self->memory_page = STROBE_GROUP_MEMORY_PAGE (strobe_group_memory_page_new ());
  /* Translators: a page of a group tab: memory per process and in total */
  gtk_stack_add_titled (self->pages, GTK_WIDGET (self->memory_page), "memory", _("Memory"));
  self->timers_page = STROBE_GROUP_TIMERS_PAGE (strobe_group_timers_page_new ());
  /* Translators: a page of a group tab: scope statistics of every process */
  gtk_stack_add_titled (self->pages, GTK_WIDGET (self->timers_page), "timers", _("Timers"));
  self->members = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_group_member_free);
  self->flows = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_flow_free);
  self->cancellable = g_cancellable_new ();
  self->flows_widget = STROBE_GROUP_FLOWS (strobe_group_flows_new ());
  gtk_overlay_add_overlay (self->overlay, GTK_WIDGET (self->flows_widget));
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (overlay_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->overlay), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (self->fit_button, "clicked", G_CALLBACK (fit_clicked_cb), self);
}

/* A file of the store is opened through it, so a live one is followed. */
static StrobeDocument *
open_file (StrobeStore *store, GFile *file, char **trace_id)
{
  g_autofree char *path = g_file_get_path (file);
  GListModel *traces = store ? strobe_store_get_traces (store) : NULL;

  for (guint i = 0; traces != NULL && path != NULL && i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

      if (g_strcmp0 (strobe_trace_get_path (trace), path) == 0)
        {
          *trace_id = g_strdup (strobe_trace_get_id (trace));
          return strobe_document_new_for_trace (store, trace, GROUP_MODELS);
        }
    }
  *trace_id = NULL;
  return strobe_document_new (file, GROUP_MODELS);
}

GtkWidget *
strobe_group_view_new_for_files (StrobeStore *store, GFile **files, guint n_files)
{
  StrobeGroupView *self;

  g_return_val_if_fail (store == NULL || STROBE_IS_STORE (store), NULL);
  g_return_val_if_fail (files != NULL && n_files > 0, NULL);

  self = g_object_new (STROBE_TYPE_GROUP_VIEW, NULL);
  self->store = store ? g_object_ref (store) : NULL;
  /* Translators: the tab of traces grouped by hand: how many processes */
  self->title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process", "%u processes", n_files), n_files);
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *trace_id = NULL;
      g_autoptr(StrobeDocument) document = open_file (store, files[i], &trace_id);

      add_member (self, document, trace_id);
    }
  join_flows (self);
  return GTK_WIDGET (self);
}

GtkWidget *
strobe_group_view_new_for_session (StrobeStore *store, const char *session)
{
  StrobeGroupView *self;

  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  g_return_val_if_fail (session != NULL, NULL);

  self = g_object_new (STROBE_TYPE_GROUP_VIEW, NULL);
  self->store = g_object_ref (store);
  self->session = g_strdup (session);
  self->title = g_strdup (session);
  if (poll_session (self) == G_SOURCE_CONTINUE)
    self->poll_source = g_timeout_add (POLL_MS, poll_session, self);
  join_flows (self);
  return GTK_WIDGET (self);
}
