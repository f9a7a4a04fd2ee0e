/* strobe-cli-timeline.c — what `stats` and `export` share: reading a trace into the
 * threads and timeline models, and time options.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"

int
strobe_cli_load_timeline (const char *file, StrobeThreadsModel **threads, StrobeTimelineModel **timeline)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;

  *threads = strobe_threads_model_new ();
  *timeline = strobe_timeline_model_new ();
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (*threads));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (*timeline));
  if (!strobe_decoder_read_file (decoder, file, NULL, &error))
    {
      /* The models keep everything before the error; the caller still prints it. */
      g_printerr ("strobe-cli: %s: %s\n", file, error->message);
      return STROBE_CLI_DECODE_ERROR;
    }
  return STROBE_CLI_OK;
}

gboolean
strobe_cli_parse_time (const char *s, gdouble *seconds)
{
  static const struct { const char *suffix; gdouble scale; } units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 }, { "", 1.0 },
  };
  char *end;
  gdouble v;

  if (s == NULL || *s == '\0')
    return FALSE;
  v = g_ascii_strtod (s, &end);
  if (end == s)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (end, units[i].suffix))
      {
        *seconds = v * units[i].scale;
        return TRUE;
      }
  return FALSE;
}

gboolean
strobe_cli_time_range (StrobeTimelineModel *timeline, const char *from, const char *to,
                       guint64 *t0, guint64 *t1)
{
  gdouble s;

  *t0 = 0;
  *t1 = G_MAXUINT64;
  if (from)
    {
      if (!strobe_cli_parse_time (from, &s))
        {
          g_printerr (_("strobe-cli: not a time: “%s” (seconds from the start of the trace, or with ns, us, ms, s)\n"), from);
          return FALSE;
        }
      *t0 = strobe_timeline_model_seconds_to_ticks (timeline, s);
    }
  if (to)
    {
      if (!strobe_cli_parse_time (to, &s))
        {
          g_printerr (_("strobe-cli: not a time: “%s” (seconds from the start of the trace, or with ns, us, ms, s)\n"), to);
          return FALSE;
        }
      *t1 = strobe_timeline_model_seconds_to_ticks (timeline, s);
    }
  if (*t1 < *t0)
    {
      g_printerr ("%s\n", _("strobe-cli: --to is before --from"));
      return FALSE;
    }
  return TRUE;
}
