/* strobe-format.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "strobe-format.h"
#include "strobe-trace-clock.h"

char *
strobe_format_duration_s (double seconds)
{
  if (seconds < 0)
    return g_strdup ("—");
  if (seconds >= 60.0)
    {
      guint64 total = (guint64) MIN (seconds, (double) G_MAXUINT * 60.0);
      /* Translators: a duration in minutes and seconds */
      return g_strdup_printf (_("%u min %02u s"), (guint) (total / 60), (guint) (total % 60));
    }
  if (seconds >= 1.0)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_("%.3f s"), seconds);
  if (seconds >= 1e-3)
    /* Translators: a duration in milliseconds */
    return g_strdup_printf (_("%.3f ms"), seconds * 1e3);
  /* Translators: a duration in microseconds */
  return g_strdup_printf (_("%.1f µs"), seconds * 1e6);
}

char *
strobe_format_wall_time (guint64 unix_ns)
{
  char *text = strobe_wall_time_format (unix_ns, STROBE_WALL_DATE_TIME);

  return text != NULL ? text : g_strdup ("—");
}

char *
strobe_format_count (guint64 n)
{
  const struct lconv *lc = localeconv ();
  /* The C locale groups nothing: then SI style, a narrow no-break space every 3 digits. */
  const char *sep = lc->thousands_sep && *lc->thousands_sep ? lc->thousands_sep : "\u202f";
  char digits[24];
  GString *out = g_string_new (NULL);
  int len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, n);

  for (int i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
strobe_format_size (guint64 bytes)
{
  return g_format_size (bytes);
}

