/* strobe-application.c — the viewer's GtkApplication: options, the services (store,
 * recorder, settings) made at startup, the app.* actions, a window per activation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "strobe-application.h"
#include "strobe-build-tree.h"
#include "strobe-help-window.h"
#include "strobe-preferences-dialog.h"
#include "strobe-views.h"
#include "strobe-window.h"

struct _StrobeApplication
{
  GtkApplication  parent_instance;

  char           *store_directory;   /* from --store-dir or the property; NULL: settings */
  int             recorder_port;     /* from --recorder-port or the property; -1: settings */
  GSettingsSchema *schema;           /* found before startup */
  char           *connect_target;    /* --connect, until the first window does it */
  char           *connect_channels;  /* --channels */
  gboolean        open_group;        /* --group: this instance's FILEs as one tab */
  char           *session;           /* --session, until the first window opens it */
  StrobeServices *services;          /* from startup */
  guint           quit_signals[3];   /* SIGTERM, SIGINT, SIGHUP sources, from startup */
};

G_DEFINE_FINAL_TYPE (StrobeApplication, strobe_application, GTK_TYPE_APPLICATION)

enum
{
  PROP_0,
  PROP_STORE_DIRECTORY,
  PROP_RECORDER_PORT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const GOptionEntry option_entries[] = {
  /* A string: GApplication leaves an integer option of 0 out of the options dictionary. */
  { "recorder-port", 'p', 0, G_OPTION_ARG_STRING, NULL,
    N_("Listen for programs’ traces on PORT (default 1980, 0 for any free port)"), N_("PORT") },
  { "store-dir", 's', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Keep recorded traces in DIRECTORY"), N_("DIRECTORY") },
  { "connect", 'c', 0, G_OPTION_ARG_STRING, NULL,
    N_("Trace a running program at once (its pid, name or HOST[:PORT]), as the Connect dialog does"), N_("PROGRAM") },
  { "channels", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --connect: the channels to turn on (default: those of the preferences; “all”)"), N_("LIST") },
  { "group", 'g', 0, G_OPTION_ARG_NONE, NULL,
    N_("Open the FILEs as one group: their processes on one time axis, in one tab"), NULL },
  { "session", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Open the session group NAME of the trace store in one tab, following it while it records"), N_("NAME") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

/* The installed schema, or the build tree's when running uninstalled. */
static GSettingsSchema *
lookup_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  GSettingsSchema *schema = source ? g_settings_schema_source_lookup (source, STROBE_APP_ID, TRUE) : NULL;
  const char *dir = strobe_build_tree_schema_dir ();

  if (schema == NULL && dir != NULL)
    {
      g_autoptr(GSettingsSchemaSource) built = g_settings_schema_source_new_from_directory (dir, source, FALSE, NULL);

      if (built != NULL)
        schema = g_settings_schema_source_lookup (built, STROBE_APP_ID, FALSE);
    }
  return schema;
}

static int
strobe_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  StrobeApplication *self = STROBE_APPLICATION (app);
  const char *store_dir = NULL;
  const char *port_text = NULL;
  gboolean instance_options;
  g_autoptr(GError) error = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("strobe %s\n", PACKAGE_VERSION);
      return 0;
    }
  self->schema = lookup_schema ();
  if (self->schema == NULL)
    {
      g_printerr ("%s\n", _("strobe: the settings schema org.strobe.Viewer is not installed. Run the viewer "
                            "from its build directory (_build/app/strobe finds _build/data), with "
                            "“meson devenv -C _build strobe”, or install it with “meson install -C _build”."));
      return 1;
    }
  if (g_variant_dict_lookup (options, "recorder-port", "&s", &port_text))
    {
      guint64 port;

      if (!g_ascii_string_to_unsigned (port_text, 10, 0, 65535, &port, NULL))
        {
          g_printerr (_("strobe: --recorder-port must be between 0 and 65535\n"));
          return 1;
        }
      self->recorder_port = (int) port;
    }
  if (g_variant_dict_lookup (options, "store-dir", "^&ay", &store_dir))
    {
      g_free (self->store_directory);
      self->store_directory = g_canonicalize_filename (store_dir, NULL);
    }
  g_variant_dict_lookup (options, "connect", "s", &self->connect_target);
  g_variant_dict_lookup (options, "channels", "s", &self->connect_channels);
  self->open_group = g_variant_dict_contains (options, "group");
  g_variant_dict_lookup (options, "session", "s", &self->session);

  /* These options shape the recorder and store of a new viewer. When one is running
   * already, this process only hands it the files: say so instead of ignoring them. */
  instance_options = port_text != NULL || store_dir != NULL || self->connect_target != NULL;
  if (instance_options && g_application_register (app, NULL, &error) &&
      g_application_get_is_remote (app))
    g_printerr ("%s\n", _("strobe: the viewer is already running; --recorder-port, --store-dir and "
                          "--connect apply only when it starts (quit it first, or use its Preferences "
                          "and Connect dialog). Files given are opened in the running viewer."));
  return -1;
}

/* The active StrobeWindow, a new one if there is none. */
static GtkWindow *
get_window (StrobeApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (strobe_window_new (GTK_APPLICATION (self), self->services));
  return window;
}

/* ---- actions: app.open, app.quit, app.about, app.recorder-other-port,
 * app.preferences, app.help (F1), and the accelerators of the win.* ones. ---- */

static void
open_response_cb (GtkNativeDialog *native,
                  int              response,
                  gpointer         user_data)
{
  g_autoptr(StrobeWindow) window = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (native));
      const char *group = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (native), "group");
      guint n = g_list_model_get_n_items (files);

