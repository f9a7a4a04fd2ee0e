/* strobe-overview-view.h — the overview page of an open trace: what program, when, how
 * long, how it ended, its threads, event types, channels and the runtime's statistics.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_OVERVIEW_VIEW (strobe_overview_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeOverviewView, strobe_overview_view, STROBE, OVERVIEW_VIEW, StrobeView)

G_END_DECLS
