/* strobe-callers-panel.h — the one callers/callees panel (a butterfly): for the function a
 * view chose, the functions that called it and those it called, each a table of the view's
 * items and columns, under a line saying whose they are (or how to choose one). Which
 * function is chosen, and how its calls are counted, is the view's: the CPU timers panel
 * and the memory view's caller/callee tab both show theirs here.
 *
 * Activating a caller or callee (Enter, double click) emits "activate-call" with the item.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-table.h"

G_BEGIN_DECLS

#define STROBE_TYPE_CALLERS_PANEL (strobe_callers_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCallersPanel, strobe_callers_panel, STROBE, CALLERS_PANEL, GtkWidget)

/* Tables of @item_type rows with @columns (a static array); the callers' table titled
 * @callers_title and the callees' @callees_title, side by side (horizontal) or one over the
 * other; sorted by column @sort_column descending at first (-1: in the order given). */
GtkWidget     *strobe_callers_panel_new              (GType                    item_type,
                                                      const StrobeTableColumn *columns,
                                                      guint                    n_columns,
                                                      int                      sort_column,
                                                      GtkOrientation           orientation,
                                                      const char              *callers_title,
                                                      const char              *callees_title);
/* Shows @callers and @callees (items of the item type; NULL: none) under @heading. */
void           strobe_callers_panel_set_calls        (StrobeCallersPanel      *self,
                                                      const char              *heading,
                                                      GPtrArray               *callers,
                                                      GPtrArray               *callees);
/* How far a long search for them is, 0–1, shown under the heading; below 0: hidden. */
void           strobe_callers_panel_set_progress     (StrobeCallersPanel      *self,
                                                      gdouble                  fraction);
/* The rows as given (not sorted). */
GListModel    *strobe_callers_panel_get_callers      (StrobeCallersPanel      *self);
GListModel    *strobe_callers_panel_get_callees      (StrobeCallersPanel      *self);
GtkColumnView *strobe_callers_panel_get_callers_view (StrobeCallersPanel      *self);
GtkColumnView *strobe_callers_panel_get_callees_view (StrobeCallersPanel      *self);

G_END_DECLS