      /* Several processes of one session: one tab, one time axis. */
      if (n > 1 && g_strcmp0 (group, "true") == 0)
        {
          g_autofree GFile **array = g_new0 (GFile *, n);

          for (guint i = 0; i < n; i++)
            array[i] = g_list_model_get_item (files, i);
          strobe_window_open_group_files (window, array, n);
          for (guint i = 0; i < n; i++)
            g_object_unref (array[i]);
          n = 0;
        }
      for (guint i = 0; i < n; i++)
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
  GtkWindow *window = get_window (self);
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
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (native), "group",
                               _("Open several traces as one group (one time axis)"), NULL, NULL);
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

/* app.quit: asks first while a program is recording into the embedded recorder. */
static void
quit (StrobeApplication *self)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *dialog;

  if (!strobe_services_is_recording (self->services))
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
  quit (STROBE_APPLICATION (user_data));
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
  StrobeServices *services = STROBE_APPLICATION (user_data)->services;
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

  gtk_window_present (GTK_WINDOW (strobe_preferences_dialog_new (self->services, parent)));
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

static void
add_actions (StrobeApplication *self)
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
    /* Shift+F5: a debugger's Stop, which a developer's fingers know. */
    { "win.stop-recording", { "<Shift>F5", NULL } },
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

/* Killed politely (SIGTERM from a session's logout or `kill`, Ctrl+C, the terminal gone):
 * quit as Ctrl+Q does, without asking, so the recorder finishes every recording with its
 * end time (a stopped trace, not one left with no duration for the next start to mend). */
static gboolean
quit_signal_cb (gpointer data)
{
  quit_now (STROBE_APPLICATION (data));
  return G_SOURCE_CONTINUE;
}

static void
strobe_application_startup (GApplication *app)
{
  StrobeApplication *self = STROBE_APPLICATION (app);
  g_autoptr(GtkCssProvider) css = NULL;
  g_autoptr(GSettings) settings = NULL;

  G_APPLICATION_CLASS (strobe_application_parent_class)->startup (app);

  g_set_application_name (_("Strobe"));
  gtk_window_set_default_icon_name (STROBE_APP_ID);
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/strobe/Viewer/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  strobe_views_register_all ();

  if (self->schema == NULL)
    self->schema = lookup_schema ();   /* a primary that skipped handle_local_options */
  g_return_if_fail (self->schema != NULL);
  settings = g_settings_new_full (self->schema, NULL, NULL);
  self->services = strobe_services_new (settings, self->store_directory, self->recorder_port);
  add_actions (self);
  strobe_services_start (self->services);
  self->quit_signals[0] = g_unix_signal_add (SIGTERM, quit_signal_cb, self);
  self->quit_signals[1] = g_unix_signal_add (SIGINT, quit_signal_cb, self);
  self->quit_signals[2] = g_unix_signal_add (SIGHUP, quit_signal_cb, self);
}

