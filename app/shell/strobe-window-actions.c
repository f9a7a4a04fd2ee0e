/* strobe-window-actions.c — win.close (Ctrl+W), win.connect (Ctrl+K, the connect dialog),
 * win.next-pane and win.previous-pane (F6, Shift+F6); win.show-trace (a trace's tab on a
 * view with a span selected: the comparison page's "Show in B"); win.show-help-overlay
 * (Ctrl+?) comes from GtkApplicationWindow and gtk/help-overlay.ui.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-window-private.h"

static void
close_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  strobe_window_close_current (STROBE_WINDOW (user_data));
}

static void
connect_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  strobe_window_connect (STROBE_WINDOW (user_data));
}

/* Alt+1…9 from anywhere in the window, the tab strip included: the current trace's views. */
static void
show_view_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  StrobeWindow *self = user_data;
  GtkWidget *page = strobe_window_get_current_page (self);

  if (page != NULL)
    gtk_widget_activate_action (page, "document.show-view", "i", g_variant_get_int32 (parameter));
}

static void
next_pane_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  strobe_window_cycle_panes (STROBE_WINDOW (user_data), FALSE);
}

static void
previous_pane_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  strobe_window_cycle_panes (STROBE_WINDOW (user_data), TRUE);
}

static void
show_trace_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  const char *uri, *page;
  guint64 begin, end, pad;
  g_autoptr(GFile) file = NULL;

  g_variant_get (parameter, "(&s&sttt)", &uri, &page, &begin, &end, &pad);
  file = g_file_new_for_uri (uri);
  strobe_window_show_trace (STROBE_WINDOW (user_data), file, page, begin, end, pad);
}

void
_strobe_window_actions_init (StrobeWindow *self)
{
  static const GActionEntry entries[] = {
    { "close", close_action },
    { "connect", connect_action },
    { "next-pane", next_pane_action },
    { "show-view", show_view_action, "i" },
    { "show-trace", show_trace_action, "(ssttt)" },
    { "previous-pane", previous_pane_action },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}
