/* fuzz-control.c — the runtime's control protocol as a peer's bytes reach it: framing
 * (lines, oversize lines, NUL, CR/LF mixes) and the command grammar. The first input
 * byte picks the chunk size, so line state carried across reads is exercised too.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-control-parse.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct
{
  const StrobeControlReader *reader;
  unsigned lines;
} State;

static bool
on_line (void *user, char *line)
{
  State *s = user;
  StrobeControlCommand cmd;
  size_t len = strlen (line);

  if (len > STROBE_CONTROL_MAX_LINE || line != s->reader->line)
    abort ();
  strobe__control_parse (line, &cmd);
  if (cmd.verb > STROBE_CONTROL_CMD_UNKNOWN)
    abort ();
  /* Arguments point into the line the reader owns, or are the empty literal. */
  if (*cmd.arg && (cmd.arg < line || cmd.arg > line + len))
    abort ();
  if ((cmd.verb == STROBE_CONTROL_CMD_MALFORMED || cmd.verb == STROBE_CONTROL_CMD_UNKNOWN)
      != (cmd.error != NULL))
    abort ();
  if ((cmd.verb == STROBE_CONTROL_CMD_SEND_TO || cmd.verb == STROBE_CONTROL_CMD_WRITE_TO
       || cmd.verb == STROBE_CONTROL_CMD_CHANNELS_SET || cmd.verb == STROBE_CONTROL_CMD_AUTH)
      && *cmd.arg == '\0')
    abort ();
  /* A secret is one word. */
  if (cmd.verb == STROBE_CONTROL_CMD_AUTH && strpbrk (cmd.arg, " \t"))
    abort ();
  s->lines++;
  return true;
}

static bool
on_too_long (void *user)
{
  return true;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  StrobeControlReader reader = { 0 };
  State state = { &reader, 0 };
  size_t chunk;

  if (size == 0)
    return 0;
  chunk = 1 + data[0] % 64;
  data++, size--;
  for (size_t pos = 0; pos < size; pos += chunk)
    strobe__control_read (&reader, (const char *) data + pos, size - pos < chunk ? size - pos : chunk,
                          on_line, on_too_long, &state);
  return 0;
}
