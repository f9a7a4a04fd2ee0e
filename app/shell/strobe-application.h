/* strobe-application.h — the viewer application: one store and one embedded recorder
 * shared by every window; opens files given on the command line, by a second instance,
 * from the file manager or by drag and drop.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-services.h"

G_BEGIN_DECLS

#define STROBE_APP_ID "org.strobe.Viewer"

#define STROBE_TYPE_APPLICATION (strobe_application_get_type ())
G_DECLARE_FINAL_TYPE (StrobeApplication, strobe_application, STROBE, APPLICATION, GtkApplication)

StrobeApplication *strobe_application_new          (void);
/* The settings, store and recorder every window shares; NULL before startup. */
StrobeServices    *strobe_application_get_services (StrobeApplication *self);

G_END_DECLS
