/* log-emitter.c — a program that logs on command, for the log view's live test: it
 * streams to STROBE_TRACEHOST with the Log channel on, prints "ready" once running, and
 * for each "burst N" line read logs N messages from two threads (then "done TOTAL");
 * "quit" ends the trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strobe/strobe.h>

STROBE_LOG_CATEGORY_DEFINE (LogLive, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogLiveWorker, STROBE_LOG_VERBOSITY_LOG);

static int burst_size;
static int total;

static void *
worker (void *data)
{
  int base = *(int *) data;

  strobe_thread_set_name ("live-worker", NULL, 1);
  for (int i = 0; i < burst_size / 2; i++)
    STROBE_LOG_MESSAGE (LogLiveWorker, STROBE_LOG_WARNING, "worker message %d", base + i);
  return NULL;
}

int
main (void)
{
  char line[128];

  strobe_init (NULL);
  strobe_channel_set_enabled ("Log", true);
  strobe_thread_set_name ("live-main", NULL, 0);
  printf ("ready\n");
  fflush (stdout);
  while (fgets (line, sizeof line, stdin))
    {
      if (strncmp (line, "burst ", 6) == 0)
        {
          pthread_t t;
          int base = total;

          burst_size = atoi (line + 6);
          pthread_create (&t, NULL, worker, &base);
          for (int i = 0; i < burst_size - burst_size / 2; i++)
            STROBE_LOG_MESSAGE (LogLive, STROBE_LOG_LOG, "live message %d", base + i);
          pthread_join (t, NULL);
          total += burst_size;
          strobe_flush ();
          printf ("done %d\n", total);
          fflush (stdout);
        }
      else if (strncmp (line, "quit", 4) == 0)
        break;
    }
  strobe_shutdown ();
  return 0;
}
