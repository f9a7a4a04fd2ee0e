/* strobe-trace-file.c — reading a trace file's head, walking its packets, and the .info
 * and .live sidecars that tell live, finished and cut-off recordings apart.
 *
 * Why sidecars rather than a database: a trace stays a plain file the user may copy,
 * mail or open directly, and a crash of any process leaves at worst a stale sidecar that
 * the next probe recognises and repairs. See README.md for the layout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strobe-store-error.h"
#include "strobe-trace-file.h"
#include "strobe-wire-framing.h"

#define INFO_GROUP "Trace"
#define LIVE_GROUP "Recorder"

void
strobe_trace_probe_clear (StrobeTraceProbe *probe)
{
  g_clear_pointer (&probe->id, g_free);
  g_clear_pointer (&probe->program, g_free);
  g_clear_pointer (&probe->session, g_free);
  g_clear_pointer (&probe->reason, g_free);
  g_clear_pointer (&probe->peer_address, g_free);
}

char *
strobe_trace_file_sidecar_path (const char *path,
                                const char *suffix)
{
  /* path ends in ".strobe"; the sidecar suffixes start with ".strobe". */
  gsize len = strlen (path);

  if (g_str_has_suffix (path, STROBE_TRACE_SUFFIX))
    len -= strlen (STROBE_TRACE_SUFFIX);
  return g_strdup_printf ("%.*s%s", (int) len, path, suffix);
}

char *
strobe_trace_file_new_id (void)
{
  return g_strdup_printf ("%08x%08x", g_random_int (), g_random_int ());
}

