/* strobe-log-view.c
 *
 * The table is a GtkColumnView over StrobeLogList in a GtkMultiSelection: items are made
 * only for the rows on screen, and each cell is one GtkInscription (two widgets for the
 * verbosity's icon) with a fixed width, so scrolling 10 M rows relays out nothing but the
 * rows that came into view. Filters are rebuilt from the filter bar on every change and
 * handed to the list, which filters on a worker thread.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-after-paint.h"
#include "strobe-format.h"
#include "strobe-log-cells.h"
#include "strobe-log-checklist.h"
#include "strobe-log-details.h"
#include "strobe-log-export.h"
#include "strobe-log-format.h"
#include "strobe-log-labels.h"
#include "strobe-log-rows.h"
#include "strobe-log-view.h"
#include "strobe-panes.h"
#include "strobe-source.h"
#include "strobe-text.h"

/* Copying more rows than this asks for Export instead: the clipboard is not a file. */
#define COPY_MAX_ROWS 100000

struct _StrobeLogView
{
  StrobeView          parent_instance;

  /* template */
  GtkWidget          *filter_bar;
  GtkSearchEntry     *search_entry;
  GtkToggleButton    *regex_button;
  GtkDropDown        *verbosity_dropdown;
  GtkMenuButton      *categories_button;
  GtkMenuButton      *threads_button;
  GtkToggleButton    *range_button;
  GtkToggleButton    *follow_button;
  GtkInfoBar         *notice_bar;
  GtkLabel           *notice_label;
  GtkButton          *notice_button;
  GtkPaned           *paned;
  GtkStack           *table_stack;
  GtkScrolledWindow  *scroller;
  GtkScrollbar       *window_scrollbar;
  GtkColumnView      *column_view;
  GtkImage           *empty_icon;
  GtkLabel           *empty_title;
  GtkLabel           *empty_label;
  GtkButton          *empty_clear;
  StrobeLogDetails   *details;
  GtkLabel           *count_label;
  GtkProgressBar     *filter_progress;
  GtkLabel           *status_label;
  GMenuModel         *context_menu;

  GtkWidget          *popover_menu;
  StrobeLogChecklist *categories;
  StrobeLogChecklist *threads;

  StrobeLogList      *list;
  StrobeLogRows      *rows;             /* the list as the table takes it */
  StrobeLogWindow    *window;           /* where the table's rows are in the list */
  GtkMultiSelection  *selection;
  GHashTable         *thread_names;     /* guint16 → char *, from the thread table */
  StrobeLogCells      cells;            /* the clock and labels the table's cells show */
  GError             *search_error;     /* the regular expression does not compile */
  gboolean            selection_hidden; /* a message selected elsewhere is filtered out */
  guint64             reselect;         /* model index to select again once filtered */
  gboolean            reselect_hidden;  /* …and another view selected it: say if it stays hidden */
  gboolean            syncing;          /* setting the view state ourselves */
  guint               follow_source;
  guint               range_source;
  guint               scroll_source;
  guint               scroll_position;  /* where scroll_source scrolls to */
  StrobeAfterPaint    jump_check;       /* the jump asked again after its frame */
  GtkFileChooserNative *export_chooser;
  GCancellable       *cancellable;
};

G_DEFINE_FINAL_TYPE (StrobeLogView, strobe_log_view, STROBE_TYPE_VIEW)

static void update_status (StrobeLogView *self);

static const char *
thread_name (StrobeLogView *self, guint16 id)
{
  const char *name = g_hash_table_lookup (self->thread_names, GUINT_TO_POINTER (id));

  return name && *name ? name : NULL;
}

/* ---- scrolling ------------------------------------------------------------------------ */

/* GTK 4.8's column view has no scroll_to(); its list view has the action. */
static GtkWidget *
inner_list_view (StrobeLogView *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

void
strobe_log_view_scroll_to (StrobeLogView *self,
                           guint          position)
{
  g_return_if_fail (STROBE_IS_LOG_VIEW (self));
  strobe_log_window_scroll_to (self->window, inner_list_view (self), position);
}

/* GTK placed a jump's message by the estimated heights of rows not measured yet: it can end
 * below the bottom edge. Asked again after the jump's frame, by the real heights. */
static void
jump_painted_cb (GdkFrameClock *clock,
                 StrobeLogView *self)
{
  guint position = self->scroll_position;

  strobe_after_paint_cancel (&self->jump_check);
  if (self->scroll_source == 0)
    strobe_log_view_scroll_to (self, position);
}

static gboolean
jump_cb (gpointer data)
{
  StrobeLogView *self = data;

  self->scroll_source = 0;
  strobe_log_view_scroll_to (self, self->scroll_position);
  strobe_after_paint_once (&self->jump_check, GTK_WIDGET (self->column_view), G_CALLBACK (jump_painted_cb), self);
  return G_SOURCE_REMOVE;
}

/* A jump asked from elsewhere (a message or moment chosen in another view): GTK 4.8 binds
 * every row it keeps anew for it, so it runs in a turn of its own, not with the selecting
 * and the other views' handling — still ahead of the frame (GTK lays out at
 * G_PRIORITY_HIGH_IDLE + 10) — and after the rows' refresh (+ 5), not in the same
 * main-loop iteration: input and timers come between the two. */
static void
scroll_soon (StrobeLogView *self, guint position)
{
  self->scroll_position = position;
  if (self->scroll_source == 0)
    self->scroll_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 6, jump_cb, self, NULL);
}

/* Through the list's own anchor (its last item), not the adjustment: the list estimates
 * the height of rows it has not measured, so "upper" may stop short of the last one. */
static void
to_the_end (StrobeLogView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));

  if (n > 0)
    strobe_log_view_scroll_to (self, n - 1);
}

static gboolean
follow_cb (gpointer data)
{
  StrobeLogView *self = data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));

  self->follow_source = 0;
  if (n > 0 && gtk_toggle_button_get_active (self->follow_button))
    to_the_end (self);
  return G_SOURCE_REMOVE;
}

static void queue_follow (StrobeLogView *self);

/* The table grew in a layout after the rows came (the list measured rows it had only
 * estimated): stay at the end while following, once that layout is done. */
