/* test-timeline-queries.c — the timeline model's queries for views, against brute force
 * on the golden traces: the level of detail of a whole thread, counter series as
 * min/max buckets, the call tree and the butterfly (against the timer statistics), scope
 * search, the runtime's drops, change marks while a trace is fed in pieces, and a
 * cancelled computation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "strobe-batch-times.h"
#include "strobe-call-tree.h"
#include "strobe-cpu-batch.h"
#include "strobe-decoder.h"
#include "strobe-scope-search.h"
#include "strobe-scope-track.h"
#include "strobe-timeline-model.h"
#include "strobe-timer-stats.h"

static char *golden_dir;

static StrobeTimelineModel *
load_markers (const char *name, gboolean markers_only)
{
  g_autofree char *path = g_build_filename (golden_dir, name, NULL);
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeTimelineModel *m = strobe_timeline_model_new ();

  strobe_timeline_model_set_markers_only (m, markers_only);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  return m;
}

static StrobeTimelineModel *
load (const char *name)
{
  return load_markers (name, FALSE);
}

static guint16
thread_with_most_scopes (StrobeTimelineModel *m)
{
  g_autoptr (GArray) ids = strobe_timeline_model_get_threads (m);
  guint16 best = 0;
  guint most = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      g_autoptr (GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      guint n = 0;
      for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
        n += strobe_timeline_model_get_scopes (m, id, d, 0, G_MAXUINT64, s);
      if (n > most)
        most = n, best = id;
    }
  return best;
}

/* Every scope of the range lands in exactly one block of its depth; blocks of one depth
 * are in order and do not overlap; a block of one scope is that scope. */
static void
check_lod (StrobeTimelineModel *m, guint16 thread, guint64 t0, guint64 t1, guint64 res)
{
  guint depths = strobe_timeline_model_get_depth_count (m, thread);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
  guint at = 0;

  strobe_timeline_model_get_thread_blocks (m, thread, 0, depths, t0, t1, res, all);
  for (guint d = 0; d < depths; d++)
    {
      g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
      g_autoptr (GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      guint64 covered = 0;
      guint b = 0;

      strobe_timeline_model_get_blocks (m, thread, d, t0, t1, res, blocks);
      /* The whole-thread query is the per-depth ones, in depth order. */
      g_assert_cmpuint (at + blocks->len, <=, all->len);
      for (guint i = 0; i < blocks->len; i++)
        {
          const StrobeTimelineBlock *x = &g_array_index (all, StrobeTimelineBlock, at + i);
          const StrobeTimelineBlock *y = &g_array_index (blocks, StrobeTimelineBlock, i);
          g_assert_true (x->begin == y->begin && x->end == y->end && x->name_id == y->name_id
                         && x->count == y->count && x->depth == y->depth && x->flags == y->flags);
        }
      at += blocks->len;
      strobe_timeline_model_get_scopes (m, thread, d, t0, t1, scopes);
      for (guint i = 0; i + 1 < blocks->len; i++)
        g_assert_cmpuint (g_array_index (blocks, StrobeTimelineBlock, i).end, <=,
                          g_array_index (blocks, StrobeTimelineBlock, i + 1).begin);
      for (guint i = 0; i < scopes->len; i++)
        {
          const StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, i);
          const StrobeTimelineBlock *k;

          /* Scopes may touch (one ends where the next begins): the block that holds it. */
          while (b < blocks->len && g_array_index (blocks, StrobeTimelineBlock, b).end <= s->begin
                 && !(g_array_index (blocks, StrobeTimelineBlock, b).begin <= s->begin
                      && s->end <= g_array_index (blocks, StrobeTimelineBlock, b).end))
            b++;
          g_assert_cmpuint (b, <, blocks->len);
          k = &g_array_index (blocks, StrobeTimelineBlock, b);
          g_assert_cmpuint (s->begin, >=, k->begin);
          g_assert_cmpuint (s->end, <=, k->end);
          if (k->count == 1)
            {
              g_assert_cmpuint (k->begin, ==, s->begin);
              g_assert_cmpuint (k->end, ==, s->end);
              g_assert_cmpuint (k->name_id, ==, s->name_id);
            }
          else
            /* Merged only what is narrower than the resolution. */
            g_assert_cmpuint (s->end - s->begin, <, res);
        }
      for (guint i = 0; i < blocks->len; i++)
        covered += g_array_index (blocks, StrobeTimelineBlock, i).count;
      g_assert_cmpuint (covered, ==, scopes->len);
    }
  g_assert_cmpuint (at, ==, all->len);
}

/* The level of detail of a track of 20 000 scopes (157 chunks; runs of narrow ones from a
 * few scopes to several chunks long, wide ones between, some in the middle of a run) is
 * what finding each run's end by a binary search and seeking its last scope gives — the
 * way it was found before runs were walked. */
