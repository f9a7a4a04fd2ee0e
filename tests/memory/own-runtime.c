/* own-runtime.c — a program that links libstrobe.so itself (for test-memory-trace.c):
 * run under strobe-cli run, its events and its allocations must land in one readable
 * trace, written by one runtime. */
#include <stdlib.h>

#include <strobe/strobe.h>

STROBE_CHANNEL_DEFINE (OwnChannel);
STROBE_EVENT (Own, Tick, 0, STROBE_FIELD (uint32, N))

void *volatile sink;

int
main (void)
{
  strobe_init (NULL);
  for (int i = 0; i < 1000; i++)
    {
      STROBE_LOG (Own, Tick, OwnChannel)
        STROBE_SET (N, (uint32_t) i);
      sink = malloc (9001 + (size_t) (i % 7));
      free (sink);
    }
  strobe_shutdown ();
  return 0;
}
