/* test-memory-view-model.c — what the memory view asks of the model, checked against
 * known patterns and brute-force recounts: tests/data/golden-memview.strobe (recorded once
 * by memview-emitter: a leak, steady growth, temporary churn, two heaps carved from
 * System, seven tags) through strobe-cli and the model; graph samples per tag and heap
 * (strobe-memory-series.h) against the records; the caller/callee table
 * (strobe-memory-callers.h) against the stacks; call-tree totals against the summary,
 * and a range-limited tree against a recount of its range — on a trace the emitter
 * writes here with call stacks; "live at" on the demo's trace (an arena inside System):
 * the view's query, strobe-cli memory --at and the model's totals agree.
 *
 * To re-record (only when the format or the emitter changes on purpose):
 *   STROBE_MEMORY_ADDRESSES=1 STROBE_MEMORY_SHIFT=0 _build/tests/memory/memview-emitter tests/data/golden-memview.strobe
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --histogram --max-leaks=-1 --by=tag tests/data/golden-memview.strobe > tests/data/golden-memview.memory
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli memory --max-leaks=0 --by=heap tests/data/golden-memview.strobe > tests/data/golden-memview.by-heap
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>

#include "strobe-decoder.h"
#include "strobe-info-analyzer.h"
#include "strobe-memory-callers.h"
#include "strobe-memory-model.h"
#include "strobe-memory-model-private.h"
#include "strobe-memory-query.h"
#include "strobe-memory-series.h"
#include "test-dirs.h"

static char *golden_dir;
static char *work_dir;
static StrobeMemoryModel *golden;
static StrobeMemoryModel *stacks;   /* the emitter's trace with call stacks */
static char *golden_path, *stacks_path;

/* ---- loading ------------------------------------------------------------------------------ */

/* @every: events between two checkpoints of the graphs' series (0: the model's own). */
static StrobeMemoryModel *
load_path_every (const char *path, guint every)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *model = strobe_memory_model_new ();

  if (every > 0)
    strobe_memory_series_cache_set_every (strobe_memory_model_series_cache (model), every);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static StrobeMemoryModel *
load_path (const char *path)
{
  return load_path_every (path, 0);
}

static void
run_emitter (const char *out, const char *flag)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "STROBE_MEMORY_SHIFT", "0", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("MEMVIEW_EMITTER"), out, flag, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
}

static StrobeMemoryAlloc
get (StrobeMemoryModel *m, guint64 i)
{
  StrobeMemoryAlloc r;

  g_assert_true (strobe_memory_model_get_alloc (m, i, &r));
  return r;
}

static guint32
tag_id (StrobeMemoryModel *m, const char *name)
{
  g_autoptr (GPtrArray) tags = strobe_memory_model_get_tags (m);

  for (guint i = 0; i < tags->len; i++)
    {
      const StrobeMemoryGroup *g = g_ptr_array_index (tags, i);
      if (g_strcmp0 (g->name, name) == 0)
        return g->id;
    }
  g_assert_not_reached ();
}

static const StrobeMemoryGroup *
group_of (GPtrArray *groups, guint32 id)
{
  for (guint i = 0; i < groups->len; i++)
    if (((const StrobeMemoryGroup *) g_ptr_array_index (groups, i))->id == id)
      return g_ptr_array_index (groups, i);
  return NULL;
}

/* ---- the golden trace ------------------------------------------------------------------------ */

