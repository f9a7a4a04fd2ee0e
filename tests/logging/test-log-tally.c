/* test-log-tally.c — `strobe-cli log --count` counted while the trace is decoded
 * (StrobeLogTally) against the log model's filter, on a trace made to trip it: four
 * threads whose packets interleave, a thread that connects late with the earliest
 * messages, arguments split over two aux records, a site never announced, a site
 * announced after its messages, verbosities, case-insensitive and Tracy-syntax searches
 * — read from a file and from memory; and the CLI's two ways (STROBE_CLI_LOG_MODEL=1
 * forces the model's) giving the same bytes, exit code and errors, a truncated file too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "log-stream.h"
#include "strobe-decoder.h"
#include "strobe-log-model.h"
#include "strobe-log-search.h"
#include "strobe-log-tally.h"

#define N_MESSAGES 20000

static const char *const hosts[] = { "example.org", "Example.ORG", "example.net", "10.0.0.1", "exampleXorg" };
static const char *const words[] = { "GET http://EXAMPLE.org/x", "none", "took 15 ms", "example", "" };

/* No thread connecting last with the earliest messages (for streaming with few waiting). */
static gboolean without_late_thread;

/* @late_site: some messages of site 60 before its spec. */
static GBytes *
hostile (gboolean late_site)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (late_site ? 5 : 4);
  Tsb *b = log_stream_new ();
  guint64 clock = 100000;
  GBytes *bytes;

  log_stream_category (b, 1, "Net", 5);
  log_stream_category (b, 2, "Disk", 3);
  log_stream_spec (b, 1, 1, "net.c", 10, 5, "request %u from %s took %.3f ms");
  log_stream_spec (b, 2, 2, "disk.c", 20, 3, "flush to example.org done");
  log_stream_spec (b, 3, 1, "net.c", 30, 2, "%s");
  for (guint16 tid = 16; tid < 20; tid++)
    tsb_thread_info (b, tid, 100 + tid, tid, "worker", "");
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  for (guint i = 0; i < N_MESSAGES; i++)
    {
      guint16 tid = (guint16) (16 + g_rand_int_range (rand, 0, 4));
      guint k = (guint) g_rand_int_range (rand, 0, 4);
      g_autoptr(GBytes) args = NULL;
      guint32 spec = k == 3 ? 50 : k + 1;   /* 50: never announced */

      clock += 1 + (guint64) g_rand_int_range (rand, 0, 30);
      if (k == 0)
        args = log_args ("isd", (int) i, hosts[g_rand_int_range (rand, 0, G_N_ELEMENTS (hosts))],
                         g_rand_double_range (rand, 0, 2000));
      else if (k == 2)
        args = log_args ("s", words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      else if (k == 3)
        args = log_args ("i", (int) i);
      if (args != NULL && g_bytes_get_size (args) > 1 && i % 7 == 0)
        log_stream_message_split (b, tid, clock, spec, args,
                                  (gsize) g_rand_int_range (rand, 1, (gint32) g_bytes_get_size (args)));
      else
        log_stream_message (b, tid, clock, spec, args);
      /* Each thread's packet goes out on its own schedule: they interleave. */
      if (g_rand_int_range (rand, 0, 40) == 0)
        tsb_flush (b, tid, g_rand_boolean (rand) ? TSB_LZ4 : TSB_RAW);
      if (late_site && i == N_MESSAGES / 2)
        {
          g_autoptr(GBytes) early = log_args ("s", "example.org before its site");

          log_stream_message (b, 17, clock, 60, early);
          tsb_flush_all (b, TSB_AUTO);
          log_stream_spec (b, 60, 1, "late.c", 60, 4, "late: %s");
        }
    }
  /* A thread that connects last, with the earliest messages of all. */
  tsb_thread_info (b, 20, 120, 20, "late", "");
  for (guint j = 0; j < (without_late_thread ? 0u : 2000u); j++)
    {
      g_autoptr(GBytes) args = log_args ("isd", (int) j, hosts[j % G_N_ELEMENTS (hosts)], j * 0.25);

      log_stream_message (b, 20, 1000 + j * 10, 1, args);
      if (j % 300 == 299)
        tsb_flush (b, 20, TSB_LZ4);
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  bytes = tsb_bytes (b);
  tsb_free (b);
  return bytes;
}

static void
decode (GBytes *bytes, const char *path, StrobeAnalyzer *analyzer)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  strobe_decoder_add_analyzer (decoder, analyzer);
  if (path != NULL)
    strobe_decoder_read_file (decoder, path, NULL, &error);
  else
    {
      strobe_decoder_feed (decoder, data, len, &error);
      g_assert_no_error (error);
      strobe_decoder_finish (decoder, &error);
    }
  g_assert_no_error (error);
}