static void
test_track_blocks (void)
{
  StrobeScopeArena arena;
  StrobeScopeTrack *t;
  guint64 at = 1000;
  guint32 seed = 7;
  const guint64 resolutions[] = { 1, 40, 300, 5000, 90000, 2000000 };

  strobe_scope_arena_init (&arena, FALSE);
  t = strobe_scope_track_new (&arena);
  for (guint i = 0; i < 20000; i++)
    {
      guint64 len;

      seed = seed * 1103515245u + 12345u;
      len = (seed >> 16) % 97 == 0 ? 20000 + (seed >> 8) % 50000 : 1 + (seed >> 16) % 60;
      strobe_scope_track_append (&arena, t, at, at + len, (seed >> 4) % 5, 0, 0);
      at += len + (seed >> 20) % 30;
    }
  strobe_scope_track_finish (&arena, t);
  for (guint k = 0; k < G_N_ELEMENTS (resolutions); k++)
    for (guint w = 0; w < 3; w++)
      {
        guint64 r = resolutions[k];
        guint64 t0 = w == 0 ? 0 : 1000 + (at - 1000) / (w * 3), t1 = w == 2 ? t0 + (at - t0) / 4 : G_MAXUINT64;
        g_autoptr (GArray) got = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
        g_autoptr (GArray) want = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
        StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);
        gboolean merged = FALSE;

        strobe_scope_track_blocks (t, 0, t0, t1, r, got);
        while (strobe_scope_pos_valid (t, p) && p.begin <= t1)
          {
            StrobeTimelineBlock b = { p.begin, p.end, p.name, 1, 0, p.flags };
            guint64 i0 = strobe_scope_pos_index (t, p), i1;
            StrobeScopePos q, last;

            if (p.end - p.begin >= r)
              {
                g_array_append_val (want, b);
                merged = FALSE;
                strobe_scope_pos_next (t, &p);
                continue;
              }
            q = strobe_scope_track_lower_bound_begin (t, p.begin + r);
            i1 = strobe_scope_pos_index (t, q);
            last = strobe_scope_track_seek (t, i1 - 1);
            if (i1 - i0 > 1 && last.end - last.begin >= r)
              {
                q = last;
                last = strobe_scope_track_seek (t, --i1 - 1);
              }
            b.end = last.end;
            b.count = (guint32) (i1 - i0);
            if (merged && b.begin - g_array_index (want, StrobeTimelineBlock, want->len - 1).end < r)
              {
                StrobeTimelineBlock *prev = &g_array_index (want, StrobeTimelineBlock, want->len - 1);
                prev->end = b.end;
                prev->count += b.count;
              }
            else
              g_array_append_val (want, b);
            merged = TRUE;
            p = q;
          }
        g_assert_cmpuint (got->len, ==, want->len);
        for (guint i = 0; i < got->len; i++)
          {
            const StrobeTimelineBlock *x = &g_array_index (got, StrobeTimelineBlock, i);
            const StrobeTimelineBlock *y = &g_array_index (want, StrobeTimelineBlock, i);

            g_assert_cmpuint (x->begin, ==, y->begin);
            g_assert_cmpuint (x->end, ==, y->end);
            g_assert_cmpuint (x->count, ==, y->count);
          }
      }
  strobe_scope_track_free (t);
  strobe_scope_arena_clear (&arena);
}

static void
test_thread_blocks (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (GArray) ids = strobe_timeline_model_get_threads (m);
  guint64 first, last, len;

  g_assert_true (strobe_timeline_model_get_time_range (m, &first, &last));
  len = last - first;
  for (guint i = 0; i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      /* Fit-all at 1000 pixels, a tenth of it, and one scope a pixel; at 20 pixels, runs
       * of narrow scopes over several chunks of 128 (found by the chunks' last begins). */
      check_lod (m, id, first, last, len / 1000);
      check_lod (m, id, first, last, len / 20);
      check_lod (m, id, first + len / 3, first + len / 3 + len / 10, len / 10000);
      check_lod (m, id, first, last, 1);
    }
  /* Depth windows: [1, 3) is depths 1 and 2 only. */
  {
    guint16 id = thread_with_most_scopes (m);
    g_autoptr (GArray) some = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
    strobe_timeline_model_get_thread_blocks (m, id, 1, 3, first, last, len / 500, some);
    g_assert_cmpuint (some->len, >, 0);
    for (guint i = 0; i < some->len; i++)
      {
        guint16 d = g_array_index (some, StrobeTimelineBlock, i).depth;
        g_assert_true (d == 1 || d == 2);
      }
  }
}

static void
test_counter_series (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (GArray) counters = strobe_timeline_model_get_counters (m);
  guint64 first, last;

  g_assert_true (strobe_timeline_model_get_time_range (m, &first, &last));
  g_assert_cmpuint (counters->len, ==, 3);
  for (guint c = 0; c < counters->len; c++)
    {
      guint32 index = g_array_index (counters, StrobeTimelineCounter, c).index;
      g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
      guint n_buckets[] = { 1, 7, 64, 1000 };

      strobe_timeline_model_get_counter_samples (m, index, 0, G_MAXUINT64, samples);
      g_assert_cmpuint (samples->len, >, 10);
      for (guint i = 1; i < samples->len; i++)
        g_assert_cmpuint (g_array_index (samples, StrobeCounterSample, i - 1).time, <=,
                          g_array_index (samples, StrobeCounterSample, i).time);
      for (guint k = 0; k < G_N_ELEMENTS (n_buckets); k++)
        {
          /* A window in the middle, so there is a sample before and after it. */
          guint64 t0 = g_array_index (samples, StrobeCounterSample, 2).time + 1;
          guint64 t1 = g_array_index (samples, StrobeCounterSample, samples->len - 3).time;
          g_autoptr (GArray) buckets = g_array_new (FALSE, FALSE, sizeof (StrobeCounterBucket));
          StrobeCounterSample before, after;
          guint counted = 0, b = 0;
          gdouble span = (gdouble) (t1 - t0) + 1;

          strobe_timeline_model_get_counter_series (m, index, t0, t1, n_buckets[k], &before, &after, buckets);
          g_assert_cmpuint (before.time, ==, g_array_index (samples, StrobeCounterSample, 2).time);
          g_assert_cmpuint (after.time, ==, g_array_index (samples, StrobeCounterSample, samples->len - 2).time);
          /* Brute force: each sample in [t0, t1] falls in bucket floor((t - t0) n / span). */
          for (guint i = 0; i < samples->len; i++)
            {
              const StrobeCounterSample *s = &g_array_index (samples, StrobeCounterSample, i);
              const StrobeCounterBucket *kb;
              guint want;

              if (s->time < t0 || s->time > t1)
                continue;
              want = (guint) MIN ((gdouble) (s->time - t0) * n_buckets[k] / span, n_buckets[k] - 1);
              while (b < buckets->len && g_array_index (buckets, StrobeCounterBucket, b).bucket < want)
                b++;
              g_assert_cmpuint (b, <, buckets->len);
              kb = &g_array_index (buckets, StrobeCounterBucket, b);
              g_assert_cmpuint (kb->bucket, ==, want);
              g_assert_cmpfloat (s->value, >=, kb->min);
              g_assert_cmpfloat (s->value, <=, kb->max);
              g_assert_cmpuint (s->time, >=, kb->first_time);
              g_assert_cmpuint (s->time, <=, kb->last_time);
              if (s->time == kb->first_time)
                g_assert_cmpfloat (s->value, ==, kb->first);
              counted++;
            }
          {
            guint total = 0;
            for (guint i = 0; i < buckets->len; i++)
              total += g_array_index (buckets, StrobeCounterBucket, i).count;
            g_assert_cmpuint (total, ==, counted);
          }
        }
    }
}

