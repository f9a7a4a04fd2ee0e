/* strobe-memory-queries.c
 *
 * One job runs the selection, sorts it in the table's order, groups it and names the
 * first rows' top frames (so the symbolizer's files are open before the table asks), all
 * in its thread; the main thread only swaps the answer in.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-memory-alloc-rows.h"
#include "strobe-memory-items.h"
#include "strobe-memory-job.h"
#include "strobe-memory-queries.h"
#include "strobe-memory-sort.h"
#include "strobe-panes.h"
#include "strobe-table.h"

#define WARM_ROWS 64
#define ADDRESS_WIDTH 130

typedef enum
{
  COL_ADDRESS,
  COL_SIZE,
  COL_TAG,
  COL_HEAP,
  COL_THREAD,
  COL_ALLOC,
  COL_FREE,
  COL_FRAME,
  N_COLUMNS
} Column;

static const StrobeMemoryField column_field[N_COLUMNS] = {
  [COL_ADDRESS] = STROBE_MEMORY_FIELD_ADDRESS,
  [COL_SIZE] = STROBE_MEMORY_FIELD_SIZE,
  [COL_TAG] = STROBE_MEMORY_FIELD_TAG,
  [COL_HEAP] = STROBE_MEMORY_FIELD_HEAP,
  [COL_THREAD] = STROBE_MEMORY_FIELD_THREAD,
  [COL_ALLOC] = STROBE_MEMORY_FIELD_ALLOC_TIME,
  [COL_FREE] = STROBE_MEMORY_FIELD_FREE_TIME,
  [COL_FRAME] = STROBE_MEMORY_FIELD_STACK,
};

static const struct { const char *name; const char *description; StrobeMemorySelect kind; guint markers; } kinds[] = {
  /* markers: bit 0 A, bit 1 B, bit 2 C, bit 3 the lifetime */
  { N_("Leaks"), N_("The allocations never freed (by the end of what was read)."), STROBE_MEMORY_SELECT_LEAKS, 0 },
  { N_("Live at A"), N_("The allocations live at marker A: made before it, freed after it or never."),
    STROBE_MEMORY_SELECT_LIVE_AT, 1 },
  { N_("Allocated A–B"), N_("The allocations made between markers A and B."), STROBE_MEMORY_SELECT_ALLOCATED, 3 },
  { N_("Growth A–B, live at C"), N_("The allocations made between A and B and still live at C: what a phase left behind."),
    STROBE_MEMORY_SELECT_ALLOCATED_LIVE, 7 },
  { N_("Freed A–B"), N_("The allocations freed between markers A and B."), STROBE_MEMORY_SELECT_FREED, 3 },
  { N_("Short-lived A–B"), N_("The allocations made between A and B and freed within the lifetime."),
    STROBE_MEMORY_SELECT_SHORT_LIVED, 11 },
  { N_("Long-lived A–B"), N_("The allocations made between A and B that lived longer than the lifetime, or were never freed."),
    STROBE_MEMORY_SELECT_LONG_LIVED, 11 },
};

static const struct { const char *name; int by; } groupings[] = {
  { N_("No Grouping"), STROBE_MEMORY_QUERIES_NO_GROUPS },
  { N_("By Tag"), STROBE_MEMORY_BY_TAG },
  { N_("By Heap"), STROBE_MEMORY_BY_HEAP },
  { N_("By Size"), STROBE_MEMORY_BY_SIZE },
  { N_("By Thread"), STROBE_MEMORY_BY_THREAD },
  { N_("By Function"), STROBE_MEMORY_BY_FUNCTION },
  { N_("By Call Stack"), STROBE_MEMORY_BY_STACK },
};

/* ---- the job's answer --------------------------------------------------------------------- */

#define ANSWER_TYPE (answer_get_type ())
G_DECLARE_FINAL_TYPE (Answer, answer, STROBE, MEMORY_QUERY_ANSWER, GObject)

struct _Answer
{
  GObject                parent_instance;
  StrobeMemoryAllocList *list;
  StrobeMemoryAggregate *groups;   /* NULL: not grouped */
  int                    by;
  StrobeMemorySelect     kind;     /* the query that listed it */
  char                  *unsorted; /* why the list is not in the table's order, or NULL */
};

G_DEFINE_FINAL_TYPE (Answer, answer, G_TYPE_OBJECT)

static void
answer_finalize (GObject *object)
{
  Answer *self = (Answer *) object;

  g_clear_object (&self->list);
  g_clear_object (&self->groups);
  g_free (self->unsorted);
  G_OBJECT_CLASS (answer_parent_class)->finalize (object);
}

static void
answer_class_init (AnswerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = answer_finalize;
}

static void
answer_init (Answer *self)
{
}

typedef struct
{
  StrobeMemoryNames    *names;
  StrobeMemoryModel    *model;
  StrobeSymbolizer     *symbolizer;
  StrobeMemorySelection selection;
  StrobeMemoryField     sort;
  gboolean              descending;
  int                   by;
  /* Set when the answer shown is grouped another way: its rows, in their order. */
  Answer               *again;
} Task;

static void
task_free (gpointer data)
{
  Task *t = data;

  g_clear_object (&t->names);
  g_clear_object (&t->model);
  g_clear_object (&t->symbolizer);
  g_clear_object (&t->again);
  g_free (t);
}

