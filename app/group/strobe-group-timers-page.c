/* strobe-group-timers-page.c — a group tab's Timers page.
 *
 * One worker pass computes every process's statistics over the group's range (each in its
 * own ticks); what comes back is kept, so "By Process" regroups the same figures at once.
 * Timers of several processes are the same timer when their names are: a client's and a
 * server's "Serialize" add up in the timer row, each one's share is its process's row.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-group-timers-page.h"
#include "strobe-timer-stats.h"

#define RECOMPUTE_MS 1000   /* a growing group's statistics at most this often */

/* ---- the rows ---------------------------------------------------------------------------- */

struct _StrobeGroupTimerRow
{
  GObject     parent_instance;
  char       *name;
  guint       member;
  guint64     count;
  gdouble     inclusive, exclusive, max;
  GListStore *children;
};

G_DEFINE_FINAL_TYPE (StrobeGroupTimerRow, strobe_group_timer_row, G_TYPE_OBJECT)

static void
strobe_group_timer_row_finalize (GObject *object)
{
  StrobeGroupTimerRow *self = STROBE_GROUP_TIMER_ROW (object);

  g_free (self->name);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (strobe_group_timer_row_parent_class)->finalize (object);
}

static void
strobe_group_timer_row_class_init (StrobeGroupTimerRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_group_timer_row_finalize;
}

static void
strobe_group_timer_row_init (StrobeGroupTimerRow *self)
{
}

static StrobeGroupTimerRow *
row_new (const char *name, guint member)
{
  StrobeGroupTimerRow *row = g_object_new (STROBE_TYPE_GROUP_TIMER_ROW, NULL);

  row->name = g_strdup (name);
  row->member = member;
  return row;
}

static void
row_add_child (StrobeGroupTimerRow *row, StrobeGroupTimerRow *child)
{
  if (row->children == NULL)
    row->children = g_list_store_new (STROBE_TYPE_GROUP_TIMER_ROW);
  g_list_store_append (row->children, child);
}

const char *strobe_group_timer_row_get_name (StrobeGroupTimerRow *self) { return self->name; }
guint strobe_group_timer_row_get_member (StrobeGroupTimerRow *self) { return self->member; }
guint64 strobe_group_timer_row_get_count (StrobeGroupTimerRow *self) { return self->count; }
gdouble strobe_group_timer_row_get_inclusive (StrobeGroupTimerRow *self) { return self->inclusive; }
gdouble strobe_group_timer_row_get_exclusive (StrobeGroupTimerRow *self) { return self->exclusive; }
gdouble strobe_group_timer_row_get_max (StrobeGroupTimerRow *self) { return self->max; }

