/* strobe-compare-view.h — the comparison page of a trace (page "compare"): this trace is
 * A, the one chosen with "Compare With…" is B; timers, frame times, memory and log A vs B
 * over the same range of each, computed on a worker thread (core/compare).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-timers.h"
#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_COMPARE_VIEW (strobe_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCompareView, strobe_compare_view, STROBE, COMPARE_VIEW, StrobeView)

/* Trace B: compared as soon as it is read (now, when it is). */
void        strobe_compare_view_set_other  (StrobeCompareView *self, StrobeDocument *other);
/* B read from @file (a new document, read on a worker thread). */
void        strobe_compare_view_open_other (StrobeCompareView *self, GFile *file);
StrobeDocument *strobe_compare_view_get_other (StrobeCompareView *self);
/* Where else B may come from: @documents the traces open in the window (StrobeDocument;
 * A itself is left out), @files the traces in the store, newest first (GFile). Either may
 * be NULL. "Compare With…" lists them when it opens. */
void        strobe_compare_view_set_sources (StrobeCompareView *self, GListModel *documents, GListModel *files);
/* That menu as it would open now (for tests): sections "Open Traces", "Trace Store", then
 * "Other File…"; items activate compare.with (a file's URI). */
GMenuModel *strobe_compare_view_build_menu (StrobeCompareView *self);
/* B by its file: the open trace's document when it is among the sources, else read anew. */
void        strobe_compare_view_compare_with (StrobeCompareView *self, GFile *file);
/* The timer row at @position (of the rows shown) in trace @side's own timeline: its
 * longest instance in the compared range, looked for on a worker thread, then selected.
 * A's on this tab; B's through the window's win.show-trace. A new request cancels the last
 * one. _finish: FALSE without a window for B, or when that trace has no such scope; a
 * cancelled request's error. */
void        strobe_compare_view_show_in_async  (StrobeCompareView   *self,
                                                guint                position,
                                                StrobeCompareIn      side,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean    strobe_compare_view_show_in_finish (StrobeCompareView   *self,
                                                GAsyncResult        *result,
                                                GError             **error);
/* The allocation site (a function) at @position of the memory rows shown, selected in
 * trace @side's memory view: A's on this tab (strobe_view_state_set_selected_function), B's
 * through the window's win.show-function. FALSE when that trace has no such site. */
gboolean    strobe_compare_view_show_site_in (StrobeCompareView *self, guint position, StrobeCompareIn side);
/* TRUE once the tables show the last comparison asked for (for tests). */
gboolean    strobe_compare_view_is_ready   (StrobeCompareView *self);
/* The tables' rows, as shown (sorted and filtered): "timers", "frames", "sites",
 * "messages", "counts". */
GListModel *strobe_compare_view_get_rows   (StrobeCompareView *self, const char *table);

G_END_DECLS