typedef struct
{
  const char     *text;
  gboolean        ignore_case;
  guint8          max_verbosity;
  const guint16  *threads;
  guint           n_threads;
  const char     *search;       /* Tracy's syntax */
  guint64         time_min, time_max;
} Case;

static const guint16 some_threads[] = { 20, 16 };

static const Case cases[] = {
  { "example.org" },
  { "EXAMPLE.org", TRUE },
  { "example.org", FALSE, 3 },
  { "unknown log site" },
  { "UNKNOWN LOG SITE 5", TRUE },
  { "took 1", FALSE, 0, some_threads, 2 },
  { "5" },
  { NULL },
  { NULL, FALSE, 2 },
  { NULL, FALSE, 0, NULL, 0, "example,-took" },
  { "late" },
  /* A time range across the late thread's messages and the others'. */
  { "example", TRUE, 0, NULL, 0, NULL, 5000, 150000 },
  { NULL, FALSE, 0, NULL, 0, NULL, 120000, 0 },
};

/* The messages the tally kept are the model's answer, message by message, in its order;
 * or none, said, when it cannot know (a site after its messages) or they took more than
 * allowed (@capped). */
static void
check_kept (StrobeLogModel *model, GArray *want, StrobeLogTally *tally, gboolean late_site, gboolean capped)
{
  guint n = 0;
  const StrobeLogMessage *kept = strobe_log_tally_get_messages (tally, &n);
  g_autofree StrobeLogMessage *got = NULL;

  if (capped || late_site)
    {
      /* Capped: every message passes, far more than 200 000 bytes of them. Late: the
       * early message of site 60 passes every filter that keeps thread 17 and its text. */
      if (capped)
        g_assert_null (kept);
      if (kept == NULL)
        return;
    }
  g_assert_nonnull (kept);
  g_assert_cmpuint (n, ==, want->len);
  got = g_new (StrobeLogMessage, MAX (n, 1));
  g_assert_cmpuint (strobe_log_model_get_messages (model, (const guint64 *) (void *) want->data, n, got), ==, n);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpuint (kept[k].time, ==, got[k].time);
      g_assert_cmpuint (kept[k].thread_id, ==, got[k].thread_id);
      g_assert_cmpuint (kept[k].verbosity, ==, got[k].verbosity);
      g_assert_cmpstr (kept[k].text, ==, got[k].text);
      g_assert_true ((kept[k].spec == NULL) == (got[k].spec == NULL));
      if (kept[k].spec != NULL)
        {
          g_assert_cmpuint (kept[k].spec->id, ==, got[k].spec->id);
          g_assert_cmpstr (kept[k].spec->file, ==, got[k].spec->file);
          g_assert_cmpstr (kept[k].spec->category ? kept[k].spec->category->name : "?", ==,
                           got[k].spec->category ? got[k].spec->category->name : "?");
        }
      g_free (got[k].text);
    }
}

/* Streamed: what a survey and a second pass give, message by message, against the model's
 * answer — or, with a site announced after its messages, the survey says no. */
static void
collect_cb (const StrobeLogMessage *m, gpointer data)
{
  GString *out = data;

  g_string_append_printf (out, "%" G_GUINT64_FORMAT " %u %u %s\n", m->time, m->thread_id, m->verbosity, m->text);
}

