/* strobe-control.c — the control server: a small thread that accepts TCP connections
 * (127.0.0.1:1985 by default, another port when that one is taken) and runs text
 * commands, one per line, answering each with one line. The protocol, the options and
 * the security rules are in runtime/CONTROL.md.
 *
 * The thread only polls its sockets; commands call the public API (outputs, channels),
 * so they take the same locks as any caller. It also keeps the discovery file current. */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-control-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"
#include "strobe-control-parse.h"
#include "strobe-control-auth.h"
#include "strobe-wire-framing.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE       STROBE_CONTROL_MAX_LINE
#define MAX_CLIENTS    16
#define POLL_MS        250          /* discovery refresh period, and timeouts' resolution */
#define HOP_TRIES      16
#define HOP_BASE       0x8000       /* random ports in [32768, 40959] when the port is taken */
#define HOP_MASK       0x1fff
#define BACKLOG        64
#define ACCEPT_BATCH   64           /* connections accepted per poll round */
#define AUTH_TIMEOUT_NS (5ull * 1000000000u)    /* to authenticate after connecting */
#define LINE_TIMEOUT_NS (10ull * 1000000000u)   /* to finish a line once begun */
/* A peer that has not authenticated and has sent nothing for this long is "stalled": it may
 * be evicted for a newcomer. A real client answers each step of the exchange within a
 * round trip; until this long has passed, it is never evicted. */
#define STALL_NS       (250ull * 1000000u)
#define SECRET_BYTES   16
#define SECRET_MIN     16           /* characters of a user-chosen STROBE_CONTROL_SECRET */
#define SECRET_MAX     128
/* Back-off after failed proofs against a user-chosen secret: the first failure pauses
 * authentication for PAUSE_BASE_MS, each next one twice as long, up to PAUSE_MAX_MS. */
#define PAUSE_BASE_MS  100u
#define PAUSE_MAX_MS   10000u

typedef struct
{
  int                 fd;
  bool                remote;       /* the peer is not on loopback */
  bool                spoke;        /* has sent at least one byte */
  StrobeControlAuth   auth;         /* where it stands in the challenge–response */
  uint64_t            since_ns;     /* accepted */
  uint64_t            progress_ns;  /* accepted, or last took a step of the exchange */
  uint64_t            line_ns;      /* the pending partial line began (reader.len > 0) */
  StrobeControlReader reader;
} Client;

static struct
{
  pthread_t  thread;
  bool       running;
  int        listen_fd;
  int        wake[2];
  uint16_t   port;
  bool       listen_all;
  bool       discovery;
  char      *write_dir;             /* realpath, or NULL */
  char       secret[SECRET_MAX + 1]; /* the challenge–response's key; in the discovery file */
  size_t     secret_len;
  bool       secret_chosen;         /* STROBE_CONTROL_SECRET: guessable, so failures back off */
  unsigned   auth_failures;         /* consecutive failed proofs */
  uint64_t   auth_paused_until;     /* no `auth` is answered before (CLOCK_MONOTONIC ns) */
  uint64_t   evicted;               /* peers that gave their slot up to a newcomer */
  Client     clients[MAX_CLIENTS];
  bool       published_tracing;
  /* Counters, read by `status` (same thread) and tests. */
  uint64_t   commands;
  uint64_t   malformed;
  uint64_t   oversize;
  uint64_t   refused;               /* write-to refused, connections over the limit or
                                     * evicted, authentication missing, failed or too late */
} ctl = { .listen_fd = -1, .wake = { -1, -1 } };

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* ---- configuration ------------------------------------------------------------------ */

static long
env_port (void)
{
  const char *s = getenv ("STROBE_CONTROL_PORT");
  char *end;
  long v;

  if (s == NULL || *s == '\0')
    return STROBE_DEFAULT_CONTROL_PORT;
  v = strtol (s, &end, 10);
  if (*end != '\0' || v < 0 || v > 65535)
    {
      fprintf (stderr, "strobe: STROBE_CONTROL_PORT=%s is not a port; using %d\n", s,
               STROBE_DEFAULT_CONTROL_PORT);
      return STROBE_DEFAULT_CONTROL_PORT;
    }
  return v;
}

static bool
env_is (const char *name, const char *value)
{
  const char *s = getenv (name);
  return s && strcasecmp (s, value) == 0;
}

