/* strobe-log-labels.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>

#include "strobe-log-labels.h"

const char *
strobe_log_verbosity_label (guint8 verbosity)
{
  switch (verbosity)
    {
    case 1:  return C_("verbosity", "Fatal");
    case 2:  return C_("verbosity", "Error");
    case 3:  return C_("verbosity", "Warning");
    case 4:  return C_("verbosity", "Display");
    case 5:  return C_("verbosity", "Log");
    case 6:  return C_("verbosity", "Verbose");
    case 7:  return C_("verbosity", "Very verbose");
    default: return "—";
    }
}

const char *
strobe_log_verbosity_css (guint8 verbosity)
{
  switch (verbosity)
    {
    case 1:  return "strobe-log-fatal";
    case 2:  return "strobe-log-error";
    case 3:  return "strobe-log-warning";
    case 4:  return "strobe-log-display";
    case 6:
    case 7:  return "strobe-log-verbose";
    default: return NULL;
    }
}

/* Integers, not %f: this runs for every row that scrolls into view. */
char *
strobe_log_format_time (const StrobeTraceClock *clock,
                        guint64                 ticks)
{
  double s = strobe_trace_clock_to_seconds (clock, ticks);
  const char *point = localeconv ()->decimal_point;
  gint64 us;

  if (!(s > -1e12 && s < 1e12))
    return g_strdup_printf ("%.6f", s);
  us = (gint64) llround (s * 1e6);
  return g_strdup_printf ("%s%" G_GINT64_FORMAT "%s%06" G_GINT64_FORMAT, us < 0 ? "-" : "",
                          ABS (us) / 1000000, point && *point ? point : ".", ABS (us) % 1000000);
}

char *
strobe_log_format_time_long (const StrobeTraceClock *clock,
                             guint64                 ticks)
{
  g_autofree char *wall = strobe_trace_clock_format_wall (clock, ticks, STROBE_WALL_DATE_TIME_NS);
  double s = strobe_trace_clock_to_seconds (clock, ticks);

  if (wall != NULL)
    /* Translators: seconds from the trace's start, then the wall-clock date, time and
     * nanoseconds, e.g. "1.500000000 s (2026-11-30 05:26:59.123456789)" */
    return g_strdup_printf (_("%.9f s (%s)"), s, wall);
  /* Translators: seconds from the trace's start */
  return g_strdup_printf (_("%.9f s from the start"), s);
}
