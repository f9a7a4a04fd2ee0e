/* test-stream-copy.c — core/analysis/strobe-stream-copy.h: the copy around the caches gives
 * the same bytes as memcpy (and zeros up to the next 8), and the cores' distance is
 * measured, or said by STROBE_CORES_FAR, without hanging.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>
#include <glib.h>

#include "strobe-stream-copy.h"

static void
test_copy (void)
{
  guint8 src[80];
  guint64 dst_words[16];
  guint8 *dst = (guint8 *) dst_words;

  for (guint i = 0; i < sizeof src; i++)
    src[i] = (guint8) (i * 7 + 1);
  for (gsize n = 0; n <= 64; n++)
    {
      gsize padded = (n + 7) & ~(gsize) 7;

      memset (dst, 0xee, sizeof dst_words);
      strobe_stream_copy (dst, src + 3, n);   /* the source need not be aligned */
      strobe_stream_fence ();
      g_assert_cmpmem (dst, n, src + 3, n);
      for (gsize i = n; i < padded; i++)
        g_assert_cmpuint (dst[i], ==, 0);
      for (gsize i = padded; i < sizeof dst_words; i++)
        g_assert_cmpuint (dst[i], ==, 0xee);
    }
}

static void
far_said (void)
{
  g_assert_true (strobe_cores_far ());
}

static void
near_said (void)
{
  g_assert_false (strobe_cores_far ());
}

static void
test_cores_far (void)
{
  gint64 t0 = g_get_monotonic_time (), t1;
  double ns;
  gboolean far = strobe_cores_far_measure (&ns);

  t1 = g_get_monotonic_time ();
  g_test_message ("cores far apart: %s (a line's round trip %.0f ns), measured in %.2f ms", far ? "yes" : "no", ns,
                  (t1 - t0) / 1e3);
  if (g_get_num_processors () > 1)
    g_assert_cmpfloat (ns, >, 0);
  g_assert_cmpint (far, ==, ns > 250);
  /* 512 round trips, or the probe giving up after 20 ms. */
  g_assert_cmpint (t1 - t0, <, G_USEC_PER_SEC);
  /* Asked, never waits for a measure (the first starts one on a thread of its own). */
  for (int i = 0; i < 3; i++)
    {
      t0 = g_get_monotonic_time ();
      (void) strobe_cores_far ();
      g_assert_cmpint (g_get_monotonic_time () - t0, <, 5000);
    }

  /* Said instead, in a process of its own (the environment is read at the first ask). */
  g_setenv ("STROBE_CORES_FAR", "1", TRUE);
  g_test_trap_subprocess ("/stream-copy/far-said/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_setenv ("STROBE_CORES_FAR", "0", TRUE);
  g_test_trap_subprocess ("/stream-copy/near-said/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_unsetenv ("STROBE_CORES_FAR");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!g_test_subprocess ())
    g_unsetenv ("STROBE_CORES_FAR");
  g_test_add_func ("/stream-copy/copy", test_copy);
  g_test_add_func ("/stream-copy/cores-far", test_cores_far);
  g_test_add_func ("/stream-copy/far-said/subprocess", far_said);
  g_test_add_func ("/stream-copy/near-said/subprocess", near_said);
  return g_test_run ();
}
