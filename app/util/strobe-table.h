/* strobe-table.h — GtkColumnView columns from a small table of callbacks: a cheap
 * GtkInscription per cell, a sorter per column, cells that follow the item's "notify".
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  const char *title;                        /* marked with N_(), translated here */
  char      *(*text)    (gpointer item);    /* a new string for the cell */
  int        (*compare) (gpointer a,
                         gpointer b);       /* NULL: not sortable */
  guint        nat_chars;                   /* natural width in characters */
  gboolean     numeric;                     /* right-aligned */
  gboolean     expand;
  const char *(*css_class) (gpointer item); /* NULL, or a style class for the cell (may
                                               return NULL) */
} StrobeTableColumn;

/* Adds the columns to @view; @columns must outlive it (a static array). */
void                strobe_table_add_columns    (GtkColumnView           *view,
                                                 const StrobeTableColumn *columns,
                                                 guint                    n_columns);
/* @model sorted by @view's sorter (the column the user clicked), filtered by @filter when
 * not NULL, in a single selection; set as @view's model. Takes @model and @filter. */
GtkSingleSelection *strobe_table_set_model      (GtkColumnView           *view,
                                                 GListModel              *model,
                                                 GtkFilter               *filter);

/* A GtkInscription cell as every table in the app has it: ellipsized at the end,
 * right-aligned with tabular figures when @numeric. */
GtkWidget          *strobe_table_cell_new       (guint                    nat_chars,
                                                 guint                    min_chars,
                                                 gboolean                 numeric);

/* Comparisons for StrobeTableColumn.compare callbacks. */
int                 strobe_table_compare_str    (const char              *a,
                                                 const char              *b);
int                 strobe_table_compare_u64    (guint64                  a,
                                                 guint64                  b);

G_END_DECLS
