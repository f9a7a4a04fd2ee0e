/* test-timer-stream.c — the timers of a trace are right at scale: a trace written by the
 * runtime from four threads (skewed names, nesting to depth 7, one thread nested past the
 * model's depth cap once, scopes still open at the end) is read into a timeline model and
 * into the streaming timers at once, and
 *  - a brute-force reference over every scope the model kept (children found by search,
 *    medians by sorting all values) gives the same counts, inclusive and exclusive totals,
 *    minima and maxima, and medians within the sketch's stated 1/256;
 *  - strobe_timer_stats_compute() over the model and the streaming timers give identical
 *    answers, for the whole trace, a range and one thread, and count the same scopes not
 *    kept — the streaming timers walked in the decoder's callback and on 1 to 3 worker
 *    lanes alike, with the same trace extent in an info analyzer beside them;
 *  - a model given a small memory budget counts, and does not keep, the scopes past it.
 * Most names get far more than STROBE_DURATION_SKETCH_EXACT scopes (the sketch's
 * histogram), a few fewer (its exact values).
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <strobe/strobe.h>

#include "strobe-async-analyzer.h"
#include "strobe-call-tree.h"
#include "strobe-decoder.h"
#include "strobe-duration-sketch.h"
#include "strobe-info-analyzer.h"
#include "strobe-scope-search.h"
#include "strobe-timeline-model.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats.h"
#include "strobe-timer-stream.h"
#include "strobe-timer-summary.h"

#define N_NAMES   24
#define N_THREADS 4

static StrobeCpuSpec specs[N_NAMES];
static char *names[N_NAMES];

typedef struct
{
  guint   index;
  guint32 rng;
  guint64 scopes;
} Emitter;

static guint32
next_rand (Emitter *e)
{
  e->rng = e->rng * 1664525u + 1013904223u;
  return e->rng >> 8;
}

static void
node (Emitter *e, guint depth)
{
  /* Skewed: low names far more often; the last four (one a thread) only for one in
   * twenty trees, a few hundred scopes each. */
  guint r = next_rand (e) % 100;
  guint name = depth == 0 && r < 5 ? N_NAMES - 4 + e->index : (r * r / 500) % (N_NAMES - 4);
  guint children = depth >= 6 ? 0 : next_rand (e) % (depth < 2 ? 5 : 3);
  volatile guint x = 0;

  strobe_cpu_begin (&specs[name]);
  e->scopes++;
  for (guint i = 0; i < next_rand (e) % 200; i++)
    x += i;
  for (guint c = 0; c < children; c++)
    node (e, depth + 1);
  strobe_cpu_end ();
}

static void *
emitter_main (void *data)
{
  Emitter *e = data;

  while (e->scopes < 60000)
    node (e, 0);
  if (e->index == 1)
    {
      /* Past the depth cap once: the model and the stream refuse the same begins. */
      for (guint i = 0; i < STROBE_TIMELINE_MAX_DEPTH + 50; i++)
        strobe_cpu_begin (&specs[i % 3]);
      for (guint i = 0; i < STROBE_TIMELINE_MAX_DEPTH + 50; i++)
        strobe_cpu_end ();
    }
  if (e->index == 2)
    {
      /* Left open: closed at the trace's end. */
      strobe_cpu_begin (&specs[0]);
      strobe_cpu_begin (&specs[1]);
      strobe_frame_begin (STROBE_FRAME_GAME);
      strobe_frame_end (STROBE_FRAME_GAME);
    }
  strobe_flush ();
  return NULL;
}

static char *trace_path;
static char *write_trace (void);

/* The trace, written once for all the cases. */
static const char *
get_trace (void)
{
  if (trace_path == NULL)
    trace_path = write_trace ();
  return trace_path;
}

static char *
write_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-timer-stream-XXXXXX", NULL);
  char *path = g_build_filename (dir, "trace.strobe", NULL);
  StrobeInitOptions opts = { 0 };
  pthread_t threads[N_THREADS];
  Emitter e[N_THREADS];

  for (guint i = 0; i < N_NAMES; i++)
    {
      names[i] = g_strdup_printf ("Name%02u", i);
      specs[i] = (StrobeCpuSpec) { 0, i, names[i], __FILE__ };
    }
  opts.block_wait_ms = 5000;
  opts.control_port = STROBE_CONTROL_NONE;
  opts.tail_bytes = STROBE_TAIL_NONE;
  strobe_channels_set_enabled ("Cpu,Frame", true);
  strobe_init (&opts);
  g_assert_true (strobe_output_file (path));
  for (guint i = 0; i < N_THREADS; i++)
    {
      e[i] = (Emitter) { i, 17u + i * 7919u, 0 };
      pthread_create (&threads[i], NULL, emitter_main, &e[i]);
    }
  for (guint i = 0; i < N_THREADS; i++)
    pthread_join (threads[i], NULL);
  strobe_flush ();
  strobe_output_stop ();
  strobe_shutdown ();
  return path;
}

/* ---- the reference: every kept scope, brute force ------------------------------------ */

typedef struct
{
  guint64 count, inclusive, exclusive, min, max;
  GArray *values;
} Ref;

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* First scope of @level (in time order) beginning at or after @t. */
static guint
first_at (GArray *level, guint64 t)
{
  guint lo = 0, hi = level->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (level, StrobeTimelineScope, mid).begin < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

/* Every kept scope overlapping [t0, t1] of @thread (or all), clipped to it, children found
 * by search: what the timers must say, by the definition in strobe-timer-stats.h. */
static GHashTable *
reference_range (StrobeTimelineModel *m, guint64 t0, guint64 t1, gint thread)
{
  GHashTable *refs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) threads = strobe_timeline_model_get_threads (m);

  for (guint i = 0; i < threads->len; i++)
    {
      guint16 tid = g_array_index (threads, guint16, i);
      guint depths = strobe_timeline_model_get_depth_count (m, tid);
      GPtrArray *levels;

      if (thread >= 0 && tid != thread)
        continue;
      levels = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      for (guint d = 0; d <= depths; d++)
        {
          GArray *level = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
          strobe_timeline_model_get_scopes (m, tid, d, 0, G_MAXUINT64, level);
          g_ptr_array_add (levels, level);
        }
      for (guint d = 0; d < depths; d++)
        {
          GArray *level = levels->pdata[d], *next = levels->pdata[d + 1];

          for (guint k = 0; k < level->len; k++)
            {
              StrobeTimelineScope *s = &g_array_index (level, StrobeTimelineScope, k);
              const char *name = strobe_timeline_model_get_name (m, s->name_id);
              guint64 incl = clip (s->begin, s->end, t0, t1), children = 0;
              Ref *r;

              if (s->flags & STROBE_SCOPE_OPEN)
                continue;
              if (s->begin > t1 || s->end < t0 || (incl == 0 && s->end > s->begin))
                continue;
              for (guint c = first_at (next, s->begin); c < next->len; c++)
                {
                  StrobeTimelineScope *ch = &g_array_index (next, StrobeTimelineScope, c);
                  if (ch->begin > s->end || ch->end > s->end)
                    break;
                  children += clip (ch->begin, ch->end, t0, t1);
                }
              r = g_hash_table_lookup (refs, name);
              if (r == NULL)
                {
                  r = g_new0 (Ref, 1);
                  r->min = G_MAXUINT64;
                  r->values = g_array_new (FALSE, FALSE, sizeof (guint64));
                  g_hash_table_insert (refs, (gpointer) name, r);
                }
              r->count++;
              r->inclusive += incl;
              r->exclusive += incl > children ? incl - children : 0;
              r->min = MIN (r->min, incl);
              r->max = MAX (r->max, incl);
              g_array_append_val (r->values, incl);
            }
        }
      g_ptr_array_unref (levels);
    }
  return refs;
}