GListModel *
strobe_group_timer_row_get_children (StrobeGroupTimerRow *self)
{
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

static int
by_inclusive (gconstpointer a, gconstpointer b, gpointer data)
{
  const StrobeGroupTimerRow *x = a, *y = b;

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* The same for a GPtrArray's elements (GLib 2.74 gives their addresses). */
static int
by_inclusive_ptr (gconstpointer a, gconstpointer b, gpointer data)
{
  return by_inclusive (*(gconstpointer const *) a, *(gconstpointer const *) b, data);
}

/* ---- the page ------------------------------------------------------------------------------ */

typedef struct
{
  StrobeDocument  *document;
  StrobeViewState *state;
  char            *label;
} PageMember;

/* A pass over every member: its inputs, then its answers (one GArray of StrobeTimerStat
 * per member, and the clock its ticks are of). */
typedef struct
{
  GPtrArray        *models;     /* StrobeTimelineModel (a ref each) */
  GArray           *ranges;     /* guint64 pairs */
  GPtrArray        *stats;      /* GArray of StrobeTimerStat */
} Pass;

struct _StrobeGroupTimersPage
{
  GtkWidget         parent_instance;

  GtkToggleButton  *by_process_button;
  GtkColumnView    *column_view;
  GtkLabel         *status_label;

  GPtrArray        *members;      /* PageMember */
  GListStore       *rows;         /* the top rows */
  GtkTreeListModel *tree;
  GPtrArray        *stats;        /* the last pass's answers, per member */
  GArray           *clocks;       /* StrobeTraceClock of them */
  GCancellable     *cancellable;  /* the pass running; NULL when none */
  guint             source;
  gboolean          due;
};

G_DEFINE_FINAL_TYPE (StrobeGroupTimersPage, strobe_group_timers_page, GTK_TYPE_WIDGET)

static PageMember *
page_member (StrobeGroupTimersPage *self, guint i)
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
  g_free (m);
}

static void
pass_free (Pass *pass)
{
  g_ptr_array_unref (pass->models);
  g_array_unref (pass->ranges);
  g_clear_pointer (&pass->stats, g_ptr_array_unref);
  g_free (pass);
}

static void
stat_array_unref (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

static void
pass_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Pass *pass = data;

  pass->stats = g_ptr_array_new_with_free_func (stat_array_unref);
  for (guint i = 0; i < pass->models->len; i++)
    {
      GError *error = NULL;
      StrobeTimelineModel *model = g_ptr_array_index (pass->models, i);
      GArray *stats = model == NULL ? NULL
                        : strobe_timer_stats_compute_full (model, g_array_index (pass->ranges, guint64, 2 * i),
                                                           g_array_index (pass->ranges, guint64, 2 * i + 1),
                                                           STROBE_TIMER_STATS_ALL_THREADS, cancellable, &error);

      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (pass->stats, stats);
    }
  g_task_return_boolean (task, TRUE);
}

/* The last answers as rows: timers with their processes, or processes with their timers. */
static void
fill_rows (StrobeGroupTimersPage *self)
{
  gboolean by_process = gtk_toggle_button_get_active (self->by_process_button);
  g_autoptr(GHashTable) timers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  g_autoptr(GPtrArray) top = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; self->stats != NULL && i < self->stats->len && i < self->members->len; i++)
    {
      GArray *stats = g_ptr_array_index (self->stats, i);
      const StrobeTraceClock *clock = &g_array_index (self->clocks, StrobeTraceClock, i);
      StrobeGroupTimerRow *process = by_process ? row_new (page_member (self, i)->label, i) : NULL;

      for (guint k = 0; stats != NULL && k < stats->len; k++)
        {
          const StrobeTimerStat *st = &g_array_index (stats, StrobeTimerStat, k);
          g_autoptr(StrobeGroupTimerRow) leaf = row_new (by_process ? st->name : page_member (self, i)->label, i);
          StrobeGroupTimerRow *parent;

          leaf->count = st->count;
          leaf->inclusive = strobe_trace_clock_duration (clock, st->inclusive);
          leaf->exclusive = strobe_trace_clock_duration (clock, st->exclusive);
          leaf->max = strobe_trace_clock_duration (clock, st->max);
          if (by_process)
            {
              parent = process;
              parent->inclusive += leaf->exclusive;
            }
          else
            {
              if ((parent = g_hash_table_lookup (timers, st->name)) == NULL)
                {
                  parent = row_new (st->name, G_MAXUINT);
                  g_hash_table_insert (timers, parent->name, parent);
                  g_ptr_array_add (top, g_object_ref (parent));
                }
              parent->inclusive += leaf->inclusive;
            }
          parent->count += leaf->count;
          parent->exclusive += leaf->exclusive;
          parent->max = MAX (parent->max, leaf->max);
          row_add_child (parent, leaf);
        }
      if (process != NULL)
        g_ptr_array_add (top, process);
    }
  for (guint i = 0; i < top->len; i++)
    {
      StrobeGroupTimerRow *row = g_ptr_array_index (top, i);

      if (row->children != NULL)
        g_list_store_sort (row->children, by_inclusive, NULL);
    }
  g_ptr_array_sort_with_data (top, by_inclusive_ptr, NULL);
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)), top->pdata, top->len);
}

static void start_pass (StrobeGroupTimersPage *self);