static GObject *
query_thread (gpointer data, GCancellable *cancellable, StrobeMemoryProgressFunc progress, gpointer progress_data,
              GError **error)
{
  Task *t = data;
  g_autoptr (Answer) answer = g_object_new (ANSWER_TYPE, NULL);
  StrobeMemoryAlloc rows[WARM_ROWS];
  g_autoptr (GError) sort_error = NULL;
  guint n;

  answer->by = t->by;
  answer->kind = t->again != NULL ? t->again->kind : t->selection.kind;
  if (t->again != NULL)
    {
      answer->list = g_object_ref (t->again->list);
      answer->unsorted = g_strdup (t->again->unsorted);
    }
  else
    {
      answer->list = strobe_memory_model_select (t->model, &t->selection, cancellable, progress, progress_data, error);
      if (answer->list == NULL)
        return NULL;
      /* An answer too big to sort here is still shown, in its own order, saying so. */
      if ((t->sort != STROBE_MEMORY_FIELD_INDEX || t->descending)
          && !strobe_memory_alloc_list_sort (answer->list, t->sort, t->descending, &sort_error))
        answer->unsorted = g_strdup (sort_error->message);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (t->by != STROBE_MEMORY_QUERIES_NO_GROUPS)
    {
      answer->groups = strobe_memory_alloc_list_group (answer->list, t->model, (StrobeMemoryGroupBy) t->by,
                                                       strobe_memory_symbolizer_frame_func, t->symbolizer,
                                                       cancellable, error);
      if (answer->groups == NULL)
        return NULL;
    }
  /* The first rows' top frames, looked up here rather than by the table. */
  n = strobe_memory_alloc_list_get_items (answer->list, 0, WARM_ROWS, rows, NULL);
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryFrame frame;

      if (rows[i].callstack && strobe_memory_model_get_frames (t->model, rows[i].callstack, &frame, 1) == 1)
        strobe_symbolizer_lookup (t->symbolizer, frame.module, frame.address);
    }
  return G_OBJECT (g_steal_pointer (&answer));
}

/* ---- the widget --------------------------------------------------------------------------- */

struct _StrobeMemoryQueries
{
  GtkWidget              parent_instance;

  StrobeMemoryNames     *names;
  StrobeTimeAxis        *axis;
  StrobeViewState       *state;              /* the axis's */
  gboolean               has_trace;
  guint64                markers[3];
  guint64                lifetime;

  GtkWidget             *box;
  GtkWidget             *controls;
  GtkDropDown           *kind_dropdown;
  GtkDropDown           *group_dropdown;
  GtkWidget             *marker_box[3];
  GtkEntry              *marker_entry[3];
  GtkWidget             *lifetime_box;
  GtkEntry              *lifetime_entry;
  GtkLabel              *description;
  GtkWidget             *selection_button;
  GtkWidget             *run_button;
  GtkWidget             *cancel_button;
  GtkProgressBar        *progress;
  GtkLabel              *totals;
  GtkLabel              *notice;
  GtkWidget             *paned;
  GtkWidget             *groups_scroller;
  GtkColumnView         *groups_view;
  GListStore            *groups_store;
  GtkSingleSelection    *groups_selection;
  GtkWidget             *table_scroller;
  GtkColumnView         *table;
  StrobeMemoryAllocRows *rows;
  GtkSingleSelection    *selection;

  StrobeMemoryJob       *job;
  StrobeMemoryJob       *group_job;          /* the selected group's allocations */
  Answer                *answer;
  gboolean               syncing;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryQueries, strobe_memory_queries, GTK_TYPE_WIDGET)

enum
{
  SHOW_ALLOCATION,
  SHOW_GROUP,
  MARKERS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- cells ---------------------------------------------------------------------------------- */

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          StrobeMemoryQueries      *self)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  gboolean numeric = col == COL_SIZE || col == COL_ALLOC || col == COL_FREE || col == COL_ADDRESS;
  GtkWidget *cell = strobe_table_cell_new (col == COL_FRAME ? 30 : 10, 2, numeric);

  if (col == COL_ADDRESS || col == COL_FRAME)
    gtk_widget_add_css_class (cell, "monospace");
  gtk_list_item_set_child (list_item, cell);
}

/* The axis's clock; before there is one, a 1 GHz clock from 0. */
static void
get_clock (StrobeMemoryQueries *self, StrobeTraceClock *clock)
{
  if (self->axis != NULL)
    strobe_time_axis_get_clock (self->axis, clock);
  else
    strobe_trace_clock_init (clock, NULL);
}

static char *
time_text (StrobeMemoryQueries *self, guint64 t)
{
  StrobeTraceClock clock;
  g_autofree char *s = NULL;

  get_clock (self, &clock);
  s = g_strdup_printf ("%.6f", strobe_trace_clock_to_seconds (&clock, t));

  return g_strdup (s);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         StrobeMemoryQueries      *self)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  StrobeMemoryAllocItem *item = gtk_list_item_get_item (list_item);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (list_item));
  const StrobeMemoryAlloc *r;
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  r = strobe_memory_alloc_item_get_record (item);
  switch (col)
    {
    case COL_ADDRESS:
      text = r->address ? g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", r->address) : g_strdup ("—");
      break;
    case COL_SIZE:
      text = strobe_format_count (r->size);
      break;
    case COL_TAG:
      text = strobe_memory_names_tag (self->names, r->tag);
      break;
    case COL_HEAP:
      text = strobe_memory_names_heap (self->names, r->heap);
      break;
    case COL_THREAD:
      text = strobe_memory_names_thread (self->names, r->thread_id);
      break;
    case COL_ALLOC:
      text = time_text (self, r->alloc_time);
      break;
    case COL_FREE:
      text = r->free_time == STROBE_MEMORY_LIVE ? g_strdup ("—") : time_text (self, r->free_time);
      break;
    case COL_FRAME:
      text = strobe_memory_names_stack_top (self->names, r->callstack);
      break;
    case N_COLUMNS:
    default:
      break;
    }
  gtk_inscription_set_text (cell, text);
}

