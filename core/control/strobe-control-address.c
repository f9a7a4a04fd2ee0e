/* strobe-control-address.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-control-address.h"

#include <glib/gi18n.h>

#include "strobe-control-client.h"
#include "strobe-host-port.h"

static const char *
reason (StrobeHostPortError e)
{
  switch (e)
    {
    case STROBE_HOST_PORT_EMPTY_HOST: return _("the host is empty");
    case STROBE_HOST_PORT_BAD_PORT:   return _("the port must be a number from 1 to 65535");
    case STROBE_HOST_PORT_NO_PORT:    return _("a port is needed (HOST:PORT)");
    case STROBE_HOST_PORT_BAD_HOST:   return _("the host has blanks, control characters or stray brackets");
    case STROBE_HOST_PORT_TOO_LONG:   return _("the host is longer than 255 bytes");
    case STROBE_HOST_PORT_OK:
    default:                          return _("invalid");
    }
}

gboolean
strobe_control_parse_address (const char *text, guint16 default_port, char **host, guint16 *port,
                              GError **error)
{
  char buf[STROBE_HOST_MAX + 1];
  guint16 p = 0;
  StrobeHostPortError e;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (host != NULL && port != NULL, FALSE);
  e = strobe_host_port_parse (text, default_port, buf, sizeof buf, &p);
  if (e != STROBE_HOST_PORT_OK)
    {
      /* Translators: the first %s is what was typed, the second why it is refused. */
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID,
                   _("“%s” is not HOST[:PORT]: %s"), text, reason (e));
      return FALSE;
    }
  *host = g_strdup (buf);
  *port = p;
  return TRUE;
}
