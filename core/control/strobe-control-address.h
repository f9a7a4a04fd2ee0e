/* strobe-control-address.h — HOST[:PORT] for the GLib side: the one parser of
 * core/protocol/strobe-host-port.h with a translated GError, for strobe-cli's targets
 * and options and the viewer's connect dialog.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* "host", "host:port", "[v6]", "[v6]:port" or a bare v6 address → @host (brackets
 * removed) and @port. @default_port 0: a port is required. Fails with
 * STROBE_CONTROL_ERROR_INVALID: "“TEXT” is not HOST[:PORT]: the port must be a number
 * from 1 to 65535" (or the other reason). */
gboolean strobe_control_parse_address (const char  *text,
                                       guint16      default_port,
                                       char       **host,
                                       guint16     *port,
                                       GError     **error);

G_END_DECLS