static int
try_bind (uint16_t port)
{
  struct sockaddr_in sa = { 0 };
  int fd, one = 1;

  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return -1;
  /* Lets a restarted program take its port back from TIME_WAIT; a port another socket
   * listens on still fails with EADDRINUSE. */
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (ctl.listen_all ? INADDR_ANY : INADDR_LOOPBACK);
  if (bind (fd, (struct sockaddr *) &sa, sizeof sa) < 0 || listen (fd, BACKLOG) < 0)
    {
      int err = errno;
      close (fd);
      errno = err;
      return -1;
    }
  return fd;
}

/* The asked port; when it is taken, random ports in a fixed range (like Unreal), then
 * any port the kernel gives. The port we got goes into every trace's metadata. */
static bool
open_listener (uint16_t want)
{
  struct sockaddr_in sa;
  socklen_t len = sizeof sa;
  int fd = try_bind (want);

  for (int i = 0; fd < 0 && i < HOP_TRIES; i++)
    {
      uint16_t r = 0;
      if (getrandom (&r, sizeof r, GRND_NONBLOCK) != sizeof r)
        r = (uint16_t) (strobe_time () ^ (uint64_t) getpid () * 2654435761u);
      fd = try_bind ((uint16_t) (HOP_BASE + (r & HOP_MASK)));
    }
  if (fd < 0)
    fd = try_bind (0);
  if (fd < 0)
    return false;
  if (getsockname (fd, (struct sockaddr *) &sa, &len) < 0)
    {
      close (fd);
      return false;
    }
  ctl.listen_fd = fd;
  ctl.port = ntohs (sa.sin_port);
  return true;
}

/* ---- the secret ---------------------------------------------------------------------- */

/* Any local user can reach a loopback port, so a connection must prove it is the program's
 * user: it proves it knows the secret from the discovery file (mode 0600 in a 0700
 * directory), or STROBE_CONTROL_SECRET when the user chose one (for peers elsewhere, or no
 * discovery), without sending it (strobe-control-auth.h). A chosen secret must be long:
 * the server's proof is an HMAC over it that anyone who connects can take home and test
 * guesses against. */
static bool
make_secret (void)
{
  const char *s = getenv ("STROBE_CONTROL_SECRET");
  uint8_t raw[SECRET_BYTES];

  if (s && *s)
    {
      size_t n = strlen (s);
      bool ok = n >= SECRET_MIN && n <= SECRET_MAX;

      for (size_t i = 0; ok && i < n; i++)
        ok = s[i] > 0x20 && s[i] < 0x7f;
      if (!ok)
        {
          fprintf (stderr, "strobe: STROBE_CONTROL_SECRET must be %d to %d printable characters "
                   "without blanks (it has %zu characters%s); no control server\n", SECRET_MIN,
                   SECRET_MAX, n, n >= SECRET_MIN && n <= SECRET_MAX ? ", some of them blanks or "
                   "control characters" : "");
          return false;
        }
      memcpy (ctl.secret, s, n + 1);
      ctl.secret_len = n;
      ctl.secret_chosen = true;
      return true;
    }
  if (!strobe_auth_random (raw, sizeof raw))
    {
      fprintf (stderr, "strobe: no randomness for the control secret; no control server\n");
      return false;
    }
  strobe_hex_encode (raw, sizeof raw, ctl.secret, sizeof ctl.secret);
  strobe_auth_wipe (raw, sizeof raw);
  ctl.secret_len = 2 * sizeof raw;
  ctl.secret_chosen = false;
  return true;
}

/* ---- replies and small helpers ----------------------------------------------------- */

static void
client_close (Client *c)
{
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
  c->reader.len = 0;
  c->reader.discarding = false;
  memset (&c->auth, 0, sizeof c->auth);
}

static bool
authed (const Client *c)
{
  return c->auth.state == STROBE_CONTROL_AUTH_DONE;
}

