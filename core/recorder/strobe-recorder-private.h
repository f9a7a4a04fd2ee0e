/* strobe-recorder-private.h — the recorder and its connections talk through these.
 *
 * A connection runs on its own thread; everything it reports is delivered on the main
 * context it was made on, to the report function its owner gave it — the connection knows
 * no recorder, so the recorder can use it without the two calling each other.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-recorder.h"

G_BEGIN_DECLS

typedef struct _StrobeRecorderConnection StrobeRecorderConnection;

typedef enum
{
  STROBE_RECORDER_EVENT_STARTED,    /* handshake valid, trace created, session ready */
  STROBE_RECORDER_EVENT_REJECTED,   /* not a Strobe stream; reason given */
  STROBE_RECORDER_EVENT_DONE,       /* the thread is about to exit: join it */
} StrobeRecorderEvent;

/* What a connection reports, on its owner's main context, while @owner is alive. */
typedef void (*StrobeRecorderConnectionReport) (GObject                  *owner,
                                                StrobeRecorderConnection *connection,
                                                StrobeRecorderEvent       event,
                                                const char               *reason);

/* @owner is held weakly: reports after it is gone are dropped. */
StrobeRecorderConnection *_strobe_recorder_connection_new     (StrobeStore              *store,
                                                               GSocketConnection        *connection,
                                                               guint64                   id,
                                                               gint64                    rate_window_us,
                                                               StrobeRecorderConnectionReport report,
                                                               gpointer                  owner);
StrobeRecorderConnection *_strobe_recorder_connection_ref     (StrobeRecorderConnection *self);
void                      _strobe_recorder_connection_unref   (StrobeRecorderConnection *self);
void                      _strobe_recorder_connection_set_clock_mode (StrobeRecorderConnection *self,
                                                                      int                       mode);
gboolean                  _strobe_recorder_connection_start   (StrobeRecorderConnection *self,
                                                               GError                  **error);
void                      _strobe_recorder_connection_cancel  (StrobeRecorderConnection *self);
/* Waits for the thread; idempotent. Main context only. */
void                      _strobe_recorder_connection_join    (StrobeRecorderConnection *self);
const char               *_strobe_recorder_connection_get_peer_address (StrobeRecorderConnection *self);
/* Set once STARTED was posted. */
StrobeLiveConnection            *_strobe_recorder_connection_get_session (StrobeRecorderConnection *self);
/* The peer's address without its port, and whether it is loopback. */
const char               *_strobe_recorder_connection_get_peer_host (StrobeRecorderConnection *self);
gboolean                  _strobe_recorder_connection_is_loopback (StrobeRecorderConnection *self);
/* For choosing whom to drop when full (any thread): still in the handshake, when it was
 * accepted, when it last received a byte (monotonic µs), whether it was told to go. */
gboolean                  _strobe_recorder_connection_in_handshake (StrobeRecorderConnection *self);
gint64                    _strobe_recorder_connection_get_accepted (StrobeRecorderConnection *self);
gint64                    _strobe_recorder_connection_get_last_data (StrobeRecorderConnection *self);
gboolean                  _strobe_recorder_connection_is_evicted (StrobeRecorderConnection *self);
/* Bytes per second received over the recorder's rate window (any thread). */
double                    _strobe_recorder_connection_get_rate (StrobeRecorderConnection *self,
                                                                gint64                    now);
/* Ends the connection to make room (its trace, if any, is cut off saying why). */
void                      _strobe_recorder_connection_evict   (StrobeRecorderConnection *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeRecorderConnection, _strobe_recorder_connection_unref)

G_END_DECLS
