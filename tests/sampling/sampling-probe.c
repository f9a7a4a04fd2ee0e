/* sampling-probe.c — programs whose sampled behaviour is known, for the Sampling tests.
 *
 *   sampling-probe attribution   scope "Slow" (about 0.6 s): ~90 % in leaf_hot(), ~10 % in
 *                                leaf_cold(), both called from slow_work()
 *   sampling-probe states        thread "Pattern": 3 × (sleep 60 ms, spin 60 ms of CPU, wait
 *                                ~60 ms on a mutex thread "Holder" holds), each in a scope
 *                                of that name ("Sleep", "Spin", "Wait")
 *   sampling-probe late SECONDS  spins in scopes "Tick" until SECONDS passed (the control
 *                                server toggles the channel meanwhile)
 *   sampling-probe bigframe      scope "Big": 0.3 s of CPU in big_frame(), whose frame is
 *                                16 KiB (deeper than the default stack copy of 8 KiB)
 *   sampling-probe threads       4 threads started after sampling began, each spins 200 ms
 *                                in leaf_hot() inside scope "Worker"; and a thread named
 *                                "untraced" that spins 500 ms and traces nothing
 *
 * Built with -fno-omit-frame-pointer (and a second time without, see meson.build). The
 * leaves are noinline and do floating-point work the optimiser cannot drop. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <strobe/strobe.h>

/* Per thread: the "threads" mode's workers all write it (a data race for TSan if shared). */
static _Thread_local volatile double sink;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* CPU time of this thread, so the 90/10 split holds on a loaded machine too. */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

__attribute__ ((noinline)) static void
leaf_hot (double seconds)
{
  double until = cpu_s () + seconds;
  double x = 1.0;

  while (cpu_s () < until)
    for (int i = 0; i < 100000; i++)   /* ~0.1 ms: the clock read is a small part */
      x = x * 1.0000001 + 1e-9;
  sink += x;
}

__attribute__ ((noinline)) static void
leaf_cold (double seconds)
{
  double until = cpu_s () + seconds;
  double x = 2.0;

  while (cpu_s () < until)
    for (int i = 0; i < 100000; i++)
      x = x * 0.9999999 + 1e-9;
  sink += x;
}

__attribute__ ((noinline)) static void
slow_work (void)
{
  for (int i = 0; i < 20; i++)
    {
      leaf_hot (0.027);
      leaf_cold (0.003);
    }
}

static void
attribution (void)
{
  STROBE_CPU_SCOPE ("Slow");
  slow_work ();
}

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  step_cond = PTHREAD_COND_INITIALIZER;
static int             step;

static void
sleep_s (double s)
{
  struct timespec ts = { (time_t) s, (long) ((s - (double) (time_t) s) * 1e9) };

  nanosleep (&ts, NULL);
}

static void
set_step (int s)
{
  pthread_mutex_lock (&step_lock);
  step = s;
  pthread_cond_broadcast (&step_cond);
  pthread_mutex_unlock (&step_lock);
}

static void
wait_step (int s)
{
  pthread_mutex_lock (&step_lock);
  while (step < s)
    pthread_cond_wait (&step_cond, &step_lock);
  pthread_mutex_unlock (&step_lock);
}

/* Cycle k: Holder takes the lock (step 3k+1); Pattern sleeps, spins, says it wants the
 * lock (3k+2) and blocks on it; Holder keeps it 60 ms more, gives it back, and waits
 * until Pattern is through (3k+3). So "Wait" is ~60 ms blocked whatever the load. */
static void *
holder_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("Holder", NULL, 0);
  for (int k = 0; k < 3; k++)
    {
      pthread_mutex_lock (&held);
      set_step (3 * k + 1);
      wait_step (3 * k + 2);
      sleep_s (0.06);
      pthread_mutex_unlock (&held);
      wait_step (3 * k + 3);
    }
  return NULL;
}

