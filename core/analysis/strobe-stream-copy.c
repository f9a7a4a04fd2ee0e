/* strobe-stream-copy.c — see the header: how far apart the cores are.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-stream-copy.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* A line's round trip: ~100 ns between cores that share a cache here, 430–440 ns across. */
#define FAR_NS      250.0
#define ROUNDS      2048
#define PER_BATCH   16
/* The answer kept this long: the host may move the vCPUs meanwhile. */
#define KEEP_US     (5 * G_USEC_PER_SEC)
/* A probe whose other side does not answer (its core busy with others) gives up. */
#define GIVE_UP_NS  (20 * 1000 * 1000)

typedef struct
{
  int      cpu_ping, cpu_echo;
  int      flag;        /* 1: pinged, 0: answered, -1: stop (atomic) */
  double   best_ns;     /* the fastest batch's round trip; < 0: no answer */
} Probe;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
pin (int cpu)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  (void) pthread_setaffinity_np (pthread_self (), sizeof set, &set);
}

static gpointer
echo_main (gpointer data)
{
  Probe *p = data;
  int v;

  pin (p->cpu_echo);
  while ((v = __atomic_load_n (&p->flag, __ATOMIC_ACQUIRE)) != -1)
    if (v == 1)
      __atomic_store_n (&p->flag, 0, __ATOMIC_RELEASE);
  return NULL;
}

/* The other side is asked in batches; the fastest batch is the hardware's, the others
 * waited for a core. */
static gpointer
ping_main (gpointer data)
{
  Probe *p = data;
  gint64 start = now_ns ();

  pin (p->cpu_ping);
  p->best_ns = -1;
  for (int b = 0; b < ROUNDS / PER_BATCH; b++)
    {
      gint64 t0 = now_ns ();

      for (int i = 0; i < PER_BATCH; i++)
        {
          __atomic_store_n (&p->flag, 1, __ATOMIC_RELEASE);
          while (__atomic_load_n (&p->flag, __ATOMIC_ACQUIRE) != 0)
            if (now_ns () - start > GIVE_UP_NS)
              goto out;
        }
      {
        double ns = (double) (now_ns () - t0) / PER_BATCH;

        if (p->best_ns < 0 || ns < p->best_ns)
          p->best_ns = ns;
      }
    }
out:
  __atomic_store_n (&p->flag, -1, __ATOMIC_RELEASE);
  return NULL;
}

static gboolean
probe (void)
{
  Probe p = { -1, -1, 0, -1 };
  cpu_set_t set;
  GThread *echo, *ping;

  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return FALSE;
  for (int c = 0; c < CPU_SETSIZE && p.cpu_echo < 0; c++)
    if (CPU_ISSET (c, &set))
      {
        if (p.cpu_ping < 0)
          p.cpu_ping = c;
        else
          p.cpu_echo = c;
      }
  if (p.cpu_echo < 0)
    return FALSE;
  echo = g_thread_try_new ("strobe-probe", echo_main, &p, NULL);
  if (echo == NULL)
    return FALSE;
  ping = g_thread_try_new ("strobe-probe", ping_main, &p, NULL);
  if (ping == NULL)
    __atomic_store_n (&p.flag, -1, __ATOMIC_RELEASE);
  else
    g_thread_join (ping);
  g_thread_join (echo);
  return p.best_ns > FAR_NS;
}

/* The answer and when it was found (0: never), read without the lock: asked once a chunk
 * of 128 scopes by the model's thread. */
static gint  far_answer;
static gint64 far_at;

gboolean
strobe_cores_far (void)
{
  static GMutex lock;
  gint64 at = __atomic_load_n (&far_at, __ATOMIC_ACQUIRE);

  if (at != 0 && g_get_monotonic_time () - at <= KEEP_US)
    return __atomic_load_n (&far_answer, __ATOMIC_RELAXED);
  g_mutex_lock (&lock);
  at = far_at;
  if (at == 0 || g_get_monotonic_time () - at > KEEP_US)
    {
      const char *e = g_getenv ("STROBE_CORES_FAR");

      __atomic_store_n (&far_answer, e != NULL ? atoi (e) != 0 : probe (), __ATOMIC_RELAXED);
      __atomic_store_n (&far_at, g_get_monotonic_time (), __ATOMIC_RELEASE);
    }
  g_mutex_unlock (&lock);
  return __atomic_load_n (&far_answer, __ATOMIC_RELAXED);
}
