/* strobe-late-connect.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-clock-offset.h"
#include "strobe-control-client.h"
#include "strobe-late-connect.h"

#define APPEAR_TIMEOUT_S 5

struct _StrobeLateConnect
{
  GObject              parent_instance;

  StrobeServices      *services;
  StrobeControlClient *client;
  char                *target;
  char                *channels;
  guint                target_pid;
  GHashTable          *live_before;     /* trace ids live before send-to */
  gulong               store_handlers[2];
  guint                timeout_id;
  gboolean             running;
};

G_DEFINE_FINAL_TYPE (StrobeLateConnect, strobe_late_connect, G_TYPE_OBJECT)

enum
{
  PROGRESS,
  WARNING,
  CONNECTED,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
stop (StrobeLateConnect *self)
{
  StrobeStore *store = strobe_services_get_store (self->services);

  self->running = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (self->store_handlers); i++)
    if (self->store_handlers[i] != 0 && store != NULL)
      g_signal_handler_disconnect (store, self->store_handlers[i]);
  memset (self->store_handlers, 0, sizeof self->store_handlers);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_pointer (&self->live_before, g_hash_table_unref);
}

static void
fail (StrobeLateConnect *self,
      const char        *message)
{
  /* A handler may drop its last reference: keep one through the emission. */
  g_object_ref (self);
  stop (self);
  g_signal_emit (self, signals[FAILED], 0, message);
  g_object_unref (self);
}

static gboolean
is_new_session (StrobeLateConnect *self,
                StrobeTrace       *trace)
{
  return strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE &&
         strobe_trace_get_pid (trace) == self->target_pid &&
         (self->live_before == NULL || !g_hash_table_contains (self->live_before, strobe_trace_get_id (trace)));
}

static void
found (StrobeLateConnect *self,
       StrobeTrace       *trace)
{
  g_autoptr(GFile) file = g_file_new_for_path (strobe_trace_get_path (trace));

  g_object_ref (self);
  stop (self);
  g_signal_emit (self, signals[CONNECTED], 0, file);
  g_object_unref (self);
}

static void
store_trace_cb (StrobeLateConnect *self,
                StrobeTrace       *trace)
{
  if (self->running && is_new_session (self, trace))
    found (self, trace);
}

static gboolean
appear_timeout_cb (gpointer user_data)
{
  StrobeLateConnect *self = user_data;

  self->timeout_id = 0;
  fail (self, _("The program accepted, but its trace did not reach the recorder. "
                "Is a firewall in the way, or is the recorder listening on loopback only?"));
  return G_SOURCE_REMOVE;
}

static void
wait_for_session (StrobeLateConnect *self)
{
  StrobeStore *store = strobe_services_get_store (self->services);
  GListModel *traces = strobe_store_get_traces (store);

  g_signal_emit (self, signals[PROGRESS], 0, _("Waiting for the trace…"));
  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

      if (is_new_session (self, trace))
        {
          found (self, trace);
          return;
        }
    }
  self->store_handlers[0] = g_signal_connect_swapped (store, "trace-added", G_CALLBACK (store_trace_cb), self);
  self->store_handlers[1] = g_signal_connect_swapped (store, "trace-changed", G_CALLBACK (store_trace_cb), self);
  self->timeout_id = g_timeout_add_seconds (APPEAR_TIMEOUT_S, appear_timeout_cb, self);
}

static void
command_failed (StrobeLateConnect *self,
                const GError      *error)
{
  /* Translators: the first %s is host:port, the second why */
  g_autofree char *text = g_strdup_printf (_("Could not connect to the program at %s: %s"), self->target, error->message);

  fail (self, text);
}

static void
channels_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(StrobeLateConnect) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);

  if (!self->running)
    return;
  if (reply == NULL)
    {
      /* The trace is on its way anyway: say so, and go on. */
      g_autofree char *text = g_strdup_printf (_("The channels could not be turned on: %s"), error->message);

      g_signal_emit (self, signals[WARNING], 0, text);
    }
}

static void
send_to_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(StrobeLateConnect) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);

  if (!self->running)
    return;
  if (reply == NULL)
    {
      command_failed (self, error);
      return;
    }
  wait_for_session (self);
}

/* Not in the way of the connect: a program whose offset could not be measured is only
 * aligned by its wall-clock start in a group (PROTOCOL.md §1). */
static void
clock_synced_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  StrobeClockOffset offset;
  gboolean recorded = FALSE;

  if (strobe_control_client_sync_clock_finish (STROBE_CONTROL_CLIENT (object), result, &offset, &recorded, &error))
    g_debug ("Clock offset %" G_GINT64_FORMAT " ns ± %" G_GUINT64_FORMAT " ns%s", offset.offset_ns,
             offset.uncertainty_ns, recorded ? ", recorded in the trace" : " (same machine)");
  else
    g_debug ("Clock offset not measured: %s", error->message);
}

