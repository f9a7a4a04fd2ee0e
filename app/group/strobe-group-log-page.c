/* strobe-group-log-page.c — a group tab's Log page.
 *
 * The table is the single-trace log's columns (strobe-log-cells.c) with a Process column,
 * over StrobeGroupLog. Each process keeps its own StrobeLogList, filtered on its own
 * worker with the same filter (its own ticks for the range): the merge only interleaves
 * what the lists let through; the Process filter leaves members out of the merge.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-group-log-page.h"
#include "strobe-log-cells.h"
#include "strobe-text.h"
#include "strobe-threads-model.h"

typedef struct
{
  StrobeDocument  *document;
  StrobeViewState *state;
  char            *label;           /* escaped */
  GHashTable      *thread_labels;   /* guint16 → escaped name */
} PageMember;

struct _StrobeGroupLogPage
{
  GtkWidget           parent_instance;

  GtkSearchEntry     *search_entry;
  GtkDropDown        *process_dropdown;
  GtkStringList      *process_names;
  GtkDropDown        *verbosity_dropdown;
  GtkToggleButton    *range_button;
  GtkColumnView      *column_view;
  GtkLabel           *count_label;

  GPtrArray          *members;      /* PageMember */
  StrobeGroupLog     *log;
  GtkSingleSelection *selection;
  StrobeLogCells      cells;
  gboolean            filling;      /* the dropdown's strings change: not the user */
  gboolean            selecting;    /* a row selected here sets the states: not news */
};

G_DEFINE_FINAL_TYPE (StrobeGroupLogPage, strobe_group_log_page, GTK_TYPE_WIDGET)

static PageMember *
page_member (StrobeGroupLogPage *self, guint i)
{
  return g_ptr_array_index (self->members, i);
}

static void
page_member_free (gpointer data)
{
  PageMember *m = data;

  g_object_unref (m->document);
  g_object_unref (m->state);
  g_free (m->label);
  g_hash_table_unref (m->thread_labels);
  g_free (m);
}

/* The cells ask each message where it comes from. */
static void
item_source_cb (StrobeLogItem *item, StrobeLogCellsSource *source, gpointer data)
{
  StrobeGroupLogPage *self = data;
  guint k = strobe_group_log_find_model (self->log, strobe_log_item_get_model (item));
  PageMember *m;

  if (k == G_MAXUINT)
    return;
  m = page_member (self, k);
  source->process = m->label;
  source->thread_labels = m->thread_labels;
  strobe_document_get_clock (m->document, &source->clock);
}

static void
update_count (StrobeGroupLogPage *self)
{
  guint64 total = 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->log));
  gboolean filtered = FALSE;
  g_autofree char *shown = strobe_format_count (n);
  g_autofree char *all = NULL;
  g_autofree char *count = NULL;

  for (guint k = 0; k < self->members->len; k++)
    {
      StrobeLogList *list = strobe_group_log_get_list (self->log, k);

      total += strobe_log_list_get_total (list);
      filtered = filtered || strobe_log_list_get_filter (list) != NULL || !strobe_group_log_get_shown (self->log, k);
    }
  all = strobe_format_count (total);
  if (filtered)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s message", "%s of %s messages",
                                          (gulong) MIN (total, G_MAXULONG)), shown, all);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s message", "%s messages",
                                          (gulong) MIN (total, G_MAXULONG)), all);
  if (g_strcmp0 (gtk_label_get_text (self->count_label), count) != 0)
    gtk_label_set_text (self->count_label, count);
}

/* The filter bar for member @k (the range in its own ticks). */
static void
apply_filter (StrobeGroupLogPage *self, guint k, StrobeLogSearch *search)
{
  PageMember *m = page_member (self, k);
  StrobeLogFilter f = { 0 };
  guint64 start, end;

  f.max_verbosity = (guint8) MIN (gtk_drop_down_get_selected (self->verbosity_dropdown), 6u);
  f.search = search;
  if (gtk_toggle_button_get_active (self->range_button) && strobe_view_state_get_selection (m->state, &start, &end))
    {
      f.time_min = start;
      f.time_max = MAX (end, 1);
    }
  strobe_log_list_set_filter (strobe_group_log_get_list (self->log, k), &f);
}

static void
filters_changed_cb (StrobeGroupLogPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GError) error = NULL;
  StrobeLogSearch *search = *text ? strobe_log_search_new (text, STROBE_LOG_SEARCH_DEFAULT, &error) : NULL;

  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  for (guint k = 0; k < self->members->len; k++)
    apply_filter (self, k, search);
  g_clear_pointer (&search, strobe_log_search_unref);
  update_count (self);
}

