/* test-counters-view.h — a counters table: the proof that a view is one folder and one
 * registration line (strobe_view_register), with no edit to the document or the shared
 * view state. It names its own model (test-counters-model.h) in the document's registry,
 * keeps its own selection, and lays itself out in test-counters-view.ui.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-view.h"

G_BEGIN_DECLS

#define TEST_TYPE_COUNTERS_VIEW (test_counters_view_get_type ())
G_DECLARE_FINAL_TYPE (TestCountersView, test_counters_view, TEST, COUNTERS_VIEW, StrobeView)

/* The table's rows as shown, "name|samples|last|min|max" each; free with g_strfreev. */
char   **test_counters_view_dup_rows      (TestCountersView *self);
/* The view's own selection: the selected counter's name, or NULL. */
const char *test_counters_view_get_selected (TestCountersView *self);

G_END_DECLS
