/* strobe-demo.c — a game-like program traced with everything Strobe has, to look at in the
 * viewer: a main loop of game and render frames, a render thread, a job pool, nested CPU
 * scopes with a skewed name distribution, logs in several categories and verbosities,
 * counters, bookmarks, regions, and tagged allocations in a few heaps (a slow leak, a
 * frame arena, temporary churn). Every few seconds one frame takes too long, for a reason
 * that shows in the trace: a long job, a burst of allocations or a storm of log messages.
 * A second process, the game server, answers the game's requests: the two are one session
 * (STROBE_SESSION), each request a flow from the game's scope to the server's and back.
 *
 *   strobe-demo                                   # tracing off: connect to it later
 *   strobe-demo --trace=all --tracehost=localhost # stream to a viewer's recorder
 *   STROBE_TRACE=cpu,log STROBE_TRACEFILE=demo.strobe strobe-demo --duration=5
 *
 * Only the runtime's public API is used (C11, pthreads): this is also an example.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* clock_gettime, nanosleep, sigaction under -std=c11 */
#endif
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strobe/strobe.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

STROBE_LOG_CATEGORY_DEFINE (LogGame, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogRender, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogJobs, STROBE_LOG_VERBOSITY_VERBOSE);
STROBE_LOG_CATEGORY_DEFINE (LogNet, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogStreaming, STROBE_LOG_VERBOSITY_VERBOSE);
STROBE_LOG_CATEGORY_DEFINE (LogServer, STROBE_LOG_VERBOSITY_LOG);

static StrobeCounter frame_ms = STROBE_COUNTER_INIT ("Frame/time", STROBE_COUNTER_FLOAT, STROBE_UNIT_COUNT);
static StrobeCounter entity_count = STROBE_COUNTER_INIT ("World/entities", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);
static StrobeCounter memory_used = STROBE_COUNTER_INIT ("Memory/used", STROBE_COUNTER_INT, STROBE_UNIT_BYTES);
static StrobeCounter jobs_queued = STROBE_COUNTER_INIT ("Jobs/queued", STROBE_COUNTER_INT, STROBE_UNIT_COUNT);

/* ---- options ------------------------------------------------------------------------- */

static double opt_duration = 0;    /* seconds; 0: until Ctrl+C */
static double opt_rate = 60;       /* game frames per second */
static int    opt_threads = 4;     /* job pool */
static bool   opt_server = true;   /* start the game server process */
static int    server_in = -1, server_out = -1;   /* --serve-fds=IN,OUT: this is the server */

static volatile sig_atomic_t stopping;
static double started;   /* now_s() at start */

static void
on_signal (int sig)
{
  (void) sig;
  stopping = 1;
}

static void
usage (FILE *out)
{
  fputs ("Usage: strobe-demo [OPTION…]\n"
         "A game-like program that emits every kind of Strobe event, to look at in the viewer.\n"
         "\n"
         "  --duration=SECONDS   run this long, then exit (default: until Ctrl+C)\n"
         "  --rate=FPS           game frames per second (default 60)\n"
         "  --threads=N          job pool threads (default 4, at most 16)\n"
         "  --no-server          no game server process (one process, no flows)\n"
         "  --trace=CHANNELS     turn channels on (cpu, frame, log, counters, bookmark,\n"
         "                       region, memory, or all); adds to STROBE_TRACE\n"
         "  --tracefile=PATH     write the trace to PATH\n"
         "  --tracehost=HOST[:PORT]  stream it to a recorder (the viewer's: localhost)\n"
         "  --help               this text\n"
         "\n"
         "Without --trace, --tracefile or --tracehost (or the STROBE_TRACE, STROBE_TRACEFILE\n"
         "and STROBE_TRACEHOST variables) the program runs with tracing off, so it can be\n"
         "connected to later: the viewer's Connect dialog (Ctrl+K) lists it.\n",
         out);
}

static bool
parse_number (const char *arg, const char *name, double min, double max, double *out)
{
  size_t n = strlen (name);
  char *end;
  double v;

  if (strncmp (arg, name, n) != 0 || arg[n] != '=')
    return false;
  errno = 0;
  v = strtod (arg + n + 1, &end);
  if (errno != 0 || end == arg + n + 1 || *end != '\0' || v < min || v > max)
    {
      fprintf (stderr, "strobe-demo: %s takes a number from %g to %g, not “%s”\n", name, min, max, arg + n + 1);
      exit (2);
    }
  *out = v;
  return true;
}

