/* control-target.c — an instrumented program that starts with no output, for the
 * control tests: it declares everything up front (schemas, an important "spec", thread
 * names), then two threads emit events on channels Alpha (on from the start) and Beta
 * (off until a client turns it on) until stdin closes or "quit" is read.
 *
 * Prints "ready PORT" once the control server listens, and "time T" (strobe_time()) for
 * each "time" line read. Every event carries its time, so a test can check that no Beta
 * event lies outside the window Beta was on.
 * Usage: control-target [PERIOD_US]   (the pause between events of one thread, 200) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

STROBE_CHANNEL_DEFINE (AlphaChannel);
STROBE_CHANNEL_DEFINE (BetaChannel);

STROBE_EVENT (Ctl, Spec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (ansi, Name))
STROBE_EVENT (Ctl, Alpha, 0,
              STROBE_FIELD (uint64, Time)
              STROBE_FIELD (uint32, Seq))
STROBE_EVENT (Ctl, Beta, 0,
              STROBE_FIELD (uint64, Time)
              STROBE_FIELD (uint32, Seq)
              STROBE_FIELD (ansi, Note))

static volatile int quit;
static long period_us = 200;

static void
nap (void)
{
  struct timespec ts = { 0, period_us * 1000 };
  if (period_us > 0)
    nanosleep (&ts, NULL);
}

static void *
alpha_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("alpha-worker", "workers", 1);
  for (uint32_t seq = 0; !__atomic_load_n (&quit, __ATOMIC_RELAXED); seq++)
    {
      STROBE_LOG (Ctl, Alpha, AlphaChannel)
        {
          STROBE_SET (Time, strobe_time ());
          STROBE_SET (Seq, seq);
        }
      nap ();
    }
  return NULL;
}

static void *
beta_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("beta-worker", "workers", 2);
  for (uint32_t seq = 0; !__atomic_load_n (&quit, __ATOMIC_RELAXED); seq++)
    {
      STROBE_LOG (Ctl, Beta, BetaChannel)
        {
          STROBE_SET (Time, strobe_time ());
          STROBE_SET (Seq, seq);
          STROBE_SET_STRING (Note, "beta");
        }
      nap ();
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t a, b;
  char line[256];

  if (argc > 1)
    period_us = strtol (argv[1], NULL, 10);
  strobe_channel_set_enabled ("Alpha", true);
  if (!strobe_init (NULL))
    return 1;
  strobe_thread_set_name ("main", NULL, 0);
  STROBE_LOG (Ctl, Spec, AlphaChannel)
    {
      STROBE_SET (Id, 7);
      STROBE_SET_STRING (Name, "declared-before-connect");
    }
  pthread_create (&a, NULL, alpha_main, NULL);
  pthread_create (&b, NULL, beta_main, NULL);
  printf ("ready %u\n", strobe_get_control_port ());
  fflush (stdout);
  while (fgets (line, sizeof line, stdin) && strncmp (line, "quit", 4) != 0)
    if (strncmp (line, "time", 4) == 0)
      {
        /* A clock reading in the trace's time base, for "before the connect" checks. */
        printf ("time %llu\n", (unsigned long long) strobe_time ());
        fflush (stdout);
      }
  __atomic_store_n (&quit, 1, __ATOMIC_RELAXED);
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  strobe_shutdown ();
  return 0;
}
