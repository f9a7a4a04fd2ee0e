/* strobe-control-parse.c — framing and grammar of the control protocol (CONTROL.md). */
#include "strobe-control-parse.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool
parse_on_off (const char *s, bool *on)
{
  if (strcasecmp (s, "on") == 0 || strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0)
    *on = true;
  else if (strcasecmp (s, "off") == 0 || strcmp (s, "0") == 0 || strcasecmp (s, "false") == 0)
    *on = false;
  else
    return false;
  return true;
}

/* Cuts @s at its first blank and returns what follows the blanks after it. */
static char *
split_word (char *s)
{
  char *rest = s + strcspn (s, " \t");

  if (*rest)
    {
      *rest++ = '\0';
      while (*rest == ' ' || *rest == '\t')
        rest++;
    }
  return rest;
}

/* "tail=N", N in bytes with an optional k or m suffix (KiB, MiB). */
static bool
parse_tail (const char *s, long long *bytes)
{
  unsigned long long v = 0;
  const char *p;

  if (strncasecmp (s, "tail=", 5) != 0 || !isdigit ((unsigned char) s[5]))
    return false;
  for (p = s + 5; isdigit ((unsigned char) *p); p++)
    {
      if (v > (1ull << 40))
        return false;
      v = v * 10 + (unsigned) (*p - '0');
    }
  if (*p == 'k' || *p == 'K')
    v <<= 10, p++;
  else if (*p == 'm' || *p == 'M')
    v <<= 20, p++;
  if (*p != '\0' || v > (1ull << 40))
    return false;
  *bytes = (long long) v;
  return true;
}

/* A decimal number, optionally negative, that fits in [min, max]. */
static bool
parse_number (const char *s, long long min, unsigned long long max, bool *negative, unsigned long long *value)
{
  unsigned long long v = 0;

  *negative = *s == '-';
  s += *negative;
  if (!isdigit ((unsigned char) *s) || (*negative && min >= 0))
    return false;
  for (; isdigit ((unsigned char) *s); s++)
    {
      if (v > (max - (unsigned) (*s - '0')) / 10)
        return false;
      v = v * 10 + (unsigned) (*s - '0');
    }
  if (*s != '\0')
    return false;
  *value = v;
  return true;
}

/* The four key=value words of clock-offset, each once, in any order. */
static bool
parse_clock_offset (char *rest, StrobeControlClockOffset *o)
{
  unsigned seen = 0;

  memset (o, 0, sizeof *o);
  while (*rest)
    {
      char *word = rest, *eq;
      unsigned long long v;
      bool negative;

      rest = split_word (rest);
      if ((eq = strchr (word, '=')) == NULL)
        return false;
      *eq++ = '\0';
      if (strcasecmp (word, "domain") == 0 && !(seen & 1) && strlen (eq) == 32
          && strspn (eq, "0123456789abcdefABCDEF") == 32)
        {
          for (int i = 0; i < 32; i++)
            o->domain[i] = (char) tolower ((unsigned char) eq[i]);
          seen |= 1;
        }
      else if (strcasecmp (word, "offset") == 0 && !(seen & 2)
               && parse_number (eq, INT64_MIN, INT64_MAX, &negative, &v))
        {
          o->offset_ns = negative ? -(int64_t) v : (int64_t) v;
          seen |= 2;
        }
      else if (strcasecmp (word, "uncertainty") == 0 && !(seen & 4)
               && parse_number (eq, 0, UINT64_MAX, &negative, &v))
        {
          o->uncertainty_ns = v;
          seen |= 4;
        }
      else if (strcasecmp (word, "rounds") == 0 && !(seen & 8)
               && parse_number (eq, 1, UINT32_MAX, &negative, &v) && v > 0)
        {
          o->rounds = (uint32_t) v;
          seen |= 8;
        }
      else
        return false;
    }
  return seen == 15;
}

static void
malformed (StrobeControlCommand *cmd, const char *error)
{
  cmd->verb = STROBE_CONTROL_CMD_MALFORMED;
  cmd->error = error;
}

