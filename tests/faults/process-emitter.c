/* process-emitter.c — the runtime inside a real program, for tests/faults/test-process.c:
 * fork(), signal handlers, counters shared by threads, the program's own strobe_init()
 * options against the environment's automatic start.
 *
 * Usage: process-emitter MODE [ARGS…]. The runtime starts from the environment the test
 * sets (STROBE_TRACE=Proc…, STROBE_TRACEFILE or STROBE_TRACEHOST); each mode prints its
 * facts on stdout, one per line.
 *
 *   fork N          emit N Proc.Seq of phase 0, fork while a second thread emits phase 3;
 *                   the child emits N of phase 1 and exits with exit(); the parent waits
 *                   for it, emits N of phase 2, prints "child PID" and "status S", exits
 *   signals N HZ    a SIGALRM handler at HZ emits Proc.Tick events and a CPU scope
 *                   "handler"; the main thread emits N Proc.Seq (with an aux string) each
 *                   inside a CPU scope "main"; prints "ticks T" (handler runs), "dropped D"
 *   counters T N    T threads add 1 to one counter N times each; prints "final V"
 *   options         calls strobe_init() with control_port = STROBE_CONTROL_NONE and
 *                   no_worker; prints "port P", then "shipped_while_idle B" (bytes the
 *                   worker shipped in 300 ms: 0 when it is gone), "shipped_by_update B"
 *   outerr          strobe_output_file() into a missing directory, strobe_output_host() to
 *                   port 99999: prints "file E" and "host E", the strobe_output_error()s
 *   env             starts and stops the runtime (the test reads stderr); prints "verbose V":
 *                   whether a VeryVerbose message of category ProcLog would be logged
 *   args ARGS…      strobe_parse_args(), prints "rest ARG…" (what it left), starts and stops
 *   evil            names its thread, a CPU scope and a log message with terminal escapes
 *                   (OSC 52, CSI, C1 NEXT LINE, a right-to-left override); run with an
 *                   argv[0] that holds some too
 *   serve           with its control server: prints "ready PORT", emits Proc.Seq (phase 0)
 *                   every 200 µs until stdin closes, then shuts down
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <strobe/strobe.h>

STROBE_CHANNEL_DEFINE (ProcChannel);
STROBE_LOG_CATEGORY_DEFINE (ProcLog, STROBE_LOG_VERBOSITY_LOG);

STROBE_EVENT (Proc, Seq, 0,
              STROBE_FIELD (uint32, Phase)
              STROBE_FIELD (uint64, Seq)
              STROBE_FIELD (ansi, Pad))
STROBE_EVENT (Proc, Tick, 0,
              STROBE_FIELD (uint64, Seq))

static void
emit (uint32_t phase, uint64_t seq)
{
  STROBE_LOG (Proc, Seq, ProcChannel)
    {
      STROBE_SET (Phase, phase);
      STROBE_SET (Seq, seq);
      STROBE_SET_STRING_N (Pad, "padding padding padding padding padding padding", 8 + seq % 32);
    }
}

static void
nap_us (long us)
{
  struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
  nanosleep (&ts, NULL);
}

/* ---- fork ------------------------------------------------------------------------------ */

static volatile int stop_background;
static volatile int background_emitted;

static void *
background (void *data)
{
  (void) data;
  for (uint64_t seq = 0; !__atomic_load_n (&stop_background, __ATOMIC_RELAXED); seq++)
    {
      emit (3, seq);
      __atomic_store_n (&background_emitted, 1, __ATOMIC_RELEASE);
      if (seq % 64 == 0)
        nap_us (50);
    }
  return NULL;
}