static void
test_call_tree (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  guint64 first, last;
  guint64 ranges[3][2];

  g_assert_true (strobe_timeline_model_get_time_range (m, &first, &last));
  ranges[0][0] = 0, ranges[0][1] = G_MAXUINT64;
  ranges[1][0] = first + (last - first) / 4, ranges[1][1] = first + (last - first) / 2;
  ranges[2][0] = first + (last - first) / 3, ranges[2][1] = ranges[2][0] + (last - first) / 50;
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      g_autoptr (GArray) stats = strobe_timer_stats_compute (m, ranges[r][0], ranges[r][1], STROBE_TIMER_STATS_ALL_THREADS);
      g_autoptr (StrobeCostTree) tree = strobe_call_tree_compute (m, ranges[r][0], ranges[r][1], STROBE_TIMER_STATS_ALL_THREADS,
                                                          NULL, NULL);
      StrobeCallNode root;
      guint64 top = 0;

      g_assert_nonnull (tree);
      strobe_call_tree_get_node (tree, 0, &root);
      g_assert_cmpuint (root.name_id, ==, STROBE_CALL_NONE);
      /* Per name, the nodes add up to the timer statistics (each scope is in one node). */
      for (guint i = 0; i < stats->len; i++)
        {
          const StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
          guint64 count = 0, incl = 0, excl = 0;
          g_autoptr (GArray) callers = strobe_call_tree_callers (tree, s->name_id);
          guint64 caller_count = 0;

          for (guint k = 1; k < strobe_cost_tree_get_n_nodes (tree); k++)
            {
              StrobeCallNode n;
              strobe_call_tree_get_node (tree, k, &n);
              if (n.name_id == s->name_id)
                count += n.count, incl += n.inclusive, excl += n.exclusive;
            }
          g_assert_cmpuint (count, ==, s->count);
          g_assert_cmpuint (incl, ==, s->inclusive);
          g_assert_cmpuint (excl, ==, s->exclusive);
          /* Every instance has one caller (or none: outermost). */
          for (guint k = 0; k < callers->len; k++)
            caller_count += g_array_index (callers, StrobeCallLink, k).count;
          g_assert_cmpuint (caller_count, ==, s->count);
        }
      /* Children by inclusive time, largest first; a child never outlasts its parent. */
      for (guint k = 0; k < strobe_cost_tree_get_n_nodes (tree); k++)
        {
          StrobeCallNode n;
          guint64 prev = G_MAXUINT64, sum = 0;

          strobe_call_tree_get_node (tree, k, &n);
          for (guint32 c = n.first_child; c != STROBE_CALL_NONE; c = strobe_cost_tree_get_next_sibling (tree, c))
            {
              StrobeCallNode ch;
              strobe_call_tree_get_node (tree, c, &ch);
              g_assert_cmpuint (ch.parent, ==, k);
              g_assert_cmpuint (ch.depth, ==, n.depth + 1);
              g_assert_cmpuint (ch.inclusive, <=, prev);
              prev = ch.inclusive;
              sum += ch.inclusive;
            }
          if (k > 0)
            g_assert_cmpuint (sum, <=, n.inclusive);
          if (n.depth == 1)
            top += n.inclusive;
        }
      g_assert_cmpuint (root.inclusive, ==, top);
    }
}

/* @node of @limited found in @full by its path of names (STROBE_COST_NODE_NONE if not). */
static guint32
same_path (StrobeCostTree *limited, guint32 node, StrobeCostTree *full)
{
  guint32 path[256], n = 0, at = 0;

  for (guint32 k = node; k != 0; k = strobe_cost_tree_get_parent (limited, k))
    path[n++] = k;
  while (n > 0 && at != STROBE_COST_NODE_NONE)
    at = strobe_cost_tree_lookup_child (full, at, strobe_cost_tree_get_key (limited, path[--n]));
  return at;
}

/* A range with more name paths than a tree keeps: past the limit, a new path's scopes go
 * whole into their parent's "other" node (the two outermost levels are always kept). Every
 * path kept has the costs it has in the whole tree, every node's children (with "other")
 * add up to what they do there, and the tree stays within twice the limit besides the
 * outermost levels. */
