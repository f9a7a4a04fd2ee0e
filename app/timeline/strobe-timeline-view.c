/* strobe-timeline-view.c
 *
 * The details of a scope (its parent chain, its children, its exclusive time) are
 * gathered on a worker: a scope may have millions of children. Find runs there too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-timeline-background.h"
#include <math.h>

#include "strobe-format.h"
#include "strobe-panes.h"
#include "strobe-sample-model.h"
#include "strobe-samples-panel.h"
#include "strobe-scope-search.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-view.h"
#include "strobe-timer-row.h"
#include "strobe-a11y.h"

#define MAX_MATCHES   (1u << 20)
/* A search still running after this long shows how far it got, as often. */
#define FIND_PROGRESS_MS 250
#define SHOWN_CHILDREN 12

struct _StrobeTimelineView
{
  StrobeView            parent_instance;

  StrobeTimelineWidget *timeline;       /* NULL when the document has no timeline model */
  StrobeTimersPanel    *timers;
  StrobeSamplesPanel   *samples;        /* beside the timers: what the CPU did in the selection */
  GtkToggleButton      *timers_button;  /* which of the two is shown beside the tracks */
  GtkToggleButton      *samples_button;
  gboolean              had_scopes;     /* the trace has CPU scopes (never FALSE again) */
  gboolean              samples_shown;  /* a trace of samples only opened on the Samples panel */

  /* The template's (strobe-timeline-view.ui). */
  GtkStack             *content_stack;
  GtkBox               *toolbar;
  GtkWidget            *follow;
  GtkDropDown          *colors;
  GtkDropDown          *target;
  GtkSpinButton        *target_ms;
  GtkWidget            *tracks_box;
  GtkWidget            *hide_empty;
  GtkSearchBar         *search_bar;
  GtkWidget            *search_entry;
  GtkWidget            *match_label;
  GtkBox               *timeline_row;
  GtkPaned             *paned;
  GtkLabel             *details_title;
  GtkLabel             *details;
  char                 *details_text;
  char                 *details_scope;    /* the selected scope's details without "In the range" */
  char                 *details_name;
  guint32               details_name_id;
  StrobeTimerRow       *details_row;      /* watched: the timers update rows in place */
  gulong                details_row_handler;

  GCancellable         *find_cancel;
  GArray               *matches;        /* StrobeScopeMatch */
  guint64               match_total;
  gint64                match_index;
  gboolean              finding;
  gint                 *find_progress;  /* atomic, an rc box the job shares: its steps so far */
  guint64               find_steps;     /* where they end */
  guint                 find_source;    /* shows them */
  gboolean              find_shown;
  char                 *searched;       /* the text of matches, or of the search running */
  int                   pending_step;   /* Enter or F3 while searching: 1 next, -1 previous */
  GCancellable         *details_cancel;
  gboolean              setting_target;
};

G_DEFINE_FINAL_TYPE (StrobeTimelineView, strobe_timeline_view, STROBE_TYPE_VIEW)

static StrobeTimelineModel *
model (StrobeTimelineView *self)
{
  return strobe_document_get_timeline (strobe_view_get_document (STROBE_VIEW (self)));
}

/* ---- find -------------------------------------------------------------------------------- */

typedef struct
{
  StrobeTimelineModel *model;
  char                *text;
  guint64              total;
  gint                *progress;
} FindJob;

static void
find_job_free (gpointer data)
{
  FindJob *j = data;

  g_object_unref (j->model);
  g_free (j->text);
  g_atomic_rc_box_release (j->progress);
  g_free (j);
}

static void
find_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  FindJob *j = data;
  GError *error = NULL;
  GArray *m = strobe_scope_search_full (j->model, j->text, MAX_MATCHES, &j->total, j->progress, cancellable, &error);

  if (m == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, m, (GDestroyNotify) g_array_unref);
}

static void
update_match_label (StrobeTimelineView *self)
{
  g_autofree char *text = NULL;

  if (self->finding && self->find_shown && self->find_steps > 0)
    {
      guint64 done = (guint64) MAX (g_atomic_int_get (self->find_progress), 0);

      /* Translators: a search running, how far it got: "Searching… 43 %" */
      text = g_strdup_printf (_("Searching… %u %%"), (guint) MIN (done * 100 / self->find_steps, 99));
    }
  else if (self->finding)
    text = g_strdup (_("Searching…"));
  else if (self->matches == NULL)
    text = g_strdup ("");
  else if (self->match_total == 0)
    text = g_strdup (_("No matches"));
  else
    {
      g_autofree char *n = strobe_format_count (self->match_total);
      if (self->match_index >= 0)
        {
          g_autofree char *i = strobe_format_count ((guint64) self->match_index + 1);
          /* Translators: "3 of 1 234 matches" */
          text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s match", "%s of %s matches", self->match_total), i, n);
        }
      else
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", self->match_total), n);
    }
  gtk_label_set_text (GTK_LABEL (self->match_label), text);
}