static void
check_cli (const char *golden_name, const char *const *args)
{
  g_autofree char *trace = g_build_filename (golden_dir, "golden-memview.strobe", NULL);
  g_autofree char *expected_path = g_build_filename (golden_dir, golden_name, NULL);
  g_autofree char *expected = NULL, *out = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_file_get_contents (expected_path, &expected, NULL, &error);
  g_assert_no_error (error);
  g_ptr_array_add (argv, (char *) g_getenv ("STROBE_CLI"));
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
test_golden_cli (void)
{
  const char *const by_tag[] = { "memory", "--histogram", "--max-leaks=-1", "--by=tag", NULL };
  const char *const by_heap[] = { "memory", "--max-leaks=0", "--by=heap", NULL };

  check_cli ("golden-memview.memory", by_tag);
  check_cli ("golden-memview.by-heap", by_heap);
}

/* The emitter's patterns, as its header describes them. */
static void
test_golden_patterns (void)
{
  g_autoptr (GPtrArray) tags = strobe_memory_model_get_tags (golden);
  g_autoptr (GPtrArray) heaps = strobe_memory_model_get_heaps (golden);
  g_autoptr (GArray) leaks = strobe_memory_model_leaks (golden);
  guint32 leaky = tag_id (golden, "Leaky"), cache = tag_id (golden, "Cache"), frame = tag_id (golden, "Frame");
  static const struct { const char *name; guint64 allocs; guint64 bytes; } expected[] = {
    { "Startup", 8, 8 * 4096 }, { "Cache", 240 + 20, 240 * 256 + 20 * 512 }, { "Frame", 600, 600 * 64 },
    { "Leaky", 10, 12340 }, { "Audio", 120, 120 * 128 }, { "Meshes", 180, 180 * 100 },
  };
  StrobeMemorySummary s;
  guint64 temporary_frame = 0;

  strobe_memory_model_get_summary (golden, &s);
  g_assert_cmpint (s.live_bytes, ==, 12340);
  g_assert_cmpint (s.live_count, ==, 10);
  g_assert_false (s.partial);
  g_assert_cmpuint (s.unmatched_frees, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const StrobeMemoryGroup *g = group_of (tags, tag_id (golden, expected[i].name));

      if (g == NULL)
        g_error ("no tag %s", expected[i].name);
      g_assert_cmpuint (g->allocs, ==, expected[i].allocs);
      g_assert_cmpuint (g->bytes_allocated, ==, expected[i].bytes);
    }
  /* The leak: ten blocks of 1234 bytes, tag Leaky, heap System. */
  g_assert_cmpuint (leaks->len, ==, 10);
  for (guint i = 0; i < leaks->len; i++)
    {
      StrobeMemoryAlloc r = get (golden, g_array_index (leaks, guint64, i));
      g_assert_cmpuint (r.size, ==, 1234);
      g_assert_cmpuint (r.tag, ==, leaky);
      g_assert_cmpuint (r.heap, ==, 0);
    }
  /* Two heaps carved from System: all of their allocations ended. */
  g_assert_cmpuint (heaps->len, ==, 3);
  for (guint i = 1; i < 3; i++)
    g_assert_cmpint (((const StrobeMemoryGroup *) g_ptr_array_index (heaps, i))->live_bytes, ==, 0);
  /* Temporary churn: every Frame allocation is temporary. */
  for (guint64 i = 0; i < strobe_memory_model_get_count (golden); i++)
    {
      StrobeMemoryAlloc r = get (golden, i);
      if (r.tag == frame)
        temporary_frame += (r.flags & STROBE_MEMORY_ALLOC_TEMPORARY) != 0;
    }
  g_assert_cmpuint (temporary_frame, ==, 600);

  /* Steady growth of Cache up to the end; at most one Frame block live at any time. */
  {
    g_autoptr (StrobeMemorySeries) series = strobe_memory_model_build_series (golden, s.first_time, s.last_time + 1, 200, 16,
                                                                              NULL, NULL, NULL, NULL);
    guint n = strobe_memory_series_get_n_points (series);
    const gint64 *cache_v = NULL, *frame_v = NULL;
    gint64 before = 0;

    for (guint g = 0; g < strobe_memory_series_get_n_groups (series, STROBE_MEMORY_BY_TAG); g++)
      {
        guint64 key = strobe_memory_series_get_group_key (series, STROBE_MEMORY_BY_TAG, g);
        if (key == cache)
          cache_v = strobe_memory_series_get_group_values (series, STROBE_MEMORY_BY_TAG, g);
        if (key == frame)
          frame_v = strobe_memory_series_get_group_values (series, STROBE_MEMORY_BY_TAG, g);
      }
    g_assert_nonnull (cache_v);
    /* Frame never holds more than 64 bytes at a sample's end (it may hold none). */
    for (guint i = 0; frame_v && i < n; i++)
      g_assert_cmpint (frame_v[i], <=, 64);
    /* Cache grows until the frees at the end: never below what it held before, but for
     * the loader's blocks (10 240 bytes), which come and go within one frame. */
    for (guint i = 0; i < n && cache_v[i] < 61440; i++)
      {
        g_assert_cmpint (cache_v[i] + 10240, >=, before);
        before = MAX (before, cache_v[i]);
      }
    for (guint i = 0; i < n; i++)
      before = MAX (before, cache_v[i]);
    g_assert_cmpint (before, >=, 61440);
    g_assert_cmpint (cache_v[n - 1], ==, 0);
  }
}

/* ---- graph samples against the records ---------------------------------------------------------- */

/* Live bytes of each tag at @t (allocated at or before it, freed after), heap blocks left
 * out (they count nothing while they back a heap); and allocations made and ended in
 * [@t0, @t1). */
static void
brute_at (StrobeMemoryModel *m, guint64 t, GHashTable *by_tag)
{
  guint64 n = strobe_memory_model_get_count (m);

  g_hash_table_remove_all (by_tag);
  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r = get (m, i);
      gpointer k = GUINT_TO_POINTER (r.tag + 1);

      if (r.alloc_time > t || r.free_time <= t || (r.flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK))
        continue;
      g_hash_table_insert (by_tag, k, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_tag, k)) + (gsize) r.size));
    }
}

