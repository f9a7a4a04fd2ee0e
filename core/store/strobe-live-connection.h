/* strobe-live-connection.h — one live connection from a runtime to a recorder.
 *
 * Created by the recorder and registered with the store, which lists them next to the
 * traces they are writing. The store's list and its protocol (the v1/session endpoints)
 * still call one a session: those names are the wire's and stay.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STROBE_TYPE_LIVE_CONNECTION (strobe_live_connection_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLiveConnection, strobe_live_connection, STROBE, LIVE_CONNECTION, GObject)

StrobeLiveConnection *strobe_live_connection_new                (guint64        id,
                                                  const char    *trace_id,
                                                  const char    *trace_name,
                                                  const char    *program,
                                                  guint32        pid,
                                                  const char    *peer_address,
                                                  guint16        control_port,
                                                  guint64        start_time_ns);
guint64        strobe_live_connection_get_id             (StrobeLiveConnection *self);
const char    *strobe_live_connection_get_trace_id       (StrobeLiveConnection *self);
const char    *strobe_live_connection_get_trace_name     (StrobeLiveConnection *self);
const char    *strobe_live_connection_get_program        (StrobeLiveConnection *self);
guint32        strobe_live_connection_get_pid            (StrobeLiveConnection *self);
const char    *strobe_live_connection_get_peer_address   (StrobeLiveConnection *self);
guint16        strobe_live_connection_get_control_port   (StrobeLiveConnection *self);
guint64        strobe_live_connection_get_start_time_ns  (StrobeLiveConnection *self);

/* Thread-safe: the recorder's connection thread counts, anyone reads. Not notified per
 * chunk (that would be a signal per socket read); poll it. */
guint64        strobe_live_connection_get_bytes_received (StrobeLiveConnection *self);
void           strobe_live_connection_add_bytes_received (StrobeLiveConnection *self,
                                                  guint64        n);

/* A viewer asks the program to stop (its control server's `stop`): marks the connection so
 * the recorder records the trace as stopped by the user, not ended by the program.
 * Thread-safe: the main thread marks, the connection thread reads when the stream ends. */
void           strobe_live_connection_request_stop       (StrobeLiveConnection *self);
gboolean       strobe_live_connection_get_stop_requested (StrobeLiveConnection *self);

G_END_DECLS
