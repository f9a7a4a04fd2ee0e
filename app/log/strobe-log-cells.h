/* strobe-log-cells.h — the log table's columns and how their cells show a message.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-trace-clock.h"

G_BEGIN_DECLS

/* What the cells need from the view, owned by it (embedded in its instance); the view
 * keeps the clock and the thread labels up to date as the document grows. */
typedef struct
{
  StrobeTraceClock  clock;
  GHashTable       *thread_labels;    /* guint16 → the thread's name escaped */
  GHashTable       *category_labels;  /* the model's category name → escaped, filled by the cells */
} StrobeLogCells;

void strobe_log_cells_init        (StrobeLogCells *self);
void strobe_log_cells_clear       (StrobeLogCells *self);
/* Time, thread, verbosity, category, message and source columns, bound to @self. */
void strobe_log_cells_add_columns (StrobeLogCells *self,
                                   GtkColumnView  *column_view);

G_END_DECLS
