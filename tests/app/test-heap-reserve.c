/* test-heap-reserve.c — app/util/strobe-heap-reserve.c: a block taken from the main heap
 * after it grew, and after a fork, written without the main thread faulting its
 * pages in (what cost a frame 15–20 ms while a big trace loaded). Counts this thread's
 * page faults (getrusage); a 4 MiB block is 1 024 pages.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>

#include "strobe-heap-reserve.h"
#include "thread-faults.h"

/* Two of them fit in the heap's 12 MiB pad. */
#define BLOCK (4u << 20)
/* Faults allowed for a block: the pages of malloc's own bookkeeping, and slack. */
#define FEW   64

/* Faults while @n bytes at @p are written. */
static long
write_faults (char *p, gsize n, int value)
{
  long f0 = thread_faults ();

  memset (p, value, n);
  return thread_faults () - f0;
}

static void
test_heap_reserve (void)
{
  char *first, *block, *after_fork;
  long faults;
  int status;
  pid_t pid;

  if (SANITIZER_ALLOCATOR)
    {
      g_test_skip ("the sanitizer's allocator does not use the heap");
      return;
    }
  strobe_heap_reserve_start ();
  /* The heap grows for this one (it writes those pages itself), 12 MiB past it. */
  first = g_malloc (BLOCK);
  memset (first, 1, BLOCK);
  strobe_heap_reserve_sync ();

  block = g_malloc (BLOCK);
  faults = write_faults (block, BLOCK, 2);
  g_test_message ("a block from the grown heap: %ld faults", faults);
  g_assert_cmpint (faults, <, FEW);

  /* After a fork, pages faulted in but not written yet fault again when first written
   * (seen on this kernel: all of them): faulted in again. */
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_usleep (20000);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  strobe_heap_reserve_sync ();
  after_fork = g_malloc (BLOCK);
  faults = write_faults (after_fork, BLOCK, 3);
  g_test_message ("a block from the heap after a fork: %ld faults", faults);
  g_assert_cmpint (faults, <, FEW);

  g_free (after_fork);
  g_free (block);
  g_free (first);
}

static gint stop_passes;

/* Asks the thread for pass after pass (each reads the pad's pages) until told to stop. */
static gpointer
passes_main (gpointer data)
{
  gint *passes = data;

  while (!g_atomic_int_get (&stop_passes))
    {
      strobe_heap_reserve_sync ();
      g_atomic_int_inc (passes);
    }
  return NULL;
}

/* The thread reads the pad's pages while the main thread grows the heap by 64 MiB and frees
 * it again, so glibc gives most of it back (past 48 MiB free): a pass must never read a
 * page given back meanwhile (a crash, not a failed assertion). */
static void
test_heap_reserve_shrinking (void)
{
  enum { BIG = 16u << 20, N = 4 };
  gint64 until;
  GThread *thread;
  gint passes = 0;
  char *brk_max = NULL, *brk_min = NULL;

  if (SANITIZER_ALLOCATOR)
    {
      g_test_skip ("the sanitizer's allocator does not use the heap");
      return;
    }
  strobe_heap_reserve_start ();
  thread = g_thread_new ("passes", passes_main, &passes);
  /* Two seconds, or 300 passes. */
  until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until && g_atomic_int_get (&passes) < 300)
    {
      char *blocks[N];

      for (guint i = 0; i < N; i++)
        memset (blocks[i] = g_malloc (BIG), 1, 4096);
      brk_max = MAX (brk_max, (char *) sbrk (0));
      for (guint i = N; i-- > 0;)
        g_free (blocks[i]);
      brk_min = brk_min ? MIN (brk_min, (char *) sbrk (0)) : sbrk (0);
    }
  g_atomic_int_set (&stop_passes, TRUE);
  g_thread_join (thread);
  g_test_message ("%d passes; the break moved by up to %" G_GSIZE_FORMAT " MiB", passes,
                  (gsize) (brk_max - brk_min) >> 20);
  /* The heap was given back between rounds (else nothing was tried). */
  g_assert_cmpuint ((gsize) (brk_max - brk_min), >=, 32u << 20);
  g_assert_cmpint (passes, >, 10);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/heap-reserve", test_heap_reserve);
  g_test_add_func ("/app/heap-reserve/shrinking", test_heap_reserve_shrinking);
  return g_test_run ();
}