static gboolean
find_progress_tick (gpointer data)
{
  StrobeTimelineView *self = data;

  self->find_shown = TRUE;
  update_match_label (self);
  return G_SOURCE_CONTINUE;
}

/* The label stops showing a search's progress (its worker may still hold the counter). */
static void
find_progress_stop (StrobeTimelineView *self)
{
  g_clear_handle_id (&self->find_source, g_source_remove);
  g_clear_pointer (&self->find_progress, g_atomic_rc_box_release);
  self->find_shown = FALSE;
}

static void
find_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(StrobeTimelineView) self = user_data;
  GArray *m = g_task_propagate_pointer (G_TASK (result), NULL);
  FindJob *j = g_task_get_task_data (G_TASK (result));

  if (m == NULL)
    return;
  self->finding = FALSE;
  find_progress_stop (self);
  g_clear_pointer (&self->matches, g_array_unref);
  self->matches = m;
  self->match_total = j->total;
  self->match_index = -1;
  update_match_label (self);
  if (self->pending_step)
    {
      gboolean backward = self->pending_step < 0;
      self->pending_step = 0;
      strobe_timeline_view_find_step (self, backward);
    }
}

void
strobe_timeline_view_find (StrobeTimelineView *self, const char *text)
{
  g_autoptr(GTask) task = NULL;
  FindJob *j;

  g_return_if_fail (STROBE_IS_TIMELINE_VIEW (self));

  /* Enter may have started this search before the entry's own delayed signal. */
  if (text && *text && g_strcmp0 (text, self->searched) == 0 && (self->finding || self->matches))
    return;
  self->pending_step = 0;
  g_free (self->searched);
  self->searched = g_strdup (text);
  if (self->find_cancel)
    g_cancellable_cancel (self->find_cancel);
  g_clear_object (&self->find_cancel);
  g_clear_pointer (&self->matches, g_array_unref);
  self->finding = FALSE;
  find_progress_stop (self);
  if (text == NULL || *text == '\0' || model (self) == NULL)
    {
      update_match_label (self);
      return;
    }
  self->find_cancel = g_cancellable_new ();
  self->finding = TRUE;
  j = g_new0 (FindJob, 1);
  j->model = g_object_ref (model (self));
  j->text = g_strdup (text);
  /* Polled from the main loop: the worker only counts. */
  self->find_progress = g_atomic_rc_box_new0 (gint);
  j->progress = g_atomic_rc_box_acquire (self->find_progress);
  self->find_steps = strobe_scope_search_steps (j->model);
  self->find_source = g_timeout_add (FIND_PROGRESS_MS, find_progress_tick, self);
  task = g_task_new (NULL, self->find_cancel, find_done, g_object_ref (self));
  g_task_set_task_data (task, j, find_job_free);
  strobe_background_run (task, find_thread);
  update_match_label (self);
}

gint64
strobe_timeline_view_get_match_count (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), -1);
  return self->finding || self->matches == NULL ? -1 : (gint64) self->match_total;
}

void
strobe_timeline_view_find_step (StrobeTimelineView *self, gboolean backward)
{
  StrobeViewState *state;
  const StrobeScopeMatch *m;
  StrobeScopeRef ref;
  gint64 n;

  g_return_if_fail (STROBE_IS_TIMELINE_VIEW (self));

  if (self->finding)
    {
      /* Taken as soon as the matches are known. */
      self->pending_step = backward ? -1 : 1;
      return;
    }
  if (self->matches == NULL || self->matches->len == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  n = self->matches->len;
  state = strobe_view_get_state (STROBE_VIEW (self));
  if (self->match_index < 0)
    {
      /* The first match at or after the view's start (or before its end, backwards). */
      guint64 a, b;
      strobe_view_state_get_visible_range (state, &a, &b);
      self->match_index = backward ? n - 1 : 0;
      for (gint64 i = 0; i < n; i++)
        {
          gint64 k = backward ? n - 1 - i : i;
          guint64 t = g_array_index (self->matches, StrobeScopeMatch, k).begin;
          if (backward ? t <= b : t >= a)
            {
              self->match_index = k;
              break;
            }
        }
    }
  else
    self->match_index = (self->match_index + (backward ? n - 1 : 1)) % n;
  m = &g_array_index (self->matches, StrobeScopeMatch, self->match_index);
  ref = (StrobeScopeRef) { m->thread_id, m->depth, m->name_id, m->begin, m->end };
  strobe_timeline_widget_show_scope (self->timeline, &ref);
  update_match_label (self);
}

static void
search_changed_cb (StrobeTimelineView *self)
{
  strobe_timeline_view_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
search_next_cb (StrobeTimelineView *self)
{
  /* Enter right after typing: search now rather than after the entry's delay. */
  strobe_timeline_view_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  strobe_timeline_view_find_step (self, FALSE);
}

static void
search_previous_cb (StrobeTimelineView *self)
{
  strobe_timeline_view_find_step (self, TRUE);
}

static void
search_stop_cb (StrobeTimelineView *self)
{
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static void
action_find (GtkWidget *widget, const char *name, GVariant *param)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (widget);

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), TRUE);
  gtk_widget_grab_focus (self->search_entry);
}

