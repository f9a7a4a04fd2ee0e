/* strobe-memory-sort.h — column headers that sort a table the view sorts itself (a query
 * run again in order, a tree rebuilt): each column gets a sorter naming it, and the
 * column the user clicked and its direction are read back by probing the column view's
 * sorter — GTK 4.8 has no gtk_column_view_sorter_get_primary_sort_column().
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A sorter for a column of id @id (any int but -1); compare nothing with it. */
GtkSorter *strobe_memory_sort_new_column_sorter (int id);
/* The id of the column @view is sorted by and whether descending; -1 when unsorted. */
int        strobe_memory_sort_get               (GtkColumnView *view,
                                                 gboolean      *descending);

G_END_DECLS