static void
upper_changed_cb (StrobeLogView *self)
{
  queue_follow (self);
}

static void
queue_follow (StrobeLogView *self)
{
  if (self->follow_source == 0 && gtk_toggle_button_get_active (self->follow_button))
    self->follow_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 30, follow_cb, self, NULL);
}

/* Scrolling up with the wheel while following means reading: stop following. */
static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           StrobeLogView            *self)
{
  if (dy < 0 && gtk_toggle_button_get_active (self->follow_button))
    gtk_toggle_button_set_active (self->follow_button, FALSE);
  return FALSE;
}

/* ---- filters -------------------------------------------------------------------------- */

/* What the filter bar says, as a StrobeLogFilter (the arrays and search owned by the
 * caller: free them with clear_filter). */
static void
build_filter (StrobeLogView *self, StrobeLogFilter *f, GArray **hidden_categories, GArray **hidden_threads)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  guint64 start, end;

  memset (f, 0, sizeof *f);
  g_clear_error (&self->search_error);
  f->max_verbosity = (guint8) MIN (gtk_drop_down_get_selected (self->verbosity_dropdown), 6u);
  *hidden_categories = strobe_log_checklist_dup_hidden (self->categories);
  if ((*hidden_categories)->len > 0)
    {
      f->categories = (const guint32 *) (void *) (*hidden_categories)->data;
      f->n_categories = (*hidden_categories)->len;
      f->categories_excluded = TRUE;
    }
  *hidden_threads = strobe_log_checklist_dup_hidden (self->threads);
  if ((*hidden_threads)->len > 0)
    {
      /* The checklist's ids are guint32: the filter wants guint16. */
      GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint16));

      for (guint i = 0; i < (*hidden_threads)->len; i++)
        {
          guint16 id = (guint16) g_array_index (*hidden_threads, guint32, i);
          g_array_append_val (ids, id);
        }
      g_array_unref (*hidden_threads);
      *hidden_threads = ids;
      f->threads = (const guint16 *) (void *) ids->data;
      f->n_threads = ids->len;
      f->threads_excluded = TRUE;
    }
  if (*text != '\0')
    f->search = strobe_log_search_new (text, gtk_toggle_button_get_active (self->regex_button)
                                             ? STROBE_LOG_SEARCH_REGEX : STROBE_LOG_SEARCH_DEFAULT,
                                       &self->search_error);
  if (gtk_toggle_button_get_active (self->range_button) && strobe_view_state_get_selection (state, &start, &end))
    {
      f->time_min = start;
      f->time_max = MAX (end, 1);
    }
}

static void
clear_filter (StrobeLogFilter *f)
{
  g_clear_pointer (&f->search, strobe_log_search_unref);
}

static guint64
selected_index (StrobeLogView *self)
{
  StrobeLogItem *item = strobe_log_details_get_item (self->details);

  return item ? strobe_log_item_find_index (item) : STROBE_VIEW_STATE_NONE;
}

static void
apply_filters (StrobeLogView *self)
{
  g_autoptr(GArray) hidden_categories = NULL;
  g_autoptr(GArray) hidden_threads = NULL;
  StrobeLogFilter f;

  build_filter (self, &f, &hidden_categories, &hidden_threads);
  if (self->search_error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  /* The message selected when the filter changed is selected again if it passes; one that
   * another view selected and the old filter hid, too. */
  self->reselect_hidden = self->selection_hidden;
  if (!self->selection_hidden)
    self->reselect = selected_index (self);
  self->selection_hidden = FALSE;
  strobe_log_list_set_filter (self->list, &f);
  clear_filter (&f);
  update_status (self);
}

static void
filters_changed_cb (StrobeLogView *self)
{
  apply_filters (self);
}

static void
stop_search_cb (StrobeLogView *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

static gboolean
range_changed_idle (gpointer data)
{
  StrobeLogView *self = data;

  self->range_source = 0;
  if (gtk_toggle_button_get_active (self->range_button))
    apply_filters (self);
  else
    update_status (self);
  return G_SOURCE_REMOVE;
}

/* The selection follows a drag in the timeline: filter once it rests a moment. */
static void
state_selection_cb (StrobeLogView *self)
{
  if (self->range_source == 0)
    self->range_source = g_timeout_add (120, range_changed_idle, self);
}

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);

  /* One refilter, not one per control. */
  g_signal_handlers_block_by_func (self->search_entry, filters_changed_cb, self);
  g_signal_handlers_block_by_func (self->regex_button, filters_changed_cb, self);
  g_signal_handlers_block_by_func (self->verbosity_dropdown, filters_changed_cb, self);
  g_signal_handlers_block_by_func (self->range_button, filters_changed_cb, self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_toggle_button_set_active (self->regex_button, FALSE);
  gtk_drop_down_set_selected (self->verbosity_dropdown, 0);
  gtk_toggle_button_set_active (self->range_button, FALSE);
  g_signal_handlers_block_by_func (self->categories, filters_changed_cb, self);
  g_signal_handlers_block_by_func (self->threads, filters_changed_cb, self);
  strobe_log_checklist_show_all (self->categories);
  strobe_log_checklist_show_all (self->threads);
  g_signal_handlers_unblock_by_func (self->categories, filters_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->threads, filters_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->search_entry, filters_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->regex_button, filters_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->verbosity_dropdown, filters_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->range_button, filters_changed_cb, self);
  apply_filters (self);
}

/* ---- status, empty state, notices ------------------------------------------------------- */

static void
set_notice (StrobeLogView *self)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  StrobeLogModel *model = strobe_document_get_log (document);
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->search_error != NULL)
    /* Translators: %s is GRegex's explanation */
    g_string_append_printf (text, _("The regular expression does not compile: %s"), self->search_error->message);
  if (self->selection_hidden)
    {
      if (text->len)
        g_string_append_c (text, '\n');
      g_string_append (text, _("The message selected in another view is hidden by the filters."));
    }
  switch (strobe_document_get_status (document))
    {
    case STROBE_DOCUMENT_STATUS_DAMAGED:
      if (text->len)
        g_string_append_c (text, '\n');
      g_string_append (text, _("This trace is damaged: the messages before the damage are shown."));
      break;
    case STROBE_DOCUMENT_STATUS_CANCELLED:
      if (text->len)
        g_string_append_c (text, '\n');
      g_string_append (text, _("Loading was cancelled: the messages read until then are shown."));
      break;
    default:
      break;
    }
  if (model != NULL)
    {
      g_autoptr(GArray) counts = strobe_log_model_count_by_category (model);

      if (counts->len > 0 && g_array_index (counts, StrobeLogCount, 0).id == 0)
        {
          guint64 n = g_array_index (counts, StrobeLogCount, 0).count;
          g_autofree char *count = strobe_format_count (n);

          if (text->len)
            g_string_append_c (text, '\n');
          g_string_append_printf (text,
                                  g_dngettext (GETTEXT_PACKAGE,
                                               "%s message names a log site the trace never described: it shows as “(unknown log site …)” with its raw arguments.",
                                               "%s messages name log sites the trace never described: they show as “(unknown log site …)” with their raw arguments.",
                                               (gulong) MIN (n, G_MAXULONG)),
                                  count);
        }
    }
  if (g_strcmp0 (gtk_label_get_text (self->notice_label), text->str) != 0)
    gtk_label_set_text (self->notice_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_button), self->selection_hidden);
  strobe_a11y_show_info_bar (self->notice_bar, text->len > 0);
}

