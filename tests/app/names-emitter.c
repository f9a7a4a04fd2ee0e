/* names-emitter.c — a trace of N scope names, each a few times on one thread: a timers
 * table of N rows (/timeline/timers-sliced: the table is fed a slice per frame).
 *
 * Usage: names-emitter N OUTPUT.strobe
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <strobe/strobe.h>

int
main (int argc, char **argv)
{
  StrobeInitOptions options = { 0 };
  StrobeCpuSpec *specs;
  unsigned long n;

  if (argc != 3 || (n = strtoul (argv[1], NULL, 10)) == 0 || n > 100000)
    {
      fprintf (stderr, "usage: %s N OUTPUT.strobe\n", argv[0]);
      return 2;
    }
  options.block_wait_ms = 60000;
  options.tail_bytes = STROBE_TAIL_NONE;
  options.control_port = STROBE_CONTROL_NONE;
  strobe_init (&options);
  strobe_channels_set_enabled ("cpu", true);
  strobe_set_process_name ("names-emitter");
  if (!strobe_output_file (argv[2]))
    return 1;
  specs = calloc (n, sizeof *specs);
  for (unsigned long i = 0; i < n; i++)
    {
      char *name = malloc (32);
      snprintf (name, 32, "Task %04lu", i);
      specs[i].name = name;   /* for the program's life, as the runtime wants */
      specs[i].line = (uint32_t) (100 + i);
      specs[i].file = __FILE__;
    }
  for (int round = 0; round < 3; round++)
    for (unsigned long i = 0; i < n; i++)
      {
        strobe_cpu_begin (&specs[i]);
        strobe_cpu_end ();
      }
  strobe_shutdown ();
  for (unsigned long i = 0; i < n; i++)
    free ((char *) specs[i].name);
  free (specs);
  return 0;
}