static void
action_find_step (GtkWidget *widget, const char *name, GVariant *param)
{
  strobe_timeline_view_find_step (STROBE_TIMELINE_VIEW (widget), g_variant_get_boolean (param));
}

/* ---- details -------------------------------------------------------------------------------- */

typedef struct
{
  StrobeTimelineModel *model;
  StrobeScopeRef       scope;
  GArray              *parents;      /* guint32 name ids, outermost first */
  GArray              *children;     /* the first few, StrobeTimelineScope */
  guint64              n_children;
  guint64              children_time;
} DetailsJob;

static void
details_job_free (gpointer data)
{
  DetailsJob *j = data;

  g_object_unref (j->model);
  g_array_unref (j->parents);
  g_array_unref (j->children);
  g_free (j);
}

static void
details_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  DetailsJob *j = data;
  const StrobeScopeRef *s = &j->scope;
  g_autoptr(GArray) tmp = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  guint64 span = s->end - s->begin, w, t;

  for (guint d = s->depth; d-- > 0;)
    {
      g_array_set_size (tmp, 0);
      if (strobe_timeline_model_get_scopes (j->model, s->thread_id, d, s->begin, s->begin, tmp) > 0)
        g_array_prepend_val (j->parents, g_array_index (tmp, StrobeTimelineScope, 0).name_id);
    }
  /* Children in windows, so a scope with millions of them never needs one huge copy. */
  w = MAX (span / 64, 1);
  for (t = s->begin; t <= s->end; t = t > G_MAXUINT64 - w - 1 ? G_MAXUINT64 : t + w + 1)
    {
      guint64 t1 = MIN (s->end, t > G_MAXUINT64 - w ? G_MAXUINT64 : t + w);
      g_array_set_size (tmp, 0);
      strobe_timeline_model_get_scopes (j->model, s->thread_id, s->depth + 1u, t, t1, tmp);
      for (guint i = 0; i < tmp->len; i++)
        {
          const StrobeTimelineScope *c = &g_array_index (tmp, StrobeTimelineScope, i);
          /* Each child once: in the window where it begins (or the first, for one that
           * began before the scope). */
          if (c->begin < t && t != s->begin)
            continue;
          if (c->begin < s->begin || c->end > s->end)
            continue;
          j->n_children++;
          j->children_time += c->end - c->begin;
          if (j->children->len < SHOWN_CHILDREN)
            g_array_append_val (j->children, *c);
        }
      if (g_task_return_error_if_cancelled (task))
        return;
      if (t1 == G_MAXUINT64 || t1 >= s->end)
        break;
    }
  g_task_return_boolean (task, TRUE);
}

static void
set_details (StrobeTimelineView *self, const char *title, const char *text)
{
  g_free (self->details_text);
  self->details_text = g_strdup_printf ("%s\n%s", title, text);
  gtk_label_set_text (GTK_LABEL (self->details_title), title);
  gtk_label_set_text (GTK_LABEL (self->details), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->details), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->details_text, -1);
}

static char *
seconds_text (const StrobeTraceClock *clock, guint64 t)
{
  gdouble s = strobe_trace_clock_to_seconds (clock, t);
  return strobe_ruler_label (s, 1e-9, s);
}

static void update_details_range (StrobeTimelineView *self);

/* The timers panel updates a name's row in place when the range changes: the details
 * follow that row's "stat". */
static void
watch_row (StrobeTimelineView *self, StrobeTimerRow *row)
{
  if (row == self->details_row)
    return;
  if (self->details_row != NULL)
    {
      g_signal_handler_disconnect (self->details_row, self->details_row_handler);
      g_clear_object (&self->details_row);
    }
  if (row == NULL)
    return;
  self->details_row = g_object_ref (row);
  self->details_row_handler = g_signal_connect_swapped (row, "notify::stat", G_CALLBACK (update_details_range), self);
}

