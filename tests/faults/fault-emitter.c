/* fault-emitter.c — a traced program for tests/faults/test-faults.c.
 *
 * Usage: fault-emitter MODE ARGS...; it reports on stdout, one line per fact, and takes
 * instructions on stdin. The runtime is started with no control server and no discovery
 * file, so runs never see each other.
 *
 *   kill FILE                    emit Fault.Seq forever; after each strobe_flush() print
 *                                "flushed N": events 0..N-1 are in FILE (for SIGKILL)
 *   fsize FILE BYTES             RLIMIT_FSIZE = BYTES, SIGXFSZ ignored; emit until the
 *                                output fails, print "error ERRNO active A", keep emitting,
 *                                print "alive N", exit 0
 *   stall HOST:PORT BUFFER SECS  buffer limit BUFFER bytes; two threads emit for SECS while
 *                                the main thread samples VmRSS and watches a thread that
 *                                calls strobe_get_stats in a loop; print "stalled
 *                                attempts=A rss_start=K rss_max=K stats_blocked_ms=M
 *                                memory_max=B limit=B", wait for a line on stdin, then
 *                                "stats emitted=E dropped=D memory=M limit=L", shut down
 *   reconnect HOST:PORT          emit until the output fails; print "error ERRNO"; read a
 *                                new HOST:PORT on stdin, print "reconnected OK", emit 1000
 *                                events of phase 2, shut down
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <strobe/strobe.h>

STROBE_CHANNEL_DEFINE (FaultChannel);

/* Synchronised (carries a serial), with an aux string so events are of some size. */
STROBE_EVENT (Fault, Seq, 0,
              STROBE_FIELD (uint32, Thread)
              STROBE_FIELD (uint32, Phase)
              STROBE_FIELD (uint64, Seq)
              STROBE_FIELD (ansi, Pad))

static const char pad[] =
  "fault-emitter padding: the quick brown fox jumps over the lazy dog 0123456789 "
  "fault-emitter padding: the quick brown fox jumps over the lazy dog 0123456789";

static inline void
emit (uint32_t thread, uint32_t phase, uint64_t seq)
{
  STROBE_LOG (Fault, Seq, FaultChannel)
    {
      STROBE_SET (Thread, thread);
      STROBE_SET (Phase, phase);
      STROBE_SET (Seq, seq);
      STROBE_SET_STRING_N (Pad, pad, 16 + seq % 100);
    }
}

static void
say (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vprintf (format, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
}

static void
start (size_t buffer_bytes)
{
  StrobeInitOptions o = { 0 };

  o.buffer_bytes = buffer_bytes;
  o.control_port = STROBE_CONTROL_NONE;
  o.control_flags = STROBE_CONTROL_NO_DISCOVERY;
  strobe_init (&o);
  strobe_channel_set_enabled ("Fault", true);
}

static int
mode_kill (const char *path)
{
  start (0);
  if (!strobe_output_file (path))
    {
      perror ("fault-emitter: output");
      return 1;
    }
  for (uint64_t seq = 0;; seq++)
    {
      emit (0, 1, seq);
      if (seq % 256 == 255)
        {
          strobe_flush ();
          say ("flushed %" PRIu64, seq + 1);
        }
    }
}

static int
mode_fsize (const char *path, const char *limit)
{
  struct rlimit rl;
  uint64_t seq = 0;
  int err;

  rl.rlim_cur = rl.rlim_max = strtoull (limit, NULL, 10);
  signal (SIGXFSZ, SIG_IGN);
  if (setrlimit (RLIMIT_FSIZE, &rl) != 0)
    {
      perror ("fault-emitter: setrlimit");
      return 1;
    }
  start (0);
  if (!strobe_output_file (path))
    {
      perror ("fault-emitter: output");
      return 1;
    }
  while ((err = strobe_output_error ()) == 0 && seq < 100u * 1000u * 1000u)
    {
      emit (0, 1, seq++);
      if (seq % 256 == 0)
        strobe_flush ();
    }
  say ("error %d active %d", err, strobe_output_active ());
  /* The program goes on, tracing into nothing. */
  for (int i = 0; i < 100000; i++)
    emit (0, 2, seq++);
  strobe_flush ();
  say ("alive %" PRIu64, seq);
  strobe_shutdown ();
  return 0;
}

static int stall_stop;
static uint64_t stall_attempts[2];

static void *
stall_thread (void *data)
{
  uint32_t index = (uint32_t) (uintptr_t) data;
  uint64_t seq = 0;

  while (!__atomic_load_n (&stall_stop, __ATOMIC_RELAXED))
    emit (index, 1, seq++);
  stall_attempts[index] = seq;
  return NULL;
}

static long
rss_kib (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long kib = -1;

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "VmRSS:", 6) == 0)
      kib = strtol (line + 6, NULL, 10);
  fclose (f);
  return kib;
}

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Calls strobe_get_stats() in a loop and notes when each call returned, so the main
 * thread can see (without calling it itself) whether it is held up by the output. */
