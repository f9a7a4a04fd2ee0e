/* strobe-listen.h — where Strobe's servers (recorder, store service) listen.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Listens on @listen_address at @port (0: a free one). NULL means loopback only — IPv4
 * and, when the host has it, IPv6 on the same port — the default of every server that a
 * program or a viewer talks to; opting in to other interfaces is the caller's choice.
 * One GSocketService per address is appended to @services, its "incoming" signal
 * connected to @incoming with @instance (as g_signal_connect_object). */
gboolean strobe_listen_tcp (const char  *listen_address,
                            guint16      port,
                            GCallback    incoming,
                            gpointer     instance,
                            GPtrArray   *services,
                            guint16     *bound_port,
                            GError     **error);

G_END_DECLS
