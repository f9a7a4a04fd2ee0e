/* strobe-preferences-dialog.h — the viewer's settings (org.strobe.Viewer): where traces are
 * kept, the recorder's port and interfaces, what to ask of a program on connect. Changes
 * apply at once (StrobeServices restarts the recorder or reopens the store).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-services.h"

G_BEGIN_DECLS

#define STROBE_TYPE_PREFERENCES_DIALOG (strobe_preferences_dialog_get_type ())
G_DECLARE_FINAL_TYPE (StrobePreferencesDialog, strobe_preferences_dialog, STROBE, PREFERENCES_DIALOG, GtkWindow)

GtkWidget *strobe_preferences_dialog_new (StrobeServices    *services,
                                          GtkWindow         *parent);

G_END_DECLS