static void
check_series (StrobeMemoryModel *m, guint64 a, guint64 b, guint n)
{
  g_autoptr (StrobeMemorySeries) s = strobe_memory_model_build_series (m, a, b, n, 64, NULL, NULL, NULL, NULL);
  g_autoptr (StrobeMemorySeries) totals = strobe_memory_model_build_series (m, a, b, n, 0, NULL, NULL, NULL, NULL);
  g_autoptr (GHashTable) by_tag = g_hash_table_new (NULL, NULL);
  const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (s), *q = strobe_memory_series_get_points (totals);
  guint np = strobe_memory_series_get_n_points (s);
  guint64 count = strobe_memory_model_get_count (m);

  g_assert_cmpuint (np, ==, MIN ((guint64) n, b - a));
  g_assert_cmpuint (strobe_memory_series_get_n_points (totals), ==, np);
  for (guint i = 0; i < np; i++)
    {
      guint64 t0 = p[i].time, t1 = i + 1 < np ? p[i + 1].time : b;
      gint64 bytes, live;
      guint64 allocs = 0, frees = 0;
      gint64 tag_sum = 0, heap_sum = 0;

      strobe_memory_model_get_totals_at (m, t1 - 1, &bytes, &live);
      g_assert_cmpint (p[i].last_bytes, ==, bytes);
      g_assert_cmpint (p[i].last_count, ==, live);
      g_assert_cmpint (p[i].min_bytes, <=, p[i].last_bytes);
      g_assert_cmpint (p[i].max_bytes, >=, p[i].last_bytes);
      /* Both ways of making the totals agree. */
      g_assert_cmpint (q[i].last_bytes, ==, bytes);
      g_assert_cmpuint (q[i].allocs, ==, p[i].allocs);
      g_assert_cmpuint (q[i].frees, ==, p[i].frees);
      for (guint64 k = 0; k < count; k++)
        {
          StrobeMemoryAlloc r = get (m, k);
          allocs += r.alloc_time >= t0 && r.alloc_time < t1;
          frees += r.free_time != STROBE_MEMORY_LIVE && r.free_time >= t0 && r.free_time < t1;
        }
      g_assert_cmpuint (p[i].allocs, ==, allocs);
      g_assert_cmpuint (p[i].frees, ==, frees);
      /* Every group together is the total; each tag is its records. */
      brute_at (m, t1 - 1, by_tag);
      for (guint g = 0; g < strobe_memory_series_get_n_groups (s, STROBE_MEMORY_BY_TAG); g++)
        {
          guint64 key = strobe_memory_series_get_group_key (s, STROBE_MEMORY_BY_TAG, g);
          gint64 v = strobe_memory_series_get_group_values (s, STROBE_MEMORY_BY_TAG, g)[i];

          tag_sum += v;
          /* Untagged holds the heap blocks, whose marks the records do not keep. */
          if (key != 0 && key != STROBE_MEMORY_SERIES_OTHER)
            g_assert_cmpint (v, ==, (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (by_tag, GUINT_TO_POINTER (key + 1))));
        }
      for (guint g = 0; g < strobe_memory_series_get_n_groups (s, STROBE_MEMORY_BY_HEAP); g++)
        heap_sum += strobe_memory_series_get_group_values (s, STROBE_MEMORY_BY_HEAP, g)[i];
      g_assert_cmpint (tag_sum, ==, bytes);
      g_assert_cmpint (heap_sum, ==, bytes);
    }
  /* Groups come largest first, "other" last. */
  for (guint g = 1; g < strobe_memory_series_get_n_groups (s, STROBE_MEMORY_BY_TAG); g++)
    g_assert_cmpuint (strobe_memory_series_get_group_key (s, STROBE_MEMORY_BY_TAG, g - 1), !=, STROBE_MEMORY_SERIES_OTHER);
}

static void
test_series (void)
{
  StrobeMemoryModel *models[] = { golden, stacks };

  for (guint k = 0; k < G_N_ELEMENTS (models); k++)
    {
      StrobeMemorySummary s;
      guint64 span;

      strobe_memory_model_get_summary (models[k], &s);
      span = s.last_time - s.first_time;
      /* The whole trace and more, fewer points than events, more points than ticks would
       * allow for a tiny window, a window in the middle, one before anything. */
      check_series (models[k], 0, s.last_time + span / 10 + 1, 37);
      check_series (models[k], s.first_time, s.last_time + 1, 400);
      check_series (models[k], s.first_time + span / 3, s.first_time + span / 2, 50);
      check_series (models[k], s.first_time + span / 2, s.first_time + span / 2 + 5, 50);
    }
}

/* @x and @y drew the same: every point and every group's values. */
static void
assert_series_equal (StrobeMemorySeries *x, StrobeMemorySeries *y)
{
  guint np = strobe_memory_series_get_n_points (x);
  const StrobeMemorySeriesPoint *p = strobe_memory_series_get_points (x), *q = strobe_memory_series_get_points (y);

  g_assert_cmpuint (strobe_memory_series_get_n_points (y), ==, np);
  for (guint i = 0; i < np; i++)
    {
      g_assert_cmpuint (p[i].time, ==, q[i].time);
      g_assert_cmpint (p[i].min_bytes, ==, q[i].min_bytes);
      g_assert_cmpint (p[i].max_bytes, ==, q[i].max_bytes);
      g_assert_cmpint (p[i].last_bytes, ==, q[i].last_bytes);
      g_assert_cmpint (p[i].last_count, ==, q[i].last_count);
      g_assert_cmpuint (p[i].allocs, ==, q[i].allocs);
      g_assert_cmpuint (p[i].frees, ==, q[i].frees);
    }
  for (guint b = 0; b < 2; b++)
    {
      StrobeMemoryGroupBy by = b == 0 ? STROBE_MEMORY_BY_TAG : STROBE_MEMORY_BY_HEAP;

      g_assert_cmpuint (strobe_memory_series_get_n_groups (x, by), ==, strobe_memory_series_get_n_groups (y, by));
      for (guint g = 0; g < strobe_memory_series_get_n_groups (x, by); g++)
        {
          g_assert_cmpuint (strobe_memory_series_get_group_key (x, by, g), ==, strobe_memory_series_get_group_key (y, by, g));
          for (guint i = 0; i < np; i++)
            g_assert_cmpint (strobe_memory_series_get_group_values (x, by, g)[i], ==,
                             strobe_memory_series_get_group_values (y, by, g)[i]);
        }
    }
}

