/* strobe-application.h — the viewer application: one store and one embedded recorder
 * shared by every window; opens files given on the command line, by a second instance,
 * from the file manager or by drag and drop.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-recorder.h"
#include "strobe-store.h"

G_BEGIN_DECLS

#define STROBE_APP_ID "org.strobe.Viewer"

#define STROBE_TYPE_APPLICATION (strobe_application_get_type ())
G_DECLARE_FINAL_TYPE (StrobeApplication, strobe_application, STROBE, APPLICATION, GtkApplication)

StrobeApplication *strobe_application_new                  (void);
GSettings         *strobe_application_get_settings         (StrobeApplication *self);
/* NULL when the store could not be opened; see get_store_error(). */
StrobeStore       *strobe_application_get_store            (StrobeApplication *self);
const GError      *strobe_application_get_store_error      (StrobeApplication *self);
/* NULL before startup. */
StrobeRecorder    *strobe_application_get_recorder         (StrobeApplication *self);
/* Why the recorder is not listening; NULL while it is. */
const GError      *strobe_application_get_recorder_error   (StrobeApplication *self);
/* "Recording on 127.0.0.1:1980" or why not; for the header bar. */
char              *strobe_application_dup_recorder_status  (StrobeApplication *self);
/* Restarts the recorder on @port (0: any free port). Emits "recorder-changed".
 * Changing the settings "recorder-port" or "listen-on-all-interfaces" does this too, and
 * "store-directory" reopens the store ("store-changed") and restarts the recorder on it. */
gboolean           strobe_application_restart_recorder     (StrobeApplication *self,
                                                            guint16            port,
                                                            GError           **error);

G_END_DECLS
