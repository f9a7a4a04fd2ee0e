/* test-golden-logmem.c — tests/data/golden-logmem.strobe, recorded once by
 * logmem-emitter: the golden outputs of `strobe-cli log`, `memory` and `export --what=log`,
 * and the memory model's indexed queries on it.
 *
 * tests/data/golden-memtrace.strobe is the same program recorded in the compact memory
 * format (Memory.Batch, by allocation id, with addresses): its model must give the same
 * figures as the per-event format's, and `memory --by=` its golden outputs.
 *
 * To re-record (only when the format changes on purpose):
 *   _build/tests/memory/logmem-emitter tests/data/golden-logmem.strobe   (with the runtime of
 *     before the compact format: that trace is kept as the per-event format's golden)
 *   STROBE_MEMORY_ADDRESSES=1 STROBE_MEMORY_SHIFT=0 _build/tests/memory/logmem-emitter tests/data/golden-memtrace.strobe
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --histogram --max-leaks=-1 --by=tag tests/data/golden-memtrace.strobe > tests/data/golden-memtrace.memory
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --max-leaks=0 --by=heap tests/data/golden-memtrace.strobe > tests/data/golden-memtrace.by-heap
 *   _build/tests/memory/memtree-trace tests/data/golden-memtree.strobe
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --max-leaks=0 --tree=top-down --min-percent=0 --callers=0x1000 tests/data/golden-memtree.strobe > tests/data/golden-memtree.top-down
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --max-leaks=0 --tree=bottom-up --min-percent=20 --cost=allocations --callers=0x5000 tests/data/golden-memtree.strobe > tests/data/golden-memtree.bottom-up
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --flame --cost=bytes tests/data/golden-memtree.strobe > tests/data/golden-memtree.folded
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --massif tests/data/golden-memtree.strobe > tests/data/golden-memtree.massif
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --leaks --max-leaks=-1 --stacks --suppressions=tests/data/golden-memtree.supp tests/data/golden-memtree.strobe > tests/data/golden-memtree.suppressed
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli log --location tests/data/golden-logmem.strobe > tests/data/golden-logmem.log
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --histogram --max-leaks=-1 tests/data/golden-logmem.strobe > tests/data/golden-logmem.memory
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli export --format=csv --what=log tests/data/golden-logmem.strobe > tests/data/golden-logmem.csv
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "strobe-decoder.h"
#include "strobe-log-model.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"

static char *golden_dir;
static const char *cli;

static char *
data_path (const char *name)
{
  return g_build_filename (golden_dir, name, NULL);
}

static void
check_cli_trace (const char *trace_name, const char *golden, const char *const *args)
{
  g_autofree char *trace = data_path (trace_name);
  g_autofree char *expected_path = data_path (golden);
  g_autofree char *expected = NULL, *out = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_file_get_contents (expected_path, &expected, NULL, &error);
  g_assert_no_error (error);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, trace);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "TZ", "UTC", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_cmpstr (out, ==, expected);
}

static void
check_cli (const char *golden, const char *const *args)
{
  check_cli_trace ("golden-logmem.strobe", golden, args);
}

/* A --category or --thread name that the trace does not have is said, with its
 * categories or threads and the likely one, as a usage error — not an empty listing as if
 * nothing matched; a right one in any case prints its messages (a thread by name as by
 * id). */