static void
pass_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  StrobeGroupTimersPage *self = STROBE_GROUP_TIMERS_PAGE (source);
  Pass *pass = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* Cancelled, or overtaken: another pass is under way, or the page is gone. */
  if (!g_task_propagate_boolean (G_TASK (result), &error) || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stats, g_ptr_array_unref);
  self->stats = g_steal_pointer (&pass->stats);
  fill_rows (self);
  gtk_label_set_text (self->status_label, "");
  if (self->due)
    start_pass (self);
}

static void
start_pass (StrobeGroupTimersPage *self)
{
  Pass *pass = g_new0 (Pass, 1);
  g_autoptr(GTask) task = NULL;

  self->due = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  pass->models = g_ptr_array_new_with_free_func ((GDestroyNotify) g_object_unref);
  pass->ranges = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_set_size (self->clocks, self->members->len);
  for (guint i = 0; i < self->members->len; i++)
    {
      PageMember *m = page_member (self, i);
      StrobeTimelineModel *model = strobe_document_get_timeline (m->document);
      guint64 range[2] = { 0, G_MAXUINT64 };

      /* The group's selection is in every process's state, in its own ticks. */
      strobe_view_state_get_selection (m->state, &range[0], &range[1]);
      g_ptr_array_add (pass->models, model ? g_object_ref (model) : NULL);
      g_array_append_vals (pass->ranges, range, 2);
      strobe_document_get_clock (m->document, &g_array_index (self->clocks, StrobeTraceClock, i));
    }
  /* Translators: the group's Timers page while the statistics are worked out */
  gtk_label_set_text (self->status_label, _("Computing the timers…"));
  task = g_task_new (self, self->cancellable, pass_done_cb, NULL);
  g_task_set_task_data (task, pass, (GDestroyNotify) pass_free);
  g_task_run_in_thread (task, pass_thread);
}

static gboolean
recompute_cb (gpointer data)
{
  StrobeGroupTimersPage *self = data;

  self->source = 0;
  if (!self->due)
    return G_SOURCE_REMOVE;
  /* Hidden, it waits until shown (map_cb). */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_pass (self);
  return G_SOURCE_REMOVE;
}

void
strobe_group_timers_page_invalidate (StrobeGroupTimersPage *self)
{
  g_return_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self));
  self->due = TRUE;
  if (self->source == 0)
    self->source = g_timeout_add (self->stats == NULL ? 50 : RECOMPUTE_MS, recompute_cb, self);
}

static void
map_cb (StrobeGroupTimersPage *self)
{
  if (self->due && self->source == 0)
    start_pass (self);
}

void
strobe_group_timers_page_set_by_process (StrobeGroupTimersPage *self, gboolean by_process)
{
  g_return_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self));
  gtk_toggle_button_set_active (self->by_process_button, by_process);
}

static void
by_process_toggled_cb (StrobeGroupTimersPage *self)
{
  fill_rows (self);
}

GListModel *
strobe_group_timers_page_get_rows (StrobeGroupTimersPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self), NULL);
  return G_LIST_MODEL (self->rows);
}

gboolean
strobe_group_timers_page_is_busy (StrobeGroupTimersPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self), FALSE);
  return self->due || self->cancellable != NULL;
}

GtkColumnView *
strobe_group_timers_page_get_column_view (StrobeGroupTimersPage *self)
{
  g_return_val_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self), NULL);
  return self->column_view;
}

void
strobe_group_timers_page_add_member (StrobeGroupTimersPage *self, StrobeDocument *document, StrobeViewState *state,
                                     const char *label)
{
  PageMember *m;

  g_return_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self));
  m = g_new0 (PageMember, 1);
  m->document = g_object_ref (document);
  m->state = g_object_ref (state);
  m->label = g_strdup (label);
  g_ptr_array_add (self->members, m);
  strobe_group_timers_page_invalidate (self);
}

