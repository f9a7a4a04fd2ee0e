/* strobe-services.h — what every window of the viewer shares: the settings, the trace store
 * and the embedded recorder. Preferences apply at once: a new port or interface restarts
 * the recorder, a new store folder reopens the store.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-recorder.h"
#include "strobe-store.h"

G_BEGIN_DECLS

#define STROBE_TYPE_SERVICES (strobe_services_get_type ())
G_DECLARE_FINAL_TYPE (StrobeServices, strobe_services, STROBE, SERVICES, GObject)

/* @store_directory (NULL: the setting) and @recorder_port (-1: the setting) come from the
 * command line and win over the settings until the user changes those. */
StrobeServices *strobe_services_new                  (GSettings      *settings,
                                                      const char     *store_directory,
                                                      int             recorder_port);
/* Opens the store and starts the recorder; failures are kept (get_*_error). */
void            strobe_services_start                (StrobeServices *self);
void            strobe_services_stop                 (StrobeServices *self);

GSettings      *strobe_services_get_settings         (StrobeServices *self);
/* NULL when the store could not be opened; see get_store_error(). */
StrobeStore    *strobe_services_get_store            (StrobeServices *self);
const GError   *strobe_services_get_store_error      (StrobeServices *self);
/* NULL before start(). */
StrobeRecorder *strobe_services_get_recorder         (StrobeServices *self);
/* Why the recorder is not listening; NULL while it is. */
const GError   *strobe_services_get_recorder_error   (StrobeServices *self);
/* The port the recorder listens on now (0 when it does not), and whether it came from the
 * command line rather than the settings. */
guint16         strobe_services_get_recorder_port    (StrobeServices *self);
gboolean        strobe_services_port_from_command_line (StrobeServices *self);
/* "Recording on 127.0.0.1:1980" or why not; for the header bar. */
char           *strobe_services_dup_recorder_status  (StrobeServices *self);
/* Restarts the recorder on @port (0: any free port). Emits "recorder-changed". */
gboolean        strobe_services_restart_recorder     (StrobeServices *self,
                                                      guint16         port,
                                                      GError        **error);
/* TRUE while a program is streaming into the recorder (a live session in the store). */
gboolean        strobe_services_is_recording         (StrobeServices *self);

G_END_DECLS