static void
test_cli_log_names (void)
{
  g_autofree char *trace = data_path ("golden-logmem.strobe");
  static const struct { const char *arg; int status; const char *said; } cases[] = {
    { "--category=LogGolde", 2, "Did you mean “LogGolden”?" },
    { "--category=Golden", 2, "Did you mean “LogGolden”?" },
    { "--category=Nothing", 2, "(its categories: LogGolden, LogNet)" },
    { "--category=lognet", 0, NULL },
    { "--thread=mian", 2, "Did you mean “main”?" },
    { "--thread=Nobody", 2, "(its threads: 17 strobe-worker, 16 main, 18 worker)" },
    { "--thread=Worker", 0, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { cli, "log", cases[i].arg, trace, NULL };
      g_autoptr (GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_autoptr (GSubprocess) proc = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL, *err = NULL;

      /* UTF-8, so the quotes print as they are. */
      g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
      g_subprocess_launcher_setenv (launcher, "LANGUAGE", "", TRUE);
      proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %s", cases[i].arg, err);
      g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, cases[i].status);
      if (cases[i].said != NULL)
        {
          g_assert_nonnull (strstr (err, cases[i].said));
          g_assert_cmpstr (out, ==, "");
        }
      else if (g_str_has_prefix (cases[i].arg, "--category"))
        {
          g_assert_nonnull (strstr (out, "LogNet"));
          g_assert_null (strstr (out, "LogGolden"));
        }
      else
        {
          /* Thread 18's two messages, and only those. */
          g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

          g_assert_cmpuint (g_strv_length (lines), ==, 3);
          g_assert_nonnull (strstr (lines[0], " 18 "));
          g_assert_nonnull (strstr (lines[1], " 18 "));
        }
    }
}

static void
test_cli_log (void)
{
  const char *const args[] = { "log", "--location", NULL };
  check_cli ("golden-logmem.log", args);
}

static void
test_cli_memory (void)
{
  const char *const args[] = { "memory", "--histogram", "--max-leaks=-1", NULL };
  check_cli ("golden-logmem.memory", args);
}

static void
test_cli_csv (void)
{
  const char *const args[] = { "export", "--format=csv", "--what=log", NULL };
  check_cli ("golden-logmem.csv", args);
}

static GObject *
load_trace (const char *name, GType type)
{
  g_autofree char *trace = data_path (name);
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  GObject *model = g_object_new (type, NULL);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static GObject *
load (GType type)
{
  return load_trace ("golden-logmem.strobe", type);
}

static guint64
find (StrobeMemoryModel *m, guint64 address, guint64 size)
{
  guint64 n = strobe_memory_model_get_count (m);

  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (m, i, &r);
      if (r.address == address && r.size == size)
        return i;
    }
  g_assert_not_reached ();
}

static StrobeMemoryAlloc
get (StrobeMemoryModel *m, guint64 index)
{
  StrobeMemoryAlloc r;

  g_assert_true (strobe_memory_model_get_alloc (m, index, &r));
  return r;
}

static void
test_memory_queries (void)
{
  g_autoptr (StrobeMemoryModel) m = STROBE_MEMORY_MODEL (load (STROBE_TYPE_MEMORY_MODEL));
  StrobeMemoryAlloc slab = get (m, find (m, 0x100000, 1 << 20));
  StrobeMemoryAlloc w0 = get (m, find (m, 0x600000, 32)), w15 = get (m, find (m, 0x6001e0, 32));
  StrobeMemoryAlloc moved = get (m, find (m, 0x400000, 50));
  StrobeMemorySummary s;
  gint64 bytes, count;
  StrobeMemorySample series[8];

  /* Just after the slab: it alone, 1 MiB. */
  {
    g_autoptr (GArray) live = strobe_memory_model_live_at (m, slab.alloc_time);
    g_assert_cmpuint (live->len, ==, 1);
    strobe_memory_model_get_totals_at (m, slab.alloc_time, &bytes, &count);
    g_assert_cmpint (bytes, ==, 1 << 20);
    g_assert_cmpint (count, ==, 1);
  }
  /* With the worker's 16 blocks: those, the slab (marked: no bytes), two pool items, the
   * moved realloc (its failed move undone) and the aligned leak. */
  {
    g_autoptr (GArray) live = strobe_memory_model_live_at (m, w15.alloc_time);
    g_assert_cmpuint (live->len, ==, 16 + 5);
    strobe_memory_model_get_totals_at (m, w15.alloc_time, &bytes, &count);
    g_assert_cmpint (bytes, ==, 16 * 32 + 64 + 64 + 50 + 777);
    g_assert_cmpint (count, ==, 21);
  }
  /* Allocated by the worker and still live after half of them were freed (in reverse). */
  {
    StrobeMemoryAlloc w8 = get (m, find (m, 0x600100, 32));
    g_autoptr (GArray) half = strobe_memory_model_allocated_live (m, w0.alloc_time, w15.alloc_time, w8.free_time);
    g_assert_cmpuint (half->len, ==, 8);
    g_assert_cmpuint (get (m, g_array_index (half, guint64, 7)).address, ==, 0x6000e0);
  }
  /* Freed while the worker freed: 16, in the order freed. */
  {
    g_autoptr (GArray) freed = strobe_memory_model_freed_in (m, w15.free_time, w0.free_time);
    g_assert_cmpuint (freed->len, ==, 16);
    g_assert_cmpuint (get (m, g_array_index (freed, guint64, 0)).address, ==, 0x6001e0);
    g_assert_cmpuint (get (m, g_array_index (freed, guint64, 15)).address, ==, 0x600000);
  }
  /* The failed realloc left 0x400000 live, with its tag; the arena reset ended both. */
  g_assert_cmpuint (moved.free_time, ==, STROBE_MEMORY_LIVE);
  g_assert_cmpuint (moved.tag, ==, 1);
  g_assert_true (moved.flags & STROBE_MEMORY_ALLOC_FROM_REALLOC);
  g_assert_true (get (m, find (m, 0x200064, 200)).flags & STROBE_MEMORY_ALLOC_HEAP_RESET);

  strobe_memory_model_get_summary (m, &s);
  /* heaptrack's definition, realloc included: the worker's last 32-byte block and its
   * 48-byte one, and the two blocks the reallocs grew and moved (each its thread's last
   * allocation when reallocated). */
  g_assert_cmpuint (s.temporary, ==, 4);
  g_assert_cmpint (s.live_bytes, ==, 64 + 64 + 50 + 777);
  g_assert_cmpint (s.peak_bytes, ==, 1 << 20);
  g_assert_cmpuint (s.peak_time, ==, slab.alloc_time);
  g_assert_cmpuint (s.unmatched_frees, ==, 1);
  {
    g_autoptr (GArray) leaks = strobe_memory_model_leaks (m);
    g_autoptr (GArray) short_lived = strobe_memory_model_short_lived (m, 0);
    g_assert_cmpuint (leaks->len, ==, 5);
    g_assert_cmpuint (short_lived->len, ==, 0);
  }

  /* The drawn series: the last sample ends at the final total, the highest at the peak. */
  g_assert_cmpuint (strobe_memory_model_get_series (m, s.first_time, s.last_time + 1, 8, series), ==, 8);
  g_assert_cmpint (series[7].last_bytes, ==, s.live_bytes);
  g_assert_cmpint (series[7].last_count, ==, 5);
  {
    gint64 max = 0;
    for (guint i = 0; i < 8; i++)
      max = MAX (max, series[i].max_bytes);
    g_assert_cmpint (max, ==, 1 << 20);
  }
}

static void
test_memtrace_cli (void)
{
  const char *const by_tag[] = { "memory", "--histogram", "--max-leaks=-1", "--by=tag", NULL };
  const char *const by_heap[] = { "memory", "--max-leaks=0", "--by=heap", NULL };

  check_cli_trace ("golden-memtrace.strobe", "golden-memtrace.memory", by_tag);
  check_cli_trace ("golden-memtrace.strobe", "golden-memtrace.by-heap", by_heap);
}

/* The call trees (on the one cost tree) of made-up stacks: a function called from two
 * places, one that recurses (counted once per stack in its callers), one allocation
 * without a stack; a threshold that hides nodes; folded stacks. */
static void
test_memtree_cli (void)
{
  const char *const top_down[] = { "memory", "--max-leaks=0", "--tree=top-down", "--min-percent=0", "--callers=0x1000", NULL };
  const char *const bottom_up[] = { "memory", "--max-leaks=0", "--tree=bottom-up", "--min-percent=20",
                                    "--cost=allocations", "--callers=0x5000", NULL };
  const char *const folded[] = { "memory", "--flame", "--cost=bytes", NULL };

  check_cli_trace ("golden-memtree.strobe", "golden-memtree.top-down", top_down);
  check_cli_trace ("golden-memtree.strobe", "golden-memtree.bottom-up", bottom_up);
  check_cli_trace ("golden-memtree.strobe", "golden-memtree.folded", folded);
}

/* The heap over time as massif writes it: the golden file, and ms_print (valgrind's) reads
 * it and finds the peak snapshot when it is installed. */
static void
test_memtree_massif (void)
{
  const char *const massif[] = { "memory", "--massif", NULL };
  g_autofree char *ms_print = g_find_program_in_path ("ms_print");
  g_autofree char *golden = data_path ("golden-memtree.massif");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  check_cli_trace ("golden-memtree.strobe", "golden-memtree.massif", massif);
  if (ms_print == NULL)
    {
      g_test_message ("ms_print is not installed: only the golden file was checked");
      return;
    }
  {
    char *argv[] = { ms_print, golden, NULL };
    g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "(peak)"));
  g_assert_nonnull (strstr (out, "(heap allocation functions) malloc/new/new[], --alloc-fns, etc."));
}