/* Why the table is empty: the filters in force, in words. */
static char *
describe_filters (StrobeLogView *self)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  guint level = gtk_drop_down_get_selected (self->verbosity_dropdown);
  guint64 start, end;
  GString *out;

  if (*text)
    g_ptr_array_add (parts, g_strdup_printf (gtk_toggle_button_get_active (self->regex_button)
                                             /* Translators: a filter in force: the regular expression */
                                             ? _("regular expression “%s”")
                                             /* Translators: a filter in force: the text searched for */
                                             : _("text “%s”"), text));
  if (level > 0 && level < 7)
    /* Translators: a filter in force; %s is a verbosity, e.g. "Warning" */
    g_ptr_array_add (parts, g_strdup_printf (_("verbosity %s or more severe"),
                                             strobe_log_verbosity_label ((guint8) level)));
  if (strobe_log_checklist_get_n_hidden (self->categories))
    /* Translators: a filter in force: how many categories are unticked */
    g_ptr_array_add (parts, g_strdup_printf (_("categories (%u of %u hidden)"),
                                             strobe_log_checklist_get_n_hidden (self->categories),
                                             strobe_log_checklist_get_n_entries (self->categories)));
  if (strobe_log_checklist_get_n_hidden (self->threads))
    /* Translators: a filter in force: how many threads are unticked */
    g_ptr_array_add (parts, g_strdup_printf (_("threads (%u of %u hidden)"),
                                             strobe_log_checklist_get_n_hidden (self->threads),
                                             strobe_log_checklist_get_n_entries (self->threads)));
  if (gtk_toggle_button_get_active (self->range_button) && strobe_view_state_get_selection (state, &start, &end))
    {
      StrobeTraceClock clock;
      g_autofree char *a = NULL, *b = NULL;

      strobe_log_cells_get_clock (&self->cells, &clock);
      a = strobe_format_duration_s (strobe_trace_clock_to_seconds (&clock, start));
      b = strobe_format_duration_s (strobe_trace_clock_to_seconds (&clock, end));

      /* Translators: a filter in force: the selected time range, "from 1.5 s to 2.0 s" */
      g_ptr_array_add (parts, g_strdup_printf (_("the selected time range, from %s to %s"), a, b));
    }
  out = g_string_new (NULL);
  for (guint i = 0; i < parts->len; i++)
    {
      if (i)
        /* Translators: between two filters in a list of them */
        g_string_append (out, _("; "));
      g_string_append (out, g_ptr_array_index (parts, i));
    }
  return g_string_free (out, FALSE);
}

static void
update_range_tooltip (StrobeLogView *self)
{
  gboolean any = strobe_view_state_get_selection (strobe_view_get_state (STROBE_VIEW (self)), NULL, NULL);
  const char *tip = any ? _("Only the messages in the time range selected in the timeline")
                        : _("Only the messages in the time range selected in the timeline (none is selected now)");

  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->range_button)), tip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_button), tip);
}

/* "Categories" or "Categories (2 hidden)": the filter bar says what it hides. */
static void
update_checklist_button (GtkMenuButton *button, StrobeLogChecklist *list, const char *name)
{
  guint hidden = strobe_log_checklist_get_n_hidden (list);
  /* Translators: a filter button: the filter's name and how many entries it hides */
  g_autofree char *label = hidden ? g_strdup_printf (_("%s (%u hidden)"), name, hidden) : g_strdup (name);

  if (g_strcmp0 (gtk_menu_button_get_label (button), label) != 0)
    gtk_menu_button_set_label (button, label);
}