static void
test_call_tree_limit (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (StrobeCostTree) full = strobe_call_tree_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
  guint32 n_full = strobe_cost_tree_get_n_nodes (full), shallow = 0;
  const guint32 limits[] = { 1, 2, 4 };

  for (guint32 k = 0; k < n_full; k++)
    shallow += strobe_cost_tree_get_depth (full, k) <= 2;
  /* Deep paths enough to lump. */
  g_assert_cmpuint (n_full - shallow, >, 4);
  for (guint l = 0; l < G_N_ELEMENTS (limits); l++)
    {
      g_autoptr (StrobeCostTree) tree = NULL;
      guint others = 0;

      strobe_call_tree_set_test_node_limit (limits[l]);
      tree = strobe_call_tree_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
      strobe_call_tree_set_test_node_limit (STROBE_CALL_TREE_MAX_NODES);
      g_assert_cmpuint (strobe_cost_tree_get_n_nodes (tree), <=, shallow + 2 * limits[l]);
      for (guint32 k = 0; k < strobe_cost_tree_get_n_nodes (tree); k++)
        {
          StrobeCallNode n, f;
          guint32 in_full;
          guint64 sum = 0, sum_full = 0;

          strobe_call_tree_get_node (tree, k, &n);
          if (n.name_id == STROBE_CALL_OTHER)
            {
              others++;
              g_assert_cmpuint (n.first_child, ==, STROBE_CALL_NONE);
              g_assert_cmpuint (n.depth, >, 2);
              continue;
            }
          in_full = same_path (tree, k, full);
          g_assert_cmpuint (in_full, !=, STROBE_COST_NODE_NONE);
          strobe_call_tree_get_node (full, in_full, &f);
          g_assert_cmpuint (n.count, ==, f.count);
          g_assert_cmpuint (n.inclusive, ==, f.inclusive);
          for (guint32 c = n.first_child; c != STROBE_CALL_NONE; c = strobe_cost_tree_get_next_sibling (tree, c))
            {
              StrobeCallNode ch;
              strobe_call_tree_get_node (tree, c, &ch);
              sum += ch.inclusive;
            }
          for (guint32 c = f.first_child; c != STROBE_CALL_NONE; c = strobe_cost_tree_get_next_sibling (full, c))
            {
              StrobeCallNode ch;
              strobe_call_tree_get_node (full, c, &ch);
              sum_full += ch.inclusive;
            }
          g_assert_cmpuint (sum, ==, sum_full);
        }
      g_assert_cmpuint (others, >, 0);
    }
  g_assert_cmpuint (shallow, >, 1);
}

/* Callees by hand on the synthetic trace: Frame calls Update (3 × 500) and Render (3 × 200). */
static void
test_butterfly (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-cpu-synthetic.strobe");
  g_autoptr (StrobeCostTree) tree = strobe_call_tree_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
  g_autoptr (GArray) stats = strobe_timer_stats_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  guint32 frame = G_MAXUINT32, update = G_MAXUINT32, render = G_MAXUINT32;
  g_autoptr (GArray) callees = NULL;
  g_autoptr (GArray) callers = NULL;

  for (guint i = 0; i < stats->len; i++)
    {
      const StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      if (g_str_equal (s->name, "Frame")) frame = s->name_id;
      if (g_str_equal (s->name, "Update")) update = s->name_id;
      if (g_str_equal (s->name, "Render")) render = s->name_id;
    }
  callees = strobe_call_tree_callees (tree, frame);
  g_assert_cmpuint (callees->len, ==, 2);
  g_assert_cmpuint (g_array_index (callees, StrobeCallLink, 0).name_id, ==, update);
  g_assert_cmpuint (g_array_index (callees, StrobeCallLink, 0).count, ==, 3);
  g_assert_cmpuint (g_array_index (callees, StrobeCallLink, 0).inclusive, ==, 1500);
  g_assert_cmpuint (g_array_index (callees, StrobeCallLink, 1).name_id, ==, render);
  g_assert_cmpuint (g_array_index (callees, StrobeCallLink, 1).inclusive, ==, 600);
  /* Update: 3 times from Frame (1500), once outermost (100). */
  callers = strobe_call_tree_callers (tree, update);
  g_assert_cmpuint (callers->len, ==, 2);
  g_assert_cmpuint (g_array_index (callers, StrobeCallLink, 0).name_id, ==, frame);
  g_assert_cmpuint (g_array_index (callers, StrobeCallLink, 0).inclusive, ==, 1500);
  g_assert_cmpuint (g_array_index (callers, StrobeCallLink, 1).name_id, ==, STROBE_CALL_NONE);
  g_assert_cmpuint (g_array_index (callers, StrobeCallLink, 1).count, ==, 1);
  g_assert_cmpuint (g_array_index (callers, StrobeCallLink, 1).inclusive, ==, 100);
}