__attribute__ ((format (printf, 2, 3))) static void
reply (Client *c, const char *fmt, ...)
{
  char buf[2048];
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = vsnprintf (buf, sizeof buf - 1, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  if ((size_t) n > sizeof buf - 2)
    n = (int) sizeof buf - 2;
  buf[n++] = '\n';
  /* Replies are short; a peer that does not read them is dropped, never waited for. */
  if (send (c->fd, buf, (size_t) n, MSG_NOSIGNAL | MSG_DONTWAIT) != n)
    client_close (c);
}

static bool
peer_is_loopback (int fd)
{
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;

  if (getpeername (fd, (struct sockaddr *) &ss, &len) < 0)
    return false;
  if (ss.ss_family == AF_INET)
    return (ntohl (((struct sockaddr_in *) &ss)->sin_addr.s_addr) >> 24) == 127;
  if (ss.ss_family == AF_INET6)
    {
      const struct in6_addr *a = &((struct sockaddr_in6 *) &ss)->sin6_addr;
      if (IN6_IS_ADDR_LOOPBACK (a))
        return true;
      return IN6_IS_ADDR_V4MAPPED (a) && a->s6_addr[12] == 127;
    }
  return false;
}

static bool
has_dotdot (const char *path)
{
  for (const char *p = path; *p;)
    {
      size_t n = strcspn (p, "/");
      if (n == 2 && p[0] == '.' && p[1] == '.')
        return true;
      p += n;
      while (*p == '/')
        p++;
    }
  return false;
}

/* Opens @name under @dfd for a trace, never blocking and never replacing what is not a
 * trace: a FIFO (which would block the control thread in open() until someone reads it),
 * a device or a symbolic link are refused, and so is an existing file that is neither
 * empty nor a Strobe trace (a typo, or a peer, must not overwrite a user's file). */
static int
open_trace_at (int dfd, const char *name, bool *refusal, const char **why)
{
  struct stat st;
  uint8_t magic[4];
  int fd;

  if (fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG (st.st_mode))
    {
      *refusal = true;
      *why = S_ISLNK (st.st_mode) ? "path is a symbolic link" : "not a regular file";
      return -1;
    }
  fd = openat (dfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
  if (fd < 0)
    {
      *refusal = errno == ELOOP || errno == ENXIO;
      *why = errno == ELOOP ? "path is a symbolic link" : errno == ENXIO ? "not a regular file"
                                                                          : strerror (errno);
      return -1;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      *refusal = true;
      *why = "not a regular file";
      close (fd);
      return -1;
    }
  if (st.st_size > 0 && (pread (fd, magic, sizeof magic, 0) != (ssize_t) sizeof magic
                         || !strobe_wire_read_handshake (magic, sizeof magic, NULL, NULL)))
    {
      *refusal = true;
      *why = "the file exists and is not a Strobe trace (not replaced)";
      close (fd);
      return -1;
    }
  if (ftruncate (fd, 0) < 0 || fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) < 0)
    {
      *why = strerror (errno);
      close (fd);
      return -1;
    }
  return fd;
}

/* Opens @path for writing a trace. With a write directory the path (relative to it, or
 * absolute inside it) must stay inside: no ".." component, the parent's real path under
 * the directory's. Without one, only loopback peers may write, anywhere the process may.
 * Either way open_trace_at() decides what may be replaced. Returns the fd, or -1 with
 * *why set (*refusal: refused by these rules rather than failed). */
static int
open_trace_path (const char *path, bool remote, bool *refusal, const char **why)
{
  char joined[PATH_MAX], parent[PATH_MAX], real[PATH_MAX];
  const char *base;
  size_t dir_len;
  int dfd, fd;

  *refusal = false;
  if (ctl.write_dir == NULL)
    {
      if (remote)
        {
          *refusal = true;
          *why = "write-to is refused for remote peers (no write directory allowed)";
          return -1;
        }
      return open_trace_at (AT_FDCWD, path, refusal, why);
    }
  if (has_dotdot (path))
    {
      *refusal = true;
      *why = "path escapes the write directory";
      return -1;
    }
  if ((size_t) (path[0] == '/' ? snprintf (joined, sizeof joined, "%s", path)
                                : snprintf (joined, sizeof joined, "%s/%s", ctl.write_dir, path))
      >= sizeof joined)
    {
      *why = "path too long";
      return -1;
    }
  base = strrchr (joined, '/') + 1;
  if (*base == '\0' || strcmp (base, ".") == 0)
    {
      *why = "path names no file";
      return -1;
    }
  memcpy (parent, joined, (size_t) (base - joined));
  parent[base - joined] = '\0';
  dir_len = strlen (ctl.write_dir);
  if (realpath (parent, real) == NULL)
    {
      *why = strerror (errno);
      return -1;
    }
  if (strncmp (real, ctl.write_dir, dir_len) != 0 || (real[dir_len] != '\0' && real[dir_len] != '/'))
    {
      *refusal = true;
      *why = "path escapes the write directory";
      return -1;
    }
  dfd = open (real, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (dfd < 0)
    {
      *why = strerror (errno);
      return -1;
    }
  fd = open_trace_at (dfd, base, refusal, why);
  close (dfd);
  return fd;
}

/* ---- commands ---------------------------------------------------------------------- */

typedef struct
{
  char  *p;
  size_t left;
} ListBuf;

static void
list_channel (const StrobeChannel *ch, void *user)
{
  ListBuf *b = user;
  int n;

  if (ch->read_only || b->left <= 1)
    return;
  n = snprintf (b->p, b->left, " %s=%s", ch->name, __atomic_load_n (&ch->enabled, __ATOMIC_RELAXED) ? "on" : "off");
  if (n < 0 || (size_t) n >= b->left)
    {
      b->left = 0;
      return;
    }
  b->p += n;
  b->left -= (size_t) n;
}

static void
publish (void)
{
  ctl.published_tracing = strobe_output_active ();
  if (ctl.discovery)
    strobe__discovery_publish (ctl.port, ctl.listen_all, ctl.published_tracing, ctl.secret);
}

/* tail=N of a send-to or write-to whose target is good: only then is history given up. */
static void
keep_tail (bool snapshot, long long tail)
{
  if (tail >= 0 && !snapshot)
    {
      pthread_mutex_lock (&strobe__update_lock);
      strobe__tail_keep_newest ((size_t) tail);
      pthread_mutex_unlock (&strobe__update_lock);
    }
}

/* `send-to HOST[:PORT]` or `write-to PATH`, for a new output or a snapshot. */
static void
cmd_target (Client *c, const char *verb, const char *arg, bool snapshot, long long tail)
{
  const char *why = NULL;
  bool refusal;
  int fd, err;
  bool ok;

  if (strcmp (verb, "send-to") == 0)
    {
      const char *problem = strobe__host_port_problem (arg);

      if (problem)
        {
          ctl.malformed++;
          reply (c, "error %s is not HOST[:PORT]: %s", arg, problem);
          return;
        }
      fd = strobe__connect_host (arg);
      if (fd < 0)
        {
          reply (c, "error cannot connect to %s: %s", arg, strobe__connect_error (errno));
          return;
        }
      keep_tail (snapshot, tail);
      ok = snapshot ? strobe__snapshot_fd (fd, true) : strobe__out_start_described (fd, true, "host", arg);
    }
  else
    {
      fd = open_trace_path (arg, c->remote, &refusal, &why);
      if (fd < 0)
        {
          if (refusal)
            ctl.refused++;
          reply (c, "error cannot write %s: %s", arg, why);
          return;
        }
      keep_tail (snapshot, tail);
      ok = snapshot ? strobe__snapshot_fd (fd, false) : strobe__out_start_described (fd, false, "file", arg);
    }
  err = errno;
  if (!snapshot)
    publish ();   /* before the reply: whoever got "ok" finds the new state */
  if (!ok)
    reply (c, "error %s %s failed: %s", verb, arg, strerror (err));
  else
    reply (c, "ok %s%s %s", snapshot ? "snapshot " : "", verb, arg);
}

static void
cmd_status (Client *c)
{
  char output[320];
  size_t tail_bytes, tail_packets, tail_limit;

  strobe__out_describe (output, sizeof output);
  pthread_mutex_lock (&strobe__update_lock);
  strobe__tail_stats (&tail_bytes, &tail_packets, &tail_limit);
  pthread_mutex_unlock (&strobe__update_lock);
  reply (c, "ok program=%s pid=%ld port=%u tracing=%d output=%s tail_bytes=%zu tail_packets=%zu "
         "tail_limit=%zu commands=%llu malformed=%llu oversize=%llu refused=%llu evicted=%llu",
         program_invocation_short_name, (long) getpid (), ctl.port, output[0] ? 1 : 0,
         output[0] ? output : "none", tail_bytes, tail_packets, tail_limit,
         (unsigned long long) ctl.commands, (unsigned long long) ctl.malformed,
         (unsigned long long) ctl.oversize, (unsigned long long) ctl.refused,
         (unsigned long long) ctl.evicted);
}

/* The clock is read last, right before the reply goes out: a peer estimating the offset
 * between its clock and ours takes the middle of its round trip as the moment we read it
 * (core/protocol/PROTOCOL.md §1, "Traces on one clock"). */
static void
cmd_clock (Client *c)
{
  uint8_t domain[16];
  char hex[33];
  uint64_t frequency = strobe_clock_frequency ();
  uint64_t ticks;

  strobe__clock_domain (domain);
  for (int i = 0; i < 16; i++)
    snprintf (hex + 2 * i, 3, "%02x", domain[i]);
  ticks = strobe_time ();
  reply (c, "ok clock frequency=%llu source=%u domain=%s ticks=%llu ns=%llu",
         (unsigned long long) frequency, (unsigned) strobe__clock_source (), hex,
         (unsigned long long) ticks,
         (unsigned long long) ((unsigned __int128) ticks * 1000000000u / frequency));
}

/* One step of the challenge–response. Only the step that makes the server prove itself is
 * paused after failures: a guess needs a proof to test against. */
static void
run_auth (Client *c, const StrobeControlCommand *cmd)
{
  char text[160];
  uint64_t now = now_ns ();

  c->progress_ns = now;   /* keep-alives are no progress: they would keep a peer forever */
  if (cmd->verb == STROBE_CONTROL_CMD_AUTH && now < ctl.auth_paused_until)
    {
      ctl.refused++;
      reply (c, "error busy: authentication paused for %llu ms after %u failed attempts; retry later",
             (unsigned long long) ((ctl.auth_paused_until - now) / 1000000u + 1), ctl.auth_failures);
      client_close (c);
      return;
    }
  switch (strobe__control_auth_step (&c->auth, cmd, ctl.secret, ctl.secret_len, text, sizeof text))
    {
    case STROBE_CONTROL_AUTH_CONTINUE:
      reply (c, "%s", text);
      break;
    case STROBE_CONTROL_AUTH_ACCEPTED:
      ctl.auth_failures = 0;
      reply (c, "%s", text);
      break;
    case STROBE_CONTROL_AUTH_FAILED:
      ctl.auth_failures++;
      if (ctl.secret_chosen)
        {
          unsigned shift = ctl.auth_failures - 1 < 16 ? ctl.auth_failures - 1 : 16;
          uint64_t ms = (uint64_t) PAUSE_BASE_MS << shift;

          ctl.auth_paused_until = now + (ms < PAUSE_MAX_MS ? ms : PAUSE_MAX_MS) * 1000000u;
        }
      /* fall through */
    case STROBE_CONTROL_AUTH_REFUSED:
      ctl.refused++;
      reply (c, "%s", text);
      client_close (c);
      break;
    }
  strobe_auth_wipe (text, sizeof text);
}

/* Words: the command, then arguments split on spaces; `write-to` takes the rest of the
 * line as its path. */
static void
run_command (Client *c, char *line)
{
  StrobeControlCommand cmd;

  strobe__control_parse (line, &cmd);
  if (cmd.verb == STROBE_CONTROL_CMD_AUTH || cmd.verb == STROBE_CONTROL_CMD_AUTH_PROOF)
    {
      run_auth (c, &cmd);
      return;
    }
  if (!authed (c) && cmd.verb != STROBE_CONTROL_CMD_EMPTY)
    {
      ctl.refused++;
      reply (c, "error authentication required: answer the challenge first (runtime/CONTROL.md, "
             "Authentication; the key is control_secret in the program's discovery file, or "
             "STROBE_CONTROL_SECRET)");
      return;
    }
  switch (cmd.verb)
    {
    case STROBE_CONTROL_CMD_EMPTY:
      return;   /* empty lines are keep-alives, not commands */
    case STROBE_CONTROL_CMD_UNKNOWN:
      ctl.malformed++;
      reply (c, "error %s", cmd.error);
      return;
    default:
      break;
    }

  ctl.commands++;
  switch (cmd.verb)
    {
    case STROBE_CONTROL_CMD_MALFORMED:
      ctl.malformed++;
      reply (c, "error %s", cmd.error);
      break;
    case STROBE_CONTROL_CMD_SEND_TO:
      cmd_target (c, "send-to", cmd.arg, false, cmd.tail);
      break;
    case STROBE_CONTROL_CMD_WRITE_TO:
      cmd_target (c, "write-to", cmd.arg, false, cmd.tail);
      break;
    case STROBE_CONTROL_CMD_SNAPSHOT_SEND_TO:
      cmd_target (c, "send-to", cmd.arg, true, -1);
      break;
    case STROBE_CONTROL_CMD_SNAPSHOT_WRITE_TO:
      cmd_target (c, "write-to", cmd.arg, true, -1);
      break;
    case STROBE_CONTROL_CMD_CHANNELS_LIST:
      {
        char list[1900];
        ListBuf b = { list, sizeof list };

        list[0] = '\0';
        strobe_channels_foreach (list_channel, &b);
        reply (c, "ok%s", list);
      }
      break;
    case STROBE_CONTROL_CMD_CHANNELS_SET:
      {
        char unmatched[512], refused[512];

        strobe__channels_set_reporting (cmd.arg, cmd.on, unmatched, sizeof unmatched, refused,
                                        sizeof refused);
        if (refused[0])
          reply (c, "error too many channel names to remember: %s matched no channel and was "
                 "not applied", refused);
        else if (unmatched[0])
          reply (c, "ok channels %s %s (no channel named %s yet: it applies if one registers)",
                 cmd.arg, cmd.on ? "on" : "off", unmatched);
        else
          reply (c, "ok channels %s %s", cmd.arg, cmd.on ? "on" : "off");
      }
      break;
    case STROBE_CONTROL_CMD_STOP:
      {
        bool was = strobe_output_active ();
        strobe_output_stop ();
        publish ();
        reply (c, was ? "ok stopped" : "ok not tracing");
      }
      break;
    case STROBE_CONTROL_CMD_STATUS:
      cmd_status (c);
      break;
    case STROBE_CONTROL_CMD_CLOCK:
      cmd_clock (c);
      break;
    case STROBE_CONTROL_CMD_CLOCK_OFFSET:
      strobe__emit_clock_offset (cmd.clock_offset.offset_ns, cmd.clock_offset.uncertainty_ns,
                                 cmd.clock_offset.rounds, cmd.clock_offset.domain);
      reply (c, "ok clock-offset %lld ns +- %llu ns recorded", (long long) cmd.clock_offset.offset_ns,
             (unsigned long long) cmd.clock_offset.uncertainty_ns);
      break;
    case STROBE_CONTROL_CMD_HELP:
      reply (c, "ok commands: send-to HOST[:PORT] [tail=BYTES] | write-to PATH [tail=BYTES] | channels [LIST on|off] | stop"
             " | snapshot send-to HOST[:PORT] | snapshot write-to PATH | status | clock"
             " | clock-offset domain=HEX32 offset=NS uncertainty=NS rounds=N | auth NONCE | auth-proof PROOF");
      break;
    case STROBE_CONTROL_CMD_EMPTY:
    case STROBE_CONTROL_CMD_UNKNOWN:
    case STROBE_CONTROL_CMD_AUTH:
    case STROBE_CONTROL_CMD_AUTH_PROOF:
      break;
    }
}

static bool
on_line (void *user, char *line)
{
  Client *c = user;

  run_command (c, line);
  return c->fd >= 0;
}

static bool
on_too_long (void *user)
{
  Client *c = user;

  ctl.oversize++;
  reply (c, "error line too long (limit %d bytes)", MAX_LINE);
  return c->fd >= 0;
}

/* Reads what the peer sent and runs each complete line. */
static void
client_read (Client *c)
{
  char buf[4096];
  ssize_t n = recv (c->fd, buf, sizeof buf, MSG_DONTWAIT);

  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
    return;
  if (n <= 0)
    {
      client_close (c);
      return;
    }
  c->spoke = true;
  strobe__control_read (&c->reader, buf, (size_t) n, on_line, on_too_long, c);
  if (c->fd >= 0 && c->reader.len == 0 && !c->reader.discarding)
    c->line_ns = 0;
  else if (c->fd >= 0 && c->line_ns == 0)
    c->line_ns = now_ns ();
}

/* True when the peer has sent bytes not read yet: it is talking, whatever it said before. */
static bool
has_pending (const Client *c)
{
  int n = 0;

  return ioctl (c->fd, FIONREAD, &n) == 0 && n > 0;
}

/* A slot for a new connection (the caller evicts whoever holds it). When all are taken,
 * a peer that has not authenticated gives its slot up: first one that never sent a byte
 * (a client sends an empty line as soon as it connects), the oldest first, then one that
 * has taken no step of the exchange for STALL_NS. A peer that has sent something (or whose
 * bytes wait to be read) and took its last step, or connected, within STALL_NS is never
 * evicted: peers that connect and say
 * nothing (hundreds of them, or a few that keep reconnecting) so cannot push out a real
 * client in the middle of its exchange. NULL with *wait: every unauthenticated peer is
 * still within its time; the newcomer waits in the listen backlog until one stalls. NULL
 * without: every slot is authenticated. */
static Client *
pick_slot (uint64_t now, bool *wait)
{
  Client *victim = NULL;

  *wait = false;
  for (int i = 0; i < MAX_CLIENTS; i++)
    if (ctl.clients[i].fd < 0)
      return &ctl.clients[i];
  for (int i = 0; i < MAX_CLIENTS; i++)
    {
      Client *c = &ctl.clients[i];

      if (authed (c))
        continue;
      if ((c->spoke || has_pending (c)) && now - c->progress_ns <= STALL_NS)
        {
          *wait = true;
          continue;
        }
      if (victim == NULL || (victim->spoke && !c->spoke)
          || (victim->spoke == c->spoke && c->progress_ns < victim->progress_ns))
        victim = c;
    }
  if (victim)
    *wait = false;
  return victim;
}

static void
evict (Client *c, uint64_t now)
{
  ctl.refused++;
  ctl.evicted++;
  reply (c, "error busy: evicted to make room for a new connection (this one had not "
         "authenticated and had not progressed for %llu ms); retry",
         (unsigned long long) ((now - c->progress_ns) / 1000000u));
  client_close (c);
}

/* When the next stalled peer may be evicted (a deadline for poll while newcomers wait). */
static uint64_t
next_stall (void)
{
  uint64_t next = UINT64_MAX;

  for (int i = 0; i < MAX_CLIENTS; i++)
    if (ctl.clients[i].fd >= 0 && !authed (&ctl.clients[i])
        && ctl.clients[i].progress_ns + STALL_NS + 1 < next)
      next = ctl.clients[i].progress_ns + STALL_NS + 1;
  return next;
}

/* Accepts what may be accepted now; false when newcomers must wait for a slot. */
static bool
accept_clients (void)
{
  for (int k = 0; k < ACCEPT_BATCH; k++)
    {
      uint64_t now = now_ns ();
      uint8_t nonce[STROBE_AUTH_NONCE_BYTES];
      char greeting[STROBE_CONTROL_GREETING_SIZE];
      static const char full[] = "error busy: too many control connections (all authenticated); "
                                 "retry later\n";
      bool wait;
      Client *c = pick_slot (now, &wait);
      int fd;

      if (c == NULL && wait)
        return false;
      fd = accept4 (ctl.listen_fd, NULL, NULL, SOCK_CLOEXEC);
      if (fd < 0)
        return true;
      if (c == NULL)
        {
          ctl.refused++;
          send (fd, full, sizeof full - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
          close (fd);
          continue;
        }
      if (!strobe_auth_nonce (nonce))
        {
          close (fd);
          continue;
        }
      if (c->fd >= 0)
        evict (c, now);
      c->fd = fd;
      c->reader.len = 0;
      c->reader.discarding = false;
      c->remote = !peer_is_loopback (fd);
      c->spoke = false;
      c->since_ns = c->progress_ns = now;
      c->line_ns = 0;
      /* The server speaks first: the challenge (strobe-control-auth.h). A client has sent
       * an empty line on connecting; reading it now marks it as talking before more
       * connections in this batch look for a slot. */
      strobe__control_auth_greet (&c->auth, nonce, greeting);
      reply (c, "%s", greeting);
      if (c->fd >= 0)
        client_read (c);
    }
  return true;
}

/* Drops connections that did not authenticate in time, and lines left unfinished. */
static void
expire_clients (void)
{
  uint64_t now = now_ns ();

  for (int i = 0; i < MAX_CLIENTS; i++)
    {
      Client *c = &ctl.clients[i];

      if (c->fd < 0)
        continue;
      if ((!authed (c) && now - c->since_ns > AUTH_TIMEOUT_NS)
          || (c->line_ns && now - c->line_ns > LINE_TIMEOUT_NS))
        {
          ctl.refused++;
          client_close (c);
        }
    }
}

static void *
control_main (void *data)
{
  (void) data;
  bool backlogged = false;   /* newcomers wait in the listen backlog */

  pthread_setname_np (pthread_self (), "strobe-control");
  strobe__own_thread_named ();
  strobe__thread_untraced ();
  publish ();
  for (;;)
    {
      struct pollfd pfd[2 + MAX_CLIENTS];
      int map[2 + MAX_CLIENTS];
      nfds_t n = 0;
      int rc, timeout = POLL_MS;

      pfd[n].fd = ctl.wake[0];
      pfd[n++].events = POLLIN;
      /* While newcomers wait for a peer to stall, the listener is not polled (it would
       * wake us at once, for nothing) until the first one may. */
      pfd[n].fd = backlogged ? -1 : ctl.listen_fd;
      pfd[n++].events = POLLIN;
      if (backlogged)
        {
          uint64_t next = next_stall (), now = now_ns ();
          uint64_t ms = next > now ? (next - now + 999999u) / 1000000u : 0;

          timeout = ms < (uint64_t) POLL_MS ? (int) ms : POLL_MS;
        }
      for (int i = 0; i < MAX_CLIENTS; i++)
        if (ctl.clients[i].fd >= 0)
          {
            map[n] = i;
            pfd[n].fd = ctl.clients[i].fd;
            pfd[n++].events = POLLIN;
          }
      rc = poll (pfd, n, timeout);
      if (rc < 0 && errno != EINTR)
        break;
      if (rc > 0 && pfd[0].revents)
        break;   /* shutdown */
      /* Connections first, new ones after: a client whose command is waiting is served
       * before newcomers may push out those that have not authenticated. */
      for (nfds_t i = 2; rc > 0 && i < n; i++)
        if (pfd[i].revents && ctl.clients[map[i]].fd == pfd[i].fd)
          client_read (&ctl.clients[map[i]]);
      if ((rc > 0 && (pfd[1].revents & POLLIN)) || backlogged)
        backlogged = !accept_clients ();
      expire_clients ();
      /* The output may also stop on its own (a write error, the program's own calls). */
      if (strobe_output_active () != ctl.published_tracing)
        publish ();
    }
  return NULL;
}

/* ---- start and stop ----------------------------------------------------------------- */

void
strobe__control_start (const StrobeInitOptions *o)
{
  long port = o->control_port > 0 ? o->control_port
              : o->control_port < 0 ? 0
              : env_port ();
  const char *dir = o->control_write_dir ? o->control_write_dir : getenv ("STROBE_CONTROL_WRITE_DIR");
  sigset_t all, old;

  if (ctl.running || port == 0 || !make_secret ())
    return;
  for (int i = 0; i < MAX_CLIENTS; i++)
    ctl.clients[i].fd = -1;
  ctl.listen_all = (o->control_flags & STROBE_CONTROL_LISTEN_ALL) || env_is ("STROBE_CONTROL_LISTEN", "all");
  ctl.discovery = !(o->control_flags & STROBE_CONTROL_NO_DISCOVERY) && !env_is ("STROBE_DISCOVERY", "0");
  if (dir && *dir)
    {
      ctl.write_dir = realpath (dir, NULL);
      if (ctl.write_dir == NULL)
        fprintf (stderr, "strobe: control write directory %s: %s; write-to stays loopback-only\n",
                 dir, strerror (errno));
      else if (strcmp (ctl.write_dir, "/") == 0)
        {
          /* "Inside /" is everywhere: the same as no restriction at all. */
          fprintf (stderr, "strobe: control write directory / refused\n");
          free (ctl.write_dir);
          ctl.write_dir = NULL;
        }
    }
  if (!open_listener ((uint16_t) port))
    {
      fprintf (stderr, "strobe: no control server: %s\n", strerror (errno));
      return;
    }
  if (pipe2 (ctl.wake, O_CLOEXEC) < 0)
    {
      close (ctl.listen_fd);
      ctl.listen_fd = -1;
      return;
    }
  strobe_set_control_port (ctl.port);
  publish ();   /* before strobe_init returns: a tool started after it finds us */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  strobe__own_thread_begin ();
  ctl.running = pthread_create (&ctl.thread, NULL, control_main, NULL) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (!ctl.running)
    {
      strobe__own_thread_named ();
      close (ctl.listen_fd);
      close (ctl.wake[0]);
      close (ctl.wake[1]);
      ctl.listen_fd = ctl.wake[0] = ctl.wake[1] = -1;
      strobe_set_control_port (0);
      strobe__discovery_remove ();
    }
}

bool
strobe__control_running (void)
{
  return ctl.running;
}

/* In a forked child: the listening socket and the connections are the parent's (the
 * child closes only its copies), and the control thread does not exist here. */
void
strobe__control_after_fork_child (void)
{
  if (!ctl.running)
    return;
  for (int i = 0; i < MAX_CLIENTS; i++)
    if (ctl.clients[i].fd >= 0)
      {
        close (ctl.clients[i].fd);
        ctl.clients[i].fd = -1;
      }
  close (ctl.listen_fd);
  close (ctl.wake[0]);
  close (ctl.wake[1]);
  ctl.listen_fd = ctl.wake[0] = ctl.wake[1] = -1;
  ctl.running = false;
  free (ctl.write_dir);
  ctl.write_dir = NULL;
  strobe_set_control_port (0);
}

void
strobe__control_stop (void)
{
  if (!ctl.running)
    return;
  while (write (ctl.wake[1], "q", 1) < 0 && errno == EINTR)
    ;
  pthread_join (ctl.thread, NULL);
  ctl.running = false;
  for (int i = 0; i < MAX_CLIENTS; i++)
    client_close (&ctl.clients[i]);
  close (ctl.listen_fd);
  close (ctl.wake[0]);
  close (ctl.wake[1]);
  ctl.listen_fd = ctl.wake[0] = ctl.wake[1] = -1;
  strobe_set_control_port (0);
  strobe__discovery_remove ();
  free (ctl.write_dir);
  ctl.write_dir = NULL;
}
