/* strobe-example.c — a small traced program: two worker threads, a few events.
 *
 *   ./strobe-example --trace=work,exampleframe --tracefile=example.strobe
 */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, nanosleep under -std=c11 */
#endif
#include <pthread.h>
#include <stdio.h>
#include <strobe/strobe.h>
#include <time.h>

STROBE_CHANNEL_DEFINE (WorkChannel);      /* "Work": not "Cpu", which is the runtime's */
STROBE_CHANNEL_DEFINE (ExampleFrameChannel); /* "ExampleFrame": not the runtime's "Frame" */

/* Synchronised: ordered across threads by serial. */
STROBE_EVENT (Example, Work, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Item))
/* NoSync: the cheap kind, ordered within its thread only. */
STROBE_EVENT (Example, Tick, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle))
/* Strings and arrays ride as aux data. */
STROBE_EVENT (Example, Frame, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, Index)
              STROBE_ARRAY (float, Samples)
              STROBE_FIELD (ansi, Label)
              STROBE_FIELD (wide, Title))
/* Important: kept and replayed at the start of every output. */
STROBE_EVENT (Example, Config, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Workers)
              STROBE_FIELD (ansi, Mode))

#define WORKERS 2

static double
elapsed (const struct timespec *t0)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) (t.tv_sec - t0->tv_sec) + (double) (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *
worker (void *arg)
{
  unsigned n = (unsigned) (size_t) arg;
  struct timespec t0;
  char name[16];

  snprintf (name, sizeof name, "worker-%u", n);
  strobe_thread_set_name (name, "workers", (int32_t) n);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (uint32_t i = 0; elapsed (&t0) < 0.5; i++)
    {
      STROBE_LOG (Example, Work, WorkChannel)
        {
          STROBE_SET (Cycle, strobe_time ());
          STROBE_SET (Item, i);
        }
      for (int k = 0; k < 10; k++)
        STROBE_LOG (Example, Tick, WorkChannel)
          STROBE_SET (Cycle, strobe_time ());
      if (i % 64 == 0)
        {
          struct timespec nap = { 0, 20 * 1000 };   /* a busy program, not a benchmark */
          nanosleep (&nap, NULL);
        }
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t threads[WORKERS];
  float samples[8];

  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);
  strobe_thread_set_name ("main", NULL, -1);

  STROBE_LOG (Example, Config, ExampleFrameChannel)
    {
      STROBE_SET (Workers, WORKERS);
      STROBE_SET_STRING (Mode, argc > 1 ? argv[1] : "default");
    }
  for (size_t i = 0; i < WORKERS; i++)
    pthread_create (&threads[i], NULL, worker, (void *) i);
  for (uint32_t frame = 0; frame < 50; frame++)
    {
      struct timespec pause = { 0, 10 * 1000 * 1000 };
      for (int i = 0; i < 8; i++)
        samples[i] = (float) frame + (float) i / 8.0f;
      STROBE_LOG (Example, Frame, ExampleFrameChannel)
        {
          STROBE_SET (Cycle, strobe_time ());
          STROBE_SET (Index, frame);
          STROBE_SET_ARRAY (Samples, samples, 8);
          STROBE_SET_STRING (Label, "frame");
          STROBE_SET_WSTRING (Title, L"Frame \u00e9t\u00e9");
        }
      nanosleep (&pause, NULL);
    }
  for (size_t i = 0; i < WORKERS; i++)
    pthread_join (threads[i], NULL);

  {
    StrobeStats s;
    strobe_flush ();
    strobe_get_stats (&s);
    fprintf (stderr, "strobe-example: %llu events, %llu dropped, %llu bytes sent\n",
             (unsigned long long) s.events_emitted, (unsigned long long) s.events_dropped,
             (unsigned long long) s.bytes_sent);
  }
  strobe_shutdown ();
  return 0;
}