/* The selected scope's details and its name's statistics in the timers panel's range, as
 * the timers panel has them now: they follow a new range, not only a new scope. */
static void
update_details_range (StrobeTimelineView *self)
{
  g_autoptr(GString) text = NULL;
  StrobeTraceClock clock;
  GListModel *rows;

  if (self->details_scope == NULL)
    return;
  text = g_string_new (self->details_scope);
  strobe_document_get_clock (strobe_view_get_document (STROBE_VIEW (self)), &clock);
  rows = strobe_timers_panel_get_rows (self->timers);
  for (guint i = 0, n = g_list_model_get_n_items (rows); i < n; i++)
    {
      g_autoptr(StrobeTimerRow) row = g_list_model_get_item (rows, i);
      const StrobeTimerStat *st = strobe_timer_row_get_stat (row);
      if (st->name_id == self->details_name_id)
        {
          g_autofree char *cnt = strobe_format_count (st->count);
          g_autofree char *tot = strobe_format_ticks (&clock, st->inclusive);
          g_autofree char *mean = strobe_format_ticks (&clock, (guint64) st->mean);
          g_autofree char *med = strobe_format_ticks (&clock, (guint64) st->median);
          /* Translators: the statistics of a scope's name in the selected range */
          g_string_append_printf (text, _("\nIn the range: %s calls, %s in all, mean %s, median %s"), cnt, tot, mean, med);
          watch_row (self, row);
          break;
        }
      if (i + 1 == n)
        watch_row (self, NULL);
    }
  set_details (self, self->details_name, text->str);
}

static void
details_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(StrobeTimelineView) self = user_data;
  DetailsJob *j = g_task_get_task_data (G_TASK (result));
  const StrobeScopeRef *s = &j->scope;
  StrobeTimelineModel *m = j->model;
  StrobeTraceClock clock;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *start = NULL, *incl = NULL, *excl = NULL;
  const char *name = strobe_timeline_model_get_name (m, s->name_id), *file = NULL;
  guint32 line = 0;
  guint64 span = s->end - s->begin;

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;
  g_clear_object (&self->details_cancel);
  strobe_document_get_clock (strobe_view_get_document (STROBE_VIEW (self)), &clock);
  start = seconds_text (&clock, s->begin);
  incl = strobe_format_ticks (&clock, span);
  excl = strobe_format_ticks (&clock, span > j->children_time ? span - j->children_time : 0);
  {
    StrobeThreadInfo info = { 0 };
    gboolean named = strobe_threads_model_lookup (strobe_document_get_threads (strobe_view_get_document (STROBE_VIEW (self))),
                                                  s->thread_id, &info);
    /* Translators: the details of a scope: its thread, start, inclusive and exclusive time, depth */
    g_string_append_printf (text, _("Thread %s · start %s · inclusive %s · exclusive %s · depth %u"),
                            named && info.name && *info.name ? info.name : "?", start, incl, excl, s->depth);
    if (named)
      strobe_thread_info_clear (&info);
  }
  if (strobe_timeline_model_get_name_source (m, s->name_id, &file, &line))
    g_string_append_printf (text, "\n%s %s:%u", _("Source:"), file, line);
  if (j->parents->len)
    {
      g_string_append_printf (text, "\n%s ", _("Called from:"));
      for (guint i = 0; i < j->parents->len; i++)
        g_string_append_printf (text, "%s%s", i ? " › " : "",
                                strobe_timeline_model_get_name (m, g_array_index (j->parents, guint32, i)));
    }
  if (j->n_children)
    {
      g_autofree char *n = strobe_format_count (j->n_children);
      g_string_append_printf (text, "\n%s ", _("Children by time:"));
      for (guint i = 0; i < j->children->len; i++)
        {
          const StrobeTimelineScope *c = &g_array_index (j->children, StrobeTimelineScope, i);
          g_autofree char *d = strobe_format_ticks (&clock, c->end - c->begin);
          g_string_append_printf (text, "%s%s %s", i ? ", " : "", strobe_timeline_model_get_name (m, c->name_id), d);
        }
      if (j->n_children > j->children->len)
        /* Translators: %s is a count of further children of a scope */
        g_string_append_printf (text, _(" … (%s in all)"), n);
    }
  else
    g_string_append_printf (text, "\n%s", _("No children."));
  g_free (self->details_scope);
  g_free (self->details_name);
  self->details_scope = g_string_free (g_steal_pointer (&text), FALSE);
  self->details_name = g_strdup (name ? name : "");
  self->details_name_id = s->name_id;
  update_details_range (self);
}

