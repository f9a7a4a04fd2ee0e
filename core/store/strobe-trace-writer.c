/* strobe-trace-writer.c — writes one recording into a store, durably.
 *
 * Order of creation matters for readers that look at the directory at any moment: the
 * .live marker is claimed first (O_EXCL: this is what reserves the name), then the .info
 * sidecar with the trace's id, and only then the trace file itself, so whoever sees the
 * file also sees that it is live and what its id is. Finishing goes the other way round:
 * data synced, .info updated with the final status, then the marker removed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strobe-store-error.h"
#include "strobe-trace-file.h"
#include "strobe-trace-writer-private.h"

struct _StrobeTraceWriter
{
  char                    *id;
  char                    *name;      /* file name, "program_20240101_120000.strobe" */
  char                    *path;
  char                    *peer_address;
  int                      fd;
  guint64                  size;
  gint64                   dirty_since;   /* monotonic µs of the first unsynced write, 0 = clean */
  gboolean                 finished;
  gint                     stopped;       /* set_stopped(): a user ended it */
  StrobeTraceWriterNotify  notify;
  gpointer                 notify_data;
  GDestroyNotify           notify_destroy;
};

/* A file-name-safe, bounded version of the program's name. */
static char *
sanitize_program (const char *program)
{
  GString *s = g_string_new (NULL);

  for (const char *p = program ? program : ""; *p && s->len < 64; p++)
    {
      char c = *p;
      if (g_ascii_isalnum (c) || c == '-' || c == '_' || (c == '.' && s->len > 0))
        g_string_append_c (s, c);
      else
        g_string_append_c (s, '_');
    }
  if (s->len == 0)
    g_string_append (s, "trace");
  return g_string_free (s, FALSE);
}

static void
sync_directory (const char *directory)
{
  /* A new file's name is only durable once the directory is synced too. */
  int dfd = g_open (directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  if (dfd >= 0)
    {
      fsync (dfd);
      close (dfd);
    }
}

StrobeTraceWriter *
_strobe_trace_writer_new (const char               *directory,
                          const char               *program,
                          const char               *peer_address,
                          StrobeTraceWriterNotify   notify,
                          gpointer                  notify_data,
                          GDestroyNotify            notify_destroy,
                          GError                  **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *safe = sanitize_program (program);
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d_%H%M%S");
  StrobeTraceWriter *self;

  for (guint n = 1; n < 10000; n++)
    {
      g_autofree char *name = n == 1 ? g_strdup_printf ("%s_%s" STROBE_TRACE_SUFFIX, safe, stamp)
                                     : g_strdup_printf ("%s_%s_%u" STROBE_TRACE_SUFFIX, safe, stamp, n);
      g_autofree char *path = g_build_filename (directory, name, NULL);
      g_autofree char *id = NULL;
      g_autoptr(GError) local_error = NULL;
      int fd;

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      if (!strobe_trace_file_claim_live (path, &local_error))
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
            continue;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }

      id = strobe_trace_file_new_id ();
      if (!strobe_trace_file_write_info (path, &(StrobeTraceProbe) { .id = id, .peer_address = (char *) peer_address },
                                         FALSE, error))
        {
          g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);
          g_unlink (live);
          return NULL;
        }

      fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0)
        {
          int saved = errno;
          g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);
          g_autofree char *info = strobe_trace_file_sidecar_path (path, STROBE_TRACE_INFO_SUFFIX);

          g_unlink (live);
          if (saved == EEXIST)
            continue;   /* lost a race with a file copied in: its .info is lost, rebuilt on probe */
          g_unlink (info);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Cannot create %s: %s"), path, g_strerror (saved));
          return NULL;
        }
      sync_directory (directory);

      self = g_new0 (StrobeTraceWriter, 1);
      self->id = g_steal_pointer (&id);
      self->name = g_steal_pointer (&name);
      self->path = g_steal_pointer (&path);
      self->peer_address = g_strdup (peer_address);
      self->fd = fd;
      self->notify = notify;
      self->notify_data = notify_data;
      self->notify_destroy = notify_destroy;
      if (self->notify)
        self->notify (self->name, self->notify_data);
      return self;
    }

  g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_EXISTS,
               _("No free trace name for %s"), safe);
  return NULL;
}

