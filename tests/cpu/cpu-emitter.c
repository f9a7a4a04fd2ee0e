/* cpu-emitter.c — instrumented program for the CPU/frames/bookmarks/regions/counters
 * tests. Usage: cpu-emitter SCENARIO OUTPUT
 *
 *   synthetic  two threads with hand-chosen timestamps (strobe_cpu_begin_at/end_at and the
 *              other _at calls, relative to one clock read), so timer statistics in ticks
 *              are known exactly; plus frames, bookmarks, regions and counters
 *   threads    four named threads in two groups, each running the same deterministic tree
 *              of static, dynamic and begin/end scopes with real timestamps; one scope is
 *              left open when the trace ends
 *   many       one thread, ~100k pseudo-random nested scopes with synthetic timestamps and
 *              two gaps of 2^33 ticks (scopes longer than 32 bits of ticks, time-split chunks)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strobe/strobe.h>

static uint64_t t0;

/* ---- synthetic -------------------------------------------------------------------- */

static StrobeCpuSpec spec_frame = STROBE_CPU_SPEC_INIT ("Frame");
static StrobeCpuSpec spec_update = STROBE_CPU_SPEC_INIT ("Update");
static StrobeCpuSpec spec_physics = STROBE_CPU_SPEC_INIT ("Physics");
static StrobeCpuSpec spec_render = STROBE_CPU_SPEC_INIT ("Render");
static StrobeCpuSpec spec_job = STROBE_CPU_SPEC_INIT ("Job");

#define B(spec, t) strobe_cpu_begin_at (&(spec), t0 + (t))
#define E(t) strobe_cpu_end_at (t0 + (t))

/* Thread "Main" (ticks relative to t0):
 *   Frame   [0, 1000)            x3 frames at 0, 1000, 2000 (each 1000 long)
 *     Update  [100, 600)         (per frame +1000*i)
 *       Physics [200, 300)
 *       Physics [400, 450)
 *     Render  [700, 900)
 *   Update [3000, 3100) with Physics [3010, 3020) nested: recursion-free tail
 */
static void
synthetic_main (void)
{
  static StrobeBookmarkSpec bm_start = { 0, __LINE__, "Start", __FILE__ };
  static StrobeCounter objects = STROBE_COUNTER_INIT ("Objects", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);
  static StrobeCounter load = STROBE_COUNTER_INIT ("Load", STROBE_COUNTER_FLOAT, STROBE_UNIT_PERCENT);

  strobe_thread_set_name ("Main", "Game", -1);
  strobe_bookmark_at (&bm_start, t0);
  strobe_region_begin_at ("Loading", t0 + 0);
  for (uint64_t i = 0; i < 3; i++)
    {
      uint64_t f = 1000 * i;

      strobe_frame_begin_at (STROBE_FRAME_GAME, t0 + f);
      B (spec_frame, f);
        B (spec_update, f + 100);
          B (spec_physics, f + 200);
          E (f + 300);
          B (spec_physics, f + 400);
          E (f + 450);
        E (f + 600);
        B (spec_render, f + 700);
        E (f + 900);
      E (f + 1000);
      strobe_frame_end_at (STROBE_FRAME_GAME, t0 + f + 1000);
      strobe_counter_add_int (&objects, 10);
      strobe_counter_set_float (&load, 25.0 * (double) (i + 1));
      if (i == 0)
        strobe_region_end_at ("Loading", t0 + 1500);
    }
  strobe_region_begin_at ("Streaming", t0 + 1200);
  strobe_region_begin_at ("Streaming", t0 + 1800);   /* overlaps the first one */
  strobe_region_end_at ("Streaming", t0 + 2500);
  strobe_region_end_at ("Streaming", t0 + 2900);
  B (spec_update, 3000);
    B (spec_physics, 3010);
    E (3020);
  E (3100);
  strobe_bookmark_text ("Done");
  strobe_counter_add_int (&objects, -5);
}

static void *
synthetic_worker (void *data __attribute__ ((unused)))
{
  strobe_thread_set_name ("Worker", "Jobs", 1);
  /* Job: 5 instances of 100, 200, 300, 400, 500 ticks; median 300. */
  for (uint64_t i = 0; i < 5; i++)
    {
      B (spec_job, 100 + 1000 * i);
      E (100 + 1000 * i + 100 * (i + 1));
    }
  strobe_frame_begin_at (STROBE_FRAME_RENDER, t0 + 0);
  strobe_frame_end_at (STROBE_FRAME_RENDER, t0 + 2500);
  return NULL;
}