static void
add_columns (StrobeMemoryQueries *self)
{
  static const struct { const char *title; int width; } columns[N_COLUMNS] = {
    [COL_ADDRESS] = { N_("Address"), ADDRESS_WIDTH },
    [COL_SIZE] = { N_("Size (bytes)"), 100 },
    [COL_TAG] = { N_("Tag"), 110 },
    [COL_HEAP] = { N_("Heap"), 90 },
    [COL_THREAD] = { N_("Thread"), 100 },
    [COL_ALLOC] = { N_("Allocated (s)"), 110 },
    [COL_FREE] = { N_("Freed (s)"), 110 },
    [COL_FRAME] = { N_("Top Frame"), -1 },
  };

  for (int c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr (GtkColumnViewColumn) column = NULL;
      g_autoptr (GtkSorter) sorter = strobe_memory_sort_new_column_sorter ((int) column_field[c]);

      g_object_set_data (G_OBJECT (factory), "strobe-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
      column = gtk_column_view_column_new (_(columns[c].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_sorter (column, sorter);
      /* Until an answer has addresses (update_address_column). */
      gtk_column_view_column_set_visible (column, c != COL_ADDRESS);
      if (c == COL_ADDRESS)
        gtk_column_view_column_set_fixed_width (column, 0);
      else if (columns[c].width > 0)
        gtk_column_view_column_set_fixed_width (column, columns[c].width);
      else
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->table, column);
    }
}

/* ---- the groups table ------------------------------------------------------------------------ */

STROBE_MEMORY_COUNT_TEXT (group_count_text, allocations, FALSE)
STROBE_MEMORY_COUNT_TEXT (group_bytes_text, bytes_allocated, FALSE)
STROBE_MEMORY_COUNT_TEXT (group_live_text, leaked_count, FALSE)
STROBE_MEMORY_COUNT_TEXT (group_live_bytes_text, leaked_bytes, FALSE)
STROBE_MEMORY_COST_COMPARE (group_compare_count, STROBE_MEMORY_COST_ALLOCATIONS, FALSE)
STROBE_MEMORY_COST_COMPARE (group_compare_bytes, STROBE_MEMORY_COST_BYTES, FALSE)
STROBE_MEMORY_COST_COMPARE (group_compare_live_bytes, STROBE_MEMORY_COST_LEAKED, FALSE)

enum { GROUP_COL_LEAKED = 3, GROUP_COL_LEAKED_BYTES = 4 };  /* in group_columns */

static const StrobeTableColumn group_columns[] = {
  { N_("Group"), strobe_memory_cost_item_name_text, strobe_memory_cost_item_compare_name, 32, FALSE, TRUE, NULL },
  { N_("Allocations"), group_count_text, group_compare_count, 10, TRUE, FALSE, NULL },
  { N_("Bytes"), group_bytes_text, group_compare_bytes, 12, TRUE, FALSE, NULL },
  { N_("Never Freed"), group_live_text, strobe_memory_cost_item_compare_leaked_count, 9, TRUE, FALSE, NULL },
  { N_("Never Freed (bytes)"), group_live_bytes_text, group_compare_live_bytes, 12, TRUE, FALSE, NULL },
};

/* Whether the column's visibility changed. */
static gboolean
set_column_visible (GtkColumnView *view, guint index, gboolean visible)
{
  g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (view), index);

  if (gtk_column_view_column_get_visible (column) == visible)
    return FALSE;
  gtk_column_view_column_set_visible (column, visible);
  return TRUE;
}

static void
fill_groups (StrobeMemoryQueries *self)
{
  StrobeMemoryAggregate *agg = self->answer ? self->answer->groups : NULL;
  gboolean leaks = self->answer != NULL && self->answer->kind == STROBE_MEMORY_SELECT_LEAKS, columns_changed;
  guint n = agg ? strobe_memory_aggregate_get_n_rows (agg) : 0;
  g_autofree StrobeMemoryRow *rows = g_new0 (StrobeMemoryRow, MAX (n, 1));
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (n)
    strobe_memory_aggregate_get_rows (agg, 0, n, rows);
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryCostData d = { 0 };

      d.by = (StrobeMemoryGroupBy) self->answer->by;
      d.key = rows[i].key;
      d.frame = rows[i].frame;
      d.node = G_MAXUINT32;
      d.inclusive = rows[i].costs;
      g_ptr_array_add (items, strobe_memory_cost_item_new (&d, self->names, NULL));
    }
  g_list_store_splice (self->groups_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->groups_store)),
                       items->pdata, items->len);
  /* Every allocation of a leaks answer was never freed: those two columns would repeat
   * the two before them, and take the width the groups' names need. */
  columns_changed = set_column_visible (self->groups_view, GROUP_COL_LEAKED, !leaks)
                    | set_column_visible (self->groups_view, GROUP_COL_LEAKED_BYTES, !leaks);
  if (agg != NULL && (!gtk_widget_get_visible (self->groups_scroller) || columns_changed))
    {
      int nat = 0;

      /* As wide as its columns want (up to 3/4 of the page: grouped, the groups come first
       * and the allocations beside them scroll): a group's name is what tells
       * the rows apart, cut to "python…" it tells nothing. */
      gtk_widget_measure (GTK_WIDGET (self->groups_view), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
      gtk_paned_set_position (GTK_PANED (self->paned),
                              CLAMP (nat + 16, 380, MAX (380, gtk_widget_get_width (self->paned) * 3 / 4)));
    }
  gtk_widget_set_visible (self->groups_scroller, agg != NULL);
}

typedef struct
{
  StrobeMemoryAllocList *list;
  StrobeMemoryModel     *model;
  StrobeSymbolizer      *symbolizer;
  StrobeMemoryGroupBy    by;
  guint64                key;
} GroupTask;

static void
group_task_free (gpointer data)
{
  GroupTask *t = data;

  g_clear_object (&t->list);
  g_clear_object (&t->model);
  g_clear_object (&t->symbolizer);
  g_free (t);
}

