/* example-no-worker.c — a program that ships its own trace: no background thread; the
 * program calls strobe_update() where it suits it (once a frame, say). For engines that
 * own every thread, or single-threaded tools.
 *
 *   example-no-worker --trace=cpu --tracefile=no-worker.strobe
 */
#include <stdio.h>
#include <strobe/strobe.h>

int
main (int argc, char **argv)
{
  StrobeInitOptions options = { 0 };   /* zero-initialise, then set what you need */

  options.no_worker = true;
  options.control_port = STROBE_CONTROL_NONE;   /* and no control server either */
  strobe_parse_args (&argc, &argv);
  if (!strobe_init (&options))
    {
      fprintf (stderr, "example-no-worker: the runtime did not start\n");
      return 1;
    }

  for (int frame = 0; frame < 100; frame++)
    {
      {
        STROBE_CPU_SCOPE ("Tick");
        for (volatile int i = 0; i < 10000; i++)
          ;
      }
      /* One round of what the worker would do: compress and write what is committed. */
      if (!strobe_update ())
        perror ("example-no-worker: trace output");
    }
  strobe_shutdown ();
  return 0;
}