static int
mode_fork (long n)
{
  pthread_t thread;
  pid_t child;
  int status = 0;

  for (long i = 0; i < n; i++)
    emit (0, (uint64_t) i);
  pthread_create (&thread, NULL, background, NULL);
  /* The fork comes while the thread emits: on a loaded machine (the test suite on two
   * cores) it may not have run at all 20 ms after it was made. */
  while (!__atomic_load_n (&background_emitted, __ATOMIC_ACQUIRE))
    nap_us (1000);
  nap_us (20000);
  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      for (long i = 0; i < n; i++)
        emit (1, (uint64_t) i);
      exit (0);   /* runs the atexit handlers: the runtime's shutdown among them */
    }
  waitpid (child, &status, 0);
  for (long i = 0; i < n; i++)
    emit (2, (uint64_t) i);
  __atomic_store_n (&stop_background, 1, __ATOMIC_RELAXED);
  pthread_join (thread, NULL);
  printf ("child %ld\nstatus %d\n", (long) child, status);
  return 0;
}

/* ---- signals --------------------------------------------------------------------------- */

static volatile uint64_t ticks;

static void
on_alarm (int sig)
{
  int saved = errno;

  (void) sig;
  {
    STROBE_CPU_SCOPE ("handler");
    STROBE_LOG (Proc, Tick, ProcChannel)
      STROBE_SET (Seq, ticks);
  }
  ticks++;
  errno = saved;
}

static int
mode_signals (long n, long hz)
{
  struct sigaction sa = { 0 };
  struct itimerval it = { { 0, 1000000 / hz }, { 0, 1000000 / hz } };
  StrobeStats stats;

  /* The handler's sites run once before a signal can (a site's first use locks and
   * allocates: runtime/README.md, "Signal handlers"). A scope of the same name elsewhere
   * is another site: pre-registering one left the handler's own to register in the
   * handler, which deadlocked on the spec lock when the signal came while the loop's
   * "main" below registered (1 run in 30 under ASan). Its Tick says UINT64_MAX. */
  ticks = UINT64_MAX;
  on_alarm (0);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGALRM, &sa, NULL);
  setitimer (ITIMER_REAL, &it, NULL);
  for (long i = 0; i < n; i++)
    {
      STROBE_CPU_SCOPE ("main");
      emit (0, (uint64_t) i);
    }
  memset (&it, 0, sizeof it);
  setitimer (ITIMER_REAL, &it, NULL);
  strobe_flush ();
  strobe_get_stats (&stats);
  printf ("ticks %" PRIu64 "\ndropped %" PRIu64 "\n", ticks, stats.events_dropped);
  return 0;
}

/* ---- counters -------------------------------------------------------------------------- */

STROBE_COUNTER_DEFINE (shared_counter, "Proc/shared", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);

static long per_thread;

static void *
adder (void *data)
{
  (void) data;
  for (long i = 0; i < per_thread; i++)
    strobe_counter_add_int (&shared_counter, 1);
  return NULL;
}

static int
mode_counters (long threads, long n)
{
  pthread_t t[64];

  per_thread = n;
  if (threads > 64)
    threads = 64;
  for (long i = 0; i < threads; i++)
    pthread_create (&t[i], NULL, adder, NULL);
  for (long i = 0; i < threads; i++)
    pthread_join (t[i], NULL);
  printf ("final %" PRId64 "\n", strobe_counter_get_int (&shared_counter));
  return 0;
}

/* ---- the program's own options ---------------------------------------------------------- */

static int
mode_options (void)
{
  StrobeInitOptions o = { 0 };
  StrobeStats before, idle, after;

  o.control_port = STROBE_CONTROL_NONE;
  o.no_worker = true;
  if (!strobe_init (&o))
    return 1;
  printf ("port %u\n", strobe_get_control_port ());
  strobe_get_stats (&before);
  for (int i = 0; i < 100; i++)
    emit (0, (uint64_t) i);
  nap_us (300000);
  strobe_get_stats (&idle);
  strobe_update ();
  strobe_get_stats (&after);
  printf ("shipped_while_idle %" PRIu64 "\nshipped_by_update %" PRIu64 "\n",
          idle.bytes_sent - before.bytes_sent, after.bytes_sent - idle.bytes_sent);
  return 0;
}

