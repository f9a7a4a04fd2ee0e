/* strobe-table.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-table.h"
#include "strobe-tooltip.h"

#define NOTIFY_HANDLER_KEY "strobe-table-notify-handler"

static void
update_cell (GtkInscription *cell,
             gpointer        item)
{
  const StrobeTableColumn *column = g_object_get_data (G_OBJECT (cell), "strobe-table-column");
  g_autofree char *text = column->text (item);

  gtk_inscription_set_text (cell, text);
  /* Per row bound: GTK's own setter would ask the display where the pointer is each time. */
  if (column->expand)
    strobe_tooltip_set_text (GTK_WIDGET (cell), text);
  if (column->css_class != NULL)
    {
      const char *old = g_object_get_data (G_OBJECT (cell), "strobe-table-class");
      const char *css = column->css_class (item);

      if (old != NULL)
        gtk_widget_remove_css_class (GTK_WIDGET (cell), old);
      if (css != NULL)
        gtk_widget_add_css_class (GTK_WIDGET (cell), css);
      /* Static strings: the callback returns literals. */
      g_object_set_data (G_OBJECT (cell), "strobe-table-class", (gpointer) css);
    }
}

static void
item_notify_cb (GObject    *item,
                GParamSpec *pspec,
                gpointer    cell)
{
  update_cell (cell, item);
}

GtkWidget *
strobe_table_cell_new (guint    nat_chars,
                       guint    min_chars,
                       gboolean numeric)
{
  GtkWidget *cell = gtk_inscription_new (NULL);

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), nat_chars);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), min_chars);
  if (numeric)
    {
      gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), 1.0f);
      gtk_widget_add_css_class (cell, "numeric");
    }
  return cell;
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          gpointer                  user_data)
{
  const StrobeTableColumn *column = user_data;
  /* The expanding column holds the names that tell the rows apart. Short of width, GTK
   * gives the columns whose natural width is nearest their minimum theirs first: with a
   * minimum of 4 characters, a memory group's name was cut to "arena_…" beside figures
   * at full width. */
  GtkWidget *cell = strobe_table_cell_new (column->nat_chars, MIN (column->nat_chars, column->expand ? 18 : 4),
                                           column->numeric);

  g_object_set_data (G_OBJECT (cell), "strobe-table-column", (gpointer) column);
  gtk_list_item_set_child (list_item, cell);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  user_data)
{
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  GObject *item = gtk_list_item_get_item (list_item);
  gulong id;

  update_cell (GTK_INSCRIPTION (cell), item);
  id = g_signal_connect_object (item, "notify", G_CALLBACK (item_notify_cb), cell, 0);
  g_object_set_data (G_OBJECT (cell), NOTIFY_HANDLER_KEY, GSIZE_TO_POINTER ((gsize) id));
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  GObject *item = gtk_list_item_get_item (list_item);
  gulong id = (gulong) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (cell), NOTIFY_HANDLER_KEY));

  if (id != 0 && item != NULL)
    g_signal_handler_disconnect (item, id);
  g_object_set_data (G_OBJECT (cell), NOTIFY_HANDLER_KEY, NULL);
}

static int
compare_cb (gconstpointer a,
            gconstpointer b,
            gpointer      user_data)
{
  const StrobeTableColumn *column = user_data;

  return column->compare ((gpointer) a, (gpointer) b);
}

void
strobe_table_add_columns (GtkColumnView           *view,
                          const StrobeTableColumn *columns,
                          guint                    n_columns)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  for (guint i = 0; i < n_columns; i++)
    {
      const StrobeTableColumn *column = &columns[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) view_column = NULL;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), (gpointer) column);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), (gpointer) column);
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), (gpointer) column);
      view_column = gtk_column_view_column_new (_(column->title), factory);
      gtk_column_view_column_set_expand (view_column, column->expand);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      if (column->compare != NULL)
        {
          GtkCustomSorter *sorter = gtk_custom_sorter_new (compare_cb, (gpointer) column, NULL);
          gtk_column_view_column_set_sorter (view_column, GTK_SORTER (sorter));
          g_object_unref (sorter);
        }
      gtk_column_view_append_column (view, view_column);
    }
}

GtkSingleSelection *
strobe_table_set_model (GtkColumnView *view,
                        GListModel    *model,
                        GtkFilter     *filter)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (view);
  GListModel *sorted;
  GtkSingleSelection *selection;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);

  if (filter != NULL)
    model = G_LIST_MODEL (gtk_filter_list_model_new (model, filter));
  sorted = G_LIST_MODEL (gtk_sort_list_model_new (model, sorter ? g_object_ref (sorter) : NULL));
  selection = gtk_single_selection_new (sorted);
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  return selection;
}

int
strobe_table_compare_str (const char *a,
                          const char *b)
{
  return g_utf8_collate (a ? a : "", b ? b : "");
}

int
strobe_table_compare_u64 (guint64 a,
                          guint64 b)
{
  return a < b ? -1 : a > b;
}