static double probe_last_ms;
static uint64_t probe_memory_max, probe_limit;

static void *
probe_thread (void *data)
{
  while (!__atomic_load_n (&stall_stop, __ATOMIC_RELAXED))
    {
      StrobeStats st;
      double t;

      strobe_get_stats (&st);
      if (st.buffer_memory > probe_memory_max)
        probe_memory_max = st.buffer_memory;
      probe_limit = st.buffer_limit;
      t = now_ms ();
      __atomic_store (&probe_last_ms, &t, __ATOMIC_RELAXED);
      usleep (5000);
    }
  return NULL;
}

static int
mode_stall (const char *host, const char *buffer, const char *seconds)
{
  pthread_t threads[2], probe;
  double end, probe_gap_max = 0;
  long rss_start, rss_max;
  char line[64];
  StrobeStats st;

  start ((size_t) strtoull (buffer, NULL, 10));
  if (!strobe_output_host (host))
    {
      perror ("fault-emitter: output");
      return 1;
    }
  rss_start = rss_max = rss_kib ();
  probe_last_ms = now_ms ();
  pthread_create (&probe, NULL, probe_thread, NULL);
  for (uintptr_t i = 0; i < 2; i++)
    pthread_create (&threads[i], NULL, stall_thread, (void *) i);
  end = now_ms () + atof (seconds) * 1000;
  while (now_ms () < end)
    {
      double last, gap;
      long rss = rss_kib ();

      rss_max = rss > rss_max ? rss : rss_max;
      __atomic_load (&probe_last_ms, &last, __ATOMIC_RELAXED);
      gap = now_ms () - last;
      probe_gap_max = gap > probe_gap_max ? gap : probe_gap_max;
      usleep (20000);
    }
  __atomic_store_n (&stall_stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2; i++)
    pthread_join (threads[i], NULL);
  pthread_join (probe, NULL);   /* before its figures are read (ThreadSanitizer) */
  say ("stalled attempts=%" PRIu64 " rss_start=%ld rss_max=%ld stats_blocked_ms=%.0f "
       "memory_max=%" PRIu64 " limit=%" PRIu64,
       stall_attempts[0] + stall_attempts[1], rss_start, rss_max, probe_gap_max,
       probe_memory_max, probe_limit);
  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;
  strobe_get_stats (&st);
  say ("stats emitted=%" PRIu64 " dropped=%" PRIu64 " memory=%" PRIu64 " limit=%" PRIu64,
       st.events_emitted, st.events_dropped, st.buffer_memory, st.buffer_limit);
  strobe_shutdown ();
  return 0;
}

static int
mode_reconnect (const char *host)
{
  char line[256];
  uint64_t seq = 0;
  int err;

  start (0);
  if (!strobe_output_host (host))
    {
      perror ("fault-emitter: output");
      return 1;
    }
  while ((err = strobe_output_error ()) == 0)
    {
      emit (0, 1, seq++);
      if (seq % 256 == 0)
        strobe_flush ();
    }
  say ("error %d", err);
  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;
  line[strcspn (line, "\n")] = '\0';
  say ("reconnected %s", strobe_output_host (line) ? "OK" : strerror (errno));
  for (uint64_t i = 0; i < 1000; i++)
    emit (0, 2, i);
  strobe_shutdown ();
  return strobe_output_error () == 0 ? 0 : 1;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc == 3 && strcmp (argv[1], "kill") == 0)
    return mode_kill (argv[2]);
  if (argc == 4 && strcmp (argv[1], "fsize") == 0)
    return mode_fsize (argv[2], argv[3]);
  if (argc == 5 && strcmp (argv[1], "stall") == 0)
    return mode_stall (argv[2], argv[3], argv[4]);
  if (argc == 3 && strcmp (argv[1], "reconnect") == 0)
    return mode_reconnect (argv[2]);
  fprintf (stderr, "usage: fault-emitter kill FILE | fsize FILE BYTES | "
           "stall HOST:PORT BUFFER SECS | reconnect HOST:PORT\n");
  return 2;
}
