/* strobe-output.c — the one output (file or TCP connection) and what starts each one:
 * handshake, the whole important cache, a Sync control packet, the tail ring (recent
 * history). All of it runs under the update lock, so the output has one writer. Also
 * snapshots: the same start, written to a separate file or connection. */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"
#include "strobe-host-port.h"
#include "strobe-wire-zstd.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define OUT_BATCH       (1024u * 1024u)
#define CONNECT_TIMEOUT_MS 3000
/* A peer that stops reading must not hold the update lock (and with it strobe_flush,
 * strobe_get_stats, output changes and exit) for as long as it stalls: a round waits at
 * most SEND_WAIT_MS for the socket, keeps what it could not send, and stops draining the
 * threads while OUT_BACKLOG bytes are pending, so back-pressure reaches the buffer pool
 * and its drop counting. Stopping the output waits STOP_GRACE_MS for the rest. */
#define SEND_WAIT_MS    50
#define STOP_GRACE_MS   2000
#define OUT_BACKLOG     (4u * OUT_BATCH)

static int           out_fd = -1;
static bool          out_socket;
static StrobeWireBuf out_buf;
static StrobeWireBuf scratch;
static int           out_error;
static bool          out_starting;     /* the starter reports a failure, not fail() */
static uint64_t      bytes_sent;
static uint16_t      control_port;
static char          out_desc[320];
static uint8_t       session_id[16];
static bool          session_made;     /* under the update lock, like every handshake */
/* The target of the last output started, so a forked child that follows can open its own. */
static char          last_kind[8];
static char          last_what[300];
/* The codec of outputs started from now on: 0 LZ4 packets; N > 0 one zstd stream of level
 * N per output (PROTOCOL.md §2), which the memory channel's few bytes per allocation need:
 * a loop's records repeat further back than LZ4 reaches. Snapshots stay LZ4. */
static int             out_zstd_level;
static StrobeWireZstd *out_zstd;      /* the current output's stream, when it has one */

static void
random_bytes (uint8_t *p, size_t n)
{
  if (getrandom (p, n, GRND_NONBLOCK) == (ssize_t) n)
    return;
  for (size_t i = 0; i < n; i++)   /* no entropy yet: unique enough for an id */
    p[i] = (uint8_t) (strobe_time () >> (i % 8) ^ (uint64_t) getpid () >> (i % 4));
}


void
strobe_set_control_port (uint16_t port)
{
  __atomic_store_n (&control_port, port, __ATOMIC_RELAXED);
}

uint16_t
strobe_get_control_port (void)
{
  return __atomic_load_n (&control_port, __ATOMIC_RELAXED);
}

bool strobe__out_active (void) { return out_fd >= 0; }

/* An output that could not be opened (strobe-init.c): strobe_output_error() says why. */
void
strobe__out_set_error (int err)
{
  __atomic_store_n (&out_error, err, __ATOMIC_RELAXED);
}
uint64_t strobe__out_bytes_sent (void) { return __atomic_load_n (&bytes_sent, __ATOMIC_RELAXED); }

int
strobe_output_error (void)
{
  return __atomic_load_n (&out_error, __ATOMIC_RELAXED);
}

/* The process keeps running: the output is closed, the failure reported once, and data
 * is discarded until a new output starts. */
static void
fail (int err)
{
  if (!out_starting)
    fprintf (stderr, "strobe: trace output failed, closing it: %s\n", strerror (err));
  close (out_fd);
  out_fd = -1;
  out_buf.len = 0;
  __atomic_store_n (&out_error, err, __ATOMIC_RELAXED);
}

static int
elapsed_ms (const struct timespec *since)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (int) ((now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000);
}

/* Writes what it can of out_buf within @wait_ms (sockets; files block only on the disk)
 * and keeps the rest at its front. True when nothing is left. */
