/* strobe-application.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-application-private.h"
#include "strobe-build-tree.h"
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
  StrobeServices *services;          /* from startup */
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
  _strobe_application_actions_init (self);
  strobe_services_start (self->services);
}

static void
strobe_application_shutdown (GApplication *app)
{
  StrobeApplication *self = STROBE_APPLICATION (app);

  if (self->services != NULL)
    strobe_services_stop (self->services);

  G_APPLICATION_CLASS (strobe_application_parent_class)->shutdown (app);
}

/* --connect: once, in the first window. */
static void
connect_if_asked (StrobeApplication *self,
                  GtkWindow         *window)
{
  g_autofree char *target = g_steal_pointer (&self->connect_target);
  g_autofree char *channels = g_steal_pointer (&self->connect_channels);
  g_autoptr(GError) error = NULL;

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
  GtkWindow *window = _strobe_application_get_window (STROBE_APPLICATION (app));

  gtk_window_present (window);
  connect_if_asked (STROBE_APPLICATION (app), window);
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

GtkWindow *
_strobe_application_get_window (StrobeApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (strobe_window_new (self));
  return window;
}

StrobeServices *
strobe_application_get_services (StrobeApplication *self)
{
  g_return_val_if_fail (STROBE_IS_APPLICATION (self), NULL);
  return self->services;
}
