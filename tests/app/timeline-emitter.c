/* timeline-emitter.c — the program behind tests/data/golden-timeline.strobe: every kind of
 * thing the timeline draws, in about a second of real time.
 *
 *   Main (group Game)        game frames of ~8 ms: Frame > Input, Update > Physics >
 *                            Broadphase/Narrowphase, AI, Animation; then Submit. Counters
 *                            (objects, bytes, a load percentage) every frame; log messages
 *                            of every verbosity; bookmarks (static and dynamic); two regions
 *                            that overlap.
 *   Render (group Game)      render frames half a frame behind: RenderFrame > Cull, Draw >
 *                            DrawBatch × n, Present.
 *   Worker 1, 2 (group Jobs) jobs of mixed lengths, and bursts of 300 tiny scopes (what the
 *                            level of detail merges when zoomed out).
 *   Loader                   log messages only.
 *   Idle                     named, nothing else: an empty track.
 *   a burst of events into a small buffer on Main, so the runtime drops some (reported in
 *   its next Stats), and one scope left open at the end.
 *
 * About a second: four of the runtime's Stats reports, so the drops have a place.
 *
 * Usage: timeline-emitter OUTPUT.strobe. Real timestamps: re-recording changes the file
 * (and the snapshot tests' images); do it only on purpose (tests/app/README.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strobe/strobe.h>
#include <time.h>

STROBE_CHANNEL_DEFINE (FillerChannel);
STROBE_LOG_CATEGORY_DEFINE (LogGame, STROBE_LOG_VERBOSITY_VERBOSE);
STROBE_LOG_CATEGORY_DEFINE (LogLoader, STROBE_LOG_VERBOSITY_VERBOSE);

/* Constant fields: what the buffer keeps of the burst compresses to nothing. */
STROBE_EVENT (Golden, Filler, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, A)
              STROBE_FIELD (uint64, B))

#define FRAMES 24

static atomic_int frame_no;
static atomic_bool done;

static double
now_s (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

/* Busy for @us microseconds: a scope with real work in it. */
static void
spin (double us)
{
  double end = now_s () + us / 1e6;
  while (now_s () < end)
    ;
}

static void
nap (double us)
{
  struct timespec t = { 0, (long) (us * 1000) };
  nanosleep (&t, NULL);
}

static void
game_frame (int i)
{
  static StrobeCounter objects = STROBE_COUNTER_INIT ("Objects", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);
  static StrobeCounter memory = STROBE_COUNTER_INIT ("Memory/used", STROBE_COUNTER_INT, STROBE_UNIT_BYTES);
  static StrobeCounter load = STROBE_COUNTER_INIT ("Load", STROBE_COUNTER_FLOAT, STROBE_UNIT_PERCENT);

  strobe_frame_begin (STROBE_FRAME_GAME);
  {
    STROBE_CPU_SCOPE ("Frame");
    {
      STROBE_CPU_SCOPE ("Input");
      spin (300);
    }
    {
      STROBE_CPU_SCOPE ("Update");
      {
        STROBE_CPU_SCOPE ("Physics");
        {
          STROBE_CPU_SCOPE ("Broadphase");
          spin (400 + 40 * (i % 5));
        }
        {
          STROBE_CPU_SCOPE ("Narrowphase");
          spin (700 + (i == 9 ? 3000 : 0));   /* one slow frame */
        }
      }
      {
        STROBE_CPU_SCOPE ("AI");
        spin (900);
      }
      {
        STROBE_CPU_SCOPE ("Animation");
        for (int k = 0; k < 4; k++)
          {
            STROBE_CPU_SCOPE ("Skeleton");
            spin (120);
          }
      }
    }
    STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "frame %d: %d objects", i, 100 + 7 * i);
    if (i % 6 == 2)
      STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_WARNING, "frame %d took longer than planned", i);
    if (i == 9)
      STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_ERROR, "physics step diverged at frame %d (%.2f)", i, 3.25);
    if (i % 4 == 1)
      STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_VERBOSE, "culling %u of %u meshes", 40u + i, 200u);
    strobe_counter_set_int (&objects, 100 + 7 * i - (i % 3) * 11);
    strobe_counter_set_int (&memory, (int64_t) (24 << 20) + i * 350000 - (i % 4) * 500000);
    strobe_counter_set_float (&load, 35.0 + 30.0 * ((i * 37) % 11) / 10.0);
    {
      STROBE_CPU_SCOPE ("Submit");
      spin (500);
    }
  }
  strobe_frame_end (STROBE_FRAME_GAME);
  atomic_store (&frame_no, i + 1);
}

