/* strobe-recent-menu.h — the traces opened lately, as a menu (under the Open button and in
 * the main menu's Open Recent), kept current from the desktop's recent files.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* At most this many traces, newest first. */
#define STROBE_RECENT_MENU_MAX 10

/* A menu of the traces this viewer opened, newest first, each activating
 * `win.open-uri` with the trace's URI; "No Recent Traces" (insensitive) when there are
 * none. Rebuilt whenever the recent files change. */
GMenuModel *strobe_recent_menu_new (void);

/* Records @file (shown as @title) as opened by this viewer. */
void        strobe_recent_menu_add (GFile       *file,
                                    const char  *title);

G_END_DECLS