static void
synthetic (void)
{
  pthread_t th;

  t0 = strobe_time ();
  synthetic_main ();
  pthread_create (&th, NULL, synthetic_worker, NULL);
  pthread_join (th, NULL);
}

/* ---- threads ------------------------------------------------------------------------ */

static void
leaf (int k)
{
  STROBE_CPU_SCOPE ("Leaf");
  volatile int x = 0;
  for (int i = 0; i < 50 * k; i++)
    x += i;
}

static void
work (int depth, int fan)
{
  STROBE_CPU_SCOPE ("Work");
  if (depth == 0)
    {
      leaf (fan);
      return;
    }
  for (int i = 0; i < fan; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "Dyn%d", depth);
      {
        STROBE_CPU_SCOPE_DYNAMIC (name);
        work (depth - 1, fan);
      }
    }
}

typedef struct
{
  const char *name;
  const char *group;
  int         sort;
  bool        leave_open;
} ThreadSpec;

static void *
threads_main (void *data)
{
  const ThreadSpec *ts = data;
  static StrobeCpuSpec spec_manual = STROBE_CPU_SPEC_INIT ("Manual");

  strobe_thread_set_name (ts->name, ts->group, ts->sort);
  for (int i = 0; i < 3; i++)
    {
      if (strobe_cpu_begin (&spec_manual))
        {
          work (2, 2);
          strobe_cpu_end ();
        }
    }
  if (ts->leave_open)
    {
      static StrobeCpuSpec spec_open = STROBE_CPU_SPEC_INIT ("Open");
      strobe_cpu_begin (&spec_open);   /* never ended */
      leaf (1);
      strobe_cpu_flush_thread ();
    }
  return NULL;
}

static void
threads (void)
{
  static const ThreadSpec specs[] = {
    { "Alpha", "GroupA", 0, false },
    { "Beta", "GroupA", 1, false },
    { "Gamma", "GroupB", 0, true },
    { "Delta", "GroupB", 1, false },
  };
  pthread_t th[4];

  strobe_set_process_name ("cpu-emitter threads");
  for (int i = 0; i < 4; i++)
    pthread_create (&th[i], NULL, threads_main, (void *) &specs[i]);
  for (int i = 0; i < 4; i++)
    pthread_join (th[i], NULL);
}

/* ---- many --------------------------------------------------------------------------- */

static void
many (void)
{
  static StrobeCpuSpec specs[8] = {
    STROBE_CPU_SPEC_INIT ("S0"), STROBE_CPU_SPEC_INIT ("S1"), STROBE_CPU_SPEC_INIT ("S2"),
    STROBE_CPU_SPEC_INIT ("S3"), STROBE_CPU_SPEC_INIT ("S4"), STROBE_CPU_SPEC_INIT ("S5"),
    STROBE_CPU_SPEC_INIT ("S6"), STROBE_CPU_SPEC_INIT ("S7"),
  };
  uint64_t t = strobe_time ();
  uint32_t seed = 1;
  int depth = 0;

  for (int i = 0; i < 200000; i++)
    {
      uint32_t r;

      seed = seed * 1103515245u + 12345u;
      r = seed >> 16;
      t += 1 + r % 50;
      if (i % 70000 == 69999)
        t += (uint64_t) 1 << 33;
      if (i % 10000 == 9999)
        strobe_flush ();   /* many packets: the live test feeds them one by one */
      if ((depth > 0 && (r & 3) == 0) || depth >= 6)
        {
          strobe_cpu_end_at (t);
          depth--;
        }
      else if (strobe_cpu_begin_at (&specs[r % 8], t))
        depth++;
    }
  while (depth-- > 0)
    strobe_cpu_end_at (t += 10);
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: cpu-emitter synthetic|threads|many OUTPUT\n");
      return 2;
    }
  /* Full tick resolution: the synthetic times are exact. */
  setenv ("STROBE_CPU_SHIFT", "0", 1);
  strobe_channels_set_enabled ("Cpu,Frame,Bookmark,Region,Counters", true);
  strobe_init (NULL);
  if (!strobe_output_file (argv[2]))
    {
      perror (argv[2]);
      return 1;
    }
  if (strcmp (argv[1], "synthetic") == 0)
    synthetic ();
  else if (strcmp (argv[1], "threads") == 0)
    threads ();
  else if (strcmp (argv[1], "many") == 0)
    many ();
  else
    return 2;
  strobe_flush ();
  strobe_shutdown ();
  return 0;
}