static GHashTable *
reference (StrobeTimelineModel *m)
{
  return reference_range (m, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
}

static void
refs_free (GHashTable *refs)
{
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, refs);
  while (g_hash_table_iter_next (&it, NULL, &v))
    {
      g_array_unref (((Ref *) v)->values);
      g_free (v);
    }
  g_hash_table_unref (refs);
}

/* @stats against @refs: counts, totals, min and max equal; medians and p95 exact up to
 * STROBE_DURATION_SKETCH_EXACT values a name, else within the sketch's 1/256 (each value
 * is placed in its bucket, so an order statistic of them is in the bucket of the true
 * one). Returns how many names were within the bound only. */
static guint
check_stats (GArray *stats, GHashTable *refs)
{
  guint sketched = 0;

  g_assert_cmpuint (stats->len, ==, g_hash_table_size (refs));
  for (guint i = 0; i < stats->len; i++)
    {
      StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      Ref *r = g_hash_table_lookup (refs, s->name);
      gsize n;
      gdouble median;
      guint64 p95;

      g_assert_nonnull (r);
      g_assert_cmpuint (s->count, ==, r->count);
      g_assert_cmpuint (s->inclusive, ==, r->inclusive);
      g_assert_cmpuint (s->exclusive, ==, r->exclusive);
      g_assert_cmpuint (s->min, ==, r->min);
      g_assert_cmpuint (s->max, ==, r->max);
      g_array_sort (r->values, cmp_u64);
      n = r->values->len;
      median = n % 2 ? (gdouble) g_array_index (r->values, guint64, n / 2)
                     : ((gdouble) g_array_index (r->values, guint64, n / 2 - 1) +
                        (gdouble) g_array_index (r->values, guint64, n / 2)) / 2;
      /* nearest rank: the ⌈0.95 n⌉-th smallest */
      p95 = g_array_index (r->values, guint64, (n * 95 + 99) / 100 - 1);
      if (n <= STROBE_DURATION_SKETCH_EXACT)
        {
          g_assert_cmpfloat (s->median, ==, median);
          g_assert_cmpuint (s->p95, ==, p95);
        }
      else
        {
          g_assert_cmpfloat (fabs (s->median - median), <=, median / 256 + 0.5);
          g_assert_cmpfloat (fabs ((gdouble) s->p95 - (gdouble) p95), <=, (gdouble) p95 / 256 + 1);
          sketched++;
        }
    }
  return sketched;
}

/* The model's answers (summary blocks merged, rare names' blocks walked again) and the
 * stream's (every scope walked) are the same: the blocks keep the sketch's own buckets. */
static void
assert_same (GArray *a, GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      StrobeTimerStat *x = &g_array_index (a, StrobeTimerStat, i), *y = &g_array_index (b, StrobeTimerStat, i);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->count, ==, y->count);
      g_assert_cmpuint (x->inclusive, ==, y->inclusive);
      g_assert_cmpuint (x->exclusive, ==, y->exclusive);
      g_assert_cmpuint (x->min, ==, y->min);
      g_assert_cmpuint (x->max, ==, y->max);
      g_assert_cmpfloat (x->median, ==, y->median);
      g_assert_cmpuint (x->p95, ==, y->p95);
    }
}

/* The stream's timers, walked in the decoder's callback (@lanes 0) or on worker lanes;
 * the trace's extent as an info analyzer beside it saw it, too. */
static GArray *
stream_stats_lanes (const char *path, guint64 t0, guint64 t1, gint thread, guint lanes,
                    guint64 *depth_overflows, guint64 extent[2])
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  g_autoptr(StrobeTimerStream) stream = strobe_timer_stream_new (t0, t1, thread);
  g_autoptr(GError) error = NULL;

  strobe_timer_stream_set_lanes (stream, lanes);
  /* The info analyzer first, as a document adds it: it ends before the stream. */
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (stream));
  g_assert_true (strobe_decoder_read_file (decoder, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (strobe_timer_stream_is_contested (stream));
  strobe_timer_stream_get_overflows (stream, depth_overflows, NULL);
  if (extent)
    g_assert_true (strobe_info_analyzer_get_time_range (info, &extent[0], &extent[1]));
  return strobe_timer_stream_get_stats (stream);
}

/* Without lanes and on 1, 2 and 3 lanes (the trace's four threads shared unevenly):
 * the same answers, the same scopes not kept and the same extent. */
static GArray *
stream_stats (const char *path, guint64 t0, guint64 t1, gint thread, guint64 *depth_overflows)
{
  guint64 extent[2], depth = 0;
  GArray *one = stream_stats_lanes (path, t0, t1, thread, 0, &depth, extent);

  for (guint lanes = 1; lanes <= 3; lanes++)
    {
      guint64 e[2], d = 0;
      g_autoptr(GArray) other = stream_stats_lanes (path, t0, t1, thread, lanes, &d, e);

      assert_same (one, other);
      g_assert_cmpuint (d, ==, depth);
      g_assert_cmpuint (e[0], ==, extent[0]);
      g_assert_cmpuint (e[1], ==, extent[1]);
    }
  if (depth_overflows)
    *depth_overflows = depth;
  return one;
}

static void
test_timers_at_scale (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) from_model = NULL, streamed = NULL, threads = NULL;
  GHashTable *refs = NULL;
  StrobeTimelineStats ms;
  guint64 first, last, depth_overflows = 0;
  gint tid;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  g_assert_true (strobe_decoder_read_file (decoder, path, NULL, &error));
  g_assert_no_error (error);
  strobe_timeline_model_get_stats (model, &ms);
  g_assert_cmpuint (ms.scopes, >, 200000);
  g_assert_cmpuint (ms.depth_overflows, ==, 50);

  /* Whole trace: the model's timers, the stream's and the brute-force reference. */
  refs = reference (model);
  from_model = strobe_timer_stats_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  check_stats (from_model, refs);
  streamed = stream_stats (path, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, &depth_overflows);
  /* The stream walks every scope: both halves of the sketch (exact, bucketed) exercised. */
  {
    guint sketched = check_stats (streamed, refs);
    g_assert_cmpuint (sketched, >, 0);
    g_assert_cmpuint (sketched, <, streamed->len);
  }
  assert_same (from_model, streamed);
  g_assert_cmpuint (depth_overflows, ==, ms.depth_overflows);
  g_clear_pointer (&from_model, g_array_unref);
  g_clear_pointer (&streamed, g_array_unref);

  /* The nesting alone (what strobe-cli info runs): the same scopes not kept, none timed. */
  {
    g_autoptr(StrobeDecoder) d = strobe_decoder_new ();
    g_autoptr(StrobeTimerStream) nesting = strobe_timer_stream_new_nesting_only ();
    g_autoptr(GArray) none = NULL;
    guint64 depth = 0, budget = 1;

    strobe_decoder_add_analyzer (d, STROBE_ANALYZER (nesting));
    g_assert_true (strobe_decoder_read_file (d, path, NULL, &error));
    g_assert_no_error (error);
    strobe_timer_stream_get_overflows (nesting, &depth, &budget);
    g_assert_cmpuint (depth, ==, ms.depth_overflows);
    g_assert_cmpuint (budget, ==, ms.budget_overflows);
    none = strobe_timer_stream_get_stats (nesting);
    g_assert_nonnull (none);
    g_assert_cmpuint (none->len, ==, 0);
  }

  /* A range (clipped times) and one thread. */
  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));
  from_model = strobe_timer_stats_compute (model, first + (last - first) / 3, first + (last - first) / 2,
                                           STROBE_TIMER_STATS_ALL_THREADS);
  streamed = stream_stats (path, first + (last - first) / 3, first + (last - first) / 2,
                           STROBE_TIMER_STATS_ALL_THREADS, NULL);
  g_assert_cmpuint (from_model->len, >, 0);
  assert_same (from_model, streamed);
  g_clear_pointer (&from_model, g_array_unref);
  g_clear_pointer (&streamed, g_array_unref);

  threads = strobe_timeline_model_get_threads (model);
  tid = g_array_index (threads, guint16, threads->len - 1);
  from_model = strobe_timer_stats_compute (model, 0, G_MAXUINT64, tid);
  streamed = stream_stats (path, 0, G_MAXUINT64, tid, NULL);
  g_assert_cmpuint (from_model->len, >, 0);
  assert_same (from_model, streamed);

  refs_free (g_steal_pointer (&refs));
}

