/* strobe-give-way.c — see the header for why.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "strobe-give-way.h"

static gint enabled;
static pthread_t keeper;
static __thread gint64 next_us;
static __thread guint given;
static __thread gboolean lowered;

void
strobe_give_way_enable (void)
{
  keeper = pthread_self ();
  g_atomic_int_set (&enabled, g_strcmp0 (g_getenv ("STROBE_GIVE_WAY"), "0") != 0);
}

void
strobe_give_way (void)
{
  gint64 now;

  if (G_LIKELY (!g_atomic_int_get (&enabled)))
    return;
  now = g_get_monotonic_time ();
  if (now < next_us)
    return;
  /* A thread's first call only starts its count. */
  if (next_us != 0 && !pthread_equal (pthread_self (), keeper))
    {
      sched_yield ();
      given++;
    }
  next_us = now + STROBE_GIVE_WAY_US;
}

void
strobe_give_way_lower (void)
{
  if (lowered)
    return;
#ifdef SYS_gettid
  {
    id_t tid = (id_t) syscall (SYS_gettid);
    int nice;

    /* Relative to where it was (what its creator had): a viewer started with nice keeps
     * its threads in the same order. */
    errno = 0;
    nice = getpriority (PRIO_PROCESS, tid);
    if (errno == 0)
      setpriority (PRIO_PROCESS, tid, MIN (nice + STROBE_BACKGROUND_NICE, 19));
  }
#endif
  lowered = TRUE;
}

guint
strobe_give_way_count (void)
{
  return given;
}
