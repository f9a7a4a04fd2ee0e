/* test-memory-summary.c — the summary memory model (what `strobe-cli memory` reads a trace
 * into for its default report) against the full model: the same summary, heaps, tags and
 * leaks on traces of every kind — the runtime's batches from several threads (reallocs,
 * heap marks and resets, frees of other threads' blocks), the per-event format (a failed
 * realloc that makes an ended block live again, long after it ended), a python3 churn
 * under the interposer with call stacks; the CLI's output the same bytes; and memory in
 * proportion to the live set, not to the trace. (Late connects: test-memory-trace.c.)
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdint.h>

#include "strobe/strobe.h"
#include "strobe-decoder.h"
#include "strobe-memory-model.h"
#include "summary-compare.h"
#include "test-dirs.h"
#include "test-stream-builder.h"

static const char *cli, *preload, *churn_script;

/* ---- the runtime's batches ----------------------------------------------------------- */

static guint32 pool_heap, tags[2];

typedef struct
{
  guint   seed;
  guint64 base;
  GArray *live;   /* out: system-heap blocks left for another thread to free */
} Worker;

/* Made-up addresses (nothing is touched): random sizes, tags, two heaps, reallocs (moved,
 * in place, failed), a pool block marked as another heap's backing, frees in random
 * order, some never. */
static gpointer
workload (gpointer data)
{
  Worker *w = data;
  GRand *rand = g_rand_new_with_seed (w->seed);
  GArray *live = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < 40000; i++)
    {
      guint64 a = w->base + 64 * (guint64) i;
      guint32 x = g_rand_int (rand);
      guint32 heap = (x >> 8) % 7 == 0 ? pool_heap : STROBE_MEMORY_HEAP_SYSTEM;

      strobe_memory_tag_push (tags[(x >> 12) & 1]);
      strobe_memory_alloc ((void *) (uintptr_t) a, (x & 3) ? 1 + x % 5000 : 0, 0, heap);
      strobe_memory_tag_pop ();
      if (heap != STROBE_MEMORY_HEAP_SYSTEM)
        continue;
      g_array_append_val (live, a);
      if ((x >> 24) % 4 == 0)
        {
          strobe_memory_free ((void *) (uintptr_t) a, heap);
          g_array_set_size (live, live->len - 1);
        }
      else if (live->len > 64 && (x >> 24) % 4 != 3)
        {
          guint k = g_rand_int_range (rand, 0, (gint) live->len);
          guint64 v = g_array_index (live, guint64, k);

          g_array_remove_index_fast (live, k);
          if (x & 0x100)
            strobe_memory_free ((void *) (uintptr_t) v, STROBE_MEMORY_HEAP_SYSTEM);
          else
            {
              guint64 moved = (x & 0x200) ? v : v + (1ull << 36);

              strobe_memory_realloc_begin ((void *) (uintptr_t) v, STROBE_MEMORY_HEAP_SYSTEM);
              strobe_memory_realloc_end ((void *) (uintptr_t) moved, (void *) (uintptr_t) moved, 1 + x % 3000, 0,
                                         STROBE_MEMORY_HEAP_SYSTEM);
              g_array_append_val (live, moved);
            }
        }
      if (i % 10000 == 5000)
        {
          /* A block that backs the pool for a while. */
          void *slab = (void *) (uintptr_t) (w->base + (1ull << 35) + 64 * (guint64) i);

          strobe_memory_alloc (slab, 65536, 0, STROBE_MEMORY_HEAP_SYSTEM);
          strobe_memory_heap_mark (slab, STROBE_MEMORY_HEAP_SYSTEM, pool_heap);
          if (i < 30000)
            {
              strobe_memory_heap_unmark (slab, STROBE_MEMORY_HEAP_SYSTEM, pool_heap);
              strobe_memory_free (slab, STROBE_MEMORY_HEAP_SYSTEM);
            }
        }
    }
  g_rand_free (rand);
  w->live = live;
  return NULL;
}