/* How many summary blocks the model's tracks have. */
static guint
summary_blocks (StrobeTimelineModel *m)
{
  GPtrArray *threads;
  guint n = 0;

  strobe_timeline_model_read_lock (m);
  threads = strobe_timeline_model_peek_threads (m);
  for (guint i = 0; i < threads->len; i++)
    {
      StrobeScopeThread *th = threads->pdata[i];
      for (guint d = 0; d < th->tracks->len; d++)
        n += strobe_timer_summary_n_blocks (((StrobeScopeTrack *) th->tracks->pdata[d])->summary);
    }
  strobe_timeline_model_read_unlock (m);
  return n;
}

/* How many summary blocks lie wholly inside [t0, t1] on @thread (or all): what a range's
 * timers merge instead of walking. */
static guint
blocks_inside (StrobeTimelineModel *m, guint64 t0, guint64 t1, gint thread)
{
  GPtrArray *threads;
  guint n = 0;

  strobe_timeline_model_read_lock (m);
  threads = strobe_timeline_model_peek_threads (m);
  for (guint i = 0; i < threads->len; i++)
    {
      StrobeScopeThread *th = threads->pdata[i];
      if (thread >= 0 && th->thread_id != thread)
        continue;
      for (guint d = 0; d < th->tracks->len; d++)
        {
          StrobeScopeTrack *t = th->tracks->pdata[d];
          for (guint k = 0; k < strobe_timer_summary_n_blocks (t->summary); k++)
            n += strobe_scope_chunk (t, strobe_timer_summary_block_chunk (t->summary, k))->base >= t0
                 && strobe_scope_chunk (t, strobe_timer_summary_block_chunk (t->summary, k + 1) - 1)->last_end <= t1;
        }
    }
  strobe_timeline_model_read_unlock (m);
  return n;
}

/* Random ranges (wide ones over many summary blocks, narrow ones between two, ends in
 * the middle of blocks), every thread and each thread alone, against the brute force. */
static guint
check_ranges (StrobeTimelineModel *m, guint32 *rng, guint n_ranges)
{
  g_autoptr(GArray) threads = strobe_timeline_model_get_threads (m);
  guint64 first = 0, last = 0;
  guint merged = 0;

  g_assert_true (strobe_timeline_model_get_time_range (m, &first, &last));
  for (guint i = 0; i < n_ranges; i++)
    {
      guint64 span = last - first, t0, t1;
      gint thread = i % 3 == 0 ? (gint) g_array_index (threads, guint16, (i / 3) % threads->len)
                               : STROBE_TIMER_STATS_ALL_THREADS;
      g_autoptr(GArray) stats = NULL;
      GHashTable *refs;

      *rng = *rng * 1664525u + 1013904223u;
      t0 = first + span / 1000 * ((*rng >> 8) % 1000);
      *rng = *rng * 1664525u + 1013904223u;
      /* three quarters up to all of it, a quarter up to a twentieth */
      t1 = t0 + (i % 4 == 0 ? span / 20 : span) / 1000 * ((*rng >> 8) % 1001);
      if (i == 0)
        t0 = first, t1 = last;
      stats = strobe_timer_stats_compute (m, t0, t1, thread);
      refs = reference_range (m, t0, t1, thread);
      check_stats (stats, refs);
      refs_free (refs);
      merged += blocks_inside (m, t0, t1, thread) > 0;
    }
  return merged;
}

/* The trace read into a model whose summary blocks are of one chunk: this trace's tracks
 * of ten thousand scopes get dozens each — enough that ranges start and end inside, and
 * span, many of them. The blocks' size is back to the default after. */
/* The trace read whole into a new model. */
static StrobeTimelineModel *
read_model (void)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(GError) error = NULL;
  StrobeTimelineModel *model = strobe_timeline_model_new ();

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  g_assert_true (strobe_decoder_read_file (decoder, get_trace (), NULL, &error));
  g_assert_no_error (error);
  return model;
}

static StrobeTimelineModel *
read_small_blocks (void)
{
  StrobeTimelineModel *model;

  strobe_timer_summary_set_test_shift (0);
  model = read_model ();
  strobe_timer_summary_set_test_shift (STROBE_TIMER_SUMMARY_CHUNKS_SHIFT);
  g_assert_cmpuint (summary_blocks (model), >=, 1000);
  return model;
}

static void
test_summary_ranges (void)
{
  g_autoptr(StrobeTimelineModel) model = read_small_blocks ();
  guint32 rng = 12345;

  /* Most ranges merge blocks (and walk their ragged ends). */
  g_assert_cmpuint (check_ranges (model, &rng, 40), >=, 20);
}

/* Every completed scope overlapping [t0, t1], as the model's own reader gives them:
 * thread by thread, depth by depth, each track's in its order. */
static GArray *
completed_scopes (StrobeTimelineModel *m, guint64 t0, guint64 t1)
{
  g_autoptr(GArray) threads = strobe_timeline_model_get_threads (m);
  g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeScopeMatch));

  for (guint i = 0; i < threads->len; i++)
    {
      guint16 id = g_array_index (threads, guint16, i);

      for (guint d = 0; d < strobe_timeline_model_get_depth_count (m, id); d++)
        {
          g_array_set_size (s, 0);
          strobe_timeline_model_get_scopes (m, id, d, t0, t1, s);
          for (guint j = 0; j < s->len; j++)
            {
              const StrobeTimelineScope *x = &g_array_index (s, StrobeTimelineScope, j);
              StrobeScopeMatch match = { x->begin, x->end, x->name_id, id, (guint16) d };

              if (!(x->flags & STROBE_SCOPE_OPEN))
                g_array_append_val (out, match);
            }
        }
    }
  return out;
}

static guint64
brute_named (StrobeTimelineModel *m, guint32 name_id, guint64 t0, guint64 t1, guint64 *longest)
{
  g_autoptr(GArray) all = completed_scopes (m, t0, t1);
  guint64 n = 0;

  *longest = 0;
  for (guint i = 0; i < all->len; i++)
    {
      const StrobeScopeMatch *x = &g_array_index (all, StrobeScopeMatch, i);

      if (x->name_id != name_id)
        continue;
      n++;
      *longest = MAX (*longest, x->end - x->begin);
    }
  return n;
}

/* The longest scope named @name_id overlapping [t0, t1] as one walk meets them — thread,
 * depth, time — the first of its length: FALSE when there is none. */
static gboolean
brute_longest (StrobeTimelineModel *m, guint32 name_id, guint64 t0, guint64 t1, StrobeScopeMatch *out)
{
  g_autoptr(GArray) all = completed_scopes (m, t0, t1);
  gboolean found = FALSE;

  for (guint i = 0; i < all->len; i++)
    {
      const StrobeScopeMatch *x = &g_array_index (all, StrobeScopeMatch, i);

      if (x->name_id != name_id)
        continue;
      if (!found || x->end - x->begin > out->end - out->begin)
        *out = *x;
      found = TRUE;
    }
  return found;
}

/* A name's longest instance, looked for by one to three workers over the tracks: the
 * one a single walk finds (the first of that length in thread, depth and time order),
 * over the whole trace and random ranges, on blocks of one chunk. */
