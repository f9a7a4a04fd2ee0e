/* strobe-text.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-text.h"

#include <string.h>

static gboolean
is_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029;
}

static gboolean
is_bidi (gunichar c)
{
  return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
         || (c >= 0x2066 && c <= 0x2069);
}

void
strobe_text_append_escaped (GString *out, const char *s, gssize len, StrobeTextFlags flags)
{
  gboolean exact = (flags & STROBE_TEXT_EXACT) != 0;   /* " and \ escaped too */
  gboolean plain_runs = (flags & (STROBE_TEXT_NAME | STROBE_TEXT_LOGGER)) == 0;
  const char *end;

  if (s == NULL)
    s = "";
  end = s + (len < 0 ? strlen (s) : (gsize) len);
  if (flags & STROBE_TEXT_QUOTES)
    g_string_append_c (out, '"');
  for (const char *p = s; p < end;)
    {
      gunichar c;

      /* A run of printable ASCII that no flag escapes goes as it is, at once, not a
       * character at a time (a UTF-8 decode and an append each). */
      if (plain_runs)
        {
          const char *q = p;

          while (q < end && (guchar) *q >= 0x20 && (guchar) *q < 0x7f && *q != '"' && *q != '\\')
            q++;
          if (q > p)
            {
              g_string_append_len (out, p, q - p);
              p = q;
              continue;
            }
        }
      c = *p ? g_utf8_get_char_validated (p, end - p) : 0;
      const char *next;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      next = *p ? g_utf8_next_char (p) : p + 1;
      switch (c)
        {
        case '"':  g_string_append (out, exact ? "\\\"" : "\""); break;
        case '\\': g_string_append (out, exact ? "\\\\" : "\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (is_control (c) || is_bidi (c)
              || ((flags & STROBE_TEXT_NAME) && (c == ' ' || c == '='))
              || ((flags & STROBE_TEXT_LOGGER) && c == '.'))
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, next - p);
          break;
        }
      p = next;
    }
  if (flags & STROBE_TEXT_QUOTES)
    g_string_append_c (out, '"');
}

char *
strobe_text_escape (const char *s, StrobeTextFlags flags)
{
  GString *out = g_string_new (NULL);

  strobe_text_append_escaped (out, s, -1, flags);
  return g_string_free (out, FALSE);
}
