/* strobe-memory-stack-panel.h — the call stack of the selected allocation, tree node, function
 * or group, symbolized: one row per frame (inlined functions each on their own, marked),
 * function, source file:line and module; Copy puts it all on the clipboard as text, Open
 * Source Location opens the selected frame's (or the first known) file and line with the
 * editor command of the preferences.
 *
 * Actions: stack.copy (Ctrl+C), stack.open-source (Alt+Return).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_STACK_PANEL (strobe_memory_stack_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryStackPanel, strobe_memory_stack_panel, STROBE, MEMORY_STACK_PANEL, GtkWidget)

GtkWidget *strobe_memory_stack_panel_new             (void);
void       strobe_memory_stack_panel_set_names       (StrobeMemoryStackPanel       *self,
                                                StrobeMemoryNames       *names);
/* Allocation @index of the model and its call stack. */
void       strobe_memory_stack_panel_show_allocation (StrobeMemoryStackPanel       *self,
                                                const StrobeMemoryAlloc *record,
                                                guint64                  index,
                                                const StrobeTraceClock  *clock);
/* A call stack as the trees have it: @n frames, innermost first, each one function of a
 * frame (@inline_depths[i] of frames[i]), under @title. */
void       strobe_memory_stack_panel_show_frames     (StrobeMemoryStackPanel       *self,
                                                const char              *title,
                                                const StrobeMemoryFrame *frames,
                                                const guint32           *inline_depths,
                                                guint                    n);
/* Call stack @stack (all inlined functions of each frame), under @title. */
void       strobe_memory_stack_panel_show_stack      (StrobeMemoryStackPanel       *self,
                                                const char              *title,
                                                guint32                  stack);
void       strobe_memory_stack_panel_clear           (StrobeMemoryStackPanel       *self);
/* What Copy puts on the clipboard: the title, then a line per frame. */
char      *strobe_memory_stack_panel_dup_text        (StrobeMemoryStackPanel       *self);
/* The rows' first lines ("#0 function"), for tests; free with g_strfreev. */
char     **strobe_memory_stack_panel_dup_rows        (StrobeMemoryStackPanel       *self);

/* What the last Copy or Open Source Location said (opened, or why not). */
const char *strobe_memory_stack_panel_get_status (StrobeMemoryStackPanel *self);

G_END_DECLS