/* Leak suppressions: heaptrack's and LeakSanitizer's "leak:" lines, a bare pattern, a
 * wildcard, comments and another sanitizer's kind (ignored). */
static void
test_memtree_suppressions (void)
{
  g_autofree char *supp = data_path ("golden-memtree.supp");
  g_autofree char *arg = g_strconcat ("--suppressions=", supp, NULL);
  const char *const args[] = { "memory", "--leaks", "--max-leaks=-1", "--stacks", arg, NULL };

  check_cli_trace ("golden-memtree.strobe", "golden-memtree.suppressed", args);
}

/* The same program in both formats: the same allocations, lives, totals and groups. */
static void
test_memtrace_same_as_legacy (void)
{
  g_autoptr (StrobeMemoryModel) a = STROBE_MEMORY_MODEL (load (STROBE_TYPE_MEMORY_MODEL));
  g_autoptr (StrobeMemoryModel) b = STROBE_MEMORY_MODEL (load_trace ("golden-memtrace.strobe", STROBE_TYPE_MEMORY_MODEL));
  g_autoptr (GPtrArray) ta = strobe_memory_model_get_tags (a), tb = strobe_memory_model_get_tags (b);
  g_autoptr (GPtrArray) ha = strobe_memory_model_get_heaps (a), hb = strobe_memory_model_get_heaps (b);
  StrobeMemorySummary sa, sb;
  guint64 n = strobe_memory_model_get_count (a);

  strobe_memory_model_get_summary (a, &sa);
  strobe_memory_model_get_summary (b, &sb);
  g_assert_cmpuint (sb.allocs, ==, sa.allocs);
  g_assert_cmpuint (sb.frees, ==, sa.frees);
  g_assert_cmpuint (sb.reallocs, ==, sa.reallocs);
  g_assert_cmpuint (sb.bytes_allocated, ==, sa.bytes_allocated);
  g_assert_cmpuint (sb.temporary, ==, sa.temporary);
  g_assert_cmpuint (sb.unmatched_frees, ==, sa.unmatched_frees);
  g_assert_cmpint (sb.live_bytes, ==, sa.live_bytes);
  g_assert_cmpint (sb.live_count, ==, sa.live_count);
  g_assert_cmpint (sb.peak_bytes, ==, sa.peak_bytes);
  g_assert_true (sb.has_snapshot && sb.snapshot_complete && !sb.partial);
  g_assert_cmpuint (strobe_memory_model_get_count (b), ==, n);
  /* Record by record: sizes, heaps, tags, flags, addresses, which ones ended. */
  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc x, y;
      strobe_memory_model_get_alloc (a, i, &x);
      strobe_memory_model_get_alloc (b, i, &y);
      g_assert_cmpuint (y.size, ==, x.size);
      g_assert_cmpuint (y.address, ==, x.address);
      g_assert_cmpuint (y.heap, ==, x.heap);
      g_assert_cmpuint (y.tag, ==, x.tag);
      g_assert_cmpuint (y.alignment_log2, ==, x.alignment_log2);
      g_assert_cmpuint (y.flags, ==, x.flags);
      g_assert_cmpuint (y.free_time == STROBE_MEMORY_LIVE, ==, x.free_time == STROBE_MEMORY_LIVE);
    }
  g_assert_cmpuint (tb->len, ==, ta->len);
  g_assert_cmpuint (hb->len, ==, ha->len);
  for (guint i = 0; i < ha->len; i++)
    {
      const StrobeMemoryGroup *x = g_ptr_array_index (ha, i), *y = g_ptr_array_index (hb, i);
      g_assert_cmpstr (y->name, ==, x->name);
      g_assert_cmpint (y->live_bytes, ==, x->live_bytes);
      g_assert_cmpint (y->peak_live_bytes, ==, x->peak_live_bytes);
      g_assert_cmpint (y->reserved_bytes, ==, x->reserved_bytes);
    }
}

