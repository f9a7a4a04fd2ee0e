/* regions-emitter.c — a trace of N regions (issue 25 item 5: a timeline of 2 M regions):
 * three names in turn, each region 2.8 steps long and one beginning every step, so three
 * overlap at any time and the Regions track has three lanes. Timestamps are explicit
 * (a step is 1 000 ticks from the first clock read), so the file is the same shape every
 * time; nothing is dropped (the program waits for the writer).
 *
 * Usage: regions-emitter N OUTPUT.strobe
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <strobe/strobe.h>

#define STEP 1000

static const char *const names[] = { "Stream A", "Stream B", "Stream C" };

int
main (int argc, char **argv)
{
  StrobeInitOptions options = { 0 };
  unsigned long n;
  uint64_t t0;

  if (argc != 3 || (n = strtoul (argv[1], NULL, 10)) == 0)
    {
      fprintf (stderr, "usage: %s N OUTPUT.strobe\n", argv[0]);
      return 2;
    }
  options.block_wait_ms = 60000;
  options.tail_bytes = STROBE_TAIL_NONE;
  options.control_port = STROBE_CONTROL_NONE;
  strobe_init (&options);
  strobe_channels_set_enabled ("region", true);
  strobe_set_process_name ("regions-emitter");
  if (!strobe_output_file (argv[2]))
    return 1;
  t0 = strobe_time ();
  /* In time order: the end of region i - 3 (at i·STEP − STEP/5) before the begin of i. */
  for (unsigned long i = 0; i < n + 3; i++)
    {
      if (i >= 3)
        strobe_region_end_at (names[(i - 3) % 3], t0 + (i - 3) * STEP + 14 * STEP / 5);
      if (i < n)
        strobe_region_begin_at (names[i % 3], t0 + i * STEP);
    }
  strobe_shutdown ();
  return 0;
}
