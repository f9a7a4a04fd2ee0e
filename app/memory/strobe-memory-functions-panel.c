/* strobe-memory-functions-panel.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-callers-panel.h"
#include "strobe-format.h"
#include "strobe-memory-functions-panel.h"
#include "strobe-memory-items.h"
#include "strobe-panes.h"
#include "strobe-table.h"

struct _StrobeMemoryFunctionsPanel
{
  GtkWidget            parent_instance;
  StrobeMemoryNames   *names;
  StrobeMemoryCallers *callers;
  GtkWidget           *paned;
  GtkColumnView       *functions;
  StrobeCallersPanel  *calls;     /* the selected function's callers and callees */
  GListStore          *function_store;
  GtkSingleSelection  *function_selection;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryFunctionsPanel, strobe_memory_functions_panel, GTK_TYPE_WIDGET)

enum
{
  SHOW_FUNCTION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- columns --------------------------------------------------------------------------------- */

STROBE_MEMORY_SIZE_TEXT (peak_text, peak_bytes, FALSE)
STROBE_MEMORY_SIZE_TEXT (leaked_text, leaked_bytes, FALSE)
STROBE_MEMORY_COUNT_TEXT (allocations_text, allocations, FALSE)
STROBE_MEMORY_COUNT_TEXT (temporary_text, temporary, FALSE)
STROBE_MEMORY_SIZE_TEXT (self_peak_text, peak_bytes, TRUE)
STROBE_MEMORY_COUNT_TEXT (self_allocations_text, allocations, TRUE)
STROBE_MEMORY_COST_COMPARE (compare_peak, STROBE_MEMORY_COST_PEAK, FALSE)
STROBE_MEMORY_COST_COMPARE (compare_leaked, STROBE_MEMORY_COST_LEAKED, FALSE)
STROBE_MEMORY_COST_COMPARE (compare_allocations, STROBE_MEMORY_COST_ALLOCATIONS, FALSE)
STROBE_MEMORY_COST_COMPARE (compare_temporary, STROBE_MEMORY_COST_TEMPORARY, FALSE)
STROBE_MEMORY_COST_COMPARE (compare_self_peak, STROBE_MEMORY_COST_PEAK, TRUE)
STROBE_MEMORY_COST_COMPARE (compare_self_allocations, STROBE_MEMORY_COST_ALLOCATIONS, TRUE)

static const StrobeTableColumn function_columns[] = {
  { N_("Function"), strobe_memory_cost_item_name_text, strobe_memory_cost_item_compare_name, 30, FALSE, TRUE, NULL },
  { N_("Peak"), peak_text, compare_peak, 9, TRUE, FALSE, NULL },
  { N_("Leaked"), leaked_text, compare_leaked, 9, TRUE, FALSE, NULL },
  { N_("Allocations"), allocations_text, compare_allocations, 9, TRUE, FALSE, NULL },
  { N_("Temporary"), temporary_text, compare_temporary, 9, TRUE, FALSE, NULL },
  { N_("Self Peak"), self_peak_text, compare_self_peak, 9, TRUE, FALSE, NULL },
  { N_("Self Allocations"), self_allocations_text, compare_self_allocations, 9, TRUE, FALSE, NULL },
};

static const StrobeTableColumn call_columns[] = {
  { N_("Function"), strobe_memory_cost_item_name_text, strobe_memory_cost_item_compare_name, 24, FALSE, TRUE, NULL },
  { N_("Peak"), peak_text, compare_peak, 9, TRUE, FALSE, NULL },
  { N_("Leaked"), leaked_text, compare_leaked, 9, TRUE, FALSE, NULL },
  { N_("Allocations"), allocations_text, compare_allocations, 9, TRUE, FALSE, NULL },
  { N_("Temporary"), temporary_text, compare_temporary, 9, TRUE, FALSE, NULL },
};

/* ---- contents -------------------------------------------------------------------------------- */

static StrobeMemoryCostItem *
function_item (StrobeMemoryFunctionsPanel *self, const StrobeMemoryFunction *f)
{
  StrobeMemoryCostData d = { 0 };

  d.by = STROBE_MEMORY_BY_FUNCTION;
  d.key = f->key;
  d.frame = f->frame;
  d.inline_depth = f->inline_depth;
  d.node = G_MAXUINT32;
  d.inclusive = f->inclusive;
  d.self = f->self;
  return strobe_memory_cost_item_new (&d, self->names, NULL);
}

static GPtrArray *
calls_of (StrobeMemoryFunctionsPanel *self, guint function, gboolean callers)
{
  StrobeMemoryFunction f;
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->callers != NULL && function != G_MAXUINT && strobe_memory_callers_get_function (self->callers, function, &f))
    {
      guint n = callers ? f.n_callers : f.n_callees;
      g_autofree StrobeMemoryCall *calls = g_new0 (StrobeMemoryCall, MAX (n, 1));

      n = callers ? strobe_memory_callers_get_callers (self->callers, function, 0, n, calls)
                  : strobe_memory_callers_get_callees (self->callers, function, 0, n, calls);
      for (guint i = 0; i < n; i++)
        {
          StrobeMemoryCostData d = { 0 };

          d.by = STROBE_MEMORY_BY_FUNCTION;
          d.key = calls[i].key;
          d.frame = calls[i].frame;
          d.inline_depth = calls[i].inline_depth;
          d.node = G_MAXUINT32;
          d.inclusive = calls[i].costs;
          g_ptr_array_add (items, strobe_memory_cost_item_new (&d, self->names, NULL));
        }
    }
  return items;
}

