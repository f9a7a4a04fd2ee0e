/* strobe-heap-reserve.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-heap-reserve.h"

#include <gtk/gtk.h>
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
static gboolean nudged;       /* under lock: a frame is coming and the heap grew */
/* The break up to which the thread has faulted the pad in (atomic: the frames read it). */
static char    *ready_end;
static guint64  asked, done;  /* under lock: passes asked for (sync), passes made */
/* The break when it started (NULL before): the heap's start, near enough. */
static char    *heap_floor;

/* Faults the pages of [@from, @to) in without writing to them (Linux 5.14), so the main
 * thread's use of the same range meanwhile is undisturbed; a range the heap gave back
 * meanwhile fails, and is left.
 *
 * Then reads a byte of each page: under this hypervisor's shadow paging a page the kernel
 * faulted in still costs an exit on its first touch from user space — a 9.6 MB frame image
 * memset in 12–13 ms after MADV_POPULATE_WRITE alone, 0.3–0.5 ms once another thread has
 * read each page (tests/bench/README.md). glibc must not give the range back while it is
 * read (a page gone would be a crash here): trimming is off for the pass — mallopt takes
 * the main arena's lock, so no trim is under way once it returns — and the range ends at
 * the break as it is then. The bytes read are free heap the main thread may be writing:
 * the value is not used. */
static void
populate (char *from, char *to)
{
  guintptr page = (guintptr) sysconf (_SC_PAGESIZE);

  from = (char *) ((guintptr) from & ~(page - 1));
  if (to <= from)
    return;
  (void) madvise (from, (gsize) (to - from), MADV_POPULATE_WRITE);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  mallopt (M_TRIM_THRESHOLD, G_MAXINT);
  for (char *p = from, *end = MIN (to, (char *) sbrk (0)); p < end; p += page)
    (void) *(volatile char *) p;
  mallopt (M_TRIM_THRESHOLD, TRIM_AT);
#endif
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

      if (!forked && !nudged && asked == done)
        g_cond_wait_until (&cond, &lock, now + (now - grew < FAST_FOR_US ? POLL_FAST_US : POLL_SLOW_US));
      refill = forked;
      forked = nudged = FALSE;
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
      g_atomic_pointer_set (&ready_end, ready);

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

/* Each frame of any window, first thing: when the heap grew since the thread last looked,
 * it looks now — while the frame is laid out and snapshot, before the frame's image is
 * calloc'd from the new top. Polling alone, the growth of a turn that also draws (the
 * timers panel filling for a selection) was seen up to 250 ms late and the image faulted
 * in by the frame. glibc's sbrk (0) reads its cached break: no system call. */
static gboolean
before_paint_hook (GSignalInvocationHint *hint, guint n_values, const GValue *values, gpointer data)
{
  if ((char *) sbrk (0) > (char *) g_atomic_pointer_get (&ready_end))
    {
      g_mutex_lock (&lock);
      nudged = TRUE;
      g_cond_broadcast (&cond);
      g_mutex_unlock (&lock);
    }
  return TRUE;
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
  ready_end = heap_floor;
  pthread_atfork (NULL, after_fork_in_parent, NULL);
  g_thread_unref (g_thread_new ("strobe-heap", reserve_main, NULL));
  /* The class made first: its signals exist from then on. */
  g_type_class_unref (g_type_class_ref (GDK_TYPE_FRAME_CLOCK));
  g_signal_add_emission_hook (g_signal_lookup ("before-paint", GDK_TYPE_FRAME_CLOCK), 0, before_paint_hook, NULL, NULL);
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
