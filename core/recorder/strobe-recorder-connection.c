/* strobe-recorder-connection.c — one runtime connection, on its own thread.
 *
 * Why a thread per connection rather than async I/O on the main context: the recorder is
 * embedded in the viewer, whose main context draws the UI; a slow disk (fdatasync can
 * take tens of milliseconds) must stall neither the UI nor the other connections. Each
 * thread does blocking reads with a deadline (so it wakes up to sync), writes every chunk
 * as it arrives, and reports to the recorder's main context.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "strobe-packet-tracker.h"
#include "strobe-rate-window.h"
#include "strobe-clock-offset.h"
#include "strobe-recorder-private.h"
#include "strobe-wire-framing.h"

#define RECEIVE_BUFFER_SIZE (256 * 1024)

struct _StrobeRecorderConnection
{
  GWeakRef           owner;
  StrobeRecorderConnectionReport report;
  GMainContext      *context;
  StrobeStore       *store;
  GSocketConnection *connection;
  GCancellable      *cancellable;
  GThread           *thread;
  char              *peer_address;
  char              *peer_host;
  gboolean           loopback;
  guint64            id;
  StrobeLiveConnection     *session;   /* written by the thread before STARTED is posted */
  gint64             accepted;  /* monotonic µs */
  gint64             last_data; /* monotonic µs; atomic: read by the recorder */
  StrobeRateWindow   rate;      /* bytes over the recorder's window, handshake included */
  gint               recording; /* atomic: the handshake is done */
  gint               evicted;   /* atomic */
  int                clock_mode;   /* StrobeRecorderClockMode */
};

typedef struct
{
  StrobeRecorderConnection *connection;
  StrobeRecorderEvent       event;
  char                     *reason;
} Post;

static void
post_free (gpointer data)
{
  Post *post = data;

  _strobe_recorder_connection_unref (post->connection);
  g_free (post->reason);
  g_free (post);
}

static gboolean
post_cb (gpointer data)
{
  Post *post = data;
  g_autoptr(GObject) owner = g_weak_ref_get (&post->connection->owner);

  if (owner != NULL)
    post->connection->report (owner, post->connection, post->event, post->reason);
  return G_SOURCE_REMOVE;
}

static void
post (StrobeRecorderConnection *self,
      StrobeRecorderEvent       event,
      const char               *reason)
{
  Post *p = g_new0 (Post, 1);
  GSource *source = g_idle_source_new ();

  p->connection = _strobe_recorder_connection_ref (self);
  p->event = event;
  p->reason = g_strdup (reason);
  /* An idle source, not g_main_context_invoke(): that runs the callback right here when
   * nobody iterates the context, and the recorder must only be touched from its own. */
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, post_cb, p, post_free);
  g_source_set_static_name (source, "[strobe] recorder connection event");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

static char *
format_peer (GSocketConnection *connection, char **peer_host, gboolean *loopback)
{
  g_autoptr(GSocketAddress) address = g_socket_connection_get_remote_address (connection, NULL);

  *loopback = FALSE;
  if (G_IS_INET_SOCKET_ADDRESS (address))
    {
      GInetSocketAddress *inet = G_INET_SOCKET_ADDRESS (address);
      GInetAddress *ia = g_inet_socket_address_get_address (inet);
      g_autofree char *host = g_inet_address_to_string (ia);
      guint16 port = g_inet_socket_address_get_port (inet);

      *loopback = g_inet_address_get_is_loopback (ia);
      *peer_host = g_strdup (host);
      if (strchr (host, ':') != NULL)
        return g_strdup_printf ("[%s]:%u", host, port);
      return g_strdup_printf ("%s:%u", host, port);
    }
  *peer_host = g_strdup ("unknown");
  return g_strdup ("unknown");
}

const char *
_strobe_recorder_connection_get_peer_host (StrobeRecorderConnection *self)
{
  return self->peer_host;
}

gboolean
_strobe_recorder_connection_is_loopback (StrobeRecorderConnection *self)
{
  return self->loopback;
}

gboolean
_strobe_recorder_connection_in_handshake (StrobeRecorderConnection *self)
{
  return !g_atomic_int_get (&self->recording);
}

gint64
_strobe_recorder_connection_get_accepted (StrobeRecorderConnection *self)
{
  return self->accepted;
}