static void
status_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StrobeLateConnect) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);
  g_autoptr(GHashTable) pairs = NULL;
  StrobeRecorder *recorder = strobe_services_get_recorder (self->services);
  g_autofree char *recorder_address = NULL;
  g_autofree char *send_to = NULL;
  const char *host;
  guint64 pid = 0;

  if (!self->running)
    return;
  if (reply == NULL)
    {
      command_failed (self, error);
      return;
    }
  pairs = strobe_control_parse_pairs (reply);
  g_ascii_string_to_unsigned (g_hash_table_lookup (pairs, "pid"), 10, 1, G_MAXUINT32, &pid, NULL);
  self->target_pid = (guint) pid;

  /* A program on this machine reaches the recorder on loopback; another needs this
   * machine's name and a recorder listening on every interface. */
  host = strobe_control_client_get_host (self->client);
  if (g_str_equal (host, "127.0.0.1") || g_str_equal (host, "::1") || g_str_equal (host, "localhost"))
    recorder_address = g_strdup ("127.0.0.1");
  else if (strobe_recorder_get_listen_address (recorder) != NULL)
    recorder_address = g_strdup (g_get_host_name ());
  else
    {
      fail (self, _("A program on another computer cannot reach this viewer: turn on "
                    "“Listen on all interfaces” in Preferences first."));
      return;
    }

  /* Snapshot of what is live now, so the program's current session is not taken for the
   * new one. */
  self->live_before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  {
    GListModel *traces = strobe_store_get_traces (strobe_services_get_store (self->services));

    for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
      {
        g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

        if (strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE)
          g_hash_table_add (self->live_before, g_strdup (strobe_trace_get_id (trace)));
      }
  }

  {
    g_autofree char *address = g_strdup_printf ("%s:%u", recorder_address, strobe_recorder_get_port (recorder));
    GSettings *settings = strobe_services_get_settings (self->services);

    /* The history to replay, as the user set it (Preferences: tail size on connect). */
    send_to = strobe_control_format_send_to (address, g_settings_get_uint (settings, "tail-size"));
  }
  /* Before send-to, on the same queue: the trace's first bytes carry the offset. */
  strobe_control_client_sync_clock_async (self->client, 8, FALSE, clock_synced_cb, NULL);
  strobe_control_client_send_async (self->client, send_to, NULL, send_to_cb, g_object_ref (self));
  if (*self->channels != '\0')
    {
      g_autofree char *command = g_strdup_printf ("channels %s on", self->channels);

      strobe_control_client_send_async (self->client, command, NULL, channels_cb, g_object_ref (self));
    }
}

static void
strobe_late_connect_dispose (GObject *object)
{
  StrobeLateConnect *self = STROBE_LATE_CONNECT (object);

  if (self->services != NULL)
    stop (self);
  if (self->client != NULL)
    strobe_control_client_close (self->client);
  g_clear_object (&self->client);
  g_clear_object (&self->services);

  G_OBJECT_CLASS (strobe_late_connect_parent_class)->dispose (object);
}

static void
strobe_late_connect_finalize (GObject *object)
{
  StrobeLateConnect *self = STROBE_LATE_CONNECT (object);

  g_free (self->target);
  g_free (self->channels);

  G_OBJECT_CLASS (strobe_late_connect_parent_class)->finalize (object);
}

static void
strobe_late_connect_class_init (StrobeLateConnectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_late_connect_dispose;
  object_class->finalize = strobe_late_connect_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[WARNING] = g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[CONNECTED] = g_signal_new ("connected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
strobe_late_connect_init (StrobeLateConnect *self)
{
}

StrobeLateConnect *
strobe_late_connect_new (StrobeServices *services,
                         const char     *host,
                         guint16         port,
                         const char     *channels)
{
  StrobeLateConnect *self;

  g_return_val_if_fail (STROBE_IS_SERVICES (services), NULL);
  g_return_val_if_fail (host != NULL && port != 0, NULL);

  self = g_object_new (STROBE_TYPE_LATE_CONNECT, NULL);
  self->services = g_object_ref (services);
  self->channels = g_strdup (channels ? channels : "");
  self->target = strchr (host, ':') ? g_strdup_printf ("[%s]:%u", host, port) : g_strdup_printf ("%s:%u", host, port);
  self->client = strobe_control_client_new (host, port);
  strobe_control_client_set_timeout (self->client, 5);
  return self;
}

const char *
strobe_late_connect_get_target (StrobeLateConnect *self)
{
  g_return_val_if_fail (STROBE_IS_LATE_CONNECT (self), NULL);
  return self->target;
}

void
strobe_late_connect_start (StrobeLateConnect *self)
{
  StrobeRecorder *recorder;
  g_autofree char *text = NULL;

  g_return_if_fail (STROBE_IS_LATE_CONNECT (self));
  g_return_if_fail (!self->running);

  recorder = strobe_services_get_recorder (self->services);
  self->running = TRUE;
  if (recorder == NULL || !strobe_recorder_is_running (recorder))
    {
      fail (self, _("The recorder is not listening, so there is nowhere to send the trace. "
                    "Choose another recorder port in Preferences."));
      return;
    }
  /* Translators: %s is host:port */
  text = g_strdup_printf (_("Connecting to %s…"), self->target);
  g_signal_emit (self, signals[PROGRESS], 0, text);
  strobe_control_client_send_async (self->client, "status", NULL, status_cb, g_object_ref (self));
}

void
strobe_late_connect_cancel (StrobeLateConnect *self)
{
  g_return_if_fail (STROBE_IS_LATE_CONNECT (self));
  stop (self);
}