static void
show_calls (StrobeMemoryFunctionsPanel *self,
            StrobeMemoryCostItem       *item)
{
  guint index = item && self->callers ? strobe_memory_callers_find (self->callers, strobe_memory_cost_item_get_data (item)->key)
                                      : G_MAXUINT;
  g_autoptr (GPtrArray) callers = calls_of (self, index, TRUE);
  g_autoptr (GPtrArray) callees = calls_of (self, index, FALSE);
  g_autofree char *heading = NULL;

  if (item == NULL)
    heading = g_strdup (_("Choose a function above to see its callers and callees."));
  else
    /* Translators: over the callers and callees tables; %s is a function */
    heading = g_strdup_printf (_("Callers and callees of %s"), strobe_memory_cost_item_get_name (item));
  strobe_callers_panel_set_calls (self->calls, heading, callers, callees);
}

static void
function_selected_cb (StrobeMemoryFunctionsPanel *self)
{
  StrobeMemoryCostItem *item = gtk_single_selection_get_selected_item (self->function_selection);

  show_calls (self, item);
  if (item != NULL)
    g_signal_emit (self, signals[SHOW_FUNCTION], 0, item);
}

gboolean
strobe_memory_functions_panel_select (StrobeMemoryFunctionsPanel *self,
                                    guint64                   key)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self), FALSE);
  model = G_LIST_MODEL (self->function_selection);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (StrobeMemoryCostItem) item = g_list_model_get_item (model, i);

      if (strobe_memory_cost_item_get_data (item)->key == key)
        {
          gtk_single_selection_set_selected (self->function_selection, i);
          gtk_widget_activate_action (GTK_WIDGET (self->functions), "list.scroll-to-item", "u", i);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
strobe_memory_functions_panel_select_name (StrobeMemoryFunctionsPanel *self,
                                           const char               *name)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  model = G_LIST_MODEL (self->function_selection);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (StrobeMemoryCostItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (strobe_memory_cost_item_get_name (item), name) == 0)
        return strobe_memory_functions_panel_select (self, strobe_memory_cost_item_get_data (item)->key);
    }
  return FALSE;
}

static void
call_activated_cb (StrobeCallersPanel         *calls,
                   StrobeMemoryCostItem       *item,
                   StrobeMemoryFunctionsPanel *self)
{
  strobe_memory_functions_panel_select (self, strobe_memory_cost_item_get_data (item)->key);
}

void
strobe_memory_functions_panel_set_names (StrobeMemoryFunctionsPanel *self,
                                       StrobeMemoryNames        *names)
{
  g_return_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self));
  g_set_object (&self->names, names);
}

