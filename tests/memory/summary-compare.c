/* summary-compare.c — a summary memory model against a full one on the same trace
 * (summary-compare.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "strobe-decoder.h"
#include "strobe-memory-query.h"
#include "summary-compare.h"

static void
compare_groups (GPtrArray *a, GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const StrobeMemoryGroup *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

      g_assert_cmpuint (x->id, ==, y->id);
      g_assert_cmpuint (x->parent, ==, y->parent);
      g_assert_cmpuint (x->flags, ==, y->flags);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->allocs, ==, y->allocs);
      g_assert_cmpuint (x->frees, ==, y->frees);
      g_assert_cmpuint (x->bytes_allocated, ==, y->bytes_allocated);
      g_assert_cmpint (x->live_bytes, ==, y->live_bytes);
      g_assert_cmpint (x->live_count, ==, y->live_count);
      g_assert_cmpint (x->peak_live_bytes, ==, y->peak_live_bytes);
      g_assert_cmpint (x->reserved_bytes, ==, y->reserved_bytes);
    }
}

guint
summary_compare_models (StrobeMemoryModel *full, StrobeMemoryModel *summary)
{
  g_autoptr (GPtrArray) fh = strobe_memory_model_get_heaps (full);
  g_autoptr (GPtrArray) sh = strobe_memory_model_get_heaps (summary);
  g_autoptr (GPtrArray) ft = strobe_memory_model_get_tags (full);
  g_autoptr (GPtrArray) st = strobe_memory_model_get_tags (summary);
  g_autoptr (GArray) fl = strobe_memory_model_leaks (full);
  g_autoptr (GArray) sl = strobe_memory_model_leaks (summary);
  StrobeMemorySummary a, b;

  g_assert_false (strobe_memory_model_is_summary (full));
  g_assert_true (strobe_memory_model_is_summary (summary));
  memset (&a, 0, sizeof a);
  memset (&b, 0, sizeof b);
  strobe_memory_model_get_summary (full, &a);
  strobe_memory_model_get_summary (summary, &b);
  g_assert_cmpuint (a.allocs, ==, b.allocs);
  g_assert_cmpuint (a.frees, ==, b.frees);
  g_assert_cmpuint (a.temporary, ==, b.temporary);
  g_assert_cmpint (a.peak_bytes, ==, b.peak_bytes);
  g_assert_cmpuint (a.peak_time, ==, b.peak_time);
  g_assert_cmpint (a.live_bytes, ==, b.live_bytes);
  /* And every other field (histogram, late-connect and damage counters) to the byte. */
  g_assert_true (memcmp (&a, &b, sizeof a) == 0);
  g_assert_cmpuint (strobe_memory_model_get_count (full), ==, strobe_memory_model_get_count (summary));
  compare_groups (fh, sh);
  compare_groups (ft, st);

  g_assert_cmpuint (fl->len, ==, sl->len);
  for (guint i = 0; i < fl->len; i++)
    {
      StrobeMemoryAlloc x, y;

      g_assert_cmpuint (g_array_index (fl, guint64, i), ==, g_array_index (sl, guint64, i));
      g_assert_true (strobe_memory_model_get_alloc (full, g_array_index (fl, guint64, i), &x));
      g_assert_true (strobe_memory_model_get_alloc (summary, g_array_index (sl, guint64, i), &y));
      g_assert_cmpuint (x.alloc_time, ==, y.alloc_time);
      g_assert_cmpuint (x.free_time, ==, y.free_time);
      g_assert_cmpuint (x.address, ==, y.address);
      g_assert_cmpuint (x.size, ==, y.size);
      g_assert_cmpuint (x.heap, ==, y.heap);
      g_assert_cmpuint (x.tag, ==, y.tag);
      g_assert_cmpuint (x.callstack, ==, y.callstack);
      g_assert_cmpuint (x.thread_id, ==, y.thread_id);
      g_assert_cmpuint (x.alignment_log2, ==, y.alignment_log2);
      g_assert_cmpuint (x.flags, ==, y.flags);
    }
  return fl->len;
}

static StrobeMemoryModel *
read_trace (const char *trace, StrobeMemoryModel *model)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static GBytes *
cli_output (const char *cli, const char *const *args, const char *trace, gboolean full)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  GBytes *out = NULL;

  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "memory");
  for (guint i = 0; args && args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) trace);
  g_ptr_array_add (argv, NULL);
  if (full)
    g_subprocess_launcher_setenv (l, "STROBE_CLI_MEMORY_FULL", "1", TRUE);
  else
    g_subprocess_launcher_unsetenv (l, "STROBE_CLI_MEMORY_FULL");
  g_subprocess_launcher_setenv (l, "LC_ALL", "C", TRUE);
  p = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (p, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  return out;
}

guint
summary_compare_trace (const char *trace, const char *cli, const char *const *args)
{
  g_autoptr (StrobeMemoryModel) full = read_trace (trace, strobe_memory_model_new ());
  g_autoptr (StrobeMemoryModel) summary = read_trace (trace, strobe_memory_model_new_summary ());
  guint leaks = summary_compare_models (full, summary);

  if (cli)
    {
      g_autoptr (GBytes) a = cli_output (cli, args, trace, TRUE);
      g_autoptr (GBytes) b = cli_output (cli, args, trace, FALSE);

      g_assert_cmpuint (g_bytes_get_size (a), >, 0);
      if (!g_bytes_equal (a, b))
        {
          g_test_message ("full model:\n%.*s", (int) g_bytes_get_size (a), (const char *) g_bytes_get_data (a, NULL));
          g_test_message ("summary model:\n%.*s", (int) g_bytes_get_size (b), (const char *) g_bytes_get_data (b, NULL));
        }
      g_assert_true (g_bytes_equal (a, b));
    }
  return leaks;
}
