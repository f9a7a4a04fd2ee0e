/* strobe-memory-sort.c
 *
 * The column view's sorter compares with its sort columns' sorters in order, the first
 * (the one clicked last) first, and inverts the answer of a descending one. Probed with
 * two objects, each column's sorter answers "smaller" and notes its id: the first id
 * noted is the primary column, the sign says the direction.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-sort.h"

static int probed_id = -1;   /* main thread only */

static int
probe_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  if (probed_id == -1)
    probed_id = GPOINTER_TO_INT (user_data);
  return -1;
}

GtkSorter *
strobe_memory_sort_new_column_sorter (int id)
{
  g_return_val_if_fail (id != -1, NULL);
  return GTK_SORTER (gtk_custom_sorter_new (probe_compare, GINT_TO_POINTER (id), NULL));
}

int
strobe_memory_sort_get (GtkColumnView *view,
                        gboolean      *descending)
{
  g_autoptr (GObject) a = NULL, b = NULL;
  GtkSorter *sorter;
  GtkOrdering order;
  int id;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), -1);
  sorter = gtk_column_view_get_sorter (view);
  if (descending)
    *descending = FALSE;
  if (sorter == NULL)
    return -1;
  a = g_object_new (G_TYPE_OBJECT, NULL);
  b = g_object_new (G_TYPE_OBJECT, NULL);
  probed_id = -1;
  order = gtk_sorter_compare (sorter, a, b);
  id = probed_id;
  probed_id = -1;
  if (order == GTK_ORDERING_EQUAL)
    return -1;
  if (descending)
    *descending = order == GTK_ORDERING_LARGER;
  return id;
}
