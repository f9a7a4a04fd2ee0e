/* tab-walk.h — Tab through a window as a keyboard user does, and check it goes somewhere.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

/* Presses Tab @presses times from @start (focused first) and asserts that the focus never
 * stays put, never lands on a label, reaches at least @min_stops widgets, and comes back to
 * @start or into it (Tab goes round the window). */
void tab_walk_assert (GtkWindow *window,
                      GtkWidget *start,
                      guint      presses,
                      guint      min_stops);