static void
test_runtime (void)
{
  g_autofree char *dir = test_dir_make_tmp ("strobe-memsummary-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "runtime.strobe", NULL);
  Worker w[3] = { { 1, 0x100000000000ull, NULL }, { 2, 0x200000000000ull, NULL }, { 3, 0x300000000000ull, NULL } };
  GThread *threads[2];
  guint leaks;

  strobe_init (NULL);
  strobe_memory_set_callstacks (true);
  strobe_channel_set_enabled ("Memory", true);
  pool_heap = strobe_memory_heap_register ("Pool", STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_HEAP_POOL);
  tags[0] = strobe_memory_tag_register ("A", STROBE_MEMORY_TAG_NONE);
  tags[1] = strobe_memory_tag_register ("B", tags[0]);
  g_assert_true (strobe_output_file (trace));
  /* Two threads at once: their batches meet in rounds merged by time. */
  threads[0] = g_thread_new ("w1", workload, &w[1]);
  threads[1] = g_thread_new ("w2", workload, &w[2]);
  workload (&w[0]);
  g_thread_join (threads[0]);
  g_thread_join (threads[1]);
  /* Other threads' blocks freed here; the pool reset (its blocks end at once). */
  for (guint k = 1; k < 3; k++)
    for (guint i = 0; i < w[k].live->len; i += 3)
      strobe_memory_free ((void *) (uintptr_t) g_array_index (w[k].live, guint64, i), STROBE_MEMORY_HEAP_SYSTEM);
  strobe_memory_heap_free_all (pool_heap);
  strobe_output_stop ();
  for (guint k = 0; k < 3; k++)
    g_array_unref (w[k].live);

  {
    const char *args[] = { "--stacks", "--histogram", "--max-leaks=-1", "--top=-1", NULL };
    leaks = summary_compare_trace (trace, cli, args);
  }
  /* Leaks there are, many (a third of the system heap's blocks, the slabs). */
  g_assert_cmpuint (leaks, >, 10000);
  test_dir_remove_all (dir);
}

/* ---- the per-event format ------------------------------------------------------------ */

enum
{
  UID_ALLOC = TSB_UID_USER,
  UID_FREE,
  UID_REALLOC_FREE,
  UID_REALLOC_ALLOC,
  UID_MARK,
  UID_FREE_ALL,
};

#define TID 16

static Tsb *
legacy_stream (void)
{
  static const TsbField alloc[] = {
    { "Cycle", STROBE_TYPE_UINT64, 0 }, { "Address", STROBE_TYPE_POINTER, 0 }, { "Size", STROBE_TYPE_UINT64, 0 },
    { "Alignment", STROBE_TYPE_UINT32, 0 }, { "HeapId", STROBE_TYPE_UINT32, 0 }, { "Tag", STROBE_TYPE_UINT32, 0 },
    { "CallstackId", STROBE_TYPE_UINT32, 0 },
  };
  static const TsbField free_[] = {
    { "Cycle", STROBE_TYPE_UINT64, 0 }, { "Address", STROBE_TYPE_POINTER, 0 }, { "HeapId", STROBE_TYPE_UINT32, 0 },
  };
  static const TsbField mark[] = {
    { "Cycle", STROBE_TYPE_UINT64, 0 }, { "Address", STROBE_TYPE_POINTER, 0 }, { "ParentId", STROBE_TYPE_UINT32, 0 },
  };
  static const TsbField free_all[] = { { "Cycle", STROBE_TYPE_UINT64, 0 }, { "HeapId", STROBE_TYPE_UINT32, 0 } };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_ALLOC, "Memory", "Alloc", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (alloc), alloc);
  tsb_define (b, UID_FREE, "Memory", "Free", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_), free_);
  tsb_define (b, UID_REALLOC_FREE, "Memory", "ReallocFree", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_), free_);
  tsb_define (b, UID_REALLOC_ALLOC, "Memory", "ReallocAlloc", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (alloc), alloc);
  tsb_define (b, UID_MARK, "Memory", "HeapMark", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (mark), mark);
  tsb_define (b, UID_FREE_ALL, "Memory", "HeapFreeAll", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_all), free_all);
  return b;
}