static void
test_search (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (GArray) ids = strobe_timeline_model_get_threads (m);
  const char *needles[] = { "job", "Tiny", "frame", "nothing like it" };

  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    {
      guint64 total = 0, brute = 0, longest = 0;
      g_autoptr (GArray) found = strobe_scope_search (m, needles[k], 100, &total, NULL, NULL);
      g_autofree char *folded = g_utf8_casefold (needles[k], -1);

      for (guint i = 0; i < ids->len; i++)
        {
          guint16 id = g_array_index (ids, guint16, i);
          for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
            {
              g_autoptr (GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
              strobe_timeline_model_get_scopes (m, id, d, 0, G_MAXUINT64, s);
              for (guint j = 0; j < s->len; j++)
                {
                  const StrobeTimelineScope *sc = &g_array_index (s, StrobeTimelineScope, j);
                  g_autofree char *name = g_utf8_casefold (strobe_timeline_model_get_name (m, sc->name_id), -1);
                  if (strstr (name, folded) && !(sc->flags & STROBE_SCOPE_OPEN))
                    brute++;
                }
            }
        }
      g_assert_cmpuint (total, ==, brute);
      g_assert_cmpuint (found->len, ==, MIN (brute, 100));
      for (guint i = 1; i < found->len; i++)
        g_assert_cmpuint (g_array_index (found, StrobeScopeMatch, i - 1).begin, <=,
                          g_array_index (found, StrobeScopeMatch, i).begin);
      /* The longest instance of the first match's name. */
      if (found->len)
        {
          StrobeScopeMatch lm;
          guint32 name = g_array_index (found, StrobeScopeMatch, 0).name_id;
          g_autoptr (GArray) all = strobe_scope_search (m, strobe_timeline_model_get_name (m, name), G_MAXUINT, NULL, NULL, NULL);
          for (guint i = 0; i < all->len; i++)
            if (g_array_index (all, StrobeScopeMatch, i).name_id == name)
              longest = MAX (longest, g_array_index (all, StrobeScopeMatch, i).end - g_array_index (all, StrobeScopeMatch, i).begin);
          g_assert_true (strobe_scope_search_longest (m, name, 0, G_MAXUINT64, &lm, NULL, NULL));
          g_assert_cmpuint (lm.end - lm.begin, ==, longest);
        }
    }
}

/* A bounded query is the first @max of the whole one: what a tooltip asks of a scope's
 * children, however many there are. */
static void
test_scopes_max (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  guint16 id = thread_with_most_scopes (m);
  guint checked = 0;

  for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
      guint n = strobe_timeline_model_get_scopes (m, id, d, 0, G_MAXUINT64, all);
      const guint maxes[] = { 0, 1, 7, n / 2, n, n + 3 };

      for (guint k = 0; k < G_N_ELEMENTS (maxes); k++)
        {
          g_autoptr (GArray) some = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          guint got = strobe_timeline_model_get_scopes_max (m, id, d, 0, G_MAXUINT64, maxes[k], some);

          g_assert_cmpuint (got, ==, MIN (maxes[k], n));
          g_assert_cmpuint (some->len, ==, got);
          g_assert_cmpmem (some->data, got * sizeof (StrobeTimelineScope), all->data, got * sizeof (StrobeTimelineScope));
        }
      checked += n > 8;
    }
  g_assert_cmpuint (checked, >, 0);
}

/* The golden timeline trace lost events in one burst: one drop interval, between two of
 * the runtime's Stats reports, with the runtime's count. */
static void
test_drops (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (GArray) drops = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
  g_autoptr (GArray) none = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
  const StrobeTimelineDrop *d;

  g_assert_cmpuint (strobe_timeline_model_get_drops (m, 0, G_MAXUINT64, drops), ==, 1);
  d = &g_array_index (drops, StrobeTimelineDrop, 0);
  g_assert_cmpuint (d->count, ==, 60180);
  g_assert_cmpuint (d->begin, <, d->end);
  g_assert_cmpuint (strobe_timeline_model_get_drops (m, 0, d->begin - 1, none), ==, 0);
  g_assert_cmpuint (strobe_timeline_model_get_drops (m, d->end + 1, G_MAXUINT64, none), ==, 0);
  g_assert_cmpuint (strobe_timeline_model_get_drops (m, d->begin, d->begin, none), ==, 1);
}

/* Every CPU scope batch of a trace as it was read: thread, base, shift, bytes. */
typedef struct
{
  guint16 thread;
  guint64 base;
  guint   shift;
  GBytes *data;
} TappedBatch;

#define BATCH_TAP_TYPE (batch_tap_get_type ())
G_DECLARE_FINAL_TYPE (BatchTap, batch_tap, BATCH, TAP, GObject)

struct _BatchTap
{
  GObject  parent_instance;
  GArray  *batches;   /* TappedBatch */
};

static void
batch_tap_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "Cpu", "EventBatch");
}

static void
batch_tap_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  static StrobeFieldAccessor base_f = STROBE_FIELD_ACCESSOR_INIT ("Base");
  static StrobeFieldAccessor shift_f = STROBE_FIELD_ACCESSOR_INIT ("Shift");
  static StrobeFieldAccessor data_f = STROBE_FIELD_ACCESSOR_INIT ("Data");
  gsize n = 0;
  guint8 elem = 0;
  const guint8 *p = strobe_event_get_array (ev, &data_f, &elem, &n);
  TappedBatch b = { ev->thread_id, strobe_event_get_uint (ev, &base_f),
                    (guint) MIN (strobe_event_get_uint (ev, &shift_f), 63), g_bytes_new (p, p ? n : 0) };

  g_array_append_val (BATCH_TAP (analyzer)->batches, b);
}

static void
batch_tap_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = batch_tap_begin;
  iface->on_event = batch_tap_on_event;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BatchTap, batch_tap, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, batch_tap_iface_init))

static void
tapped_batch_clear (gpointer data)
{
  g_bytes_unref (((TappedBatch *) data)->data);
}

static void
batch_tap_finalize (GObject *object)
{
  g_array_unref (BATCH_TAP (object)->batches);
  G_OBJECT_CLASS (batch_tap_parent_class)->finalize (object);
}

static void
batch_tap_class_init (BatchTapClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = batch_tap_finalize;
}

static void
batch_tap_init (BatchTap *self)
{
  self->batches = g_array_new (FALSE, FALSE, sizeof (TappedBatch));
  g_array_set_clear_func (self->batches, tapped_batch_clear);
}

/* The first and last time of a trace's batches from each thread's first and latest only
 * are what walking every batch gives, whatever room the latest have (none: each walked
 * as it comes; a few bytes; plenty), on traces of one and of several threads. */