static void *
pattern_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("Pattern", NULL, 0);
  sleep_s (0.05);   /* sampling finds a new thread within a worker round */
  for (int k = 0; k < 3; k++)
    {
      wait_step (3 * k + 1);
      {
        STROBE_CPU_SCOPE ("Sleep");
        sleep_s (0.06);
      }
      {
        STROBE_CPU_SCOPE ("Spin");
        leaf_hot (0.06);
      }
      set_step (3 * k + 2);
      {
        STROBE_CPU_SCOPE ("Wait");
        pthread_mutex_lock (&held);
        pthread_mutex_unlock (&held);
      }
      set_step (3 * k + 3);
    }
  return NULL;
}

static void
states (void)
{
  pthread_t a, b;

  pthread_create (&b, NULL, holder_main, NULL);
  pthread_create (&a, NULL, pattern_main, NULL);
  pthread_join (a, NULL);
  pthread_join (b, NULL);
}

static void
late (double seconds)
{
  double end = now_s () + seconds;

  while (now_s () < end)
    {
      STROBE_CPU_SCOPE ("Tick");
      leaf_hot (0.005);
      sleep_s (0.005);
    }
}

static void *
worker_main (void *data)
{
  (void) data;
  STROBE_CPU_SCOPE ("Worker");
  leaf_hot (0.2);
  return NULL;
}

/* A frame bigger than a stack copy: an unwinder from the copy cannot reach the caller. */
__attribute__ ((noinline)) static void
big_frame (double seconds)
{
  volatile char buffer[16384];
  double until = cpu_s () + seconds;

  /* Every page of the frame written once: the kernel copies the user stack without
   * faulting (copy_from_user_nmi), so a page of the frame never touched ends the copy
   * there — a 32 KiB copy then held 4.5 KiB in some runs and 17-20 KiB in others,
   * depending on how deep the thread's stack had been before. */
  for (size_t i = 0; i < sizeof buffer; i += 1024)
    buffer[i] = 1;
  buffer[sizeof buffer - 1] = 1;
  while (cpu_s () < until)
    for (int i = 0; i < 100000; i++)
      buffer[i & 4095] += (char) i;
}

static void
bigframe (void)
{
  STROBE_CPU_SCOPE ("Big");
  big_frame (0.3);
}

/* A thread of the program that never emits an event: no stream, only samples. */
static void *
untraced_main (void *data)
{
  (void) data;
  prctl (PR_SET_NAME, "untraced", 0, 0, 0);
  /* Longer than the workers: alive at the scan their end starts, which names it. */
  leaf_hot (0.5);
  return NULL;
}

static void
threads (void)
{
  pthread_t t[5];

  /* Sampling starts at the worker's first round: let it, then start the threads. */
  sleep_s (0.1);
  for (int i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker_main, NULL);
  pthread_create (&t[4], NULL, untraced_main, NULL);
  for (int i = 0; i < 5; i++)
    pthread_join (t[i], NULL);
  /* A round after it is gone: its ThreadEnd. */
  sleep_s (0.1);
}

int
main (int argc, char **argv)
{
  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);
  strobe_thread_set_name ("Main", NULL, 0);
  /* For tests that drive it through the control server: the discovery file is there. */
  printf ("ready\n");
  fflush (stdout);
  if (argc < 2)
    {
      fprintf (stderr, "usage: sampling-probe attribution|states|late SECONDS|threads|bigframe\n");
      return 2;
    }
  /* Give the worker a round to start sampling before the part that is measured. */
  sleep_s (0.05);
  if (strcmp (argv[1], "attribution") == 0)
    attribution ();
  else if (strcmp (argv[1], "states") == 0)
    states ();
  else if (strcmp (argv[1], "late") == 0 && argc > 2)
    late (atof (argv[2]));
  else if (strcmp (argv[1], "threads") == 0)
    threads ();
  else if (strcmp (argv[1], "bigframe") == 0)
    bigframe ();
  else
    return 2;
  strobe_shutdown ();
  return 0;
}
