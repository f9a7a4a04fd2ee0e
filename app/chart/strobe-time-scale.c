/* strobe-time-scale.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-time-scale.h"

guint64
strobe_time_saturate (gdouble v)
{
  if (!(v > 0))
    return 0;
  if (v >= 18446744073709549568.0)
    return G_MAXUINT64;
  return (guint64) v;
}

void
strobe_time_scale_init (StrobeTimeScale *axis, guint64 start, guint64 end, int width)
{
  g_return_if_fail (axis != NULL);

  axis->start = start;
  axis->width = MAX (width, 1);
  axis->scale = (gdouble) (end > start ? end - start : 1) / axis->width;
}

gdouble
strobe_time_scale_x (const StrobeTimeScale *axis, guint64 time)
{
  if (time >= axis->start)
    return (gdouble) (time - axis->start) / axis->scale;
  return -(gdouble) (axis->start - time) / axis->scale;
}

guint64
strobe_time_scale_time (const StrobeTimeScale *axis, gdouble x)
{
  gdouble d = x * axis->scale;

  if (d >= 0)
    return d >= (gdouble) (G_MAXUINT64 - axis->start) ? G_MAXUINT64 : axis->start + (guint64) d;
  return -d >= (gdouble) axis->start ? 0 : axis->start - strobe_time_saturate (-d);
}

guint64
strobe_time_scale_end (const StrobeTimeScale *axis)
{
  return strobe_time_scale_time (axis, axis->width);
}

gboolean
strobe_time_scale_span (const StrobeTimeScale *axis, guint64 begin, guint64 end, gdouble clip_x0,
                       gdouble clip_x1, gdouble min_w, gdouble *x, gdouble *w)
{
  gdouble a = strobe_time_scale_x (axis, begin);
  gdouble b = strobe_time_scale_x (axis, MAX (end, begin));

  if (b - a < min_w)
    b = a + min_w;
  if (b < clip_x0 || a > clip_x1)
    return FALSE;
  a = MAX (a, clip_x0 - 1);
  b = MIN (b, clip_x1 + 1);
  *x = a;
  *w = b - a;
  return TRUE;
}

/* ---- ruler ------------------------------------------------------------------------- */

gdouble
strobe_ruler_step (gdouble seconds_per_px, gdouble min_px, int *minor)
{
  static const gdouble mantissas[] = { 1, 2, 5 };
  gdouble step = 1e-9;

  if (!(seconds_per_px > 0))
    seconds_per_px = 1e-9;
  for (int e = -9; e < 12; e++)
    {
      gdouble p = pow (10, e);
      for (guint m = 0; m < G_N_ELEMENTS (mantissas); m++)
        {
          step = mantissas[m] * p;
          /* A hair of slack: 1e-7 / 1e-9 is not quite 100 in binary. */
          if (step / seconds_per_px >= min_px * (1 - 1e-9))
            goto found;
        }
    }
found:
  if (minor)
    {
      /* 1 and 5 split in five, 2 in two; minor ticks at least 8 pixels apart. */
      gdouble lead = step / pow (10, floor (log10 (step) + 1e-9));
      int div = lead > 1.5 && lead < 2.5 ? 2 : 5;
      *minor = step / div / seconds_per_px >= 8 ? div : 1;
    }
  return step;
}

GArray *
strobe_ruler_ticks (const StrobeTraceClock *clock, const StrobeTimeScale *axis, gdouble min_px, gdouble *step_out)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (StrobeRulerTick));
  gdouble spp = strobe_trace_clock_duration (clock, 1) * axis->scale;
  int minor = 1;
  gdouble step = strobe_ruler_step (spp, min_px, &minor);
  gdouble sub = step / minor;
  gdouble s0 = strobe_trace_clock_to_seconds (clock, axis->start);
  gdouble s1 = s0 + spp * axis->width;
  gint64 k0 = (gint64) floor (s0 / sub), k1 = (gint64) ceil (s1 / sub);

  if (step_out)
    *step_out = step;
  /* A pathological range (nothing to tick): none. */
  if (k1 - k0 > 10000)
    return ticks;
  for (gint64 k = k0; k <= k1; k++)
    {
      StrobeRulerTick t;
      gdouble s = (gdouble) k * sub;

      if (s < 0 && s0 >= 0)
        continue;
      t.time = strobe_trace_clock_from_seconds (clock, s);
      /* Exact in ticks for the label, but placed by seconds so spacing stays even. */
      t.x = (s - s0) / spp;
      t.major = k % minor == 0;
      if (t.x < -0.5 || t.x > axis->width + 0.5)
        continue;
      g_array_append_val (ticks, t);
    }
  return ticks;
}

char *
strobe_ruler_label (gdouble seconds, gdouble step, gdouble range_end)
{
  gdouble mul;
  int decimals;
  gdouble mag = MAX (fabs (range_end), step);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  mul = mag >= 1 ? 1 : mag >= 1e-3 ? 1e3 : mag >= 1e-6 ? 1e6 : 1e9;
  decimals = (int) MAX (0, ceil (-log10 (step * mul) - 1e-9));
  decimals = MIN (decimals, 9);
  g_snprintf (buf, sizeof buf, "%.*f", decimals, seconds * mul);
  /* "-0" reads as a glitch. */
  if (buf[0] == '-' && strtod (buf, NULL) == 0)
    memmove (buf, buf + 1, strlen (buf));
  /* The units in the user's language, as every other duration the viewer shows. */
  if (mul == 1)
    /* Translators: a time on the timeline's ruler in seconds; %s is the number */
    return g_strdup_printf (C_("ruler", "%s s"), buf);
  if (mul == 1e3)
    /* Translators: a time on the timeline's ruler in milliseconds; %s is the number */
    return g_strdup_printf (C_("ruler", "%s ms"), buf);
  if (mul == 1e6)
    /* Translators: a time on the timeline's ruler in microseconds; %s is the number */
    return g_strdup_printf (C_("ruler", "%s µs"), buf);
  /* Translators: a time on the timeline's ruler in nanoseconds; %s is the number */
  return g_strdup_printf (C_("ruler", "%s ns"), buf);
}
