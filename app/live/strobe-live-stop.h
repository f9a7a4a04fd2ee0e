/* strobe-live-stop.h — where a live trace's program is controlled, and ending its tracing
 * from the viewer (the control server's `stop`: the program ships what it has and writes
 * End, so the trace is complete; the store records that the user stopped it).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-document.h"

G_BEGIN_DECLS

/* The control server of @document's program: the host it connected to the recorder from,
 * the port it announced (the store's live connection, else the stream's handshake). FALSE
 * while unknown. @session (may be NULL) receives the store's live connection, if any. */
gboolean strobe_live_find_control (StrobeDocument         *document,
                                   char                  **host,
                                   guint16                *port,
                                   StrobeLiveConnection  **session);

/* Asks @document's program to stop tracing; the callback runs on the caller's main context
 * once the program has answered (its End then arrives in the stream). */
void     strobe_live_stop_async   (StrobeDocument         *document,
                                   GCancellable           *cancellable,
                                   GAsyncReadyCallback     callback,
                                   gpointer                user_data);
gboolean strobe_live_stop_finish  (GAsyncResult           *result,
                                   GError                **error);

G_END_DECLS
