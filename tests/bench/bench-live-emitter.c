/* bench-live-emitter.c — the program strobe-bench-timeline streams to its recorder: two
 * threads of steady work (about 200 000 scopes a second in a call tree), a main thread
 * that runs a game loop of short scopes and, every 50 ms, one "Probe" scope, whose end the
 * benchmark times until the viewer draws it. No flushes: scopes ship as the runtime ships
 * them (a busy thread's batch within 20 ms).
 *
 * Usage: STROBE_TRACEHOST=127.0.0.1:PORT bench-live-emitter SECONDS
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <strobe/strobe.h>
#include <time.h>

static atomic_bool done;

static void
nap_us (long us)
{
  struct timespec t = { us / 1000000, (us % 1000000) * 1000 };
  nanosleep (&t, NULL);
}

static void
spin (unsigned n)
{
  volatile unsigned x = 0;
  for (unsigned i = 0; i < n; i++)
    x += i;
}

static void *
worker (void *data)
{
  static StrobeCpuSpec tick = STROBE_CPU_SPEC_INIT ("Tick");
  static StrobeCpuSpec step = STROBE_CPU_SPEC_INIT ("Step");
  static StrobeCpuSpec leaf = STROBE_CPU_SPEC_INIT ("Leaf");

  strobe_thread_set_name (data, "Work", 1);
  while (!atomic_load (&done))
    {
      /* ~1 ms of scopes, then a short rest: about 100 000 scopes a second per thread. */
      strobe_cpu_begin (&tick);
      for (int i = 0; i < 20; i++)
        {
          strobe_cpu_begin (&step);
          for (int k = 0; k < 4; k++)
            {
              strobe_cpu_begin (&leaf);
              spin (300);
              strobe_cpu_end ();
            }
          strobe_cpu_end ();
        }
      strobe_cpu_end ();
      nap_us (200);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  static StrobeCpuSpec probe = STROBE_CPU_SPEC_INIT ("Probe");
  static StrobeCpuSpec update = STROBE_CPU_SPEC_INIT ("Update");
  double seconds = argc > 1 ? atof (argv[1]) : 5;
  pthread_t a, b;
  struct timespec t0, t;

  strobe_init (NULL);
  strobe_channels_set_enabled ("cpu,frame", true);
  strobe_thread_set_name ("Main", NULL, 0);
  static char name_a[] = "Worker A", name_b[] = "Worker B";

  pthread_create (&a, NULL, worker, name_a);
  pthread_create (&b, NULL, worker, name_b);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  do
    {
      strobe_frame_begin (STROBE_FRAME_GAME);
      strobe_cpu_begin (&probe);
      spin (20000);
      strobe_cpu_end ();
      /* The rest of the 50 ms: a loop of short scopes, as a game thread is never idle. */
      for (int i = 0; i < 100; i++)
        {
          strobe_cpu_begin (&update);
          spin (2000);
          strobe_cpu_end ();
          nap_us (450);
        }
      strobe_frame_end (STROBE_FRAME_GAME);
      clock_gettime (CLOCK_MONOTONIC, &t);
    }
  while ((double) (t.tv_sec - t0.tv_sec) + (double) (t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
  atomic_store (&done, true);
  pthread_join (a, NULL);
  pthread_join (b, NULL);
  strobe_shutdown ();
  return 0;
}
