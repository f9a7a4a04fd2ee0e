/* test-preload.c — libstrobe-preload.so on an unmodified program (preload-victim.c), run
 * through `strobe-cli run`: exact totals of what it allocates, realloc growth and shrink,
 * alignments, free(NULL), four threads, and the exact leak list.
 *
 * The victim's sizes are chosen so that no C library internal uses them; what the C
 * library allocates on its own (pthread_create's 288-byte TLS vectors) is checked apart.
 * The victim itself is checked race-free under ThreadSanitizer (without the interposer):
 * its threads once shared one sink and freed each other's blocks now and then.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "strobe-decoder.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"

static const char *cli, *victim, *victim_tsan;

static gboolean
victim_size (guint64 size)
{
  static const guint64 sizes[] = { 3009, 1001, 5003, 103, 777, 768, 333, 1234, 99, 2002, 4242 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (size == sizes[i])
      return TRUE;
  return (size >= 3001 && size <= 3004) || (size >= 11001 && size <= 11004);
}

static StrobeMemoryModel *
run_victim (const char *dir, const char *extra_env, gboolean keep)
{
  g_autofree char *trace = g_build_filename (dir, "victim.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeMemoryModel *model = strobe_memory_model_new ();

  if (extra_env)
    g_subprocess_launcher_setenv (launcher, extra_env, "1", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, cli, "run", opt, "--", victim, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_get_ended_cleanly (decoder));
  if (!keep)
    g_unlink (trace);
  return model;
}

static void
check_model (StrobeMemoryModel *model)
{
  guint64 n = strobe_memory_model_get_count (model);
  guint per_thread[4] = { 0 };
  guint16 thread_of[4] = { 0 };
  guint64 victim_bytes = 0, victim_allocs = 0, others = 0, other_leaks = 0, other_bytes = 0;
  g_autoptr (GArray) leaks = strobe_memory_model_leaks (model);
  g_autoptr (GPtrArray) leak_sizes = g_ptr_array_new ();
  GString *leak_list = g_string_new (NULL);
  StrobeMemorySummary s;
  gboolean seen_calloc = FALSE, seen_grow = FALSE, seen_shrink = FALSE, seen_2002 = FALSE;

  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;

      g_assert_true (strobe_memory_model_get_alloc (model, i, &r));
      g_assert_cmpuint (r.heap, ==, 0);
      if (!victim_size (r.size))
        {
          /* The C library's own: the TLS vectors of the four threads (288 bytes in
           * glibc 2.36), never freed. */
          g_assert_cmpuint (r.size, <, 1024);
          g_assert_cmpuint (r.free_time, ==, STROBE_MEMORY_LIVE);
          others++;
          other_bytes += r.size;
          continue;
        }
      victim_allocs++;
      victim_bytes += r.size;
      switch (r.size)
        {
        case 3009:   /* calloc (3, 1003) */
          seen_calloc = TRUE;
          g_assert_cmpuint (r.free_time, !=, STROBE_MEMORY_LIVE);
          break;
        case 1001:
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_TO_REALLOC);
          g_assert_false (r.flags & STROBE_MEMORY_ALLOC_FROM_REALLOC);
          break;
        case 5003:
          seen_grow = TRUE;
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_FROM_REALLOC);
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_TO_REALLOC);
          break;
        case 103:
          seen_shrink = TRUE;
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_FROM_REALLOC);
          g_assert_false (r.flags & STROBE_MEMORY_ALLOC_TO_REALLOC);
          g_assert_cmpuint (r.free_time, !=, STROBE_MEMORY_LIVE);
          break;
        case 777: g_assert_cmpuint (r.alignment_log2, ==, 6); break;     /* posix_memalign 64 */
        case 768: g_assert_cmpuint (r.alignment_log2, ==, 8); break;     /* aligned_alloc 256 */
        case 333: g_assert_cmpuint (r.alignment_log2, ==, 7); break;     /* memalign 128 */
        case 1234: g_assert_cmpuint (r.alignment_log2, ==, 12); break;   /* valloc */
        case 99: g_assert_cmpuint (r.alignment_log2, ==, 12); break;     /* pvalloc: the size asked */
        case 2002:   /* realloc (NULL, 2002), then realloc (p, 0) */
          seen_2002 = TRUE;
          g_assert_false (r.flags & STROBE_MEMORY_ALLOC_FROM_REALLOC);
          g_assert_true (r.flags & STROBE_MEMORY_ALLOC_TO_REALLOC);
          g_assert_cmpuint (r.free_time, !=, STROBE_MEMORY_LIVE);
          break;
        default:
          if (r.size >= 3001 && r.size <= 3004)
            {
              guint k = (guint) (r.size - 3001);
              per_thread[k]++;
              if (thread_of[k] == 0)
                thread_of[k] = r.thread_id;
              g_assert_cmpuint (r.thread_id, ==, thread_of[k]);
              g_assert_cmpuint (r.free_time, !=, STROBE_MEMORY_LIVE);
              g_assert_true (r.flags & STROBE_MEMORY_ALLOC_TEMPORARY);
            }
          break;
        }
    }
  g_assert_true (seen_calloc && seen_grow && seen_shrink && seen_2002);
  for (guint k = 0; k < 4; k++)
    {
      g_assert_cmpuint (per_thread[k], ==, 1000);
      for (guint j = 0; j < k; j++)
        g_assert_cmpuint (thread_of[k], !=, thread_of[j]);
    }
  /* 11 in main (calloc, malloc + 2 reallocs, 5 aligned, realloc (NULL), the leak) + 4×1001. */
  g_assert_cmpuint (victim_allocs, ==, 11 + 4 * 1001);
  g_assert_cmpuint (victim_bytes, ==, 3009 + 1001 + 5003 + 103 + 777 + 768 + 333 + 1234 + 99 + 2002 + 4242
                                      + 1000 * (3001 + 3002 + 3003 + 3004) + (11001 + 11002 + 11003 + 11004));
  g_assert_cmpuint (others, ==, 4);

  for (guint i = 0; i < leaks->len; i++)
    {
      StrobeMemoryAlloc r;

      strobe_memory_model_get_alloc (model, g_array_index (leaks, guint64, i), &r);
      if (victim_size (r.size))
        g_string_append_printf (leak_list, "%" G_GUINT64_FORMAT " ", r.size);
      else
        other_leaks++;
    }
  /* In allocation order: main's, then each thread's at its end (the threads' order varies). */
  g_assert_true (g_str_has_prefix (leak_list->str, "4242 "));
  g_assert_cmpuint (strlen (leak_list->str), ==, strlen ("4242 11001 11002 11003 11004 "));
  for (guint k = 1; k <= 4; k++)
    {
      g_autofree char *want = g_strdup_printf (" 1100%u ", k);
      g_assert_nonnull (strstr (leak_list->str, want));
    }
  g_assert_cmpuint (other_leaks, ==, 4);
  g_string_free (leak_list, TRUE);

  strobe_memory_model_get_summary (model, &s);
  g_assert_cmpuint (s.reallocs, ==, 2);
  g_assert_cmpuint (s.allocs, ==, victim_allocs + others);
  g_assert_cmpuint (s.frees, ==, s.allocs - leaks->len);
  g_assert_cmpint (s.live_count, ==, (gint64) leaks->len);
  g_assert_cmpint (s.live_bytes, ==, (gint64) (4242 + 11001 + 11002 + 11003 + 11004 + other_bytes));
  g_assert_cmpuint (s.unmatched_frees, ==, 0);
  g_assert_cmpuint (s.replaced_allocs, ==, 0);
}