void
strobe_memory_functions_panel_set_callers (StrobeMemoryFunctionsPanel *self,
                                         StrobeMemoryCallers      *callers)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  g_return_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self));
  g_return_if_fail (callers == NULL || STROBE_IS_MEMORY_CALLERS (callers));

  g_set_object (&self->callers, callers);
  n = callers ? strobe_memory_callers_get_n_functions (callers) : 0;
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryFunction f;

      strobe_memory_callers_get_function (callers, i, &f);
      g_ptr_array_add (items, function_item (self, &f));
    }
  g_list_store_splice (self->function_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->function_store)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (self->function_selection, GTK_INVALID_LIST_POSITION);
  show_calls (self, NULL);
}

GtkColumnView *
strobe_memory_functions_panel_get_functions (StrobeMemoryFunctionsPanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self), NULL);
  return self->functions;
}

GtkColumnView *
strobe_memory_functions_panel_get_callers_view (StrobeMemoryFunctionsPanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self), NULL);
  return strobe_callers_panel_get_callers_view (self->calls);
}

GtkColumnView *
strobe_memory_functions_panel_get_callees_view (StrobeMemoryFunctionsPanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FUNCTIONS_PANEL (self), NULL);
  return strobe_callers_panel_get_callees_view (self->calls);
}

static GtkColumnView *
new_table (const StrobeTableColumn *columns, guint n, GListStore **store, GtkSingleSelection **selection,
           const char *name)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  g_autoptr (GtkColumnViewColumn) peak = NULL;

  gtk_column_view_set_show_column_separators (view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  strobe_table_add_columns (view, columns, n);
  *store = g_list_store_new (STROBE_TYPE_MEMORY_COST_ITEM);
  *selection = strobe_table_set_model (view, G_LIST_MODEL (g_object_ref (*store)), NULL);
  peak = g_list_model_get_item (gtk_column_view_get_columns (view), 1);
  gtk_column_view_sort_by_column (view, peak, GTK_SORT_DESCENDING);
  return view;
}

static void
strobe_memory_functions_panel_dispose (GObject *object)
{
  StrobeMemoryFunctionsPanel *self = STROBE_MEMORY_FUNCTIONS_PANEL (object);

  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->names);
  g_clear_object (&self->callers);
  g_clear_object (&self->function_store);
  G_OBJECT_CLASS (strobe_memory_functions_panel_parent_class)->dispose (object);
}

static void
strobe_memory_functions_panel_class_init (StrobeMemoryFunctionsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_functions_panel_dispose;
  signals[SHOW_FUNCTION] = g_signal_new ("show-function", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, STROBE_TYPE_MEMORY_COST_ITEM);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-functions-panel");
}

static void
strobe_memory_functions_panel_init (StrobeMemoryFunctionsPanel *self)
{
  GtkWidget *scroller;

  self->functions = new_table (function_columns, G_N_ELEMENTS (function_columns), &self->function_store,
                               &self->function_selection, _("Functions"));
  /* heaptrack's layout: the functions over their callers and callees, side by side. */
  self->calls = STROBE_CALLERS_PANEL (strobe_callers_panel_new (STROBE_TYPE_MEMORY_COST_ITEM, call_columns,
                                                                G_N_ELEMENTS (call_columns), 1, GTK_ORIENTATION_HORIZONTAL,
                                                                _("Callers"), _("Callees")));
  g_signal_connect_swapped (self->function_selection, "selection-changed", G_CALLBACK (function_selected_cb), self);
  g_signal_connect (self->calls, "activate-call", G_CALLBACK (call_activated_cb), self);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->functions));
  gtk_widget_set_size_request (scroller, -1, 120);
  strobe_pane_mark (scroller);
  gtk_paned_set_start_child (GTK_PANED (self->paned), scroller);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), TRUE);
  show_calls (self, NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->calls), -1, 160);
  gtk_paned_set_end_child (GTK_PANED (self->paned), GTK_WIDGET (self->calls));
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), TRUE);
}

GtkWidget *
strobe_memory_functions_panel_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_FUNCTIONS_PANEL, NULL);
}
