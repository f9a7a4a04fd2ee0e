/* test-give-way.c — background threads step aside for the main thread at most once per
 * STROBE_GIVE_WAY_US of their running, the main thread never, and nothing before the
 * program turns it on.
 *
 * SPDX-License-Identifier: MIT
 */
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The A/B switch of the benchmarks must not turn the test's subject off. */
  g_unsetenv ("STROBE_GIVE_WAY");
  g_test_add_func ("/give-way/threads", test_give_way);
  return g_test_run ();
}