static void
test_longest_workers (void)
{
  g_autoptr(StrobeTimelineModel) model = read_small_blocks ();
  guint64 first = 0, last = 0;
  guint32 rng = 4242;
  guint checked = 0;

  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));
  for (guint32 id = 0; id < strobe_timeline_model_get_n_names (model); id++)
    for (guint r = 0; r < 5; r++)
      {
        guint64 span = last - first, t0 = first, t1 = last;
        StrobeScopeMatch want = { 0 };
        gboolean has;

        if (r > 0)
          {
            rng = rng * 1664525u + 1013904223u;
            t0 = first + span / 1000 * ((rng >> 8) % 1000);
            rng = rng * 1664525u + 1013904223u;
            t1 = t0 + span / 1000 * ((rng >> 8) % 400);
          }
        has = brute_longest (model, id, t0, t1, &want);
        for (guint workers = 1; workers <= 3; workers++)
          {
            StrobeScopeMatch got = { 0 };

            strobe_scope_search_set_test_pace (0, 0, workers);
            g_assert_true (strobe_scope_search_longest (model, id, t0, t1, &got, NULL, NULL) == has);
            if (has)
              g_assert_cmpmem (&got, sizeof got, &want, sizeof want);
          }
        checked += has;
      }
  strobe_scope_search_set_test_pace (0, 0, 0);
  g_assert_cmpuint (checked, >, 50);
}

/* Scope search and a name's longest instance jump over the summary blocks that hold none
 * of it (or none longer than the one found): for every name — the common ones in every
 * block, the rare ones in few — the same answers as walking every scope, over the whole
 * trace and over random ranges. */
static void
test_summary_search (void)
{
  g_autoptr(StrobeTimelineModel) model = read_small_blocks ();
  g_autoptr(GError) error = NULL;
  guint64 first = 0, last = 0;
  guint32 rng = 99;

  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));
  for (guint32 id = 0; id < strobe_timeline_model_get_n_names (model); id++)
    {
      const char *name = strobe_timeline_model_get_name (model, id);
      guint64 total = 0, longest, n = brute_named (model, id, 0, G_MAXUINT64, &longest);
      g_autoptr(GArray) found = strobe_scope_search (model, name, 50, &total, NULL, &error);
      StrobeScopeMatch m;

      g_assert_no_error (error);
      /* "Name0x" names contain no other: the search's count is this name's. */
      if (!g_str_has_prefix (name, "Name"))
        continue;
      g_assert_cmpuint (total, ==, n);
      g_assert_cmpuint (found->len, ==, MIN (n, 50));
      for (guint i = 0; i < found->len; i++)
        g_assert_cmpuint (g_array_index (found, StrobeScopeMatch, i).name_id, ==, id);
      /* The earliest 50: none of the name begins before the 50th but those. */
      if (found->len == 50)
        {
          guint64 before, unused;

          before = brute_named (model, id, 0, g_array_index (found, StrobeScopeMatch, 49).begin - 1, &unused);
          g_assert_cmpuint (before, <=, 49);
        }
      g_assert_true (strobe_scope_search_longest (model, id, first, last, &m, NULL, NULL) == (n > 0));
      if (n > 0)
        g_assert_cmpuint (m.end - m.begin, ==, longest);
      for (guint r = 0; r < 6; r++)
        {
          guint64 span = last - first, t0, t1, in_range;

          rng = rng * 1664525u + 1013904223u;
          t0 = first + span / 1000 * ((rng >> 8) % 1000);
          rng = rng * 1664525u + 1013904223u;
          t1 = t0 + span / 1000 * ((rng >> 8) % 400);
          in_range = brute_named (model, id, t0, t1, &longest);
          g_assert_true (strobe_scope_search_longest (model, id, t0, t1, &m, NULL, NULL) == (in_range > 0));
          if (in_range > 0)
            {
              g_assert_cmpuint (m.end - m.begin, ==, longest);
              g_assert_cmpuint (m.name_id, ==, id);
              g_assert_cmpuint (m.begin, <=, t1);
              g_assert_cmpuint (m.end, >=, t0);
            }
        }
    }
}

static gint
by_begin_thread_depth (gconstpointer a, gconstpointer b)
{
  const StrobeScopeMatch *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->thread_id != y->thread_id)
    return x->thread_id < y->thread_id ? -1 : 1;
  return (x->depth > y->depth) - (x->depth < y->depth);
}

/* Every completed scope whose name holds @needle (case-folded), in the order a search
 * gives them: by begin, thread and depth, a track's own in its order. */
static GArray *
brute_matches (StrobeTimelineModel *m, const char *needle)
{
  g_autoptr(GArray) all = completed_scopes (m, 0, G_MAXUINT64);
  g_autofree char *folded = g_utf8_casefold (needle, -1);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeScopeMatch));

  for (guint i = 0; i < all->len; i++)
    {
      const StrobeScopeMatch *x = &g_array_index (all, StrobeScopeMatch, i);
      g_autofree char *name = g_utf8_casefold (strobe_timeline_model_get_name (m, x->name_id), -1);

      if (strstr (name, folded))
        g_array_append_val (out, *x);
    }
  g_array_sort (out, by_begin_thread_depth);
  return out;
}

/* The threads searched by one to three workers at once give one walk's answer: the same
 * matches in the same order, the same total, the earliest @max of them for any cap — on
 * blocks of one chunk (most of them jumped over, many by the horizon) and of the usual
 * size; and the progress counter ends at the steps the view expects, on any number of
 * workers, the blocks jumped over counted too. */
static void
test_search_workers (void)
{
  const char *needles[] = { "name0", "Name23", "Name1", "NAME", "nothing of the kind" };
  g_autoptr(GError) error = NULL;

  for (guint small = 0; small < 2; small++)
    {
      g_autoptr(StrobeTimelineModel) model = NULL;

      if (small)
        model = read_small_blocks ();
      else
        {
          g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();

          model = strobe_timeline_model_new ();
          strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
          g_assert_true (strobe_decoder_read_file (decoder, get_trace (), NULL, &error));
          g_assert_no_error (error);
        }
      for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
        {
          g_autoptr(GArray) all = brute_matches (model, needles[k]);
          guint maxes[] = { 0, 1, 7, 50, 1000, all->len / 3, all->len, G_MAXUINT };

          for (guint workers = 1; workers <= 3; workers++)
            for (guint c = 0; c < G_N_ELEMENTS (maxes); c++)
              {
                g_autoptr(GArray) found = NULL;
                guint64 total = 0;
                gint progress = 0;

                strobe_scope_search_set_test_pace (0, 0, workers);
                found = strobe_scope_search_full (model, needles[k], maxes[c], &total, &progress, NULL, &error);
                g_assert_no_error (error);
                g_assert_cmpuint (total, ==, all->len);
                g_assert_cmpuint (found->len, ==, MIN (maxes[c], all->len));
                g_assert_cmpmem (found->data, found->len * sizeof (StrobeScopeMatch), all->data,
                                 found->len * sizeof (StrobeScopeMatch));
                g_assert_cmpint (progress, ==, all->len ? (gint) strobe_scope_search_steps (model) : 0);
              }
        }
      /* Finer steps: the count of every scope passed, whichever worker passed it. */
      for (guint workers = 1; workers <= 3; workers++)
        {
          g_autoptr(GArray) found = NULL;
          gint progress = 0;

          strobe_scope_search_set_test_pace (100, 0, workers);
          found = strobe_scope_search_full (model, "Name2", 10, NULL, &progress, NULL, &error);
          g_assert_cmpuint (strobe_scope_search_steps (model), >, 1000);
          g_assert_cmpint (progress, ==, (gint) strobe_scope_search_steps (model));
        }
      strobe_scope_search_set_test_pace (0, 0, 0);
    }
}

/* A model still growing: searched at every step of its growth, by two workers, it gives
 * the brute force's matches — the blocks published by then counted in the first pass, the
 * tail (which grows) read by the walk. */