static void
process_changed_cb (StrobeGroupLogPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->process_dropdown);

  if (self->filling)
    return;
  /* Item 0 is "All Processes". */
  for (guint k = 0; k < self->members->len; k++)
    strobe_group_log_set_shown (self->log, k, selected == 0 || selected == GTK_INVALID_LIST_POSITION
                                              || selected == k + 1);
  update_count (self);
}

void
strobe_group_log_page_set_process (StrobeGroupLogPage *self, guint member)
{
  g_return_if_fail (STROBE_IS_GROUP_LOG_PAGE (self));
  gtk_drop_down_set_selected (self->process_dropdown, member == G_MAXUINT || member >= self->members->len
                                                        ? 0 : member + 1);
}

static void
selection_changed_cb (StrobeGroupLogPage *self)
{
  g_autoptr(StrobeLogItem) item = gtk_single_selection_get_selected_item (self->selection)
                                    ? g_object_ref (gtk_single_selection_get_selected_item (self->selection)) : NULL;
  guint k;

  if (self->selecting || item == NULL
      || (k = strobe_group_log_find_model (self->log, strobe_log_item_get_model (item))) == G_MAXUINT)
    return;
  /* Its process's cursor: the tab sets it, in their own ticks, in every other process. */
  self->selecting = TRUE;
  strobe_view_state_set_cursor (page_member (self, k)->state, strobe_log_item_get_time (item));
  strobe_view_state_set_selected_message (page_member (self, k)->state, strobe_log_item_find_index (item));
  self->selecting = FALSE;
}

static GtkWidget *
inner_list_view (StrobeGroupLogPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

guint
strobe_group_log_page_show_message (StrobeGroupLogPage *self, guint member, guint64 index)
{
  gboolean exact = FALSE;
  guint pos, row;
  GtkWidget *list_view;

  g_return_val_if_fail (STROBE_IS_GROUP_LOG_PAGE (self), G_MAXUINT);
  g_return_val_if_fail (member < self->members->len, G_MAXUINT);
  pos = strobe_log_list_find_index (strobe_group_log_get_list (self->log, member), index, &exact);
  if (pos == G_MAXUINT || !exact || (row = strobe_group_log_find_item (self->log, member, pos)) == G_MAXUINT)
    return G_MAXUINT;   /* hidden by the filters, or not read yet */
  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, row);
  self->selecting = FALSE;
  if ((list_view = inner_list_view (self)) != NULL)
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", row);
  return row;
}

/* A message selected in another view of a process (a log tick of its timeline): selected
 * and shown here too. */
static void
state_message_cb (StrobeViewState *state, GParamSpec *pspec, StrobeGroupLogPage *self)
{
  guint64 index = strobe_view_state_get_selected_message (state);

  if (self->selecting || index == STROBE_VIEW_STATE_NONE)
    return;
  for (guint k = 0; k < self->members->len; k++)
    if (page_member (self, k)->state == state)
      strobe_group_log_page_show_message (self, k, index);
}

static void
update_threads (PageMember *m)
{
  StrobeThreadsModel *threads = strobe_document_get_threads (m->document);
  g_autoptr(GArray) list = threads ? strobe_threads_model_get_threads (threads) : NULL;

  g_hash_table_remove_all (m->thread_labels);
  for (guint i = 0; list && i < list->len; i++)
    {
      const StrobeThreadInfo *t = &g_array_index (list, StrobeThreadInfo, i);

      if (*t->name)
        g_hash_table_insert (m->thread_labels, GUINT_TO_POINTER (t->id), strobe_text_escape (t->name, STROBE_TEXT_PLAIN));
    }
}

void
strobe_group_log_page_add_member (StrobeGroupLogPage *self, StrobeDocument *document, StrobeViewState *state,
                                  const char *label)
{
  PageMember *m;
  g_autoptr(StrobeLogList) list = NULL;
  StrobeLogModel *model;

  g_return_if_fail (STROBE_IS_GROUP_LOG_PAGE (self));
  model = strobe_document_get_log (document);
  g_return_if_fail (model != NULL);

  m = g_new0 (PageMember, 1);
  m->document = g_object_ref (document);
  m->state = g_object_ref (state);
  m->label = strobe_text_escape (label, STROBE_TEXT_PLAIN);
  m->thread_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_ptr_array_add (self->members, m);
  g_signal_connect_object (state, "notify::selected-message", G_CALLBACK (state_message_cb), self, 0);
  list = strobe_log_list_new (model);
  g_signal_connect_swapped (list, "notify::filtering", G_CALLBACK (update_count), self);
  strobe_group_log_add (self->log, document, list);
  self->filling = TRUE;
  gtk_string_list_append (self->process_names, m->label);
  self->filling = FALSE;
  /* The filter bar as it is, for the newcomer too. */
  filters_changed_cb (self);
  process_changed_cb (self);
}