static bool
write_pending_within (int wait_ms)
{
  struct timespec start;
  size_t done = 0;

  clock_gettime (CLOCK_MONOTONIC, &start);
  while (out_fd >= 0 && done < out_buf.len)
    {
      ssize_t n = out_socket ? send (out_fd, out_buf.data + done, out_buf.len - done,
                                     MSG_NOSIGNAL | MSG_DONTWAIT)
                             : write (out_fd, out_buf.data + done, out_buf.len - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && out_socket && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          struct pollfd pfd = { .fd = out_fd, .events = POLLOUT };
          int left = wait_ms - elapsed_ms (&start);

          if (left <= 0 || poll (&pfd, 1, left) == 0)
            break;   /* the peer is not reading: keep the rest for the next round */
          continue;
        }
      if (n <= 0)
        {
          fail (n < 0 ? errno : EIO);
          return false;
        }
      done += (size_t) n;
      __atomic_store_n (&bytes_sent, bytes_sent + (uint64_t) n, __ATOMIC_RELAXED);
    }
  if (out_fd < 0)
    return false;
  memmove (out_buf.data, out_buf.data + done, out_buf.len - done);
  out_buf.len -= done;
  return out_buf.len == 0;
}

void
strobe__out_write_pending (void)
{
  write_pending_within (SEND_WAIT_MS);
}

bool
strobe__out_backed_up (void)
{
  return out_fd >= 0 && out_buf.len >= OUT_BACKLOG;
}

/* "lz4", "zstd" or "zstd:LEVEL" (1..19). */
bool
strobe__out_set_compression (const char *spec)
{
  int level = -1;

  if (spec == NULL)
    return false;
  if (strcmp (spec, "lz4") == 0)
    level = 0;
  else if (strcmp (spec, "zstd") == 0)
    level = 3;
  else if (strncmp (spec, "zstd:", 5) == 0)
    {
      char *end;
      long v = strtol (spec + 5, &end, 10);

      if (spec[5] != '\0' && *end == '\0' && v >= 1 && v <= 19)
        level = (int) v;
    }
  if (level < 0)
    return false;
  __atomic_store_n (&out_zstd_level, level, __ATOMIC_RELAXED);
  return true;
}

static bool
write_packet (uint16_t thread_id, const uint8_t *data, size_t len)
{
  if (out_zstd)
    return strobe_wire_write_packet_zstd (&out_buf, out_zstd, thread_id, data, len);
  return strobe_wire_write_packet (&out_buf, &scratch, thread_id, data, len);
}

void
strobe__out_packet (uint16_t thread_id, const uint8_t *data, size_t len)
{
  if (thread_id != STROBE_TID_IMPORTANTS)
    strobe__tail_add (thread_id, data, len, out_fd >= 0);   /* the important cache keeps those */
  if (out_fd < 0)
    return;   /* no output: only the tail keeps it */
  if (!write_packet (thread_id, data, len))
    {
      fail (errno);
      return;
    }
  if (out_buf.len >= OUT_BATCH)
    write_pending_within (0);   /* no waiting inside a round: once, at its end */
}

static size_t
read_file (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  ssize_t n;

  if (fd < 0)
    return 0;
  while (len < size && (n = read (fd, buf + len, size - len)) > 0)
    len += (size_t) n;
  close (fd);
  return len;
}

static bool
write_handshake (StrobeWireBuf *buf)
{
  static char cmdline[16384];
  static char session[STROBE_SESSION_NAME_MAX + 1];
  StrobeWireMetadata m;
  size_t len;

  memset (&m, 0, sizeof m);
  if (!session_made)
    {
      random_bytes (session_id, sizeof session_id);
      session_made = true;
    }
  m.control_port = __atomic_load_n (&control_port, __ATOMIC_RELAXED);
  memcpy (m.session_id, session_id, 16);
  random_bytes (m.trace_id, 16);
  m.program_name = program_invocation_short_name;
  m.program_name_len = strlen (program_invocation_short_name);
  m.process_id = (uint32_t) getpid ();
  m.start_time_ns = strobe__clock_start_ns ();
  m.clock_frequency = strobe_clock_frequency ();
  m.clock_origin = strobe__clock_origin ();
  m.pointer_size = (uint8_t) sizeof (void *);
  m.clock_source = strobe__clock_source ();
  m.features = 0;
  m.session_name_len = strobe_get_session_name (session, sizeof session);
  m.session_name = m.session_name_len ? session : NULL;
  strobe__clock_domain (m.clock_domain);
  m.parent_process_id = (uint32_t) getppid ();
  len = read_file ("/proc/self/cmdline", cmdline, sizeof cmdline);
  while (len && cmdline[len - 1] == '\0')
    len--;
  m.command_line = cmdline;
  m.command_line_len = len;
  return strobe_wire_write_handshake (buf, &m);
}