static void
test_preload (void)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-preload-XXXXXX", NULL);
  g_autoptr (StrobeMemoryModel) model = run_victim (dir, NULL, FALSE);

  check_model (model);
  g_rmdir (dir);
}

/* With call stacks: the same figures, and every victim allocation has a stack. */
static void
test_preload_callstacks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-preload-XXXXXX", NULL);
  g_autoptr (StrobeMemoryModel) model = run_victim (dir, "STROBE_CALLSTACKS", FALSE);
  StrobeMemoryAlloc r;

  check_model (model);
  g_assert_true (strobe_memory_model_get_alloc (model, 0, &r));
  g_assert_cmpuint (r.callstack, !=, 0);
  {
    g_autoptr (GArray) frames = strobe_memory_model_get_callstack (model, r.callstack);
    g_assert_nonnull (frames);
    g_assert_cmpuint (frames->len, >, 1);
  }
  g_rmdir (dir);
}

/* The victim alone, built with ThreadSanitizer: no data race between its threads. Every
 * check above trusts it to free each block once, from the thread that allocated it; a
 * race there is a double free glibc aborts on in a few runs out of a hundred (TSan sees it
 * in every run: it needs the accesses unordered, not overlapping). */
static void
test_victim_race_free (void)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;

  if (victim_tsan == NULL || *victim_tsan == '\0')
    {
      g_test_skip ("the victim was not built with ThreadSanitizer");
      return;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_unsetenv (launcher, "LD_PRELOAD");
  g_subprocess_launcher_setenv (launcher, "TSAN_OPTIONS", "halt_on_error=1 exitcode=66", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, victim_tsan, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  if (err && *err)
    g_test_message ("%s", err);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_null (strstr (err ? err : "", "ThreadSanitizer"));
}

/* The model grows on one thread (the trace fed in small chunks) while this one queries
 * it: every answer is consistent with some prefix, and the end result is the same. */
typedef struct
{
  const guint8      *data;
  gsize              len;
  StrobeMemoryModel *model;
  gint               done;
} Feeder;

static gpointer
feed (gpointer user)
{
  Feeder *f = user;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (f->model));
  for (gsize pos = 0; pos < f->len && !error; pos += 1024)
    strobe_decoder_feed (decoder, f->data + pos, MIN (1024, f->len - pos), &error);
  if (!error)
    strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  g_atomic_int_set (&f->done, 1);
  return NULL;
}

