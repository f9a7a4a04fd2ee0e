/* strobe-metadata.c — a trace's metadata as people read it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-metadata.h"

char *
strobe_metadata_dup_command_line (const StrobeWireMetadata *meta)
{
  GString *s = g_string_new (NULL);
  const char *args = meta->command_line;
  gsize len = meta->command_line_len;
  gsize pos = 0;

  while (args != NULL && pos < len)
    {
      gsize n = strnlen (args + pos, len - pos);
      g_autofree char *arg = g_utf8_make_valid (args + pos, (gssize) n);
      gboolean plain = *arg != '\0';

      for (const char *p = arg; *p && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("-_./=:,+@%", *p) != NULL;
      if (s->len)
        g_string_append_c (s, ' ');
      if (plain)
        g_string_append (s, arg);
      else
        {
          g_autofree char *quoted = g_shell_quote (arg);
          g_string_append (s, quoted);
        }
      pos += n + 1;
    }
  return g_string_free (s, FALSE);
}

const char *
strobe_metadata_clock_source_name (guint8 clock_source)
{
  switch (clock_source)
    {
    case STROBE_CLOCK_SOURCE_MONOTONIC: return _("monotonic clock");
    case STROBE_CLOCK_SOURCE_TSC:       return _("x86 TSC");
    case STROBE_CLOCK_SOURCE_ARM_TIMER: return _("ARM generic timer");
    default:                            return _("unknown clock");
    }
}