void
strobe__control_parse (char *line, StrobeControlCommand *cmd)
{
  char lower[24], *rest;
  size_t n;

  memset (cmd, 0, sizeof *cmd);
  cmd->arg = "";
  cmd->tail = -1;
  while (*line == ' ' || *line == '\t')
    line++;
  n = strlen (line);
  while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
    line[--n] = '\0';
  if (n == 0)
    {
      cmd->verb = STROBE_CONTROL_CMD_EMPTY;
      return;
    }
  for (size_t i = 0; i < n; i++)
    if ((unsigned char) line[i] < 0x20 && line[i] != '\t')
      {
        malformed (cmd, "control characters in command");
        return;
      }
  rest = split_word (line);
  n = strlen (line);
  if (n >= sizeof lower)
    n = sizeof lower - 1;
  for (size_t i = 0; i < n; i++)
    lower[i] = (char) tolower ((unsigned char) line[i]);
  lower[n] = '\0';
  /* Unreal's spellings are accepted too. */
  if (strcmp (lower, "sendto") == 0)
    strcpy (lower, "send-to");
  else if (strcmp (lower, "writeto") == 0)
    strcpy (lower, "write-to");
  else if (strcmp (lower, "togglechannels") == 0)
    strcpy (lower, "channels");

  if (strcmp (lower, "send-to") == 0 || strcmp (lower, "write-to") == 0)
    {
      bool send = lower[0] == 's';
      char *option = NULL;

      /* An optional last word tail=N (write-to paths may contain blanks). A lone
       * tail=N is the option with no target, not a file named "tail=N". */
      if (*rest)
        {
          char *last = rest + strlen (rest);
          while (last > rest && last[-1] != ' ' && last[-1] != '\t')
            last--;
          if (parse_tail (last, &cmd->tail))
            {
              option = last;
              while (option > rest && (option[-1] == ' ' || option[-1] == '\t'))
                option--;
              *option = '\0';
            }
        }
      if (*rest == '\0')
        malformed (cmd, send ? "send-to needs a HOST[:PORT]" : "write-to needs a PATH");
      else if (send && strpbrk (rest, " \t"))
        malformed (cmd, "usage: send-to HOST[:PORT] [tail=BYTES]");
      else
        {
          cmd->verb = send ? STROBE_CONTROL_CMD_SEND_TO : STROBE_CONTROL_CMD_WRITE_TO;
          cmd->arg = rest;
        }
    }
  else if (strcmp (lower, "snapshot") == 0)
    {
      char *target = split_word (rest);

      for (char *p = rest; *p; p++)
        *p = (char) tolower ((unsigned char) *p);
      if ((strcmp (rest, "send-to") != 0 && strcmp (rest, "write-to") != 0) || *target == '\0')
        malformed (cmd, "usage: snapshot send-to HOST[:PORT] | snapshot write-to PATH");
      else
        {
          cmd->verb = rest[0] == 's' ? STROBE_CONTROL_CMD_SNAPSHOT_SEND_TO
                                     : STROBE_CONTROL_CMD_SNAPSHOT_WRITE_TO;
          cmd->arg = target;
        }
    }
  else if (strcmp (lower, "channels") == 0)
    {
      char *state;

      if (*rest == '\0')
        {
          cmd->verb = STROBE_CONTROL_CMD_CHANNELS_LIST;
          return;
        }
      state = split_word (rest);
      if (!parse_on_off (state, &cmd->on) || strpbrk (state, " \t"))
        malformed (cmd, "usage: channels [LIST on|off]");
      else
        {
          cmd->verb = STROBE_CONTROL_CMD_CHANNELS_SET;
          cmd->arg = rest;
        }
    }
  else if (strcmp (lower, "stop") == 0 && *rest == '\0')
    cmd->verb = STROBE_CONTROL_CMD_STOP;
  else if (strcmp (lower, "status") == 0 && *rest == '\0')
    cmd->verb = STROBE_CONTROL_CMD_STATUS;
  else if (strcmp (lower, "help") == 0)
    cmd->verb = STROBE_CONTROL_CMD_HELP;
  else if (strcmp (lower, "clock") == 0 && *rest == '\0')
    cmd->verb = STROBE_CONTROL_CMD_CLOCK;
  else if (strcmp (lower, "clock-offset") == 0)
    {
      if (parse_clock_offset (rest, &cmd->clock_offset))
        cmd->verb = STROBE_CONTROL_CMD_CLOCK_OFFSET;
      else
        malformed (cmd, "usage: clock-offset domain=HEX32 offset=NS uncertainty=NS rounds=N");
    }
  else if (strcmp (lower, "auth") == 0 || strcmp (lower, "auth-proof") == 0)
    {
      bool proof = lower[4] != '\0';

      if (*rest == '\0' || strpbrk (rest, " \t"))
        malformed (cmd, proof ? "usage: auth-proof PROOF" : "usage: auth NONCE");
      else
        {
          cmd->verb = proof ? STROBE_CONTROL_CMD_AUTH_PROOF : STROBE_CONTROL_CMD_AUTH;
          cmd->arg = rest;
        }
    }
  else
    {
      cmd->verb = STROBE_CONTROL_CMD_UNKNOWN;
      cmd->error = "unknown command";
    }
}

void
strobe__control_read (StrobeControlReader *r, const char *data, size_t n,
                      StrobeControlLineFunc on_line, StrobeControlTooLongFunc too_long,
                      void *user)
{
  for (size_t i = 0; i < n; i++)
    {
      char ch = data[i];

      if (ch == '\n' || ch == '\r')
        {
          bool go_on;

          if (r->discarding)
            {
              r->discarding = false;
              go_on = too_long (user);
            }
          else
            {
              r->line[r->len] = '\0';
              go_on = on_line (user, r->line);
            }
          r->len = 0;
          if (!go_on)
            return;
          continue;
        }
      if (r->discarding)
        continue;
      if (r->len == STROBE_CONTROL_MAX_LINE)
        {
          r->discarding = true;
          r->len = 0;
          continue;
        }
      r->line[r->len++] = ch == '\0' ? ' ' : ch;
    }
}
