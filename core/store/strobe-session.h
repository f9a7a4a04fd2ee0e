/* strobe-session.h — one live connection from a runtime to a recorder.
 *
 * Sessions are created by the recorder and registered with the store, which lists them
 * next to the traces they are writing (and serves them over the v1/session endpoints).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STROBE_TYPE_SESSION (strobe_session_get_type ())
G_DECLARE_FINAL_TYPE (StrobeSession, strobe_session, STROBE, SESSION, GObject)

StrobeSession *strobe_session_new                (guint64        id,
                                                  const char    *trace_id,
                                                  const char    *trace_name,
                                                  const char    *program,
                                                  guint32        pid,
                                                  const char    *peer_address,
                                                  guint16        control_port,
                                                  guint64        start_time_ns);
guint64        strobe_session_get_id             (StrobeSession *self);
const char    *strobe_session_get_trace_id       (StrobeSession *self);
const char    *strobe_session_get_trace_name     (StrobeSession *self);
const char    *strobe_session_get_program        (StrobeSession *self);
guint32        strobe_session_get_pid            (StrobeSession *self);
const char    *strobe_session_get_peer_address   (StrobeSession *self);
guint16        strobe_session_get_control_port   (StrobeSession *self);
guint64        strobe_session_get_start_time_ns  (StrobeSession *self);

/* Thread-safe: the recorder's connection thread counts, anyone reads. Not notified per
 * chunk (that would be a signal per socket read); poll it. */
guint64        strobe_session_get_bytes_received (StrobeSession *self);
void           strobe_session_add_bytes_received (StrobeSession *self,
                                                  guint64        n);

G_END_DECLS
