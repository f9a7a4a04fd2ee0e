/* strobe-trace-stream.c — reads a trace's bytes, following it while it grows.
 *
 * Following is polling: at the end of the file the stream checks every
 * STROBE_TRACE_STREAM_POLL_MS whether the file grew or the recorder finished. That is
 * cheaper and simpler than inotify for a handful of readers, works for a recorder in
 * another process, and bounds the latency well under the 100 ms readers are promised.
 * (Unreal's store relay waits 200 ms at each EOF.)
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strobe-trace-file.h"
#include "strobe-trace-stream.h"

struct _StrobeTraceStream
{
  GInputStream  parent_instance;
  char         *path;
  int           fd;
  guint64       offset;
  gboolean      follow;
  gboolean      ended;    /* the writer finished: no need to wait at the end any more */
};

G_DEFINE_TYPE (StrobeTraceStream, strobe_trace_stream, G_TYPE_INPUT_STREAM)

enum {
  PROP_0,
  PROP_PATH,
  PROP_FOLLOW,
  PROP_OFFSET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define READ_WOULD_WAIT ((gssize) -2)

static gssize
pread_some (StrobeTraceStream  *self,
            void               *buffer,
            gsize               count,
            GError            **error)
{
  for (;;)
    {
      ssize_t n = pread (self->fd, buffer, count, (off_t) self->offset);
      if (n >= 0)
        {
          self->offset += (guint64) n;
          return n;
        }
      if (errno != EINTR)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Cannot read %s: %s"), self->path, g_strerror (saved));
          return -1;
        }
    }
}

/* One non-blocking attempt: bytes, 0 at the real end, READ_WOULD_WAIT at the end of a
 * trace that is still being written, -1 on error. */
static gssize
read_once (StrobeTraceStream  *self,
           void               *buffer,
           gsize               count,
           GError            **error)
{
  gssize n = pread_some (self, buffer, count, error);

  if (n != 0 || !self->follow || self->ended)
    return n;
  {
    struct stat st;

    /* The recorder only appends: a file now shorter than what we read was truncated or
     * replaced, and waiting for it to grow past our offset would wait for nothing. */
    if (fstat (self->fd, &st) == 0 && (guint64) st.st_size < self->offset)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     _("%s shrank to %" PRIu64 " bytes while it was being read "
                       "(%" PRIu64 " bytes were read): something other than the "
                       "recorder truncated or replaced it"),
                     self->path, (guint64) st.st_size, self->offset);
        return -1;
      }
  }
  if (strobe_trace_file_is_live (self->path))
    return READ_WOULD_WAIT;
  /* The writer appends before it removes its marker: having seen the marker gone, one
   * more read catches whatever it wrote since our first attempt. */
  self->ended = TRUE;
  return pread_some (self, buffer, count, error);
}

static gssize
strobe_trace_stream_read (GInputStream  *stream,
                          void          *buffer,
                          gsize          count,
                          GCancellable  *cancellable,
                          GError       **error)
{
  StrobeTraceStream *self = STROBE_TRACE_STREAM (stream);

  for (;;)
    {
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return -1;
      n = read_once (self, buffer, count, error);
      if (n != READ_WOULD_WAIT)
        return n;

      if (cancellable != NULL)
        {
          GPollFD pfd;

          if (g_cancellable_make_pollfd (cancellable, &pfd))
            {
              g_poll (&pfd, 1, STROBE_TRACE_STREAM_POLL_MS);
              g_cancellable_release_fd (cancellable);
              continue;
            }
        }
      g_usleep (STROBE_TRACE_STREAM_POLL_MS * 1000);
    }
}

typedef struct
{
  void  *buffer;
  gsize  count;
} ReadData;

static void attempt_read (GTask *task);

static void
attempt_thread (GTask        *inner,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ReadData *data = task_data;
  GError *error = NULL;
  gssize n = read_once (STROBE_TRACE_STREAM (source_object), data->buffer, data->count, &error);

  if (n == -1)
    g_task_return_error (inner, error);
  else
    g_task_return_int (inner, n);
}

static gboolean
retry_cb (gpointer user_data)
{
  attempt_read (G_TASK (user_data));
  return G_SOURCE_REMOVE;
}

static void
attempt_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gssize n = g_task_propagate_int (G_TASK (result), &error);

  if (error != NULL)
    g_task_return_error (task, error);
  else if (n == READ_WOULD_WAIT)
    {
      /* Wait on the caller's context, not in a pool thread: a live reader may wait for
       * hours and must not pin one of GLib's worker threads. */
      g_autoptr(GSource) timeout = g_timeout_source_new (STROBE_TRACE_STREAM_POLL_MS);
      GMainContext *context = g_task_get_context (task);

      g_source_set_priority (timeout, g_task_get_priority (task));
      g_source_set_callback (timeout, retry_cb, g_steal_pointer (&task), NULL);
      g_source_set_static_name (timeout, "[strobe] trace stream follow");
      g_source_attach (timeout, context);
    }
  else
    g_task_return_int (task, n);
}