/* The checkpoints the model notes for the series change nothing drawn: a model with one
 * every few events (so that samples jump over several) draws what the same trace's model
 * with one every 2 048 draws (the shared models have fewer events: one walk over every
 * event), for windows in the middle, the whole trace, from before it, past its middle;
 * each brute-force right. */
static void
test_series_checkpoints (void)
{
  const char *paths[] = { golden_path, stacks_path };
  StrobeMemoryModel *walked[] = { golden, stacks };
  const guint every[] = { 1, 3, 16 };

  for (guint k = 0; k < G_N_ELEMENTS (paths); k++)
    for (guint e = 0; e < G_N_ELEMENTS (every); e++)
      {
        g_autoptr (StrobeMemoryModel) m = load_path_every (paths[k], every[e]);
        StrobeMemorySummary s;
        guint64 span, windows[][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
        guint points[] = { 50, 400, 37, 7 };

        strobe_memory_model_get_summary (m, &s);
        g_assert_cmpuint (strobe_memory_model_get_count (m), >, 50);
        span = s.last_time - s.first_time;
        windows[0][0] = s.first_time + span / 3, windows[0][1] = s.first_time + span / 2;
        windows[1][0] = s.first_time, windows[1][1] = s.last_time + 1;
        windows[2][0] = 0, windows[2][1] = s.last_time + span / 10 + 1;
        windows[3][0] = s.first_time + span / 2, windows[3][1] = s.first_time + span / 2 + span / 5;
        for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
          {
            g_autoptr (StrobeMemorySeries) x = strobe_memory_model_build_series (m, windows[w][0], windows[w][1], points[w], 64,
                                                                                 NULL, NULL, NULL, NULL);
            g_autoptr (StrobeMemorySeries) y = strobe_memory_model_build_series (walked[k], windows[w][0], windows[w][1],
                                                                                 points[w], 64, NULL, NULL, NULL, NULL);

            assert_series_equal (x, y);
            check_series (m, windows[w][0], windows[w][1], points[w]);
          }
        g_assert_cmpuint (strobe_memory_series_cache_bytes (strobe_memory_model_series_cache (m)), >,
                          strobe_memory_model_get_count (m) / every[e] * 8);
      }
}

/* Few groups kept on their own, the rest summed as "other". */
static void
test_series_other (void)
{
  StrobeMemorySummary s;
  g_autoptr (StrobeMemorySeries) series = NULL;
  guint n_groups;
  gboolean other = FALSE;

  strobe_memory_model_get_summary (golden, &s);
  series = strobe_memory_model_build_series (golden, s.first_time, s.last_time + 1, 100, 2, NULL, NULL, NULL, NULL);
  n_groups = strobe_memory_series_get_n_groups (series, STROBE_MEMORY_BY_TAG);
  g_assert_cmpuint (n_groups, ==, 3);
  for (guint g = 0; g < n_groups; g++)
    other = other || strobe_memory_series_get_group_key (series, STROBE_MEMORY_BY_TAG, g) == STROBE_MEMORY_SERIES_OTHER;
  g_assert_true (other);
  /* The two largest by their highest value: Cache (61 440) and Startup (32 768). */
  g_assert_cmpuint (strobe_memory_series_get_group_key (series, STROBE_MEMORY_BY_TAG, 0), ==, tag_id (golden, "Cache"));
  g_assert_cmpuint (strobe_memory_series_get_group_key (series, STROBE_MEMORY_BY_TAG, 1), ==, tag_id (golden, "Startup"));
}

static void
progress_cb (gdouble fraction, gpointer data)
{
  gdouble *last = data;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

/* The golden trace was recorded with STROBE_MEMORY_ADDRESSES=1, the stacks one without:
 * the view shows its Address column for the first only. */
static void
test_addresses (void)
{
  StrobeMemorySummary g, t;

  strobe_memory_model_get_summary (golden, &g);
  strobe_memory_model_get_summary (stacks, &t);
  g_assert_cmpuint (g.allocs, >, 0);
  g_assert_cmpuint (g.addressed, ==, g.allocs);
  g_assert_cmpuint (t.allocs, >, 0);
  g_assert_cmpuint (t.addressed, ==, 0);

  /* strobe-cli's leaks say so too: no made-up 0x0. */
  {
    g_autofree char *path = g_build_filename (work_dir, "stacks.strobe", NULL);
    const char *argv[] = { g_getenv ("STROBE_CLI"), "memory", "--max-leaks=-1", path, NULL };
    g_autofree char *out = NULL;
    g_autoptr (GError) error = NULL;
    int status = -1;

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "Leaks ("));
    g_assert_null (strstr (out, " 0x0 "));
    g_assert_nonnull (strstr (out, " -  "));
  }
}

