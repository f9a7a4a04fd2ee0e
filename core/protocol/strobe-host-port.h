/* strobe-host-port.h — the one HOST[:PORT] syntax of Strobe: STROBE_TRACEHOST,
 * --tracehost, strobe_output_host(), the control protocol's send-to, strobe-cli's targets
 * and the viewer's connect dialog all parse addresses with this function (the GLib side
 * through strobe_control_parse_address() in core/control), so they accept and refuse the
 * same strings with the same reasons.
 *
 *   host            name or IPv4 address; the default port
 *   host:port       port 1–65535, decimal digits only
 *   [v6]            IPv6 address, the default port; [v6]:port with a port
 *   v6              a bare IPv6 address (two colons or more): the default port
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STROBE_HOST_MAX 255   /* bytes of a host name, as DNS allows */

typedef enum
{
  STROBE_HOST_PORT_OK = 0,
  STROBE_HOST_PORT_EMPTY_HOST,      /* "", ":1980", "[]" */
  STROBE_HOST_PORT_BAD_PORT,        /* not 1–65535 in decimal digits: ":99999", ":", ":x" */
  STROBE_HOST_PORT_NO_PORT,         /* a port is required here and there is none */
  STROBE_HOST_PORT_BAD_HOST,        /* blanks, control characters, unbalanced brackets */
  STROBE_HOST_PORT_TOO_LONG,        /* host longer than STROBE_HOST_MAX */
} StrobeHostPortError;

/* Parses @text into @host (NUL-terminated, brackets removed; @host_size ≥
 * STROBE_HOST_MAX + 1) and @port. @default_port 0: the port is required. */
StrobeHostPortError strobe_host_port_parse (const char *text, uint16_t default_port,
                                            char *host, size_t host_size, uint16_t *port);

/* The reason, in English (the GLib side translates its own copy of these). */
const char *strobe_host_port_error_text (StrobeHostPortError error);

#ifdef __cplusplus
}
#endif