/* Sync carries the serial to merge from: where the tail's history is complete for every
 * thread (strobe-tail.c), or the next serial when the tail has none. */
static bool
write_sync (StrobeWireBuf *buf, bool unsent_only)
{
  uint8_t sync[4];
  uint32_t next = __atomic_load_n (&strobe__serial, __ATOMIC_RELAXED) & STROBE_WIRE_SERIAL_MASK;

  strobe_wire_put_u32 (sync, strobe__tail_start_serial (next, unsent_only));
  return strobe_wire_write_control (buf, STROBE_CONTROL_SYNC, sync, sizeof sync);
}

/* Tail packets straight into the output buffer (strobe__out_packet would add them to the
 * tail again), written out in batches. */
static bool
tail_to_output (uint16_t thread_id, const uint8_t *data, size_t len, void *user)
{
  (void) user;
  if (!write_packet (thread_id, data, len))
    {
      fail (errno);
      return false;
    }
  if (out_buf.len >= OUT_BATCH)
    strobe__out_write_pending ();
  return out_fd >= 0;
}

/* Takes ownership of @fd. The caller holds the update lock. */
bool
strobe__out_start_locked (int fd, bool is_socket)
{
  strobe__out_stop_locked ();
  out_fd = fd;
  out_socket = is_socket;
  out_buf.len = 0;
  __atomic_store_n (&out_error, 0, __ATOMIC_RELAXED);
  out_starting = true;
  /* A new stream: its zstd stream starts empty. Without memory for one, LZ4. */
  strobe_wire_zstd_free (out_zstd);
  out_zstd = NULL;
  if (__atomic_load_n (&out_zstd_level, __ATOMIC_RELAXED) > 0)
    out_zstd = strobe_wire_zstd_new_encoder (out_zstd_level);
  if (!write_handshake (&out_buf))
    goto fail;
  strobe__replay_importants_locked ();
  if (out_fd < 0)
    goto failed;
  if (!write_sync (&out_buf, true))
    goto fail;
  strobe__tail_foreach (true, tail_to_output, NULL);
  strobe__out_write_pending ();
  if (out_fd < 0)
    goto failed;
  out_starting = false;
  return true;

fail:
  fail (errno);
failed:
  out_starting = false;
  errno = __atomic_load_n (&out_error, __ATOMIC_RELAXED);
  return false;
}

void
strobe__out_stop_locked (void)
{
  struct timespec start;

  if (out_fd < 0)
    return;
  /* Everything committed so far goes out first, a slow peer getting up to STOP_GRACE_MS
   * to take it (update rounds ship nothing while the backlog is full). */
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (int pass = 0; pass < 2; pass++)
    {
      while ((strobe__update_locked () > 0 || strobe__out_backed_up ())
             && out_fd >= 0 && elapsed_ms (&start) < STOP_GRACE_MS)
        ;
      /* The final totals, once the drain has freed blocks to hold them: emitted while a
       * stalled peer kept the pool full, the Stats event itself would be dropped. */
      if (pass == 0)
        strobe__stats_emit_locked ();
    }
  if (out_fd >= 0 && strobe_wire_write_control (&out_buf, STROBE_CONTROL_END, NULL, 0)
      && !write_pending_within (STOP_GRACE_MS) && out_fd >= 0)
    {
      fprintf (stderr, "strobe: trace output not reading, closed with %zu bytes unsent\n",
               out_buf.len);
      __atomic_store_n (&out_error, ETIMEDOUT, __ATOMIC_RELAXED);
    }
  if (out_fd >= 0)
    {
      close (out_fd);
      out_fd = -1;
    }
  out_buf.len = 0;
  out_desc[0] = '\0';
}