static void
test_search_growing (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len, step, off = 0;
  guint checks = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  strobe_timer_summary_set_test_shift (2);
  strobe_scope_search_set_test_pace (0, 0, 2);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  step = len / 7 + 1;
  while (off < len)
    {
      gsize n = MIN (step, len - off);
      g_autoptr(GArray) all = NULL;

      g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data + off, n, &error));
      g_assert_no_error (error);
      off += n;
      all = brute_matches (model, "name1");
      for (guint c = 0; c < 3; c++)
        {
          guint max = c == 0 ? 7 : c == 1 ? all->len / 2 : G_MAXUINT;
          guint64 total = 0;
          g_autoptr(GArray) found = strobe_scope_search (model, "name1", max, &total, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (total, ==, all->len);
          g_assert_cmpuint (found->len, ==, MIN (max, all->len));
          g_assert_cmpmem (found->data, found->len * sizeof (StrobeScopeMatch), all->data,
                           found->len * sizeof (StrobeScopeMatch));
        }
      checks += all->len > 0;
    }
  strobe_scope_search_set_test_pace (0, 0, 0);
  strobe_timer_summary_set_test_shift (STROBE_TIMER_SUMMARY_CHUNKS_SHIFT);
  g_assert_cmpuint (checks, >=, 5);
}

/* A model still growing (the trace fed a piece at a time, no end): its summaries cover
 * the blocks filled so far, and the timers of any range agree with the brute force at
 * every step. */
static void
test_summary_live (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len, step, off = 0;
  guint32 rng = 777;
  guint checks = 0, last_blocks = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  strobe_timer_summary_set_test_shift (1);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  step = len / 6 + 1;
  while (off < len)
    {
      gsize n = MIN (step, len - off);

      g_assert_true (strobe_decoder_feed (decoder, (const guint8 *) data + off, n, &error));
      g_assert_no_error (error);
      off += n;
      if (strobe_timeline_model_get_time_range (model, NULL, NULL))
        {
          guint blocks = summary_blocks (model);
          g_assert_cmpuint (blocks, >=, last_blocks);
          last_blocks = blocks;
          checks += check_ranges (model, &rng, 8) > 0;
        }
    }
  /* Ranges merged blocks at several steps of the growth. */
  g_assert_cmpuint (checks, >=, 3);
  g_assert_cmpuint (last_blocks, >, 0);
  strobe_timer_summary_set_test_shift (STROBE_TIMER_SUMMARY_CHUNKS_SHIFT);
}

/* Waits for @m's summary blocks (built on a thread of their own) of the chunks filled. */
static void
sync_summaries (StrobeTimelineModel *m)
{
  GPtrArray *threads;

  strobe_timeline_model_read_lock (m);
  threads = strobe_timeline_model_peek_threads (m);
  for (guint i = 0; i < threads->len; i++)
    {
      StrobeScopeThread *th = threads->pdata[i];
      for (guint d = 0; d < th->tracks->len; d++)
        strobe_timer_summary_wait (((StrobeScopeTrack *) th->tracks->pdata[d])->summary);
    }
  strobe_timeline_model_read_unlock (m);
}

/* Per track, how many summary blocks: the same in @a and @b. */
static void
assert_same_blocks (StrobeTimelineModel *a, StrobeTimelineModel *b)
{
  GPtrArray *ta, *tb;

  strobe_timeline_model_read_lock (a);
  strobe_timeline_model_read_lock (b);
  ta = strobe_timeline_model_peek_threads (a);
  tb = strobe_timeline_model_peek_threads (b);
  g_assert_cmpuint (ta->len, ==, tb->len);
  for (guint i = 0; i < ta->len; i++)
    {
      StrobeScopeThread *x = ta->pdata[i], *y = tb->pdata[i];

      g_assert_cmpuint (x->tracks->len, ==, y->tracks->len);
      for (guint d = 0; d < x->tracks->len; d++)
        g_assert_cmpuint (strobe_timer_summary_n_blocks (((StrobeScopeTrack *) x->tracks->pdata[d])->summary), ==,
                          strobe_timer_summary_n_blocks (((StrobeScopeTrack *) y->tracks->pdata[d])->summary));
    }
  strobe_timeline_model_read_unlock (b);
  strobe_timeline_model_read_unlock (a);
}

static const guint8 *
keep_block (gpointer data, const guint8 *bytes, gsize len)
{
  GBytes *b = g_bytes_new (bytes, len);

  g_ptr_array_add (data, b);
  return g_bytes_get_data (b, NULL);
}

static void
fill_chunk (StrobeTimerSummaryScope *scopes, guint32 *rng)
{
  for (guint i = 0; i < STROBE_SCOPE_CHUNK; i++)
    {
      *rng = *rng * 1103515245u + 12345u;
      scopes[i].name = (*rng >> 8) % 300;
      scopes[i].incl = (*rng >> 3) % 200000;
      scopes[i].excl = scopes[i].incl / 3;
    }
}

/* The worker's queue alone: five queues' worth of chunks handed over faster than it builds
 * blocks from them (the queue fills and the caller waits for room, spares come back to be
 * filled again, a pause wakes it), then waited for: the same blocks, byte for byte, as the
 * caller's own thread builds from the same chunks. TSan runs it (build-aux/dev.sh). */
static void
test_summary_worker_queue (void)
{
  g_autoptr(GPtrArray) direct_kept = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) queued_kept = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  StrobeTimerSummaryWorker *w = strobe_timer_summary_worker_new (keep_block, queued_kept);
  StrobeTimerSummaryScope *scopes = g_new (StrobeTimerSummaryScope, STROBE_SCOPE_CHUNK);
  const guint n_chunks = 5 * STROBE_TIMER_SUMMARY_QUEUE + 37;
  StrobeTimerSummary *direct, *queued;
  guint32 rng = 77;

  /* Blocks of four chunks: many of them, and a tail of one. */
  strobe_timer_summary_set_test_shift (2);
  direct = strobe_timer_summary_new ();
  queued = strobe_timer_summary_new ();
  strobe_timer_summary_set_test_shift (STROBE_TIMER_SUMMARY_CHUNKS_SHIFT);
  queued->worker = w;
  for (guint ci = 0; ci < n_chunks; ci++)
    {
      fill_chunk (scopes, &rng);
      strobe_timer_summary_worker_add_chunk (w, queued, ci, &scopes);
    }
  strobe_timer_summary_worker_pause (w, queued, n_chunks);
  rng = 77;
  for (guint ci = 0; ci < n_chunks; ci++)
    {
      fill_chunk (scopes, &rng);
      strobe_timer_summary_add_chunk (direct, ci, scopes, keep_block, direct_kept);
    }
  strobe_timer_summary_pause (direct, n_chunks, keep_block, direct_kept);
  strobe_timer_summary_worker_wait (w);

  g_assert_cmpuint (strobe_timer_summary_n_blocks (direct), ==, n_chunks / 4);
  g_assert_cmpuint (strobe_timer_summary_n_blocks (queued), ==, n_chunks / 4);
  g_assert_cmpuint (strobe_timer_summary_tail_chunks (queued), ==, n_chunks % 4);
  g_assert_cmpuint (queued_kept->len, ==, direct_kept->len);
  for (guint i = 0; i < direct_kept->len; i++)
    g_assert_true (g_bytes_equal (direct_kept->pdata[i], queued_kept->pdata[i]));
  strobe_timer_summary_worker_free (w);
  strobe_timer_summary_free (direct);
  strobe_timer_summary_free (queued);
  g_free (scopes);
}

/* The summary blocks built on their own thread (as every model does) against blocks built
 * on the model's thread, the trace fed a piece at a time: at each step, before the worker
 * caught up, every range's timers are right (blocks published so far merged, the rest
 * walked); once it has, the blocks are the same and the timers identical. And again after
 * the trace's end, which waits for the blocks. */