static void
update_status (StrobeLogView *self)
{
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  guint64 total = strobe_log_list_get_total (self->list);
  gboolean filtering = strobe_log_list_is_filtering (self->list);
  gboolean filtered = strobe_log_list_get_filter (self->list) != NULL;
  g_autofree char *shown = strobe_format_count (n);
  g_autofree char *all = strobe_format_count (total);
  g_autofree char *count = NULL;

  if (filtered)
    /* Translators: "1 234 of 10 000 000 messages" */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s message", "%s of %s messages",
                                          (gulong) MIN (total, G_MAXULONG)), shown, all);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s message", "%s messages",
                                          (gulong) MIN (total, G_MAXULONG)), all);
  if (g_strcmp0 (gtk_label_get_text (self->count_label), count) != 0)
    gtk_label_set_text (self->count_label, count);
  update_range_tooltip (self);
  update_checklist_button (self->categories_button, self->categories, _("Categories"));
  update_checklist_button (self->threads_button, self->threads, _("Threads"));
  gtk_widget_set_visible (GTK_WIDGET (self->filter_progress), filtering);
  if (filtering)
    gtk_progress_bar_set_fraction (self->filter_progress, strobe_log_list_get_progress (self->list));

  /* Nothing to select, nothing to detail. */
  gtk_widget_set_visible (GTK_WIDGET (self->details), total > 0);
  if (n > 0)
    gtk_stack_set_visible_child_name (self->table_stack, "table");
  else
    {
      const char *title, *text = NULL;
      g_autofree char *why = NULL;
      gboolean loading = !strobe_document_is_loaded (document) || strobe_document_is_live (document);

      if (strobe_document_get_log (document) == NULL)
        {
          title = _("No Log");
          text = _("Log messages were not read for this trace.");
        }
      else if (total == 0 && loading)
        {
          title = _("No Log Messages Yet");
          text = _("Messages appear here as the trace is read.");
        }
      else if (total == 0)
        {
          title = _("No Log Messages");
          text = _("This trace has no messages of the Log channel. A program logs them with "
                   "STROBE_LOG_MESSAGE while the channel is on (STROBE_TRACE=log or --trace=log).");
        }
      else if (filtering)
        {
          title = _("Searching…");
          text = "";
        }
      else
        {
          g_autofree char *reasons = describe_filters (self);

          title = _("No Messages Match");
          why = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              /* Translators: %s is a count, then the filters in words */
                                              "The %s message does not pass these filters: %s.",
                                              "None of the %s messages passes these filters: %s.",
                                              (gulong) MIN (total, G_MAXULONG)),
                                 all, reasons);
          text = why;
        }
      gtk_label_set_text (self->empty_title, title);
      gtk_label_set_text (self->empty_label, text);
      gtk_image_set_from_icon_name (self->empty_icon, total > 0 ? "edit-find-symbolic" : "dialog-information-symbolic");
      gtk_widget_set_visible (GTK_WIDGET (self->empty_clear), total > 0 && !filtering && filtered);
      gtk_stack_set_visible_child_name (self->table_stack, "empty");
    }
  set_notice (self);
}

/* ---- selection and the shared cursor ---------------------------------------------------- */

static StrobeLogItem *
first_selected (StrobeLogView *self, guint *n_selected)
{
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  *n_selected = (guint) MIN (gtk_bitset_get_size (set), (guint64) G_MAXUINT);
  if (*n_selected == 0)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->list),
                                strobe_log_window_to_list (self->window, gtk_bitset_get_minimum (set)));
}

static void
show_details (StrobeLogView *self, StrobeLogItem *item)
{
  StrobeTraceClock clock;

  strobe_log_cells_get_clock (&self->cells, &clock);
  strobe_log_details_show (self->details, item, &clock,
                           item ? thread_name (self, strobe_log_item_get_thread_id (item)) : NULL);
}

static void
selection_changed_cb (StrobeLogView *self)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  guint n = 0;
  g_autoptr(StrobeLogItem) item = NULL;

  /* The window moved: the same messages stay selected. */
  if (strobe_log_window_is_moving (self->window))
    return;
  strobe_log_window_forget (self->window);
  item = first_selected (self, &n);
  if (item == NULL)
    {
      if (self->reselect == STROBE_VIEW_STATE_NONE)
        show_details (self, NULL);
      return;
    }
  show_details (self, item);
  self->reselect = STROBE_VIEW_STATE_NONE;
  self->reselect_hidden = FALSE;
  if (self->selection_hidden)
    {
      self->selection_hidden = FALSE;
      set_notice (self);
    }
  /* The user picked a message: stop following the live end. */
  if (n == 1 && gtk_widget_has_focus (GTK_WIDGET (self->column_view)))
    gtk_toggle_button_set_active (self->follow_button, FALSE);
  if (n == 1)
    {
      self->syncing = TRUE;
      strobe_view_state_set_cursor (state, strobe_log_item_get_time (item));
      strobe_view_state_set_selected_message (state, strobe_log_item_find_index (item));
      self->syncing = FALSE;
    }
  if (n > 1)
    {
      g_autofree char *count = strobe_format_count (n);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row selected", "%s rows selected", n), count);

      gtk_label_set_text (self->status_label, text);
    }
  else
    gtk_label_set_text (self->status_label, "");
}

/* Up to this many rows selected are unselected one range each; more, all at once. */
#define UNSELECT_ONE_BY_ONE 64

/* Selects @position alone. GtkMultiSelection's select_item (…, unselect_rest) tells one
 * change spanning the old and new selection — after a far jump, GTK 4.8 restyles every row
 * it keeps in it (2–4 ms). Told as the old rows unselected and the new one selected. */
static void
select_only (StrobeLogView *self, guint position)
{
  GtkSelectionModel *model = GTK_SELECTION_MODEL (self->selection);
  g_autoptr(GtkBitset) live = gtk_selection_model_get_selection (model);
  /* A copy: GtkMultiSelection hands out its own set, which unselecting changes. */
  g_autoptr(GtkBitset) old = gtk_bitset_copy (live);
  guint64 n = gtk_bitset_get_size (old);

  if (n == 1 && gtk_bitset_get_minimum (old) == position)
    return;
  if (n > 0)
    {
      /* Not a change the user sees: the selection-changed that follows tells it. */
      g_signal_handlers_block_by_func (model, selection_changed_cb, self);
      if (n > UNSELECT_ONE_BY_ONE)
        gtk_selection_model_unselect_all (model);
      else
        {
          GtkBitsetIter iter;
          guint p;

          for (gboolean more = gtk_bitset_iter_init_first (&iter, old, &p); more;
               more = gtk_bitset_iter_next (&iter, &p))
            if (p != position)
              gtk_selection_model_unselect_item (model, p);
        }
      g_signal_handlers_unblock_by_func (model, selection_changed_cb, self);
    }
  if (gtk_selection_model_is_selected (model, position))
    selection_changed_cb (self);
  else
    gtk_selection_model_select_item (model, position, FALSE);
}

/* Selects list position @position (the window moved to it first). */
static void
select_position (StrobeLogView *self, guint position)
{
  guint at = strobe_log_window_show (self->window, position);

  if (at != G_MAXUINT)
    select_only (self, at);
  scroll_soon (self, position);
}