bool
strobe__out_start_described (int fd, bool is_socket, const char *kind, const char *what)
{
  bool ok;

  strobe__memory_guard++;
  pthread_mutex_lock (&strobe__update_lock);
  ok = strobe__out_start_locked (fd, is_socket);
  if (ok)
    {
      snprintf (out_desc, sizeof out_desc, "%s:%s", kind, what);
      snprintf (last_kind, sizeof last_kind, "%s", kind);
      snprintf (last_what, sizeof last_what, "%s", what);
    }
  pthread_mutex_unlock (&strobe__update_lock);
  if (ok)
    strobe__memory_output_started ();
  strobe__memory_guard--;
  return ok;
}

/* ---- fork ------------------------------------------------------------------------- */

/* In a forked child, with every runtime lock held: the output's descriptor is the
 * parent's file or connection. Closing the child's copy touches neither (no End, no
 * shutdown()); whatever was buffered for it is the parent's to send. */
void
strobe__out_forget_child_locked (char *kind, size_t kind_size, char *what, size_t what_size)
{
  bool active = out_fd >= 0;

  if (out_fd >= 0)
    close (out_fd);
  out_fd = -1;
  out_buf.len = 0;
  out_desc[0] = '\0';
  __atomic_store_n (&out_error, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&bytes_sent, 0, __ATOMIC_RELAXED);
  session_made = false;   /* another process: another session */
  snprintf (kind, kind_size, "%s", active ? last_kind : "");
  snprintf (what, what_size, "%s", active ? last_what : "");
}

void
strobe__out_describe (char *buf, size_t size)
{
  pthread_mutex_lock (&strobe__update_lock);
  snprintf (buf, size, "%s", out_fd >= 0 ? out_desc : "");
  pthread_mutex_unlock (&strobe__update_lock);
}

/* ---- snapshots -------------------------------------------------------------------- */

typedef struct
{
  StrobeWireBuf *buf;
  StrobeWireBuf *scratch;
  bool           ok;
} SnapshotSink;

static bool
tail_to_snapshot (uint16_t thread_id, const uint8_t *data, size_t len, void *user)
{
  SnapshotSink *s = user;

  s->ok = s->ok && strobe_wire_write_packet (s->buf, s->scratch, thread_id, data, len);
  return s->ok;
}

static void
importants_to_snapshot (uint16_t thread_id, const uint8_t *data, size_t len, void *user)
{
  tail_to_snapshot (thread_id, data, len, user);
}

static bool
write_all (int fd, bool is_socket, const uint8_t *p, size_t len)
{
  while (len)
    {
      ssize_t n = is_socket ? send (fd, p, len, MSG_NOSIGNAL) : write (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return false;
        }
      p += n;
      len -= (size_t) n;
    }
  return true;
}

/* Built under the update lock (after one update round, so the tail and the current output
 * are up to date), written without it, so a slow peer does not stall the consumer. */
bool
strobe__snapshot_fd (int fd, bool is_socket)
{
  StrobeWireBuf buf = { 0 }, tmp = { 0 }, cache = { 0 };
  SnapshotSink sink = { &buf, &tmp, true };
  int err = 0;
  bool ok;

  strobe__memory_guard++;
  pthread_mutex_lock (&strobe__update_lock);
  strobe__update_locked ();
  sink.ok = write_handshake (&buf);
  if (sink.ok)
    {
      strobe__important_copy (0, &cache);
      strobe__importants_to_packets (cache.data, cache.len, importants_to_snapshot, &sink);
    }
  sink.ok = sink.ok && write_sync (&buf, false);
  if (sink.ok)
    strobe__tail_foreach (false, tail_to_snapshot, &sink);
  sink.ok = sink.ok && strobe_wire_write_control (&buf, STROBE_CONTROL_END, NULL, 0);
  if (!sink.ok)
    err = errno ? errno : ENOMEM;
  pthread_mutex_unlock (&strobe__update_lock);

  ok = sink.ok && write_all (fd, is_socket, buf.data, buf.len);
  if (!ok && err == 0)
    err = errno;
  close (fd);
  strobe_wire_buf_clear (&buf);
  strobe_wire_buf_clear (&tmp);
  strobe_wire_buf_clear (&cache);
  strobe__memory_guard--;
  if (!ok)
    errno = err;
  return ok;
}

