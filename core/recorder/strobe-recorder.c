/* strobe-recorder.c — accepts runtime connections and records each into a new trace.
 *
 * Listens on loopback unless told otherwise: a trace reveals a lot about a program, and
 * a recorder should not be an open door on the network by default.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-listen.h"
#include "strobe-recorder-private.h"

struct _StrobeRecorder
{
  GObject           parent_instance;
  StrobeStore      *store;
  char             *listen_address;
  GPtrArray        *services;      /* GSocketService, one per listening address */
  GPtrArray        *connections;   /* StrobeRecorderConnection, running or awaiting join */
  GListStore       *sessions;
  guint64           next_id;
  gint64            rate_window_us;
  guint             n_rejected;
  guint16           port;
  guint16           bound_port;
  StrobeRecorderClockMode clock_mode;
};

G_DEFINE_FINAL_TYPE (StrobeRecorder, strobe_recorder, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STORE,
  PROP_PORT,
  PROP_LISTEN_ADDRESS,
  PROP_N_REJECTED,
  PROP_RUNNING,
  N_PROPS
};

enum {
  SESSION_STARTED,
  SESSION_ENDED,
  CONNECTION_REJECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Joins the connection's thread and retires its session. Main context only. */
static void
retire_connection (StrobeRecorder           *self,
                   StrobeRecorderConnection *connection)
{
  StrobeLiveConnection *session;
  guint position;

  _strobe_recorder_connection_join (connection);
  session = _strobe_recorder_connection_get_session (connection);
  if (session != NULL && g_list_store_find (self->sessions, session, &position))
    {
      g_object_ref (session);
      g_list_store_remove (self->sessions, position);
      strobe_store_remove_session (self->store, session);
      g_signal_emit (self, signals[SESSION_ENDED], 0, session);
      g_object_unref (session);
    }
  g_ptr_array_remove (self->connections, connection);
}

static void
connection_event (GObject                  *owner,
                  StrobeRecorderConnection *connection,
                  StrobeRecorderEvent       event,
                  const char               *reason)
{
  StrobeRecorder *self = STROBE_RECORDER (owner);
  StrobeLiveConnection *session;

  /* After stop() a connection has been retired already; late posts are stale. */
  if (!g_ptr_array_find (self->connections, connection, NULL))
    return;

  switch (event)
    {
    case STROBE_RECORDER_EVENT_STARTED:
      session = _strobe_recorder_connection_get_session (connection);
      g_list_store_append (self->sessions, session);
      strobe_store_add_session (self->store, session);
      g_signal_emit (self, signals[SESSION_STARTED], 0, session);
      break;

    case STROBE_RECORDER_EVENT_REJECTED:
      self->n_rejected++;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_REJECTED]);
      g_signal_emit (self, signals[CONNECTION_REJECTED], 0,
                     _strobe_recorder_connection_get_peer_address (connection), reason);
      break;

    case STROBE_RECORDER_EVENT_DONE:
      retire_connection (self, connection);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
count_rejected (StrobeRecorder *self)
{
  self->n_rejected++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_REJECTED]);
}

/* Room for @connection: the connections not told to go yet, from all peers and from its
 * address, are under their limits once the oldest handshake (or the slowest recording)
 * is evicted. A peer is judged by the bytes it sent over the last few seconds, not by
 * whether it sent any: one byte every 0.4 s keeps a connection "sending" but is no
 * program. FALSE only when its address is over the per-peer limit. */