/* A message selected elsewhere (a log tick in the timeline): select it here. */
static void
state_message_cb (StrobeLogView *self)
{
  StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));
  guint64 index = strobe_view_state_get_selected_message (state);
  gboolean exact = FALSE;
  guint position;

  if (self->syncing || index == STROBE_VIEW_STATE_NONE)
    return;
  if (strobe_log_list_get_filter (self->list) == NULL)
    strobe_log_list_update (self->list);
  position = strobe_log_list_find_index (self->list, index, &exact);
  if (position == G_MAXUINT)
    return;
  gtk_toggle_button_set_active (self->follow_button, FALSE);
  if (exact)
    {
      self->syncing = TRUE;
      select_position (self, position);
      self->syncing = FALSE;
      return;
    }
  /* Filtered out: show where it would be, and say why it is not there. */
  gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->selection));
  strobe_log_view_scroll_to (self, MIN (position, g_list_model_get_n_items (G_LIST_MODEL (self->list)) - 1));
  self->selection_hidden = TRUE;
  self->reselect = index;
  set_notice (self);
}

/* The cursor moved in another view: bring the messages of that moment into view. */
static void
state_cursor_cb (StrobeLogView *self)
{
  guint64 cursor = strobe_view_state_get_cursor (strobe_view_get_state (STROBE_VIEW (self)));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));

  if (self->syncing || cursor == STROBE_VIEW_STATE_NONE || n == 0)
    return;
  scroll_soon (self, MIN (strobe_log_list_find_time (self->list, cursor), n - 1));
}

static void
list_items_changed_cb (StrobeLogView *self,
                       guint          position,
                       guint          removed,
                       guint          added)
{
  /* The table keeps the places of replaced messages (StrobeLogRows), and their selection
   * with them: a message added is not selected. */
  if (removed > 0 && added > 0)
    {
      g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

      if (strobe_log_rows_is_windowed (self->rows) || strobe_log_rows_get_window_start (self->rows) > 0)
        gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->selection));
      else if (gtk_bitset_get_size_in_range (set, position, position + added - 1) > 0)
        gtk_selection_model_unselect_range (GTK_SELECTION_MODEL (self->selection), position, added);
    }
  if (self->reselect != STROBE_VIEW_STATE_NONE && !self->selection_hidden)
    {
      gboolean exact = FALSE;
      guint at = strobe_log_list_find_index (self->list, self->reselect, &exact);

      if (exact)
        {
          self->syncing = TRUE;
          select_position (self, at);
          self->syncing = FALSE;
        }
    }
  if (added > 0)
    queue_follow (self);
}

static void
list_state_cb (StrobeLogView *self)
{
  if (!strobe_log_list_is_filtering (self->list) && !self->selection_hidden)
    {
      /* The message selected before the filter changed is gone: nothing to keep. */
      g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

      if (gtk_bitset_is_empty (selected) && self->reselect != STROBE_VIEW_STATE_NONE && self->reselect_hidden)
        self->selection_hidden = TRUE;
      else if (gtk_bitset_is_empty (selected))
        {
          self->reselect = STROBE_VIEW_STATE_NONE;
          show_details (self, NULL);
        }
    }
  update_status (self);
}

/* ---- the document grew ------------------------------------------------------------------ */

static gint
by_label (gconstpointer a, gconstpointer b)
{
  const StrobeLogChecklistEntry *x = a, *y = b;

  return g_utf8_collate (x->label, y->label);
}

static void
update_categories (StrobeLogView *self, StrobeLogModel *model)
{
  g_autoptr(GPtrArray) categories = strobe_log_model_get_categories (model);
  g_autoptr(GArray) counts = strobe_log_model_count_by_category (model);
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (StrobeLogChecklistEntry));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) count_of = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < counts->len; i++)
    {
      StrobeLogCount *c = &g_array_index (counts, StrobeLogCount, i);
      g_hash_table_insert (count_of, GUINT_TO_POINTER (c->id), &c->count);
    }
  for (guint i = 0; i < categories->len; i++)
    {
      const StrobeLogCategoryInfo *c = g_ptr_array_index (categories, i);
      guint64 *n = g_hash_table_lookup (count_of, GUINT_TO_POINTER (c->id));
      char *label = strobe_text_escape (c->name, STROBE_TEXT_PLAIN);
      StrobeLogChecklistEntry e = { c->id, label, n ? *n : 0 };

      g_ptr_array_add (labels, label);
      g_array_append_val (entries, e);
      g_hash_table_add (listed, GUINT_TO_POINTER (c->id));
    }
  /* Messages of categories never announced, and of unknown sites (id 0). */
  for (guint i = 0; i < counts->len; i++)
    {
      StrobeLogCount *c = &g_array_index (counts, StrobeLogCount, i);
      char *label;
      StrobeLogChecklistEntry e;

      if (g_hash_table_contains (listed, GUINT_TO_POINTER (c->id)))
        continue;
      label = c->id == 0 ? g_strdup (_("(unknown log site)"))
                         /* Translators: a category the trace never named, by its id */
                         : g_strdup_printf (_("(category %u)"), c->id);
      g_ptr_array_add (labels, label);
      e.id = c->id;
      e.label = label;
      e.count = c->count;
      g_array_append_val (entries, e);
    }
  g_array_sort (entries, by_label);
  strobe_log_checklist_set_entries (self->categories, (const StrobeLogChecklistEntry *) (void *) entries->data,
                                    entries->len);
}