gint64
_strobe_recorder_connection_get_last_data (StrobeRecorderConnection *self)
{
  return __atomic_load_n (&self->last_data, __ATOMIC_RELAXED);
}

gboolean
_strobe_recorder_connection_is_evicted (StrobeRecorderConnection *self)
{
  return g_atomic_int_get (&self->evicted);
}

void
_strobe_recorder_connection_evict (StrobeRecorderConnection *self)
{
  g_atomic_int_set (&self->evicted, 1);
  g_cancellable_cancel (self->cancellable);
}

static void
touch (StrobeRecorderConnection *self, gsize bytes)
{
  gint64 now = g_get_monotonic_time ();

  __atomic_store_n (&self->last_data, now, __ATOMIC_RELAXED);
  strobe_rate_window_add (&self->rate, bytes, now);
}

double
_strobe_recorder_connection_get_rate (StrobeRecorderConnection *self,
                                      gint64                    now)
{
  return strobe_rate_window_rate (&self->rate, now);
}

StrobeRecorderConnection *
_strobe_recorder_connection_new (StrobeStore                   *store,
                                 GSocketConnection             *connection,
                                 guint64                        id,
                                 gint64                         rate_window_us,
                                 StrobeRecorderConnectionReport report,
                                 gpointer                       owner)
{
  StrobeRecorderConnection *self;

  g_return_val_if_fail (report != NULL && G_IS_OBJECT (owner), NULL);

  self = g_atomic_rc_box_new0 (StrobeRecorderConnection);
  g_weak_ref_init (&self->owner, owner);
  self->report = report;
  self->context = g_main_context_ref_thread_default ();
  self->store = g_object_ref (store);
  self->connection = g_object_ref (connection);
  self->cancellable = g_cancellable_new ();
  self->peer_address = format_peer (connection, &self->peer_host, &self->loopback);
  self->id = id;
  self->accepted = g_get_monotonic_time ();
  self->last_data = self->accepted;
  strobe_rate_window_init (&self->rate, rate_window_us, self->accepted);
  return self;
}

