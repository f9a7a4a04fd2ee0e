/* strobe-application-private.h — shared between the application and its actions.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-application.h"

G_BEGIN_DECLS

void _strobe_application_actions_init (StrobeApplication *self);
/* app.quit: asks first while a program is recording into the embedded recorder. */
void _strobe_application_quit (StrobeApplication *self);
/* The active StrobeWindow, a new one if there is none. */
GtkWindow *_strobe_application_get_window (StrobeApplication *self);

G_END_DECLS