static void
test_batch_times (void)
{
  static const char *const traces[] = { "golden-cpu-threads.strobe", "golden-timeline.strobe",
                                        "golden-compare-a.strobe" };
  static const gsize rooms[] = { 0, 1, 600, 4096, STROBE_BATCH_TIMES_KEPT_BYTES };
  guint later_batches = 0;

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *path = g_build_filename (golden_dir, traces[i], NULL);
      g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
      g_autoptr (BatchTap) tap = g_object_new (BATCH_TAP_TYPE, NULL);
      g_autoptr (GError) error = NULL;
      guint64 first = G_MAXUINT64, last = 0;
      GHashTable *threads = g_hash_table_new (NULL, NULL);

      strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (tap));
      g_assert_true (strobe_decoder_read_file (decoder, path, NULL, &error));
      g_assert_no_error (error);
      for (guint k = 0; k < tap->batches->len; k++)
        {
          TappedBatch *b = &g_array_index (tap->batches, TappedBatch, k);
          gsize n;
          const guint8 *p = g_bytes_get_data (b->data, &n);
          guint64 f, l;

          g_hash_table_add (threads, GUINT_TO_POINTER ((guint) b->thread + 1));
          if (n && strobe_cpu_batch_time_range (b->base, b->shift, p, n, &f, &l))
            {
              first = MIN (first, f);
              last = MAX (last, l);
            }
        }
      g_test_message ("%s: %u batches, %u threads", traces[i], tap->batches->len, g_hash_table_size (threads));
      later_batches += tap->batches->len - g_hash_table_size (threads);
      g_hash_table_unref (threads);
      for (guint r = 0; r < G_N_ELEMENTS (rooms); r++)
        {
          StrobeBatchTimes *times = strobe_batch_times_new (rooms[r]);
          guint64 f, l;

          for (guint k = 0; k < tap->batches->len; k++)
            {
              TappedBatch *b = &g_array_index (tap->batches, TappedBatch, k);
              gsize n;
              const guint8 *p = g_bytes_get_data (b->data, &n);

              strobe_batch_times_add (times, b->thread, b->base, b->shift, p, n);
            }
          g_assert_true (strobe_batch_times_end (times, &f, &l));
          g_assert_cmpuint (f, ==, first);
          g_assert_cmpuint (l, ==, last);
          strobe_batch_times_free (times);
        }
    }
  /* Threads that sent more than their first batch, the case this is for. */
  g_assert_cmpuint (later_batches, >, 10);
}

static void
assert_same_array (GArray *a, GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  g_assert_cmpmem (a->data, a->len * g_array_get_element_size (a), b->data, b->len * g_array_get_element_size (b));
}

/* A model that keeps no scope (what `strobe-cli compare` and `stats` read beside a timer
 * stream) has every marker of the time the whole model has — frames with their ends at
 * the trace's end, bookmarks, regions in their lanes, counters and their samples, drops,
 * the extent — in the bytes of those alone. */