/* Why the calling thread's last connect failed, when errno alone would mislead (a name
 * that does not resolve is not "No route to host"). */
static __thread const char *connect_why;

const char *
strobe__connect_error (int err)
{
  return connect_why ? connect_why : strerror (err);
}

static int
connect_with_timeout (const char *host, const char *port)
{
  struct addrinfo hints = { 0 }, *res, *ai;
  int fd = -1, err = ECONNREFUSED, rc;

  hints.ai_socktype = SOCK_STREAM;
  rc = getaddrinfo (host, port, &hints, &res);
  if (rc != 0)
    {
      connect_why = rc == EAI_SYSTEM ? NULL : gai_strerror (rc);
      errno = rc == EAI_SYSTEM ? errno : EHOSTUNREACH;
      return -1;
    }
  for (ai = res; ai; ai = ai->ai_next)
    {
      struct pollfd pfd;
      socklen_t len = sizeof err;
      int flags;

      fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd < 0)
        {
          err = errno;
          continue;
        }
      flags = fcntl (fd, F_GETFL);
      fcntl (fd, F_SETFL, flags | O_NONBLOCK);
      if (connect (fd, ai->ai_addr, ai->ai_addrlen) == 0)
        err = 0;
      else if (errno == EINPROGRESS)
        {
          pfd.fd = fd;
          pfd.events = POLLOUT;
          rc = poll (&pfd, 1, CONNECT_TIMEOUT_MS);
          if (rc == 0)
            err = ETIMEDOUT;
          else if (rc < 0 || getsockopt (fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
            err = errno;
        }
      else
        err = errno;
      if (err == 0)
        {
          fcntl (fd, F_SETFL, flags);
          break;
        }
      close (fd);
      fd = -1;
    }
  freeaddrinfo (res);
  if (fd < 0)
    errno = err;
  return fd;
}

const char *
strobe__host_port_problem (const char *host_port)
{
  char host[STROBE_HOST_MAX + 1];
  uint16_t port;
  StrobeHostPortError e = strobe_host_port_parse (host_port, STROBE_WIRE_DEFAULT_PORT, host,
                                                  sizeof host, &port);

  return e == STROBE_HOST_PORT_OK ? NULL : strobe_host_port_error_text (e);
}

int
strobe__connect_host (const char *host_port)
{
  char host[STROBE_HOST_MAX + 1], port[8];
  uint16_t p;

  StrobeHostPortError e = strobe_host_port_parse (host_port, STROBE_WIRE_DEFAULT_PORT, host,
                                                  sizeof host, &p);

  connect_why = NULL;
  if (e != STROBE_HOST_PORT_OK)
    {
      connect_why = strobe_host_port_error_text (e);
      errno = EINVAL;
      return -1;
    }
  snprintf (port, sizeof port, "%u", p);
  return connect_with_timeout (host, port);
}

bool
strobe_output_stop (void)
{
  strobe__memory_guard++;
  pthread_mutex_lock (&strobe__update_lock);
  strobe__out_stop_locked ();
  pthread_mutex_unlock (&strobe__update_lock);
  strobe__memory_guard--;
  return true;
}

bool
strobe_output_active (void)
{
  bool on;

  pthread_mutex_lock (&strobe__update_lock);
  on = out_fd >= 0;
  pthread_mutex_unlock (&strobe__update_lock);
  return on;
}

/* The consumer (strobe-update.c) is below the output: a round hands its packets here. */
static void
output_hooks (StrobeHooks *hooks)
{
  hooks->out_packet = strobe__out_packet;
  hooks->out_write_pending = strobe__out_write_pending;
  hooks->out_backed_up = strobe__out_backed_up;
  hooks->out_active = strobe__out_active;
  hooks->out_bytes_sent = strobe__out_bytes_sent;
  hooks->out_error = strobe_output_error;
}
STROBE_HOOKS_SETTER (output_hooks);