static void
test_series_cancel (void)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeMemorySeries) done = NULL;
  StrobeMemorySummary s;
  gdouble last = 0;

  strobe_memory_model_get_summary (stacks, &s);
  done = strobe_memory_model_build_series (stacks, 0, s.last_time + 1, 100, 8, NULL, progress_cb, &last, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);
  g_cancellable_cancel (cancellable);
  g_assert_null (strobe_memory_model_build_series (stacks, 0, s.last_time + 1, 100, 8, cancellable, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- callers and callees against the stacks ------------------------------------------------------ */

typedef struct
{
  StrobeMemoryCosts inclusive, self;
} Brute;

static void
costs_add (StrobeMemoryCosts *to, const StrobeMemoryCosts *c)
{
  to->allocations += c->allocations;
  to->temporary += c->temporary;
  to->bytes_allocated += c->bytes_allocated;
  to->peak_bytes += c->peak_bytes;
  to->leaked_bytes += c->leaked_bytes;
}

static void
assert_costs (const StrobeMemoryCosts *a, const StrobeMemoryCosts *b)
{
  g_assert_cmpuint (a->allocations, ==, b->allocations);
  g_assert_cmpuint (a->temporary, ==, b->temporary);
  g_assert_cmpuint (a->bytes_allocated, ==, b->bytes_allocated);
  g_assert_cmpint (a->peak_bytes, ==, b->peak_bytes);
  g_assert_cmpint (a->leaked_bytes, ==, b->leaked_bytes);
}

static guint64
edge_key (guint64 caller, guint64 callee)
{
  return caller * G_GUINT64_CONSTANT (1000003) ^ callee;
}

static void
test_callers (void)
{
  g_autoptr (StrobeMemoryAggregate) by_stack = strobe_memory_model_aggregate (stacks, 0, G_MAXUINT64, STROBE_MEMORY_BY_STACK,
                                                                               NULL, NULL, NULL, NULL, NULL, NULL);
  g_autoptr (StrobeMemoryTree) tree = strobe_memory_model_build_tree (stacks, 0, G_MAXUINT64, STROBE_MEMORY_TREE_TOP_DOWN,
                                                                      NULL, NULL, NULL, NULL, NULL, NULL);
  g_autoptr (StrobeMemoryCallers) callers = strobe_memory_callers_new (tree, NULL, NULL);
  g_autoptr (GHashTable) functions = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) edges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint n = strobe_memory_aggregate_get_n_rows (by_stack);
  guint64 prev = G_MAXUINT64;

  /* Every function of every stack, once per stack at its outermost frame: its inclusive
   * costs, its caller there; frame #0's function: its self costs. */
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryRow row;
      StrobeMemoryFrame frames[256];
      guint depth;

      strobe_memory_aggregate_get_rows (by_stack, i, 1, &row);
      depth = row.key ? strobe_memory_model_get_frames (stacks, (guint32) row.key, frames, 256) : 0;
      for (guint f = 0; f < depth; f++)
        {
          guint64 key = frames[f].address;
          gboolean outermost = TRUE;
          Brute *b;

          for (guint g = f + 1; g < depth; g++)
            outermost = outermost && frames[g].address != key;
          if ((b = g_hash_table_lookup (functions, &key)) == NULL)
            g_hash_table_insert (functions, g_memdup2 (&key, sizeof key), b = g_new0 (Brute, 1));
          if (f == 0)
            costs_add (&b->self, &row.costs);
          if (!outermost)
            continue;
          costs_add (&b->inclusive, &row.costs);
          if (f + 1 < depth)
            {
              guint64 e = edge_key (frames[f + 1].address, key);
              StrobeMemoryCosts *c = g_hash_table_lookup (edges, &e);

              if (c == NULL)
                g_hash_table_insert (edges, g_memdup2 (&e, sizeof e), c = g_new0 (StrobeMemoryCosts, 1));
              costs_add (c, &row.costs);
            }
        }
    }
  g_assert_cmpuint (strobe_memory_callers_get_n_functions (callers), ==, g_hash_table_size (functions));
  g_assert_cmpuint (g_hash_table_size (functions), >=, 10);
  for (guint i = 0; i < strobe_memory_callers_get_n_functions (callers); i++)
    {
      StrobeMemoryFunction fn;
      g_autofree StrobeMemoryCall *calls = NULL;
      Brute *b;
      guint got;

      g_assert_true (strobe_memory_callers_get_function (callers, i, &fn));
      b = g_hash_table_lookup (functions, &fn.key);
      g_assert_nonnull (b);
      assert_costs (&fn.inclusive, &b->inclusive);
      assert_costs (&fn.self, &b->self);
      g_assert_cmpuint (strobe_memory_callers_find (callers, fn.key), ==, i);
      /* Sorted by inclusive peak, descending. */
      if (i)
        g_assert_cmpuint ((guint64) fn.inclusive.peak_bytes, <=, prev);
      prev = (guint64) fn.inclusive.peak_bytes;
      calls = g_new0 (StrobeMemoryCall, MAX (fn.n_callers + fn.n_callees, 1));
      got = strobe_memory_callers_get_callers (callers, i, 0, fn.n_callers, calls);
      g_assert_cmpuint (got, ==, fn.n_callers);
      for (guint c = 0; c < got; c++)
        {
          guint64 e = edge_key (calls[c].key, fn.key);
          g_assert_nonnull (g_hash_table_lookup (edges, &e));
          assert_costs (&calls[c].costs, g_hash_table_lookup (edges, &e));
        }
      got = strobe_memory_callers_get_callees (callers, i, 0, fn.n_callees, calls);
      g_assert_cmpuint (got, ==, fn.n_callees);
      for (guint c = 0; c < got; c++)
        {
          guint64 e = edge_key (fn.key, calls[c].key);
          g_assert_nonnull (g_hash_table_lookup (edges, &e));
          assert_costs (&calls[c].costs, g_hash_table_lookup (edges, &e));
        }
    }
  /* Sorting by another cost keeps every answer, in that order. */
  strobe_memory_callers_sort (callers, STROBE_MEMORY_COST_ALLOCATIONS, TRUE);
  prev = G_MAXUINT64;
  for (guint i = 0; i < strobe_memory_callers_get_n_functions (callers); i++)
    {
      StrobeMemoryFunction fn;
      strobe_memory_callers_get_function (callers, i, &fn);
      g_assert_cmpuint (fn.inclusive.allocations, <=, prev);
      g_assert_cmpuint (strobe_memory_callers_find (callers, fn.key), ==, i);
      prev = fn.inclusive.allocations;
    }
  g_assert_cmpuint (strobe_memory_callers_find (callers, 1), ==, G_MAXUINT);
}

