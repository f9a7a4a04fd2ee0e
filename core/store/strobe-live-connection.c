/* strobe-live-connection.c — one live connection from a runtime to a recorder.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-live-connection.h"

struct _StrobeLiveConnection
{
  GObject  parent_instance;
  guint64  id;
  char    *trace_id;
  char    *trace_name;
  char    *program;
  char    *peer_address;
  guint64  start_time_ns;
  guint64  bytes_received;   /* atomic */
  gint     stop_requested;   /* atomic */
  guint32  pid;
  guint16  control_port;
};

G_DEFINE_TYPE (StrobeLiveConnection, strobe_live_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TRACE_ID,
  PROP_TRACE_NAME,
  PROP_PROGRAM,
  PROP_PID,
  PROP_PEER_ADDRESS,
  PROP_CONTROL_PORT,
  PROP_START_TIME_NS,
  PROP_BYTES_RECEIVED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
strobe_live_connection_finalize (GObject *object)
{
  StrobeLiveConnection *self = STROBE_LIVE_CONNECTION (object);

  g_free (self->trace_id);
  g_free (self->trace_name);
  g_free (self->program);
  g_free (self->peer_address);

  G_OBJECT_CLASS (strobe_live_connection_parent_class)->finalize (object);
}

static void
strobe_live_connection_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StrobeLiveConnection *self = STROBE_LIVE_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_ID:             g_value_set_uint64 (value, self->id); break;
    case PROP_TRACE_ID:       g_value_set_string (value, self->trace_id); break;
    case PROP_TRACE_NAME:     g_value_set_string (value, self->trace_name); break;
    case PROP_PROGRAM:        g_value_set_string (value, self->program); break;
    case PROP_PID:            g_value_set_uint (value, self->pid); break;
    case PROP_PEER_ADDRESS:   g_value_set_string (value, self->peer_address); break;
    case PROP_CONTROL_PORT:   g_value_set_uint (value, self->control_port); break;
    case PROP_START_TIME_NS:  g_value_set_uint64 (value, self->start_time_ns); break;
    case PROP_BYTES_RECEIVED: g_value_set_uint64 (value, strobe_live_connection_get_bytes_received (self)); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_live_connection_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StrobeLiveConnection *self = STROBE_LIVE_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_ID:            self->id = g_value_get_uint64 (value); break;
    case PROP_TRACE_ID:      self->trace_id = g_value_dup_string (value); break;
    case PROP_TRACE_NAME:    self->trace_name = g_value_dup_string (value); break;
    case PROP_PROGRAM:       self->program = g_value_dup_string (value); break;
    case PROP_PID:           self->pid = g_value_get_uint (value); break;
    case PROP_PEER_ADDRESS:  self->peer_address = g_value_dup_string (value); break;
    case PROP_CONTROL_PORT:  self->control_port = (guint16) g_value_get_uint (value); break;
    case PROP_START_TIME_NS: self->start_time_ns = g_value_get_uint64 (value); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_live_connection_class_init (StrobeLiveConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags cflags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = strobe_live_connection_finalize;
  object_class->get_property = strobe_live_connection_get_property;
  object_class->set_property = strobe_live_connection_set_property;

  properties[PROP_ID] = g_param_spec_uint64 ("id", NULL, NULL, 0, G_MAXUINT64, 0, cflags);
  properties[PROP_TRACE_ID] = g_param_spec_string ("trace-id", NULL, NULL, NULL, cflags);
  properties[PROP_TRACE_NAME] = g_param_spec_string ("trace-name", NULL, NULL, NULL, cflags);
  properties[PROP_PROGRAM] = g_param_spec_string ("program", NULL, NULL, NULL, cflags);
  properties[PROP_PID] = g_param_spec_uint ("pid", NULL, NULL, 0, G_MAXUINT32, 0, cflags);
  properties[PROP_PEER_ADDRESS] = g_param_spec_string ("peer-address", NULL, NULL, NULL, cflags);
  properties[PROP_CONTROL_PORT] =
    g_param_spec_uint ("control-port", NULL, NULL, 0, G_MAXUINT16, 0, cflags);
  properties[PROP_START_TIME_NS] =
    g_param_spec_uint64 ("start-time-ns", NULL, NULL, 0, G_MAXUINT64, 0, cflags);
  properties[PROP_BYTES_RECEIVED] =
    g_param_spec_uint64 ("bytes-received", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_live_connection_init (StrobeLiveConnection *self)
{
}

StrobeLiveConnection *
strobe_live_connection_new (guint64     id,
                    const char *trace_id,
                    const char *trace_name,
                    const char *program,
                    guint32     pid,
                    const char *peer_address,
                    guint16     control_port,
                    guint64     start_time_ns)
{
  return g_object_new (STROBE_TYPE_LIVE_CONNECTION,
                       "id", id,
                       "trace-id", trace_id,
                       "trace-name", trace_name,
                       "program", program,
                       "pid", (guint) pid,
                       "peer-address", peer_address,
                       "control-port", (guint) control_port,
                       "start-time-ns", start_time_ns,
                       NULL);
}

guint64
strobe_live_connection_get_bytes_received (StrobeLiveConnection *self)
{
  g_return_val_if_fail (STROBE_IS_LIVE_CONNECTION (self), 0);
  return __atomic_load_n (&self->bytes_received, __ATOMIC_RELAXED);
}

void
strobe_live_connection_add_bytes_received (StrobeLiveConnection *self,
                                   guint64        n)
{
  g_return_if_fail (STROBE_IS_LIVE_CONNECTION (self));
  __atomic_fetch_add (&self->bytes_received, n, __ATOMIC_RELAXED);
}

#define GETTER(type, field)                                      \
  type strobe_live_connection_get_##field (StrobeLiveConnection *self)          \
  {                                                              \
    g_return_val_if_fail (STROBE_IS_LIVE_CONNECTION (self), (type) 0);   \
    return self->field;                                          \
  }

GETTER (guint64, id)
GETTER (const char *, trace_id)
GETTER (const char *, trace_name)
GETTER (const char *, program)
GETTER (guint32, pid)
GETTER (const char *, peer_address)
GETTER (guint16, control_port)
GETTER (guint64, start_time_ns)

void
strobe_live_connection_request_stop (StrobeLiveConnection *self)
{
  g_return_if_fail (STROBE_IS_LIVE_CONNECTION (self));
  g_atomic_int_set (&self->stop_requested, TRUE);
}

gboolean
strobe_live_connection_get_stop_requested (StrobeLiveConnection *self)
{
  g_return_val_if_fail (STROBE_IS_LIVE_CONNECTION (self), FALSE);
  return g_atomic_int_get (&self->stop_requested);
}
