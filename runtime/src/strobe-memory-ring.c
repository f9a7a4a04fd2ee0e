/* strobe-memory-ring.c — each thread's ring of allocation records: its owner's side
 * (strobe-memory-drain.c is the updater's).
 *
 * The owner appends whole records and release-stores head; the updater copies
 * [tail, head) once per round and release-stores tail, so the owner pays one store per
 * record. Exited threads: their ring is final once `exited` is set; the updater ships the
 * rest and frees it. Frees the C library makes after that (thread teardown) go to one
 * shared late ring under a mutex. */
#include "strobe-buffers-private.h"
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <stdlib.h>
#include <time.h>

#define RING_MASK  ((uint64_t) STROBE_MEMORY_RING_BYTES - 1)
#define WAIT_MS    20
/* The late ring's records belong to no thread stream; this id names them. */
#define LATE_THREAD_ID STROBE_TID_IMPORTANTS

pthread_mutex_t  strobe__memory_rings_lock = PTHREAD_MUTEX_INITIALIZER;
StrobeMemThread *strobe__memory_rings;
pthread_mutex_t  strobe__memory_late_lock = PTHREAD_MUTEX_INITIALIZER;
StrobeMemThread  strobe__memory_late = { .thread_id = LATE_THREAD_ID, .shared = true };

__thread StrobeMemThread *strobe__memory_current __attribute__ ((tls_model ("initial-exec")));
#define current strobe__memory_current

uint64_t         strobe__memory_coarse_units;   /* strobe-memory-drain.c's, each round */

StrobeMemThread *
strobe__memory_thread_setup (void)
{
  StrobeThread *t = strobe__thread_current ();
  StrobeMemThread *mt;

  if (t == NULL || t->id == 0 || (mt = calloc (1, sizeof *mt)) == NULL)
    return NULL;
  if ((mt->ring = malloc (STROBE_MEMORY_RING_BYTES + STROBE_MEMORY_MAX_RECORD)) == NULL)
    {
      free (mt);
      return NULL;
    }
  mt->thread_id = t->id;
  pthread_mutex_lock (&strobe__memory_rings_lock);
  mt->next = strobe__memory_rings;
  strobe__memory_rings = mt;
  pthread_mutex_unlock (&strobe__memory_rings_lock);
  current = mt;
  return mt;
}

/* From the thread's exit hook (strobe-thread.c). */
void
strobe__memory_thread_exit (void)
{
  StrobeMemThread *mt = current;

  if (mt == NULL || mt->shared)
    return;
  current = &strobe__memory_late;
  __atomic_store_n (&mt->exited, 1, __ATOMIC_RELEASE);
}

static uint64_t
space (StrobeMemThread *mt)
{
  return STROBE_MEMORY_RING_BYTES - (mt->head - mt->cached_tail);
}

static __attribute__ ((noinline, cold)) bool
reserve_slow (StrobeMemThread *mt)
{
  struct timespec nap = { 0, 100000 };

  if (mt->shared && mt->ring == NULL
      && (mt->ring = malloc (STROBE_MEMORY_RING_BYTES + STROBE_MEMORY_MAX_RECORD)) == NULL)
    return false;
  for (int waited = 0;; waited++)
    {
      mt->cached_tail = __atomic_load_n (&mt->tail, __ATOMIC_ACQUIRE);
      if (space (mt) >= STROBE_MEMORY_MAX_RECORD)
        return true;
      if (waited == 0)
        strobe__hooks_get ()->consumer_kick ();
      else if (waited * 100 >= WAIT_MS * 1000)
        {
          /* No worker took them (a program without one, or a stalled output): drain
           * here once, then give up. Never with the late ring's lock held. */
          if (mt->shared)
            return false;
          strobe__hooks_get ()->consumer_update ();
          mt->cached_tail = __atomic_load_n (&mt->tail, __ATOMIC_ACQUIRE);
          return space (mt) >= STROBE_MEMORY_MAX_RECORD;
        }
      nanosleep (&nap, NULL);
    }
}

bool
strobe__memory_ring_reserve (StrobeMemThread *mt)
{
  if (__builtin_expect (mt->ring != NULL && space (mt) >= STROBE_MEMORY_MAX_RECORD, 1))
    return true;
  return reserve_slow (mt);
}

/* Records are encoded in place: the ring has STROBE_MEMORY_MAX_RECORD spare bytes past
 * its end, and what lands there is moved to its start on commit. */
uint8_t *
strobe__memory_ring_cursor (StrobeMemThread *mt)
{
  return mt->ring + (mt->head & RING_MASK);
}

void
strobe__memory_ring_commit (StrobeMemThread *mt, const uint8_t *end)
{
  uint64_t head = mt->head;
  size_t at = (size_t) (head & RING_MASK);
  size_t len = (size_t) (end - (mt->ring + at));

  if (at + len > STROBE_MEMORY_RING_BYTES)
    memcpy (mt->ring, mt->ring + STROBE_MEMORY_RING_BYTES, at + len - STROBE_MEMORY_RING_BYTES);
  __atomic_store_n (&mt->head, head + len, __ATOMIC_RELEASE);
}

/* ---- the updater ------------------------------------------------------------------- */

/* The threads are below memory tracing: a thread's exit hands its ring over through this
 * hook. */
static void
memory_ring_hooks (StrobeHooks *hooks)
{
  hooks->memory_thread_exit = strobe__memory_thread_exit;
}
STROBE_HOOKS_SETTER (memory_ring_hooks);
