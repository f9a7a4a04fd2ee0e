/* bench-compare-emitter.c — a large trace for strobe-bench-compare: SCOPES CPU scopes in
 * frames of six (Frame > Update > Physics, AI × 2; Render) on explicit timestamps, and
 * ALLOCS allocations from three functions, each freed at once or a frame later; with
 * --changed, Physics is twice as long and a fourth function allocates.
 *
 * Timestamps are explicit, so a trace of any length is written as fast as the runtime
 * ships it.
 *
 * Usage: bench-compare-emitter OUTPUT.strobe SCOPES ALLOCS [--changed]
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <strobe/strobe.h>

#define NOINLINE __attribute__ ((noinline))
#define A(x) ((const void *) (uintptr_t) (x))

static uint64_t serial;

NOINLINE static void site_entity (void) { strobe_memory_alloc (A (0x10000000 + 16 * serial), 64, 0, STROBE_MEMORY_HEAP_SYSTEM); strobe_memory_free (A (0x10000000 + 16 * serial), STROBE_MEMORY_HEAP_SYSTEM); serial++; }
NOINLINE static void site_mesh (void) { strobe_memory_alloc (A (0x20000000 + 16 * serial), 512, 0, STROBE_MEMORY_HEAP_SYSTEM); strobe_memory_free (A (0x20000000 + 16 * serial), STROBE_MEMORY_HEAP_SYSTEM); serial++; }
NOINLINE static void site_sound (void) { strobe_memory_alloc (A (0x30000000 + 16 * serial), 128, 0, STROBE_MEMORY_HEAP_SYSTEM); strobe_memory_free (A (0x30000000 + 16 * serial), STROBE_MEMORY_HEAP_SYSTEM); serial++; }
NOINLINE static void site_particles (void) { strobe_memory_alloc (A (0x40000000 + 16 * serial), 256, 0, STROBE_MEMORY_HEAP_SYSTEM); strobe_memory_free (A (0x40000000 + 16 * serial), STROBE_MEMORY_HEAP_SYSTEM); serial++; }

int
main (int argc, char **argv)
{
  static StrobeCpuSpec s_frame = STROBE_CPU_SPEC_INIT ("Frame");
  static StrobeCpuSpec s_update = STROBE_CPU_SPEC_INIT ("Update");
  static StrobeCpuSpec s_physics = STROBE_CPU_SPEC_INIT ("Physics");
  static StrobeCpuSpec s_ai = STROBE_CPU_SPEC_INIT ("AI");
  static StrobeCpuSpec s_render = STROBE_CPU_SPEC_INIT ("Render");
  uint64_t scopes, allocs, frames, us, t;
  int changed;

  if (argc < 4)
    return 2;
  scopes = strtoull (argv[2], NULL, 10);
  allocs = strtoull (argv[3], NULL, 10);
  changed = argc > 4 && strcmp (argv[4], "--changed") == 0;
  strobe_init (NULL);
  strobe_channels_set_enabled ("cpu,frame,memory", true);
  strobe_memory_set_callstacks (true);
  if (!strobe_output_file (argv[1]))
    return 1;
  us = strobe_clock_frequency () / 1000000;
  t = strobe_time ();
  frames = scopes / 6;
  for (uint64_t f = 0; f < frames; f++)
    {
      /* Durations vary with the frame so the histograms have a shape. */
      /* 0.50–0.95 ms (twice that changed): always done before AI begins at 2 ms. */
      uint64_t physics = (500 + (f * 7919) % 450) * us * (changed ? 2 : 1);

      strobe_frame_begin_at (STROBE_FRAME_GAME, t);
      strobe_cpu_begin_at (&s_frame, t);
      strobe_cpu_begin_at (&s_update, t);
      strobe_cpu_begin_at (&s_physics, t);
      strobe_cpu_end_at (t + physics);
      strobe_cpu_begin_at (&s_ai, t + 2000 * us);
      strobe_cpu_end_at (t + 2500 * us);
      strobe_cpu_begin_at (&s_ai, t + 3000 * us);
      strobe_cpu_end_at (t + 3500 * us);
      strobe_cpu_end_at (t + 10000 * us);
      strobe_cpu_begin_at (&s_render, t + 10000 * us);
      strobe_cpu_end_at (t + 14000 * us);
      strobe_cpu_end_at (t + 16000 * us);
      t += 16000 * us;
      strobe_frame_end_at (STROBE_FRAME_GAME, t);
      for (uint64_t k = allocs * f / frames; k < allocs * (f + 1) / frames; k++)
        switch (k % (changed ? 4 : 3))
          {
          case 0: site_entity (); break;
          case 1: site_mesh (); break;
          case 2: site_sound (); break;
          default: site_particles (); break;
          }
      /* Keep the buffers from filling faster than the worker writes: no drops. */
      if (f % 2048 == 0)
        strobe_flush ();
    }
  strobe_shutdown ();
  return 0;
}
