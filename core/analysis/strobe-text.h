/* strobe-text.h — text from a trace or a peer, made safe to print: one line, and nothing
 * in it a terminal would act on (ESC sequences, OSC 52 setting the clipboard, C1
 * controls, line separators, bidirectional overrides that reorder what is shown). The
 * one escaping function of Strobe: `strobe-cli dump` (PROTOCOL.md §10) and every other
 * printer of the CLI, the Chrome JSON export and the control replies the CLI shows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  /* For a terminal, as it reads: C0 controls, DEL, C1 controls, U+2028, U+2029 and the
   * bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
   * U+2066–U+2069) are escaped; " and \ are themselves. */
  STROBE_TEXT_PLAIN  = 0,
  /* PROTOCOL.md §10, exact and reversible: " and \ escaped too. */
  STROBE_TEXT_EXACT  = 1 << 0,
  /* A §10 name: space and = escaped too. */
  STROBE_TEXT_NAME   = 1 << 1,
  /* A §10 logger name: . escaped too. */
  STROBE_TEXT_LOGGER = 1 << 2,
  /* Between double quotes (with EXACT and valid UTF-8: a JSON string). */
  STROBE_TEXT_QUOTES = 1 << 3,
} StrobeTextFlags;

/* Appends @s (@len bytes, or NUL-terminated when -1): \n \r \t by name, the other
 * escaped characters as \uXXXX (a NUL inside @len bytes is \u0000), bytes that are not
 * UTF-8 as \xNN. */
void  strobe_text_append_escaped (GString         *out,
                                  const char      *s,
                                  gssize           len,
                                  StrobeTextFlags  flags);
/* The same into a new string (NULL gives ""). */
char *strobe_text_escape         (const char      *s,
                                  StrobeTextFlags  flags);

G_END_DECLS
