/* test-text.c — strobe_text_append_escaped against a character-at-a-time reference (what
 * it was before printable ASCII went by runs), for random strings of printable ASCII,
 * quotes, backslashes, controls, valid and broken UTF-8, bidi marks and separators,
 * embedded NULs, under every flag.
 *
 * SPDX-License-Identifier: MIT
 */
#include <glib.h>
#include <string.h>

#include "strobe-text.h"

static gboolean
ref_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029;
}

static gboolean
ref_bidi (gunichar c)
{
  return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
         || (c >= 0x2066 && c <= 0x2069);
}

static void
reference (GString *out, const char *s, gsize len, StrobeTextFlags flags)
{
  gboolean exact = (flags & STROBE_TEXT_EXACT) != 0;
  const char *end = s + len;

  if (flags & STROBE_TEXT_QUOTES)
    g_string_append_c (out, '"');
  for (const char *p = s; p < end;)
    {
      gunichar c = *p ? g_utf8_get_char_validated (p, end - p) : 0;
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
          if (ref_control (c) || ref_bidi (c)
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

static void
test_random (void)
{
  static const char *const pieces[] = {
    "a", "Z", " ", "=", ".", "\"", "\\", "~", "\x7f", "\x01", "\n", "\r", "\t", "\x1b[31m",
    "é", "中", "\xe2\x80\xae", "\xe2\x80\xa8", "\xd8\x9c", "\xc2\x85", "\xff", "\xc3", "\xe4\xb8",
    "\xf0\x9f\x98\x80", "\xed\xa0\x80", "request 12 from example.org took 1.250 ms", "",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GString) want = g_string_new (NULL);
  g_autoptr(GString) got = g_string_new (NULL);

  for (guint round = 0; round < 20000; round++)
    {
      guint n = (guint) g_rand_int_range (rand, 0, 12);
      StrobeTextFlags flags = (StrobeTextFlags) g_rand_int_range (rand, 0, 16);

      g_string_truncate (s, 0);
      for (guint i = 0; i < n; i++)
        {
          if (g_rand_int_range (rand, 0, 20) == 0)
            g_string_append_c (s, '\0');
          else
            g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
        }
      g_string_assign (want, ">");
      g_string_assign (got, ">");
      reference (want, s->str, s->len, flags);
      strobe_text_append_escaped (got, s->str, (gssize) s->len, flags);
      g_assert_cmpstr (got->str, ==, want->str);
      /* The NUL-terminated form stops at the first NUL, as ever. */
      g_string_assign (want, "");
      reference (want, s->str, strlen (s->str), flags);
      {
        g_autofree char *whole = strobe_text_escape (s->str, flags);

        g_assert_cmpstr (whole, ==, want->str);
      }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text/escape-random", test_random);
  return g_test_run ();
}
