/* strobe-log-labels.h — how the log view names verbosities and writes times.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-trace-clock.h"

G_BEGIN_DECLS

/* "Fatal" … "Very verbose", translated; "—" for 0 (a message whose site is unknown). */
const char *strobe_log_verbosity_label (guint8                  verbosity);
/* "strobe-log-error"…: a row's verbosity in style.css (colour, and the verbosity column's
 * icon for fatal, error, warning and display); NULL for plain. */
const char *strobe_log_verbosity_css   (guint8                  verbosity);
/* Seconds from the trace's start with microseconds, as the table shows them: "12.345678". */
char       *strobe_log_format_time      (const StrobeTraceClock *clock,
                                         guint64                 ticks);
/* The same with nanoseconds and the wall-clock time, for a tooltip or the details. */
char       *strobe_log_format_time_long (const StrobeTraceClock *clock,
                                         guint64                 ticks);

G_END_DECLS