static void
test_summary_apart (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) d1 = strobe_decoder_new ();
  g_autoptr(StrobeDecoder) d2 = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) here = NULL, apart = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len, step, off = 0;
  guint32 rng = 4242;
  guint lagging = 0, steps = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  strobe_timer_summary_set_test_shift (1);
  strobe_timer_summary_set_test_apart (0);
  here = strobe_timeline_model_new ();
  strobe_timer_summary_set_test_apart (1);
  apart = strobe_timeline_model_new ();
  strobe_timer_summary_set_test_apart (-1);
  strobe_decoder_add_analyzer (d1, STROBE_ANALYZER (here));
  strobe_decoder_add_analyzer (d2, STROBE_ANALYZER (apart));
  step = len / 10 + 1;
  while (off < len)
    {
      gsize n = MIN (step, len - off);
      guint64 first, last;

      g_assert_true (strobe_decoder_feed (d1, (const guint8 *) data + off, n, &error));
      g_assert_true (strobe_decoder_feed (d2, (const guint8 *) data + off, n, &error));
      g_assert_no_error (error);
      off += n;
      if (!strobe_timeline_model_get_time_range (here, &first, &last))
        continue;
      /* Before the worker caught up (it may already have). */
      lagging += summary_blocks (apart) < summary_blocks (here);
      check_ranges (apart, &rng, 6);
      sync_summaries (apart);
      assert_same_blocks (here, apart);
      for (guint i = 0; i < 6; i++)
        {
          g_autoptr(GArray) a = NULL, b = NULL;
          guint64 t0, t1;
          gint thread = i % 2 ? STROBE_TIMER_STATS_ALL_THREADS : 0;

          rng = rng * 1664525u + 1013904223u;
          t0 = first + (last - first) / 1000 * ((rng >> 8) % 1000);
          rng = rng * 1664525u + 1013904223u;
          t1 = i == 0 ? last : t0 + (last - first) / 1000 * ((rng >> 8) % 1001);
          if (i == 0)
            t0 = first;
          if (thread == 0)
            {
              g_autoptr(GArray) threads = strobe_timeline_model_get_threads (here);
              thread = g_array_index (threads, guint16, rng % threads->len);
            }
          a = strobe_timer_stats_compute (here, t0, t1, thread);
          b = strobe_timer_stats_compute (apart, t0, t1, thread);
          assert_same (a, b);
        }
      steps++;
    }
  g_assert_cmpuint (steps, >=, 5);
  g_test_message ("%u of %u steps had blocks still being built", lagging, steps);
  g_assert_true (strobe_decoder_finish (d1, &error));
  g_assert_true (strobe_decoder_finish (d2, &error));
  g_assert_no_error (error);
  /* The end waited for them: no sync. */
  g_assert_cmpuint (summary_blocks (here), >, 100);
  assert_same_blocks (here, apart);
  {
    g_autoptr(GArray) a = strobe_timer_stats_compute (here, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
    g_autoptr(GArray) b = strobe_timer_stats_compute (apart, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
    StrobeTimelineStats sa, sb;

    assert_same (a, b);
    check_ranges (apart, &rng, 10);
    /* What the blocks keep is counted alike. */
    strobe_timeline_model_get_stats (here, &sa);
    strobe_timeline_model_get_stats (apart, &sb);
    g_assert_cmpuint (sb.scope_bytes, >=, sa.scope_bytes - sa.scope_bytes / 20);
    g_assert_cmpuint (sb.scope_bytes, <=, sa.scope_bytes + sa.scope_bytes / 20 + 8192);
  }
  strobe_timer_summary_set_test_shift (STROBE_TIMER_SUMMARY_CHUNKS_SHIFT);
}

/* The timeline model on a thread of its own (StrobeAsyncAnalyzer, as a document runs
 * it on two cores) holds after each chunk fed what the model fed directly holds, and in
 * the end the same timers; an info analyzer beside each sees the same extent. */
static void
test_async_model (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) d1 = strobe_decoder_new ();
  g_autoptr(StrobeDecoder) d2 = strobe_decoder_new ();
  g_autoptr(StrobeInfoAnalyzer) i1 = strobe_info_analyzer_new ();
  g_autoptr(StrobeInfoAnalyzer) i2 = strobe_info_analyzer_new ();
  g_autoptr(StrobeTimelineModel) direct = strobe_timeline_model_new ();
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(StrobeAsyncAnalyzer) wrapped = strobe_async_analyzer_new (STROBE_ANALYZER (model));
  g_autoptr(GArray) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len = 0, chunks = 0;
  guint64 e1[2], e2[2];

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  strobe_decoder_add_analyzer (d1, STROBE_ANALYZER (i1));
  strobe_decoder_add_analyzer (d1, STROBE_ANALYZER (direct));
  strobe_decoder_add_analyzer (d2, STROBE_ANALYZER (i2));
  strobe_decoder_add_analyzer (d2, STROBE_ANALYZER (wrapped));
  for (gsize at = 0; at < len; at += 32768, chunks++)
    {
      gsize n = MIN (32768, len - at);
      StrobeTimelineStats s1, s2;

      g_assert_true (strobe_decoder_feed (d1, (const guint8 *) data + at, n, &error));
      g_assert_true (strobe_decoder_feed (d2, (const guint8 *) data + at, n, &error));
      strobe_timeline_model_get_stats (direct, &s1);
      strobe_timeline_model_get_stats (model, &s2);
      g_assert_cmpuint (s1.scopes, ==, s2.scopes);
      g_assert_cmpuint (strobe_timeline_model_get_generation (direct), ==, strobe_timeline_model_get_generation (model));
    }
  g_assert_cmpuint (chunks, >, 8);
  g_assert_true (strobe_decoder_finish (d1, &error));
  g_assert_true (strobe_decoder_finish (d2, &error));
  g_assert_no_error (error);
  a = strobe_timer_stats_compute (direct, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  b = strobe_timer_stats_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  g_assert_cmpuint (a->len, >, 0);
  assert_same (a, b);
  g_assert_true (strobe_info_analyzer_get_time_range (i1, &e1[0], &e1[1]));
  g_assert_true (strobe_info_analyzer_get_time_range (i2, &e2[0], &e2[1]));
  g_assert_cmpuint (e1[0], ==, e2[0]);
  g_assert_cmpuint (e1[1], ==, e2[1]);
}

/* A trace bigger than the model's memory budget: the scopes past it are counted, not
 * kept, and the storage stays within a chunk of the budget. */
static void
test_memory_budget (void)
{
  const char *path = get_trace ();
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeDecoder) decoder2 = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) all = strobe_timeline_model_new ();
  g_autoptr(StrobeTimelineModel) model = strobe_timeline_model_new ();
  g_autoptr(GError) error = NULL;
  StrobeTimelineStats full, ms;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (all));
  g_assert_true (strobe_decoder_read_file (decoder, path, NULL, &error));
  strobe_timeline_model_get_stats (all, &full);
  g_assert_cmpuint (full.memory_overflows, ==, 0);
  g_assert_cmpuint (full.memory_budget, >, 0);

  strobe_timeline_model_set_memory_budget (model, 256 * 1024);
  strobe_decoder_add_analyzer (decoder2, STROBE_ANALYZER (model));
  g_assert_true (strobe_decoder_read_file (decoder2, path, NULL, &error));
  g_assert_no_error (error);
  strobe_timeline_model_get_stats (model, &ms);
  g_assert_cmpuint (ms.memory_budget, ==, 256 * 1024);
  g_assert_cmpuint (ms.memory_overflows, >, 0);
  g_assert_cmpuint (ms.scopes, >, 0);
  g_assert_cmpuint (ms.scopes + ms.memory_overflows, ==, full.scopes);
  /* One chunk (4 096 scopes of 12 bytes) a track may be past it. */
  g_assert_cmpuint (ms.scope_bytes, <=, 256 * 1024 + 64 * 1024);
}

typedef struct
{
  GArray *sorted;
  guint64 total, bad;
} Runs;