/* In the thread table's order (threads it does not know last, by id). */
static gint
by_thread_order (gconstpointer a, gconstpointer b, gpointer order)
{
  const StrobeLogChecklistEntry *x = a, *y = b;
  guint ox = GPOINTER_TO_UINT (g_hash_table_lookup (order, GUINT_TO_POINTER (x->id))) - 1;
  guint oy = GPOINTER_TO_UINT (g_hash_table_lookup (order, GUINT_TO_POINTER (y->id))) - 1;

  if (ox != oy)
    return ox < oy ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

static void
update_threads (StrobeLogView *self, StrobeDocument *document, StrobeLogModel *model)
{
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  g_autoptr(GArray) counts = model ? strobe_log_model_count_by_thread (model) : NULL;
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (StrobeLogChecklistEntry));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) order = g_hash_table_new (NULL, NULL);

  g_hash_table_remove_all (self->thread_names);
  g_hash_table_remove_all (self->cells.thread_labels);
  for (guint i = 0; i < threads->len; i++)
    {
      const StrobeThreadInfo *t = &g_array_index (threads, StrobeThreadInfo, i);

      g_hash_table_insert (self->thread_names, GUINT_TO_POINTER (t->id), g_strdup (t->name));
      if (*t->name)
        g_hash_table_insert (self->cells.thread_labels, GUINT_TO_POINTER (t->id), strobe_text_escape (t->name, STROBE_TEXT_PLAIN));
      g_hash_table_insert (order, GUINT_TO_POINTER (t->id), GUINT_TO_POINTER (t->order + 1));
    }
  /* Only threads that logged, in the thread table's order. */
  for (guint i = 0; counts && i < counts->len; i++)
    {
      StrobeLogCount *c = &g_array_index (counts, StrobeLogCount, i);
      const char *name = thread_name (self, (guint16) c->id);
      g_autofree char *escaped = name ? strobe_text_escape (name, STROBE_TEXT_PLAIN) : NULL;
      /* Translators: a thread in the threads filter: its name and id */
      char *label = name ? g_strdup_printf (_("%s (%u)"), escaped, c->id)
                         /* Translators: a thread without a name, by its id */
                         : g_strdup_printf (_("Thread %u"), c->id);
      StrobeLogChecklistEntry e = { c->id, label, c->count };

      g_ptr_array_add (labels, label);
      g_array_append_val (entries, e);
    }
  g_array_sort_with_data (entries, by_thread_order, order);
  strobe_log_checklist_set_entries (self->threads, (const StrobeLogChecklistEntry *) (void *) entries->data,
                                    entries->len);
}

static void
strobe_log_view_document_changed (StrobeView            *view,
                                  StrobeDocumentChanges  changes)
{
  StrobeLogView *self = STROBE_LOG_VIEW (view);
  StrobeDocument *document = strobe_view_get_document (view);
  StrobeLogModel *model = strobe_document_get_log (document);

  if (self->cells.axis == NULL)
    self->cells.axis = strobe_time_axis_new (document, strobe_view_get_state (view));
  gtk_widget_set_visible (GTK_WIDGET (self->follow_button), strobe_document_is_live (document));
  if (model == NULL)
    {
      update_status (self);
      return;
    }
  /* Names first: new rows are bound as the list grows. */
  if (changes & (STROBE_DOCUMENT_CHANGED_LOG | STROBE_DOCUMENT_CHANGED_THREADS))
    update_threads (self, document, model);
  if (changes & STROBE_DOCUMENT_CHANGED_LOG)
    {
      strobe_log_list_update (self->list);
      update_categories (self, model);
    }
  update_status (self);
}

/* ---- copying, exporting, the source -------------------------------------------------- */

char *
strobe_log_view_dup_selected_rows (StrobeLogView *self)
{
  g_autoptr(GtkBitset) set = NULL;
  GtkBitsetIter it;
  GString *out;
  guint position, n = 0;
  StrobeTraceClock clock;

  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  strobe_log_cells_get_clock (&self->cells, &clock);
  /* In list positions: selected messages the window moved away from are copied too. */
  set = strobe_log_window_dup_selection (self->window);
  out = g_string_new (NULL);
  for (gboolean more = gtk_bitset_iter_init_first (&it, set, &position); more && n < COPY_MAX_ROWS;
       more = gtk_bitset_iter_next (&it, &position), n++)
    {
      g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (self->list), position);

      if (item != NULL)
        strobe_log_export_append_item (out, STROBE_LOG_EXPORT_TSV, item, &clock,
                                       thread_name (self, strobe_log_item_get_thread_id (item)));
    }
  return g_string_free (out, FALSE);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  g_autoptr(GtkBitset) set = strobe_log_window_dup_selection (self->window);
  guint64 n = gtk_bitset_get_size (set);
  g_autofree char *rows = NULL;
  g_autofree char *count = NULL, *text = NULL;

  if (n == 0)
    return;
  rows = strobe_log_view_dup_selected_rows (self);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), rows);
  count = strobe_format_count (MIN (n, COPY_MAX_ROWS));
  if (n > COPY_MAX_ROWS)
    /* Translators: %s is a count; the rest were not copied */
    text = g_strdup_printf (_("Copied the first %s rows: export them all with Export Visible Rows"), count);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Copied %s row", "Copied %s rows", (gulong) n), count);
  gtk_label_set_text (self->status_label, text);
}

static void
copy_message_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  StrobeLogItem *item = strobe_log_details_get_item (self->details);

  if (item == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), strobe_log_item_get_text (item));
  gtk_label_set_text (self->status_label, _("Copied the message"));
}

static void
open_source_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  StrobeLogItem *item = strobe_log_details_get_item (self->details);
  const StrobeLogSpecInfo *spec = item ? strobe_log_item_get_spec (item) : NULL;
  g_autoptr(GError) error = NULL;

  if (spec == NULL || spec->file == NULL || *spec->file == '\0')
    return;
  if (!strobe_source_open (widget, spec->file, spec->line, &error))
    {
      g_autofree char *escaped = strobe_text_escape (error->message, STROBE_TEXT_PLAIN);

      gtk_label_set_text (self->status_label, escaped);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), escaped);
    }
  else
    {
      g_autofree char *file = strobe_text_escape (spec->file, STROBE_TEXT_PLAIN);
      /* Translators: a file and a line */
      g_autofree char *text = g_strdup_printf (_("Opened %s:%d"), file, spec->line);

      gtk_label_set_text (self->status_label, text);
    }
}

/* Show in Timeline (Return, a double-click, the menu): the message's moment there. */
static void
show_in_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  StrobeLogItem *item = strobe_log_details_get_item (self->details);
  guint64 t;

  if (item == NULL)
    return;
  t = strobe_log_item_get_time (item);
  gtk_widget_activate_action (widget, "document.show-in-timeline", "(tt)", t, t);
}