void
strobe_group_timers_page_set_label (StrobeGroupTimersPage *self, guint member, const char *label)
{
  PageMember *m;

  g_return_if_fail (STROBE_IS_GROUP_TIMERS_PAGE (self));
  g_return_if_fail (member < self->members->len);
  m = page_member (self, member);
  if (g_strcmp0 (m->label, label) == 0)
    return;
  g_free (m->label);
  m->label = g_strdup (label);
  fill_rows (self);
}

/* ---- the table ----------------------------------------------------------------------------- */

typedef enum { COL_NAME, COL_COUNT, COL_INCLUSIVE, COL_EXCLUSIVE, COL_MAX, N_COLUMNS } Column;

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  GtkWidget *label = gtk_label_new (NULL);

  if (col == COL_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
      return;
    }
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  StrobeGroupTimerRow *row = tree_row ? gtk_tree_list_row_get_item (tree_row) : NULL;
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  switch (col)
    {
    case COL_NAME:
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      gtk_label_set_text (GTK_LABEL (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child))), row->name);
      break;
    case COL_COUNT:
      text = strobe_format_count (row->count);
      break;
    case COL_INCLUSIVE:
      text = strobe_format_duration_s (row->inclusive);
      break;
    case COL_EXCLUSIVE:
      text = strobe_format_duration_s (row->exclusive);
      break;
    case COL_MAX:
    case N_COLUMNS:
    default:
      text = strobe_format_duration_s (row->max);
      break;
    }
  if (text != NULL)
    gtk_label_set_text (GTK_LABEL (child), text);
  g_object_unref (row);
}

static GListModel *
children_cb (gpointer item, gpointer data)
{
  GListModel *children = strobe_group_timer_row_get_children (item);

  return children ? g_object_ref (children) : NULL;
}

static void
add_columns (StrobeGroupTimersPage *self)
{
  static const char *const titles[N_COLUMNS] = {
    N_("Name"), N_("Count"), N_("Inclusive"), N_("Exclusive"), N_("Max"),
  };

  for (int c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "strobe-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COL_NAME);
      if (c != COL_NAME)
        gtk_column_view_column_set_fixed_width (column, 110);
      gtk_column_view_append_column (self->column_view, column);
    }
}

static void
strobe_group_timers_page_dispose (GObject *object)
{
  StrobeGroupTimersPage *self = STROBE_GROUP_TIMERS_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->source, g_source_remove);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_GROUP_TIMERS_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->tree);
  G_OBJECT_CLASS (strobe_group_timers_page_parent_class)->dispose (object);
}

static void
strobe_group_timers_page_finalize (GObject *object)
{
  StrobeGroupTimersPage *self = STROBE_GROUP_TIMERS_PAGE (object);

  g_ptr_array_unref (self->members);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->stats, g_ptr_array_unref);
  g_array_unref (self->clocks);
  G_OBJECT_CLASS (strobe_group_timers_page_parent_class)->finalize (object);
}

static void
strobe_group_timers_page_class_init (StrobeGroupTimersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_group_timers_page_dispose;
  object_class->finalize = strobe_group_timers_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/group/strobe-group-timers-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupTimersPage, by_process_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupTimersPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupTimersPage, status_label);
  gtk_widget_class_bind_template_callback (widget_class, by_process_toggled_cb);
}

static void
strobe_group_timers_page_init (StrobeGroupTimersPage *self)
{
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Its accessible name says what the toggle does, not its mnemonic label twice. */
  strobe_a11y_set_name (GTK_WIDGET (self->by_process_button), _("Group the timers by process"));
  self->members = g_ptr_array_new_with_free_func (page_member_free);
  self->clocks = g_array_new (FALSE, TRUE, sizeof (StrobeTraceClock));
  self->rows = g_list_store_new (STROBE_TYPE_GROUP_TIMER_ROW);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)), FALSE, FALSE, children_cb, NULL,
                                        NULL);
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->tree)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  add_columns (self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
}

GtkWidget *
strobe_group_timers_page_new (void)
{
  return g_object_new (STROBE_TYPE_GROUP_TIMERS_PAGE, NULL);
}
