/* strobe-memory-callers-panel.h — heaptrack's caller/callee view: every function with
 * its inclusive and self costs; for the selected one, the functions that called it and
 * those it called, with what went through each call. Activating a caller or callee
 * (Enter, double click) selects it in the list of functions.
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

#define STROBE_TYPE_MEMORY_CALLERS_PANEL (strobe_memory_callers_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryCallersPanel, strobe_memory_callers_panel, STROBE, MEMORY_CALLERS_PANEL, GtkWidget)

GtkWidget     *strobe_memory_callers_panel_new         (void);
void           strobe_memory_callers_panel_set_names   (StrobeMemoryCallersPanel *self,
                                                        StrobeMemoryNames        *names);
/* NULL: empty. */
void           strobe_memory_callers_panel_set_callers (StrobeMemoryCallersPanel *self,
                                                        StrobeMemoryCallers      *callers);
/* Selects the function with @key; FALSE when there is none. */
gboolean       strobe_memory_callers_panel_select      (StrobeMemoryCallersPanel *self,
                                                        guint64                   key);
GtkColumnView *strobe_memory_callers_panel_get_functions (StrobeMemoryCallersPanel *self);
GtkColumnView *strobe_memory_callers_panel_get_callers_view (StrobeMemoryCallersPanel *self);
GtkColumnView *strobe_memory_callers_panel_get_callees_view (StrobeMemoryCallersPanel *self);

G_END_DECLS
