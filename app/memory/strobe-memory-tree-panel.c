/* strobe-memory-tree-panel.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-format.h"
#include "strobe-memory-items.h"
#include "strobe-memory-sort.h"
#include "strobe-memory-tree-panel.h"
#include "strobe-table.h"

typedef enum
{
  COL_FUNCTION,
  COL_PEAK,
  COL_LEAKED,
  COL_ALLOCATIONS,
  COL_TEMPORARY,
  COL_BYTES,
  COL_SELF_PEAK,
  COL_SELF_ALLOCATIONS,
  N_COLUMNS
} Column;

/* Sort ids: a StrobeMemoryCost, + SELF_SORT for self costs. */
#define SELF_SORT 100

static const struct { const char *title; int sort; int width; const char *tooltip; } columns[N_COLUMNS] = {
  [COL_FUNCTION] = { N_("Function"), STROBE_MEMORY_COST_KEY, -1, NULL },
  [COL_PEAK] = { N_("Peak"), STROBE_MEMORY_COST_PEAK, 90,
                 N_("What the stacks through it held when live memory was highest") },
  [COL_LEAKED] = { N_("Leaked"), STROBE_MEMORY_COST_LEAKED, 90,
                   N_("Allocated in the range and still live at its end (the whole trace: never freed)") },
  [COL_ALLOCATIONS] = { N_("Allocations"), STROBE_MEMORY_COST_ALLOCATIONS, 95, NULL },
  [COL_TEMPORARY] = { N_("Temporary"), STROBE_MEMORY_COST_TEMPORARY, 90,
                      N_("Freed (or reallocated) by their thread before it allocated again") },
  [COL_BYTES] = { N_("Allocated"), STROBE_MEMORY_COST_BYTES, 90, N_("Bytes allocated") },
  [COL_SELF_PEAK] = { N_("Self Peak"), SELF_SORT + STROBE_MEMORY_COST_PEAK, 90,
                      N_("Peak of the stacks that end here") },
  [COL_SELF_ALLOCATIONS] = { N_("Self Allocations"), SELF_SORT + STROBE_MEMORY_COST_ALLOCATIONS, 95,
                             N_("Allocations of the stacks that end here") },
};

struct _StrobeMemoryTreePanel
{
  GtkWidget           parent_instance;
  StrobeMemoryNames  *names;
  StrobeMemoryTree   *tree;
  GtkWidget          *scroller;
  GtkColumnView      *view;
  GtkTreeListModel   *tree_model;
  GtkSingleSelection *selection;
  int                 sort;
  gboolean            descending;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryTreePanel, strobe_memory_tree_panel, GTK_TYPE_WIDGET)