/* FALSE once the trace is read and has no CPU scope; TRUE while it may still get some. */
static gboolean
has_scopes (StrobeTimelineView *self)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  StrobeTimelineStats stats;

  if (self->had_scopes || model (self) == NULL || !strobe_document_is_loaded (document)
      || strobe_document_is_live (document))
    return TRUE;
  strobe_timeline_model_get_stats (model (self), &stats);
  self->had_scopes = stats.scopes > 0;
  return self->had_scopes;
}

static void
side_toggled_cb (StrobeTimelineView *self)
{
  gboolean samples = gtk_toggle_button_get_active (self->samples_button);

  gtk_widget_set_visible (GTK_WIDGET (self->timers), !samples);
  gtk_widget_set_visible (GTK_WIDGET (self->samples), samples);
}

/* The Samples panel follows the selected scope (its interval on its thread), else the
 * selected range (every thread), else the whole trace. */
static void
update_samples (StrobeTimelineView *self)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  const StrobeScopeRef *s = strobe_timeline_widget_get_selected_scope (self->timeline);
  g_autofree char *what = NULL, *span = NULL;
  StrobeTraceClock clock;
  guint64 a = 0, b = G_MAXUINT64;

  strobe_document_get_clock (document, &clock);
  if (s != NULL)
    {
      StrobeThreadInfo info = { 0 };
      gboolean named = strobe_threads_model_lookup (strobe_document_get_threads (document), s->thread_id, &info);

      span = strobe_format_ticks (&clock, s->end - s->begin);
      /* Translators: the Samples panel's heading for a scope: its name, thread and duration */
      what = g_strdup_printf (_("Scope “%s” on %s, %s"), strobe_timeline_model_get_name (model (self), s->name_id),
                              named && info.name && *info.name ? info.name : "?", span);
      if (named)
        strobe_thread_info_clear (&info);
      strobe_samples_panel_show (self->samples, s->thread_id, s->begin, s->end, what);
      return;
    }
  if (strobe_view_state_get_selection (state, &a, &b))
    {
      span = strobe_format_ticks (&clock, b - a);
      /* Translators: the Samples panel's heading for a selected range of time */
      what = g_strdup_printf (_("Selection of %s, every thread"), span);
    }
  else
    what = g_strdup (_("The whole trace, every thread"));
  strobe_samples_panel_show (self->samples, 0, a, b, what);
}

static void
selected_scope_cb (StrobeTimelineView *self)
{
  const StrobeScopeRef *s = strobe_timeline_widget_get_selected_scope (self->timeline);
  g_autoptr(GTask) task = NULL;
  DetailsJob *j;

  update_samples (self);

  if (self->details_cancel)
    g_cancellable_cancel (self->details_cancel);
  g_clear_object (&self->details_cancel);
  g_clear_pointer (&self->details_scope, g_free);
  watch_row (self, NULL);
  if (s == NULL || model (self) == NULL)
    {
      StrobeSampleModel *samples = strobe_document_get_model (strobe_view_get_document (STROBE_VIEW (self)),
                                                              STROBE_TYPE_SAMPLE_MODEL);
      StrobeSampleSummary summary = { 0 };

      if (samples)
        strobe_sample_model_get_summary (samples, &summary);
      if (!has_scopes (self) && summary.samples > 0)
        {
          /* A profile of an unmodified program (strobe-cli run --sample): its story is the
           * samples, not the empty timers table. Shown once; the user's choice stands after. */
          if (!self->samples_shown)
            strobe_timeline_view_show_side (self, "samples");
          self->samples_shown = TRUE;
          set_details (self, _("No CPU scopes in this trace, only samples"),
                       _("This trace has sampled call stacks but no CPU scopes. The Samples panel shows where "
                         "the time went, in the whole trace or in a stretch of time you drag across on the "
                         "timeline. For scopes, turn the program’s cpu channel on (STROBE_TRACE=cpu or --trace=cpu)."));
        }
      else if (!has_scopes (self))
        /* An empty grid said nothing of why (issue 24 item 18). */
        set_details (self, _("No CPU scopes in this trace"),
                     _("The timeline’s tracks are the program’s CPU scopes, frames, regions and counters, and this "
                       "trace has no CPU scopes. Turn the program’s cpu channel on (STROBE_TRACE=cpu, --trace=cpu, "
                       "or the channels panel while it runs); a trace of allocations made with strobe-cli run has "
                       "its figures on the Memory page."));
      else
        set_details (self, _("No scope selected"),
                     _("Click a scope, or press Space on the timeline and move with the arrow keys."));
      return;
    }
  self->details_cancel = g_cancellable_new ();
  j = g_new0 (DetailsJob, 1);
  j->model = g_object_ref (model (self));
  j->scope = *s;
  j->parents = g_array_new (FALSE, FALSE, sizeof (guint32));
  j->children = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  task = g_task_new (NULL, self->details_cancel, details_done, g_object_ref (self));
  g_task_set_task_data (task, j, details_job_free);
  strobe_background_run (task, details_thread);
}