/* ---- call trees ------------------------------------------------------------------------------- */

static void
test_tree_totals (void)
{
  StrobeMemoryModel *models[] = { golden, stacks };

  for (guint k = 0; k < G_N_ELEMENTS (models); k++)
    for (guint kind = 0; kind < 2; kind++)
      {
        g_autoptr (StrobeMemoryTree) tree = strobe_memory_model_build_tree (models[k], 0, G_MAXUINT64, kind, NULL, NULL,
                                                                            NULL, NULL, NULL, NULL);
        StrobeMemoryTreeNode root;
        StrobeMemorySummary s;

        strobe_memory_model_get_summary (models[k], &s);
        g_assert_true (strobe_memory_tree_get_node (tree, 0, &root));
        g_assert_cmpuint (root.inclusive.allocations, ==, s.allocs);
        g_assert_cmpuint (root.inclusive.bytes_allocated, ==, s.bytes_allocated);
        g_assert_cmpuint (root.inclusive.temporary, ==, s.temporary);
        g_assert_cmpint (root.inclusive.peak_bytes, ==, s.peak_bytes);
        /* The trace is over: what is still live leaked. */
        g_assert_cmpint (root.inclusive.leaked_bytes, ==, s.live_bytes);
        g_assert_cmpuint (root.inclusive.leaked_count, ==, (guint64) s.live_count);
      }
}

/* Path of keys (outermost first) → costs: what the top-down tree's nodes must hold. */
static char *
path_key (const guint64 *keys, guint n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%" G_GINT64_MODIFIER "x/", keys[i]);
  return g_string_free (s, FALSE);
}

static void
walk_tree (StrobeMemoryTree *tree, guint node, guint64 *keys, guint depth, GHashTable *expected, guint *checked)
{
  StrobeMemoryTreeNode n;
  g_autofree guint32 *kids = NULL;
  guint k;

  strobe_memory_tree_get_node (tree, node, &n);
  if (node != 0)
    {
      g_autofree char *key = NULL;
      StrobeMemoryCosts *want;

      keys[depth - 1] = n.key;
      key = path_key (keys, depth);
      want = g_hash_table_lookup (expected, key);
      g_assert_nonnull (want);
      g_assert_cmpuint (n.inclusive.allocations, ==, want->allocations);
      g_assert_cmpuint (n.inclusive.temporary, ==, want->temporary);
      g_assert_cmpuint (n.inclusive.bytes_allocated, ==, want->bytes_allocated);
      g_assert_cmpint (n.inclusive.leaked_bytes, ==, want->leaked_bytes);
      g_assert_cmpuint (n.inclusive.leaked_count, ==, want->leaked_count);
      g_assert_cmpint (n.inclusive.peak_bytes, ==, want->peak_bytes);
      (*checked)++;
    }
  kids = g_new (guint32, MAX (n.n_children, 1));
  k = strobe_memory_tree_get_children (tree, node, STROBE_MEMORY_COST_KEY, 0, n.n_children, kids);
  for (guint i = 0; i < k; i++)
    walk_tree (tree, kids[i], keys, depth + 1, expected, checked);
}

/* What @r held at @t. The emitter's pool slab and arena chunk back their heaps from the
 * event right after their allocation to the one right before their free (the record
 * keeps no flag once unmarked): they hold nothing of their own but at that first tick. */
static gint64
held_at (const StrobeMemoryAlloc *r, guint64 t)
{
  gboolean block = r->alignment_log2 == 12 && (r->size == 65536 || r->size == 32768);

  return !block || t == r->alloc_time ? (gint64) r->size : 0;
}

