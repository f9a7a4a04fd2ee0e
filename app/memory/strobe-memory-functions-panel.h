/* strobe-memory-functions-panel.h — heaptrack's caller/callee view: every function with
 * its inclusive and self costs; for the selected one, the functions that called it and
 * those it called, with what went through each call, in app/chart's StrobeCallersPanel.
 * Activating a caller or callee (Enter, double click) selects it in the list of functions.
 *
 * Signal "show-function" (StrobeMemoryCostItem) when a function is selected.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-callers.h"
#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_FUNCTIONS_PANEL (strobe_memory_functions_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryFunctionsPanel, strobe_memory_functions_panel, STROBE, MEMORY_FUNCTIONS_PANEL, GtkWidget)

GtkWidget     *strobe_memory_functions_panel_new         (void);
void           strobe_memory_functions_panel_set_names   (StrobeMemoryFunctionsPanel *self,
                                                        StrobeMemoryNames        *names);
/* NULL: empty. */
void           strobe_memory_functions_panel_set_callers (StrobeMemoryFunctionsPanel *self,
                                                        StrobeMemoryCallers      *callers);
/* Selects the function with @key; FALSE when there is none. */
gboolean       strobe_memory_functions_panel_select      (StrobeMemoryFunctionsPanel *self,
                                                        guint64                   key);
/* Selects the function named @name (as the list shows it); FALSE when there is none. */
gboolean       strobe_memory_functions_panel_select_name (StrobeMemoryFunctionsPanel *self,
                                                        const char               *name);
GtkColumnView *strobe_memory_functions_panel_get_functions (StrobeMemoryFunctionsPanel *self);
GtkColumnView *strobe_memory_functions_panel_get_callers_view (StrobeMemoryFunctionsPanel *self);
GtkColumnView *strobe_memory_functions_panel_get_callees_view (StrobeMemoryFunctionsPanel *self);

G_END_DECLS