enum
{
  SHOW_NODE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- children ------------------------------------------------------------------------------- */

typedef struct
{
  int      sort;
  gboolean descending;
} Order;

static gint
compare_items (gconstpointer a, gconstpointer b, gpointer data)
{
  const Order *o = data;
  StrobeMemoryCostItem *x = *(StrobeMemoryCostItem *const *) a, *y = *(StrobeMemoryCostItem *const *) b;
  gboolean self_cost = o->sort >= SELF_SORT;
  StrobeMemoryCost cost = (StrobeMemoryCost) (self_cost ? o->sort - SELF_SORT : o->sort);
  guint64 cx, cy;
  int c;

  if (cost == STROBE_MEMORY_COST_KEY)
    {
      c = strobe_table_compare_str (strobe_memory_cost_item_get_name (x), strobe_memory_cost_item_get_name (y));
      return o->descending ? -c : c;
    }
  cx = strobe_memory_cost_item_get_cost (x, cost, self_cost);
  cy = strobe_memory_cost_item_get_cost (y, cost, self_cost);
  if (cx != cy)
    return (cx < cy) == o->descending ? 1 : -1;
  return (strobe_memory_cost_item_get_data (x)->node > strobe_memory_cost_item_get_data (y)->node) -
         (strobe_memory_cost_item_get_data (x)->node < strobe_memory_cost_item_get_data (y)->node);
}

static GListModel *
children_of (StrobeMemoryTreePanel *self, guint node)
{
  GListStore *store = g_list_store_new (STROBE_TYPE_MEMORY_COST_ITEM);
  StrobeMemoryTreeNode n;
  g_autofree guint32 *kids = NULL;
  g_autoptr (GPtrArray) items = NULL;
  Order order = { self->sort, self->descending };
  guint k;

  if (self->tree == NULL || !strobe_memory_tree_get_node (self->tree, node, &n) || n.n_children == 0)
    return G_LIST_MODEL (store);
  kids = g_new (guint32, n.n_children);
  k = strobe_memory_tree_get_children (self->tree, node, STROBE_MEMORY_COST_PEAK, 0, n.n_children, kids);
  items = g_ptr_array_new_full (k, g_object_unref);
  for (guint i = 0; i < k; i++)
    {
      StrobeMemoryTreeNode c;
      StrobeMemoryCostData d = { 0 };

      strobe_memory_tree_get_node (self->tree, kids[i], &c);
      d.by = STROBE_MEMORY_BY_FUNCTION;
      d.key = c.key;
      d.frame = c.frame;
      d.inline_depth = c.inline_depth;
      d.node = kids[i];
      d.n_children = c.n_children;
      d.inclusive = c.inclusive;
      d.self = c.self;
      g_ptr_array_add (items, strobe_memory_cost_item_new (&d, self->names, NULL));
    }
  if (self->sort != STROBE_MEMORY_COST_PEAK || !self->descending)
    g_ptr_array_sort_with_data (items, compare_items, &order);
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

static GListModel *
create_model_cb (gpointer item,
                 gpointer user_data)
{
  StrobeMemoryTreePanel *self = user_data;
  const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);

  if (d->n_children == 0)
    return NULL;
  return children_of (self, d->node);
}

static void
rebuild (StrobeMemoryTreePanel *self)
{
  GListModel *root = children_of (self, 0);

  self->tree_model = gtk_tree_list_model_new (root, FALSE, FALSE, create_model_cb, self, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->tree_model));
  g_object_unref (self->tree_model);
}

/* ---- cells ---------------------------------------------------------------------------------- */

static StrobeMemoryCostItem *
item_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          StrobeMemoryTreePanel    *self)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  GtkWidget *cell = gtk_inscription_new (NULL);

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), 3);
  if (col == COL_FUNCTION)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), 40);
      gtk_widget_add_css_class (cell, "monospace");
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), cell);
      gtk_list_item_set_child (list_item, expander);
      return;
    }
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), 9);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), 1.0f);
  gtk_widget_add_css_class (cell, "numeric");
  gtk_list_item_set_child (list_item, cell);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         StrobeMemoryTreePanel    *self)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  g_autoptr (StrobeMemoryCostItem) item = item_of (list_item);
  const StrobeMemoryCostData *d;
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  d = strobe_memory_cost_item_get_data (item);
  switch (col)
    {
    case COL_FUNCTION:
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), gtk_list_item_get_item (list_item));
      gtk_inscription_set_text (GTK_INSCRIPTION (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child))),
                                strobe_memory_cost_item_get_name (item));
      return;
    case COL_PEAK:
      text = strobe_format_size ((guint64) MAX (d->inclusive.peak_bytes, 0));
      break;
    case COL_LEAKED:
      text = strobe_format_size ((guint64) MAX (d->inclusive.leaked_bytes, 0));
      break;
    case COL_ALLOCATIONS:
      text = strobe_format_count (d->inclusive.allocations);
      break;
    case COL_TEMPORARY:
      text = strobe_format_count (d->inclusive.temporary);
      break;
    case COL_BYTES:
      text = strobe_format_size (d->inclusive.bytes_allocated);
      break;
    case COL_SELF_PEAK:
      text = strobe_format_size ((guint64) MAX (d->self.peak_bytes, 0));
      break;
    case COL_SELF_ALLOCATIONS:
      text = strobe_format_count (d->self.allocations);
      break;
    case N_COLUMNS:
    default:
      break;
    }
  gtk_inscription_set_text (GTK_INSCRIPTION (child), text);
}

/* ---- the panel ------------------------------------------------------------------------------- */

