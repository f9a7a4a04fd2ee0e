/* fuzz-models.c — a byte stream through the decoder into every standard model (log,
 * timeline, threads, memory, info), the queries the viewer makes of them, and then the
 * CLI's renderers: `strobe-cli info, dump, stats, log, memory` and every export, run on
 * the same bytes as a file. Models were never fuzzed before: a hostile trace crashed
 * `log` and hung `stats`.
 *
 * The renderers' output goes to /dev/null; what is checked is that nothing crashes,
 * aborts, leaks or trips a sanitizer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-log-model.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
query_timeline (StrobeTimelineModel *m)
{
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (m);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (m);
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
  guint64 first = 0, last = 0;
  StrobeTimelineStats stats;

  strobe_timeline_model_get_time_range (m, &first, &last);
  strobe_timeline_model_get_stats (m, &stats);
  for (guint i = 0; i < tids->len && i < 64; i++)
    {
      guint16 tid = g_array_index (tids, guint16, i);
      guint depths = MIN (strobe_timeline_model_get_depth_count (m, tid), 64);

      for (guint d = 0; d < depths; d++)
        {
          g_array_set_size (scopes, 0);
          g_array_set_size (blocks, 0);
          strobe_timeline_model_get_scopes (m, tid, d, first, last, scopes);
          strobe_timeline_model_get_blocks (m, tid, d, first, last, MAX ((last - first) / 1000, 1), blocks);
        }
      {
        g_autoptr(GArray) one = strobe_timer_stats_compute (m, first, first + (last - first) / 2, tid);
      }
    }
  for (guint k = 0; k < 4; k++)
    {
      g_array_set_size (frames, 0);
      strobe_timeline_model_get_frames (m, (guint8) k, 0, G_MAXUINT64, frames);
    }
  strobe_timeline_model_get_bookmarks (m, 0, G_MAXUINT64, marks);
  strobe_timeline_model_get_regions (m, first, last, regions);
  for (guint i = 0; i < counters->len && i < 64; i++)
    {
      g_array_set_size (samples, 0);
      strobe_timeline_model_get_counter_samples (m, g_array_index (counters, StrobeTimelineCounter, i).index,
                                                 0, G_MAXUINT64, samples);
    }
  for (guint32 n = 0; n < strobe_timeline_model_get_n_names (m) && n < 1024; n++)
    (void) strobe_timeline_model_get_name (m, n);
}

static void
query_log (StrobeLogModel *m)
{
  StrobeLogFilter f = { 0 };
  g_autoptr(GArray) all = strobe_log_model_filter (m, NULL, 0, G_MAXUINT64);
  g_autoptr(GArray) text = NULL;
  g_autoptr(GPtrArray) categories = strobe_log_model_get_categories (m);

  for (guint i = 0; i < all->len && i < 256; i++)
    {
      StrobeLogMessage msg;

      if (strobe_log_model_get_message (m, g_array_index (all, guint64, i), &msg))
        g_free (msg.text);
    }
  f.text = "a";
  f.ignore_case = TRUE;
  f.max_verbosity = 5;
  text = strobe_log_model_filter (m, &f, 0, 4096);
}

static void
query_memory (StrobeMemoryModel *m)
{
  g_autoptr(GArray) leaks = strobe_memory_model_leaks (m);
  guint64 n = strobe_memory_model_get_count (m);

  for (guint64 i = 0; i < n && i < 256; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (m, i, &r);
    }
}

/* A summary model (what `strobe-cli memory` reads into) read the same events as @full:
 * whatever they were, it must say what the full one says. */
static void
check_memory_summary (StrobeMemoryModel *full, StrobeMemoryModel *summary)
{
  g_autoptr(GArray) fl = strobe_memory_model_leaks (full);
  g_autoptr(GArray) sl = strobe_memory_model_leaks (summary);
  g_autoptr(GPtrArray) fh = strobe_memory_model_get_heaps (full);
  g_autoptr(GPtrArray) sh = strobe_memory_model_get_heaps (summary);
  StrobeMemorySummary a, b;

  memset (&a, 0, sizeof a);
  memset (&b, 0, sizeof b);
  strobe_memory_model_get_summary (full, &a);
  strobe_memory_model_get_summary (summary, &b);
  g_assert_true (memcmp (&a, &b, sizeof a) == 0);
  g_assert_cmpuint (fh->len, ==, sh->len);
  for (guint i = 0; i < fh->len; i++)
    {
      const StrobeMemoryGroup *x = g_ptr_array_index (fh, i), *y = g_ptr_array_index (sh, i);
      g_assert_cmpint (x->live_bytes, ==, y->live_bytes);
      g_assert_cmpint (x->peak_live_bytes, ==, y->peak_live_bytes);
      g_assert_cmpint (x->reserved_bytes, ==, y->reserved_bytes);
    }
  g_assert_cmpuint (fl->len, ==, sl->len);
  for (guint i = 0; i < fl->len && i < 4096; i++)
    {
      StrobeMemoryAlloc x, y;

      g_assert_cmpuint (g_array_index (fl, guint64, i), ==, g_array_index (sl, guint64, i));
      strobe_memory_model_get_alloc (full, g_array_index (fl, guint64, i), &x);
      strobe_memory_model_get_alloc (summary, g_array_index (sl, guint64, i), &y);
      g_assert_true (memcmp (&x, &y, sizeof x) == 0);
    }
}

