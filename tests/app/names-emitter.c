/* names-emitter.c — a trace of N scope names, each a few times on one thread: a timers
 * table of N rows (/timeline/timers-sliced: the table is fed a slice per frame).
 *
 * Usage: names-emitter N OUTPUT.strobe [ROUNDS]   (ROUNDS: how many times each, 3 by default;
 * /timeline/timers-tree-progress: a few names many times, a tree long enough to count)
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
  unsigned long n, rounds = 3;

  if (argc == 4)
    rounds = strtoul (argv[3], NULL, 10);
  if (argc < 3 || argc > 4 || (n = strtoul (argv[1], NULL, 10)) == 0 || n > 100000 || rounds == 0 || rounds > 100000)
    {
      fprintf (stderr, "usage: %s N OUTPUT.strobe [ROUNDS]\n", argv[0]);
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
  for (unsigned long round = 0; round < rounds; round++)
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
