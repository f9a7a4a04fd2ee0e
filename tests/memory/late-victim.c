/* late-victim.c — a program traced from the middle, for test-memory-trace.c: it
 * allocates before anyone connects, says "ready", waits for a line on stdin, frees and
 * allocates more, says "done", waits for another line and exits. Sizes are ones no C
 * library internal uses, so the test picks its blocks out of the trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEFORE 50

void *volatile keep[BEFORE + 16];

static void
wait_line (void)
{
  char line[64];

  if (fgets (line, sizeof line, stdin) == NULL)
    exit (1);
}

int
main (void)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  for (int i = 0; i < BEFORE; i++)
    keep[i] = malloc (20001 + (size_t) i);
  for (int i = 0; i < BEFORE; i += 2)   /* 25 live from before, odd i */
    {
      free (keep[i]);
      keep[i] = NULL;
    }
  fputs ("ready\n", stdout);
  wait_line ();
  /* Traced from here: ten blocks from before end, five new ones begin, two of them end. */
  for (int i = 1; i < 20; i += 2)
    {
      free (keep[i]);
      keep[i] = NULL;
    }
  for (int i = 0; i < 5; i++)
    keep[BEFORE + i] = malloc (30001 + (size_t) i);
  free (keep[BEFORE]);
  free (keep[BEFORE + 1]);
  keep[BEFORE] = keep[BEFORE + 1] = NULL;
  fputs ("done\n", stdout);
  wait_line ();
  return 0;
}
