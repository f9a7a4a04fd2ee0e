/* fuzz-control.c — the runtime's control protocol as a peer's bytes reach it: framing
 * (lines, oversize lines, NUL, CR/LF mixes), the command grammar and the server's side of
 * the challenge–response (strobe-control-auth.c). The first input
 * byte picks the chunk size, so line state carried across reads is exercised too.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strobe-control-parse.h"
#include "strobe-control-auth.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The handshake runs with this secret and a server nonce of bytes 00 01 … 1f, so the corpus
 * can hold exchanges that succeed (corpus/control/auth-exchange). */
#define FUZZ_SECRET "fuzz-control-secret-0123"

typedef struct
{
  const StrobeControlReader *reader;
  unsigned lines;
  StrobeControlAuth auth;
} State;

static void
greet (State *s)
{
  uint8_t nonce[STROBE_AUTH_NONCE_BYTES];
  char line[STROBE_CONTROL_GREETING_SIZE];

  for (unsigned i = 0; i < sizeof nonce; i++)
    nonce[i] = (uint8_t) i;
  strobe__control_auth_greet (&s->auth, nonce, line);
  if (strncmp (line, "strobe-control challenge 000102", 31) != 0 || strlen (line) != 25 + 64)
    abort ();
}

/* The server's side of the challenge–response on whatever the peer sends: a reply is one
 * line that never holds the secret, and the connection is authenticated only by the one
 * proof that is right for the nonces. */
static void
auth_line (State *s, const StrobeControlCommand *cmd)
{
  char reply[160], expected[STROBE_AUTH_HEX_SIZE];
  StrobeControlAuthState before = s->auth.state;
  StrobeControlAuthOutcome outcome;

  memset (reply, 'x', sizeof reply);
  outcome = strobe__control_auth_step (&s->auth, cmd, FUZZ_SECRET, strlen (FUZZ_SECRET), reply, sizeof reply);
  if (memchr (reply, '\0', sizeof reply) == NULL || strchr (reply, '\n') || strstr (reply, FUZZ_SECRET))
    abort ();
  if ((strncmp (reply, "ok", 2) == 0)
      != (outcome == STROBE_CONTROL_AUTH_CONTINUE || outcome == STROBE_CONTROL_AUTH_ACCEPTED))
    abort ();
  if (outcome == STROBE_CONTROL_AUTH_ACCEPTED)
    {
      if (before != STROBE_CONTROL_AUTH_PROVED || cmd->verb != STROBE_CONTROL_CMD_AUTH_PROOF
          || s->auth.state != STROBE_CONTROL_AUTH_DONE
          || !strobe_auth_proof_hex ("control", STROBE_AUTH_CLIENT, FUZZ_SECRET, strlen (FUZZ_SECRET),
                                     s->auth.server_nonce, s->auth.client_nonce, expected)
          || strlen (cmd->arg) != 64 || strncasecmp (cmd->arg, expected, 64) != 0)
        abort ();
    }
  else if (s->auth.state == STROBE_CONTROL_AUTH_DONE && before != STROBE_CONTROL_AUTH_DONE)
    abort ();
  if (outcome == STROBE_CONTROL_AUTH_REFUSED || outcome == STROBE_CONTROL_AUTH_FAILED)
    greet (s);   /* the server closes; the peer's next line is a new connection's */
}

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
       || cmd.verb == STROBE_CONTROL_CMD_CHANNELS_SET || cmd.verb == STROBE_CONTROL_CMD_AUTH
       || cmd.verb == STROBE_CONTROL_CMD_AUTH_PROOF)
      && *cmd.arg == '\0')
    abort ();
  /* A secret is one word. */
  if ((cmd.verb == STROBE_CONTROL_CMD_AUTH || cmd.verb == STROBE_CONTROL_CMD_AUTH_PROOF)
      && strpbrk (cmd.arg, " \t"))
    abort ();
  if (cmd.verb == STROBE_CONTROL_CMD_AUTH || cmd.verb == STROBE_CONTROL_CMD_AUTH_PROOF)
    auth_line (s, &cmd);
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
  State state = { &reader, 0, { 0 } };
  size_t chunk;

  if (size == 0)
    return 0;
  greet (&state);
  chunk = 1 + data[0] % 64;
  data++, size--;
  for (size_t pos = 0; pos < size; pos += chunk)
    strobe__control_read (&reader, (const char *) data + pos, size - pos < chunk ? size - pos : chunk,
                          on_line, on_too_long, &state);
  return 0;
}
