/* strobe-compare-view.h — the comparison page of a trace (page "compare"): this trace is
 * A, the one chosen with "Compare With…" is B; timers, frame times, memory and log A vs B
 * over the same range of each, computed on a worker thread (core/compare).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_COMPARE_VIEW (strobe_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCompareView, strobe_compare_view, STROBE, COMPARE_VIEW, StrobeView)

/* Trace B: compared as soon as it is read (now, when it is). */
void        strobe_compare_view_set_other  (StrobeCompareView *self, StrobeDocument *other);
/* B read from @file (a new document, read on a worker thread). */
void        strobe_compare_view_open_other (StrobeCompareView *self, GFile *file);
StrobeDocument *strobe_compare_view_get_other (StrobeCompareView *self);
/* TRUE once the tables show the last comparison asked for (for tests). */
gboolean    strobe_compare_view_is_ready   (StrobeCompareView *self);
/* The tables' rows, as shown (sorted and filtered): "timers", "frames", "sites",
 * "messages", "counts". */
GListModel *strobe_compare_view_get_rows   (StrobeCompareView *self, const char *table);

G_END_DECLS
