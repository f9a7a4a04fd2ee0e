/* strobe-control-auth.c — see the header. */
#include "strobe-control-auth.h"

#include <stdio.h>
#include <string.h>

#define PROTOCOL "control"

void
strobe__control_auth_greet (StrobeControlAuth *auth, const uint8_t nonce[STROBE_AUTH_NONCE_BYTES],
                            char line[STROBE_CONTROL_GREETING_SIZE])
{
  char hex[STROBE_AUTH_HEX_SIZE];

  memset (auth, 0, sizeof *auth);
  auth->state = STROBE_CONTROL_AUTH_CHALLENGED;
  memcpy (auth->server_nonce, nonce, STROBE_AUTH_NONCE_BYTES);
  strobe_hex_encode (nonce, STROBE_AUTH_NONCE_BYTES, hex, sizeof hex);
  snprintf (line, STROBE_CONTROL_GREETING_SIZE, "strobe-control challenge %s", hex);
}

static StrobeControlAuthOutcome
say (StrobeControlAuthOutcome outcome, char *reply, size_t reply_size, const char *text)
{
  snprintf (reply, reply_size, "%s", text);
  return outcome;
}

StrobeControlAuthOutcome
strobe__control_auth_step (StrobeControlAuth *auth, const StrobeControlCommand *cmd,
                           const char *secret, size_t secret_len, char *reply, size_t reply_size)
{
  char proof[STROBE_AUTH_HEX_SIZE];

  if (cmd->verb == STROBE_CONTROL_CMD_AUTH)
    {
      if (auth->state != STROBE_CONTROL_AUTH_CHALLENGED)
        return say (STROBE_CONTROL_AUTH_REFUSED, reply, reply_size,
                    "error authentication already begun on this connection");
      /* One try per connection: whatever goes wrong from here ends it. */
      if (!strobe_hex_decode (cmd->arg, strlen (cmd->arg), auth->client_nonce, STROBE_AUTH_NONCE_BYTES))
        return say (STROBE_CONTROL_AUTH_REFUSED, reply, reply_size,
                    "error usage: auth NONCE (64 hex digits; runtime/CONTROL.md, Authentication)");
      if (!strobe_auth_proof_hex (PROTOCOL, STROBE_AUTH_SERVER, secret, secret_len, auth->server_nonce,
                                  auth->client_nonce, proof))
        return say (STROBE_CONTROL_AUTH_REFUSED, reply, reply_size, "error authentication unavailable");
      auth->state = STROBE_CONTROL_AUTH_PROVED;
      snprintf (reply, reply_size, "ok auth %s", proof);
      strobe_auth_wipe (proof, sizeof proof);
      return STROBE_CONTROL_AUTH_CONTINUE;
    }
  if (cmd->verb != STROBE_CONTROL_CMD_AUTH_PROOF)
    return say (STROBE_CONTROL_AUTH_REFUSED, reply, reply_size, "error not an authentication line");
  if (auth->state == STROBE_CONTROL_AUTH_DONE)
    return say (STROBE_CONTROL_AUTH_CONTINUE, reply, reply_size, "ok authenticated");
  if (auth->state != STROBE_CONTROL_AUTH_PROVED)
    return say (STROBE_CONTROL_AUTH_REFUSED, reply, reply_size,
                "error auth-proof before auth NONCE (runtime/CONTROL.md, Authentication)");
  if (!strobe_auth_check_hex (PROTOCOL, STROBE_AUTH_CLIENT, secret, secret_len, auth->server_nonce,
                              auth->client_nonce, cmd->arg, strlen (cmd->arg)))
    return say (STROBE_CONTROL_AUTH_FAILED, reply, reply_size, "error authentication failed");
  auth->state = STROBE_CONTROL_AUTH_DONE;
  return say (STROBE_CONTROL_AUTH_ACCEPTED, reply, reply_size, "ok authenticated");
}
