/* strobe-application.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-application-private.h"
#include "strobe-window.h"

struct _StrobeApplication
{
  GtkApplication  parent_instance;

  GSettings      *settings;
  char           *store_directory;   /* from --store-dir or the property; NULL: settings */
  int             recorder_port;     /* from --recorder-port or the property; -1: settings */

  StrobeStore    *store;
  GError         *store_error;
  StrobeRecorder *recorder;
  GError         *recorder_error;
  guint           restart_source;    /* settings changed: restart the recorder soon */
};

G_DEFINE_FINAL_TYPE (StrobeApplication, strobe_application, GTK_TYPE_APPLICATION)

enum
{
  PROP_0,
  PROP_STORE_DIRECTORY,
  PROP_RECORDER_PORT,
  N_PROPS
};

enum
{
  RECORDER_CHANGED,
  STORE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const GOptionEntry option_entries[] = {
  /* A string: GApplication leaves an integer option of 0 out of the options dictionary. */
  { "recorder-port", 'p', 0, G_OPTION_ARG_STRING, NULL,
    N_("Listen for programs’ traces on PORT (default 1980, 0 for any free port)"), N_("PORT") },
  { "store-dir", 's', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Keep recorded traces in DIRECTORY"), N_("DIRECTORY") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

static int
strobe_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  StrobeApplication *self = STROBE_APPLICATION (app);
  const char *store_dir = NULL;
  const char *port_text = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("strobe %s\n", PACKAGE_VERSION);
      return 0;
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
  return -1;
}

static char *
get_store_directory (StrobeApplication *self)
{
  g_autofree char *setting = NULL;

  if (self->store_directory != NULL)
    return g_strdup (self->store_directory);
  setting = g_settings_get_string (self->settings, "store-directory");
  return *setting ? g_steal_pointer (&setting) : NULL;
}

static gboolean
start_recorder (StrobeApplication  *self,
                int                 port,
                GError            **error)
{
  if (self->recorder != NULL)
    {
      strobe_recorder_stop (self->recorder);
      g_clear_object (&self->recorder);
    }
  self->recorder = strobe_recorder_new (self->store);
  strobe_recorder_set_port (self->recorder, (guint16) port);
  if (g_settings_get_boolean (self->settings, "listen-on-all-interfaces"))
    strobe_recorder_set_listen_address (self->recorder, "::");
  return strobe_recorder_start (self->recorder, error);
}

static int
get_port (StrobeApplication *self)
{
  return self->recorder_port >= 0 ? self->recorder_port
                                  : g_settings_get_int (self->settings, "recorder-port");
}

static gboolean
restart_cb (gpointer user_data)
{
  StrobeApplication *self = user_data;

  self->restart_source = 0;
  if (self->store != NULL)
    strobe_application_restart_recorder (self, (guint16) get_port (self), NULL);
  return G_SOURCE_REMOVE;
}

/* Preferences apply at once: a new port or address restarts the recorder (a moment later,
 * so typing a port does not restart it per digit); a new store directory reopens the
 * store. What the command line said gives way to what the user just chose. */
static void
settings_changed_cb (StrobeApplication *self,
                     const char        *key,
                     GSettings         *settings)
{
  if (g_str_equal (key, "recorder-port") || g_str_equal (key, "listen-on-all-interfaces"))
    {
      if (g_str_equal (key, "recorder-port"))
        self->recorder_port = -1;
      g_clear_handle_id (&self->restart_source, g_source_remove);
      self->restart_source = g_timeout_add (300, restart_cb, self);
    }
  else if (g_str_equal (key, "store-directory"))
    {
      g_autofree char *directory = NULL;
      g_autoptr(GError) error = NULL;
      StrobeStore *store;

      g_clear_pointer (&self->store_directory, g_free);
      directory = get_store_directory (self);
      store = strobe_store_new (directory, &error);
      if (store == NULL)
        {
          g_warning ("Could not open the trace store: %s", error->message);
          g_clear_error (&self->store_error);
          self->store_error = g_steal_pointer (&error);
          g_signal_emit (self, signals[STORE_CHANGED], 0);
          return;
        }
      if (self->recorder != NULL)
        strobe_recorder_stop (self->recorder);
      g_clear_object (&self->recorder);
      g_clear_object (&self->store);
      g_clear_error (&self->store_error);
      self->store = store;
      g_signal_emit (self, signals[STORE_CHANGED], 0);
      strobe_application_restart_recorder (self, (guint16) get_port (self), NULL);
    }
}

static void
strobe_application_startup (GApplication *app)
{
  StrobeApplication *self = STROBE_APPLICATION (app);
  g_autoptr(GtkCssProvider) css = NULL;
  g_autofree char *directory = NULL;
  int port;

  G_APPLICATION_CLASS (strobe_application_parent_class)->startup (app);

  g_set_application_name (_("Strobe"));
  gtk_window_set_default_icon_name (STROBE_APP_ID);
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/strobe/Viewer/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->settings = g_settings_new (STROBE_APP_ID);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  _strobe_application_actions_init (self);

  directory = get_store_directory (self);
  self->store = strobe_store_new (directory, &self->store_error);
  if (self->store == NULL)
    {
      g_warning ("Could not open the trace store: %s", self->store_error->message);
      return;
    }

  port = get_port (self);
  if (!start_recorder (self, port, &self->recorder_error))
    g_message ("The recorder is not listening: %s", self->recorder_error->message);
}

static void
strobe_application_shutdown (GApplication *app)
{
  StrobeApplication *self = STROBE_APPLICATION (app);

  g_clear_handle_id (&self->restart_source, g_source_remove);
  if (self->recorder != NULL)
    strobe_recorder_stop (self->recorder);

  G_APPLICATION_CLASS (strobe_application_parent_class)->shutdown (app);
}

static void
strobe_application_activate (GApplication *app)
{
  gtk_window_present (_strobe_application_get_window (STROBE_APPLICATION (app)));
}

static void
strobe_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  GtkWindow *window = _strobe_application_get_window (STROBE_APPLICATION (app));

  for (int i = 0; i < n_files; i++)
    strobe_window_open_file (STROBE_WINDOW (window), files[i]);
  gtk_window_present (window);
}

static void
strobe_application_finalize (GObject *object)
{
  StrobeApplication *self = STROBE_APPLICATION (object);

  g_clear_object (&self->recorder);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_error (&self->store_error);
  g_clear_error (&self->recorder_error);
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

  /**
   * StrobeApplication::recorder-changed:
   *
   * The recorder was restarted, or failed to.
   */
  signals[RECORDER_CHANGED] = g_signal_new ("recorder-changed", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  /**
   * StrobeApplication::store-changed:
   *
   * The store directory changed: the store was reopened (or failed to open; see
   * strobe_application_get_store_error()).
   */
  signals[STORE_CHANGED] = g_signal_new ("store-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
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

GtkWindow *
_strobe_application_get_window (StrobeApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (strobe_window_new (self));
  return window;
}

GSettings *
strobe_application_get_settings (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->settings;
}

StrobeStore *
strobe_application_get_store (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->store;
}

const GError *
strobe_application_get_store_error (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->store_error;
}

StrobeRecorder *
strobe_application_get_recorder (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->recorder;
}

const GError *
strobe_application_get_recorder_error (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->recorder_error;
}

char *
strobe_application_dup_recorder_status (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);

  if (self->recorder != NULL && strobe_recorder_is_running (self->recorder))
    {
      const char *address = strobe_recorder_get_listen_address (self->recorder);
      guint port = strobe_recorder_get_port (self->recorder);

      if (address == NULL)
        return g_strdup_printf (_("Recording on 127.0.0.1:%u"), port);
      /* Translators: the recorder listens on every network interface */
      return g_strdup_printf (_("Recording on port %u, all interfaces"), port);
    }
  if (self->store == NULL)
    return g_strdup (_("Not recording: no trace store"));
  return g_strdup (_("Not recording"));
}

gboolean
strobe_application_restart_recorder (StrobeApplication  *self,
                                     guint16             port,
                                     GError            **error)
{
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_APPLICATION (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);

  g_clear_handle_id (&self->restart_source, g_source_remove);
  g_clear_error (&self->recorder_error);
  ok = start_recorder (self, port, &self->recorder_error);
  g_signal_emit (self, signals[RECORDER_CHANGED], 0);
  if (!ok && error != NULL)
    *error = g_error_copy (self->recorder_error);
  return ok;
}