static void
test_markers_only (void)
{
  static const char *const traces[] = { "golden-compare-a.strobe", "golden-compare-b.strobe",
                                        "golden-timeline.strobe", "golden-cpu-threads.strobe" };
  guint markers = 0;

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autoptr (StrobeTimelineModel) all = load_markers (traces[i], FALSE);
      g_autoptr (StrobeTimelineModel) few = load_markers (traces[i], TRUE);
      g_autoptr (GArray) ca = strobe_timeline_model_get_counters (all);
      g_autoptr (GArray) cf = strobe_timeline_model_get_counters (few);
      g_autoptr (GArray) threads = strobe_timeline_model_get_threads (few);
      StrobeTimelineStats sa, sf;
      guint64 fa, la, ff, lf;

      g_assert_true (strobe_timeline_model_get_time_range (all, &fa, &la));
      g_assert_true (strobe_timeline_model_get_time_range (few, &ff, &lf));
      g_assert_cmpuint (fa, ==, ff);
      g_assert_cmpuint (la, ==, lf);
      for (guint8 k = 0; k < STROBE_TIMELINE_FRAME_KINDS; k++)
        {
          g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
          g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));

          strobe_timeline_model_get_frames (all, k, 0, G_MAXUINT64, a);
          strobe_timeline_model_get_frames (few, k, 0, G_MAXUINT64, b);
          for (guint f = 0; f < a->len; f++)
            {
              StrobeTimelineFrame *x = &g_array_index (a, StrobeTimelineFrame, f);
              StrobeTimelineFrame *y = &g_array_index (b, StrobeTimelineFrame, MIN (f, b->len - 1));

              g_assert_cmpuint (x->begin, ==, y->begin);
              g_assert_cmpuint (x->end, ==, y->end);
              g_assert_cmpuint (x->index, ==, y->index);
              g_assert_cmpuint (x->flags, ==, y->flags);
            }
          g_assert_cmpuint (a->len, ==, b->len);
          markers += a->len;
        }
      {
        g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
        g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));

        strobe_timeline_model_get_bookmarks (all, 0, G_MAXUINT64, a);
        strobe_timeline_model_get_bookmarks (few, 0, G_MAXUINT64, b);
        g_assert_cmpuint (a->len, ==, b->len);
        for (guint j = 0; j < a->len; j++)
          {
            StrobeTimelineBookmark *x = &g_array_index (a, StrobeTimelineBookmark, j);
            StrobeTimelineBookmark *y = &g_array_index (b, StrobeTimelineBookmark, j);

            g_assert_cmpuint (x->time, ==, y->time);
            g_assert_cmpuint (x->thread_id, ==, y->thread_id);
            g_assert_cmpstr (strobe_timeline_model_get_name (all, x->name_id), ==,
                             strobe_timeline_model_get_name (few, y->name_id));
          }
        markers += a->len;
      }
      {
        g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
        g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));

        strobe_timeline_model_get_regions (all, 0, G_MAXUINT64, a);
        strobe_timeline_model_get_regions (few, 0, G_MAXUINT64, b);
        g_assert_cmpuint (a->len, ==, b->len);
        for (guint j = 0; j < a->len; j++)
          {
            StrobeTimelineRegion *x = &g_array_index (a, StrobeTimelineRegion, j);
            StrobeTimelineRegion *y = &g_array_index (b, StrobeTimelineRegion, j);

            g_assert_cmpuint (x->begin, ==, y->begin);
            g_assert_cmpuint (x->end, ==, y->end);
            g_assert_cmpuint (x->lane, ==, y->lane);
            g_assert_cmpuint (x->flags, ==, y->flags);
            g_assert_cmpstr (strobe_timeline_model_get_name (all, x->name_id), ==,
                             strobe_timeline_model_get_name (few, y->name_id));
          }
        markers += a->len;
      }
      g_assert_cmpuint (ca->len, ==, cf->len);
      for (guint c = 0; c < ca->len; c++)
        {
          StrobeTimelineCounter *x = &g_array_index (ca, StrobeTimelineCounter, c);
          StrobeTimelineCounter *y = &g_array_index (cf, StrobeTimelineCounter, c);
          g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
          g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));

          g_assert_cmpstr (x->name, ==, y->name);
          g_assert_cmpuint (x->n_samples, ==, y->n_samples);
          strobe_timeline_model_get_counter_samples (all, x->index, 0, G_MAXUINT64, a);
          strobe_timeline_model_get_counter_samples (few, y->index, 0, G_MAXUINT64, b);
          assert_same_array (a, b);
          markers += a->len;
        }
      {
        g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));
        g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineDrop));

        strobe_timeline_model_get_drops (all, 0, G_MAXUINT64, a);
        strobe_timeline_model_get_drops (few, 0, G_MAXUINT64, b);
        assert_same_array (a, b);
      }
      /* No scope, no track: only the markers' bytes. */
      strobe_timeline_model_get_stats (all, &sa);
      strobe_timeline_model_get_stats (few, &sf);
      g_assert_cmpuint (sa.scopes, >, 0);
      g_assert_cmpuint (sf.scopes, ==, 0);
      g_assert_cmpuint (sf.scope_bytes, ==, 0);
      g_assert_cmpuint (sf.total_bytes, <, sa.total_bytes);
      g_assert_cmpuint (threads->len, ==, 0);
    }
  /* The traces have each kind of marker between them. */
  g_assert_cmpuint (markers, >, 100);
}

/* Fed in pieces, each change mark says where the series changed: the scopes that appeared
 * since a generation all end at or after the mark's time, and a series that did not
 * change says so. */
static void
test_change_marks (void)
{
  g_autofree char *path = g_build_filename (golden_dir, "golden-timeline.strobe", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (StrobeTimelineModel) m = strobe_timeline_model_new ();
  g_autoptr (GError) error = NULL;
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  for (gsize pos = 0; pos < len; pos += 4093)
    {
      guint64 gen = strobe_timeline_model_get_generation (m);
      g_autoptr (GArray) ids = strobe_timeline_model_get_threads (m);
      GHashTable *before = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);

      for (guint i = 0; i < ids->len; i++)
        {
          guint16 id = g_array_index (ids, guint16, i);
          GArray *all = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
            strobe_timeline_model_get_scopes (m, id, d, 0, G_MAXUINT64, all);
          g_hash_table_insert (before, GUINT_TO_POINTER (id), all);
        }
      g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data + pos, MIN (4093, len - pos), &error));
      g_assert_no_error (error);
      g_assert_cmpuint (strobe_timeline_model_get_changed_since (m, STROBE_TIMELINE_SERIES_SCOPES, 16,
                                                                 strobe_timeline_model_get_generation (m)),
                        ==, G_MAXUINT64);
      for (guint i = 0; i < ids->len; i++)
        {
          guint16 id = g_array_index (ids, guint16, i);
          GArray *old = g_hash_table_lookup (before, GUINT_TO_POINTER (id));
          g_autoptr (GArray) now = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          guint64 from = strobe_timeline_model_get_changed_since (m, STROBE_TIMELINE_SERIES_SCOPES, id, gen);
          guint completed_old = 0, completed_now = 0;

          for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
            strobe_timeline_model_get_scopes (m, id, d, 0, G_MAXUINT64, now);
          for (guint k = 0; k < old->len; k++)
            completed_old += !(g_array_index (old, StrobeTimelineScope, k).flags & STROBE_SCOPE_OPEN);
          for (guint k = 0; k < now->len; k++)
            {
              const StrobeTimelineScope *s = &g_array_index (now, StrobeTimelineScope, k);
              completed_now += !(s->flags & STROBE_SCOPE_OPEN);
            }
          if (completed_now != completed_old)
            {
              /* New scopes: each is at or after the mark, or overlaps it. */
              g_assert_cmpuint (from, !=, G_MAXUINT64);
              for (guint k = 0; k < now->len; k++)
                {
                  const StrobeTimelineScope *s = &g_array_index (now, StrobeTimelineScope, k);
                  gboolean was = FALSE;
                  for (guint j = 0; j < old->len && !was; j++)
                    {
                      const StrobeTimelineScope *o = &g_array_index (old, StrobeTimelineScope, j);
                      was = o->begin == s->begin && o->end == s->end && o->depth == s->depth && o->flags == s->flags;
                    }
                  if (!was)
                    g_assert_cmpuint (s->end, >=, from);
                }
              checked++;
            }
        }
      g_hash_table_unref (before);
    }
  g_assert_true (strobe_decoder_finish (decoder, &error));
  g_assert_cmpuint (checked, >, 3);
}

