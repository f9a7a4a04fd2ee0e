/* strobe-log-cells.h — the log table's columns and how their cells show a message.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-log-item.h"
#include "strobe-time-axis.h"

G_BEGIN_DECLS

/* Where a message comes from, for a table of several traces' messages (a group's log):
 * its process, its trace's clock and thread names. */
typedef struct
{
  const char       *process;          /* the process's label, escaped; owned by the caller */
  StrobeTraceClock  clock;
  GHashTable       *thread_labels;    /* as StrobeLogCells's; NULL: ids */
} StrobeLogCellsSource;

typedef void (*StrobeLogCellsSourceFunc) (StrobeLogItem        *item,
                                          StrobeLogCellsSource *source,
                                          gpointer              user_data);

/* What the cells need from the view, owned by it (embedded in its instance); the view
 * sets the axis once it has a document and keeps the thread labels up to date as the
 * document grows. */
typedef struct
{
  StrobeTimeAxis   *axis;             /* the document's clock, asked each time: never a copy */
  GHashTable       *thread_labels;    /* guint16 → the thread's name escaped */
  GHashTable       *category_labels;  /* the model's category name → escaped, filled by the cells */
  /* A message's look (strobe_log_verbosity_css's name, or malformed) → its text attributes,
   * made from the theme's colours when first needed; emptied when the theme changes. */
  GHashTable       *message_looks;
  GHashTable       *level_icons;      /* icon name → its GtkIconPaintable */
  GdkRGBA           level_colors[2];  /* the theme's error and warning colours */
  gboolean          have_level_colors;
  guint             looks_generation;
  GtkSettings      *settings;         /* followed for theme changes, not referenced */
  /* Set before add_columns for several traces: a Process column, and each message's time
   * and thread from its own trace (the axis and thread labels above are not used). */
  StrobeLogCellsSourceFunc source;
  gpointer         source_data;
  /* Cells bound to a message and not filled yet, and table rows whose every cell is (a
   * far jump changes every row GTK keeps, ~200, for ~45 on screen): those on screen are
   * filled when GTK lays out the frame, the others a slice of the main thread at a time
   * after it. */
  GPtrArray       *unfilled;
  guint            fill_source;
  GtkWidget       *table;            /* the column view, not referenced */
  GdkFrameClock   *clock;            /* its frame clock, hooked at "layout" */
  gulong           layout_id;
  gboolean         layout_queued;
} StrobeLogCells;

void strobe_log_cells_init        (StrobeLogCells *self);
void strobe_log_cells_clear       (StrobeLogCells *self);
/* The document's clock now (a 1 GHz one before there is an axis). */
void strobe_log_cells_get_clock   (StrobeLogCells   *self,
                                   StrobeTraceClock *clock);
/* Fills the cells on screen not filled yet, as a frame's layout does (the table laid out). */
void strobe_log_cells_fill_shown  (StrobeLogCells *self);
/* Time, (process,) thread, verbosity, category, message and source columns, bound to @self. */
void strobe_log_cells_add_columns (StrobeLogCells *self,
                                   GtkColumnView  *column_view);

/* The table position of the row @widget belongs to, searched up to @stop (with @is_row,
 * @widget is a row: down its first children too); GTK_INVALID_LIST_POSITION: none. */
guint strobe_log_cells_row_position (GtkWidget *widget,
                                     GtkWidget *stop,
                                     gboolean   is_row);
/* The row of @table that has the keyboard focus (GTK's cursor; the focus on it or in it),
 * its table position in @position; NULL when the focus is on no row of @table. */
GtkWidget *strobe_log_cells_focused_row (GtkWidget *table,
                                         guint     *position);

G_END_DECLS
