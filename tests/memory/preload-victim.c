/* preload-victim.c — an ordinary program, not linked with Strobe, for test-preload.c:
 * every allocation it makes has a size no C library internal is likely to use, so the
 * test can pick them out of the trace and check exact totals and the exact leak list.
 * Writes nothing (stdio would allocate its buffers). */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PAIRS   1000

/* Globals the compiler must assume are read: no allocation here may be optimised away.
 * The sink is per thread: one shared by the workers let two of them free the same block
 * (one stores its block, another stores its own, both free the second) — a double free
 * glibc aborts on, in about 3 % of runs with or without the interposer. */
void *volatile victim_leaked[THREADS + 1];
_Thread_local void *volatile victim_sink;

static void
release (void *p)
{
  victim_sink = p;
  free (victim_sink);
}

static void *
worker (void *arg)
{
  int id = (int) (long) arg;

  for (int i = 0; i < PAIRS; i++)
    {
      void *p = malloc (3001 + (size_t) id);
      memset (p, 1, 8);
      release (p);
    }
  victim_leaked[id + 1] = malloc (11001 + (size_t) id);   /* leak */
  return NULL;
}

int
main (void)
{
  pthread_t t[THREADS];
  void *p, *q;
  int rc;

  p = calloc (3, 1003);                      /* 3009 bytes */
  release (p);
  p = malloc (1001);
  victim_sink = p;
  p = realloc (p, 5003);                     /* grow */
  p = realloc (p, 103);                      /* shrink */
  release (p);
  rc = posix_memalign (&q, 64, 777);
  if (rc != 0)
    return 1;
  release (q);
  q = aligned_alloc (256, 512 + 256);        /* 768 */
  release (q);
  q = memalign (128, 333);
  release (q);
  q = valloc (1234);
  release (q);
  q = pvalloc (99);
  release (q);
  free (NULL);
  q = realloc (NULL, 2002);                  /* an allocation */
  victim_sink = q;
  q = realloc (victim_sink, 0);                        /* a free; returns NULL */
  victim_leaked[0] = malloc (4242);                 /* leak */

  for (long i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  return q == NULL ? 0 : 2;
}