static GObject *
group_thread (gpointer data, GCancellable *cancellable, StrobeMemoryProgressFunc progress, gpointer progress_data,
              GError **error)
{
  GroupTask *t = data;

  return G_OBJECT (strobe_memory_alloc_list_select_group (t->list, t->model, t->by, t->key,
                                                          strobe_memory_symbolizer_frame_func, t->symbolizer,
                                                          cancellable, error));
}

/* The allocations table lists what the selected group is made of (all of the answer when
 * none is): a row of the groups table and the rows beside it are never two things. */
static void
show_rows (StrobeMemoryQueries *self, StrobeMemoryAllocList *list)
{
  self->syncing = TRUE;
  strobe_memory_alloc_rows_set_list (self->rows, list);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

static void
group_done (GObject      *result,
            const GError *error,
            gpointer      user_data)
{
  StrobeMemoryQueries *self = user_data;

  if (result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->notice, error->message);
      return;
    }
  show_rows (self, STROBE_MEMORY_ALLOC_LIST (result));
}

static void
group_selected_cb (StrobeMemoryQueries *self)
{
  StrobeMemoryCostItem *item = gtk_single_selection_get_selected_item (self->groups_selection);
  const StrobeMemoryCostData *d;
  GroupTask *t;

  strobe_memory_job_cancel (self->group_job);
  if (self->answer == NULL)
    return;
  if (item == NULL)
    {
      show_rows (self, self->answer->list);
      return;
    }
  d = strobe_memory_cost_item_get_data (item);
  t = g_new0 (GroupTask, 1);
  t->list = g_object_ref (self->answer->list);
  t->model = g_object_ref (strobe_memory_names_get_model (self->names));
  t->symbolizer = strobe_memory_names_dup_symbolizer (self->names);
  t->by = d->by;
  t->key = d->key;
  strobe_memory_job_run (self->group_job, group_thread, t, group_task_free, group_done, self);
  g_signal_emit (self, signals[SHOW_GROUP], 0, item);
}

/* ---- running ------------------------------------------------------------------------------- */

static guint
kind_index (StrobeMemoryQueries *self)
{
  return MIN (gtk_drop_down_get_selected (self->kind_dropdown), (guint) G_N_ELEMENTS (kinds) - 1);
}

static void
update_totals (StrobeMemoryQueries *self)
{
  g_autofree char *text = NULL;

  if (self->answer == NULL)
    text = g_strdup (_("Choose a query and run it."));
  else
    {
      guint64 count = 0, bytes = 0;
      g_autofree char *n = NULL, *b = NULL, *size = NULL;

      strobe_memory_alloc_list_get_totals (self->answer->list, &count, &bytes);
      n = strobe_format_count (count);
      b = strobe_format_count (bytes);
      size = strobe_format_size (bytes);
      /* Translators: a query's totals: allocations, bytes, and the bytes in short */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s allocation, %s bytes (%s)",
                                           "%s allocations, %s bytes (%s)", (gulong) MIN (count, G_MAXULONG)),
                              n, b, size);
    }
  gtk_label_set_text (self->totals, text);
  /* Ellipsized where the controls leave it little room (Russian at 1440 pixels: "95
   * выделений, 45…"): the whole of it on hover. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->totals), text);
  gtk_label_set_wrap (self->totals, FALSE);
  gtk_label_set_max_width_chars (self->totals, -1);
  gtk_label_set_ellipsize (self->totals, PANGO_ELLIPSIZE_END);
}

static void
update_running (StrobeMemoryQueries *self)
{
  gboolean running = strobe_memory_job_is_running (self->job);

  gtk_widget_set_visible (GTK_WIDGET (self->progress), running);
  gtk_widget_set_sensitive (self->cancel_button, running);
  gtk_progress_bar_set_fraction (self->progress, strobe_memory_job_get_progress (self->job));
}

/* Records carry addresses only when asked (strobe-cli run --addresses): a column of
 * dashes otherwise. */
static void
update_address_column (StrobeMemoryQueries *self)
{
  g_autoptr (GtkColumnViewColumn) column =
    g_list_model_get_item (gtk_column_view_get_columns (self->table), COL_ADDRESS);
  StrobeMemorySummary s;

  strobe_memory_model_get_summary (strobe_memory_names_get_model (self->names), &s);
  /* GTK 4.8 still counts a hidden column's fixed width: the expanding one stops short. */
  gtk_column_view_column_set_fixed_width (column, s.addressed > 0 ? ADDRESS_WIDTH : 0);
  gtk_column_view_column_set_visible (column, s.addressed > 0);
}

static void
query_done (GObject      *result,
            const GError *error,
            gpointer      user_data)
{
  StrobeMemoryQueries *self = user_data;
  gboolean keep_rows;

  update_running (self);
  if (result == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (result == NULL)
    {
      /* The answer before is not this query's: gone, and why this one failed said where
       * its totals would be, in full. */
      g_clear_object (&self->answer);
      strobe_memory_job_cancel (self->group_job);
      show_rows (self, NULL);
      fill_groups (self);
      /* In full, on two lines if need be, not taking the width of the controls before it. */
      gtk_label_set_ellipsize (self->totals, PANGO_ELLIPSIZE_NONE);
      gtk_label_set_wrap (self->totals, TRUE);
      gtk_label_set_max_width_chars (self->totals, 40);
      gtk_label_set_text (self->totals, error->message);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->totals), error->message);
      gtk_label_set_text (self->notice, "");
      return;
    }
  /* The same rows grouped another way: the table stays as it is (the row chosen, where
   * it was scrolled), unless it listed a group of the grouping before. */
  keep_rows = self->answer != NULL && ((Answer *) result)->list == self->answer->list
              && strobe_memory_alloc_rows_get_list (self->rows) == self->answer->list;
  g_set_object (&self->answer, (Answer *) result);
  if (!keep_rows)
    {
      strobe_memory_job_cancel (self->group_job);
      show_rows (self, self->answer->list);
    }
  fill_groups (self);
  update_totals (self);
  update_address_column (self);
  gtk_label_set_text (self->notice, self->answer->unsorted ? self->answer->unsorted : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->notice), self->answer->unsorted);
}

