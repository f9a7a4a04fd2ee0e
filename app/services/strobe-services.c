/* strobe-services.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-services.h"

struct _StrobeServices
{
  GObject         parent_instance;

  GSettings      *settings;
  char           *store_directory;   /* from --store-dir; NULL: settings */
  int             recorder_port;     /* from --recorder-port; -1: settings */

  StrobeStore    *store;
  GError         *store_error;
  StrobeRecorder *recorder;
  GError         *recorder_error;
  guint           restart_source;    /* settings changed: restart the recorder soon */
};

G_DEFINE_FINAL_TYPE (StrobeServices, strobe_services, G_TYPE_OBJECT)

enum
{
  RECORDER_CHANGED,
  STORE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
get_store_directory (StrobeServices *self)
{
  g_autofree char *setting = NULL;

  if (self->store_directory != NULL)
    return g_strdup (self->store_directory);
  setting = g_settings_get_string (self->settings, "store-directory");
  return *setting ? g_steal_pointer (&setting) : NULL;
}

static int
get_port (StrobeServices *self)
{
  return self->recorder_port >= 0 ? self->recorder_port
                                  : g_settings_get_int (self->settings, "recorder-port");
}

static gboolean
start_recorder (StrobeServices  *self,
                int              port,
                GError         **error)
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

static gboolean
restart_cb (gpointer user_data)
{
  StrobeServices *self = user_data;

  self->restart_source = 0;
  if (self->store != NULL)
    strobe_services_restart_recorder (self, (guint16) get_port (self), NULL);
  return G_SOURCE_REMOVE;
}

/* What the command line said gives way to what the user just chose. A port is applied a
 * moment later, so typing one does not restart the recorder per digit. */
static void
settings_changed_cb (StrobeServices *self,
                     const char     *key,
                     GSettings      *settings)
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
      strobe_services_restart_recorder (self, (guint16) get_port (self), NULL);
    }
}

static void
strobe_services_finalize (GObject *object)
{
  StrobeServices *self = STROBE_SERVICES (object);

  g_clear_handle_id (&self->restart_source, g_source_remove);
  if (self->recorder != NULL)
    strobe_recorder_stop (self->recorder);
  g_clear_object (&self->recorder);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_error (&self->store_error);
  g_clear_error (&self->recorder_error);
  g_clear_pointer (&self->store_directory, g_free);

  G_OBJECT_CLASS (strobe_services_parent_class)->finalize (object);
}

static void
strobe_services_class_init (StrobeServicesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_services_finalize;

  /**
   * StrobeServices::recorder-changed:
   *
   * The recorder was restarted, or failed to.
   */
  signals[RECORDER_CHANGED] = g_signal_new ("recorder-changed", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  /**
   * StrobeServices::store-changed:
   *
   * The store directory changed: the store was reopened (or failed to open; see
   * strobe_services_get_store_error()).
   */
  signals[STORE_CHANGED] = g_signal_new ("store-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
}

static void
strobe_services_init (StrobeServices *self)
{
  self->recorder_port = -1;
}

StrobeServices *
strobe_services_new (GSettings  *settings,
                     const char *store_directory,
                     int         recorder_port)
{
  StrobeServices *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (recorder_port >= -1 && recorder_port <= 65535, NULL);

  self = g_object_new (STROBE_TYPE_SERVICES, NULL);
  self->settings = g_object_ref (settings);
  self->store_directory = g_strdup (store_directory);
  self->recorder_port = recorder_port;
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

void
strobe_services_start (StrobeServices *self)
{
  g_autofree char *directory = NULL;

  g_return_if_fail (STROBE_IS_SERVICES (self));
  g_return_if_fail (self->store == NULL);

  directory = get_store_directory (self);
  self->store = strobe_store_new (directory, &self->store_error);
  if (self->store == NULL)
    {
      g_warning ("Could not open the trace store: %s", self->store_error->message);
      return;
    }
  if (!start_recorder (self, get_port (self), &self->recorder_error))
    g_message ("The recorder is not listening: %s", self->recorder_error->message);
}

void
strobe_services_stop (StrobeServices *self)
{
  g_return_if_fail (STROBE_IS_SERVICES (self));

  g_clear_handle_id (&self->restart_source, g_source_remove);
  if (self->recorder != NULL)
    strobe_recorder_stop (self->recorder);
}

GSettings *
strobe_services_get_settings (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);
  return self->settings;
}

StrobeStore *
strobe_services_get_store (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);
  return self->store;
}

const GError *
strobe_services_get_store_error (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);
  return self->store_error;
}

StrobeRecorder *
strobe_services_get_recorder (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);
  return self->recorder;
}

const GError *
strobe_services_get_recorder_error (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);
  return self->recorder_error;
}

guint16
strobe_services_get_recorder_port (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), 0);
  if (self->recorder == NULL || !strobe_recorder_is_running (self->recorder))
    return 0;
  return strobe_recorder_get_port (self->recorder);
}

gboolean
strobe_services_port_from_command_line (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), FALSE);
  return self->recorder_port >= 0;
}

char *
strobe_services_dup_recorder_status (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), NULL);

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
strobe_services_restart_recorder (StrobeServices  *self,
                                  guint16          port,
                                  GError         **error)
{
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_SERVICES (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);

  g_clear_handle_id (&self->restart_source, g_source_remove);
  g_clear_error (&self->recorder_error);
  ok = start_recorder (self, port, &self->recorder_error);
  g_signal_emit (self, signals[RECORDER_CHANGED], 0);
  if (!ok && error != NULL)
    *error = g_error_copy (self->recorder_error);
  return ok;
}

gboolean
strobe_services_is_recording (StrobeServices *self)
{
  g_return_val_if_fail (STROBE_IS_SERVICES (self), FALSE);
  return self->store != NULL &&
         g_list_model_get_n_items (strobe_store_get_sessions (self->store)) > 0;
}
