/* strobe-recorder.h — accepts runtime connections and records each into a new trace.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-store.h"

G_BEGIN_DECLS

#define STROBE_RECORDER_DEFAULT_PORT 1980
/* A peer must complete its handshake within this long or it is dropped. */
#define STROBE_RECORDER_HANDSHAKE_TIMEOUT_S 10
/* At most this many connections at once (each costs a thread). When all are taken, a new
 * one takes the place of the oldest still in its handshake, else of the recording with the
 * lowest data rate over the last STROBE_RECORDER_RATE_WINDOW_S (a runtime sends its
 * statistics every 250 ms, so a real program is never near zero): a new program is never
 * refused, and peers that connect and say nothing, or drip a byte now and then, cannot
 * lock real programs out. */
#define STROBE_RECORDER_MAX_CONNECTIONS 256
#define STROBE_RECORDER_RATE_WINDOW_S 4
/* At most this many connections from one address that is not loopback. */
#define STROBE_RECORDER_MAX_PER_PEER 64
/* A recording that receives nothing for this long is ended (cut off). */
#define STROBE_RECORDER_IDLE_TIMEOUT_S 300

#define STROBE_TYPE_RECORDER (strobe_recorder_get_type ())
G_DECLARE_FINAL_TYPE (StrobeRecorder, strobe_recorder, STROBE, RECORDER, GObject)

StrobeRecorder *strobe_recorder_new              (StrobeStore     *store);
StrobeStore    *strobe_recorder_get_store        (StrobeRecorder  *self);

/* Before start: the port to listen on (0 picks a free one; default 1980) and the address
 * (NULL, the default, means loopback only — 127.0.0.1 and ::1; "0.0.0.0" or "::" listen on
 * every interface). */
void            strobe_recorder_set_port         (StrobeRecorder  *self,
                                                  guint16          port);
void            strobe_recorder_set_listen_address (StrobeRecorder *self,
                                                  const char      *address);
const char     *strobe_recorder_get_listen_address (StrobeRecorder *self);

gboolean        strobe_recorder_start            (StrobeRecorder  *self,
                                                  GError         **error);
/* Stops listening and ends every recording (they become cut off). Blocks until each
 * connection's thread has synced and closed its trace. */
void            strobe_recorder_stop             (StrobeRecorder  *self);
gboolean        strobe_recorder_is_running       (StrobeRecorder  *self);

/* The port actually listened on once started (useful with port 0). */
guint16         strobe_recorder_get_port         (StrobeRecorder  *self);
/* Live sessions of this recorder: a GListModel of StrobeLiveConnection. */
GListModel     *strobe_recorder_get_sessions     (StrobeRecorder  *self);
/* Before start: the window over which a connection's data rate is measured, in ms
 * (default STROBE_RECORDER_RATE_WINDOW_S seconds). */
void            strobe_recorder_set_rate_window  (StrobeRecorder  *self,
                                                  guint            window_ms);
/* When the recorder measures a program's clock over its control connection as it
 * connects (PROTOCOL.md §1, "Traces on one clock") and records the offset in its trace: */
typedef enum
{
  STROBE_RECORDER_CLOCK_OTHER_MACHINES,   /* the default: a program whose clock domain is not ours */
  STROBE_RECORDER_CLOCK_ALWAYS,           /* every program with a control port (tests, checks) */
  STROBE_RECORDER_CLOCK_NEVER,
} StrobeRecorderClockMode;

/* Before start. The recorder reaches the program at the peer's address and the handshake's
 * control_port, with STROBE_CONTROL_SECRET (another machine's program must listen on every
 * interface, or be reached through a tunnel; runtime/CONTROL.md); a program that cannot be
 * reached is recorded all the same, its trace without the offset. */
void            strobe_recorder_set_clock_mode   (StrobeRecorder          *self,
                                                  StrobeRecorderClockMode  mode);

/* Connections dropped because they did not speak the Strobe wire protocol. */
guint           strobe_recorder_get_n_rejected   (StrobeRecorder  *self);

G_END_DECLS