/* The query as the controls say, or (AGAIN) the answer shown grouped as they say. */
static void
start (StrobeMemoryQueries *self, Answer *again)
{
  Task *t;
  gboolean descending = FALSE;
  int sort;

  if (self->names == NULL)
    return;
  t = g_new0 (Task, 1);
  if (again != NULL)
    t->again = g_object_ref (again);
  t->names = g_object_ref (self->names);
  t->model = g_object_ref (strobe_memory_names_get_model (self->names));
  t->symbolizer = strobe_memory_names_dup_symbolizer (self->names);
  t->selection.kind = kinds[kind_index (self)].kind;
  t->selection.a = MIN (self->markers[0], self->markers[1]);
  t->selection.b = MAX (self->markers[0], self->markers[1]);
  t->selection.c = self->markers[2];
  if (t->selection.kind == STROBE_MEMORY_SELECT_LIVE_AT)
    t->selection.a = self->markers[0];
  if (t->selection.kind == STROBE_MEMORY_SELECT_SHORT_LIVED || t->selection.kind == STROBE_MEMORY_SELECT_LONG_LIVED)
    t->selection.c = self->lifetime;
  sort = strobe_memory_sort_get (self->table, &descending);
  t->sort = sort < 0 ? STROBE_MEMORY_FIELD_INDEX : (StrobeMemoryField) sort;
  t->descending = descending;
  t->by = groupings[MIN (gtk_drop_down_get_selected (self->group_dropdown), (guint) G_N_ELEMENTS (groupings) - 1)].by;
  strobe_memory_job_run (self->job, query_thread, t, task_free, query_done, self);
  update_running (self);
  gtk_label_set_text (self->notice, _("Running…"));
}

void
strobe_memory_queries_run (StrobeMemoryQueries *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  start (self, NULL);
}

void
strobe_memory_queries_cancel (StrobeMemoryQueries *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  strobe_memory_job_cancel (self->job);
  update_running (self);
  gtk_label_set_text (self->notice, _("Cancelled"));
}

gboolean
strobe_memory_queries_is_running (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), FALSE);
  return strobe_memory_job_is_running (self->job) || strobe_memory_job_is_running (self->group_job);
}

static void
run_clicked_cb (StrobeMemoryQueries *self)
{
  strobe_memory_queries_run (self);
}

static void
cancel_clicked_cb (StrobeMemoryQueries *self)
{
  strobe_memory_queries_cancel (self);
}

/* A header was clicked: the answer again, in that order. */
static void
sorter_changed_cb (StrobeMemoryQueries *self)
{
  if (self->answer != NULL)
    strobe_memory_queries_run (self);
}

/* ---- markers ------------------------------------------------------------------------------- */

static void
update_marker_controls (StrobeMemoryQueries *self)
{
  guint uses = kinds[kind_index (self)].markers;

  for (guint m = 0; m < 3; m++)
    gtk_widget_set_sensitive (self->marker_box[m], (uses & (1u << m)) != 0);
  gtk_widget_set_sensitive (self->lifetime_box, (uses & 8u) != 0);
  gtk_widget_set_sensitive (self->selection_button, (uses & 2u) != 0);
  gtk_label_set_text (self->description, _(kinds[kind_index (self)].description));
}

static void
set_entry (StrobeMemoryQueries *self, GtkEntry *entry, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  self->syncing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (entry), g_ascii_formatd (buf, sizeof buf, "%.6f", value));
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  self->syncing = FALSE;
}

/* A number typed in: a point or the locale's comma. FALSE (and the entry marked) when
 * it is none. */
static gboolean
entry_value (GtkEntry *entry, double *out)
{
  g_autofree char *text = g_strstrip (g_strdelimit (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))), ",", '.'));
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (*text == '\0' || end == NULL || *end != '\0' || !(v >= 0) || v > 1e9)
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      return FALSE;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  *out = v;
  return TRUE;
}

static void
show_marker (StrobeMemoryQueries *self, guint which)
{
  StrobeTraceClock clock;
  double s;

  get_clock (self, &clock);
  s = self->markers[which] == STROBE_VIEW_STATE_NONE ? 0 : strobe_trace_clock_to_seconds (&clock, self->markers[which]);

  set_entry (self, self->marker_entry[which], s);
}

void
strobe_memory_queries_set_marker (StrobeMemoryQueries *self,
                                  guint                which,
                                  guint64              time)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  g_return_if_fail (which < 3);

  self->markers[which] = time;
  show_marker (self, which);
  g_signal_emit (self, signals[MARKERS_CHANGED], 0);
}

guint64
strobe_memory_queries_get_marker (StrobeMemoryQueries *self,
                                  guint                which)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), 0);
  g_return_val_if_fail (which < 3, 0);
  return self->markers[which];
}

void
strobe_memory_queries_set_lifetime (StrobeMemoryQueries *self,
                                    guint64              ticks)
{
  StrobeTraceClock clock;

  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  get_clock (self, &clock);
  self->lifetime = ticks;
  set_entry (self, self->lifetime_entry, strobe_trace_clock_duration (&clock, ticks) * 1e3);
}

static void
marker_entry_cb (GtkEntry            *entry,
                 StrobeMemoryQueries *self)
{
  guint which = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "strobe-marker"));
  StrobeTraceClock clock;
  double v;

  if (self->syncing || !entry_value (entry, &v))
    return;
  get_clock (self, &clock);
  self->markers[which] = strobe_trace_clock_from_seconds (&clock, v);
  g_signal_emit (self, signals[MARKERS_CHANGED], 0);
}

