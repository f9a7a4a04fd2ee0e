/* memview-emitter.c — the program behind tests/data/golden-memview.strobe and the memory
 * view's tests: known patterns, each on its own tag, over 60 frames a millisecond apart.
 *
 *   Startup  8 × 4096 B at the start, freed at the end (long-lived)
 *   Cache    4 × 256 B a frame: steady growth, freed at the end; a "loader" thread's
 *            20 × 512 B half way, freed by it at once
 *   Frame    10 × 64 B a frame, each freed at once (temporary churn)
 *   Leaky    1234 B every sixth frame, never freed: 10 leaks, 12 340 bytes
 *   Audio    2 × 128 B a frame in heap "Pool" (a 64 KiB System slab), one freed a frame later
 *   Meshes   3 × 100 B a frame in heap "Arena" (a 32 KiB System chunk), reset every 10 frames
 *
 * Addresses are made up (nothing is touched), so the golden outputs are the same on every
 * machine. With --stacks, every allocation has a call stack: frame #0 is the function
 * that reports it (site_*), and the callers above it are this program's own functions
 * (a stack walker of ours supplies them), so they symbolize to known names and lines.
 * With --late, the Startup blocks are allocated before tracing starts (and freed after):
 * a trace that began in the middle, without the live-allocation table. With --gap, the
 * Memory channel is off from frame 20 to frame 40 (a user's toggle in a live session):
 * the program goes on allocating, and turning it on again must not read as a mass free.
 *
 * Usage: memview-emitter OUTPUT.strobe [--stacks] [--late] [--gap]
 * To re-record the golden trace (only when the format changes on purpose): see
 * tests/memory/test-memory-view-model.c.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <strobe/strobe.h>

#define A(x) ((const void *) (uintptr_t) (x))
#define NOINLINE __attribute__ ((noinline))

static int gap;
static uint32_t pool, arena, t_startup, t_cache, t_frame, t_leaky, t_audio, t_meshes;

/* ---- call stacks: callers named by the code ------------------------------------------------ */

#define MAX_PATH 8
static __thread void *path[MAX_PATH];
static __thread int path_len;

/* The runtime puts the reporting function first and looks for it in what we return;
 * not finding it, it skips the first four frames (its own and ours). */
static int
walker (void **frames, int max)
{
  int n = 0;

  for (int i = 0; i < 4 && n < max; i++)
    frames[n++] = NULL;
  for (int i = 0; i < path_len && n < max; i++)
    frames[n++] = path[i];
  return n;
}

/* An address inside @fn, as a return address into it would be. */
#define IN(fn) ((void *) ((uintptr_t) (fn) + 1))

static void
callers (int n, ...)
{
  __builtin_va_list ap;

  __builtin_va_start (ap, n);
  path_len = 0;
  for (int i = 0; i < n && i < MAX_PATH; i++)
    path[path_len++] = __builtin_va_arg (ap, void *);
  __builtin_va_end (ap);
}

int main (int argc, char **argv);
NOINLINE static void load_level (void);
NOINLINE static void frame_update (int frame);
NOINLINE static void game_loop (void);
NOINLINE static void *loader (void *data);

