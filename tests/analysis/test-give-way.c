/* test-give-way.c — background threads step aside for the main thread at most once per
 * STROBE_GIVE_WAY_US of their running, the main thread never, and nothing before the
 * program turns it on; strobe_give_way_lower() lowers the calling thread alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "strobe-give-way.h"

/* Calls strobe_give_way() in a loop for @us of the wall clock; how often it gave way. */
static guint
call_for (gint64 us)
{
  guint before = strobe_give_way_count ();
  gint64 end = g_get_monotonic_time () + us;

  while (g_get_monotonic_time () < end)
    strobe_give_way ();
  return strobe_give_way_count () - before;
}

static gpointer
worker (gpointer data)
{
  return GUINT_TO_POINTER (call_for (GPOINTER_TO_UINT (data)));
}

static guint
on_a_thread (gint64 us)
{
  return GPOINTER_TO_UINT (g_thread_join (g_thread_new ("test-worker", worker, GUINT_TO_POINTER ((guint) us))));
}

static void
test_give_way (void)
{
  guint n;

  /* Off (strobe-cli, the tests): never. */
  g_assert_cmpuint (on_a_thread (5 * STROBE_GIVE_WAY_US), ==, 0);

  strobe_give_way_enable ();
  /* The thread that turned it on is the one given way to. */
  g_assert_cmpuint (call_for (5 * STROBE_GIVE_WAY_US), ==, 0);
  /* Any other: once per step after its first call (a slow machine may take fewer, never
   * more). */
  n = on_a_thread (10 * STROBE_GIVE_WAY_US);
  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (n, <=, 10);
  /* A thread's first call only starts its count. */
  g_assert_cmpuint (on_a_thread (STROBE_GIVE_WAY_US / 2), ==, 0);
}

static int
own_nice (void)
{
  int nice;

  errno = 0;
  nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  g_assert_cmpint (errno, ==, 0);
  return nice;
}

static gpointer
lowered (gpointer data)
{
  int before = own_nice (), after;

  strobe_give_way_lower ();
  after = own_nice ();
  strobe_give_way_lower ();
  g_assert_cmpint (own_nice (), ==, after);
  /* Down to STROBE_BACKGROUND_NICE, never up (a test run under nice too). */
  g_assert_cmpint (after, ==, MAX (before, STROBE_BACKGROUND_NICE));
  return NULL;
}

static void
test_lower (void)
{
  int before = own_nice ();

  g_thread_join (g_thread_new ("test-lowered", lowered, NULL));
  /* The caller's thread only: this one is as it was. */
  g_assert_cmpint (own_nice (), ==, before);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The A/B switch of the benchmarks must not turn the test's subject off. */
  g_unsetenv ("STROBE_GIVE_WAY");
  g_test_add_func ("/give-way/threads", test_give_way);
  g_test_add_func ("/give-way/lower", test_lower);
  return g_test_run ();
}