static void
test_cancel (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  GArray *r;

  g_cancellable_cancel (cancellable);
  r = strobe_timer_stats_compute_full (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (strobe_call_tree_compute (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  r = strobe_scope_search (m, "job", 10, NULL, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Scope and bookmark names remember where they were declared; dynamic ones have none. */
typedef struct
{
  StrobeTimelineModel *m;
  gboolean             held;
} TryRead;

static gpointer
try_read_thread (gpointer data)
{
  TryRead *t = data;

  t->held = strobe_timeline_model_try_read_lock (t->m, 0);
  if (t->held)
    strobe_timeline_model_read_unlock (t->m);
  return NULL;
}

/* The viewer's main thread reads the model only when it can at once (issue 20): the lock
 * taken without waiting on an idle model; held, the queries answer as without it (they
 * take the read lock again, which a reader never waits for); another reader is not kept
 * out; and the generation, asked without the lock, follows what is fed. */
static void
test_try_read (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  g_autoptr (StrobeTimelineModel) fresh = strobe_timeline_model_new ();
  guint16 id = thread_with_most_scopes (m);
  g_autoptr (GArray) before = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
  g_autoptr (GArray) held = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBlock));
  TryRead other = { m, FALSE };
  GThread *thread;
  guint64 first, last;

  g_assert_true (strobe_timeline_model_get_time_range (m, &first, &last));
  strobe_timeline_model_get_thread_blocks (m, id, 0, 64, first, last, (last - first) / 500, before);
  g_assert_true (strobe_timeline_model_try_read_lock (m, 0));
  strobe_timeline_model_get_thread_blocks (m, id, 0, 64, first, last, (last - first) / 500, held);
  g_assert_cmpuint (held->len, ==, before->len);
  /* Field by field: the blocks' padding is whatever the stack held (ASan's differs). */
  for (guint i = 0; i < held->len; i++)
    {
      const StrobeTimelineBlock *h = &g_array_index (held, StrobeTimelineBlock, i);
      const StrobeTimelineBlock *b = &g_array_index (before, StrobeTimelineBlock, i);

      g_assert_true (h->begin == b->begin && h->end == b->end && h->name_id == b->name_id && h->count == b->count
                     && h->depth == b->depth && h->flags == b->flags);
    }
  thread = g_thread_new ("try-read", try_read_thread, &other);
  g_thread_join (thread);
  g_assert_true (other.held);
  strobe_timeline_model_read_unlock (m);

  g_assert_cmpuint (strobe_timeline_model_get_generation (fresh), ==, 0);
  g_assert_cmpuint (strobe_timeline_model_get_generation (m), >, 0);
  /* The lock is free again: a writer could take it (the model is fed below). */
  {
    g_autofree char *path = g_build_filename (golden_dir, "golden-timeline.strobe", NULL);
    g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
    g_autoptr (GError) error = NULL;

    strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (fresh));
    strobe_decoder_read_file (decoder, path, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (strobe_timeline_model_get_generation (fresh), ==, strobe_timeline_model_get_generation (m));
  }
}

static void
test_name_source (void)
{
  g_autoptr (StrobeTimelineModel) m = load ("golden-timeline.strobe");
  guint found_static = 0, found_dynamic = 0;

  for (guint i = 0; i < strobe_timeline_model_get_n_names (m); i++)
    {
      const char *name = strobe_timeline_model_get_name (m, i), *file = NULL;
      guint32 line = 0;
      gboolean has = strobe_timeline_model_get_name_source (m, i, &file, &line);

      if (g_str_equal (name, "Broadphase") || g_str_equal (name, "Level loaded"))
        {
          g_assert_true (has);
          g_assert_true (g_str_has_suffix (file, "timeline-emitter.c"));
          g_assert_cmpuint (line, >, 0);
          found_static++;
        }
      if (g_str_has_prefix (name, "Job: "))
        {
          g_assert_false (has);
          found_dynamic++;
        }
    }
  g_assert_cmpuint (found_static, ==, 2);
  g_assert_cmpuint (found_dynamic, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  g_assert_nonnull (golden_dir);

  g_test_add_func ("/timeline-queries/thread-blocks", test_thread_blocks);
  g_test_add_func ("/timeline-queries/track-blocks", test_track_blocks);
  g_test_add_func ("/timeline-queries/counter-series", test_counter_series);
  g_test_add_func ("/timeline-queries/call-tree", test_call_tree);
  g_test_add_func ("/timeline-queries/butterfly", test_butterfly);
  g_test_add_func ("/timeline-queries/call-tree-limit", test_call_tree_limit);
  g_test_add_func ("/timeline-queries/search", test_search);
  g_test_add_func ("/timeline-queries/scopes-max", test_scopes_max);
  g_test_add_func ("/timeline-queries/drops", test_drops);
  g_test_add_func ("/timeline-queries/markers-only", test_markers_only);
  g_test_add_func ("/timeline-queries/batch-times", test_batch_times);
  g_test_add_func ("/timeline-queries/change-marks", test_change_marks);
  g_test_add_func ("/timeline-queries/cancel", test_cancel);
  g_test_add_func ("/timeline-queries/name-source", test_name_source);
  g_test_add_func ("/timeline-queries/try-read", test_try_read);
  return g_test_run ();
}
