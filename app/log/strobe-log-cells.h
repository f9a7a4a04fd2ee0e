/* strobe-log-cells.h — the log table's columns and how their cells show a message.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-time-axis.h"

G_BEGIN_DECLS

/* What the cells need from the view, owned by it (embedded in its instance); the view
 * sets the axis once it has a document and keeps the thread labels up to date as the
 * document grows. */
typedef struct
{
  StrobeTimeAxis   *axis;             /* the document's clock, asked each time: never a copy */
  GHashTable       *thread_labels;    /* guint16 → the thread's name escaped */
  GHashTable       *category_labels;  /* the model's category name → escaped, filled by the cells */
} StrobeLogCells;

void strobe_log_cells_init        (StrobeLogCells *self);
void strobe_log_cells_clear       (StrobeLogCells *self);
/* The document's clock now (a 1 GHz one before there is an axis). */
void strobe_log_cells_get_clock   (StrobeLogCells   *self,
                                   StrobeTraceClock *clock);
/* Time, thread, verbosity, category, message and source columns, bound to @self. */
void strobe_log_cells_add_columns (StrobeLogCells *self,
                                   GtkColumnView  *column_view);

G_END_DECLS