/* ---- toolbar --------------------------------------------------------------------------------- */

static const double target_fps[] = { 30, 60, 120 };

static void
target_cb (StrobeTimelineView *self)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->target));

  if (self->setting_target || i >= G_N_ELEMENTS (target_fps))
    return;
  strobe_timeline_widget_set_frame_target (self->timeline, 1.0 / target_fps[i]);
}

static void
target_ms_cb (StrobeTimelineView *self)
{
  gdouble ms = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->target_ms));

  if (self->setting_target)
    return;
  strobe_timeline_widget_set_frame_target (self->timeline, ms / 1000.0);
}

static void
target_changed_cb (StrobeTimelineView *self)
{
  gdouble s = strobe_timeline_widget_get_frame_target (self->timeline);
  guint pick = G_N_ELEMENTS (target_fps);

  for (guint i = 0; i < G_N_ELEMENTS (target_fps); i++)
    if (fabs (1.0 / target_fps[i] - s) < 1e-9)
      pick = i;
  self->setting_target = TRUE;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->target), pick);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->target_ms), s * 1000.0);
  self->setting_target = FALSE;
}

static void
track_toggled_cb (GtkCheckButton *check, StrobeTimelineView *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "track-index"));
  StrobeTrackList *tracks = strobe_timeline_widget_get_tracks (self->timeline);

  if (i < strobe_track_list_get_n (tracks)
      && strobe_track_list_get (tracks, i)->hidden == gtk_check_button_get_active (check))
    strobe_timeline_widget_set_track_hidden (self->timeline, i, !gtk_check_button_get_active (check));
}

static void
rebuild_tracks_menu (StrobeTimelineView *self)
{
  StrobeTrackList *tracks = strobe_timeline_widget_get_tracks (self->timeline);

  for (GtkWidget *c; (c = gtk_widget_get_first_child (self->tracks_box)) != NULL;)
    gtk_box_remove (GTK_BOX (self->tracks_box), c);
  for (guint i = 0; i < strobe_track_list_get_n (tracks); i++)
    {
      const StrobeTrack *t = strobe_track_list_get (tracks, i);
      g_autofree char *label = NULL;
      GtkWidget *check;

      if (t->kind == STROBE_TRACK_GROUP)
        label = g_strdup_printf (_("Group: %s"), t->title);
      else if (t->kind == STROBE_TRACK_THREAD && t->group && *t->group)
        label = g_strdup_printf ("    %s", t->title);
      else
        label = g_strdup (t->title);
      if (t->empty)
        {
          char *l = g_strdup_printf (_("%s (empty)"), label);
          g_free (label);
          label = l;
        }
      check = gtk_check_button_new_with_label (label);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !t->hidden);
      g_object_set_data (G_OBJECT (check), "track-index", GUINT_TO_POINTER (i));
      g_signal_connect (check, "toggled", G_CALLBACK (track_toggled_cb), self);
      gtk_box_append (GTK_BOX (self->tracks_box), check);
    }
}

static void
tracks_popover_cb (StrobeTimelineView *self)
{
  rebuild_tracks_menu (self);
}

static void
reset_tracks_cb (StrobeTimelineView *self)
{
  strobe_timeline_widget_reset_tracks (self->timeline);
  rebuild_tracks_menu (self);
}

static void
zoom (StrobeTimelineView *self, int direction)
{
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom", "i", direction);
}

static void zoom_out_cb (StrobeTimelineView *self) { zoom (self, -1); }
static void zoom_fit_cb (StrobeTimelineView *self) { zoom (self, 0); }
static void zoom_in_cb (StrobeTimelineView *self) { zoom (self, 1); }

/* ---- StrobeView ------------------------------------------------------------------------------- */