StrobeRecorderConnection *
_strobe_recorder_connection_ref (StrobeRecorderConnection *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
connection_clear (gpointer data)
{
  StrobeRecorderConnection *self = data;

  g_assert (self->thread == NULL);
  g_weak_ref_clear (&self->owner);
  g_main_context_unref (self->context);
  g_object_unref (self->store);
  g_object_unref (self->connection);
  g_object_unref (self->cancellable);
  g_clear_object (&self->session);
  g_free (self->peer_address);
  g_free (self->peer_host);
  strobe_rate_window_clear (&self->rate);
}

void
_strobe_recorder_connection_unref (StrobeRecorderConnection *self)
{
  g_atomic_rc_box_release_full (self, connection_clear);
}

const char *
_strobe_recorder_connection_get_peer_address (StrobeRecorderConnection *self)
{
  return self->peer_address;
}

StrobeLiveConnection *
_strobe_recorder_connection_get_session (StrobeRecorderConnection *self)
{
  return self->session;
}

void
_strobe_recorder_connection_cancel (StrobeRecorderConnection *self)
{
  g_cancellable_cancel (self->cancellable);
}

void
_strobe_recorder_connection_join (StrobeRecorderConnection *self)
{
  if (self->thread != NULL)
    {
      g_thread_join (self->thread);
      self->thread = NULL;
    }
}

/* Reads exactly @len bytes before @deadline (monotonic µs). */
static gboolean
receive_exact (StrobeRecorderConnection  *self,
               guint8                    *buf,
               gsize                      len,
               gint64                     deadline,
               GError                   **error)
{
  GSocket *socket = g_socket_connection_get_socket (self->connection);

  while (len > 0)
    {
      gint64 timeout = deadline - g_get_monotonic_time ();
      gssize n;

      if (timeout <= 0 || !g_socket_condition_timed_wait (socket, G_IO_IN, timeout,
                                                          self->cancellable, error))
        {
          if (timeout <= 0)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, _("Timed out"));
          if (g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
            {
              g_clear_error (error);
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                           _("No complete handshake within %d s"),
                           STROBE_RECORDER_HANDSHAKE_TIMEOUT_S);
            }
          return FALSE;
        }
      n = g_socket_receive_with_blocking (socket, (char *) buf, len, FALSE,
                                          self->cancellable, error);
      if (n < 0)
        {
          if (g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            {
              g_clear_error (error);
              continue;
            }
          return FALSE;
        }
      if (n > 0)
        touch (self, (gsize) n);
      if (n == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                       _("The connection closed during the handshake"));
          return FALSE;
        }
      buf += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static void
reject (StrobeRecorderConnection *self,
        const char               *reason)
{
  /* A message, not a warning: a stranger knocking on port 1980 is not our bug. */
  g_message ("Recorder: dropped connection from %s: %s", self->peer_address, reason);
  post (self, STROBE_RECORDER_EVENT_REJECTED, reason);
}

static const char *
translate (const char *msgid)
{
  return _(msgid);
}

/* A stream the decoder would refuse is refused here, in the decoder's words: core/protocol
 * reads the handshake for both. */
static void
reject_fault (StrobeRecorderConnection *self,
              const StrobeWireFault    *fault)
{
  char message[256];

  strobe_wire_fault_describe (fault, translate, message, sizeof message);
  reject (self, message);
}

/* Reads and checks the handshake. Returns the raw bytes (to be written unchanged) and the
 * parsed metadata (pointing into them), or NULL after rejecting the peer. */
static GBytes *
receive_handshake (StrobeRecorderConnection *self,
                   StrobeWireMetadata       *meta)
{
  gint64 deadline = g_get_monotonic_time () + STROBE_RECORDER_HANDSHAKE_TIMEOUT_S * G_TIME_SPAN_SECOND;
  g_autoptr(GError) error = NULL;
  StrobeWireHandshake hs;
  StrobeWireFault fault;
  guint8 *buf;
  gsize size;

  if (!receive_exact (self, (guint8 *) &hs, sizeof hs, deadline, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        reject (self, error->message);
      return NULL;
    }
  if (!strobe_wire_read_handshake ((const guint8 *) &hs, sizeof hs, &size, &fault))
    {
      reject_fault (self, &fault);
      return NULL;
    }

  buf = g_malloc (size);
  memcpy (buf, &hs, sizeof hs);
  if (!receive_exact (self, buf + sizeof hs, size - sizeof hs, deadline, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        reject (self, error->message);
      g_free (buf);
      return NULL;
    }
  if (!strobe_wire_read_metadata (buf + sizeof hs, size - sizeof hs, meta, &fault))
    {
      reject_fault (self, &fault);
      g_free (buf);
      return NULL;
    }
  return g_bytes_new_take (buf, size);
}

/* Copies the stream into @writer until End, EOF, an error or cancellation. Returns the
 * final status and sets @reason for a cut-off trace. */
static StrobeTraceStatus
copy_stream (StrobeRecorderConnection  *self,
             StrobeTraceWriter         *writer,
             StrobePacketTracker       *tracker,
             char                     **reason)
{
  GSocket *socket = g_socket_connection_get_socket (self->connection);
  g_autofree guint8 *buf = g_malloc (RECEIVE_BUFFER_SIZE);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      gint64 now = g_get_monotonic_time ();
      gint64 idle_end = __atomic_load_n (&self->last_data, __ATOMIC_RELAXED)
                        + STROBE_RECORDER_IDLE_TIMEOUT_S * G_TIME_SPAN_SECOND;
      gint64 deadline = MIN (strobe_trace_writer_get_sync_deadline (writer), idle_end);
      gint64 timeout = MAX (0, deadline - now);
      StrobePacketTrackerResult result;
      gsize consumed;
      gssize n;

      if (now >= idle_end)
        {
          *reason = g_strdup_printf (_("Nothing received for %d s; the recording was ended"),
                                     STROBE_RECORDER_IDLE_TIMEOUT_S);
          g_message ("Recorder: dropped connection from %s: %s", self->peer_address, *reason);
          return STROBE_TRACE_STATUS_CUT_OFF;
        }
      /* Wake up at the sync deadline even when the peer goes quiet: data that arrived
       * must be on disk within the interval, not whenever the next chunk comes. */
      if (timeout == 0 || !g_socket_condition_timed_wait (socket, G_IO_IN, timeout,
                                                          self->cancellable, &error))
        {
          if (timeout == 0 || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
            {
              g_clear_error (&error);
              if (g_get_monotonic_time () >= strobe_trace_writer_get_sync_deadline (writer)
                  && !strobe_trace_writer_sync (writer, &error))
                goto io_failed;
              continue;
            }
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && g_atomic_int_get (&self->evicted))
            *reason = g_strdup_printf (_("Ended to make room: the recorder was full and this "
                                         "connection was the slowest (%.0f bytes/s)"),
                                       _strobe_recorder_connection_get_rate (self, g_get_monotonic_time ()));
          else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              /* The recorder was shut down (the viewer quit, strobe-cli serve got SIGTERM):
               * the user's doing, not a crash; the trace ends at a whole packet. */
              *reason = g_strdup (_("Stopped: the recorder was closed during the recording"));
              strobe_trace_writer_set_stopped (writer);
            }
          else
            *reason = g_strdup_printf (_("Connection error: %s"), error->message);
          return STROBE_TRACE_STATUS_CUT_OFF;
        }

      n = g_socket_receive_with_blocking (socket, (char *) buf, RECEIVE_BUFFER_SIZE, FALSE,
                                          self->cancellable, &error);
      if (n < 0)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            continue;
          *reason = g_strdup_printf (_("Connection error: %s"), error->message);
          return STROBE_TRACE_STATUS_CUT_OFF;
        }
      if (n == 0)
        {
          *reason = g_strdup (_("The connection closed without an End packet"));
          return STROBE_TRACE_STATUS_CUT_OFF;
        }
      touch (self, (gsize) n);

      if (self->session != NULL)
        strobe_live_connection_add_bytes_received (self->session, (guint64) n);
      result = strobe_packet_tracker_feed (tracker, buf, (gsize) n, &consumed);
      if (!strobe_trace_writer_write (writer, buf, consumed, &error))
        goto io_failed;

      if (result == STROBE_PACKET_TRACKER_END)
        {
          if (consumed < (gsize) n)
            g_message ("Recorder: %s sent %" G_GSIZE_FORMAT " bytes after its End packet; ignored",
                       self->peer_address, (gsize) n - consumed);
          return STROBE_TRACE_STATUS_FINISHED;
        }
      if (result == STROBE_PACKET_TRACKER_BAD)
        {
          /* Keep every whole packet; a corrupt sender must not leave half a header that
           * would make readers wait for a packet that never comes. */
          *reason = g_strdup_printf (_("Invalid packet size %u at offset %" PRIu64
                                       "; the recording was cut there"),
                                     strobe_wire_get_u32 (tracker->header), tracker->packet_start);
          g_message ("Recorder: dropped connection from %s: %s", self->peer_address, *reason);
          strobe_trace_writer_truncate (writer, tracker->packet_start, NULL);
          return STROBE_TRACE_STATUS_CUT_OFF;
        }

      if (g_get_monotonic_time () >= strobe_trace_writer_get_sync_deadline (writer)
          && !strobe_trace_writer_sync (writer, &error))
        goto io_failed;
      continue;

    io_failed:
      g_warning ("Recorder: cannot record %s: %s", strobe_trace_writer_get_path (writer),
                 error->message);
      *reason = g_strdup_printf (_("Cannot write the trace: %s"), error->message);
      return STROBE_TRACE_STATUS_CUT_OFF;
    }
}

/* ---- the program's clock ---------------------------------------------------------- */

typedef struct
{
  char   *host;
  guint16 port;
  char   *peer;    /* for the log */
} ClockJob;

static gpointer
clock_thread (gpointer data)
{
  ClockJob *job = data;
  g_autoptr(StrobeControlClient) client = strobe_control_client_new (job->host, job->port);
  g_autoptr(GError) error = NULL;
  StrobeClockOffset offset;
  gboolean recorded = FALSE;

  /* Always recorded here: the recorder decided that the program's clock is not ours. */
  if (strobe_control_client_sync_clock (client, 8, TRUE, &offset, &recorded, &error))
    g_debug ("Recorder: %s's clock is %" G_GINT64_FORMAT " ns ± %" G_GUINT64_FORMAT " ns from ours",
             job->peer, offset.offset_ns, offset.uncertainty_ns);
  else
    g_message ("Recorder: could not measure the clock of %s (its trace is aligned by its "
               "wall-clock start): %s", job->peer, error->message);
  strobe_control_client_close (client);
  g_free (job->host);
  g_free (job->peer);
  g_free (job);
  return NULL;
}

/* On a thread of its own: a program that does not answer delays nothing of its recording. */
static void
measure_clock (StrobeRecorderConnection *self, const StrobeWireMetadata *meta)
{
  g_autoptr(GError) error = NULL;
  char ours[33], theirs[33];
  GThread *thread;
  ClockJob *job;

  if (meta->control_port == 0 || self->clock_mode == STROBE_RECORDER_CLOCK_NEVER)
    return;
  for (int i = 0; i < 16; i++)
    g_snprintf (theirs + 2 * i, 3, "%02x", meta->clock_domain[i]);
  if (self->clock_mode != STROBE_RECORDER_CLOCK_ALWAYS && strobe_clock_local_domain (ours)
      && g_str_equal (ours, theirs))
    return;
  job = g_new0 (ClockJob, 1);
  job->host = g_strdup (self->peer_host);
  job->port = meta->control_port;
  job->peer = g_strdup (self->peer_address);
  thread = g_thread_try_new ("strobe-rec-clock", clock_thread, job, &error);
  if (thread != NULL)
    g_thread_unref (thread);
  else
    {
      g_message ("Recorder: could not measure the clock of %s: %s", job->peer, error->message);
      g_free (job->host);
      g_free (job->peer);
      g_free (job);
    }
}

static gpointer
connection_thread (gpointer data)
{
  StrobeRecorderConnection *self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) handshake = NULL;
  g_autoptr(StrobeTraceWriter) writer = NULL;
  g_autofree char *program = NULL;
  g_autofree char *reason = NULL;
  StrobePacketTracker tracker;
  StrobeWireMetadata meta;
  StrobeTraceStatus status;

  handshake = receive_handshake (self, &meta);
  if (handshake == NULL)
    {
      if (g_atomic_int_get (&self->evicted))
        reject (self, _("Dropped to make room: the recorder was full and the handshake had not "
                        "arrived"));
      goto out;
    }
  g_atomic_int_set (&self->recording, 1);

  program = g_utf8_make_valid (meta.program_name ? meta.program_name : "",
                               (gssize) meta.program_name_len);
  writer = strobe_store_create_writer (self->store, program, self->peer_address, &error);
  if (writer == NULL
      || !strobe_trace_writer_write (writer, g_bytes_get_data (handshake, NULL),
                                     g_bytes_get_size (handshake), &error))
    {
      g_warning ("Recorder: cannot record the connection from %s: %s",
                 self->peer_address, error->message);
      goto out;
    }

  self->session = strobe_live_connection_new (self->id,
                                      strobe_trace_writer_get_id (writer),
                                      strobe_trace_writer_get_name (writer),
                                      program, meta.process_id, self->peer_address,
                                      meta.control_port, meta.start_time_ns);
  strobe_live_connection_add_bytes_received (self->session, g_bytes_get_size (handshake));
  post (self, STROBE_RECORDER_EVENT_STARTED, NULL);
  measure_clock (self, &meta);

  strobe_packet_tracker_init (&tracker, g_bytes_get_size (handshake));
  status = copy_stream (self, writer, &tracker, &reason);
  if (strobe_live_connection_get_stop_requested (self->session))
    strobe_trace_writer_set_stopped (writer);
  g_clear_error (&error);
  if (!strobe_trace_writer_finish (writer, status, reason, &error))
    g_warning ("Recorder: cannot finish %s: %s", strobe_trace_writer_get_path (writer),
               error->message);

out:
  g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
  post (self, STROBE_RECORDER_EVENT_DONE, NULL);
  return NULL;
}

void
_strobe_recorder_connection_set_clock_mode (StrobeRecorderConnection *self, int mode)
{
  self->clock_mode = mode;
}

gboolean
_strobe_recorder_connection_start (StrobeRecorderConnection  *self,
                                   GError                   **error)
{
  g_autofree char *name = g_strdup_printf ("strobe-rec-%" G_GUINT64_FORMAT, self->id);

  /* The recorder keeps its reference to us until it has joined this thread. */
  self->thread = g_thread_try_new (name, connection_thread, self, error);
  return self->thread != NULL;
}