static gboolean
make_room (StrobeRecorder           *self,
           StrobeRecorderConnection *connection)
{
  StrobeRecorderConnection *handshake = NULL, *slowest = NULL;
  double slowest_rate = 0;
  const char *host = _strobe_recorder_connection_get_peer_host (connection);
  gboolean per_peer = !_strobe_recorder_connection_is_loopback (connection);
  gint64 now = g_get_monotonic_time ();
  guint active = 0, from_peer = 0;

  for (guint i = 0; i < self->connections->len; i++)
    {
      StrobeRecorderConnection *c = g_ptr_array_index (self->connections, i);

      if (_strobe_recorder_connection_is_evicted (c))
        continue;
      if (per_peer && g_str_equal (_strobe_recorder_connection_get_peer_host (c), host))
        from_peer++;
      active++;
    }
  if (per_peer && from_peer >= STROBE_RECORDER_MAX_PER_PEER)
    {
      g_message ("Recorder: refused a connection from %s: already %u connections from it",
                 _strobe_recorder_connection_get_peer_address (connection), from_peer);
      return FALSE;
    }
  if (active < STROBE_RECORDER_MAX_CONNECTIONS)
    return TRUE;
  for (guint i = 0; i < self->connections->len; i++)
    {
      StrobeRecorderConnection *c = g_ptr_array_index (self->connections, i);

      if (_strobe_recorder_connection_is_evicted (c))
        continue;
      if (_strobe_recorder_connection_in_handshake (c))
        {
          if (handshake == NULL
              || _strobe_recorder_connection_get_accepted (c) < _strobe_recorder_connection_get_accepted (handshake))
            handshake = c;
        }
      else
        {
          double rate = _strobe_recorder_connection_get_rate (c, now);

          if (slowest == NULL || rate < slowest_rate
              || (rate == slowest_rate
                  && _strobe_recorder_connection_get_last_data (c) < _strobe_recorder_connection_get_last_data (slowest)))
            {
              slowest = c;
              slowest_rate = rate;
            }
        }
    }
  if (handshake != NULL)
    g_message ("Recorder: full; ending the connection from %s (still in its handshake) to make room",
               _strobe_recorder_connection_get_peer_address (handshake));
  else
    g_message ("Recorder: full; ending the connection from %s (the slowest: %.0f bytes/s) to make room",
               _strobe_recorder_connection_get_peer_address (slowest), slowest_rate);
  _strobe_recorder_connection_evict (handshake ? handshake : slowest);
  return TRUE;
}

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *socket_connection,
             GObject           *source_object,
             StrobeRecorder    *self)
{
  g_autoptr(StrobeRecorderConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  g_debug ("Recorder: incoming connection %" G_GUINT64_FORMAT, self->next_id + 1);
  connection = _strobe_recorder_connection_new (self->store, socket_connection, ++self->next_id,
                                                self->rate_window_us, connection_event, self);
  if (!make_room (self, connection))
    {
      count_rejected (self);
      return TRUE;   /* dropping our reference closes it */
    }
  g_ptr_array_add (self->connections, _strobe_recorder_connection_ref (connection));
  _strobe_recorder_connection_set_clock_mode (connection, self->clock_mode);
  if (!_strobe_recorder_connection_start (connection, &error))
    {
      g_warning ("Recorder: cannot start a thread for a connection: %s", error->message);
      g_ptr_array_remove (self->connections, connection);
    }
  return TRUE;
}

gboolean
strobe_recorder_start (StrobeRecorder  *self,
                       GError         **error)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (self->services->len == 0, FALSE);

  if (!strobe_listen_tcp (self->listen_address, self->port, G_CALLBACK (incoming_cb), self,
                          self->services, &self->bound_port, error))
    return FALSE;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PORT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  return TRUE;
}

void
strobe_recorder_stop (StrobeRecorder *self)
{
  g_autoptr(GPtrArray) connections = NULL;

  g_return_if_fail (STROBE_IS_RECORDER (self));

  if (self->services->len > 0)
    {
      for (guint i = 0; i < self->services->len; i++)
        {
          GSocketService *service = g_ptr_array_index (self->services, i);
          g_socket_service_stop (service);
          g_socket_listener_close (G_SOCKET_LISTENER (service));
        }
      g_ptr_array_set_size (self->services, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }

  connections = g_ptr_array_copy (self->connections,
                                  (GCopyFunc) (void (*) (void)) _strobe_recorder_connection_ref, NULL);
  g_ptr_array_set_free_func (connections, (GDestroyNotify) _strobe_recorder_connection_unref);
  for (guint i = 0; i < connections->len; i++)
    _strobe_recorder_connection_cancel (g_ptr_array_index (connections, i));
  for (guint i = 0; i < connections->len; i++)
    retire_connection (self, g_ptr_array_index (connections, i));
}

gboolean
strobe_recorder_is_running (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), FALSE);
  return self->services->len > 0;
}

static void
strobe_recorder_dispose (GObject *object)
{
  StrobeRecorder *self = STROBE_RECORDER (object);

  if (self->services != NULL)
    strobe_recorder_stop (self);

  G_OBJECT_CLASS (strobe_recorder_parent_class)->dispose (object);
}

static void
strobe_recorder_finalize (GObject *object)
{
  StrobeRecorder *self = STROBE_RECORDER (object);

  g_clear_pointer (&self->connections, g_ptr_array_unref);
  g_clear_pointer (&self->services, g_ptr_array_unref);
  g_clear_object (&self->sessions);
  g_clear_object (&self->store);
  g_free (self->listen_address);

  G_OBJECT_CLASS (strobe_recorder_parent_class)->finalize (object);
}

