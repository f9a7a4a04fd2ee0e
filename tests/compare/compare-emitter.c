/* compare-emitter.c — one program recorded twice for the comparison tests: the baseline,
 * and with --changed the same run with one deliberate change of each kind:
 *
 *   timers   Physics takes 2.000 ms a frame instead of 1.000 ms (everything else, the
 *            frame included, keeps its length: Update's idle time shrinks to make room)
 *   memory   a new allocation site, spawn_particles(): 256 B a frame, never freed
 *   log      a warning the baseline never printed ("Physics over budget…"), every 10 frames
 *
 * Scopes, frames and the region carry explicit timestamps (a fixed number of milliseconds
 * from the start), so every timer figure is known exactly; the allocations and messages
 * are made as the program runs, each frame's 5 ms into it (the program waits for that
 * moment), so a range of frames holds its frames' allocations and messages too. 60 game
 * frames of 16 ms, about a second:
 *
 *   Frame 16 ms > Update 10 ms > Physics 1 ms (2 ms changed), AI 0.5 ms ×2; Render 4 ms
 *   region "Level 1" over frames 10–49; memory: load_level() 4 × 4096 B at the start
 *   (freed at the end), spawn_entity() 3 × 64 B a frame (freed at once: temporary)
 *
 * Usage: compare-emitter OUTPUT.strobe [--changed]
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

#define NOINLINE __attribute__ ((noinline))
#define FRAMES 60
#define A(x) ((const void *) (uintptr_t) (x))

STROBE_LOG_CATEGORY_DEFINE (LogGame, STROBE_LOG_VERBOSITY_LOG);

static uint64_t t_base, ticks_per_ms;
static uint32_t tag_level, tag_entities, tag_particles;

static uint64_t
at_ms (double ms)
{
  return t_base + (uint64_t) (ms * (double) ticks_per_ms);
}

/* The program's own clock up to @ts: the allocations and messages of a frame land in it. */
static void
wait_until (uint64_t ts)
{
  while (strobe_time () < ts)
    {
      struct timespec t = { 0, 200000 };
      nanosleep (&t, NULL);
    }
}

static void
scope (StrobeCpuSpec *spec, double begin_ms, double length_ms)
{
  strobe_cpu_begin_at (spec, at_ms (begin_ms));
  strobe_cpu_end_at (at_ms (begin_ms + length_ms));
}

NOINLINE static void
load_level (void)
{
  strobe_memory_tag_push (tag_level);
  for (int i = 0; i < 4; i++)
    strobe_memory_alloc (A (0x100000 + 0x1000 * i), 4096, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_tag_pop ();
}

NOINLINE static void
unload_level (void)
{
  for (int i = 0; i < 4; i++)
    strobe_memory_free (A (0x100000 + 0x1000 * i), STROBE_MEMORY_HEAP_SYSTEM);
}

NOINLINE static void
spawn_entity (int frame)
{
  strobe_memory_tag_push (tag_entities);
  for (int i = 0; i < 3; i++)
    {
      strobe_memory_alloc (A (0x200000 + 0x100 * i + 0x1000 * frame), 64, 0, STROBE_MEMORY_HEAP_SYSTEM);
      strobe_memory_free (A (0x200000 + 0x100 * i + 0x1000 * frame), STROBE_MEMORY_HEAP_SYSTEM);
    }
  strobe_memory_tag_pop ();
}

NOINLINE static void
spawn_particles (int frame)
{
  strobe_memory_tag_push (tag_particles);
  strobe_memory_alloc (A (0x800000 + 0x1000 * frame), 256, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_tag_pop ();
}

int
main (int argc, char **argv)
{
  static StrobeBookmarkSpec b_checkpoint = { 0, __LINE__, "Checkpoint", __FILE__ };
  static StrobeBookmarkSpec b_boss = { 0, __LINE__, "Boss", __FILE__ };
  static StrobeCpuSpec s_frame = STROBE_CPU_SPEC_INIT ("Frame");
  static StrobeCpuSpec s_update = STROBE_CPU_SPEC_INIT ("Update");
  static StrobeCpuSpec s_physics = STROBE_CPU_SPEC_INIT ("Physics");
  static StrobeCpuSpec s_ai = STROBE_CPU_SPEC_INIT ("AI");
  static StrobeCpuSpec s_render = STROBE_CPU_SPEC_INIT ("Render");
  int changed;

  if (argc < 2 || argc > 3 || (argc == 3 && strcmp (argv[2], "--changed") != 0))
    return 2;
  changed = argc == 3;
  /* Scope times unrounded, like the frames': frame N+1's first scope must begin exactly
   * where frame N ends, not a rounding step before. */
  setenv ("STROBE_CPU_SHIFT", "0", 1);
  strobe_init (NULL);
  strobe_thread_set_name ("main", "game", 0);
  strobe_channels_set_enabled ("cpu,frame,region,bookmark,log,memory", true);
  strobe_memory_set_callstacks (true);
  if (!strobe_output_file (argv[1]))
    return 1;

  ticks_per_ms = strobe_clock_frequency () / 1000;
  t_base = strobe_time ();
  tag_level = strobe_memory_tag_register ("Level", STROBE_MEMORY_TAG_NONE);
  tag_entities = strobe_memory_tag_register ("Entities", STROBE_MEMORY_TAG_NONE);
  tag_particles = strobe_memory_tag_register ("Particles", STROBE_MEMORY_TAG_NONE);

  STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "level %d loading", 1);
  load_level ();
  for (int f = 0; f < FRAMES; f++)
    {
      double t = 16.0 * f;
      double physics = changed ? 2.0 : 1.0;

      strobe_frame_begin_at (STROBE_FRAME_GAME, at_ms (t));
      if (f == 10)
        strobe_region_begin_at ("Level 1", at_ms (t));
      /* Checkpoint at frame 10's start, Boss at frame 20's: frames 10–19 between them. */
      if (f == 10)
        strobe_bookmark_at (&b_checkpoint, at_ms (t));
      if (f == 20)
        strobe_bookmark_at (&b_boss, at_ms (t));
      strobe_cpu_begin_at (&s_frame, at_ms (t));
      strobe_cpu_begin_at (&s_update, at_ms (t));
      scope (&s_physics, t, physics);
      scope (&s_ai, t + 2.0, 0.5);
      scope (&s_ai, t + 3.0, 0.5);
      strobe_cpu_end_at (at_ms (t + 10.0));
      scope (&s_render, t + 10.0, 4.0);
      strobe_cpu_end_at (at_ms (t + 16.0));
      if (f == 49)
        strobe_region_end_at ("Level 1", at_ms (t + 16.0));
      strobe_frame_end_at (STROBE_FRAME_GAME, at_ms (t + 16.0));

      wait_until (at_ms (t + 5.0));
      spawn_entity (f);
      if (changed)
        spawn_particles (f);
      if (f % 10 == 0)
        STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_LOG, "frame %d", f);
      if (changed && f % 10 == 5)
        STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_WARNING, "Physics over budget: %d us", 2000);
    }
  wait_until (at_ms (16.0 * FRAMES));
  unload_level ();
  STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "level %d done", 1);
  strobe_shutdown ();
  return 0;
}