static void
parse_options (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      double v;

      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          usage (stdout);
          exit (0);
        }
      else if (parse_number (argv[i], "--duration", 0, 1e7, &v))
        opt_duration = v;
      else if (parse_number (argv[i], "--rate", 1, 1000, &v))
        opt_rate = v;
      else if (parse_number (argv[i], "--threads", 1, 16, &v))
        opt_threads = (int) v;
      else if (strcmp (argv[i], "--no-server") == 0)
        opt_server = false;
      else if (strncmp (argv[i], "--serve-fds=", 12) == 0
               && sscanf (argv[i] + 12, "%d,%d", &server_in, &server_out) == 2)
        ;
      else
        {
          fprintf (stderr, "strobe-demo: unknown option “%s”\n", argv[i]);
          usage (stderr);
          exit (2);
        }
    }
}

/* ---- work that takes time ------------------------------------------------------------ */

static double
now_s (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

/* Busy for @us microseconds: the CPU time a real system would spend. */
static void
spin (double us)
{
  double until = now_s () + us / 1e6;

  while (now_s () < until)
    ;
}

static void
nap (double seconds)
{
  struct timespec t;

  if (seconds <= 0)
    return;
  t.tv_sec = (time_t) seconds;
  t.tv_nsec = (long) ((seconds - (double) t.tv_sec) * 1e9);
  nanosleep (&t, NULL);
}

/* A small, fast, per-thread generator: the demo must not depend on rand()'s locking. */
static uint32_t
next_random (uint32_t *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

/* Index 0..n-1, small ones far more likely (about Zipf's 1/k): a few scope names take
 * most of the time, as in real programs. */
static int
skewed (uint32_t *state, int n)
{
  double r = (double) (next_random (state) % 1000000) / 1e6;
  double sum = 0, total = 0;

  for (int k = 1; k <= n; k++)
    total += 1.0 / k;
  for (int k = 1; k <= n; k++)
    {
      sum += 1.0 / k / total;
      if (r < sum)
        return k - 1;
    }
  return n - 1;
}

/* ---- memory: three heaps of the program's own, reported as it uses them ------------- */

/* ---- the game server: a second process of the session ------------------------------- */

/* A request from the game: its flow id, and what it asks for. */
typedef struct
{
  uint64_t id;
  uint32_t kind;
} Request;

static const char *const request_names[] = { "Load player state", "Match players", "Save progress" };

static bool
read_all (int fd, void *data, size_t n)
{
  size_t got = 0;

  while (got < n)
    {
      ssize_t r = read (fd, (char *) data + got, n - got);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return false;
      got += (size_t) r;
    }
  return true;
}

static bool
write_all (int fd, const void *data, size_t n)
{
  size_t done = 0;

  while (done < n)
    {
      ssize_t w = write (fd, (const char *) data + done, n - done);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return false;
      done += (size_t) w;
    }
  return true;
}

/* The server's whole life: ticks at 20 Hz, and each request handled in a scope where its
 * flow passes; it ends when the game closes the pipe. */
static int
run_server (void)
{
  uint32_t rng = 0x5eed5eedu;
  double next_tick = now_s ();
  int tick = 0;

  /* Ctrl+C reaches the whole terminal's group: the server ends when the game does. */
  signal (SIGINT, SIG_IGN);
  strobe_init (NULL);
  strobe_set_process_name ("Strobe demo server");
  strobe_thread_set_name ("Server", NULL, 0);
  STROBE_LOG_MESSAGE (LogServer, STROBE_LOG_DISPLAY, "game server up, pid %d", (int) getpid ());
  for (;;)
    {
      fd_set readable;
      struct timeval tv;
      double left = next_tick - now_s ();

      FD_ZERO (&readable);
      FD_SET (server_in, &readable);
      tv.tv_sec = 0;
      tv.tv_usec = left > 0 ? (long) (left * 1e6) : 0;
      if (select (server_in + 1, &readable, NULL, NULL, &tv) > 0)
        {
          Request req;

          if (!read_all (server_in, &req, sizeof req))
            break;   /* the game has gone */
          {
            STROBE_CPU_SCOPE ("Handle request");
            strobe_flow_step (req.id);
            {
              STROBE_CPU_SCOPE_DYNAMIC (request_names[req.kind % 3]);
              spin (200 + next_random (&rng) % 1500);
            }
            if (req.kind % 3 == 1)
              STROBE_LOG_MESSAGE (LogServer, STROBE_LOG_LOG, "matched request %llu with %u players",
                                  (unsigned long long) (req.id & 0xffffffffu), 2 + next_random (&rng) % 6);
            if (!write_all (server_out, &req, sizeof req))
              break;
          }
        }
      if (now_s () >= next_tick)
        {
          strobe_frame_begin (STROBE_FRAME_GAME);
          {
            STROBE_CPU_SCOPE ("Server tick");
            spin (300 + next_random (&rng) % 400);
          }
          strobe_frame_end (STROBE_FRAME_GAME);
          next_tick += 0.05;
          if (++tick % 100 == 0)
            STROBE_LOG_MESSAGE (LogServer, STROBE_LOG_VERBOSE, "tick %d", tick);
        }
    }
  STROBE_LOG_MESSAGE (LogServer, STROBE_LOG_DISPLAY, "game server down after %d ticks", tick);
  strobe_shutdown ();
  return 0;
}

/* The game's side: the requests it sends (from the game thread) and a thread that takes
 * the replies, where each request's flow ends. */
static int    to_server = -1, from_server = -1;
static pid_t  server_pid;
static uint64_t next_request = 1;

static void *
net_thread (void *data)
{
  Request reply;

  (void) data;
  strobe_thread_set_name ("Net", NULL, 3);
  while (read_all (from_server, &reply, sizeof reply))
    {
      STROBE_CPU_SCOPE ("Reply from server");
      strobe_flow_end (reply.id);
    }
  return NULL;
}

static void
send_request (int frame, uint32_t *rng)
{
  Request req = { ((uint64_t) getpid () << 32) | next_request++, next_random (rng) % 3 };

  if (to_server < 0)
    return;
  STROBE_CPU_SCOPE ("Request to server");
  strobe_flow_begin (req.id);
  if (!write_all (to_server, &req, sizeof req))
    {
      STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_WARNING, "frame %d: the game server is gone", frame);
      close (to_server);
      to_server = -1;
    }
}

/* "dir/demo.strobe" → "dir/demo.server.strobe": the server's own trace file. */
static char *
server_trace_path (const char *path)
{
  const char *slash = strrchr (path, '/'), *dot = strrchr (path, '.');
  size_t stem = dot && (!slash || dot > slash + 1) ? (size_t) (dot - path) : strlen (path);
  char *out = malloc (strlen (path) + 16);

  if (out)
    sprintf (out, "%.*s.server%s", (int) stem, path, path + stem);
  return out;
}

/* Forks and execs this program as the server, with the game's trace options (its file
 * renamed), through two pipes. */
static void
start_server (const char *self, char *const *trace_args, int n_trace_args)
{
  int down[2], up[2];
  char fds[48];

  if (pipe (down) != 0 || pipe (up) != 0)
    return;
  snprintf (fds, sizeof fds, "--serve-fds=%d,%d", down[0], up[1]);
  server_pid = fork ();
  if (server_pid == 0)
    {
      char *argv[8];
      int n = 0;

      close (down[1]);
      close (up[0]);
      argv[n++] = (char *) self;
      argv[n++] = fds;
      for (int i = 0; i < n_trace_args && n < 7; i++)
        argv[n++] = trace_args[i];
      argv[n] = NULL;
      unsetenv ("STROBE_TRACEFILE");   /* the game's file: the server has its own */
      execv ("/proc/self/exe", argv);
      _exit (127);
    }
  close (down[0]);
  close (up[1]);
  if (server_pid < 0)
    {
      close (down[1]);
      close (up[0]);
      return;
    }
  to_server = down[1];
  from_server = up[0];
}

static uint32_t heap_entities;   /* a pool of fixed-size entity blocks */
static uint32_t heap_frame;      /* an arena reset at the end of every frame */
static uint32_t tag_ai, tag_physics, tag_textures, tag_scratch;

static _Atomic int64_t bytes_in_use;

static void *
demo_alloc (size_t size, uint32_t heap)
{
  void *p = malloc (size);

  if (p != NULL)
    {
      strobe_memory_alloc (p, size, 0, heap);
      atomic_fetch_add (&bytes_in_use, (int64_t) size);
    }
  return p;
}

static void
demo_free (void *p, size_t size, uint32_t heap)
{
  if (p == NULL)
    return;
  /* Reported before the memory goes back, so no other thread can reuse the address first. */
  strobe_memory_free (p, heap);
  atomic_fetch_sub (&bytes_in_use, (int64_t) size);
  free (p);
}

/* The frame arena: one block, bump-allocated, all freed at once. */
#define ARENA_BYTES (256 * 1024)
static unsigned char *arena;
static size_t arena_used;

static void *
arena_alloc (size_t size)
{
  void *p;

  size = (size + 15) & ~(size_t) 15;
  if (arena_used + size > ARENA_BYTES)
    return NULL;
  p = arena + arena_used;
  arena_used += size;
  strobe_memory_alloc (p, size, 16, heap_frame);
  return p;
}

static void
arena_reset (void)
{
  strobe_memory_heap_free_all (heap_frame);
  arena_used = 0;
}

/* ---- the job pool -------------------------------------------------------------------- */

typedef enum
{
  JOB_PATHFINDING,
  JOB_ANIMATION,
  JOB_VISIBILITY,
  JOB_AUDIO_MIX,
  JOB_STREAMING,
  JOB_PARTICLES,
  JOB_SCRIPTS,
  JOB_KINDS
} JobKind;

static const char *const job_names[JOB_KINDS] = {
  "Job: Pathfinding", "Job: Animation", "Job: Visibility", "Job: Audio mix",
  "Job: Streaming", "Job: Particles", "Job: Scripts",
};

typedef struct
{
  JobKind kind;
  double  us;          /* how long it works */
  int     frame;
} Job;

#define QUEUE_CAP 256
static Job queue[QUEUE_CAP];
static int queue_head, queue_len, jobs_running;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t queue_done = PTHREAD_COND_INITIALIZER;
static bool pool_stop;

static void
submit (Job job)
{
  pthread_mutex_lock (&queue_lock);
  if (queue_len < QUEUE_CAP)
    {
      queue[(queue_head + queue_len++) % QUEUE_CAP] = job;
      strobe_counter_set_int (&jobs_queued, queue_len);
      pthread_cond_signal (&queue_ready);
    }
  pthread_mutex_unlock (&queue_lock);
}

static void
wait_for_jobs (void)
{
  STROBE_CPU_SCOPE ("Wait for jobs");

  pthread_mutex_lock (&queue_lock);
  while (queue_len > 0 || jobs_running > 0)
    pthread_cond_wait (&queue_done, &queue_lock);
  pthread_mutex_unlock (&queue_lock);
}

/* The A* search's time goes mostly into one small function: the hot spot that sampling
 * finds (--trace=cpu,sampling; the scope alone says only that "A* search" is slow). */
static volatile double heuristic_sink;

__attribute__ ((noinline)) static double
astar_heuristic (double dx, double dy)
{
  double h = 0;

  for (int i = 0; i < 200; i++)
    h += sqrt (dx * dx + dy * dy + (double) i);
  return h;
}

__attribute__ ((noinline)) static void
astar_search (double us)
{
  double until = now_s () + us / 1e6, cost = 0;

  while (now_s () < until)
    for (int n = 0; n < 16; n++)
      cost += astar_heuristic ((double) n, cost * 1e-9);
  heuristic_sink = cost;
}

static void
run_job (const Job *job, uint32_t *rng)
{
  STROBE_CPU_SCOPE_DYNAMIC (job_names[job->kind]);

  switch (job->kind)
    {
    case JOB_PATHFINDING:
      {
        STROBE_MEMORY_TAG_SCOPE (tag_ai);
        void *open_set = demo_alloc (4096, STROBE_MEMORY_HEAP_SYSTEM);
        {
          STROBE_CPU_SCOPE ("A* search");
          astar_search (job->us * 0.8);
        }
        {
          STROBE_CPU_SCOPE ("Smooth path");
          spin (job->us * 0.2);
        }
        demo_free (open_set, 4096, STROBE_MEMORY_HEAP_SYSTEM);
      }
      break;
    case JOB_STREAMING:
      {
        STROBE_MEMORY_TAG_SCOPE (tag_textures);
        STROBE_CPU_SCOPE ("Decompress texture");
        spin (job->us);
        if (next_random (rng) % 8 == 0)
          STROBE_LOG_MESSAGE (LogStreaming, STROBE_LOG_VERBOSE, "streamed mip %u of texture %u (%u KiB)",
                              next_random (rng) % 12, next_random (rng) % 5000, 64 + next_random (rng) % 960);
      }
      break;
    default:
      spin (job->us);
      break;
    }
}

static void *
job_thread (void *arg)
{
  int index = (int) (intptr_t) arg;
  uint32_t rng = 0x9e3779b9u * (uint32_t) (index + 1);
  char name[32];

  snprintf (name, sizeof name, "Job worker %d", index);
  strobe_thread_set_name (name, "Job pool", 100 + index);
  for (;;)
    {
      Job job;

      pthread_mutex_lock (&queue_lock);
      while (queue_len == 0 && !pool_stop)
        pthread_cond_wait (&queue_ready, &queue_lock);
      if (pool_stop)
        {
          pthread_mutex_unlock (&queue_lock);
          return NULL;
        }
      job = queue[queue_head];
      queue_head = (queue_head + 1) % QUEUE_CAP;
      queue_len--;
      jobs_running++;
      strobe_counter_set_int (&jobs_queued, queue_len);
      pthread_mutex_unlock (&queue_lock);

      run_job (&job, &rng);

      pthread_mutex_lock (&queue_lock);
      if (--jobs_running == 0 && queue_len == 0)
        pthread_cond_broadcast (&queue_done);
      pthread_mutex_unlock (&queue_lock);
    }
}

/* ---- the render thread: draws frame N while the game simulates N + 1 ----------------- */

static pthread_mutex_t render_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t render_go = PTHREAD_COND_INITIALIZER;
static int render_frame = -1;        /* the frame handed over, -1: none */
static int render_entities;
static bool render_stop;

static void *
render_thread (void *arg)
{
  uint32_t rng = 0x2545f491u;

  (void) arg;
  strobe_thread_set_name ("Render", NULL, 1);
  for (int last = -1;;)
    {
      int frame, entities;

      pthread_mutex_lock (&render_lock);
      while (render_frame == last && !render_stop)
        pthread_cond_wait (&render_go, &render_lock);
      if (render_stop)
        {
          pthread_mutex_unlock (&render_lock);
          return NULL;
        }
      frame = last = render_frame;
      entities = render_entities;
      pthread_mutex_unlock (&render_lock);

      strobe_frame_begin (STROBE_FRAME_RENDER);
      {
        STROBE_CPU_SCOPE ("Render frame");
        {
          STROBE_CPU_SCOPE ("Cull");
          spin (300 + entities * 0.2);
        }
        {
          STROBE_CPU_SCOPE ("Build commands");
          {
            STROBE_CPU_SCOPE ("Opaque pass");
            for (int batch = 0; batch < 6; batch++)
              {
                STROBE_CPU_SCOPE ("Draw batch");
                spin (120 + (double) (next_random (&rng) % 80));
              }
          }
          {
            STROBE_CPU_SCOPE ("Transparent pass");
            spin (250);
          }
          {
            STROBE_CPU_SCOPE ("UI");
            spin (150);
          }
        }
        {
          STROBE_CPU_SCOPE ("Present");
          nap (0.0008);
        }
      }
      strobe_frame_end (STROBE_FRAME_RENDER);
      if (frame % 300 == 0)
        STROBE_LOG_MESSAGE (LogRender, STROBE_LOG_DISPLAY, "frame %d: %d draw calls, %.1f MB of textures resident",
                            frame, 6 * 40 + entities / 10, 120.0 + (double) (frame % 1000) / 25.0);
    }
}

/* ---- the game thread ------------------------------------------------------------------- */

typedef enum
{
  SPIKE_NONE,
  SPIKE_LONG_JOB,
  SPIKE_ALLOCATIONS,
  SPIKE_LOG_STORM,
} Spike;

static const char *const think_names[] = {
  "Think: Soldier", "Think: Villager", "Think: Merchant", "Think: Guard", "Think: Wolf",
  "Think: Dragon", "Think: Courier", "Think: Boss",
};

typedef struct
{
  void    *block;
  uint32_t kind;
} Entity;

#define MAX_ENTITIES 4096
#define ENTITY_BYTES 256

static void
simulate (int frame, Entity *entities, int *n_entities, uint32_t *rng, Spike spike)
{
  STROBE_CPU_SCOPE ("Simulation");

  {
    STROBE_CPU_SCOPE ("Input");
    spin (80);
  }
  {
    STROBE_CPU_SCOPE ("AI");
    STROBE_MEMORY_TAG_SCOPE (tag_ai);
    /* The per-entity think scopes: a few kinds take most of the time. */
    for (int i = 0; i < 40; i++)
      {
        int kind = skewed (rng, (int) (sizeof think_names / sizeof think_names[0]));

        STROBE_CPU_SCOPE_DYNAMIC (think_names[kind]);
        spin (10 + kind * 6);
      }
  }
  {
    STROBE_CPU_SCOPE ("Physics");
    STROBE_MEMORY_TAG_SCOPE (tag_physics);
    {
      STROBE_CPU_SCOPE ("Broadphase");
      spin (200 + *n_entities * 0.05);
    }
    {
      STROBE_CPU_SCOPE ("Narrowphase");
      void *pairs = arena_alloc (16 * 1024);
      (void) pairs;
      spin (350);
    }
    {
      STROBE_CPU_SCOPE ("Solve");
      for (int island = 0; island < 4; island++)
        {
          STROBE_CPU_SCOPE ("Solve island");
          spin (60);
        }
    }
  }
  {
    STROBE_CPU_SCOPE ("Spawn and despawn");
    /* The world breathes: entities come and go, in the pool heap. */
    int target = 1500 + (int) (1000.0 * (0.5 + 0.5 * sin ((double) frame / 400.0)));

    while (*n_entities < target && *n_entities < MAX_ENTITIES)
      {
        Entity *e = &entities[(*n_entities)++];
        e->block = demo_alloc (ENTITY_BYTES, heap_entities);
        e->kind = next_random (rng) % 8;
      }
    while (*n_entities > target)
      {
        Entity *e = &entities[--*n_entities];
        demo_free (e->block, ENTITY_BYTES, heap_entities);
      }
  }

  /* Temporary churn: scratch buffers that live for a moment. */
  {
    STROBE_CPU_SCOPE ("Scratch buffers");
    STROBE_MEMORY_TAG_SCOPE (tag_scratch);
    int n = spike == SPIKE_ALLOCATIONS ? 20000 : 40;

    if (spike == SPIKE_ALLOCATIONS)
      STROBE_BOOKMARK ("Spike: allocation burst");
    for (int i = 0; i < n; i++)
      {
        size_t size = 32 + next_random (rng) % 2048;
        void *p = demo_alloc (size, STROBE_MEMORY_HEAP_SYSTEM);
        if (p)
          memset (p, 0, size < 64 ? size : 64);
        demo_free (p, size, STROBE_MEMORY_HEAP_SYSTEM);
      }
  }

  /* A slow leak: a texture cache that never lets go. */
  if (frame % 50 == 0)
    {
      STROBE_MEMORY_TAG_SCOPE (tag_textures);
      (void) demo_alloc (4096 + (size_t) (frame % 7) * 512, STROBE_MEMORY_HEAP_SYSTEM);
    }

  if (spike == SPIKE_LOG_STORM)
    {
      STROBE_CPU_SCOPE ("Network resync");
      STROBE_BOOKMARK ("Spike: log storm");
      for (int i = 0; i < 3000; i++)
        STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_WARNING, "packet %d from peer %u out of order (expected %d)",
                            frame * 4000 + i, next_random (rng) % 64, frame * 4000 + i - 1);
    }
}