void
strobe_group_log_page_set_label (StrobeGroupLogPage *self, guint member, const char *label)
{
  PageMember *m;
  g_autofree char *escaped = NULL;
  guint selected;

  g_return_if_fail (STROBE_IS_GROUP_LOG_PAGE (self));
  g_return_if_fail (member < self->members->len);
  m = page_member (self, member);
  escaped = strobe_text_escape (label, STROBE_TEXT_PLAIN);
  if (g_strcmp0 (escaped, m->label) == 0)
    return;
  g_free (m->label);
  m->label = g_steal_pointer (&escaped);
  selected = gtk_drop_down_get_selected (self->process_dropdown);
  self->filling = TRUE;
  gtk_string_list_splice (self->process_names, member + 1, 1, (const char *const[]) { m->label, NULL });
  gtk_drop_down_set_selected (self->process_dropdown, selected);
  self->filling = FALSE;
}

void
strobe_group_log_page_document_changed (StrobeGroupLogPage *self, guint member, StrobeDocumentChanges changes)
{
  g_return_if_fail (STROBE_IS_GROUP_LOG_PAGE (self));
  g_return_if_fail (member < self->members->len);
  /* Names before rows: new rows are bound as the list grows. */
  if (changes & (STROBE_DOCUMENT_CHANGED_THREADS | STROBE_DOCUMENT_CHANGED_LOG))
    update_threads (page_member (self, member));
  strobe_group_log_clocks_changed (self->log);
  if (changes & STROBE_DOCUMENT_CHANGED_LOG)
    strobe_log_list_update (strobe_group_log_get_list (self->log, member));
  update_count (self);
}

void
strobe_group_log_page_selection_changed (StrobeGroupLogPage *self)
{
  g_return_if_fail (STROBE_IS_GROUP_LOG_PAGE (self));
  if (gtk_toggle_button_get_active (self->range_button))
    filters_changed_cb (self);
}

StrobeGroupLog *
strobe_group_log_page_get_log (StrobeGroupLogPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG_PAGE (self), NULL);
  return self->log;
}

GtkColumnView *
strobe_group_log_page_get_column_view (StrobeGroupLogPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG_PAGE (self), NULL);
  return self->column_view;
}

gboolean
strobe_group_log_page_is_filtering (StrobeGroupLogPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_LOG_PAGE (self), FALSE);
  for (guint k = 0; k < self->members->len; k++)
    if (strobe_log_list_is_filtering (strobe_group_log_get_list (self->log, k)))
      return TRUE;
  return FALSE;
}

static void
strobe_group_log_page_dispose (GObject *object)
{
  StrobeGroupLogPage *self = STROBE_GROUP_LOG_PAGE (object);

  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_GROUP_LOG_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (strobe_group_log_page_parent_class)->dispose (object);
}

static void
strobe_group_log_page_finalize (GObject *object)
{
  StrobeGroupLogPage *self = STROBE_GROUP_LOG_PAGE (object);

  g_clear_object (&self->log);
  g_ptr_array_unref (self->members);
  strobe_log_cells_clear (&self->cells);
  G_OBJECT_CLASS (strobe_group_log_page_parent_class)->finalize (object);
}

static void
strobe_group_log_page_class_init (StrobeGroupLogPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_group_log_page_dispose;
  object_class->finalize = strobe_group_log_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/group/strobe-group-log-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, process_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, process_names);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, verbosity_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, range_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupLogPage, count_label);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, process_changed_cb);
}

static void
strobe_group_log_page_init (StrobeGroupLogPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->members = g_ptr_array_new_with_free_func (page_member_free);
  self->log = strobe_group_log_new ();
  self->filling = TRUE;
  /* Translators: the Process filter of a group's log: every process's messages */
  gtk_string_list_append (self->process_names, _("All Processes"));
  gtk_drop_down_set_selected (self->process_dropdown, 0);
  self->filling = FALSE;
  strobe_a11y_name_drop_down (self->process_dropdown, _("Process"));
  strobe_a11y_name_drop_down (self->verbosity_dropdown, _("Verbosity"));
  strobe_log_cells_init (&self->cells);
  self->cells.source = item_source_cb;
  self->cells.source_data = self;
  strobe_log_cells_add_columns (&self->cells, self->column_view);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->log)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->log, "items-changed", G_CALLBACK (update_count), self);
}

GtkWidget *
strobe_group_log_page_new (void)
{
  return g_object_new (STROBE_TYPE_GROUP_LOG_PAGE, NULL);
}
