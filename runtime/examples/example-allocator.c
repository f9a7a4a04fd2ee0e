/* example-allocator.c — memory tracing of a program's own allocator: a pool carved from
 * the system heap, tags on what allocations are for, and a leak to find.
 *
 *   example-allocator --trace=memory --tracefile=allocator.strobe
 *   strobe-cli memory allocator.strobe
 *
 * (malloc and free themselves are traced without code changes: strobe-cli run PROGRAM.)
 */
#include <stdlib.h>
#include <strobe/strobe.h>

#define BLOCK   64
#define BLOCKS  256

typedef struct
{
  unsigned char *slab;
  unsigned char  used[BLOCKS];
  uint32_t       heap;
} Pool;

static void *
pool_take (Pool *pool)
{
  for (int i = 0; i < BLOCKS; i++)
    if (!pool->used[i])
      {
        void *p = pool->slab + i * BLOCK;

        pool->used[i] = 1;
        /* Reported after the memory is obtained… */
        strobe_memory_alloc (p, BLOCK, 16, pool->heap);
        return p;
      }
  return NULL;
}

static void
pool_give (Pool *pool, void *p)
{
  /* …and before it is given back, so no other thread can reuse the address first. */
  strobe_memory_free (p, pool->heap);
  pool->used[((unsigned char *) p - pool->slab) / BLOCK] = 0;
}

int
main (int argc, char **argv)
{
  Pool pool = { 0 };
  uint32_t tag_mesh, tag_sound;
  void *kept[8];

  strobe_parse_args (&argc, &argv);
  strobe_init (NULL);

  /* The pool is a heap of its own, whose memory comes from the system heap. */
  pool.heap = strobe_memory_heap_register ("Block pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  pool.slab = malloc (BLOCK * BLOCKS);
  strobe_memory_alloc (pool.slab, BLOCK * BLOCKS, 0, STROBE_MEMORY_HEAP_SYSTEM);
  /* The slab backs the pool: counted as the pool's reserve, not as used memory. */
  strobe_memory_heap_mark (pool.slab, STROBE_MEMORY_HEAP_SYSTEM, pool.heap);

  tag_mesh = strobe_memory_tag_register ("Meshes", STROBE_MEMORY_TAG_NONE);
  tag_sound = strobe_memory_tag_register ("Sounds", STROBE_MEMORY_TAG_NONE);

  /* Temporary churn, tagged Meshes. */
  strobe_memory_tag_push (tag_mesh);
  for (int i = 0; i < 100; i++)
    pool_give (&pool, pool_take (&pool));
  strobe_memory_tag_pop ();

  /* Eight blocks kept: five are given back, three leak. */
  strobe_memory_tag_push (tag_sound);
  for (int i = 0; i < 8; i++)
    kept[i] = pool_take (&pool);
  strobe_memory_tag_pop ();
  for (int i = 0; i < 5; i++)
    pool_give (&pool, kept[i]);

  strobe_shutdown ();
  return 0;
}
