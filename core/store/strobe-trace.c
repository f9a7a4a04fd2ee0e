/* strobe-trace.c — one trace file in a store, as the store last saw it.
 *
 * Immutable from the outside: only the store updates it (from its main context), and each
 * change is a property notification, so list views can bind to it directly.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-trace-private.h"

struct _StrobeTrace
{
  GObject            parent_instance;
  char              *id;
  char              *name;
  char              *path;
  char              *program;
  char              *reason;
  char              *peer_address;
  char              *session;
  guint64            start_time_ns;
  guint64            end_time_ns;
  guint64            size;
  guint32            pid;
  guint32            parent_pid;
  StrobeTraceStatus  status;
  gboolean           stopped;
  gboolean           external;
};

G_DEFINE_TYPE (StrobeTrace, strobe_trace, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StrobeTraceStatus, strobe_trace_status,
                    G_DEFINE_ENUM_VALUE (STROBE_TRACE_STATUS_LIVE, "live"),
                    G_DEFINE_ENUM_VALUE (STROBE_TRACE_STATUS_FINISHED, "finished"),
                    G_DEFINE_ENUM_VALUE (STROBE_TRACE_STATUS_CUT_OFF, "cut-off"),
                    G_DEFINE_ENUM_VALUE (STROBE_TRACE_STATUS_INVALID, "invalid"))

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_PATH,
  PROP_PROGRAM,
  PROP_PID,
  PROP_START_TIME_NS,
  PROP_END_TIME_NS,
  PROP_SIZE,
  PROP_STATUS,
  PROP_REASON,
  PROP_PEER_ADDRESS,
  PROP_SESSION,
  PROP_PARENT_PID,
  PROP_STOPPED,
  PROP_EXTERNAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
strobe_trace_status_to_string (StrobeTraceStatus status)
{
  switch (status)
    {
    case STROBE_TRACE_STATUS_LIVE:     return "live";
    case STROBE_TRACE_STATUS_FINISHED: return "finished";
    case STROBE_TRACE_STATUS_CUT_OFF:  return "cut-off";
    case STROBE_TRACE_STATUS_INVALID:  return "invalid";
    default:                           return "invalid";
    }
}

static void
strobe_trace_finalize (GObject *object)
{
  StrobeTrace *self = STROBE_TRACE (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->path);
  g_free (self->program);
  g_free (self->reason);
  g_free (self->peer_address);
  g_free (self->session);

  G_OBJECT_CLASS (strobe_trace_parent_class)->finalize (object);
}

static void
strobe_trace_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  StrobeTrace *self = STROBE_TRACE (object);

  switch (prop_id)
    {
    case PROP_ID:            g_value_set_string (value, self->id); break;
    case PROP_NAME:          g_value_set_string (value, self->name); break;
    case PROP_PATH:          g_value_set_string (value, self->path); break;
    case PROP_PROGRAM:       g_value_set_string (value, self->program); break;
    case PROP_PID:           g_value_set_uint (value, self->pid); break;
    case PROP_START_TIME_NS: g_value_set_uint64 (value, self->start_time_ns); break;
    case PROP_END_TIME_NS:   g_value_set_uint64 (value, self->end_time_ns); break;
    case PROP_SIZE:          g_value_set_uint64 (value, self->size); break;
    case PROP_STATUS:        g_value_set_enum (value, self->status); break;
    case PROP_REASON:        g_value_set_string (value, self->reason); break;
    case PROP_PEER_ADDRESS:  g_value_set_string (value, self->peer_address); break;
    case PROP_SESSION:       g_value_set_string (value, self->session); break;
    case PROP_PARENT_PID:    g_value_set_uint (value, self->parent_pid); break;
    case PROP_STOPPED:       g_value_set_boolean (value, self->stopped); break;
    case PROP_EXTERNAL:      g_value_set_boolean (value, self->external); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_trace_class_init (StrobeTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = strobe_trace_finalize;
  object_class->get_property = strobe_trace_get_property;

  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_PROGRAM] = g_param_spec_string ("program", NULL, NULL, NULL, flags);
  properties[PROP_PID] = g_param_spec_uint ("pid", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  properties[PROP_START_TIME_NS] =
    g_param_spec_uint64 ("start-time-ns", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_END_TIME_NS] =
    g_param_spec_uint64 ("end-time-ns", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, STROBE_TYPE_TRACE_STATUS,
                       STROBE_TRACE_STATUS_INVALID, flags);
  properties[PROP_REASON] = g_param_spec_string ("reason", NULL, NULL, NULL, flags);
  properties[PROP_PEER_ADDRESS] = g_param_spec_string ("peer-address", NULL, NULL, NULL, flags);
  properties[PROP_SESSION] = g_param_spec_string ("session", NULL, NULL, NULL, flags);
  properties[PROP_PARENT_PID] = g_param_spec_uint ("parent-pid", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  properties[PROP_STOPPED] = g_param_spec_boolean ("stopped", NULL, NULL, FALSE, flags);
  properties[PROP_EXTERNAL] = g_param_spec_boolean ("external", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_trace_init (StrobeTrace *self)
{
  self->status = STROBE_TRACE_STATUS_INVALID;
}

static gboolean
set_string (StrobeTrace *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

#define SET_SCALAR(field, value, prop)                                   \
  G_STMT_START {                                                         \
    if (self->field != (value))                                          \
      {                                                                  \
        self->field = (value);                                           \
        g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);    \
        changed = TRUE;                                                  \
      }                                                                  \
  } G_STMT_END

gboolean
_strobe_trace_update (StrobeTrace            *self,
                      const char             *name,
                      const char             *path,
                      const StrobeTraceProbe *probe)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (STROBE_IS_TRACE (self), FALSE);

  g_object_freeze_notify (G_OBJECT (self));
  changed |= set_string (self, &self->id, probe->id, PROP_ID);
  changed |= set_string (self, &self->name, name, PROP_NAME);
  changed |= set_string (self, &self->path, path, PROP_PATH);
  changed |= set_string (self, &self->program, probe->program, PROP_PROGRAM);
  changed |= set_string (self, &self->reason, probe->reason, PROP_REASON);
  changed |= set_string (self, &self->peer_address, probe->peer_address, PROP_PEER_ADDRESS);
  changed |= set_string (self, &self->session, probe->session, PROP_SESSION);
  SET_SCALAR (pid, probe->pid, PROP_PID);
  SET_SCALAR (parent_pid, probe->parent_pid, PROP_PARENT_PID);
  SET_SCALAR (start_time_ns, probe->start_time_ns, PROP_START_TIME_NS);
  SET_SCALAR (end_time_ns, probe->end_time_ns, PROP_END_TIME_NS);
  SET_SCALAR (size, probe->size, PROP_SIZE);
  SET_SCALAR (status, probe->status, PROP_STATUS);
  SET_SCALAR (stopped, probe->stopped, PROP_STOPPED);
  SET_SCALAR (external, probe->external, PROP_EXTERNAL);
  g_object_thaw_notify (G_OBJECT (self));

  return changed;
}

gboolean
_strobe_trace_set_end_time_ns (StrobeTrace *self,
                               guint64      end_time_ns)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (STROBE_IS_TRACE (self), FALSE);

  SET_SCALAR (end_time_ns, end_time_ns, PROP_END_TIME_NS);
  return changed;
}

StrobeTrace *
_strobe_trace_new (const char             *name,
                   const char             *path,
                   const StrobeTraceProbe *probe)
{
  StrobeTrace *self = g_object_new (STROBE_TYPE_TRACE, NULL);

  _strobe_trace_update (self, name, path, probe);
  return self;
}

#define GETTER(type, field)                                    \
  type strobe_trace_get_##field (StrobeTrace *self)            \
  {                                                            \
    g_return_val_if_fail (STROBE_IS_TRACE (self), (type) 0);   \
    return self->field;                                        \
  }

GETTER (const char *, id)
GETTER (const char *, name)
GETTER (const char *, path)
GETTER (const char *, program)
GETTER (guint32, pid)
GETTER (guint64, start_time_ns)
GETTER (guint64, end_time_ns)
GETTER (guint64, size)
GETTER (StrobeTraceStatus, status)
GETTER (const char *, reason)
GETTER (const char *, peer_address)
GETTER (const char *, session)
GETTER (guint32, parent_pid)
GETTER (gboolean, stopped)
GETTER (gboolean, external)
