/* strobe-log-view.h — the Log page of a trace: every message in a virtualized table over
 * StrobeLogList, filtered off the main thread (verbosity, categories, threads, text,
 * the selected time range), with a details pane, copy and export, and the shared cursor:
 * selecting a message moves the session's cursor to it, and a message selected elsewhere
 * (a log tick in the timeline) is selected and scrolled to here.
 *
 * Actions (on the view): view.find (Ctrl+F: the filter entry), log.copy (Ctrl+C: the
 * selected rows, tab-separated), log.copy-message (Shift+Ctrl+C), log.export (Ctrl+E),
 * log.open-source (Alt+Return), log.clear-filters.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-log-export.h"
#include "strobe-log-list.h"
#include "strobe-log-rows.h"
#include "strobe-log-window.h"
#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_VIEW (strobe_log_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogView, strobe_log_view, STROBE, LOG_VIEW, StrobeView)

/* For tests and the benchmark. */
StrobeLogList *strobe_log_view_get_list         (StrobeLogView *self);
/* The list as the table takes it (its rows are kept across filter changes). */
StrobeLogRows *strobe_log_view_get_rows         (StrobeLogView *self);
/* Where the table's rows are in a list longer than its window (tests). */
StrobeLogWindow *strobe_log_view_get_window     (StrobeLogView *self);
GtkColumnView *strobe_log_view_get_column_view  (StrobeLogView *self);
GtkWidget     *strobe_log_view_get_details      (StrobeLogView *self);
/* Fills the cells on screen not filled yet, as a frame's layout does (after GTK's). */
void           strobe_log_view_fill_cells       (StrobeLogView *self);
/* The text the Copy action puts on the clipboard for the selected rows. */
char          *strobe_log_view_dup_selected_rows (StrobeLogView *self);
/* What log.export does once a file is chosen: every row shown, on a worker thread; the
 * status bar says when it is done. */
void           strobe_log_view_export           (StrobeLogView        *self,
                                                 GFile                *file,
                                                 StrobeLogExportFormat format);
/* Scrolls the table so that @position is in view. */
void           strobe_log_view_scroll_to        (StrobeLogView *self,
                                                 guint          position);

G_END_DECLS