static void
add_path (GHashTable *expected, StrobeMemoryModel *m, const StrobeMemoryAlloc *r, gboolean allocated, gboolean leaked,
          gboolean at_peak, guint64 t1, guint64 peak)
{
  StrobeMemoryFrame frames[256];
  guint64 keys[256];
  guint n = r->callstack ? strobe_memory_model_get_frames (m, r->callstack, frames, 256) : 0;

  for (guint i = 0; i < n; i++)
    keys[i] = frames[n - 1 - i].address;
  for (guint d = 1; d <= n; d++)
    {
      g_autofree char *key = path_key (keys, d);
      StrobeMemoryCosts *c = g_hash_table_lookup (expected, key);

      if (c == NULL)
        g_hash_table_insert (expected, g_strdup (key), c = g_new0 (StrobeMemoryCosts, 1));
      if (allocated)
        {
          c->allocations++;
          c->bytes_allocated += r->size;
          c->temporary += (r->flags & STROBE_MEMORY_ALLOC_TEMPORARY) != 0;
        }
      if (leaked)
        {
          c->leaked_bytes += held_at (r, t1);
          c->leaked_count++;
        }
      if (at_peak)
        c->peak_bytes += held_at (r, peak);
    }
}

/* A range's top-down tree, node by node, against its records counted again: allocated in
 * [t0, t1], leaked (still live at t1), and what was live at the range's peak. */
static void
check_range_tree (StrobeMemoryModel *m, guint64 t0, guint64 t1)
{
  g_autoptr (StrobeMemoryTree) tree = strobe_memory_model_build_tree (m, t0, t1, STROBE_MEMORY_TREE_TOP_DOWN, NULL, NULL,
                                                                      NULL, NULL, NULL, NULL);
  g_autoptr (StrobeMemoryAggregate) agg = strobe_memory_model_aggregate (m, t0, t1, STROBE_MEMORY_BY_TAG, NULL, NULL,
                                                                          NULL, NULL, NULL, NULL);
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint64 peak = strobe_memory_aggregate_get_peak_time (agg), n = strobe_memory_model_get_count (m);
  guint64 keys[300];
  guint checked = 0;

  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc r = get (m, i);
      gboolean allocated = r.alloc_time >= t0 && r.alloc_time <= t1;
      gboolean leaked = allocated && (r.free_time == STROBE_MEMORY_LIVE || r.free_time > t1);
      /* Every event at its own tick (STROBE_MEMORY_SHIFT=0): the peak is a time. */
      gboolean at_peak = r.alloc_time <= peak && r.free_time > peak;

      if (allocated || at_peak)
        add_path (expected, m, &r, allocated, leaked, at_peak, t1, peak);
    }
  walk_tree (tree, 0, keys, 0, expected, &checked);
  g_assert_cmpuint (checked, ==, g_hash_table_size (expected));
  g_assert_cmpuint (checked, >, 5);
}

static void
test_range_tree (void)
{
  StrobeMemorySummary s;
  guint64 span;

  strobe_memory_model_get_summary (stacks, &s);
  span = s.last_time - s.first_time;
  check_range_tree (stacks, 0, G_MAXUINT64);
  /* A tenth, in the middle (the loader's thread is in it), and the first third. */
  check_range_tree (stacks, s.first_time + span / 2, s.first_time + span / 2 + span / 10);
  check_range_tree (stacks, s.first_time, s.first_time + span / 3);
}

/* ---- "Live at A": the view's query and strobe-cli memory --at -------------------------------- */

/* The demo's frame arena is one 256 KiB block of System marked as backing the "Frame arena"
 * heap, whose allocations are reported too: "live at" must count those bytes once. The
 * view's query (a selection and its totals) once counted the block as well (936 960 bytes
 * at 6.0 s, more than the trace's peak) while strobe-cli said 674 816; both now run the
 * same selection, and it equals the model's running totals at every time. */
static void
test_live_at_demo (void)
{
  g_autofree char *trace = g_build_filename (work_dir, "demo.strobe", NULL);
  g_autofree char *opt = g_strconcat ("--tracefile=", trace, NULL);
  g_autoptr (GSubprocess) demo = NULL;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr (StrobeMemoryModel) m = strobe_memory_model_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemorySummary sum;
  guint64 first, last, hz;
  gboolean arena_seen = FALSE;

  demo = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("STROBE_DEMO"),
                           "--duration=1.6", "--trace=memory", opt, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (demo, NULL, &error);
  g_assert_no_error (error);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  strobe_decoder_read_file (decoder, trace, NULL, &error);
  g_assert_no_error (error);
  strobe_memory_model_get_summary (m, &sum);
  g_assert_true (strobe_info_analyzer_get_time_range (info, &first, &last));
  hz = strobe_info_analyzer_get_metadata (info)->clock_frequency;

  for (guint k = 1; k <= 7; k++)
    {
      const char *seconds = k == 1 ? "0.2" : k == 2 ? "0.4" : k == 3 ? "0.6" : k == 4 ? "0.8"
                          : k == 5 ? "1.0" : k == 6 ? "1.2" : "1.4";
      guint64 t = first + (guint64) llround (g_ascii_strtod (seconds, NULL) * (gdouble) hz);
      StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_LIVE_AT, t, 0, 0 };
      g_autoptr (StrobeMemoryAllocList) list = strobe_memory_model_select (m, &sel, NULL, NULL, NULL, &error);
      g_autofree char *at = g_strconcat ("--at=", seconds, NULL);
      g_autofree char *out = NULL, *want = NULL;
      const char *argv[] = { g_getenv ("STROBE_CLI"), "memory", "--max-leaks=0", at, trace, NULL };
      g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
      g_autoptr (GSubprocess) cli = NULL;
      guint64 count, bytes, n = strobe_memory_alloc_list_get_n_items (list);
      gint64 tbytes, tcount;

      g_assert_no_error (error);
      strobe_memory_alloc_list_get_totals (list, &count, &bytes);
      strobe_memory_model_get_totals_at (m, t, &tbytes, &tcount);
      g_test_message ("at %s s: %" G_GUINT64_FORMAT " allocations, %" G_GUINT64_FORMAT " bytes", seconds, count, bytes);
      g_assert_cmpint ((gint64) bytes, ==, tbytes);
      g_assert_cmpint ((gint64) count, ==, tcount);
      g_assert_cmpint ((gint64) bytes, <=, sum.peak_bytes);
      for (guint64 i = 0; i < n; i++)
        {
          StrobeMemoryAlloc r;

          strobe_memory_alloc_list_get_items (list, i, 1, &r, NULL);
          if (r.heap == 0 && r.size == 256 * 1024)
            {
              g_assert_true (r.flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK);
              arena_seen = TRUE;
            }
        }

      g_subprocess_launcher_setenv (l, "LC_ALL", "C", TRUE);
      cli = g_subprocess_launcher_spawnv (l, argv, &error);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 0);
      want = g_strdup_printf ("Live at %s00000 s: %" G_GUINT64_FORMAT " bytes in %" G_GUINT64_FORMAT " allocations\n",
                              seconds, bytes, count);
      g_assert_nonnull (strstr (out, want));
    }
  g_assert_true (arena_seen);
}

