/* strobe-control-auth.h — the control server's side of the challenge–response
 * (core/protocol/AUTH.md; its lines are in runtime/CONTROL.md, "Authentication"), with no
 * I/O and no clock, so the server and the fuzzer run exactly the same code on a peer's
 * lines:
 *
 *   server  strobe-control challenge NS     (on connect)
 *   client  auth NC
 *   server  ok auth PS                      (the server proves itself first)
 *   client  auth-proof PC
 *   server  ok authenticated
 *
 * NS, NC, PS, PC: 64 hex digits each. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strobe-auth.h"
#include "strobe-control-parse.h"

/* "strobe-control challenge " and 64 hex digits, with the NUL. */
#define STROBE_CONTROL_GREETING_SIZE 96

typedef enum
{
  STROBE_CONTROL_AUTH_CHALLENGED,   /* greeted: waits for `auth NC` */
  STROBE_CONTROL_AUTH_PROVED,       /* sent PS: waits for `auth-proof PC` */
  STROBE_CONTROL_AUTH_DONE,         /* authenticated: commands run */
} StrobeControlAuthState;

typedef struct
{
  StrobeControlAuthState state;
  uint8_t                server_nonce[STROBE_AUTH_NONCE_BYTES];
  uint8_t                client_nonce[STROBE_AUTH_NONCE_BYTES];
} StrobeControlAuth;

typedef enum
{
  STROBE_CONTROL_AUTH_CONTINUE,     /* send the reply; the exchange goes on */
  STROBE_CONTROL_AUTH_ACCEPTED,     /* send the reply; the connection is authenticated */
  STROBE_CONTROL_AUTH_REFUSED,      /* send the reply and close: a line out of order */
  STROBE_CONTROL_AUTH_FAILED,       /* send the reply and close: a wrong proof */
} StrobeControlAuthOutcome;

/* A new connection with the server nonce @nonce: writes the greeting line (no LF). */
void strobe__control_auth_greet (StrobeControlAuth *auth, const uint8_t nonce[STROBE_AUTH_NONCE_BYTES],
                                 char line[STROBE_CONTROL_GREETING_SIZE]);

/* Runs an `auth` or `auth-proof` line (@cmd, parsed) against the secret's @secret_len
 * bytes, writing the reply line (no LF) into @reply. */
StrobeControlAuthOutcome strobe__control_auth_step (StrobeControlAuth *auth, const StrobeControlCommand *cmd,
                                                    const char *secret, size_t secret_len,
                                                    char *reply, size_t reply_size);
