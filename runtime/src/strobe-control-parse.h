/* strobe-control-parse.h — the control protocol's framing and grammar, with no side
 * effects, so the server and a fuzzer share exactly the code that reads peer bytes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STROBE_CONTROL_MAX_LINE 1024   /* bytes of a command line, without its CR/LF */

typedef enum
{
  STROBE_CONTROL_CMD_EMPTY,            /* blank line: a keep-alive */
  STROBE_CONTROL_CMD_SEND_TO,
  STROBE_CONTROL_CMD_WRITE_TO,
  STROBE_CONTROL_CMD_SNAPSHOT_SEND_TO,
  STROBE_CONTROL_CMD_SNAPSHOT_WRITE_TO,
  STROBE_CONTROL_CMD_CHANNELS_LIST,
  STROBE_CONTROL_CMD_CHANNELS_SET,
  STROBE_CONTROL_CMD_STOP,
  STROBE_CONTROL_CMD_STATUS,
  STROBE_CONTROL_CMD_HELP,
  STROBE_CONTROL_CMD_CLOCK,            /* the trace clock now, for a peer aligning traces */
  STROBE_CONTROL_CMD_CLOCK_OFFSET,     /* a peer's measured offset, to record: clock_offset */
  STROBE_CONTROL_CMD_AUTH,             /* auth NONCE: arg is the client's nonce (hex) */
  STROBE_CONTROL_CMD_AUTH_PROOF,       /* auth-proof PROOF: arg is the client's proof (hex) */
  STROBE_CONTROL_CMD_MALFORMED,        /* a known verb used wrongly: error says how */
  STROBE_CONTROL_CMD_UNKNOWN,
} StrobeControlVerb;

/* clock-offset domain=HEX offset=NS uncertainty=NS rounds=N (CONTROL.md): what a peer
 * measured of our clock against its own, for the trace to carry. */
typedef struct
{
  char     domain[33];       /* the peer's boot id: 32 lower-case hex digits */
  int64_t  offset_ns;        /* our trace clock in ns minus the peer's CLOCK_MONOTONIC */
  uint64_t uncertainty_ns;
  uint32_t rounds;
} StrobeControlClockOffset;

typedef struct
{
  StrobeControlVerb verb;
  const char       *arg;    /* the target, the channel list, a nonce or a proof; points into the line */
  bool              on;     /* CHANNELS_SET */
  long long         tail;   /* SEND_TO, WRITE_TO: bytes of tail asked for ("tail=N"), or -1 */
  const char       *error;  /* MALFORMED and UNKNOWN: the reply's text */
  StrobeControlClockOffset clock_offset;   /* CLOCK_OFFSET */
} StrobeControlCommand;

/* Parses one line (NUL-terminated, modified in place). */
void strobe__control_parse (char *line, StrobeControlCommand *cmd);

/* Splits a byte stream into lines (LF, CR or CRLF; NUL counts as a space, as Unreal
 * separates arguments with it). A line longer than the limit is dropped up to its end
 * and reported once through @too_long. */
typedef struct
{
  bool   discarding;
  size_t len;
  char   line[STROBE_CONTROL_MAX_LINE + 1];
} StrobeControlReader;

typedef bool (*StrobeControlLineFunc) (void *user, char *line);   /* false: stop */
typedef bool (*StrobeControlTooLongFunc) (void *user);

void strobe__control_read (StrobeControlReader *r, const char *data, size_t n,
                           StrobeControlLineFunc on_line, StrobeControlTooLongFunc too_long,
                           void *user);
