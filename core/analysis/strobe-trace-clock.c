/* strobe-trace-clock.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-trace-clock.h"

#include <math.h>

void
strobe_trace_clock_init (StrobeTraceClock         *clock,
                         const StrobeWireMetadata *metadata)
{
  g_return_if_fail (clock != NULL);

  *clock = (StrobeTraceClock) { .frequency = 1000000000u };
  if (metadata == NULL)
    return;
  clock->frequency_valid = metadata->clock_frequency >= STROBE_TRACE_CLOCK_MIN_FREQUENCY &&
                           metadata->clock_frequency <= STROBE_TRACE_CLOCK_MAX_FREQUENCY;
  if (clock->frequency_valid)
    clock->frequency = metadata->clock_frequency;
  clock->origin = metadata->clock_origin;
  clock->base = metadata->clock_origin;
  clock->start_time_ns = metadata->start_time_ns;
}

void
strobe_trace_clock_set_base (StrobeTraceClock *clock,
                             guint64           base)
{
  g_return_if_fail (clock != NULL);
  clock->base = base;
}

gdouble
strobe_trace_clock_ticks_to_seconds (const StrobeTraceClock *clock,
                                     gdouble                 ticks)
{
  g_return_val_if_fail (clock != NULL, 0.0);
  return ticks / (gdouble) clock->frequency;
}

gdouble
strobe_trace_clock_duration (const StrobeTraceClock *clock,
                             guint64                 ticks)
{
  return strobe_trace_clock_ticks_to_seconds (clock, (gdouble) ticks);
}

gdouble
strobe_trace_clock_to_seconds (const StrobeTraceClock *clock,
                               guint64                 ticks)
{
  g_return_val_if_fail (clock != NULL, 0.0);
  if (ticks >= clock->base)
    return strobe_trace_clock_duration (clock, ticks - clock->base);
  return -strobe_trace_clock_duration (clock, clock->base - ticks);
}

guint64
strobe_trace_clock_ticks (const StrobeTraceClock *clock,
                          gdouble                 seconds)
{
  gdouble t;

  g_return_val_if_fail (clock != NULL, 0);
  t = seconds * (gdouble) clock->frequency;
  if (isnan (t) || t <= 0.0)
    return 0;
  if (t >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) llround (t);
}

guint64
strobe_trace_clock_from_seconds (const StrobeTraceClock *clock,
                                 gdouble                 seconds)
{
  guint64 d;

  g_return_val_if_fail (clock != NULL, 0);
  if (isnan (seconds))
    return clock->base;
  if (seconds >= 0.0)
    {
      d = strobe_trace_clock_ticks (clock, seconds);
      return d > G_MAXUINT64 - clock->base ? G_MAXUINT64 : clock->base + d;
    }
  d = strobe_trace_clock_ticks (clock, -seconds);
  return d > clock->base ? 0 : clock->base - d;
}

gdouble
strobe_trace_clock_ns_from_origin (const StrobeTraceClock *clock,
                                   gdouble                 ticks)
{
  g_return_val_if_fail (clock != NULL, 0);
  return (ticks - (gdouble) clock->origin) * 1e9 / (gdouble) clock->frequency;
}

gdouble
strobe_trace_clock_ticks_from_origin (const StrobeTraceClock *clock,
                                      gdouble                 ns)
{
  g_return_val_if_fail (clock != NULL, 0);
  return (gdouble) clock->origin + ns * (gdouble) clock->frequency / 1e9;
}

gint64
strobe_trace_clock_origin_ns (const StrobeTraceClock *clock)
{
  g_return_val_if_fail (clock != NULL, 0);
  return (gint64) ((unsigned __int128) clock->origin * 1000000000u / clock->frequency);
}

gdouble
strobe_trace_clock_ticks_for_ns (const StrobeTraceClock *clock,
                                 gdouble                 ns)
{
  g_return_val_if_fail (clock != NULL, 0);
  return ns * (gdouble) clock->frequency / 1e9;
}

guint64
strobe_trace_clock_to_wall_ns (const StrobeTraceClock *clock,
                               guint64                 ticks)
{
  guint64 delta, ns;
  unsigned __int128 wide;

  g_return_val_if_fail (clock != NULL, 0);
  if (clock->start_time_ns == 0)
    return 0;
  /* Integer arithmetic: a double has only ~256 ns of resolution at today's epoch times. */
  delta = ticks >= clock->origin ? ticks - clock->origin : clock->origin - ticks;
  wide = ((unsigned __int128) delta * 1000000000u) / clock->frequency;
  ns = wide > G_MAXUINT64 ? G_MAXUINT64 : (guint64) wide;
  if (ticks >= clock->origin)
    return ns > G_MAXUINT64 - clock->start_time_ns ? G_MAXUINT64 : clock->start_time_ns + ns;
  return ns >= clock->start_time_ns ? 0 : clock->start_time_ns - ns;
}

char *
strobe_wall_time_format (guint64         unix_ns,
                         StrobeWallStyle style)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *text = NULL;
  guint ns = (guint) (unix_ns % G_GUINT64_CONSTANT (1000000000));

  /* strobe-cli info has always printed a start time of 0 as the epoch itself. */
  if (unix_ns == 0 && style != STROBE_WALL_ISO8601_UTC)
    return NULL;
  utc = g_date_time_new_from_unix_utc ((gint64) (unix_ns / G_GUINT64_CONSTANT (1000000000)));
  if (utc != NULL && style == STROBE_WALL_ISO8601_UTC)
    {
      g_autoptr(GDateTime) precise = g_date_time_add (utc, (GTimeSpan) (ns / 1000));
      return precise ? g_date_time_format_iso8601 (precise) : NULL;
    }
  local = utc ? g_date_time_to_local (utc) : NULL;
  if (local == NULL)
    return NULL;
  /* Whole seconds from GLib, the fraction by hand: a GDateTime keeps only microseconds. */
  switch (style)
    {
    case STROBE_WALL_DATE_TIME_NS:
      text = g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
      return text ? g_strdup_printf ("%s.%09u", text, ns) : NULL;
    case STROBE_WALL_TIME_US:
      text = g_date_time_format (local, "%H:%M:%S");
      return text ? g_strdup_printf ("%s.%06u", text, ns / 1000) : NULL;
    case STROBE_WALL_DATE_TIME:
    case STROBE_WALL_ISO8601_UTC:
    default:
      return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
    }
}

char *
strobe_trace_clock_format_wall (const StrobeTraceClock *clock,
                                guint64                 ticks,
                                StrobeWallStyle         style)
{
  g_return_val_if_fail (clock != NULL, NULL);
  return strobe_wall_time_format (strobe_trace_clock_to_wall_ns (clock, ticks), style);
}