static void
row_activated_cb (StrobeLogView *self,
                  guint          position,
                  GtkColumnView *view)
{
  g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (self->list),
                                                         strobe_log_window_to_list (self->window, position));
  guint64 t;

  if (item == NULL)
    return;
  t = strobe_log_item_get_time (item);
  gtk_widget_activate_action (GTK_WIDGET (self), "document.show-in-timeline", "(tt)", t, t);
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrobeLogView) self = user_data;
  g_autoptr(GError) error = NULL;
  GFile *file = g_object_get_data (G_OBJECT (self), "strobe-export-file");
  guint64 rows = 0;

  if (!strobe_log_export_finish (result, &rows, &error) && self->status_label != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: %s is the reason */
          g_autofree char *text = g_strdup_printf (_("Export failed: %s"), error->message);

          gtk_label_set_text (self->status_label, text);
        }
      return;
    }
  /* The view went away meanwhile. */
  if (self->status_label == NULL || error != NULL)
    return;
  {
    g_autofree char *count = strobe_format_count (rows);
    g_autofree char *name = file ? g_file_get_parse_name (file) : g_strdup ("");
    /* Translators: a count of rows, then a file */
    g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Exported %s row to %s",
                                                          "Exported %s rows to %s", (gulong) MIN (rows, G_MAXULONG)),
                                             count, name);

    gtk_label_set_text (self->status_label, text);
  }
}

static void
export_response_cb (StrobeLogView *self,
                    int            response)
{
  g_autoptr(GtkFileChooserNative) chooser = g_steal_pointer (&self->export_chooser);
  g_autoptr(GFile) file = NULL;
  g_autofree char *name = NULL;
  const char *choice;
  StrobeLogExportFormat format;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file == NULL)
    return;
  name = g_file_get_basename (file);
  choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "format");
  format = g_str_has_suffix (name, ".tsv") || g_strcmp0 (choice, "tsv") == 0 ? STROBE_LOG_EXPORT_TSV
                                                                              : STROBE_LOG_EXPORT_CSV;
  strobe_log_view_export (self, file, format);
}

void
strobe_log_view_export (StrobeLogView         *self,
                        GFile                 *file,
                        StrobeLogExportFormat  format)
{
  StrobeTraceClock clock;

  g_return_if_fail (STROBE_IS_LOG_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  gtk_label_set_text (self->status_label, _("Exporting…"));
  g_object_set_data_full (G_OBJECT (self), "strobe-export-file", g_object_ref (file), g_object_unref);
  strobe_log_cells_get_clock (&self->cells, &clock);
  strobe_log_export_async (self->list, format, &clock, self->thread_names, file,
                           self->cancellable, export_done_cb, g_object_ref (self));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  g_autofree char *name = g_strdup_printf ("%s-log.csv", strobe_document_get_title (document));
  const char *ids[] = { "csv", "tsv", NULL };
  const char *labels[] = { N_("CSV (comma-separated)"), N_("TSV (tab-separated)"), NULL };
  const char *translated[3] = { _(labels[0]), _(labels[1]), NULL };

  if (self->export_chooser != NULL)
    return;
  self->export_chooser = gtk_file_chooser_native_new (_("Export Visible Rows"),
                                                      GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                      GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->export_chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->export_chooser), name);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->export_chooser), "format", _("Format"), ids, translated);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->export_chooser), "format", "csv");
  g_signal_connect_swapped (self->export_chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_chooser));
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

/* ---- the context menu ------------------------------------------------------------------- */

static void
popup_menu_at (StrobeLogView *self, double x, double y)
{
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover_menu), &rect);
  gtk_popover_popup (GTK_POPOVER (self->popover_menu));
}

/* Space selects the row under the keyboard cursor, as in a file manager or Tracy's message
 * list: GTK 4.8's list rows toggle it instead, so Down (which selects) then Space left
 * nothing selected and Ctrl+C copied nothing (issue 24 item 18). Ctrl+Space still toggles
 * a row in or out of a multiple selection. */
static gboolean
table_key_pressed_cb (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      StrobeLogView         *self)
{
  guint position = strobe_log_window_key_target (self->window, keyval, state);

  /* A window of a long list: moved to the list's end first, then GTK's own Home / End. */
  if (position != G_MAXUINT)
    {
      strobe_log_window_show (self->window, position);
      return FALSE;
    }
  if ((keyval != GDK_KEY_space && keyval != GDK_KEY_KP_Space) ||
      (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  if (strobe_log_cells_focused_row (GTK_WIDGET (self->column_view), &position) == NULL)
    return FALSE;
  select_only (self, position);
  return TRUE;
}

static void
context_click_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  StrobeLogView   *self)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->column_view), x, y, GTK_PICK_DEFAULT);
  guint position = strobe_log_cells_row_position (picked, GTK_WIDGET (self->column_view), FALSE);
  graphene_point_t in_view;

  if (position != GTK_INVALID_LIST_POSITION &&
      !gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), position))
    select_only (self, position);
  if (!gtk_widget_compute_point (GTK_WIDGET (self->column_view), GTK_WIDGET (self),
                                 &GRAPHENE_POINT_INIT ((float) x, (float) y), &in_view))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  popup_menu_at (self, in_view.x, in_view.y);
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeLogView *self = STROBE_LOG_VIEW (widget);
  graphene_rect_t bounds;

  if (!gtk_widget_compute_bounds (GTK_WIDGET (self->scroller), widget, &bounds))
    return;
  popup_menu_at (self, bounds.origin.x + 40, bounds.origin.y + 40);
}

/* ---- the view ---------------------------------------------------------------------------- */

static void
strobe_log_view_focus_default (StrobeView *view)
{
  StrobeLogView *self = STROBE_LOG_VIEW (view);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->list)) > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

StrobeLogList *
strobe_log_view_get_list (StrobeLogView *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  return self->list;
}

GtkColumnView *
strobe_log_view_get_column_view (StrobeLogView *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  return self->column_view;
}

void
strobe_log_view_fill_cells (StrobeLogView *self)
{
  g_return_if_fail (STROBE_IS_LOG_VIEW (self));
  strobe_log_rows_flush (self->rows);
  strobe_log_cells_fill_shown (&self->cells);
}