/* Each site reports what it is given, so frame #0 is the site. */
NOINLINE static void
site_startup (uint64_t address)
{
  strobe_memory_alloc (A (address), 4096, 0, STROBE_MEMORY_HEAP_SYSTEM);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_cache (uint64_t address, uint64_t size)
{
  strobe_memory_alloc (A (address), size, 0, STROBE_MEMORY_HEAP_SYSTEM);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_scratch (uint64_t address)
{
  strobe_memory_alloc (A (address), 64, 0, STROBE_MEMORY_HEAP_SYSTEM);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_leak (uint64_t address)
{
  strobe_memory_alloc (A (address), 1234, 0, STROBE_MEMORY_HEAP_SYSTEM);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_pool (uint64_t address)
{
  strobe_memory_alloc (A (address), 128, 16, pool);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_arena (uint64_t address)
{
  strobe_memory_alloc (A (address), 100, 0, arena);
  __asm__ volatile ("" ::: "memory");
}

NOINLINE static void
site_block (uint64_t address, uint64_t size)
{
  strobe_memory_alloc (A (address), size, 4096, STROBE_MEMORY_HEAP_SYSTEM);
  __asm__ volatile ("" ::: "memory");
}

/* ---- the program ---------------------------------------------------------------------------- */

#define STARTUP_BASE 0x100000ull
#define CACHE_BASE   0x200000ull
#define SCRATCH_BASE 0x300000ull
#define LEAK_BASE    0x400000ull
#define SLAB_BASE    0x500000ull
#define CHUNK_BASE   0x600000ull
#define LOADER_BASE  0x700000ull

static int frames_done;

NOINLINE static void
load_level (void)
{
  strobe_memory_tag_push (t_startup);
  callers (2, IN (load_level), IN (main));
  for (int i = 0; i < 8; i++)
    site_startup (STARTUP_BASE + 4096ull * (uint64_t) i);
  strobe_memory_tag_pop ();
  /* The pool's slab and the arena's chunk come from System and back their heaps. */
  callers (2, IN (load_level), IN (main));
  site_block (SLAB_BASE, 65536);
  strobe_memory_heap_mark (A (SLAB_BASE), STROBE_MEMORY_HEAP_SYSTEM, pool);
  site_block (CHUNK_BASE, 32768);
  strobe_memory_heap_mark (A (CHUNK_BASE), STROBE_MEMORY_HEAP_SYSTEM, arena);
}

NOINLINE static void *
loader (void *data)
{
  (void) data;
  strobe_thread_set_name ("loader", "memview", 1);
  callers (1, IN (loader));
  strobe_memory_tag_push (t_cache);
  for (int i = 0; i < 20; i++)
    site_cache (LOADER_BASE + 512ull * (uint64_t) i, 512);
  for (int i = 19; i >= 0; i--)
    strobe_memory_free (A (LOADER_BASE + 512ull * (uint64_t) i), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_tag_pop ();
  return NULL;
}

NOINLINE static void
frame_update (int f)
{
  uint64_t slot = (uint64_t) f;

  callers (3, IN (frame_update), IN (game_loop), IN (main));
  strobe_memory_tag_push (t_cache);
  for (int i = 0; i < 4; i++)
    site_cache (CACHE_BASE + 256ull * (slot * 4 + (uint64_t) i), 256);
  strobe_memory_tag_pop ();

  strobe_memory_tag_push (t_frame);
  for (int i = 0; i < 10; i++)
    {
      site_scratch (SCRATCH_BASE + 64ull * (uint64_t) i);
      strobe_memory_free (A (SCRATCH_BASE + 64ull * (uint64_t) i), STROBE_MEMORY_HEAP_SYSTEM);
    }
  strobe_memory_tag_pop ();

  strobe_memory_tag_push (t_audio);
  for (int i = 0; i < 2; i++)
    site_pool (SLAB_BASE + 128ull * (slot * 2 + (uint64_t) i));
  if (f > 0)
    strobe_memory_free (A (SLAB_BASE + 128ull * ((slot - 1) * 2 + 1)), pool);
  strobe_memory_tag_pop ();

  strobe_memory_tag_push (t_meshes);
  for (int i = 0; i < 3; i++)
    site_arena (CHUNK_BASE + 100ull * (uint64_t) ((f % 10) * 3 + i));
  if (f % 10 == 9)
    strobe_memory_heap_free_all (arena);
  strobe_memory_tag_pop ();

  if (f % 6 == 5)
    {
      strobe_memory_tag_push (t_leaky);
      site_leak (LEAK_BASE + 2048ull * (uint64_t) (f / 6));
      strobe_memory_tag_pop ();
    }
}

NOINLINE static void
game_loop (void)
{
  for (int f = 0; f < 60; f++)
    {
      if (gap && (f == 20 || f == 40))
        strobe_channel_set_enabled ("Memory", f == 40);
      frame_update (f);
      if (f == 30)
        {
          pthread_t t;
          pthread_create (&t, NULL, loader, NULL);
          pthread_join (t, NULL);
        }
      usleep (1000);
      frames_done++;
    }
}

static void
shut_down_all (void)
{
  for (int i = 0; i < 8; i++)
    strobe_memory_free (A (STARTUP_BASE + 4096ull * (uint64_t) i), STROBE_MEMORY_HEAP_SYSTEM);
  for (uint64_t k = 0; k < 60 * 4; k++)
    strobe_memory_free (A (CACHE_BASE + 256ull * k), STROBE_MEMORY_HEAP_SYSTEM);
  /* Frame 59's second item and every first item are still in the pool. */
  for (uint64_t f = 0; f < 60; f++)
    strobe_memory_free (A (SLAB_BASE + 128ull * (f * 2)), pool);
  strobe_memory_free (A (SLAB_BASE + 128ull * (59 * 2 + 1)), pool);
  strobe_memory_heap_unmark (A (SLAB_BASE), STROBE_MEMORY_HEAP_SYSTEM, pool);
  strobe_memory_free (A (SLAB_BASE), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_unmark (A (CHUNK_BASE), STROBE_MEMORY_HEAP_SYSTEM, arena);
  strobe_memory_free (A (CHUNK_BASE), STROBE_MEMORY_HEAP_SYSTEM);
}

int
main (int argc, char **argv)
{
  int stacks = 0, late = 0;

  if (argc < 2)
    return 2;
  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--stacks") == 0)
        stacks = 1;
      else if (strcmp (argv[i], "--late") == 0)
        late = 1;
      else if (strcmp (argv[i], "--gap") == 0)
        gap = 1;
      else
        return 2;
    }
  strobe_init (NULL);
  strobe_thread_set_name ("main", "memview", 0);
  pool = strobe_memory_heap_register ("Pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  arena = strobe_memory_heap_register ("Arena", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_ARENA);
  t_startup = strobe_memory_tag_register ("Startup", STROBE_MEMORY_TAG_NONE);
  t_cache = strobe_memory_tag_register ("Cache", STROBE_MEMORY_TAG_NONE);
  t_frame = strobe_memory_tag_register ("Frame", STROBE_MEMORY_TAG_NONE);
  t_leaky = strobe_memory_tag_register ("Leaky", STROBE_MEMORY_TAG_NONE);
  t_audio = strobe_memory_tag_register ("Audio", STROBE_MEMORY_TAG_NONE);
  t_meshes = strobe_memory_tag_register ("Meshes", t_audio);
  if (stacks)
    {
      strobe_memory_set_stack_walker (walker);
      strobe_memory_set_callstacks (true);
    }
  if (late)
    {
      /* Before the channel is on: the trace never sees these allocated. */
      strobe_memory_tag_push (t_startup);
      for (int i = 0; i < 8; i++)
        site_startup (STARTUP_BASE + 4096ull * (uint64_t) i);
      strobe_memory_tag_pop ();
    }
  strobe_channels_set_enabled ("memory", true);
  if (!strobe_output_file (argv[1]))
    return 1;
  if (late)
    {
      callers (2, IN (load_level), IN (main));
      site_block (SLAB_BASE, 65536);
      strobe_memory_heap_mark (A (SLAB_BASE), STROBE_MEMORY_HEAP_SYSTEM, pool);
      site_block (CHUNK_BASE, 32768);
      strobe_memory_heap_mark (A (CHUNK_BASE), STROBE_MEMORY_HEAP_SYSTEM, arena);
    }
  else
    load_level ();
  game_loop ();
  shut_down_all ();
  strobe_shutdown ();
  return frames_done == 60 ? 0 : 1;
}
