/* test-compare-progress.c — the timers pass counts its steps as it walks (issue 21: the
 * compare page's bar moved only when the whole pass was done). Two recordings of
 * bench-compare-emitter of 120 000 scopes each: the steps counted equal the steps the
 * estimate expected, so the bar ends where it should without jumps; a span of half of
 * each trace expects half the steps and takes them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib.h>

#include "strobe-compare-timers.h"
#include "strobe-document.h"
#include "test-dirs.h"

#define SCOPES 120000

static StrobeDocument *
record (const char *dir, const char *name, gboolean changed)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *argv[] = { g_getenv ("BENCH_COMPARE_EMITTER"), path, G_STRINGIFY (SCOPES), "0",
                         changed ? "--changed" : NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  StrobeDocument *document;
  gint status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  file = g_file_new_for_path (path);
  document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_TIMELINE);
  g_assert_true (strobe_document_load (document, NULL, &error));
  g_assert_no_error (error);
  return document;
}

/* One pass over @span_a and @span_b: the steps it took, against those expected. */
static void
assert_steps (StrobeDocument *a, const StrobeCompareSpan *span_a, StrobeDocument *b, const StrobeCompareSpan *span_b,
              gint expected)
{
  StrobeCompareProgress progress;
  g_autoptr(GArray) rows = NULL;

  strobe_compare_progress_init (&progress, a, span_a, b, span_b);
  g_assert_cmpfloat (strobe_compare_progress_fraction (&progress), ==, 0);
  /* The estimate: each trace's scopes in its span, in steps, rounded down. */
  g_assert_cmpint (progress.total, >=, expected - 2);
  g_assert_cmpint (progress.total, <=, expected + 2);
  rows = strobe_compare_timers_full (a, span_a, b, span_b, NULL, &progress, NULL, NULL);
  g_assert_nonnull (rows);
  /* A step is counted per STROBE_TIMER_STATS_PROGRESS_SCOPES scopes of one thread: the
   * traces' one thread each leaves at most one step's remainder each. */
  g_assert_cmpint (progress.done, >=, progress.total - 2);
  g_assert_cmpint (progress.done, <=, progress.total + 2);
  g_assert_cmpfloat (strobe_compare_progress_fraction (&progress), >=, (progress.total - 2.0) / progress.total);
}

static void
test_steps (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-compare-progress-XXXXXX");
  g_autoptr(StrobeDocument) a = record (dir, "a.strobe", FALSE);
  g_autoptr(StrobeDocument) b = record (dir, "b.strobe", TRUE);
  StrobeCompareSpan whole = { 0, G_MAXUINT64 }, half_a, half_b;
  guint64 first, last;

  assert_steps (a, &whole, b, &whole, 2 * SCOPES / STROBE_TIMER_STATS_PROGRESS_SCOPES);

  g_assert_true (strobe_timeline_model_get_time_range (strobe_document_get_timeline (a), &first, &last));
  half_a = (StrobeCompareSpan) { first, first + (last - first) / 2 };
  g_assert_true (strobe_timeline_model_get_time_range (strobe_document_get_timeline (b), &first, &last));
  half_b = (StrobeCompareSpan) { first, first + (last - first) / 2 };
  assert_steps (a, &half_a, b, &half_b, SCOPES / STROBE_TIMER_STATS_PROGRESS_SCOPES);
  test_dir_remove_all (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/progress-steps", test_steps);
  return g_test_run ();
}
