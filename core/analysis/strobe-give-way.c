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

    /* At least that nice, not that much more: a thread may have been made by one already
     * lowered (GLib makes its pools' threads from whichever thread first needed one), and
     * "5 more" would then put a tile painter at 10 behind the reader at 5. Never less nice
     * than it was. */
    errno = 0;
    nice = getpriority (PRIO_PROCESS, tid);
    if (errno == 0 && nice < STROBE_BACKGROUND_NICE)
      setpriority (PRIO_PROCESS, tid, STROBE_BACKGROUND_NICE);
  }
#endif
  lowered = TRUE;
}

guint
strobe_give_way_count (void)
{
  return given;
}
