/* strobe-heap-reserve.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-heap-reserve.h"

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

/* How far past what malloc asks for the main heap grows each time: faulted in by the
 * thread below, before a frame reaches it. A 1920 × 1080 frame is 8 MiB. */
#define TOP_PAD  (32u << 20)
/* Free heap kept before any is given back (glibc keeps TOP_PAD of it even then); setting it
 * stops glibc moving its thresholds by itself. */
#define TRIM_AT  (96u << 20)
/* glibc's largest: a block under it (a frame's image) comes from the heap, not from a
 * mapping of its own faulted in afresh each frame. */
#define MMAP_AT  (32u << 20)
/* While the heap grows the thread looks every POLL_FAST_US, else every POLL_SLOW_US. */
#define POLL_FAST_US   20000
#define POLL_SLOW_US  250000
#define FAST_FOR_US  1000000

static GMutex lock;
static GCond  cond;
static gboolean forked;       /* under lock: the process forked since the last pass */
static guint64  asked, done;  /* under lock: passes asked for (sync), passes made */
static char    *heap_base;    /* the main heap's end when this began (what was before is small) */
static gboolean running;

static void
populate (char *from, char *to)
{
  guintptr page = (guintptr) sysconf (_SC_PAGESIZE);

  from = (char *) ((guintptr) from & ~(page - 1));
  if (to > from)
    /* Faults the pages in without writing to them (Linux 5.14), so the main thread's use
     * of the same range meanwhile is undisturbed; a range the heap gave back meanwhile
     * fails, and is left. */
    (void) madvise (from, (gsize) (to - from), MADV_POPULATE_WRITE);
}

static gpointer
reserve_main (gpointer data)
{
  char *seen = heap_base;
  gint64 grew = 0;

  (void) data;
  g_mutex_lock (&lock);
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      gboolean refill;
      guint64 pass;
      char *top;

      g_cond_wait_until (&cond, &lock, now + (now - grew < FAST_FOR_US ? POLL_FAST_US : POLL_SLOW_US));
      refill = forked;
      forked = FALSE;
      pass = asked;
      g_mutex_unlock (&lock);

      top = sbrk (0);
      if (refill)
        {
          /* A fork left every page of the heap shared with the child until it wrote to
           * it: the first write to each faulted again (GLib's D-Bus autolaunch forks
           * when there is no session bus). Write-faulting them here gives them back. */
          populate (heap_base, top);
        }
      else if (top > seen)
        {
          /* What malloc took past its need: the part it needed, the main thread is
           * already writing. */
          populate (MAX (seen, top - TOP_PAD), top);
          grew = g_get_monotonic_time ();
        }
      seen = top;

      g_mutex_lock (&lock);
      done = MAX (done, pass);
      g_cond_broadcast (&cond);
    }
  return NULL;
}

static void
after_fork_in_parent (void)
{
  g_mutex_lock (&lock);
  forked = TRUE;
  g_cond_broadcast (&cond);
  g_mutex_unlock (&lock);
}

void
strobe_heap_reserve_start (void)
{
  static gsize started = 0;

  if (!g_once_init_enter (&started))
    return;
  mallopt (M_MMAP_THRESHOLD, MMAP_AT);
  mallopt (M_TRIM_THRESHOLD, TRIM_AT);
  mallopt (M_TOP_PAD, TOP_PAD);
  heap_base = sbrk (0);
  running = TRUE;
  pthread_atfork (NULL, after_fork_in_parent, NULL);
  g_thread_unref (g_thread_new ("strobe-heap", reserve_main, NULL));
  g_once_init_leave (&started, 1);
}

void
strobe_heap_reserve_sync (void)
{
  guint64 pass;

  if (!running)
    return;
  g_mutex_lock (&lock);
  pass = ++asked;
  g_cond_broadcast (&cond);
  while (done < pass)
    g_cond_wait (&cond, &lock);
  g_mutex_unlock (&lock);
}