static void
strobe_recorder_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrobeRecorder *self = STROBE_RECORDER (object);

  switch (prop_id)
    {
    case PROP_STORE:          g_value_set_object (value, self->store); break;
    case PROP_PORT:           g_value_set_uint (value, strobe_recorder_get_port (self)); break;
    case PROP_LISTEN_ADDRESS: g_value_set_string (value, self->listen_address); break;
    case PROP_N_REJECTED:     g_value_set_uint (value, self->n_rejected); break;
    case PROP_RUNNING:        g_value_set_boolean (value, self->services->len > 0); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_recorder_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  StrobeRecorder *self = STROBE_RECORDER (object);

  switch (prop_id)
    {
    case PROP_STORE:          self->store = g_value_dup_object (value); break;
    case PROP_PORT:           strobe_recorder_set_port (self, (guint16) g_value_get_uint (value)); break;
    case PROP_LISTEN_ADDRESS: strobe_recorder_set_listen_address (self, g_value_get_string (value)); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_recorder_class_init (StrobeRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_recorder_dispose;
  object_class->finalize = strobe_recorder_finalize;
  object_class->get_property = strobe_recorder_get_property;
  object_class->set_property = strobe_recorder_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, STROBE_TYPE_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Before start: the port to bind (0 = any free one). Once running: the bound port. */
  properties[PROP_PORT] =
    g_param_spec_uint ("port", NULL, NULL, 0, G_MAXUINT16, STROBE_RECORDER_DEFAULT_PORT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* NULL: loopback only. "0.0.0.0" / "::": every interface. */
  properties[PROP_LISTEN_ADDRESS] =
    g_param_spec_string ("listen-address", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_REJECTED] =
    g_param_spec_uint ("n-rejected", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SESSION_STARTED] =
    g_signal_new ("session-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, STROBE_TYPE_LIVE_CONNECTION);
  /* Emitted once the trace is finished or cut off and its file closed. */
  signals[SESSION_ENDED] =
    g_signal_new ("session-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, STROBE_TYPE_LIVE_CONNECTION);
  /* (peer address, reason): a peer that did not speak the Strobe wire protocol. */
  signals[CONNECTION_REJECTED] =
    g_signal_new ("connection-rejected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
strobe_recorder_init (StrobeRecorder *self)
{
  self->port = STROBE_RECORDER_DEFAULT_PORT;
  self->rate_window_us = STROBE_RECORDER_RATE_WINDOW_S * G_TIME_SPAN_SECOND;
  self->connections = g_ptr_array_new_with_free_func ((GDestroyNotify) _strobe_recorder_connection_unref);
  self->sessions = g_list_store_new (STROBE_TYPE_LIVE_CONNECTION);
  self->services = g_ptr_array_new_with_free_func (g_object_unref);
}

StrobeRecorder *
strobe_recorder_new (StrobeStore *store)
{
  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  return g_object_new (STROBE_TYPE_RECORDER, "store", store, NULL);
}

StrobeStore *
strobe_recorder_get_store (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), NULL);
  return self->store;
}

void
strobe_recorder_set_port (StrobeRecorder *self,
                          guint16         port)
{
  g_return_if_fail (STROBE_IS_RECORDER (self));
  g_return_if_fail (self->services->len == 0);

  if (self->port != port)
    {
      self->port = port;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PORT]);
    }
}

void
strobe_recorder_set_rate_window (StrobeRecorder *self,
                                 guint           window_ms)
{
  g_return_if_fail (STROBE_IS_RECORDER (self));
  g_return_if_fail (self->services->len == 0);
  g_return_if_fail (window_ms > 0);

  self->rate_window_us = (gint64) window_ms * 1000;
}

guint16
strobe_recorder_get_port (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), 0);
  return self->services->len > 0 ? self->bound_port : self->port;
}

void
strobe_recorder_set_listen_address (StrobeRecorder *self,
                                    const char     *address)
{
  g_return_if_fail (STROBE_IS_RECORDER (self));
  g_return_if_fail (self->services->len == 0);

  if (address != NULL && *address == '\0')
    address = NULL;
  if (g_strcmp0 (self->listen_address, address) != 0)
    {
      g_free (self->listen_address);
      self->listen_address = g_strdup (address);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LISTEN_ADDRESS]);
    }
}

const char *
strobe_recorder_get_listen_address (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), NULL);
  return self->listen_address;
}

GListModel *
strobe_recorder_get_sessions (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), NULL);
  return G_LIST_MODEL (self->sessions);
}

void
strobe_recorder_set_clock_mode (StrobeRecorder          *self,
                                StrobeRecorderClockMode  mode)
{
  g_return_if_fail (STROBE_IS_RECORDER (self));
  self->clock_mode = mode;
}

guint
strobe_recorder_get_n_rejected (StrobeRecorder *self)
{
  g_return_val_if_fail (STROBE_IS_RECORDER (self), 0);
  return self->n_rejected;
}
