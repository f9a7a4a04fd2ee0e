/* strobe-late-connect.h — late connect (user story 2) without a window: on one control
 * connection to a running program, `status` (which program and pid answered), `send-to`
 * the embedded recorder (with the tail size of the preferences), `channels LIST on`; then
 * the wait for that pid's new live trace in the store. The connect dialog drives it, and so
 * does `strobe --connect`.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-services.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LATE_CONNECT (strobe_late_connect_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLateConnect, strobe_late_connect, STROBE, LATE_CONNECT, GObject)

/* @channels: a comma-separated list to turn on ("" for none). */
StrobeLateConnect *strobe_late_connect_new    (StrobeServices    *services,
                                               const char        *host,
                                               guint16            port,
                                               const char        *channels);
/* Emits "progress" (a sentence for a status line), then either "connected" (the new live
 * trace's GFile) or "failed" (why, a sentence). Also "warning" (the trace is coming but
 * something went wrong, e.g. the channels). Once. */
void               strobe_late_connect_start  (StrobeLateConnect *self);
/* Stops waiting; nothing more is emitted. */
void               strobe_late_connect_cancel (StrobeLateConnect *self);
/* "host:port" (brackets for IPv6). */
const char        *strobe_late_connect_get_target (StrobeLateConnect *self);

G_END_DECLS