static void
ev (Tsb *b, guint16 tid, guint16 uid, guint n, const guint64 *v)
{
  tsb_event (b, tid, uid, 0, n, v);
}

/* Thread 17 starts a realloc whose failure comes only after the other thread made and
 * freed 50 000 blocks (the summary model compacts its ended records many times meanwhile:
 * the realloc's old block must survive them, to be live again). Heap 0 is reset once (its
 * live list made then), heap 3 is reset with a marked block in it. */
static void
test_legacy (void)
{
  g_autoptr (Tsb) b = legacy_stream ();
  g_autoptr (StrobeDecoder) df = strobe_decoder_new ();
  g_autoptr (StrobeDecoder) ds = strobe_decoder_new ();
  g_autoptr (StrobeMemoryModel) full = strobe_memory_model_new ();
  g_autoptr (StrobeMemoryModel) summary = strobe_memory_model_new_summary ();
  g_autoptr (GError) error = NULL;
  StrobeMemorySummary s;
  const guint8 *data;
  guint64 t = 1000;
  gsize len;

  {
    guint64 a1[] = { t++, 0xa000, 300, 0, 0, 7, 0 }, a2[] = { t++, 0xb000, 4096, 0, 0, 0, 0 };
    guint64 rf[] = { t++, 0xa000, 0 };
    ev (b, 17, UID_ALLOC, 7, a1);
    ev (b, 17, UID_ALLOC, 7, a2);
    ev (b, 17, UID_REALLOC_FREE, 3, rf);
  }
  for (guint i = 0; i < 50000; i++)
    {
      guint64 a[] = { t++, 0x100000 + 16 * (guint64) (i % 97), 16 + i % 200, 0, i % 3 == 0 ? 3 : 0, i % 5, 0 };
      guint64 f[] = { t++, a[1], a[4] };
      ev (b, 18, UID_ALLOC, 7, a);
      if (i % 97 != 13 || i < 1000)
        ev (b, 18, UID_FREE, 3, f);
      if (i % 2048 == 0)
        tsb_flush_all (b, TSB_AUTO);
      if (i == 20000)
        {
          guint64 m[] = { t++, 0xb000, 0 };
          ev (b, 18, UID_MARK, 3, m);
        }
    }
  {
    /* The failure: the old block is live again. Then the resets. */
    guint64 ra[] = { t++, 0, 600, 0, 0, 0, 0 }, fa0[] = { t++, 0 }, fa3[] = { t++, 3 };
    ev (b, 17, UID_REALLOC_ALLOC, 7, ra);
    ev (b, 18, UID_FREE_ALL, 2, fa3);
    ev (b, 18, UID_FREE_ALL, 2, fa0);
  }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  data = tsb_data (b, &len);
  strobe_decoder_add_analyzer (df, STROBE_ANALYZER (full));
  strobe_decoder_add_analyzer (ds, STROBE_ANALYZER (summary));
  strobe_decoder_feed (df, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_finish (df, &error);
  g_assert_no_error (error);
  strobe_decoder_feed (ds, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_finish (ds, &error);
  g_assert_no_error (error);

  strobe_memory_model_get_summary (full, &s);
  /* The trace is what it says: the failed realloc undone (one free less), heap 0 reset. */
  g_assert_cmpuint (s.allocs, ==, 50002);
  g_assert_cmpint (s.live_count, ==, 0);
  g_assert_cmpuint (s.frees, ==, s.allocs);
  summary_compare_models (full, summary);
}

/* ---- memory in proportion to the live set --------------------------------------------- */

/* 400 000 allocations, never more than 1 000 live: the full model grows with the trace,
 * the summary one does not. */
static void
test_proportional (void)
{
  g_autoptr (Tsb) b = legacy_stream ();
  g_autoptr (StrobeDecoder) df = strobe_decoder_new ();
  g_autoptr (StrobeDecoder) ds = strobe_decoder_new ();
  g_autoptr (StrobeMemoryModel) full = strobe_memory_model_new ();
  g_autoptr (StrobeMemoryModel) summary = strobe_memory_model_new_summary ();
  g_autoptr (GError) error = NULL;
  const guint8 *data;
  guint64 t = 1;
  gsize len, fb, sb;

  for (guint i = 0; i < 400000; i++)
    {
      guint64 a[] = { t++, 0x100000 + 16 * (guint64) (i % 1000), 32, 0, 0, 0, 0 };
      guint64 f[] = { t++, a[1], 0 };
      if (i >= 1000)
        ev (b, TID, UID_FREE, 3, f);
      ev (b, TID, UID_ALLOC, 7, a);
      if (i % 2048 == 0)
        tsb_flush_all (b, TSB_AUTO);   /* packets of a writer's size */
    }
  tsb_flush_all (b, TSB_AUTO);
  data = tsb_data (b, &len);
  strobe_decoder_add_analyzer (df, STROBE_ANALYZER (full));
  strobe_decoder_add_analyzer (ds, STROBE_ANALYZER (summary));
  strobe_decoder_feed (df, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_feed (ds, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_finish (df, &error);
  strobe_decoder_finish (ds, &error);
  g_assert_cmpuint (summary_compare_models (full, summary), ==, 1000);
  fb = strobe_memory_model_get_memory_bytes (full);
  sb = strobe_memory_model_get_memory_bytes (summary);
  g_test_message ("full model %" G_GSIZE_FORMAT " bytes, summary %" G_GSIZE_FORMAT, fb, sb);
  /* ~24 bytes an allocation and its free against a few slots per live block. */
  g_assert_cmpuint (fb, >, 400000 * 16);
  g_assert_cmpuint (sb, <, 1024 * 1024);
  g_assert_cmpuint (sb * 10, <, fb);
}

/* ---- a real program: python3's allocator churn, with call stacks ----------------------- */

static void
test_python_churn (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = test_dir_make_tmp ("strobe-memsummary-XXXXXX");
  g_autofree char *trace = g_build_filename (dir, "churn.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { cli, "run", "--callstacks", opt, "--", python, churn_script, "3000", NULL };
  const char *stacks[] = { "--stacks", "--histogram", "--max-leaks=-1", NULL };

  if (python == NULL)
    {
      g_test_skip ("no python3");
      return;
    }
  g_subprocess_launcher_setenv (l, "PYTHONMALLOC", "malloc", TRUE);
  g_subprocess_launcher_setenv (l, "STROBE_PRELOAD", preload, TRUE);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (p, NULL, &error);
  g_assert_no_error (error);
  /* python leaves its interned objects live at exit: leaks with stacks to compare. */
  g_assert_cmpuint (summary_compare_trace (trace, cli, stacks), >, 100);
  {
    /* Leak suppressions read the leaks' stacks the same way. */
    g_autofree char *sup = g_build_filename (dir, "sup.txt", NULL);
    g_autofree char *sup_opt = g_strconcat ("--suppressions=", sup, NULL);
    const char *leaks[] = { "--leaks", "--stacks", sup_opt, NULL };

    g_assert_true (g_file_set_contents (sup, "leak:*Py*Alloc*\n", -1, NULL));
    summary_compare_trace (trace, cli, leaks);
  }
  test_dir_remove_all (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cli = g_getenv ("STROBE_CLI");
  preload = g_getenv ("STROBE_PRELOAD");
  churn_script = g_getenv ("CHURN_SCRIPT");
  g_assert_nonnull (cli);
  g_test_add_func ("/memory-summary/legacy-format", test_legacy);
  g_test_add_func ("/memory-summary/proportional", test_proportional);
  g_test_add_func ("/memory-summary/runtime-batches", test_runtime);
  /* Not under a sanitizer: an instrumented interposer cannot be preloaded into python3
   * (the sanitizer's runtime must come first and owns malloc itself; it crashed). */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  if (preload && churn_script)
    g_test_add_func ("/memory-summary/python-churn", test_python_churn);
#endif
  return g_test_run ();
}