static void
attempt_read (GTask *task)
{
  GTask *inner;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  inner = g_task_new (g_task_get_source_object (task), g_task_get_cancellable (task),
                      attempt_done, task);
  g_task_set_source_tag (inner, attempt_read);
  g_task_set_task_data (inner, g_task_get_task_data (task), NULL);
  g_task_run_in_thread (inner, attempt_thread);
  g_object_unref (inner);
}

static void
strobe_trace_stream_read_async (GInputStream        *stream,
                                void                *buffer,
                                gsize                count,
                                int                  io_priority,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (stream, cancellable, callback, user_data);
  ReadData *data = g_new0 (ReadData, 1);

  data->buffer = buffer;
  data->count = count;
  g_task_set_source_tag (task, strobe_trace_stream_read_async);
  g_task_set_priority (task, io_priority);
  g_task_set_task_data (task, data, g_free);
  attempt_read (task);   /* owns the reference */
}

static gssize
strobe_trace_stream_read_finish (GInputStream  *stream,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return g_task_propagate_int (G_TASK (result), error);
}

static gboolean
strobe_trace_stream_close (GInputStream  *stream,
                           GCancellable  *cancellable,
                           GError       **error)
{
  StrobeTraceStream *self = STROBE_TRACE_STREAM (stream);

  if (self->fd >= 0)
    {
      close (self->fd);
      self->fd = -1;
    }
  return TRUE;
}

static void
strobe_trace_stream_finalize (GObject *object)
{
  StrobeTraceStream *self = STROBE_TRACE_STREAM (object);

  if (self->fd >= 0)
    close (self->fd);
  g_free (self->path);

  G_OBJECT_CLASS (strobe_trace_stream_parent_class)->finalize (object);
}

static void
strobe_trace_stream_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StrobeTraceStream *self = STROBE_TRACE_STREAM (object);

  switch (prop_id)
    {
    case PROP_PATH:   g_value_set_string (value, self->path); break;
    case PROP_FOLLOW: g_value_set_boolean (value, self->follow); break;
    case PROP_OFFSET: g_value_set_uint64 (value, self->offset); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_trace_stream_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StrobeTraceStream *self = STROBE_TRACE_STREAM (object);

  switch (prop_id)
    {
    case PROP_PATH:   self->path = g_value_dup_string (value); break;
    case PROP_FOLLOW: self->follow = g_value_get_boolean (value); break;
    case PROP_OFFSET: self->offset = g_value_get_uint64 (value); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_trace_stream_class_init (StrobeTraceStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GInputStreamClass *stream_class = G_INPUT_STREAM_CLASS (klass);

  object_class->finalize = strobe_trace_stream_finalize;
  object_class->get_property = strobe_trace_stream_get_property;
  object_class->set_property = strobe_trace_stream_set_property;

  stream_class->read_fn = strobe_trace_stream_read;
  stream_class->read_async = strobe_trace_stream_read_async;
  stream_class->read_finish = strobe_trace_stream_read_finish;
  stream_class->close_fn = strobe_trace_stream_close;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Not notified on every read (that would cost more than the read); poll it. */
  properties[PROP_OFFSET] =
    g_param_spec_uint64 ("offset", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_trace_stream_init (StrobeTraceStream *self)
{
  self->fd = -1;
}

GInputStream *
strobe_trace_stream_new (const char  *path,
                         guint64      offset,
                         gboolean     follow,
                         GError     **error)
{
  g_autoptr(StrobeTraceStream) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (STROBE_TYPE_TRACE_STREAM,
                       "path", path,
                       "offset", offset,
                       "follow", follow,
                       NULL);
  self->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (self->fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot open %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  return G_INPUT_STREAM (g_steal_pointer (&self));
}

const char *
strobe_trace_stream_get_path (StrobeTraceStream *self)
{
  g_return_val_if_fail (STROBE_IS_TRACE_STREAM (self), NULL);
  return self->path;
}

gboolean
strobe_trace_stream_get_follow (StrobeTraceStream *self)
{
  g_return_val_if_fail (STROBE_IS_TRACE_STREAM (self), FALSE);
  return self->follow;
}

guint64
strobe_trace_stream_get_offset (StrobeTraceStream *self)
{
  g_return_val_if_fail (STROBE_IS_TRACE_STREAM (self), 0);
  return self->offset;
}