#define EVIL "a\x1b]52;c;aGk=\x07" "b\x1b[2Jc\xc2\x85" "d\xe2\x80\xae" "e"

static int
mode_evil (void)
{
  if (!strobe_init (NULL))
    return 1;
  strobe_thread_set_name ("thread-" EVIL, "group-" EVIL, 0);
  {
    uint32_t heap = strobe_memory_heap_register ("heap-" EVIL, STROBE_MEMORY_HEAP_SYSTEM, 0);
    uint32_t tag = strobe_memory_tag_register ("tag-" EVIL, STROBE_MEMORY_TAG_NONE);
    static char block[64];

    strobe_memory_tag_push (tag);
    strobe_memory_alloc (block, sizeof block, 0, heap);
    strobe_memory_tag_pop ();
  }
  for (int i = 0; i < 3; i++)
    {
      STROBE_CPU_SCOPE_DYNAMIC ("scope-" EVIL);
      STROBE_LOG_MESSAGE (ProcLog, STROBE_LOG_WARNING, "message-%s-%d", EVIL, i);
      emit (0, (uint64_t) i);
    }
  strobe_shutdown ();
  return 0;
}

static void *
steady (void *data)
{
  (void) data;
  for (uint64_t seq = 0; !__atomic_load_n (&stop_background, __ATOMIC_RELAXED); seq++)
    {
      emit (0, seq);
      nap_us (200);
    }
  return NULL;
}

static int
mode_serve (void)
{
  char line[64];
  pthread_t thread;

  if (!strobe_init (NULL))
    return 1;
  printf ("ready %u\n", strobe_get_control_port ());
  pthread_create (&thread, NULL, steady, NULL);
  while (fgets (line, sizeof line, stdin))
    ;
  __atomic_store_n (&stop_background, 1, __ATOMIC_RELAXED);
  pthread_join (thread, NULL);
  strobe_shutdown ();
  return 0;
}

int
main (int argc, char **argv)
{
  int rc = 2;

  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc >= 3 && strcmp (argv[1], "fork") == 0)
    rc = mode_fork (atol (argv[2]));
  else if (argc >= 4 && strcmp (argv[1], "signals") == 0)
    rc = mode_signals (atol (argv[2]), atol (argv[3]));
  else if (argc >= 4 && strcmp (argv[1], "counters") == 0)
    rc = mode_counters (atol (argv[2]), atol (argv[3]));
  else if (argc >= 2 && strcmp (argv[1], "options") == 0)
    rc = mode_options ();
  else if (argc >= 2 && strcmp (argv[1], "env") == 0)
    {
      rc = strobe_init (NULL) ? 0 : 1;
      printf ("verbose %d\n", ProcLog.verbosity >= STROBE_LOG_VERY_VERBOSE);
    }
  else if (argc >= 2 && strcmp (argv[1], "outerr") == 0)
    {
      rc = strobe_init (NULL) ? 0 : 1;
      strobe_output_file ("/nonexistent-strobe-dir/x.strobe");
      printf ("file %d\n", strobe_output_error ());
      strobe_output_host ("127.0.0.1:99999");
      printf ("host %d\n", strobe_output_error ());
    }
  else if (argc >= 2 && strcmp (argv[1], "evil") == 0)
    rc = mode_evil ();
  else if (argc >= 2 && strcmp (argv[1], "serve") == 0)
    rc = mode_serve ();
  else if (argc >= 2 && strcmp (argv[1], "args") == 0)
    {
      strobe_parse_args (&argc, &argv);
      printf ("rest");
      for (int i = 1; i < argc; i++)
        printf (" %s", argv[i]);
      printf ("\n");
      rc = strobe_init (NULL) ? 0 : 1;
      strobe_shutdown ();
    }
  else
    fprintf (stderr, "usage: process-emitter fork N | signals N HZ | counters T N | options | env\n");
  fflush (stdout);
  return rc;
}
