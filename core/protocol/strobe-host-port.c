/* strobe-host-port.c — see the header. */
#include "strobe-host-port.h"

#include <string.h>

static bool
host_chars_ok (const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c <= 0x20 || c == 0x7f || c == '[' || c == ']' || c == '/')
        return false;
    }
  return true;
}

static StrobeHostPortError
parse_port (const char *s, uint16_t *port)
{
  uint32_t v = 0;

  if (*s == '\0')
    return STROBE_HOST_PORT_BAD_PORT;
  for (; *s; s++)
    {
      if (*s < '0' || *s > '9')
        return STROBE_HOST_PORT_BAD_PORT;
      v = v * 10 + (uint32_t) (*s - '0');
      if (v > 65535)
        return STROBE_HOST_PORT_BAD_PORT;
    }
  if (v == 0)
    return STROBE_HOST_PORT_BAD_PORT;
  *port = (uint16_t) v;
  return STROBE_HOST_PORT_OK;
}

StrobeHostPortError
strobe_host_port_parse (const char *text, uint16_t default_port, char *host, size_t host_size,
                        uint16_t *port)
{
  const char *h = text, *rest;
  size_t n;

  if (text == NULL || host == NULL || host_size == 0 || port == NULL)
    return STROBE_HOST_PORT_EMPTY_HOST;
  host[0] = '\0';
  if (text[0] == '[')
    {
      const char *close = strchr (text, ']');

      if (close == NULL)
        return STROBE_HOST_PORT_BAD_HOST;
      h = text + 1;
      n = (size_t) (close - h);
      rest = close + 1;
      if (*rest != '\0' && *rest != ':')
        return STROBE_HOST_PORT_BAD_HOST;
    }
  else
    {
      const char *colon = strchr (text, ':');

      if (colon && strchr (colon + 1, ':'))
        {
          /* Two colons or more: a bare IPv6 address, which cannot carry a port. */
          n = strlen (text);
          rest = text + n;
        }
      else
        {
          n = colon ? (size_t) (colon - text) : strlen (text);
          rest = text + n;
        }
    }
  if (n == 0)
    return STROBE_HOST_PORT_EMPTY_HOST;
  if (n > STROBE_HOST_MAX || n >= host_size)
    return STROBE_HOST_PORT_TOO_LONG;
  if (!host_chars_ok (h, n))
    return STROBE_HOST_PORT_BAD_HOST;
  if (*rest == ':')
    {
      StrobeHostPortError e = parse_port (rest + 1, port);
      if (e != STROBE_HOST_PORT_OK)
        return e;
    }
  else if (default_port == 0)
    return STROBE_HOST_PORT_NO_PORT;
  else
    *port = default_port;
  memcpy (host, h, n);
  host[n] = '\0';
  return STROBE_HOST_PORT_OK;
}

const char *
strobe_host_port_error_text (StrobeHostPortError error)
{
  switch (error)
    {
    case STROBE_HOST_PORT_OK:         return "valid";
    case STROBE_HOST_PORT_EMPTY_HOST: return "the host is empty";
    case STROBE_HOST_PORT_BAD_PORT:   return "the port must be a number from 1 to 65535";
    case STROBE_HOST_PORT_NO_PORT:    return "a port is needed (HOST:PORT)";
    case STROBE_HOST_PORT_BAD_HOST:   return "the host has blanks, control characters or stray brackets";
    case STROBE_HOST_PORT_TOO_LONG:   return "the host is longer than 255 bytes";
    default:                          return "invalid";
    }
}
