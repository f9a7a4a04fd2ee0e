/* strobe-memory-stack-pane.h — the call stack of the selected allocation, tree node, function
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

#define STROBE_TYPE_MEMORY_STACK_PANE (strobe_memory_stack_pane_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryStackPane, strobe_memory_stack_pane, STROBE, MEMORY_STACK_PANE, GtkWidget)

GtkWidget *strobe_memory_stack_pane_new             (void);
void       strobe_memory_stack_pane_set_names       (StrobeMemoryStackPane       *self,
                                                StrobeMemoryNames       *names);
/* Allocation @index of the model and its call stack. */
void       strobe_memory_stack_pane_show_allocation (StrobeMemoryStackPane       *self,
                                                const StrobeMemoryAlloc *record,
                                                guint64                  index,
                                                const StrobeTraceClock  *clock);
/* A call stack as the trees have it: @n frames, innermost first, each one function of a
 * frame (@inline_depths[i] of frames[i]), under @title. */
void       strobe_memory_stack_pane_show_frames     (StrobeMemoryStackPane       *self,
                                                const char              *title,
                                                const StrobeMemoryFrame *frames,
                                                const guint32           *inline_depths,
                                                guint                    n);
/* Call stack @stack (all inlined functions of each frame), under @title. */
void       strobe_memory_stack_pane_show_stack      (StrobeMemoryStackPane       *self,
                                                const char              *title,
                                                guint32                  stack);
void       strobe_memory_stack_pane_clear           (StrobeMemoryStackPane       *self);
/* What Copy puts on the clipboard: the title, then a line per frame. */
char      *strobe_memory_stack_pane_dup_text        (StrobeMemoryStackPane       *self);
/* The rows' first lines ("#0 function"), for tests; free with g_strfreev. */
char     **strobe_memory_stack_pane_dup_rows        (StrobeMemoryStackPane       *self);

G_END_DECLS
