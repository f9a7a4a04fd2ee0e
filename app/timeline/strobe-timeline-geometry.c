/* strobe-timeline-geometry.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-timeline-geometry.h"

/* ---- zoom and pan ----------------------------------------------------------------- */

static void
clamp_range (guint64 *start, guint64 *end, guint64 lo, guint64 hi)
{
  guint64 len = *end - *start;

  if (hi <= lo)
    return;
  if (len >= hi - lo)
    {
      /* Wider than the bounds: centred on them. */
      guint64 extra = len - (hi - lo);
      *start = lo >= extra / 2 ? lo - extra / 2 : 0;
      *end = *start + len;
      return;
    }
  if (*start < lo)
    {
      *start = lo;
      *end = lo + len;
    }
  else if (*end > hi)
    {
      *end = hi;
      *start = hi - len;
    }
}

void
strobe_time_zoom (guint64 *start, guint64 *end, gdouble factor, gdouble anchor, guint64 min_span,
                  guint64 lo, guint64 hi)
{
  gdouble len = (gdouble) (*end - *start);
  gdouble pivot = (gdouble) *start + len * CLAMP (anchor, 0, 1);
  gdouble new_len = MAX (len * factor, (gdouble) MAX (min_span, 1));
  gdouble a, b;

  g_return_if_fail (*end >= *start);

  /* Never wider than the bounds allow to see anything (twice them). */
  if (hi > lo)
    new_len = MIN (new_len, 2.0 * (gdouble) (hi - lo) + 1);
  a = pivot - new_len * CLAMP (anchor, 0, 1);
  b = a + new_len;
  if (a < 0)
    {
      b -= a;
      a = 0;
    }
  *start = strobe_time_saturate (a);
  *end = MAX (strobe_time_saturate (b), *start + 1);
  clamp_range (start, end, lo, hi);
}

void
strobe_time_pan (guint64 *start, guint64 *end, gint64 delta, guint64 lo, guint64 hi)
{
  guint64 len = *end - *start;

  g_return_if_fail (*end >= *start);

  if (delta < 0)
    {
      guint64 d = delta == G_MININT64 ? (guint64) G_MAXINT64 + 1 : (guint64) -delta;
      *start = *start > d ? *start - d : 0;
    }
  else
    *start = *start > G_MAXUINT64 - len - (guint64) delta ? G_MAXUINT64 - len : *start + (guint64) delta;
  *end = *start + len;
  clamp_range (start, end, lo, hi);
}

void
strobe_time_fit (guint64 *start, guint64 *end, guint64 begin, guint64 end_time, gdouble margin)
{
  guint64 len = end_time > begin ? end_time - begin : 1;
  guint64 m = strobe_time_saturate ((gdouble) len * MAX (margin, 0));

  *start = begin > m ? begin - m : 0;
  *end = end_time > G_MAXUINT64 - m ? G_MAXUINT64 : MAX (end_time, begin + 1) + m;
}

/* ---- tiles ------------------------------------------------------------------------ */

/* The axis start in whole pixels from the origin. */
static gdouble
origin_px (const StrobeTimeScale *axis, guint64 origin)
{
  gdouble d = axis->start >= origin ? (gdouble) (axis->start - origin) : -(gdouble) (origin - axis->start);
  return floor (d / axis->scale + 0.5);
}

void
strobe_tile_range (const StrobeTimeScale *axis, guint64 origin, int size, gint64 *first, gint64 *last)
{
  gdouble p = origin_px (axis, origin);

  *first = (gint64) floor (p / size);
  *last = (gint64) floor ((p + axis->width - 1) / size);
}

gdouble
strobe_tile_x (const StrobeTimeScale *axis, guint64 origin, int size, gint64 index)
{
  return (gdouble) index * size - origin_px (axis, origin);
}

guint64
strobe_tile_time (gdouble scale, guint64 origin, int size, gint64 index)
{
  gdouble d = (gdouble) index * size * scale;

  if (d >= 0)
    return d >= (gdouble) (G_MAXUINT64 - origin) ? G_MAXUINT64 : origin + (guint64) floor (d + 0.5);
  return -d >= (gdouble) origin ? 0 : origin - strobe_time_saturate (floor (-d + 0.5));
}

/* ---- durations ---------------------------------------------------------------------- */

char *
strobe_format_ticks (const StrobeTraceClock *clock, guint64 ticks)
{
  gdouble s = strobe_trace_clock_duration (clock, ticks);

  if (s >= 60)
    {
      guint64 total = (guint64) MIN (s, (gdouble) G_MAXUINT * 60.0);
      /* Translators: a duration in minutes and seconds */
      return g_strdup_printf (_("%u min %02u s"), (guint) (total / 60), (guint) (total % 60));
    }
  if (s >= 1)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_("%.3f s"), s);
  if (s >= 1e-3)
    /* Translators: a duration in milliseconds */
    return g_strdup_printf (s >= 0.1 ? _("%.1f ms") : s >= 0.01 ? _("%.2f ms") : _("%.3f ms"), s * 1e3);
  if (s >= 1e-6)
    /* Translators: a duration in microseconds */
    return g_strdup_printf (s >= 1e-4 ? _("%.1f µs") : s >= 1e-5 ? _("%.2f µs") : _("%.3f µs"), s * 1e6);
  /* Translators: a duration in nanoseconds */
  return g_strdup_printf (_("%.0f ns"), s * 1e9);
}

GStrv
strobe_format_ticks_widest (void)
{
  GPtrArray *b = g_ptr_array_new ();

  /* The same messages as above, each with its widest figures. */
  g_ptr_array_add (b, g_strdup_printf (_("%u min %02u s"), 888u, 59u));
  g_ptr_array_add (b, g_strdup_printf (_("%.3f s"), 59.999));
  g_ptr_array_add (b, g_strdup_printf (_("%.1f ms"), 888.8));
  g_ptr_array_add (b, g_strdup_printf (_("%.2f ms"), 88.88));
  g_ptr_array_add (b, g_strdup_printf (_("%.3f ms"), 8.888));
  g_ptr_array_add (b, g_strdup_printf (_("%.1f µs"), 888.8));
  g_ptr_array_add (b, g_strdup_printf (_("%.2f µs"), 88.88));
  g_ptr_array_add (b, g_strdup_printf (_("%.3f µs"), 8.888));
  g_ptr_array_add (b, g_strdup_printf (_("%.0f ns"), 888.0));
  g_ptr_array_add (b, NULL);
  return (GStrv) g_ptr_array_free (b, FALSE);
}
