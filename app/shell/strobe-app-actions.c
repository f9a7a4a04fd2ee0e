/* strobe-app-actions.c — app.open, app.quit, app.about, app.recorder-other-port,
 * app.preferences, app.help (F1).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-application-private.h"
#include "strobe-help-window.h"
#include "strobe-preferences-dialog.h"
#include "strobe-window.h"

static void
open_response_cb (GtkNativeDialog *native,
                  int              response,
                  gpointer         user_data)
{
  g_autoptr(StrobeWindow) window = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (native));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          strobe_window_open_file (window, file);
        }
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  StrobeApplication *self = user_data;
  GtkWindow *window = _strobe_application_get_window (self);
  GtkFileChooserNative *native;
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (traces, _("Strobe traces"));
  gtk_file_filter_add_pattern (traces, "*.strobe");
  gtk_file_filter_add_mime_type (traces, "application/x-strobe-trace");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");

  native = gtk_file_chooser_native_new (_("Open Trace"), window, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), traces);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (native), traces);
  g_signal_connect (native, "response", G_CALLBACK (open_response_cb), g_object_ref (window));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
quit_now (StrobeApplication *self)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Destroying the windows cancels their loads; the application then ends. */
  while (windows != NULL)
    {
      GList *next = windows->next;

      gtk_window_destroy (windows->data);
      windows = next;
    }
  g_application_quit (G_APPLICATION (self));
}

static void
confirm_response_cb (GtkDialog         *dialog,
                     int                response,
                     StrobeApplication *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    quit_now (self);
}

void
_strobe_application_quit (StrobeApplication *self)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *dialog;

  if (!strobe_services_is_recording (strobe_application_get_services (self)))
    {
      quit_now (self);
      return;
    }
  /* Quitting stops the embedded recorder: a program streaming to it loses its session. */
  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   "%s", _("Stop recording and quit?"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("A program is sending a trace to this viewer. Quitting stops "
                                              "the recorder: what was received is kept, the rest of the "
                                              "session is lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Keep Recording"), GTK_RESPONSE_CANCEL,
                          _("Stop and _Quit"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
                            "destructive-action");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  _strobe_application_quit (STROBE_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  StrobeApplication *self = user_data;
  const char *authors[] = { _("The Strobe authors"), NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "program-name", _("Strobe"),
                         "logo-icon-name", STROBE_APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Record and analyze traces of C and C++ programs"),
                         "license-type", GTK_LICENSE_MIT_X11,
                         "authors", authors,
                         /* Translators: put your names here, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
recorder_other_port_action (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  StrobeServices *services = strobe_application_get_services (STROBE_APPLICATION (user_data));
  g_autoptr(GError) error = NULL;

  if (strobe_services_get_store (services) == NULL)
    return;
  /* Port 0: the system picks a free one; the header bar then shows which. */
  if (!strobe_services_restart_recorder (services, 0, &error))
    g_warning ("Could not start the recorder on any port: %s", error->message);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  StrobeApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (strobe_preferences_dialog_new (strobe_application_get_services (self), parent)));
}

static void
help_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  StrobeApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (strobe_help_window_new (parent)));
}

void
_strobe_application_actions_init (StrobeApplication *self)
{
  static const GActionEntry entries[] = {
    { "open", open_action },
    { "quit", quit_action },
    { "about", about_action },
    { "recorder-other-port", recorder_other_port_action },
    { "preferences", preferences_action },
    { "help", help_action },
  };
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.help", { "F1", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.connect", { "<Control>k", NULL } },
    { "win.next-pane", { "F6", NULL } },
    { "win.previous-pane", { "<Shift>F6", NULL } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);
  for (int i = 0; i < 9; i++)
    {
      g_autofree char *action = g_strdup_printf ("win.show-view(%d)", i);
      g_autofree char *accel = g_strdup_printf ("<Alt>%d", i + 1);
      const char *accels_for[] = { accel, NULL };

      gtk_application_set_accels_for_action (GTK_APPLICATION (self), action, accels_for);
    }
}