/* Issue 24 item 4: the Memory channel off from frame 20 to 40 and on again. The trace
 * says when (one gap), and live bytes after it go on from where they were — the runtime
 * kept its table while the channel was off and the snapshot when it came on re-seeded the
 * live set — instead of falling to about nothing, as if everything had been freed. */
static void
test_channel_gap (void)
{
  g_autofree char *path = g_build_filename (work_dir, "gap.strobe", NULL);
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr (StrobeMemoryModel) model = strobe_memory_model_new ();
  g_autoptr (GArray) gaps = NULL;
  g_autoptr (GError) error = NULL;
  const StrobeInfoGap *g;
  gint64 before, after = 0, count;

  run_emitter (path, "--gap");
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);

  gaps = strobe_info_analyzer_dup_channel_gaps (info, "Memory");
  g_assert_cmpuint (gaps->len, ==, 1);
  g = &g_array_index (gaps, StrobeInfoGap, 0);
  g_assert_cmpuint (g->begin, <, g->end);
  g_assert_cmpuint (g->end, !=, G_MAXUINT64);
  {
    g_autoptr (GArray) none = strobe_info_analyzer_dup_channel_gaps (info, "Log");
    g_assert_cmpuint (none->len, ==, 0);
  }

  strobe_memory_model_get_totals_at (model, g->begin, &before, &count);
  /* A frame is a little over a millisecond, the gap twenty of them: the next few frames. */
  for (guint k = 1; k <= 4; k++)
    {
      gint64 bytes;

      strobe_memory_model_get_totals_at (model, g->end + k * (g->end - g->begin) / 20, &bytes, &count);
      after = MAX (after, bytes);
    }
  g_test_message ("live before the gap %" G_GINT64_FORMAT ", after %" G_GINT64_FORMAT, before, after);
  g_assert_cmpint (before, >, 40000);
  /* Cache grew by 1 KiB a frame while the channel was off (and the arena was reset). */
  g_assert_cmpint (after, >=, before);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  work_dir = g_dir_make_tmp ("strobe-memview-XXXXXX", NULL);
  golden_path = g_build_filename (golden_dir, "golden-memview.strobe", NULL);
  stacks_path = g_build_filename (work_dir, "stacks.strobe", NULL);
  golden = load_path (golden_path);
  run_emitter (stacks_path, "--stacks");
  stacks = load_path (stacks_path);

  g_test_add_func ("/memory-view-model/golden-cli", test_golden_cli);
  g_test_add_func ("/memory-view-model/golden-patterns", test_golden_patterns);
  g_test_add_func ("/memory-view-model/series", test_series);
  g_test_add_func ("/memory-view-model/series-other", test_series_other);
  g_test_add_func ("/memory-view-model/series-cancel", test_series_cancel);
  g_test_add_func ("/memory-view-model/series-checkpoints", test_series_checkpoints);
  g_test_add_func ("/memory-view-model/addresses", test_addresses);
  g_test_add_func ("/memory-view-model/callers", test_callers);
  g_test_add_func ("/memory-view-model/tree-totals", test_tree_totals);
  g_test_add_func ("/memory-view-model/range-tree", test_range_tree);
  g_test_add_func ("/memory-view-model/live-at-demo", test_live_at_demo);
  g_test_add_func ("/memory-view-model/channel-gap", test_channel_gap);
  status = g_test_run ();
  g_clear_object (&golden);
  g_clear_object (&stacks);
  test_dir_remove_all (work_dir);
  g_free (golden_path);
  g_free (stacks_path);
  g_free (work_dir);
  g_free (golden_dir);
  return status;
}