static void
marker_leave_cb (GtkEventController  *focus,
                 StrobeMemoryQueries *self)
{
  marker_entry_cb (GTK_ENTRY (gtk_event_controller_get_widget (focus)), self);
}

static void
lifetime_entry_cb (StrobeMemoryQueries *self)
{
  StrobeTraceClock clock;
  double v;

  if (self->syncing || !entry_value (self->lifetime_entry, &v))
    return;
  get_clock (self, &clock);
  self->lifetime = strobe_trace_clock_ticks (&clock, v / 1e3);
}

static void
from_cursor_cb (GtkButton           *button,
                StrobeMemoryQueries *self)
{
  guint which = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "strobe-marker"));
  guint64 cursor = self->state ? strobe_view_state_get_cursor (self->state) : STROBE_VIEW_STATE_NONE;

  if (cursor == STROBE_VIEW_STATE_NONE)
    {
      gtk_label_set_text (self->notice, _("There is no cursor: click in the graph or the timeline first."));
      return;
    }
  strobe_memory_queries_set_marker (self, which, cursor);
}

static void
from_selection_cb (StrobeMemoryQueries *self)
{
  guint64 a, b;

  if (self->state == NULL || !strobe_view_state_get_selection (self->state, &a, &b))
    {
      gtk_label_set_text (self->notice, _("There is no selection: drag in the graph or the timeline first."));
      return;
    }
  strobe_memory_queries_set_marker (self, 0, a);
  strobe_memory_queries_set_marker (self, 1, b);
}

static void
kind_changed_cb (StrobeMemoryQueries *self)
{
  update_marker_controls (self);
}

/* A grouping chosen after a run applies to that answer at once, rather than leaving the
 * old answer under the new name. */
static void
group_changed_cb (StrobeMemoryQueries *self)
{
  if (self->answer == NULL)
    return;
  /* Grouping the answer shown asks for no new selection (at 100 M allocations a
   * selection is hundreds of ms); a query still running starts again, grouped so. */
  start (self, strobe_memory_job_is_running (self->job) ? NULL : self->answer);
}

void
strobe_memory_queries_set_kind (StrobeMemoryQueries *self,
                                StrobeMemorySelect   kind)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (kinds[i].kind == kind)
      gtk_drop_down_set_selected (self->kind_dropdown, i);
}

StrobeMemorySelect
strobe_memory_queries_get_kind (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), STROBE_MEMORY_SELECT_LEAKS);
  return kinds[kind_index (self)].kind;
}

void
strobe_memory_queries_set_group_by (StrobeMemoryQueries *self,
                                    int                  by)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  for (guint i = 0; i < G_N_ELEMENTS (groupings); i++)
    if (groupings[i].by == by)
      gtk_drop_down_set_selected (self->group_dropdown, i);
}

void
strobe_memory_queries_set_trace (StrobeMemoryQueries *self,
                                 guint64              first,
                                 guint64              last)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));

  if (!self->has_trace)
    {
      StrobeTraceClock clock;

      /* To begin with: A at the start, B and C at the end, a lifetime of 1 ms. */
      get_clock (self, &clock);
      self->has_trace = TRUE;
      self->markers[0] = first;
      self->markers[1] = last;
      self->markers[2] = last;
      for (guint m = 0; m < 3; m++)
        show_marker (self, m);
      strobe_memory_queries_set_lifetime (self, strobe_trace_clock_ticks (&clock, 1e-3));
      g_signal_emit (self, signals[MARKERS_CHANGED], 0);
    }
}

/* ---- selection -------------------------------------------------------------------------------- */

static void
selection_changed_cb (StrobeMemoryQueries *self)
{
  StrobeMemoryAllocItem *item = gtk_single_selection_get_selected_item (self->selection);

  if (item == NULL || self->syncing)
    return;
  g_signal_emit (self, signals[SHOW_ALLOCATION], 0, strobe_memory_alloc_item_get_index (item));
}

/* Enter or a double click: Show in Timeline — from its allocation to its free (or the
 * allocation alone while it lives), centred there, the cursor at the allocation. */
static void
activate_cb (GtkColumnView       *view,
             guint                position,
             StrobeMemoryQueries *self)
{
  g_autoptr (StrobeMemoryAllocItem) item = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  const StrobeMemoryAlloc *r;

  if (item == NULL)
    return;
  r = strobe_memory_alloc_item_get_record (item);
  g_signal_emit (self, signals[SHOW_ALLOCATION], 0, strobe_memory_alloc_item_get_index (item));
  gtk_widget_activate_action (GTK_WIDGET (self), "document.show-in-timeline", "(tt)", r->alloc_time,
                              r->free_time == STROBE_MEMORY_LIVE ? r->alloc_time : r->free_time);
}

void
strobe_memory_queries_set_sources (StrobeMemoryQueries *self,
                                   StrobeMemoryNames   *names,
                                   StrobeTimeAxis      *axis)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  g_return_if_fail (STROBE_IS_TIME_AXIS (axis));
  g_set_object (&self->names, names);
  g_set_object (&self->axis, axis);
  g_set_object (&self->state, strobe_time_axis_get_state (axis));
}

StrobeMemoryAllocList *
strobe_memory_queries_get_result (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), NULL);
  return self->answer ? self->answer->list : NULL;
}

GtkColumnView *
strobe_memory_queries_get_table (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), NULL);
  return self->table;
}

GtkColumnView *
strobe_memory_queries_get_groups_table (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), NULL);
  return self->groups_view;
}

const char *
strobe_memory_queries_get_totals_text (StrobeMemoryQueries *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_QUERIES (self), NULL);
  return gtk_label_get_text (self->totals);
}

void
strobe_memory_queries_focus (StrobeMemoryQueries *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_QUERIES (self));
  if (g_list_model_get_n_items (G_LIST_MODEL (self->rows)) > 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->table));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->kind_dropdown));
}