static void
test_log_queries (void)
{
  g_autoptr (StrobeLogModel) m = STROBE_LOG_MODEL (load (STROBE_TYPE_LOG_MODEL));
  guint16 worker = 18;
  StrobeLogFilter f = { 0 };
  g_autoptr (GArray) by_thread = NULL, errors = NULL;
  StrobeLogMessage msg;

  g_assert_cmpuint (strobe_log_model_get_count (m), ==, 6);
  f.threads = &worker;
  f.n_threads = 1;
  by_thread = strobe_log_model_filter (m, &f, 0, G_MAXUINT64);
  g_assert_cmpuint (by_thread->len, ==, 2);
  memset (&f, 0, sizeof f);
  f.max_verbosity = 2;
  errors = strobe_log_model_filter (m, &f, 0, G_MAXUINT64);
  g_assert_cmpuint (errors->len, ==, 2);   /* the error and the fatal */
  g_assert_true (strobe_log_model_get_message (m, g_array_index (errors, guint64, 1), &msg));
  g_assert_cmpstr (msg.text, ==, "done: ok (y) 1.2e+04 0xbeef");
  g_assert_cmpuint (msg.verbosity, ==, 1);
  g_free (msg.text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  cli = g_getenv ("STROBE_CLI");
  g_assert_nonnull (golden_dir);
  g_assert_nonnull (cli);
  g_test_add_func ("/golden-logmem/cli-log", test_cli_log);
  g_test_add_func ("/golden-logmem/cli-log-names", test_cli_log_names);
  g_test_add_func ("/golden-logmem/cli-memory", test_cli_memory);
  g_test_add_func ("/golden-logmem/cli-csv", test_cli_csv);
  g_test_add_func ("/golden-logmem/memory-queries", test_memory_queries);
  g_test_add_func ("/golden-logmem/memtrace-cli", test_memtrace_cli);
  g_test_add_func ("/golden-logmem/memtree-cli", test_memtree_cli);
  g_test_add_func ("/golden-logmem/memtree-massif", test_memtree_massif);
  g_test_add_func ("/golden-logmem/memtree-suppressions", test_memtree_suppressions);
  g_test_add_func ("/golden-logmem/memtrace-same-as-legacy", test_memtrace_same_as_legacy);
  g_test_add_func ("/golden-logmem/log-queries", test_log_queries);
  return g_test_run ();
}