static void
selection_changed_cb (StrobeMemoryTreePanel *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr (StrobeMemoryCostItem) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (item != NULL)
    g_signal_emit (self, signals[SHOW_NODE], 0, strobe_memory_cost_item_get_data (item)->node);
}

static void
sorter_changed_cb (StrobeMemoryTreePanel *self)
{
  gboolean descending = FALSE;
  int sort = strobe_memory_sort_get (self->view, &descending);

  if (sort < 0)
    {
      sort = STROBE_MEMORY_COST_PEAK;
      descending = TRUE;
    }
  if (sort == self->sort && descending == self->descending)
    return;
  self->sort = sort;
  self->descending = descending;
  rebuild (self);
}

void
strobe_memory_tree_panel_set_names (StrobeMemoryTreePanel *self,
                                    StrobeMemoryNames     *names)
{
  g_return_if_fail (STROBE_IS_MEMORY_TREE_PANEL (self));
  g_set_object (&self->names, names);
}

void
strobe_memory_tree_panel_set_tree (StrobeMemoryTreePanel *self,
                                   StrobeMemoryTree      *tree)
{
  g_return_if_fail (STROBE_IS_MEMORY_TREE_PANEL (self));
  g_return_if_fail (tree == NULL || STROBE_IS_MEMORY_TREE (tree));

  if (!g_set_object (&self->tree, tree))
    return;
  rebuild (self);
}

StrobeMemoryTree *
strobe_memory_tree_panel_get_tree (StrobeMemoryTreePanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_TREE_PANEL (self), NULL);
  return self->tree;
}

GtkColumnView *
strobe_memory_tree_panel_get_view (StrobeMemoryTreePanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_TREE_PANEL (self), NULL);
  return self->view;
}

void
strobe_memory_tree_panel_expand_top (StrobeMemoryTreePanel *self,
                                     guint                  levels)
{
  guint position = 0;

  g_return_if_fail (STROBE_IS_MEMORY_TREE_PANEL (self));
  for (guint l = 0; l < levels; l++)
    {
      g_autoptr (GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree_model, position);

      if (row == NULL || !gtk_tree_list_row_is_expandable (row))
        return;
      gtk_tree_list_row_set_expanded (row, TRUE);
      position++;
    }
}

static void
strobe_memory_tree_panel_dispose (GObject *object)
{
  StrobeMemoryTreePanel *self = STROBE_MEMORY_TREE_PANEL (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->names);
  g_clear_object (&self->tree);
  G_OBJECT_CLASS (strobe_memory_tree_panel_parent_class)->dispose (object);
}

static void
strobe_memory_tree_panel_class_init (StrobeMemoryTreePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_tree_panel_dispose;
  signals[SHOW_NODE] = g_signal_new ("show-node", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-tree-panel");
}

static void
strobe_memory_tree_panel_init (StrobeMemoryTreePanel *self)
{
  self->sort = STROBE_MEMORY_COST_PEAK;
  self->descending = TRUE;
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (self->selection)));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  for (int c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr (GtkColumnViewColumn) column = NULL;
      g_autoptr (GtkSorter) sorter = strobe_memory_sort_new_column_sorter (columns[c].sort);

      g_object_set_data (G_OBJECT (factory), "strobe-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
      column = gtk_column_view_column_new (_(columns[c].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_sorter (column, sorter);
      if (columns[c].width > 0)
        gtk_column_view_column_set_fixed_width (column, columns[c].width);
      else
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->view, column);
    }
  g_signal_connect_swapped (gtk_column_view_get_sorter (self->view), "changed", G_CALLBACK (sorter_changed_cb), self);
  /* Largest peak first, as heaptrack opens. */
  {
    g_autoptr (GtkColumnViewColumn) peak = g_list_model_get_item (gtk_column_view_get_columns (self->view), COL_PEAK);
    gtk_column_view_sort_by_column (self->view, peak, GTK_SORT_DESCENDING);
  }
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  rebuild (self);
}

GtkWidget *
strobe_memory_tree_panel_new (const char *accessible_name)
{
  StrobeMemoryTreePanel *self = g_object_new (STROBE_TYPE_MEMORY_TREE_PANEL, NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_name, -1);
  return GTK_WIDGET (self);
}