static void
dispatch_jobs (int frame, uint32_t *rng, Spike spike)
{
  STROBE_CPU_SCOPE ("Dispatch jobs");
  int n = 6 + (int) (next_random (rng) % 6);

  for (int i = 0; i < n; i++)
    {
      Job job = { (JobKind) skewed (rng, JOB_KINDS), 150 + (double) (next_random (rng) % 600), frame };
      submit (job);
    }
  if (spike == SPIKE_LONG_JOB)
    {
      Job job = { JOB_PATHFINDING, 45000, frame };   /* 45 ms: three frames' worth */

      STROBE_BOOKMARK ("Spike: long pathfinding job");
      STROBE_LOG_MESSAGE (LogJobs, STROBE_LOG_WARNING, "frame %d: pathfinding over the whole map (%d nodes)",
                          frame, 250000);
      submit (job);
    }
}

static void
game_loop (void)
{
  static Entity entities[MAX_ENTITIES];
  int n_entities = 0;
  uint32_t rng = 0x12345678u;
  double start = started, period = 1.0 / opt_rate, next = now_s ();
  double next_spike = start + 3.0;
  int spike_kind = 0;

  strobe_region_begin ("Loading level");
  STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "loading level “%s” (%d sectors)", "Harbour", 42);
  {
    STROBE_CPU_SCOPE ("Load level");
    for (int sector = 0; sector < 42; sector++)
      {
        STROBE_CPU_SCOPE ("Load sector");
        spin (900);
      }
  }
  strobe_region_end ("Loading level");
  STROBE_BOOKMARK ("Level loaded");
  STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_LOG, "level ready after %.2f s", now_s () - start);

  for (int frame = 0; !stopping; frame++)
    {
      double t0 = now_s ();
      Spike spike = SPIKE_NONE;

      if (opt_duration > 0 && t0 - start >= opt_duration)
        break;
      if (t0 >= next_spike)
        {
          spike = (Spike) (1 + spike_kind++ % 3);
          next_spike = t0 + 5.0 + (double) (next_random (&rng) % 4000) / 1000.0;
        }
      if (frame % 1200 == 600)
        strobe_region_begin ("Boss fight");
      if (frame % 1200 == 1100)
        {
          strobe_region_end ("Boss fight");
          STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "boss defeated at frame %d", frame);
        }

      strobe_frame_begin (STROBE_FRAME_GAME);
      {
        STROBE_CPU_SCOPE ("Game frame");

        dispatch_jobs (frame, &rng, spike);
        if (frame % 20 == 5)
          send_request (frame, &rng);
        simulate (frame, entities, &n_entities, &rng, spike);
        wait_for_jobs ();
        {
          STROBE_CPU_SCOPE ("Hand over to render");
          pthread_mutex_lock (&render_lock);
          render_frame = frame;
          render_entities = n_entities;
          pthread_cond_signal (&render_go);
          pthread_mutex_unlock (&render_lock);
        }
        arena_reset ();
      }
      strobe_frame_end (STROBE_FRAME_GAME);

      strobe_counter_set_float (&frame_ms, (now_s () - t0) * 1000.0);
      strobe_counter_set_int (&entity_count, n_entities);
      strobe_counter_set_int (&memory_used, atomic_load (&bytes_in_use));
      if (frame % 600 == 0)
        {
          char text[64];

          snprintf (text, sizeof text, "Checkpoint %d", frame / 600);
          strobe_bookmark_text (text);
          STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_LOG, "checkpoint %d: %d entities, %lld bytes in use",
                              frame / 600, n_entities, (long long) atomic_load (&bytes_in_use));
        }
      if (frame % 97 == 13)
        STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_VERBOSE, "ping %u ms to %s", 20 + next_random (&rng) % 40, "eu-west");
      if (frame % 1000 == 999)
        STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_ERROR, "asset “%s” missing, using a placeholder", "props/crate_07.mesh");

      /* Keep the rate: sleep what is left of the frame. */
      next += period;
      if (next < now_s ())
        next = now_s ();
      nap (next - now_s ());
    }

  /* The world goes away at exit: what stays live is the texture cache's slow leak. */
  while (n_entities > 0)
    {
      Entity *e = &entities[--n_entities];
      demo_free (e->block, ENTITY_BYTES, heap_entities);
    }
}