static void
strobe_application_shutdown (GApplication *app)
{
  StrobeApplication *self = STROBE_APPLICATION (app);

  for (guint i = 0; i < G_N_ELEMENTS (self->quit_signals); i++)
    g_clear_handle_id (&self->quit_signals[i], g_source_remove);
  if (self->services != NULL)
    strobe_services_stop (self->services);

  G_APPLICATION_CLASS (strobe_application_parent_class)->shutdown (app);
}

/* --connect (and --session): once, in the first window. */
static void
connect_if_asked (StrobeApplication *self,
                  GtkWindow         *window)
{
  g_autofree char *target = g_steal_pointer (&self->connect_target);
  g_autofree char *channels = g_steal_pointer (&self->connect_channels);
  g_autofree char *session = g_steal_pointer (&self->session);
  g_autoptr(GError) error = NULL;

  /* --session: as --connect, once, in the first window. */
  if (session != NULL)
    strobe_window_open_group (STROBE_WINDOW (window), session);
  if (target == NULL)
    return;
  if (!strobe_window_connect_to (STROBE_WINDOW (window), target, channels, &error))
    {
      GtkWidget *dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("Could not trace the program"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

static void
strobe_application_activate (GApplication *app)
{
  GtkWindow *window = get_window (STROBE_APPLICATION (app));

  gtk_window_present (window);
  connect_if_asked (STROBE_APPLICATION (app), window);
}

static void
strobe_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  StrobeApplication *self = STROBE_APPLICATION (app);
  GtkWindow *window = get_window (STROBE_APPLICATION (app));

  /* --group reaches only the instance it was given to: a running viewer's opens tabs. */
  if (self->open_group && n_files > 1)
    strobe_window_open_group_files (STROBE_WINDOW (window), files, (guint) n_files);
  else
    for (int i = 0; i < n_files; i++)
      strobe_window_open_file (STROBE_WINDOW (window), files[i]);
  self->open_group = FALSE;
  gtk_window_present (window);
  connect_if_asked (STROBE_APPLICATION (app), window);
}

static void
strobe_application_finalize (GObject *object)
{
  StrobeApplication *self = STROBE_APPLICATION (object);

  g_clear_object (&self->services);
  g_clear_pointer (&self->schema, g_settings_schema_unref);
  g_clear_pointer (&self->connect_target, g_free);
  g_clear_pointer (&self->connect_channels, g_free);
  g_clear_pointer (&self->session, g_free);
  g_clear_pointer (&self->store_directory, g_free);

  G_OBJECT_CLASS (strobe_application_parent_class)->finalize (object);
}

static void
strobe_application_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StrobeApplication *self = STROBE_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_STORE_DIRECTORY: g_value_set_string (value, self->store_directory); break;
    case PROP_RECORDER_PORT:   g_value_set_int (value, self->recorder_port); break;
    default:                   G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_application_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StrobeApplication *self = STROBE_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_STORE_DIRECTORY:
      g_free (self->store_directory);
      self->store_directory = g_value_dup_string (value);
      break;
    case PROP_RECORDER_PORT:
      self->recorder_port = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_application_class_init (StrobeApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = strobe_application_finalize;
  object_class->get_property = strobe_application_get_property;
  object_class->set_property = strobe_application_set_property;
  app_class->handle_local_options = strobe_application_handle_local_options;
  app_class->startup = strobe_application_startup;
  app_class->shutdown = strobe_application_shutdown;
  app_class->activate = strobe_application_activate;
  app_class->open = strobe_application_open;

  /* Both are read at startup: set them before. */
  properties[PROP_STORE_DIRECTORY] =
    g_param_spec_string ("store-directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  properties[PROP_RECORDER_PORT] =
    g_param_spec_int ("recorder-port", NULL, NULL, -1, 65535, -1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_application_init (StrobeApplication *self)
{
  self->recorder_port = -1;
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Record, store and analyze Strobe traces."));
}

StrobeApplication *
strobe_application_new (void)
{
  return g_object_new (STROBE_TYPE_APPLICATION,
                       "application-id", STROBE_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/strobe/Viewer",
                       NULL);
}


StrobeServices *
strobe_application_get_services (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->services;
}