StrobeLogWindow *
strobe_log_view_get_window (StrobeLogView *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  return self->window;
}

StrobeLogRows *
strobe_log_view_get_rows (StrobeLogView *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  return self->rows;
}

GtkWidget *
strobe_log_view_get_details (StrobeLogView *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_VIEW (self), NULL);
  return GTK_WIDGET (self->details);
}

static void
strobe_log_view_constructed (GObject *object)
{
  StrobeLogView *self = STROBE_LOG_VIEW (object);
  StrobeDocument *document = strobe_view_get_document (STROBE_VIEW (self));
  StrobeLogModel *model = document ? strobe_document_get_log (document) : NULL;
  g_autoptr(StrobeLogModel) none = NULL;
  StrobeViewState *state;

  /* The list before chaining up: the base class reports the document's state at once. A
   * document read without its log gets an empty model, and says so. */
  if (model == NULL)
    model = none = strobe_log_model_new ();
  self->list = strobe_log_list_new (model);
  /* Connected to the list first: the rows match it when the view's handlers run. */
  self->rows = strobe_log_rows_new (self->list);
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->window = strobe_log_window_new (self->rows, GTK_SELECTION_MODEL (self->selection),
                                        self->scroller, self->window_scrollbar);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->list, "items-changed", G_CALLBACK (list_items_changed_cb), self);
  g_signal_connect_swapped (self->list, "notify::filtering", G_CALLBACK (list_state_cb), self);
  g_signal_connect_swapped (self->list, "notify::progress", G_CALLBACK (update_status), self);
  g_signal_connect_swapped (self->list, "notify::n-items", G_CALLBACK (update_status), self);

  G_OBJECT_CLASS (strobe_log_view_parent_class)->constructed (object);

  state = strobe_view_get_state (STROBE_VIEW (self));
  g_object_bind_property (state, "follow-live", self->follow_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (state, "notify::selected-message", G_CALLBACK (state_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::cursor", G_CALLBACK (state_cursor_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selection-start", G_CALLBACK (state_selection_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selection-end", G_CALLBACK (state_selection_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::has-selection", G_CALLBACK (state_selection_cb), self, G_CONNECT_SWAPPED);
}

static void
strobe_log_view_dispose (GObject *object)
{
  StrobeLogView *self = STROBE_LOG_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->follow_source, g_source_remove);
  g_clear_handle_id (&self->range_source, g_source_remove);
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  strobe_after_paint_cancel (&self->jump_check);
  if (self->export_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export_chooser));
  g_clear_object (&self->export_chooser);
  g_clear_pointer (&self->popover_menu, gtk_widget_unparent);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_LOG_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->window);
  g_clear_object (&self->rows);
  g_clear_object (&self->list);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->thread_names, g_hash_table_unref);
  strobe_log_cells_clear (&self->cells);
  g_clear_error (&self->search_error);

  G_OBJECT_CLASS (strobe_log_view_parent_class)->dispose (object);
}

static void
strobe_log_view_class_init (StrobeLogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->constructed = strobe_log_view_constructed;
  object_class->dispose = strobe_log_view_dispose;
  view_class->document_changed = strobe_log_view_document_changed;
  view_class->focus_default = strobe_log_view_focus_default;
  strobe_view_class_set_page (view_class, "log", N_("Lo_g"), "format-justify-left-symbolic", 20);

  g_type_ensure (STROBE_TYPE_LOG_DETAILS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/log/strobe-log-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, regex_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, verbosity_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, categories_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, threads_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, range_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, follow_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, notice_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, paned);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, table_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, scroller);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, window_scrollbar);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, column_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, empty_icon);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, empty_clear);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, details);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, count_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, filter_progress);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeLogView, context_menu);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "view.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "log.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "log.copy-message", NULL, copy_message_action);
  gtk_widget_class_install_action (widget_class, "log.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "log.open-source", NULL, open_source_action);
  gtk_widget_class_install_action (widget_class, "log.show-in-timeline", NULL, show_in_timeline_action);
  gtk_widget_class_install_action (widget_class, "log.clear-filters", NULL, clear_filters_action);
  gtk_widget_class_install_action (widget_class, "log.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "log.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_C, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "log.copy-message", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "log.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_ALT_MASK, "log.open-source", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "log.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "log.menu", NULL);
}

static void
strobe_log_view_init (StrobeLogView *self)
{
  GtkWidget *popover;
  GtkEventController *scroll, *key;
  GtkGesture *click;

  self->thread_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  strobe_log_cells_init (&self->cells);
  self->reselect = STROBE_VIEW_STATE_NONE;
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_fix_mnemonic_button (self->notice_button);
  strobe_a11y_fix_mnemonic_button (self->empty_clear);

  self->categories = STROBE_LOG_CHECKLIST (strobe_log_checklist_new (_("Categories")));
  self->threads = STROBE_LOG_CHECKLIST (strobe_log_checklist_new (_("Threads")));
  g_signal_connect_swapped (self->categories, "changed", G_CALLBACK (filters_changed_cb), self);
  g_signal_connect_swapped (self->threads, "changed", G_CALLBACK (filters_changed_cb), self);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->categories));
  gtk_menu_button_set_popover (self->categories_button, popover);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->threads));
  gtk_menu_button_set_popover (self->threads_button, popover);

  self->popover_menu = gtk_popover_menu_new_from_model (self->context_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover_menu), FALSE);
  gtk_widget_set_halign (self->popover_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->popover_menu, GTK_WIDGET (self));

  strobe_log_cells_add_columns (&self->cells, self->column_view);
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (context_click_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));
  key = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (table_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), key);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->scroller), "notify::upper",
                           G_CALLBACK (upper_changed_cb), self, G_CONNECT_SWAPPED);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), scroll);

  strobe_pane_mark (self->filter_bar);
  strobe_pane_mark (GTK_WIDGET (self->scroller));
  /* Shown over a list longer than the table's window: F6 reaches it (GTK 4.8's Tab goes
   * row by row through the table). */
  strobe_pane_mark (GTK_WIDGET (self->window_scrollbar));
  strobe_pane_mark (GTK_WIDGET (self->details));
}
