/* strobe-views.c — the views of a trace, one line each. A new view lives in its own
 * folder (app/NAME/, a StrobeView subclass) and is added here and in app/meson.build.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-compare-view.h"
#include "strobe-log-view.h"
#include "strobe-memory-view.h"
#include "strobe-overview-view.h"
#include "strobe-timeline-view.h"
#include "strobe-views.h"

void
strobe_views_register_all (void)
{
  strobe_view_register (STROBE_TYPE_OVERVIEW_VIEW);
  strobe_view_register (STROBE_TYPE_LOG_VIEW);
  strobe_view_register (STROBE_TYPE_TIMELINE_VIEW);
  strobe_view_register (STROBE_TYPE_MEMORY_VIEW);
  strobe_view_register (STROBE_TYPE_COMPARE_VIEW);
}