static void
strobe_timeline_view_document_changed (StrobeView *view, StrobeDocumentChanges changes)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (view);

  if (self->timeline == NULL)
    return;
  strobe_timeline_widget_update (self->timeline, changes);
  strobe_timers_panel_update (self->timers, changes);
  if (changes & STROBE_DOCUMENT_CHANGED_EXTENT)
    update_samples (self);
  /* Loaded without a scope: the details say why the timeline is empty. */
  if (strobe_timeline_widget_get_selected_scope (self->timeline) == NULL && !self->had_scopes
      && strobe_document_is_loaded (strobe_view_get_document (view)))
    selected_scope_cb (self);
}

static void
strobe_timeline_view_focus_default (StrobeView *view)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (view);

  if (self->timeline)
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static void
timer_chosen_cb (StrobeTimelineView *self, guint name_id)
{
  strobe_timeline_widget_set_highlight (self->timeline, name_id);
}

static void
show_scope_cb (StrobeTimelineView *self, StrobeScopeRef *ref)
{
  strobe_timeline_widget_show_scope (self->timeline, ref);
}

static gboolean
status_to_live (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_boolean (to, g_value_get_enum (from) == STROBE_DOCUMENT_STATUS_LIVE);
  return TRUE;
}

/* The layout is the template's; what needs the document and the state is made here. */
static void
build (StrobeTimelineView *self)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  GtkWidget *scrollbar, *side_box, *switcher;

  if (strobe_document_get_timeline (document) == NULL)
    {
      gtk_stack_set_visible_child_name (self->content_stack, "missing");
      return;
    }
  self->timeline = STROBE_TIMELINE_WIDGET (strobe_timeline_widget_new (document, state));
  self->timers = STROBE_TIMERS_PANEL (strobe_timers_panel_new (document, state));
  g_signal_connect_object (self->timers, "timer-chosen", G_CALLBACK (timer_chosen_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timers, "show-scope", G_CALLBACK (show_scope_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (strobe_timers_panel_get_rows (self->timers), "items-changed",
                           G_CALLBACK (update_details_range), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::frame-target", G_CALLBACK (target_changed_cb), self, G_CONNECT_SWAPPED);

  /* Values that are only copied are bound, not handled. */
  g_object_bind_property (state, "follow-live", self->follow, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (document, "status", self->follow, "visible", G_BINDING_SYNC_CREATE,
                               status_to_live, NULL, NULL, NULL);
  g_object_bind_property (self->timeline, "color-scheme", self->colors, "selected",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->timeline, "hide-empty", self->hide_empty, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  target_changed_cb (self);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));

  gtk_box_append (self->timeline_row, GTK_WIDGET (self->timeline));
  scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, strobe_timeline_widget_get_vadjustment (self->timeline));
  gtk_accessible_update_property (GTK_ACCESSIBLE (scrollbar), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scroll tracks"), -1);
  gtk_box_append (self->timeline_row, scrollbar);
  /* Timers and Samples share the side: both answer "what took the time here". */
  self->samples = STROBE_SAMPLES_PANEL (strobe_samples_panel_new (document));
  g_signal_connect_object (self->samples, "show-scope", G_CALLBACK (show_scope_cb), self, G_CONNECT_SWAPPED);
  /* Two buttons in the toolbar and the other panel hidden, not a GtkStack with its
   * switcher over the panels: a stack, or any row, over the timers' paned made GTK 4.8
   * report a height for width above its minimum (a critical) in longer languages. */
  switcher = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (switcher, "linked");
  gtk_accessible_update_property (GTK_ACCESSIBLE (switcher), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timers or samples"), -1);
  self->timers_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Timers")));
  self->samples_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Samples")));
  gtk_toggle_button_set_group (self->samples_button, self->timers_button);
  gtk_toggle_button_set_active (self->timers_button, TRUE);
  gtk_box_append (GTK_BOX (switcher), GTK_WIDGET (self->timers_button));
  gtk_box_append (GTK_BOX (switcher), GTK_WIDGET (self->samples_button));
  g_signal_connect_object (self->samples_button, "toggled", G_CALLBACK (side_toggled_cb), self, G_CONNECT_SWAPPED);
  side_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (self->toolbar, switcher);
  gtk_widget_set_vexpand (GTK_WIDGET (self->timers), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->samples), TRUE);
  gtk_box_append (GTK_BOX (side_box), GTK_WIDGET (self->timers));
  gtk_box_append (GTK_BOX (side_box), GTK_WIDGET (self->samples));
  side_toggled_cb (self);
  gtk_paned_set_end_child (self->paned, side_box);
  gtk_widget_set_size_request (GTK_WIDGET (self->timers), 440, -1);
  gtk_widget_set_size_request (GTK_WIDGET (self->samples), 440, -1);
  strobe_pane_mark (GTK_WIDGET (self->timers));
  strobe_pane_mark (GTK_WIDGET (self->samples));
  g_signal_connect_object (state, "notify::selection-end", G_CALLBACK (update_samples), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::has-selection", G_CALLBACK (update_samples), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->timeline, "notify::selected-scope", G_CALLBACK (selected_scope_cb), self, G_CONNECT_SWAPPED);
  selected_scope_cb (self);
}

static void
strobe_timeline_view_constructed (GObject *object)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (object);

  /* The parent's constructed reports the document once, before the children exist. */
  G_OBJECT_CLASS (strobe_timeline_view_parent_class)->constructed (object);
  build (self);
  strobe_timeline_view_document_changed (STROBE_VIEW (self), STROBE_DOCUMENT_MODEL_ALL | STROBE_DOCUMENT_CHANGED_EXTENT);
}

static void
strobe_timeline_view_dispose (GObject *object)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (object);

  if (self->find_cancel)
    g_cancellable_cancel (self->find_cancel);
  find_progress_stop (self);
  if (self->details_cancel)
    g_cancellable_cancel (self->details_cancel);
  watch_row (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_TIMELINE_VIEW);
  self->timeline = NULL;
  self->timers = NULL;
  self->samples = NULL;
  G_OBJECT_CLASS (strobe_timeline_view_parent_class)->dispose (object);
}

static void
strobe_timeline_view_finalize (GObject *object)
{
  StrobeTimelineView *self = STROBE_TIMELINE_VIEW (object);

  g_clear_object (&self->find_cancel);
  g_clear_object (&self->details_cancel);
  g_clear_pointer (&self->matches, g_array_unref);
  g_free (self->searched);
  g_free (self->details_text);
  g_free (self->details_scope);
  g_free (self->details_name);
  G_OBJECT_CLASS (strobe_timeline_view_parent_class)->finalize (object);
}

static void
strobe_timeline_view_class_init (StrobeTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->constructed = strobe_timeline_view_constructed;
  object_class->dispose = strobe_timeline_view_dispose;
  object_class->finalize = strobe_timeline_view_finalize;
  view_class->document_changed = strobe_timeline_view_document_changed;
  view_class->focus_default = strobe_timeline_view_focus_default;

  strobe_view_class_set_page (view_class, "timeline", N_("_Timeline"), "preferences-system-time-symbolic", 10);

  gtk_widget_class_install_action (widget_class, "view.find", NULL, action_find);
  gtk_widget_class_install_action (widget_class, "view.find-step", "b", action_find_step);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "view.find-step", "b", FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK, "view.find-step", "b", TRUE);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/timeline/strobe-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, follow);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, colors);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, target);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, target_ms);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, tracks_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, hide_empty);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, search_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, match_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, timeline_row);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, paned);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, details_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeTimelineView, details);
  gtk_widget_class_bind_template_callback (widget_class, zoom_out_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_fit_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_in_cb);
  gtk_widget_class_bind_template_callback (widget_class, target_cb);
  gtk_widget_class_bind_template_callback (widget_class, target_ms_cb);
  gtk_widget_class_bind_template_callback (widget_class, tracks_popover_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_tracks_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
}