static void
test_live_queries (void)
{
  g_autofree char *dir = g_dir_make_tmp ("strobe-preload-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "victim.strobe", NULL);
  g_autoptr (StrobeMemoryModel) first = run_victim (dir, NULL, TRUE);
  g_autoptr (StrobeMemoryModel) model = strobe_memory_model_new ();
  g_autofree guint8 *data = NULL;
  gsize len;
  Feeder f;
  GThread *thread;
  guint64 last_allocs = 0, rounds = 0;

  g_assert_true (g_file_get_contents (trace, (char **) &data, &len, NULL));
  f.data = data;
  f.len = len;
  f.model = model;
  f.done = 0;
  thread = g_thread_new ("feeder", feed, &f);
  while (!g_atomic_int_get (&f.done))
    {
      StrobeMemorySummary s;
      gint64 bytes, count;
      g_autoptr (GArray) leaks = NULL, live = NULL;

      strobe_memory_model_get_summary (model, &s);
      g_assert_cmpuint (s.allocs, >=, last_allocs);
      last_allocs = s.allocs;
      g_assert_cmpint (s.live_count, ==, (gint64) (s.allocs - s.frees));
      strobe_memory_model_get_totals_at (model, s.last_time, &bytes, &count);
      live = strobe_memory_model_live_at (model, s.last_time);
      leaks = strobe_memory_model_leaks (model);
      g_assert_cmpint (count, >=, 0);
      g_assert_cmpuint (strobe_memory_model_get_count (model), >=, s.allocs);
      rounds++;
    }
  g_thread_join (thread);
  check_model (model);
  g_test_message ("%" G_GUINT64_FORMAT " query rounds while the model grew", rounds);
  g_unlink (trace);
  g_rmdir (dir);
}

static G_GNUC_UNUSED void
skip (void)
{
  g_test_skip ("not under a sanitizer");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  /* An instrumented interposer and victim cannot be preloaded (the sanitizer's runtime
   * must come first and owns malloc itself). */
  g_test_add_func ("/preload/skipped-under-sanitizers", skip);
  return g_test_run ();
#endif
  cli = g_getenv ("STROBE_CLI");
  victim = g_getenv ("PRELOAD_VICTIM");
  victim_tsan = g_getenv ("PRELOAD_VICTIM_TSAN");
  g_assert_nonnull (cli);
  g_assert_nonnull (victim);
  g_test_add_func ("/preload/victim-race-free", test_victim_race_free);
  g_test_add_func ("/preload/victim", test_preload);
  g_test_add_func ("/preload/victim-callstacks", test_preload_callstacks);
  g_test_add_func ("/preload/live-queries", test_live_queries);
  return g_test_run ();
}
