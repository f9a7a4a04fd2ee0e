/* strobe-spin-wheel.h — a spin button in a scrolled page that the wheel passes over.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK's spin button takes every wheel turn over it: a page scrolled with the wheel changed
 * the value under the pointer instead (a group tab's "move by hand" offset, moving a
 * process's tracks in time). After this, until the button has the keyboard focus, the wheel
 * scrolls the nearest scrolled window around it as it would anywhere else on the page;
 * once focused (clicked, tabbed to) it steps the value as before. */
void strobe_spin_wheel_when_focused (GtkSpinButton *button);

G_END_DECLS
