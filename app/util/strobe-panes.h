/* strobe-panes.h — F6 and Shift+F6 move the keyboard focus from pane to pane (the tab
 * strip, a view's switcher, its content, a side panel…), as in GNOME's and most IDEs'
 * windows. A pane is any widget marked with strobe_pane_mark(); the order is the widget
 * tree's, so a view adds its own sub-panes just by marking them.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A GtkNotebook marked as a pane stands for its tab strip. */
void     strobe_pane_mark  (GtkWidget *widget);
/* Moves the focus to the next (or previous) visible pane under @root after the one that
 * holds @root's focus now, wrapping around. FALSE when there is no pane to go to. */
gboolean strobe_pane_cycle (GtkWidget *root,
                            gboolean   backward);

G_END_DECLS