static void *
render_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("Render", "Game", 1);
  nap (4000);
  for (int i = 0; i < FRAMES - 1; i++)
    {
      while (atomic_load (&frame_no) <= i)
        nap (100);
      strobe_frame_begin (STROBE_FRAME_RENDER);
      {
        STROBE_CPU_SCOPE ("RenderFrame");
        {
          STROBE_CPU_SCOPE ("Cull");
          spin (600);
        }
        {
          STROBE_CPU_SCOPE ("Draw");
          for (int k = 0; k < 3 + i % 4; k++)
            {
              STROBE_CPU_SCOPE ("DrawBatch");
              spin (350);
            }
        }
        {
          STROBE_CPU_SCOPE ("Present");
          spin (200);
        }
      }
      strobe_frame_end (STROBE_FRAME_RENDER);
    }
  return NULL;
}

static void *
worker_main (void *data)
{
  int n = (int) (size_t) data;
  char name[16];
  static const char *const jobs[] = { "Job: Pathfinding", "Job: Decompress", "Job: Audio mix", "Job: Particles" };

  snprintf (name, sizeof name, "Worker %d", n);
  strobe_thread_set_name (name, "Jobs", n);
  for (int i = 0; !atomic_load (&done); i++)
    {
      {
        STROBE_CPU_SCOPE_DYNAMIC (jobs[(i + n) % 4]);
        spin (500 + 350 * ((i * 7 + n) % 5));
        if (i % 3 == 0)
          {
            STROBE_CPU_SCOPE ("Inner");
            spin (200);
          }
      }
      if (i % 4 == n)
        {
          /* Hundreds of scopes of a few hundred nanoseconds each. */
          STROBE_CPU_SCOPE ("Batch");
          for (int k = 0; k < 300; k++)
            {
              STROBE_CPU_SCOPE ("Tiny");
              spin (0.3);
            }
        }
      nap (3000);
    }
  return NULL;
}

static void *
loader_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("Loader", NULL, 10);
  for (int i = 0; !atomic_load (&done); i++)
    {
      if (i % 5 == 4)
        STROBE_LOG_MESSAGE (LogLoader, STROBE_LOG_WARNING, "asset %d is %u KiB, over budget", i, 64u + 16u * i);
      else
        STROBE_LOG_MESSAGE (LogLoader, STROBE_LOG_LOG, "loaded asset %d (%s), %u KiB", i, i % 2 ? "mesh" : "texture",
                            64u + 16u * i);
      nap (45000);
    }
  STROBE_LOG_MESSAGE (LogLoader, STROBE_LOG_FATAL, "loader stopped: %s", "end of golden trace");
  return NULL;
}

static void *
idle_main (void *data)
{
  (void) data;
  strobe_thread_set_name ("Idle", NULL, 20);
  while (!atomic_load (&done))
    nap (5000);
  return NULL;
}

int
main (int argc, char **argv)
{
  StrobeInitOptions options = { 0 };
  pthread_t render, workers[2], loader, idle;
  static StrobeBookmarkSpec level = { 0, __LINE__, "Level loaded", __FILE__ };

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s OUTPUT.strobe\n", argv[0]);
      return 2;
    }
  /* A small buffer that drops at once when full: the burst below loses events. */
  options.buffer_bytes = 1u << 20;
  options.block_wait_ms = STROBE_BLOCK_WAIT_NONE;
  options.tail_bytes = STROBE_TAIL_NONE;
  options.control_port = STROBE_CONTROL_NONE;
  strobe_init (&options);
  strobe_channels_set_enabled ("cpu,frame,bookmark,region,counters,log,filler", true);
  strobe_set_process_name ("timeline-emitter");
  if (!strobe_output_file (argv[1]))
    return 1;
  strobe_thread_set_name ("Main", "Game", 0);

  pthread_create (&render, NULL, render_main, NULL);
  for (int i = 0; i < 2; i++)
    pthread_create (&workers[i], NULL, worker_main, (void *) (size_t) (i + 1));
  pthread_create (&loader, NULL, loader_main, NULL);
  pthread_create (&idle, NULL, idle_main, NULL);

  strobe_region_begin ("Loading");
  for (int i = 0; i < FRAMES; i++)
    {
      if (i == 3)
        strobe_bookmark (&level);
      if (i == 3)
        strobe_region_begin ("Streaming");
      if (i == 6)
        strobe_region_end ("Loading");
      if (i == 12)
        strobe_bookmark_text ("Checkpoint 12");
      if (i == 14)
        {
          /* Far more than the buffer holds, at once: the runtime drops what does not fit. */
          for (int k = 0; k < 100000; k++)
            STROBE_LOG (Golden, Filler, FillerChannel)
              {
                STROBE_SET (A, 1);
                STROBE_SET (B, 2);
              }
        }
      if (i == 18)
        strobe_region_end ("Streaming");
      game_frame (i);
      nap (30000);
    }
  atomic_store (&done, true);
  pthread_join (render, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join (workers[i], NULL);
  pthread_join (loader, NULL);
  pthread_join (idle, NULL);
  /* Still open when the trace ends: drawn to the end, flagged. */
  {
    static StrobeCpuSpec shutdown = STROBE_CPU_SPEC_INIT ("Shutdown");
    strobe_cpu_begin (&shutdown);
    spin (300);
    strobe_cpu_flush_thread ();
  }
  strobe_shutdown ();
  return 0;
}
