/* strobe-stream-copy.c — see the header: how far apart the cores are.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-stream-copy.h"

#include "strobe-give-way.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* A line's round trip: ~100 ns between cores that share a cache here, 430–440 ns across. */
#define FAR_NS      250.0
#define ROUNDS      512
#define PER_BATCH   16
/* An answer is measured again after this long: the host may move the vCPUs meanwhile. */
#define KEEP_US     (10 * G_USEC_PER_SEC)
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
  guint spins = 0;
  int v;

  pin (p->cpu_echo);
  /* Answered only if still pinged: a stop (the other side giving up) is never overwritten.
   * Both sides spin, up to GIVE_UP_NS when a core is busy: a viewer's main thread is let
   * in (a clock read only now and then, so the answers are not slowed). */
  while ((v = __atomic_load_n (&p->flag, __ATOMIC_ACQUIRE)) != -1)
    if (v == 1)
      __atomic_compare_exchange_n (&p->flag, &v, 0, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    else if ((++spins & 4095) == 0)
      strobe_give_way ();
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
      gint64 t0;

      strobe_give_way ();
      t0 = now_ns ();

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
probe (double *round_trip_ns)
{
  Probe p = { -1, -1, 0, -1 };
  cpu_set_t set;
  GThread *echo, *ping;

  if (round_trip_ns)
    *round_trip_ns = -1;
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
  if (round_trip_ns)
    *round_trip_ns = p.best_ns;
  return p.best_ns > FAR_NS;
}

/* The last measure's answer and when it ended (0: none yet), and whether one runs. */
static gint   far_answer;
static gint64 far_at;
static gint   probing;

static gpointer
probe_main (gpointer data)
{
  gboolean far = probe (NULL);

  __atomic_store_n (&far_answer, far, __ATOMIC_RELAXED);
  __atomic_store_n (&far_at, g_get_monotonic_time (), __ATOMIC_RELEASE);
  __atomic_store_n (&probing, 0, __ATOMIC_RELEASE);
  return NULL;
}

gboolean
strobe_cores_far (void)
{
  static gsize once;
  static gint forced;
  gint64 at;
  gint idle = 0;

  if (g_once_init_enter (&once))
    {
      const char *e = g_getenv ("STROBE_CORES_FAR");

      forced = e != NULL ? atoi (e) != 0 : -1;
      g_once_init_leave (&once, 1);
    }
  if (forced >= 0)
    return forced;
  /* Never measured here: the caller may hold a lock another thread waits on (the model's
   * thread, a writer's), and a measure takes both cores for a millisecond or more. */
  at = __atomic_load_n (&far_at, __ATOMIC_ACQUIRE);
  if ((at == 0 || g_get_monotonic_time () - at > KEEP_US) &&
      __atomic_compare_exchange_n (&probing, &idle, 1, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    {
      GThread *thread = g_thread_try_new ("strobe-probe", probe_main, NULL, NULL);

      if (thread != NULL)
        g_thread_unref (thread);
      else
        __atomic_store_n (&probing, 0, __ATOMIC_RELEASE);
    }
  return __atomic_load_n (&far_answer, __ATOMIC_RELAXED);
}

gboolean
strobe_cores_far_measure (double *round_trip_ns)
{
  return probe (round_trip_ns);
}
