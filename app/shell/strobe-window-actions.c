/* strobe-window-actions.c — win.close (Ctrl+W), win.find (Ctrl+F) and win.connect (Ctrl+K,
 * the connect dialog); win.show-help-overlay
 * (Ctrl+?) comes from GtkApplicationWindow and gtk/help-overlay.ui.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-connect-dialog.h"
#include "strobe-window-private.h"

static void
close_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  strobe_window_close_current (STROBE_WINDOW (user_data));
}

static void
find_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  strobe_window_focus_search (STROBE_WINDOW (user_data));
}

static void
connect_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (strobe_connect_dialog_new (STROBE_WINDOW (user_data))));
}

void
_strobe_window_actions_init (StrobeWindow *self)
{
  static const GActionEntry entries[] = {
    { "close", close_action },
    { "find", find_action },
    { "connect", connect_action },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}