const char *
strobe_trace_writer_get_id (StrobeTraceWriter *self)
{
  return self->id;
}

const char *
strobe_trace_writer_get_name (StrobeTraceWriter *self)
{
  return self->name;
}

const char *
strobe_trace_writer_get_path (StrobeTraceWriter *self)
{
  return self->path;
}

guint64
strobe_trace_writer_get_size (StrobeTraceWriter *self)
{
  return self->size;
}

static gboolean
io_error (StrobeTraceWriter *self, const char *what, GError **error)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("Cannot %s %s: %s"), what, self->path, g_strerror (saved));
  return FALSE;
}

gboolean
strobe_trace_writer_write (StrobeTraceWriter  *self,
                           const void         *data,
                           gsize               len,
                           GError            **error)
{
  const guint8 *p = data;

  g_return_val_if_fail (!self->finished, FALSE);

  while (len > 0)
    {
      ssize_t n = write (self->fd, p, len);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return io_error (self, "write", error);
        }
      p += n;
      len -= (gsize) n;
      self->size += (guint64) n;
      if (self->dirty_since == 0)
        self->dirty_since = g_get_monotonic_time ();
    }
  return TRUE;
}

gboolean
strobe_trace_writer_truncate (StrobeTraceWriter  *self,
                              guint64             size,
                              GError            **error)
{
  if (size >= self->size)
    return TRUE;
  if (ftruncate (self->fd, (off_t) size) != 0 || lseek (self->fd, (off_t) size, SEEK_SET) < 0)
    return io_error (self, "truncate", error);
  self->size = size;
  if (self->dirty_since == 0)
    self->dirty_since = g_get_monotonic_time ();
  return TRUE;
}

gint64
strobe_trace_writer_get_sync_deadline (StrobeTraceWriter *self)
{
  return self->dirty_since ? self->dirty_since + STROBE_TRACE_WRITER_SYNC_INTERVAL_US : G_MAXINT64;
}

gboolean
strobe_trace_writer_sync (StrobeTraceWriter  *self,
                          GError            **error)
{
  if (self->dirty_since == 0)
    return TRUE;
  self->dirty_since = 0;
  /* fdatasync, not fsync: the size change is included, the mtime is not worth a seek. */
  if (fdatasync (self->fd) != 0 && errno != EINVAL)
    return io_error (self, "sync", error);
  return TRUE;
}

void
strobe_trace_writer_set_stopped (StrobeTraceWriter *self)
{
  g_atomic_int_set (&self->stopped, TRUE);
}

gboolean
strobe_trace_writer_finish (StrobeTraceWriter  *self,
                            StrobeTraceStatus   status,
                            const char         *reason,
                            GError            **error)
{
  g_autofree char *live = NULL;
  gboolean ok;

  g_return_val_if_fail (!self->finished, FALSE);
  self->finished = TRUE;

  ok = strobe_trace_writer_sync (self, error);
  close (self->fd);
  self->fd = -1;
  if (ok)
    ok = strobe_trace_file_write_info (self->path,
                                       &(StrobeTraceProbe) {
                                         .id = self->id, .status = status, .size = self->size,
                                         .reason = (char *) reason, .peer_address = self->peer_address,
                                         .end_time_ns = (guint64) g_get_real_time () * 1000,
                                         .stopped = g_atomic_int_get (&self->stopped),
                                       }, TRUE, error);
  /* The marker goes last, and even after an error: a marker without a recorder would only
   * make readers wait until the next probe notices our pid. */
  live = strobe_trace_file_sidecar_path (self->path, STROBE_TRACE_LIVE_SUFFIX);
  g_unlink (live);
  if (self->notify)
    self->notify (self->name, self->notify_data);
  return ok;
}

void
strobe_trace_writer_free (StrobeTraceWriter *self)
{
  if (self == NULL)
    return;
  if (!self->finished)
    strobe_trace_writer_finish (self, STROBE_TRACE_STATUS_CUT_OFF,
                                _("The recording stopped without an End packet"), NULL);
  if (self->notify_destroy)
    self->notify_destroy (self->notify_data);
  g_free (self->id);
  g_free (self->name);
  g_free (self->path);
  g_free (self->peer_address);
  g_free (self);
}
