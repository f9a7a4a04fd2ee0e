/* strobe-pool.c — buffer blocks under one memory limit.
 *
 * Standard blocks are recycled through a free list; larger ones (an event whose aux data
 * does not fit a standard block) are allocated for that event and freed once shipped.
 * Taking a block is a slow-path operation (once per 64 KiB of events), so a mutex is fine;
 * the atomic free count lets a dropping thread see "still nothing" without taking it.
 *
 * The free list is FIFO on purpose: a block the worker has just shipped sits in the
 * worker's cache, and a producer writing into it pays a cross-core invalidation per cache
 * line. Handing out the block freed longest ago measured 17 → 10.5 ns per 16-byte event
 * while the worker ships concurrently (strobe-bench, cost.event_nosync_16B).
 *
 * An event from a signal handler may need a block, so taking one must not deadlock
 * against the thread it interrupts: blocks are mapped with mmap (malloc is not
 * async-signal-safe), and the thread's busy flag is up while it holds the pool's lock, so
 * a handler that interrupts it drops its event instead of waiting for that lock. */
#include "strobe-buffers-private.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static StrobeBlock    *free_list;          /* oldest first */
static StrobeBlock    *free_tail;
static size_t          free_count;          /* atomic reads outside the lock */
static size_t          allocated;           /* atomic reads outside the lock */
static size_t          limit = (size_t) STROBE_DEFAULT_BUFFER_MB << 20;
static int             wait_ms = STROBE_DEFAULT_WAIT_MS;

static void
pool_lock (void)
{
  strobe__tls.busy++;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  pthread_mutex_lock (&strobe__pool_lock);
}

static void
pool_unlock (void)
{
  pthread_mutex_unlock (&strobe__pool_lock);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  strobe__tls.busy--;
}

static StrobeBlock *
map_block (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  return p == MAP_FAILED ? NULL : p;
}

void
strobe__pool_configure (size_t limit_bytes, int wait)
{
  pool_lock ();
  if (limit_bytes)
    limit = limit_bytes < STROBE_BLOCK_SIZE ? STROBE_BLOCK_SIZE : limit_bytes;
  if (wait >= 0)
    wait_ms = wait;
  pool_unlock ();
}

size_t strobe__pool_memory (void) { return __atomic_load_n (&allocated, __ATOMIC_RELAXED); }
size_t strobe__pool_limit (void) { return limit; }

static StrobeBlock *
try_get (size_t min_capacity)
{
  size_t std_cap = STROBE_BLOCK_SIZE - sizeof (StrobeBlock);
  size_t cap = min_capacity > std_cap ? min_capacity : std_cap;
  StrobeBlock *b = NULL;

  pool_lock ();
  if (cap == std_cap && free_list)
    {
      b = free_list;
      free_list = b->free_next;
      if (free_list == NULL)
        free_tail = NULL;
      __atomic_store_n (&free_count, free_count - 1, __ATOMIC_RELAXED);
    }
  else
    {
      /* A large block may need what free standard blocks hold: a pool that an earlier
       * burst grew to its limit keeps every block, and without this an event bigger than
       * one (a thread's Memory.Batch, 64 KiB of records) was dropped every time it was
       * tried, for as long as the process lived — its ring never drained, and the
       * writers waiting on it stalled. */
      while (cap != std_cap && allocated + sizeof (StrobeBlock) + cap > limit && free_list)
        {
          StrobeBlock *f = free_list;

          free_list = f->free_next;
          if (free_list == NULL)
            free_tail = NULL;
          __atomic_store_n (&free_count, free_count - 1, __ATOMIC_RELAXED);
          __atomic_store_n (&allocated, allocated - STROBE_BLOCK_SIZE, __ATOMIC_RELAXED);
          munmap (f, STROBE_BLOCK_SIZE);
        }
    }
  if (b == NULL && allocated + sizeof (StrobeBlock) + cap <= limit)
    {
      b = map_block (sizeof (StrobeBlock) + cap);
      if (b)
        {
          b->capacity = cap;
          __atomic_store_n (&allocated, allocated + sizeof (StrobeBlock) + cap, __ATOMIC_RELAXED);
        }
    }
  pool_unlock ();
  if (b)
    {
      b->hdr.committed = b->data;
      b->hdr.events = 0;
      b->next = NULL;
      b->free_next = NULL;
      b->shipped = b->data;
    }
  return b;
}

StrobeBlock *
strobe__pool_get (size_t min_capacity, bool wait)
{
  struct timespec start, now, nap = { 0, 100 * 1000 };
  StrobeBlock *b;
  int budget = wait ? __atomic_load_n (&wait_ms, __ATOMIC_RELAXED) : 0;

  if (!wait && __atomic_load_n (&free_count, __ATOMIC_RELAXED) == 0
      && __atomic_load_n (&allocated, __ATOMIC_RELAXED) + STROBE_BLOCK_SIZE + min_capacity > limit)
    return NULL;
  b = try_get (min_capacity);
  if (b || budget <= 0)
    return b;

  /* Full: let the worker catch up for a bounded time, then the caller drops. */
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (;;)
    {
      strobe__hooks_get ()->consumer_kick ();
      nanosleep (&nap, NULL);
      b = try_get (min_capacity);
      if (b)
        return b;
      clock_gettime (CLOCK_MONOTONIC, &now);
      if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >= budget)
        return NULL;
    }
}

void
strobe__pool_put (StrobeBlock *b)
{
  pool_lock ();
  if (b->capacity == STROBE_BLOCK_SIZE - sizeof (StrobeBlock))
    {
      b->free_next = NULL;
      if (free_tail)
        free_tail->free_next = b;
      else
        free_list = b;
      free_tail = b;
      __atomic_store_n (&free_count, free_count + 1, __ATOMIC_RELAXED);
    }
  else
    {
      __atomic_store_n (&allocated, allocated - sizeof (StrobeBlock) - b->capacity, __ATOMIC_RELAXED);
      munmap (b, sizeof (StrobeBlock) + b->capacity);
    }
  pool_unlock ();
}