static void
strobe_timeline_view_init (StrobeTimelineView *self)
{
  self->match_index = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_make_copyable (self->details_title);
  strobe_a11y_make_copyable (self->details);
}

StrobeTimelineWidget *
strobe_timeline_view_get_timeline (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), NULL);
  return self->timeline;
}

StrobeSamplesPanel *
strobe_timeline_view_get_samples (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), NULL);
  return self->samples;
}

void
strobe_timeline_view_show_side (StrobeTimelineView *self, const char *page)
{
  g_return_if_fail (STROBE_IS_TIMELINE_VIEW (self));
  if (self->samples_button)
    gtk_toggle_button_set_active (g_strcmp0 (page, "samples") == 0 ? self->samples_button : self->timers_button, TRUE);
}

StrobeTimersPanel *
strobe_timeline_view_get_timers (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), NULL);
  return self->timers;
}

const char *
strobe_timeline_view_get_details (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), NULL);
  return self->details_text;
}

gboolean
strobe_timeline_view_is_busy (StrobeTimelineView *self)
{
  g_return_val_if_fail (STROBE_IS_TIMELINE_VIEW (self), FALSE);
  return self->details_cancel != NULL || self->finding
         || (self->timers && strobe_timers_panel_is_busy (self->timers))
         || (self->samples && strobe_samples_panel_is_busy (self->samples))
         || (self->timeline && strobe_timeline_widget_get_pending (self->timeline) > 0);
}