static gsize
lower_bound (GArray *v, guint64 x)
{
  gsize lo = 0, hi = v->len;

  while (lo < hi)
    {
      gsize mid = (lo + hi) / 2;
      if (g_array_index (v, guint64, mid) < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
check_run (guint64 low, guint64 width, guint64 count, gpointer data)
{
  Runs *r = data;

  /* Exact values come one at a time (width 1, count 1), so count those in the bucket only
   * for runs wider than one value or counting more than one. */
  if (width > 1 || count > 1)
    r->bad += lower_bound (r->sorted, low + width) - lower_bound (r->sorted, low) != count;
  r->total += count;
}

/* The sketch alone: exact up to its limit, within 1/256 past it, merging keeps both. */
static void
test_sketch (void)
{
  StrobeDurationSketch a = { 0 }, b = { 0 };
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 x = 88172645463325252ull;

  for (guint i = 0; i < 100001; i++)
    {
      guint64 v;
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v = (x % 1000000) * (1 + i % 7);   /* spread over several powers of two */
      strobe_duration_sketch_add (i % 3 ? &a : &b, v);
      g_array_append_val (all, v);
      if (i == 10)
        {
          StrobeDurationSketch c = { 0 };
          for (guint k = 0; k <= i; k++)
            strobe_duration_sketch_add (&c, g_array_index (all, guint64, k));
          g_assert_true (strobe_duration_sketch_is_exact (&c));
          g_array_sort (all, cmp_u64);
          g_assert_cmpfloat (strobe_duration_sketch_median (&c), ==, (gdouble) g_array_index (all, guint64, 5));
          strobe_duration_sketch_clear (&c);
        }
    }
  strobe_duration_sketch_merge (&a, &b);
  g_assert_cmpuint (a.n, ==, all->len);
  g_assert_cmpuint (b.n, ==, 0);
  g_assert_false (strobe_duration_sketch_is_exact (&a));
  g_array_sort (all, cmp_u64);
  {
    gdouble truth = (gdouble) g_array_index (all, guint64, all->len / 2);
    g_assert_cmpfloat (fabs (strobe_duration_sketch_median (&a) - truth), <=, truth / 256);
  }
  /* Its runs hold every value: each run counts exactly the values inside it (a binary
   * search in the sorted truth), none overlap, and together they are all of them. */
  {
    Runs runs = { all, 0, 0 };
    strobe_duration_sketch_foreach (&a, check_run, &runs);
    g_assert_cmpuint (runs.total, ==, all->len);
    g_assert_cmpuint (runs.bad, ==, 0);
  }
  strobe_duration_sketch_clear (&a);
}

static void
assert_same_links (GArray *a, GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const StrobeCallLink *x = &g_array_index (a, StrobeCallLink, i), *y = &g_array_index (b, StrobeCallLink, i);
      g_assert_cmpuint (x->name_id, ==, y->name_id);
      g_assert_cmpuint (x->count, ==, y->count);
      g_assert_cmpuint (x->inclusive, ==, y->inclusive);
    }
}

/* A timer's callers and callees found without the tree (the summary blocks with none of a
 * rare name jumped over) are the tree's, for every name, over the whole trace and random
 * ranges, all threads and one; and the callers add up to the timer's count. */
static void
test_call_links (void)
{
  /* Blocks of one chunk: the walk jumps those that hold none of a rare name. */
  g_autoptr(StrobeTimelineModel) model = read_small_blocks ();
  g_autoptr(GArray) threads = NULL;
  guint64 first = 0, last = 0;
  guint32 rng = 7;
  guint checked = 0;

  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));
  threads = strobe_timeline_model_get_threads (model);
  for (guint r = 0; r < 6; r++)
    {
      guint64 t0 = first, t1 = G_MAXUINT64;
      gint thread = r == 4 ? g_array_index (threads, guint16, 1) : STROBE_TIMER_STATS_ALL_THREADS;
      g_autoptr(StrobeCostTree) tree = NULL;
      g_autoptr(GArray) stats = NULL;

      if (r == 5)
        {
          /* From where a scope ends to where another begins: scopes that only touch the
           * range are not in it, for the statistics and for the walk alike. */
          g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));

          strobe_timeline_model_get_scopes (model, g_array_index (threads, guint16, 0), 1, first, last, s);
          g_assert_cmpuint (s->len, >, 100);
          t0 = g_array_index (s, StrobeTimelineScope, s->len / 3).end;
          t1 = g_array_index (s, StrobeTimelineScope, 2 * s->len / 3).begin;
        }
      else if (r > 0)
        {
          rng = rng * 1664525u + 1013904223u;
          t0 = first + (rng >> 8) % (last - first);
          rng = rng * 1664525u + 1013904223u;
          t1 = t0 + (rng >> 8) % (last - t0 + 1);
        }
      g_autoptr(StrobeCallPairs) pairs = NULL;

      tree = strobe_call_tree_compute (model, t0, t1, thread, NULL, NULL);
      stats = strobe_timer_stats_compute (model, t0, t1, thread);
      /* Every name's links at once: the same as each name's walk. */
      pairs = strobe_call_tree_pairs (model, t0, t1, thread, NULL, NULL, NULL);
      g_assert_nonnull (pairs);
      for (guint i = 0; i < stats->len; i++)
        {
          const StrobeTimerStat *st = &g_array_index (stats, StrobeTimerStat, i);
          g_autoptr(GArray) callers = NULL;
          g_autoptr(GArray) callees = NULL;
          g_autoptr(GArray) pair_callers = NULL;
          g_autoptr(GArray) pair_callees = NULL;
          g_autoptr(GArray) tree_callers = strobe_call_tree_callers (tree, st->name_id);
          g_autoptr(GArray) tree_callees = strobe_call_tree_callees (tree, st->name_id);
          guint64 sum = 0;

          g_assert_true (strobe_call_tree_links (model, st->name_id, t0, t1, thread, &callers, &callees, NULL, NULL, NULL));
          assert_same_links (callers, tree_callers);
          assert_same_links (callees, tree_callees);
          strobe_call_pairs_get_links (pairs, st->name_id, &pair_callers, &pair_callees);
          assert_same_links (pair_callers, callers);
          assert_same_links (pair_callees, callees);
          for (guint k = 0; k < callers->len; k++)
            sum += g_array_index (callers, StrobeCallLink, k).count;
          g_assert_cmpuint (sum, ==, st->count);
          checked += callees->len > 0;
        }
    }
  /* Names with callees in every range. */
  g_assert_cmpuint (checked, >, 20);
  /* A name in no scope of the range has no links there. */
  {
    g_autoptr(StrobeCallPairs) pairs = strobe_call_tree_pairs (model, last + 1, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS,
                                                               NULL, NULL, NULL);
    g_autoptr(GArray) callers = NULL;
    g_autoptr(GArray) callees = NULL;

    g_assert_cmpuint (strobe_call_pairs_get_n_pairs (pairs), ==, 0);
    strobe_call_pairs_get_links (pairs, 0, &callers, &callees);
    g_assert_cmpuint (callers->len + callees->len, ==, 0);
  }
  /* More pairs than it may keep: an error, not a table without some. */
  {
    g_autoptr(GError) error = NULL;

    strobe_call_tree_set_test_pair_limit (3);
    g_assert_null (strobe_call_tree_pairs (model, first, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    strobe_call_tree_set_test_pair_limit (0);
  }
  g_assert_cmpuint (strobe_call_tree_get_test_jumps (), >, 100);
}

/* @node of @limited found in @full by its path of names (STROBE_COST_NODE_NONE if not). */
static guint32
path_in (StrobeCostTree *limited, guint32 node, StrobeCostTree *full)
{
  guint32 path[256], n = 0, at = 0;

  for (guint32 k = node; k != 0 && n < G_N_ELEMENTS (path); k = strobe_cost_tree_get_parent (limited, k))
    path[n++] = k;
  while (n > 0 && at != STROBE_COST_NODE_NONE)
    at = strobe_cost_tree_lookup_child (full, at, strobe_cost_tree_get_key (limited, path[--n]));
  return at;
}

/* A tree bounded below its paths, on threads that share names: each thread's tree lumps
 * different paths, and a path kept on one thread but lumped on another goes whole into
 * "other" when they are merged — every path kept has the costs of the unbounded tree. */
static void
test_call_tree_limit_threads (void)
{
  g_autoptr(StrobeTimelineModel) model = read_model ();
  g_autoptr(StrobeCostTree) full = NULL;
  const guint32 limits[] = { 40, 400, 4000 };

  full = strobe_call_tree_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
  for (guint l = 0; l < G_N_ELEMENTS (limits); l++)
    {
      g_autoptr(StrobeCostTree) tree = NULL;
      guint kept = 0, others = 0;

      strobe_call_tree_set_test_node_limit (limits[l]);
      tree = strobe_call_tree_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
      strobe_call_tree_set_test_node_limit (STROBE_CALL_TREE_MAX_NODES);
      g_assert_cmpuint (strobe_cost_tree_get_n_nodes (tree), <, strobe_cost_tree_get_n_nodes (full));
      g_assert_cmpuint (strobe_cost_tree_get_inclusive (tree, 0, STROBE_CALL_TIME), ==,
                        strobe_cost_tree_get_inclusive (full, 0, STROBE_CALL_TIME));
      for (guint32 k = 1; k < strobe_cost_tree_get_n_nodes (tree); k++)
        {
          guint32 in_full;

          if (strobe_cost_tree_get_key (tree, k) == STROBE_CALL_OTHER)
            {
              others++;
              continue;
            }
          in_full = path_in (tree, k, full);
          g_assert_cmpuint (in_full, !=, STROBE_COST_NODE_NONE);
          g_assert_cmpuint (strobe_cost_tree_get_inclusive (tree, k, STROBE_CALL_COUNT), ==,
                            strobe_cost_tree_get_inclusive (full, in_full, STROBE_CALL_COUNT));
          g_assert_cmpuint (strobe_cost_tree_get_inclusive (tree, k, STROBE_CALL_TIME), ==,
                            strobe_cost_tree_get_inclusive (full, in_full, STROBE_CALL_TIME));
          kept++;
        }
      g_test_message ("limit %u: %u paths kept, %u lumped", limits[l], kept, others);
      g_assert_cmpuint (others, >, 0);
      g_assert_cmpuint (kept, >, 0);
    }
}

static gint
cmp_u64_desc (gconstpointer a, gconstpointer b)
{
  return -cmp_u64 (a, b);
}

/* A timer's durations (the compare page's histogram) read a chunk at a time are the
 * brute force's clipped ones, for every name, over the whole trace and random ranges. */
static void
test_durations (void)
{
  g_autoptr(StrobeTimelineModel) model = read_model ();
  guint64 first = 0, last = 0;
  guint32 rng = 99;

  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));
  for (guint r = 0; r < 4; r++)
    {
      guint64 t0 = 0, t1 = G_MAXUINT64;
      g_autoptr(GArray) all = NULL;

      if (r > 0)
        {
          rng = rng * 1664525u + 1013904223u;
          t0 = first + (rng >> 8) % (last - first);
          rng = rng * 1664525u + 1013904223u;
          t1 = t0 + (rng >> 8) % (last - t0 + 1);
        }
      all = completed_scopes (model, t0, t1);
      for (guint32 name = 0; name < strobe_timeline_model_get_n_names (model); name++)
        {
          g_autoptr(GArray) got = strobe_timer_stats_durations (model, name, t0, t1, NULL, NULL);
          g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint64));

          for (guint i = 0; i < all->len; i++)
            {
              const StrobeScopeMatch *x = &g_array_index (all, StrobeScopeMatch, i);
              guint64 incl = clip (x->begin, x->end, t0, t1);

              if (x->name_id == name && (incl > 0 || x->end == x->begin))
                g_array_append_val (want, incl);
            }
          g_array_sort (got, cmp_u64_desc);
          g_array_sort (want, cmp_u64_desc);
          g_assert_cmpuint (got->len, ==, want->len);
          g_assert_cmpmem (got->data, got->len * sizeof (guint64), want->data, want->len * sizeof (guint64));
        }
    }
}

