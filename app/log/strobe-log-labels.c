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
  guint64 wall = strobe_trace_clock_to_wall_ns (clock, ticks);
  double s = strobe_trace_clock_to_seconds (clock, ticks);

  if (wall != 0)
    {
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc ((gint64) (wall / 1000000000u));
      g_autoptr(GDateTime) local = utc ? g_date_time_to_local (utc) : NULL;
      g_autofree char *date = local ? g_date_time_format (local, "%Y-%m-%d %H:%M:%S") : NULL;

      if (date != NULL)
        /* Translators: seconds from the trace's start, then the wall-clock date, time and
         * nanoseconds, e.g. "1.500000000 s (2026-11-30 05:26:59.123456789)" */
        return g_strdup_printf (_("%.9f s (%s.%09u)"), s, date, (guint) (wall % 1000000000u));
    }
  /* Translators: seconds from the trace's start */
  return g_strdup_printf (_("%.9f s from the start"), s);
}
