/* logmem-emitter.c — the program behind tests/data/golden-logmem.strobe: log messages in
 * two categories on two threads, and the memory API for custom allocators (a pool and an
 * arena carved from System blocks, tags, reallocs in place, moved and failed, an arena
 * reset, a leak). Addresses are made up (no memory is touched), so the golden outputs
 * are the same on every machine.
 *
 * Usage: logmem-emitter OUTPUT.strobe
 */
#include <pthread.h>
#include <stdint.h>

#include <strobe/strobe.h>

STROBE_LOG_CATEGORY_DEFINE (LogGolden, STROBE_LOG_VERBOSITY_LOG);
STROBE_LOG_CATEGORY_DEFINE (LogNet, STROBE_LOG_VERBOSITY_WARNING);

#define A(x) ((const void *) (uintptr_t) (x))

static uint32_t pool, arena, tag_render, tag_meshes, tag_audio;

static void *
worker (void *data)
{
  (void) data;
  strobe_thread_set_name ("worker", "golden", 1);
  STROBE_LOG_MESSAGE (LogGolden, STROBE_LOG_DISPLAY, "worker %s with %d blocks", "started", 16);
  for (int i = 0; i < 16; i++)
    strobe_memory_alloc (A (0x600000 + 32 * i), 32, 0, STROBE_MEMORY_HEAP_SYSTEM);
  for (int i = 15; i >= 0; i--)
    strobe_memory_free (A (0x600000 + 32 * i), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_alloc (A (0x610000), 48, 0, STROBE_MEMORY_HEAP_SYSTEM);   /* temporary */
  strobe_memory_free (A (0x610000), STROBE_MEMORY_HEAP_SYSTEM);
  STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_ERROR, "connection to %s:%u lost after %.2f s", "example.org", 443u, 1.5);
  STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_LOG, "not shown: LogNet is at Warning");
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t;

  if (argc != 2)
    return 2;
  strobe_init (NULL);
  strobe_thread_set_name ("main", "golden", 0);
  strobe_channels_set_enabled ("log,memory", true);
  if (!strobe_output_file (argv[1]))
    return 1;

  STROBE_LOG_MESSAGE (LogGolden, STROBE_LOG_LOG, "golden trace, version %d.%d", 1, 0);
  pool = strobe_memory_heap_register ("Pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  arena = strobe_memory_heap_register ("Arena", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_ARENA);
  tag_render = strobe_memory_tag_register ("Render", STROBE_MEMORY_TAG_NONE);
  tag_meshes = strobe_memory_tag_register ("Meshes", tag_render);
  tag_audio = strobe_memory_tag_register ("Audio", STROBE_MEMORY_TAG_NONE);

  /* A pool slab from System, then pool items (the first at the slab's own address). */
  strobe_memory_alloc (A (0x100000), 1 << 20, 4096, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_mark (A (0x100000), STROBE_MEMORY_HEAP_SYSTEM, pool);
  strobe_memory_tag_push (tag_meshes);
  strobe_memory_alloc (A (0x100000), 64, 16, pool);
  strobe_memory_alloc (A (0x100040), 64, 16, pool);
  strobe_memory_alloc (A (0x100080), 64, 16, pool);
  strobe_memory_tag_pop ();
  strobe_memory_free (A (0x100040), pool);
  STROBE_LOG_MESSAGE (LogGolden, STROBE_LOG_VERBOSE, "pool: %zu items of %zu bytes", (size_t) 2, (size_t) 64);
  STROBE_LOG_MESSAGE (LogGolden, STROBE_LOG_LOG, "pool: %zu items of %zu bytes", (size_t) 2, (size_t) 64);

  /* An arena chunk: two allocations, then a reset, then the chunk goes back. */
  strobe_memory_alloc (A (0x200000), 65536, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_mark (A (0x200000), STROBE_MEMORY_HEAP_SYSTEM, arena);
  {
    STROBE_MEMORY_TAG_SCOPE (tag_audio);
    strobe_memory_alloc (A (0x200000), 100, 0, arena);
    strobe_memory_alloc (A (0x200064), 200, 0, arena);
  }
  strobe_memory_heap_free_all (arena);
  strobe_memory_heap_unmark (A (0x200000), STROBE_MEMORY_HEAP_SYSTEM, arena);
  strobe_memory_free (A (0x200000), STROBE_MEMORY_HEAP_SYSTEM);
  STROBE_LOG_MESSAGE (LogNet, STROBE_LOG_WARNING, "arena reset: %d%% of %#x bytes were in use", 0, 65536u);

  /* System reallocs: grow in place, move, fail (the old block stays), then a leak. */
  strobe_memory_tag_push (tag_render);
  strobe_memory_alloc (A (0x300000), 1000, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_begin (A (0x300000), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_end (A (0x300000), A (0x300000), 2000, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_begin (A (0x300000), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_end (A (0x300000), A (0x400000), 50, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_begin (A (0x400000), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_realloc_end (A (0x400000), NULL, 5000, 0, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_tag_pop ();
  strobe_memory_alloc (A (0x500000), 777, 64, STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_free (A (0x700000), STROBE_MEMORY_HEAP_SYSTEM);   /* never allocated */

  pthread_create (&t, NULL, worker, NULL);
  pthread_join (t, NULL);
  STROBE_LOG_MESSAGE (LogGolden, STROBE_LOG_FATAL, "done: %s (%c) %5.1e %p", "ok", 'y', 12345.0, A (0xbeef));
  strobe_shutdown ();
  return 0;
}