/* The call tree's progress: a step for every STROBE_TIMER_STATS_PROGRESS_SCOPES scopes
 * walked, so the whole trace makes about as many steps as the estimate says; a range
 * fewer; the tree the same as without progress. */
static void
test_call_tree_progress (void)
{
  g_autoptr(StrobeTimelineModel) model = read_model ();
  g_autoptr(StrobeCostTree) plain = NULL, counted = NULL, part = NULL, none = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  StrobeTimelineStats ms;
  guint64 first = 0, last = 0;
  gint whole = 0, half = 0, stopped = 0;

  strobe_timeline_model_get_stats (model, &ms);
  g_assert_true (strobe_timeline_model_get_time_range (model, &first, &last));

  plain = strobe_call_tree_compute (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, NULL, NULL);
  counted = strobe_call_tree_compute_full (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, &whole, NULL, NULL);
  g_assert_cmpuint (ms.scopes / STROBE_TIMER_STATS_PROGRESS_SCOPES, >, 8);
  /* Each of the (up to two) workers keeps what it walked past its last step. */
  g_assert_cmpint (whole, <=, ms.scopes / STROBE_TIMER_STATS_PROGRESS_SCOPES);
  g_assert_cmpint (whole, >=, ms.scopes / STROBE_TIMER_STATS_PROGRESS_SCOPES - 1);
  g_assert_cmpuint (strobe_timer_stats_estimate_steps (model, 0, G_MAXUINT64), ==, ms.scopes / STROBE_TIMER_STATS_PROGRESS_SCOPES);
  g_assert_cmpuint (strobe_cost_tree_get_n_nodes (counted), ==, strobe_cost_tree_get_n_nodes (plain));
  g_assert_cmpuint (strobe_cost_tree_get_inclusive (counted, 0, STROBE_CALL_TIME), ==,
                    strobe_cost_tree_get_inclusive (plain, 0, STROBE_CALL_TIME));

  /* The first half of the time: fewer steps (how many depends on when each emitting
   * thread ran). */
  part = strobe_call_tree_compute_full (model, first, first + (last - first) / 2, STROBE_TIMER_STATS_ALL_THREADS,
                                        &half, NULL, NULL);
  g_assert_nonnull (part);
  g_assert_cmpint (half, >, 0);
  g_assert_cmpint (half, <, whole);

  g_cancellable_cancel (cancelled);
  none = strobe_call_tree_compute_full (model, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS, &stopped, cancelled, &error);
  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* At most a step on each worker before it looks. */
  g_assert_cmpint (stopped, <=, 2);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timer-stream/sketch", test_sketch);
  g_test_add_func ("/timer-stream/at-scale", test_timers_at_scale);
  g_test_add_func ("/timer-stream/summary-ranges", test_summary_ranges);
  g_test_add_func ("/timer-stream/summary-live", test_summary_live);
  g_test_add_func ("/timer-stream/summary-search", test_summary_search);
  g_test_add_func ("/timer-stream/search-workers", test_search_workers);
  g_test_add_func ("/timer-stream/search-growing", test_search_growing);
  g_test_add_func ("/timer-stream/longest-workers", test_longest_workers);
  g_test_add_func ("/timer-stream/memory-budget", test_memory_budget);
  g_test_add_func ("/timer-stream/async-model", test_async_model);
  g_test_add_func ("/timer-stream/summary-apart", test_summary_apart);
  g_test_add_func ("/timer-stream/summary-apart/worker-queue", test_summary_worker_queue);
  g_test_add_func ("/timer-stream/call-tree-progress", test_call_tree_progress);
  g_test_add_func ("/timer-stream/call-links", test_call_links);
  g_test_add_func ("/timer-stream/durations", test_durations);
  g_test_add_func ("/timer-stream/call-tree-limit-threads", test_call_tree_limit_threads);
  status = g_test_run ();
  if (trace_path)
    {
      g_autofree char *dir = g_path_get_dirname (trace_path);
      g_unlink (trace_path);
      g_rmdir (dir);
    }
  return status;
}