static void
check_stream (GBytes *bytes, const char *path, StrobeLogModel *model, const StrobeLogFilter *f, GArray *want,
              gboolean late_site)
{
  /* Chunks of 512: the late thread's 2 000 messages come in the last four. */
  g_autoptr(StrobeLogTally) survey = strobe_log_tally_new_survey (512);
  g_autoptr(StrobeLogTally) tally = strobe_log_tally_new (f);
  g_autoptr(GString) got = g_string_new (NULL), expect = g_string_new (NULL);
  g_autofree StrobeLogMessage *m = g_new (StrobeLogMessage, MAX (want->len, 1));

  decode (bytes, path, STROBE_ANALYZER (survey));
  /* Too few may wait: the late thread's earliest messages keep everything waiting;
   * without it, threads' packets interleave a few chunks apart. */
  if (!without_late_thread)
    g_assert_false (strobe_log_tally_survey_order (survey, 1000));
  else if (!late_site)
    g_assert_true (strobe_log_tally_survey_order (survey, 4096));
  if (late_site)
    {
      g_assert_false (strobe_log_tally_survey_order (survey, G_MAXUINT64));
      return;
    }
  g_assert_true (strobe_log_tally_survey_order (survey, G_MAXUINT64));
  strobe_log_tally_stream (tally, survey, collect_cb, got);
  decode (bytes, path, STROBE_ANALYZER (tally));
  g_assert_true (strobe_log_tally_streamed_all (tally));
  g_assert_cmpuint (strobe_log_model_get_messages (model, (const guint64 *) (void *) want->data, want->len, m), ==,
                    want->len);
  for (guint k = 0; k < want->len; k++)
    {
      collect_cb (&m[k], expect);
      g_free (m[k].text);
    }
  g_assert_cmpstr (got->str, ==, expect->str);
}

static void
check_trace (gboolean late_site, gboolean from_file)
{
  g_autoptr(GBytes) bytes = hostile (late_site);
  g_autofree char *dir = g_dir_make_tmp ("strobe-log-tally-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "tally.strobe", NULL);
  g_autoptr(StrobeLogModel) model = strobe_log_model_new ();
  guint nonzero = 0, inexact = 0;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  decode (bytes, from_file ? path : NULL, STROBE_ANALYZER (model));
  g_assert_cmpuint (strobe_log_model_get_count (model), ==, N_MESSAGES + 2000 + (late_site ? 1 : 0));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr(StrobeLogSearch) search = c->search ? strobe_log_search_new (c->search, STROBE_LOG_SEARCH_DEFAULT, NULL) : NULL;
      StrobeLogFilter f = { .text = c->text, .ignore_case = c->ignore_case, .max_verbosity = c->max_verbosity,
                            .threads = c->threads, .n_threads = c->n_threads, .search = search,
                            .time_min = c->time_min, .time_max = c->time_max };
      g_autoptr(GArray) want = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);
      g_autoptr(StrobeLogTally) tally = strobe_log_tally_new (&f);
      gboolean text = c->text != NULL || c->search != NULL;

      strobe_log_tally_keep_messages (tally, i == 7 ? 200000 : G_MAXSIZE);
      decode (bytes, from_file ? path : NULL, STROBE_ANALYZER (tally));
      check_kept (model, want, tally, late_site, i == 7);
      if (c->time_min == 0 && c->time_max == 0)
        check_stream (bytes, from_file ? path : NULL, model, &f, want, late_site);
      /* A message before its site is formatted by the model with the late site's format:
       * the tally says it cannot know, only when a text test needs the words (and the
       * message passed the other tests). */
      if (!text || !late_site)
        g_assert_true (strobe_log_tally_is_exact (tally));
      inexact += !strobe_log_tally_is_exact (tally);
      if (strobe_log_tally_is_exact (tally))
        {
          if (strobe_log_tally_get_count (tally) != want->len)
            g_error ("case %u (\"%s\"): the tally counted %" G_GUINT64_FORMAT ", the model kept %u", i,
                     c->text ? c->text : c->search ? c->search : "", strobe_log_tally_get_count (tally), want->len);
          nonzero += want->len > 0 && want->len < strobe_log_model_get_count (model);
        }
    }
  /* Most cases keep some messages and drop others: an answer of all or none proves little. */
  if (!late_site)
    g_assert_cmpuint (nonzero, >=, G_N_ELEMENTS (cases) - 2);
  else
    g_assert_cmpuint (inexact, >=, 5);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_file (void)
{
  check_trace (FALSE, TRUE);
}

static void
test_memory (void)
{
  check_trace (FALSE, FALSE);
}

static void
test_stream_interleaved (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(StrobeLogModel) model = strobe_log_model_new ();

  without_late_thread = TRUE;
  bytes = hostile (FALSE);
  decode (bytes, NULL, STROBE_ANALYZER (model));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr(StrobeLogSearch) search = c->search ? strobe_log_search_new (c->search, STROBE_LOG_SEARCH_DEFAULT, NULL) : NULL;
      StrobeLogFilter f = { .text = c->text, .ignore_case = c->ignore_case, .max_verbosity = c->max_verbosity,
                            .threads = c->threads, .n_threads = c->n_threads, .search = search };
      g_autoptr(GArray) want = strobe_log_model_filter (model, &f, 0, G_MAXUINT64);

      if (c->time_min == 0 && c->time_max == 0)
        check_stream (bytes, NULL, model, &f, want, FALSE);
    }
  without_late_thread = FALSE;
}

