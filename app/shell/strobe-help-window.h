/* strobe-help-window.h — F1: how to get around the viewer (gestures, selecting, jumping
 * between views, symbols); the keyboard shortcuts are one button away.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STROBE_TYPE_HELP_WINDOW (strobe_help_window_get_type ())
G_DECLARE_FINAL_TYPE (StrobeHelpWindow, strobe_help_window, STROBE, HELP_WINDOW, GtkWindow)

/* Transient for @parent (may be NULL); help.shortcuts opens @parent's shortcuts window. */
GtkWidget *strobe_help_window_new (GtkWindow *parent);

G_END_DECLS
