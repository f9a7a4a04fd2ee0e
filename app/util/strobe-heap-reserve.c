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

/* How far past what malloc asks for the main heap grows each time, all of it faulted in by
 * the thread below: room for a 1920 × 1080 frame's image (8 MiB) and more. Resident though
 * unused until the heap takes it. */
#define TOP_PAD  (12u << 20)
/* Free heap kept before any is given back (glibc keeps TOP_PAD of it even then); setting it
 * stops glibc moving its thresholds by itself. */
#define TRIM_AT  (48u << 20)
/* glibc's largest: a block under it (a frame's image) comes from the heap, not from a
 * mapping of its own faulted in afresh each frame. */
#define MMAP_AT  (32u << 20)
/* While the heap grows (a trace loading) the thread looks every POLL_FAST_US, else every
 * POLL_SLOW_US. */
#define POLL_FAST_US   20000
#define POLL_SLOW_US  250000
#define FAST_FOR_US 10000000

static GMutex lock;
static GCond  cond;
static gboolean forked;       /* under lock: the process forked since the last pass */
static guint64  asked, done;  /* under lock: passes asked for (sync), passes made */
/* The break when it started (NULL before): the heap's start, near enough. */
static char    *heap_floor;

/* Faults the pages of [@from, @to) in without writing to them (Linux 5.14), so the main
 * thread's use of the same range meanwhile is undisturbed; a range the heap gave back
 * meanwhile fails, and is left. */
static void
populate (char *from, char *to)
{
  guintptr page = (guintptr) sysconf (_SC_PAGESIZE);

  from = (char *) ((guintptr) from & ~(page - 1));
  if (to > from)
    (void) madvise (from, (gsize) (to - from), MADV_POPULATE_WRITE);
}

/* glibc grows the main heap (the break) to its need plus TOP_PAD: the last TOP_PAD before
 * the break is free, and is what the next blocks take. Told from the break alone: asking
 * glibc where its free top starts (mallinfo2) holds every arena's lock while it walks their
 * free lists — 5 ms once, with the main thread's malloc waiting. */
static gpointer
reserve_main (gpointer data)
{
  char *ready = NULL;         /* the break, when the pad before it was last faulted in */
  gint64 grew = 0;

  (void) data;
  g_mutex_lock (&lock);
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      gboolean refill;
      guint64 pass;
      char *brk_end;

      if (!forked && asked == done)
        g_cond_wait_until (&cond, &lock, now + (now - grew < FAST_FOR_US ? POLL_FAST_US : POLL_SLOW_US));
      refill = forked;
      forked = FALSE;
      pass = asked;
      g_mutex_unlock (&lock);

      brk_end = sbrk (0);
      /* After a fork, pages faulted in and not written yet fault again on their first
       * write (GLib's D-Bus autolaunch forks when there is no session bus). */
      if (refill || ready == NULL || ready > brk_end)
        ready = MAX (heap_floor, brk_end - TOP_PAD);
      if (brk_end > ready)
        {
          populate (MAX (ready, brk_end - TOP_PAD), brk_end);
          ready = brk_end;
          grew = g_get_monotonic_time ();
        }

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
  heap_floor = sbrk (0);
  pthread_atfork (NULL, after_fork_in_parent, NULL);
  g_thread_unref (g_thread_new ("strobe-heap", reserve_main, NULL));
  g_once_init_leave (&started, 1);
}

void
strobe_heap_reserve_sync (void)
{
  guint64 pass;

  if (heap_floor == NULL)
    return;
  g_mutex_lock (&lock);
  pass = ++asked;
  g_cond_broadcast (&cond);
  while (done < pass)
    g_cond_wait (&cond, &lock);
  g_mutex_unlock (&lock);
}
