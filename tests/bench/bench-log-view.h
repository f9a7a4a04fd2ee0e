/* bench-log-view.h — the GUI half of strobe-bench-log: the real log view scrolled through
 * a big trace in a window (GSK's cairo renderer), frame by frame.
 */
#pragma once

#include "strobe-document.h"

/* Prints the scroll.* figures and ratio lines; a line saying why when there is no
 * display. */
void bench_log_view_scroll (StrobeDocument *document);