/* ---- building -------------------------------------------------------------------------------- */

static GtkDropDown *
dropdown_of (const char *const *names, guint n, const char *accessible)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  GtkDropDown *dd;

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, _(names[i]));
  dd = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&list)), NULL));
  strobe_a11y_name_drop_down (dd, accessible);
  return dd;
}

static GtkEntry *
number_entry (StrobeMemoryQueries *self, const char *name, guint chars)
{
  GtkEntry *entry = GTK_ENTRY (gtk_entry_new ());
  GtkEventController *focus = gtk_event_controller_focus_new ();

  gtk_editable_set_width_chars (GTK_EDITABLE (entry), (int) chars);
  gtk_entry_set_input_purpose (entry, GTK_INPUT_PURPOSE_NUMBER);
  gtk_widget_add_css_class (GTK_WIDGET (entry), "numeric");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), name);
  gtk_widget_add_controller (GTK_WIDGET (entry), focus);
  g_object_set_data (G_OBJECT (entry), "strobe-focus", focus);
  return entry;
}

static GtkWidget *
marker_controls (StrobeMemoryQueries *self, guint which)
{
  static const char *const letters[3] = { "A", "B", "C" };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *label = gtk_label_new (letters[which]);
  GtkWidget *button = gtk_button_new_from_icon_name ("find-location-symbolic");
  g_autofree char *entry_name = g_strdup_printf (_("Marker %s, seconds from the start"), letters[which]);
  g_autofree char *button_name = g_strdup_printf (_("Set marker %s to the cursor"), letters[which]);
  GtkEntry *entry = number_entry (self, entry_name, 9);

  gtk_widget_add_css_class (label, "strobe-heading");
  gtk_widget_set_margin_end (label, 2);
  gtk_widget_add_css_class (box, "strobe-memory-marker");
  gtk_widget_add_css_class (box, which == 0 ? "marker-a" : which == 1 ? "marker-b" : "marker-c");
  g_object_set_data (G_OBJECT (entry), "strobe-marker", GUINT_TO_POINTER (which));
  g_signal_connect (entry, "activate", G_CALLBACK (marker_entry_cb), self);
  g_signal_connect (g_object_get_data (G_OBJECT (entry), "strobe-focus"), "leave", G_CALLBACK (marker_leave_cb), self);
  strobe_a11y_set_name (button, button_name);
  gtk_widget_set_tooltip_text (button, button_name);
  g_object_set_data (G_OBJECT (button), "strobe-marker", GUINT_TO_POINTER (which));
  g_signal_connect (button, "clicked", G_CALLBACK (from_cursor_cb), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (entry));
  gtk_box_append (GTK_BOX (box), button);
  self->marker_entry[which] = entry;
  self->marker_box[which] = box;
  return box;
}

/* A row of controls that scrolls sideways rather than pushing the page wider. */
static GtkWidget *
control_row (GtkWidget *parent)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), row);
  gtk_box_append (GTK_BOX (parent), scroller);
  return row;
}

static void
strobe_memory_queries_dispose (GObject *object)
{
  StrobeMemoryQueries *self = STROBE_MEMORY_QUERIES (object);

  if (self->job)
    strobe_memory_job_cancel (self->job);
  if (self->group_job)
    strobe_memory_job_cancel (self->group_job);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->names);
  g_clear_object (&self->axis);
  g_clear_object (&self->state);
  G_OBJECT_CLASS (strobe_memory_queries_parent_class)->dispose (object);
}

static void
strobe_memory_queries_finalize (GObject *object)
{
  StrobeMemoryQueries *self = STROBE_MEMORY_QUERIES (object);

  g_clear_object (&self->job);
  g_clear_object (&self->group_job);
  g_clear_object (&self->answer);
  g_clear_object (&self->rows);
  g_clear_object (&self->selection);
  g_clear_object (&self->groups_store);
  G_OBJECT_CLASS (strobe_memory_queries_parent_class)->finalize (object);
}

static void
run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  strobe_memory_queries_run (STROBE_MEMORY_QUERIES (widget));
}

static void
strobe_memory_queries_class_init (StrobeMemoryQueriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_queries_dispose;
  object_class->finalize = strobe_memory_queries_finalize;
  signals[SHOW_ALLOCATION] = g_signal_new ("show-allocation", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                           NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);
  signals[SHOW_GROUP] = g_signal_new ("show-group", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, STROBE_TYPE_MEMORY_COST_ITEM);
  signals[MARKERS_CHANGED] = g_signal_new ("markers-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                           NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "queries.run", NULL, run_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "queries.run", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-queries");
}