static gboolean
pread_all (int fd, void *buf, gsize len, guint64 offset)
{
  guint8 *p = buf;

  while (len > 0)
    {
      ssize_t n = pread (fd, p, len, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
      offset += (guint64) n;
    }
  return TRUE;
}

/* The kernel's start time of @pid (field 22 of /proc/PID/stat), 0 when unknown. Stored in
 * the .live marker so a recycled pid does not keep a dead recorder's trace "live". */
static guint64
process_start_time (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  const char *p;
  int field;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return 0;
  /* The command name (field 2) may contain spaces and parentheses: skip to the last ')'. */
  p = strrchr (contents, ')');
  if (p == NULL)
    return 0;
  p++;
  for (field = 3; field < 22 && *p; field++)
    {
      while (*p == ' ')
        p++;
      while (*p && *p != ' ')
        p++;
    }
  return g_ascii_strtoull (p, NULL, 10);
}

gboolean
strobe_trace_file_claim_live (const char  *path,
                              GError     **error)
{
  g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *data = NULL;
  gsize len;
  int fd;

  g_key_file_set_int64 (kf, LIVE_GROUP, "Pid", getpid ());
  g_key_file_set_uint64 (kf, LIVE_GROUP, "PidStart", process_start_time (getpid ()));
  g_key_file_set_string (kf, LIVE_GROUP, "Host", g_get_host_name ());
  g_key_file_set_int64 (kf, LIVE_GROUP, "Started", g_get_real_time ());
  data = g_key_file_to_data (kf, &len, NULL);

  fd = g_open (live, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create %s: %s"), live, g_strerror (saved));
      return FALSE;
    }
  if (write (fd, data, len) != (ssize_t) len)
    {
      int saved = errno;
      close (fd);
      g_unlink (live);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot write %s: %s"), live, g_strerror (saved));
      return FALSE;
    }
  close (fd);
  return TRUE;
}

/* TRUE when the marker's recorder is alive. @exists tells whether there was a marker. */
static gboolean
live_marker_valid (const char *path,
                   gboolean   *exists)
{
  g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *host = NULL;
  gint64 pid;
  guint64 start;

  *exists = FALSE;
  if (!g_key_file_load_from_file (kf, live, G_KEY_FILE_NONE, NULL))
    {
      /* Exists but unreadable (being written this very moment): assume live. */
      *exists = g_file_test (live, G_FILE_TEST_EXISTS);
      return *exists;
    }
  *exists = TRUE;

  host = g_key_file_get_string (kf, LIVE_GROUP, "Host", NULL);
  if (g_strcmp0 (host, g_get_host_name ()) != 0)
    return TRUE;   /* a recorder on another machine (shared folder): we cannot check */

  pid = g_key_file_get_int64 (kf, LIVE_GROUP, "Pid", NULL);
  if (pid <= 0 || pid > G_MAXINT)
    return FALSE;
  if (kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
    return FALSE;
  start = g_key_file_get_uint64 (kf, LIVE_GROUP, "PidStart", NULL);
  if (start != 0)
    {
      guint64 now_start = process_start_time ((pid_t) pid);
      if (now_start != 0 && now_start != start)
        return FALSE;   /* the pid was recycled */
    }
  return TRUE;
}

gboolean
strobe_trace_file_is_live (const char *path)
{
  gboolean exists;

  return live_marker_valid (path, &exists);
}

gboolean
strobe_trace_file_write_info (const char              *path,
                              const StrobeTraceProbe  *probe,
                              gboolean                 with_status,
                              GError                 **error)
{
  g_autofree char *info = strobe_trace_file_sidecar_path (path, STROBE_TRACE_INFO_SUFFIX);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *data = NULL;
  gsize len;

  g_key_file_set_string (kf, INFO_GROUP, "Id", probe->id);
  if (with_status)
    {
      g_key_file_set_string (kf, INFO_GROUP, "Status", strobe_trace_status_to_string (probe->status));
      g_key_file_set_uint64 (kf, INFO_GROUP, "Size", probe->size);
    }
  if (probe->reason != NULL)
    g_key_file_set_string (kf, INFO_GROUP, "Reason", probe->reason);
  if (probe->peer_address != NULL)
    g_key_file_set_string (kf, INFO_GROUP, "PeerAddress", probe->peer_address);
  if (probe->end_time_ns != 0)
    g_key_file_set_uint64 (kf, INFO_GROUP, "Ended", probe->end_time_ns);
  if (probe->stopped)
    g_key_file_set_boolean (kf, INFO_GROUP, "Stopped", TRUE);
  data = g_key_file_to_data (kf, &len, NULL);

  /* g_file_set_contents: write to a temporary file, fsync, rename over — never a torn
   * sidecar, whatever dies when. */
  return g_file_set_contents (info, data, (gssize) len, error);
}

static const char *
translate (const char *msgid)
{
  return _(msgid);
}

/* A framing fault as the trace's status and reason, in the decoder's words (the framing
 * is read by core/protocol for both). A trace that is not one, or that this Strobe cannot
 * read at all, is invalid; one that ends early or goes wrong after its handshake is cut
 * off: what comes before still opens. */
static void
probe_fault (StrobeTraceProbe      *probe,
             const StrobeWireFault *fault,
             gboolean               in_packets)
{
  char message[256];

  strobe_wire_fault_describe (fault, translate, message, sizeof message);
  probe->status = in_packets || fault->klass == STROBE_WIRE_FAULT_TRUNCATED
                  ? STROBE_TRACE_STATUS_CUT_OFF : STROBE_TRACE_STATUS_INVALID;
  g_free (probe->reason);
  probe->reason = g_strdup (message);
}

/* The handshake: sets program/pid/start time; FALSE (with status and reason set) when
 * the file is not a readable Strobe stream. @data_start receives the first packet's offset. */
static gboolean
read_head (int               fd,
           guint64           size,
           StrobeTraceProbe *probe,
           guint64          *data_start)
{
  guint8 hs[sizeof (StrobeWireHandshake)];
  StrobeWireMetadata meta;
  StrobeWireFault fault;
  g_autofree guint8 *md = NULL;
  gsize have = MIN (size, sizeof hs);
  gsize need;

  if (have > 0 && !pread_all (fd, hs, have, 0))
    have = 0;
  if (!strobe_wire_read_handshake (hs, have, &need, &fault))
    {
      probe_fault (probe, &fault, FALSE);
      return FALSE;
    }
  if (size < need)
    {
      strobe_wire_fault_cut_off (&fault, FALSE, 0, (gsize) size, need);
      probe_fault (probe, &fault, FALSE);
      return FALSE;
    }
  md = g_malloc (need - sizeof hs + 1);
  if (!pread_all (fd, md, need - sizeof hs, sizeof hs))
    {
      strobe_wire_fault_cut_off (&fault, FALSE, 0, sizeof hs, need);
      probe_fault (probe, &fault, FALSE);
      return FALSE;
    }
  if (!strobe_wire_read_metadata (md, need - sizeof hs, &meta, &fault))
    {
      probe_fault (probe, &fault, FALSE);
      return FALSE;
    }
  probe->program = g_utf8_make_valid (meta.program_name ? meta.program_name : "",
                                      (gssize) meta.program_name_len);
  probe->pid = meta.process_id;
  probe->parent_pid = meta.parent_process_id;
  /* The name from the trace stays as it is (made valid only): it is the group's key. */
  if (meta.session_name_len)
    probe->session = g_utf8_make_valid (meta.session_name, (gssize) meta.session_name_len);
  probe->start_time_ns = meta.start_time_ns;
  *data_start = need;
  return TRUE;
}

/* Walks packet headers from @offset: finished at End (nothing after it is read, as by
 * every reader), cut off at the end of the file or at a packet that cannot be framed. */
static void
walk_packets (int               fd,
              guint64           offset,
              guint64           size,
              StrobeTraceProbe *probe)
{
  /* A header and the most of a payload framing looks at: a control packet's kind and
   * Sync serial. */
  enum { HEAD = sizeof (StrobeWirePacketHeader), CONTROL = 5 };

  while (offset < size)
    {
      guint8 head[HEAD + CONTROL];
      StrobeWirePacketHeader header;
      StrobeWireFault fault;
      gsize want = MIN (sizeof head, size - offset);
      gsize need;

      if (!pread_all (fd, head, want, offset))
        {
          strobe_wire_fault_cut_off (&fault, TRUE, offset, 0, HEAD);
          probe_fault (probe, &fault, TRUE);
          return;
        }
      if (!strobe_wire_read_packet_header (head, want, offset, &header, &need, &fault))
        {
          probe_fault (probe, &fault, TRUE);
          return;
        }
      if (size - offset < need)
        {
          strobe_wire_fault_cut_off (&fault, TRUE, offset, (gsize) (size - offset), need);
          probe_fault (probe, &fault, TRUE);
          return;
        }
      if (header.thread_id == STROBE_TID_CONTROL)
        {
          gsize len = MIN (need - HEAD, (gsize) CONTROL);

          if (!strobe_wire_read_control (head + HEAD, len, offset, NULL, NULL, &fault))
            {
              probe_fault (probe, &fault, TRUE);
              return;
            }
          if (strobe_wire_packet_is_end (&header, head + HEAD, len))
            {
              probe->status = STROBE_TRACE_STATUS_FINISHED;
              return;
            }
        }
      offset += need;
    }

  probe->status = STROBE_TRACE_STATUS_CUT_OFF;
  probe->reason = g_strdup (_("No End packet: the recording was cut off"));
}

gboolean
strobe_trace_file_probe (const char        *path,
                         gboolean           repair,
                         StrobeTraceProbe  *probe,
                         GError           **error)
{
  g_autofree char *info_path = strobe_trace_file_sidecar_path (path, STROBE_TRACE_INFO_SUFFIX);
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_autofree char *info_status = NULL;
  g_autofree char *info_reason = NULL;
  gboolean have_info;
  gboolean marker_exists;
  guint64 info_size = 0;
  guint64 data_start = 0;
  struct stat st;
  int fd;

  memset (probe, 0, sizeof *probe);

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;
      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot open %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  probe->size = (guint64) st.st_size;

  have_info = g_key_file_load_from_file (info, info_path, G_KEY_FILE_NONE, NULL);
  if (have_info)
    {
      probe->id = g_key_file_get_string (info, INFO_GROUP, "Id", NULL);
      probe->peer_address = g_key_file_get_string (info, INFO_GROUP, "PeerAddress", NULL);
      info_status = g_key_file_get_string (info, INFO_GROUP, "Status", NULL);
      info_reason = g_key_file_get_string (info, INFO_GROUP, "Reason", NULL);
      info_size = g_key_file_get_uint64 (info, INFO_GROUP, "Size", NULL);
      probe->end_time_ns = g_key_file_get_uint64 (info, INFO_GROUP, "Ended", NULL);
      probe->stopped = g_key_file_get_boolean (info, INFO_GROUP, "Stopped", NULL);
    }

  if (!read_head (fd, probe->size, probe, &data_start))
    {
      /* A recorder writes the handshake in one go, but a file still being copied in may
       * be short for a moment: the status is only final once nobody writes it. */
      if (live_marker_valid (path, &marker_exists))
        {
          probe->status = STROBE_TRACE_STATUS_LIVE;
          g_clear_pointer (&probe->reason, g_free);
        }
    }
  else if (live_marker_valid (path, &marker_exists))
    probe->status = STROBE_TRACE_STATUS_LIVE;
  else if (info_status != NULL && info_size == probe->size
           && (g_str_equal (info_status, "finished") || g_str_equal (info_status, "cut-off")))
    {
      /* The sidecar already knows the answer for exactly this many bytes. */
      probe->status = g_str_equal (info_status, "finished") ? STROBE_TRACE_STATUS_FINISHED
                                                            : STROBE_TRACE_STATUS_CUT_OFF;
      probe->reason = g_steal_pointer (&info_reason);
    }
  else
    walk_packets (fd, data_start, probe->size, probe);

  close (fd);

  if (probe->id == NULL)
    probe->id = strobe_trace_file_new_id ();

  if (repair && probe->status != STROBE_TRACE_STATUS_LIVE)
    {
      const char *want_status = strobe_trace_status_to_string (probe->status);

      gboolean finish_record = FALSE;

      /* A recorder that was killed (kill -9, a crash, a power cut) never finished its
       * record: the walk above found the last whole packet and the status; the end is
       * when it last wrote, the file's modification time (it wrote every chunk as it
       * arrived), so the trace gets a duration rather than none. */
      if (marker_exists && probe->end_time_ns == 0)
        {
          probe->end_time_ns = (guint64) st.st_mtim.tv_sec * G_GUINT64_CONSTANT (1000000000)
                               + (guint64) st.st_mtim.tv_nsec;
          if (probe->status == STROBE_TRACE_STATUS_CUT_OFF)
            {
              g_free (probe->reason);
              probe->reason = g_strdup (_("The recorder ended without finishing the trace (it was "
                                          "killed or crashed); the trace is kept up to its last "
                                          "whole packet"));
            }
          finish_record = TRUE;
        }
      if (finish_record || !have_info || g_strcmp0 (info_status, want_status) != 0
          || info_size != probe->size)
        {
          g_autoptr(GError) local_error = NULL;

          if (!strobe_trace_file_write_info (path, probe, TRUE, &local_error))
            g_debug ("Cannot update %s: %s", info_path, local_error->message);
        }
      if (marker_exists)
        {
          /* The recorder died without finishing: its marker is stale. */
          g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);
          g_unlink (live);
        }
    }

  return TRUE;
}

gboolean
strobe_trace_file_rename (const char  *path,
                          const char  *new_path,
                          GError     **error)
{
  g_autofree char *info = strobe_trace_file_sidecar_path (path, STROBE_TRACE_INFO_SUFFIX);
  g_autofree char *new_info = strobe_trace_file_sidecar_path (new_path, STROBE_TRACE_INFO_SUFFIX);

  /* The sidecar first: if we die in between, the store sees a trace without sidecar
   * (rebuilt on the next probe, with a new id) rather than a sidecar of the wrong file. */
  if (g_rename (info, new_info) != 0 && errno != ENOENT)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot rename %s: %s"), info, g_strerror (saved));
      return FALSE;
    }
  if (g_rename (path, new_path) != 0)
    {
      int saved = errno;
      g_rename (new_info, info);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot rename %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
strobe_trace_file_delete (const char  *path,
                          GError     **error)
{
  g_autofree char *info = strobe_trace_file_sidecar_path (path, STROBE_TRACE_INFO_SUFFIX);
  g_autofree char *live = strobe_trace_file_sidecar_path (path, STROBE_TRACE_LIVE_SUFFIX);

  if (g_unlink (path) != 0 && errno != ENOENT)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot delete %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  g_unlink (info);
  g_unlink (live);
  return TRUE;
}