int
main (int argc, char **argv)
{
  pthread_t render, pool[16], net;
  struct sigaction sa;
  const char *trace = getenv ("STROBE_TRACE");
  char *trace_args[3];
  char *owned_args[3] = { NULL, NULL, NULL };   /* the --tracefile= made here, freed at exit */
  int n_trace_args = 0;
  const char *self = argv[0];

  /* The server is started with the game's own trace options: kept before the runtime
   * consumes them; the trace file becomes the server's. */
  for (int i = 1; i < argc; i++)
    if (strncmp (argv[i], "--tracefile=", 12) == 0 && n_trace_args < 3)
      {
        char *path = server_trace_path (argv[i] + 12);
        if (path && (owned_args[n_trace_args] = malloc (strlen (path) + 13)) != NULL)
          {
            sprintf (owned_args[n_trace_args], "--tracefile=%s", path);
            trace_args[n_trace_args] = owned_args[n_trace_args];
            n_trace_args++;
          }
        free (path);
      }
    else if ((strncmp (argv[i], "--trace=", 8) == 0 || strncmp (argv[i], "--tracehost=", 12) == 0)
             && n_trace_args < 3)
      trace_args[n_trace_args++] = argv[i];
  if (getenv ("STROBE_TRACEFILE") && n_trace_args < 3)
    {
      char *path = server_trace_path (getenv ("STROBE_TRACEFILE"));
      if (path && (owned_args[n_trace_args] = malloc (strlen (path) + 13)) != NULL)
        {
          sprintf (owned_args[n_trace_args], "--tracefile=%s", path);
          trace_args[n_trace_args] = owned_args[n_trace_args];
          n_trace_args++;
        }
      free (path);
    }

  /* --trace=, --tracefile=, --tracehost= are the runtime's; the rest is ours. */
  strobe_parse_args (&argc, &argv);
  parse_options (argc, argv);
  started = now_s ();
  if (server_in >= 0)
    {
      for (int i = 0; i < 3; i++)
        free (owned_args[i]);
      return run_server ();
    }
  /* One session for the game and its server, so a recorder keeps them as one group. */
  if (opt_server && !getenv ("STROBE_SESSION"))
    {
      char name[64];
      snprintf (name, sizeof name, "strobe-demo-%d", (int) getpid ());
      strobe_set_session_name (name);
    }

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  /* Always started: with tracing off it still listens for a control connection and
   * announces itself, so a viewer can find it and connect later. */
  strobe_init (NULL);
  strobe_set_process_name ("Strobe demo");
  strobe_thread_set_name ("Game", NULL, 0);

  heap_entities = strobe_memory_heap_register ("Entity pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  heap_frame = strobe_memory_heap_register ("Frame arena", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_ARENA);
  tag_ai = strobe_memory_tag_register ("AI", STROBE_MEMORY_TAG_NONE);
  tag_physics = strobe_memory_tag_register ("Physics", STROBE_MEMORY_TAG_NONE);
  tag_textures = strobe_memory_tag_register ("Textures", STROBE_MEMORY_TAG_NONE);
  tag_scratch = strobe_memory_tag_register ("Scratch", STROBE_MEMORY_TAG_NONE);
  arena = demo_alloc (ARENA_BYTES, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_mark (arena, STROBE_MEMORY_HEAP_SYSTEM, heap_frame);

  printf ("strobe-demo: running as pid %d, %g frames/s, %d job threads", (int) getpid (), opt_rate, opt_threads);
  if (opt_duration > 0)
    printf (", for %g s", opt_duration);
  printf (".\n");
  if (strobe_output_active ())
    printf ("  Tracing %s.\n", trace && *trace ? trace : "the channels given with --trace");
  else
    printf ("  Tracing is off. To trace it, open the viewer and use Connect (Ctrl+K),\n"
            "  or: strobe-cli control %d send-to localhost   (into a running viewer)\n", (int) getpid ());
  if (strobe_get_control_port () != 0)
    printf ("  Control server: 127.0.0.1:%u.", strobe_get_control_port ());
  printf (" Stop with Ctrl+C.\n");
  fflush (stdout);

  if (opt_server)
    start_server (self, trace_args, n_trace_args);
  if (from_server >= 0)
    {
      printf ("  Game server: pid %d, session %s.\n", (int) server_pid, getenv ("STROBE_SESSION"));
      fflush (stdout);
      pthread_create (&net, NULL, net_thread, NULL);
    }
  pthread_create (&render, NULL, render_thread, NULL);
  for (int i = 0; i < opt_threads; i++)
    pthread_create (&pool[i], NULL, job_thread, (void *) (intptr_t) i);

  game_loop ();

  /* The server ends when its pipe closes, and so does the net thread when the server has. */
  if (to_server >= 0)
    close (to_server);
  if (from_server >= 0)
    {
      pthread_join (net, NULL);
      waitpid (server_pid, NULL, 0);
    }

  pthread_mutex_lock (&queue_lock);
  pool_stop = true;
  pthread_cond_broadcast (&queue_ready);
  pthread_mutex_unlock (&queue_lock);
  pthread_mutex_lock (&render_lock);
  render_stop = true;
  pthread_cond_signal (&render_go);
  pthread_mutex_unlock (&render_lock);
  for (int i = 0; i < opt_threads; i++)
    pthread_join (pool[i], NULL);
  pthread_join (render, NULL);

  strobe_memory_heap_unmark (arena, STROBE_MEMORY_HEAP_SYSTEM, heap_frame);
  demo_free (arena, ARENA_BYTES, STROBE_MEMORY_HEAP_SYSTEM);
  STROBE_LOG_MESSAGE (LogGame, STROBE_LOG_DISPLAY, "shutting down after %.1f s", now_s () - started);
  strobe_shutdown ();
  for (int i = 0; i < 3; i++)
    free (owned_args[i]);
  return 0;
}