static void
strobe_memory_queries_init (StrobeMemoryQueries *self)
{
  const char *kind_names[G_N_ELEMENTS (kinds)];
  const char *group_names[G_N_ELEMENTS (groupings)];
  GtkWidget *row1, *row2, *label;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    kind_names[i] = kinds[i].name;
  for (guint i = 0; i < G_N_ELEMENTS (groupings); i++)
    group_names[i] = groupings[i].name;
  self->job = strobe_memory_job_new ();
  self->group_job = strobe_memory_job_new ();
  g_signal_connect_object (self->job, "notify::progress", G_CALLBACK (update_running), self, G_CONNECT_SWAPPED);
  for (guint m = 0; m < 3; m++)
    self->markers[m] = 0;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->controls = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (self->controls, 6);
  gtk_widget_set_margin_end (self->controls, 6);
  gtk_widget_set_margin_top (self->controls, 6);
  gtk_box_append (GTK_BOX (self->box), self->controls);
  strobe_pane_mark (self->controls);

  row1 = control_row (self->controls);
  self->kind_dropdown = dropdown_of (kind_names, G_N_ELEMENTS (kinds), _("Query"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->kind_dropdown), _("Which allocations to list"));
  g_signal_connect_swapped (self->kind_dropdown, "notify::selected", G_CALLBACK (kind_changed_cb), self);
  gtk_box_append (GTK_BOX (row1), GTK_WIDGET (self->kind_dropdown));
  for (guint m = 0; m < 3; m++)
    gtk_box_append (GTK_BOX (row1), marker_controls (self, m));
  self->selection_button = strobe_a11y_button_new_with_mnemonic (_("A, B From _Selection"));
  gtk_widget_set_tooltip_text (self->selection_button, _("Set A and B to the selected time range"));
  g_signal_connect_swapped (self->selection_button, "clicked", G_CALLBACK (from_selection_cb), self);
  gtk_box_append (GTK_BOX (row1), self->selection_button);

  row2 = control_row (self->controls);
  self->lifetime_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  label = gtk_label_new (_("Lifetime (ms)"));
  self->lifetime_entry = number_entry (self, _("Lifetime in milliseconds"), 7);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->lifetime_entry),
                               _("Short-lived: freed within this time of being allocated; long-lived: living longer"));
  g_signal_connect_swapped (self->lifetime_entry, "activate", G_CALLBACK (lifetime_entry_cb), self);
  g_signal_connect_swapped (g_object_get_data (G_OBJECT (self->lifetime_entry), "strobe-focus"), "leave",
                            G_CALLBACK (lifetime_entry_cb), self);
  gtk_box_append (GTK_BOX (self->lifetime_box), label);
  gtk_box_append (GTK_BOX (self->lifetime_box), GTK_WIDGET (self->lifetime_entry));
  gtk_box_append (GTK_BOX (row2), self->lifetime_box);
  self->group_dropdown = dropdown_of (group_names, G_N_ELEMENTS (groupings), _("Group the answer"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->group_dropdown), _("Group the allocations, with each group's totals"));
  g_signal_connect_swapped (self->group_dropdown, "notify::selected", G_CALLBACK (group_changed_cb), self);
  gtk_box_append (GTK_BOX (row2), GTK_WIDGET (self->group_dropdown));
  self->run_button = strobe_a11y_button_new_with_mnemonic (_("_Run Query"));
  gtk_widget_add_css_class (self->run_button, "suggested-action");
  gtk_widget_set_tooltip_text (self->run_button, _("Run the query (Ctrl+Return)"));
  g_signal_connect_swapped (self->run_button, "clicked", G_CALLBACK (run_clicked_cb), self);
  gtk_box_append (GTK_BOX (row2), self->run_button);
  self->cancel_button = strobe_a11y_button_new_with_mnemonic (_("Cance_l"));
  gtk_widget_set_sensitive (self->cancel_button, FALSE);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  gtk_box_append (GTK_BOX (row2), self->cancel_button);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (GTK_WIDGET (self->progress), 100, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Query progress"), -1);
  gtk_box_append (GTK_BOX (row2), GTK_WIDGET (self->progress));
  self->totals = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->totals, 0);
  strobe_a11y_make_copyable (self->totals);
  gtk_widget_set_hexpand (GTK_WIDGET (self->totals), TRUE);
  gtk_label_set_ellipsize (self->totals, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->totals), "numeric");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->totals), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Query totals"), -1);
  gtk_box_append (GTK_BOX (row2), GTK_WIDGET (self->totals));
  self->notice = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->notice), "dim-label");
  gtk_label_set_ellipsize (self->notice, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (row2), GTK_WIDGET (self->notice));

  self->description = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->description, 0);
  gtk_label_set_wrap (self->description, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->description), "dim-label");
  gtk_box_append (GTK_BOX (self->controls), GTK_WIDGET (self->description));

  /* The answer: groups on the left when grouped, the allocations. */
  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_vexpand (self->paned, TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), FALSE);
  gtk_box_append (GTK_BOX (self->box), self->paned);

  self->groups_store = g_list_store_new (STROBE_TYPE_MEMORY_COST_ITEM);
  self->groups_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->groups_view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->groups_view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Groups"), -1);
  strobe_table_add_columns (self->groups_view, group_columns, G_N_ELEMENTS (group_columns));
  self->groups_selection = strobe_table_set_model (self->groups_view, G_LIST_MODEL (g_object_ref (self->groups_store)), NULL);
  g_signal_connect_swapped (self->groups_selection, "selection-changed", G_CALLBACK (group_selected_cb), self);
  {
    g_autoptr (GtkColumnViewColumn) bytes = g_list_model_get_item (gtk_column_view_get_columns (self->groups_view), 2);
    gtk_column_view_sort_by_column (self->groups_view, bytes, GTK_SORT_DESCENDING);
  }
  self->groups_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->groups_scroller), GTK_WIDGET (self->groups_view));
  gtk_widget_set_size_request (self->groups_scroller, 380, -1);
  gtk_widget_set_visible (self->groups_scroller, FALSE);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->groups_scroller);
  strobe_pane_mark (self->groups_scroller);

  self->rows = strobe_memory_alloc_rows_new ();
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection))));
  gtk_column_view_set_show_column_separators (self->table, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->table), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Allocations"), -1);
  add_columns (self);
  g_signal_connect_swapped (gtk_column_view_get_sorter (self->table), "changed", G_CALLBACK (sorter_changed_cb), self);
  g_signal_connect (self->table, "activate", G_CALLBACK (activate_cb), self);
  self->table_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->table_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->table_scroller), GTK_WIDGET (self->table));
  gtk_widget_set_hexpand (self->table_scroller, TRUE);
  gtk_paned_set_end_child (GTK_PANED (self->paned), self->table_scroller);
  strobe_pane_mark (self->table_scroller);

  update_marker_controls (self);
  update_totals (self);
}

GtkWidget *
strobe_memory_queries_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_QUERIES, NULL);
}
