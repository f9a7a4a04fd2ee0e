/* bench-scale-view.h — strobe-bench-scale's viewer figures (issue 20): the Timeline page
 * opening a big trace the way the viewer does (read on a thread, shown as it grows),
 * timed to its first complete frame, frames at three zooms while loading and after, and
 * the main thread's stalls meanwhile.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Prints `name value unit` and ratio lines for @path; 77 without a display. */
int bench_scale_view (const char *path);

G_END_DECLS