/* A strobe-cli subcommand on @path, its output thrown away. */
static void
run_cli (int (*command) (int, char **), const char *const *args, const char *path)
{
  char *argv[8];
  int argc = 0, saved, null_fd;

  for (; *args && argc < 6; args++)
    argv[argc++] = g_strdup (*args);
  argv[argc++] = g_strdup (path);
  argv[argc] = NULL;
  fflush (stdout);
  saved = dup (STDOUT_FILENO);
  null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  dup2 (null_fd, STDOUT_FILENO);
  close (null_fd);
  {
    /* The subcommand may shorten argv (option parsing): free the copies we made. */
    char *copies[8];

    memcpy (copies, argv, sizeof copies);
    command (argc, argv);
    for (int i = 0; i < argc; i++)
      g_free (copies[i]);
  }
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
}

static void
render (const uint8_t *data, size_t size)
{
  static const char *const info[] = { "info", NULL };
  static const char *const dump[] = { "dump", "--status", NULL };
  static const char *const stats[] = { "stats", NULL };
  static const char *const stats_range[] = { "stats", "--from=0", "--to=100us", "--units=ticks", NULL };
  static const char *const log[] = { "log", "--location", NULL };
  static const char *const log_grep[] = { "log", "--grep=e", "-i", "--verbosity=warning", NULL };
  static const char *const memory[] = { "memory", NULL };
  static const char *const json[] = { "export", "--format=chrome-json", NULL };
  static const char *const timers[] = { "export", "--format=csv", "--what=timers", NULL };
  static const char *const scopes[] = { "export", "--format=csv", "--what=scopes", NULL };
  static const char *const log_csv[] = { "export", "--format=csv", "--what=log", NULL };
  int fd = memfd_create ("fuzz-models", MFD_CLOEXEC);
  g_autofree char *path = NULL;

  if (fd < 0)
    abort ();
  if (size && write (fd, data, size) != (ssize_t) size)
    abort ();
  path = g_strdup_printf ("/proc/self/fd/%d", fd);
  run_cli (strobe_cli_info, info, path);
  run_cli (strobe_cli_dump, dump, path);
  run_cli (strobe_cli_stats, stats, path);
  run_cli (strobe_cli_stats, stats_range, path);
  run_cli (strobe_cli_log, log, path);
  run_cli (strobe_cli_log, log_grep, path);
  run_cli (strobe_cli_memory, memory, path);
  run_cli (strobe_cli_export, json, path);
  run_cli (strobe_cli_export, timers, path);
  run_cli (strobe_cli_export, scopes, path);
  run_cli (strobe_cli_export, log_csv, path);
  close (fd);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  g_autoptr(StrobeLogModel) log = strobe_log_model_new ();
  g_autoptr(StrobeTimelineModel) timeline = strobe_timeline_model_new ();
  g_autoptr(StrobeThreadsModel) threads = strobe_threads_model_new ();
  g_autoptr(StrobeMemoryModel) memory = strobe_memory_model_new ();
  g_autoptr(StrobeMemoryModel) memory_summary = strobe_memory_model_new_summary ();
  g_autoptr(StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr(GError) error = NULL;

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (log));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (timeline));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (threads));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (memory));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (memory_summary));
  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (info));
  if (strobe_decoder_feed (dec, data, size, &error))
    strobe_decoder_finish (dec, &error);
  /* Queries work on whatever was read before an error, as the viewer shows it. */
  query_timeline (timeline);
  query_log (log);
  query_memory (memory);
  check_memory_summary (memory, memory_summary);
  {
    g_autoptr(GArray) t = strobe_threads_model_get_threads (threads);
    g_autofree char *name = strobe_threads_model_dup_process_name (threads);
  }
  render (data, size);
  return 0;
}