static void
test_late_site (void)
{
  check_trace (TRUE, TRUE);
  check_trace (TRUE, FALSE);
}

/* The CLI's output, errors and exit code with @argv on @path, counted or through the model. */
static char *
run_cli (const char *const *options, const char *path, gboolean model)
{
  const char *cli = g_getenv ("STROBE_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  gint status = 0;

  envp = g_environ_setenv (envp, "STROBE_CLI_LOG_MODEL", model ? "1" : "0", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "log");
  for (guint i = 0; options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, (gpointer) path);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  return g_strdup_printf ("status %d\nout:\n%s\nerr:\n%s", status, out, err);
}

/* The options of test_cli that print messages (the last ones). */
#define N_PRINTED 7

static guint
count_lines (const char *s)
{
  guint n = 0;

  for (; *s; s++)
    n += *s == '\n';
  return n;
}

static void
test_cli (void)
{
  static const char *const options[][8] = {
    { "--grep", "example.org", "--count" },
    { "-i", "--grep", "EXAMPLE.org", "--count" },
    { "--grep", "unknown log site", "--count" },
    { "--grep", "took 1", "-t", "16,20", "--count" },
    { "--grep", "example", "-v", "warning", "--count" },
    { "--grep", "5", "--count", "-l" },
    { "--grep", "late", "--count" },
    { "--count" },
    { "-v", "error", "--count" },
    { "-t", "20", "--count", "-i" },
    /* Printed, not counted: the messages kept while the trace is read, in the model's
     * order, the same lines. */
    { "--grep", "example.org" },
    { "-i", "--grep", "EXAMPLE.org", "-l" },
    { "--grep", "unknown log site" },
    { "--grep", "took 1", "-t", "16,20", "-n", "25" },
    { "-v", "warning", "-n", "300" },
    { "-t", "19" },
    { NULL },
  };
  g_autofree char *dir = g_dir_make_tmp ("strobe-log-tally-XXXXXX", NULL);
  guint counted = 0, streamed = 0;

  if (g_getenv ("STROBE_CLI") == NULL)
    {
      g_test_skip ("STROBE_CLI is not set");
      return;
    }
  for (guint t = 0; t < 3; t++)
    {
      g_autoptr(GBytes) bytes = hostile (t == 1);
      g_autofree char *path = g_build_filename (dir, t == 2 ? "cut.strobe" : "cli.strobe", NULL);
      /* The third a file cut short: the same error, and the count of what came before it. */
      gsize len = t == 2 ? g_bytes_get_size (bytes) * 2 / 3 : g_bytes_get_size (bytes);

      g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) len, NULL));
      for (guint i = 0; i < G_N_ELEMENTS (options); i++)
        {
          g_autofree char *counted_way = run_cli (options[i], path, FALSE);
          g_autofree char *model_way = run_cli (options[i], path, TRUE);

          g_assert_cmpstr (counted_way, ==, model_way);
          if (i == 0)
            g_test_message ("%s: %s", path, counted_way);
          counted += g_str_has_prefix (counted_way, "status 0\nout:\n") && !g_str_has_prefix (counted_way, "status 0\nout:\n0\n");
          /* Printed lines: many, in both traces read whole. */
          streamed += i >= G_N_ELEMENTS (options) - N_PRINTED && t != 1 && count_lines (counted_way) > 10;
        }
      g_unlink (path);
    }
  g_assert_cmpuint (counted, >=, 2 * G_N_ELEMENTS (options) - 2);
  g_assert_cmpuint (streamed, >=, 2 * N_PRINTED - 1);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  setlocale (LC_ALL, "C");
  g_test_add_func ("/log-tally/file", test_file);
  g_test_add_func ("/log-tally/memory", test_memory);
  g_test_add_func ("/log-tally/late-site", test_late_site);
  g_test_add_func ("/log-tally/stream-interleaved", test_stream_interleaved);
  g_test_add_func ("/log-tally/cli", test_cli);
  return g_test_run ();
}
