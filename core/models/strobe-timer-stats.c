/* strobe-timer-stats.c — timer statistics: one pass over each depth of each thread, with
 * the next depth walked alongside to subtract direct children (both are sorted, so the
 * child cursor only moves forward). Medians from a sketch of the inclusive times
 * (strobe-duration-sketch.h: exact up to a thousand scopes a name, then within 1/256), so
 * the timers of the whole trace keep no value per scope.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timer-stats.h"
#include "strobe-durations.h"
#include "strobe-give-way.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats-private.h"
#include "strobe-track-units.h"

typedef StrobeTimerAcc Acc;

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

/* A summary block merged for a name that had few scopes then: its exact values may be
 * wanted (strobe_timer_stats_compute_sketched). */
typedef struct
{
  guint16 thread_id;
  guint16 depth;              /* < STROBE_TIMELINE_MAX_DEPTH */
  guint32 block;
  guint32 name;
} Revisit;

typedef struct
{
  guint64               t0, t1;
  Acc                  *acc;
  StrobeDurationSketch *hist;       /* by name: the merged blocks' buckets */
  GArray               *few;        /* guint32 names, scratch for merge_block */
  GArray               *revisits;   /* Revisit */
  guint                 n_names;
  guint                 tick;
  guint16               thread_id;
  guint                 depth;
  gint                 *progress;
  GCancellable         *cancellable;
} Pass;

/* Counts @n scopes towards the progress; FALSE when cancelled. */
static inline gboolean
pass_tick (Pass *ps, guint n)
{
  ps->tick += n;
  if (G_LIKELY (ps->tick < STROBE_TIMER_STATS_PROGRESS_SCOPES))
    return TRUE;
  while (ps->tick >= STROBE_TIMER_STATS_PROGRESS_SCOPES)
    {
      ps->tick -= STROBE_TIMER_STATS_PROGRESS_SCOPES;
      if (ps->progress)
        g_atomic_int_inc (ps->progress);
    }
  strobe_give_way ();
  return !g_cancellable_is_cancelled (ps->cancellable);
}

/* The scopes of @t from @p, before index @stop and beginning by t1, one by one, with
 * their children on @ct from @c. FALSE when cancelled. */
static gboolean
walk (const StrobeScopeTrack *t, StrobeScopePos p, guint64 stop, const StrobeScopeTrack *ct, StrobeScopePos c,
      Pass *ps)
{
  guint64 t0 = ps->t0, t1 = ps->t1;

  for (; strobe_scope_pos_valid (t, p) && strobe_scope_pos_index (t, p) < stop; strobe_scope_pos_next (t, &p))
    {
      guint64 b = strobe_scope_begin_at (t, p), e, incl, children = 0;
      guint32 name = strobe_scope_name_at (t, p);
      if (b > t1)
        break;
      if (G_UNLIKELY (!pass_tick (ps, 1)))
        return FALSE;
      e = strobe_scope_end_at (t, p);
      incl = clip (b, e, t0, t1);
      if (ct)
        {
          /* Children begin and end inside [b, e]; anything before b belongs to an
           * earlier parent outside the range (or to none). */
          while (strobe_scope_pos_valid (ct, c) && strobe_scope_begin_at (ct, c) < b)
            strobe_scope_pos_next (ct, &c);
          while (strobe_scope_pos_valid (ct, c) && strobe_scope_end_at (ct, c) <= e)
            {
              guint64 cb = strobe_scope_begin_at (ct, c);
              if (cb > e || cb > t1)
                break;
              children += clip (cb, strobe_scope_end_at (ct, c), t0, t1);
              strobe_scope_pos_next (ct, &c);
            }
        }
      /* A scope that only touches the range (ends where it begins, begins where it
       * ends) is not in it: frames N–M must not count frame N−1's last scope. */
      if (name >= ps->n_names || (incl == 0 && e > b))
        continue;
      strobe_timer_acc_add (&ps->acc[name], incl, children);
    }
  return TRUE;
}

/* The last end of summary block @k's scopes. */
static inline guint64
block_last_end (const StrobeScopeTrack *t, guint k)
{
  return strobe_scope_chunk (t, strobe_timer_summary_block_chunk (t->summary, k + 1) - 1)->last_end;
}

/* One track: the summary's blocks (and its tail, when the track finished) wholly inside
 * the range merged, the scopes before and after them walked. FALSE when cancelled. */
static gboolean
track_stats (const StrobeScopeTrack *t, const StrobeScopeTrack *ct, Pass *ps)
{
  StrobeScopePos p = strobe_scope_track_lower_bound_end (t, ps->t0), c = { 0, 0 };
  guint nb = strobe_timer_summary_n_blocks (t->summary), lo, hi, k_lo, k_hi, tail;
  guint64 i0, per_block, after;

  if (!strobe_scope_pos_valid (t, p))
    return TRUE;
  if (ct)
    c = strobe_scope_track_lower_bound_end (ct, ps->t0);
  tail = strobe_timer_summary_tail_chunks (t->summary);
  if (nb == 0 && tail == 0)
    return walk (t, p, G_MAXUINT64, ct, c, ps);
  i0 = strobe_scope_pos_index (t, p);
  per_block = (guint64) STROBE_SCOPE_CHUNK << t->summary->shift;
  k_lo = (guint) MIN ((i0 + per_block - 1) / per_block, nb);
  /* Its first scope may straddle t0. */
  if (k_lo < nb && strobe_scope_chunk (t, strobe_timer_summary_block_chunk (t->summary, k_lo))->base < ps->t0)
    k_lo++;
  /* Blocks from k_lo on begin inside the range: the first that ends past it, by search. */
  lo = MIN (k_lo, nb), hi = nb;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (block_last_end (t, mid) > ps->t1)
        hi = mid;
      else
        lo = mid + 1;
    }
  k_hi = lo;
  /* The tail, after the last block: inside when every block from k_lo on is, it begins at
   * or after i0 and t0, and ends by t1. */
  if (tail > 0)
    {
      guint first = strobe_timer_summary_block_chunk (t->summary, nb);

      if (k_hi < nb || k_lo > nb || (guint64) nb * per_block < i0 || strobe_scope_chunk (t, first)->base < ps->t0
          || strobe_scope_chunk (t, first + tail - 1)->last_end > ps->t1)
        tail = 0;
    }
  if (k_lo >= k_hi && tail == 0)
    return walk (t, p, G_MAXUINT64, ct, c, ps);
  if (!walk (t, p, (guint64) k_lo * per_block, ct, c, ps))
    return FALSE;
  for (guint k = k_lo; k < k_hi + (tail > 0); k++)
    {
      guint64 n = strobe_timer_summary_merge_block (t->summary, k, ps->acc, ps->hist, ps->n_names, ps->few);

      for (guint i = 0; i < ps->few->len; i++)
        {
          Revisit r = { ps->thread_id, (guint16) ps->depth, k, g_array_index (ps->few, guint32, i) };
          g_array_append_val (ps->revisits, r);
        }
      g_array_set_size (ps->few, 0);
      if (!pass_tick (ps, (guint) n))
        return FALSE;
    }
  after = (guint64) k_hi * per_block + (guint64) tail * STROBE_SCOPE_CHUNK;
  p = strobe_scope_track_seek (t, after);
  if (!strobe_scope_pos_valid (t, p))
    return TRUE;
  if (ct)
    c = strobe_scope_track_lower_bound_begin (ct, strobe_scope_begin_at (t, p));
  return walk (t, p, G_MAXUINT64, ct, c, ps);
}

/* FALSE when cancelled (checked every few thousand scopes). */
static gboolean
thread_stats (StrobeScopeThread *th, Pass *ps)
{
  ps->thread_id = th->thread_id;
  for (guint d = 0; d < th->tracks->len; d++)
    {
      StrobeScopeTrack *t = th->tracks->pdata[d];
      StrobeScopeTrack *ct = d + 1 < th->tracks->len ? th->tracks->pdata[d + 1] : NULL;

      ps->depth = d;
      if (!track_stats (t, ct, ps))
        return FALSE;
    }
  return TRUE;
}

static gint
revisit_cmp (gconstpointer x, gconstpointer y)
{
  const Revisit *a = x, *b = y;

  if (a->thread_id != b->thread_id)
    return a->thread_id < b->thread_id ? -1 : 1;
  if (a->depth != b->depth)
    return a->depth < b->depth ? -1 : 1;
  return a->block < b->block ? -1 : a->block > b->block;
}

/* The medians stay exact up to STROBE_DURATION_SKETCH_EXACT scopes a name, as when every
 * scope is walked: a name that ends with that few has the blocks merged for it walked
 * again for its exact values (each such block once, whatever names it is walked for);
 * every other name takes its blocks' buckets. Typically no block is walked again: a range
 * with blocks in it has far more scopes than that of most names. */
static void
exact_few (StrobeTimelineModel *model, Acc *acc, StrobeDurationSketch *hist, guint n_names, GArray *revisits,
           GCancellable *cancellable)
{
  g_autofree guint8 *need = g_new0 (guint8, MAX (n_names, 1));
  guint kept = 0;
  guint16 locked_thread = 0;
  StrobeScopeThread *th = NULL;
  gboolean locked = FALSE;

  for (guint n = 0; n < n_names; n++)
    {
      if (hist[n].n == 0)
        continue;
      if (acc[n].count <= STROBE_DURATION_SKETCH_EXACT)
        {
          need[n] = 1;
          strobe_duration_sketch_clear (&hist[n]);
        }
      else
        strobe_duration_sketch_merge (&acc[n].durations, &hist[n]);
    }
  for (guint i = 0; i < revisits->len; i++)
    {
      Revisit *r = &g_array_index (revisits, Revisit, i);
      if (need[r->name])
        g_array_index (revisits, Revisit, kept++) = *r;
    }
  g_array_set_size (revisits, kept);
  g_array_sort (revisits, revisit_cmp);
  for (guint i = 0; i < revisits->len; i++)
    {
      Revisit *r = &g_array_index (revisits, Revisit, i);
      StrobeScopeTrack *t;
      StrobeScopePos p;
      guint64 per_block, count;

      if (i > 0 && revisit_cmp (r, r - 1) == 0)
        continue;
      /* A trace of many rare names may have most blocks walked again. */
      if (g_cancellable_is_cancelled (cancellable))
        break;
      /* Locked per thread of the trace, as the pass was. */
      if (!locked || r->thread_id != locked_thread)
        {
          if (locked)
            strobe_timeline_model_read_unlock (model);
          strobe_timeline_model_read_lock (model);
          locked = TRUE;
          locked_thread = r->thread_id;
          th = strobe_timeline_model_peek_thread (model, r->thread_id);
        }
      if (th == NULL || r->depth >= th->tracks->len)
        continue;
      t = th->tracks->pdata[r->depth];
      per_block = (guint64) STROBE_SCOPE_CHUNK << t->summary->shift;
      p = strobe_scope_track_seek (t, r->block * per_block);
      /* Past the blocks: the tail (the summary has stopped, so they are all there). */
      count = r->block < strobe_timer_summary_n_blocks (t->summary)
                ? per_block : (guint64) strobe_timer_summary_tail_chunks (t->summary) * STROBE_SCOPE_CHUNK;
      /* A block is wholly inside the range: its scopes count unclipped. */
      for (guint64 k = 0; k < count; k++, strobe_scope_pos_next (t, &p))
        {
          guint32 name = strobe_scope_name_at (t, p);
          if (name < n_names && need[name])
            strobe_duration_sketch_add (&acc[name].durations, strobe_scope_end_at (t, p) - strobe_scope_begin_at (t, p));
        }
    }
  if (locked)
    strobe_timeline_model_read_unlock (model);
}

static const char *
model_name (gpointer model, guint32 name_id)
{
  return strobe_timeline_model_get_name (model, name_id);
}

/* ---- shared with the streaming timers (strobe-timer-stream.c) ------------------------ */

void
strobe_timer_accs_merge (StrobeTimerAcc *into, StrobeTimerAcc *from, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      StrobeTimerAcc *a = &into[i], *b = &from[i];

      if (b->count == 0)
        continue;
      if (a->count == 0)
        {
          *a = *b;
          *b = (StrobeTimerAcc) { 0 };
          continue;
        }
      a->count += b->count;
      a->inclusive += b->inclusive;
      a->exclusive += b->exclusive;
      a->min = MIN (a->min, b->min);
      a->max = MAX (a->max, b->max);
      strobe_duration_sketch_merge (&a->durations, &b->durations);
    }
}

static void
stat_clear (gpointer data)
{
  g_free (((StrobeTimerStat *) data)->name);
}

static gint
stat_cmp (gconstpointer x, gconstpointer y)
{
  const StrobeTimerStat *a = x, *b = y;

  if (a->inclusive != b->inclusive)
    return a->inclusive > b->inclusive ? -1 : 1;
  return strcmp (a->name, b->name);
}

GArray *
strobe_timer_accs_finish (StrobeTimerAcc *acc, guint n_names,
                          const char *(*name_of) (gpointer data, guint32 name_id), gpointer data)
{
  return strobe_timer_accs_finish_keep (acc, n_names, name_of, data, NULL);
}

GArray *
strobe_timer_accs_finish_keep (StrobeTimerAcc *acc, guint n_names,
                               const char *(*name_of) (gpointer data, guint32 name_id), gpointer data,
                               GPtrArray *sketches)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeTimerStat));

  g_array_set_clear_func (out, stat_clear);
  for (guint n = 0; n < n_names; n++)
    {
      StrobeTimerAcc *a = &acc[n];
      StrobeTimerStat s;

      if (a->count == 0)
        continue;
      s.name_id = n;
      s.name = g_strdup (name_of (data, n));
      s.count = a->count;
      s.inclusive = a->inclusive;
      s.exclusive = a->exclusive;
      s.min = a->min;
      s.max = a->max;
      s.mean = (gdouble) a->inclusive / (gdouble) a->count;
      s.median = strobe_duration_sketch_median (&a->durations);
      s.p95 = strobe_duration_sketch_quantile (&a->durations, 0.95);
      if (sketches)
        {
          if (sketches->len <= n)
            g_ptr_array_set_size (sketches, n + 1);
          g_ptr_array_index (sketches, n) = g_memdup2 (&a->durations, sizeof a->durations);
          a->durations = (StrobeDurationSketch) { 0 };
        }
      else
        strobe_duration_sketch_clear (&a->durations);
      g_array_append_val (out, s);
    }
  g_array_sort (out, stat_cmp);
  return out;
}

/* Threads are shared out among workers as they go (an atomic cursor), each into its own
 * accumulators, merged at the end: the call runs on the caller and one helper per extra
 * core (up to 4). */
typedef struct
{
  StrobeTimelineModel *model;
  GArray              *ids;
  gint                 thread_id;
  guint64              t0, t1;
  guint                n_names;
  GCancellable        *cancellable;
  gint                *progress;
  gint                 next;
  gint                 cancelled;
} Shared;

typedef struct
{
  Shared               *shared;
  Acc                  *acc;
  StrobeDurationSketch *hist;
  GArray               *revisits;
} Worker;

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  Shared *sh = w->shared;
  g_autoptr(GArray) few = g_array_new (FALSE, FALSE, sizeof (guint32));
  Pass ps = { sh->t0, sh->t1, w->acc, w->hist, few, w->revisits, sh->n_names, 0, 0, 0, sh->progress, sh->cancellable };

  for (;;)
    {
      gint i = g_atomic_int_add (&sh->next, 1);
      StrobeScopeThread *th;
      guint16 id;

      if (i >= (gint) sh->ids->len || g_atomic_int_get (&sh->cancelled))
        break;
      id = g_array_index (sh->ids, guint16, i);
      if (sh->thread_id >= 0 && id != sh->thread_id)
        continue;
      /* Locked per thread: the writer may move the tracks between two threads. */
      strobe_timeline_model_read_lock (sh->model);
      th = strobe_timeline_model_peek_thread (sh->model, id);
      if (th && !thread_stats (th, &ps))
        g_atomic_int_set (&sh->cancelled, 1);
      strobe_timeline_model_read_unlock (sh->model);
    }
  return NULL;
}

GArray *
strobe_timer_stats_compute_full (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                                 GCancellable *cancellable, GError **error)
{
  return strobe_timer_stats_compute_sketched (model, t0, t1, thread_id, NULL, NULL, cancellable, error);
}

guint64
strobe_timer_stats_estimate_steps (StrobeTimelineModel *model, guint64 t0, guint64 t1)
{
  StrobeTimelineStats stats;
  guint64 first = 0, last = 0;
  gdouble share = 1.0;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), 0);

  strobe_timeline_model_get_stats (model, &stats);
  if (strobe_timeline_model_get_time_range (model, &first, &last) && last > first && t1 >= t0)
    share = CLAMP ((gdouble) (MIN (t1, last) - MIN (MAX (t0, first), last)) / (gdouble) (last - first), 0.0, 1.0);
  return (guint64) ((gdouble) stats.scopes * share) / STROBE_TIMER_STATS_PROGRESS_SCOPES;
}

GArray *
strobe_timer_stats_compute_sketched (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                                     GPtrArray **sketches, gint *progress, GCancellable *cancellable,
                                     GError **error)
{
  GArray *out;
  g_autoptr(GArray) ids = NULL;
  Shared sh = { 0 };
  Worker workers[STROBE_TRACK_UNITS_MAX_WORKERS];
  guint n_workers;
  Acc *acc;
  gboolean cancelled;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  /* Names only grow: ones added while this runs are not counted (as if they came later). */
  ids = strobe_timeline_model_get_threads (model);
  sh.model = model;
  sh.ids = ids;
  sh.thread_id = thread_id;
  sh.t0 = t0;
  sh.t1 = t1;
  sh.n_names = strobe_timeline_model_get_n_names (model);
  sh.cancellable = cancellable;
  sh.progress = progress;
  n_workers = thread_id >= 0 ? 1 : CLAMP (MIN (g_get_num_processors (), ids->len), 1, G_N_ELEMENTS (workers));
  for (guint w = 0; w < n_workers; w++)
    {
      workers[w].shared = &sh;
      workers[w].acc = g_new0 (Acc, MAX (sh.n_names, 1));
      workers[w].hist = g_new0 (StrobeDurationSketch, MAX (sh.n_names, 1));
      workers[w].revisits = g_array_new (FALSE, FALSE, sizeof (Revisit));
    }
  strobe_track_units_run ("strobe-stats", worker_main, workers, sizeof workers[0], n_workers);
  for (guint w = 1; w < n_workers; w++)
    {
      strobe_timer_accs_merge (workers[0].acc, workers[w].acc, sh.n_names);
      for (guint n = 0; n < sh.n_names; n++)
        if (workers[w].hist[n].n)
          strobe_duration_sketch_merge (&workers[0].hist[n], &workers[w].hist[n]);
      g_array_append_vals (workers[0].revisits, workers[w].revisits->data, workers[w].revisits->len);
      g_array_unref (workers[w].revisits);
      g_free (workers[w].acc);
      g_free (workers[w].hist);
    }
  acc = workers[0].acc;
  if (!g_atomic_int_get (&sh.cancelled))
    exact_few (model, acc, workers[0].hist, sh.n_names, workers[0].revisits, cancellable);
  cancelled = g_atomic_int_get (&sh.cancelled) || g_cancellable_is_cancelled (cancellable);
  g_array_unref (workers[0].revisits);
  for (guint n = 0; n < sh.n_names; n++)
    strobe_duration_sketch_clear (&workers[0].hist[n]);
  g_free (workers[0].hist);

  if (cancelled)
    {
      for (guint n = 0; n < sh.n_names; n++)
        strobe_duration_sketch_clear (&acc[n].durations);
      g_free (acc);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  if (sketches)
    *sketches = g_ptr_array_new_full (sh.n_names, (GDestroyNotify) strobe_duration_sketch_free);
  out = strobe_timer_accs_finish_keep (acc, sh.n_names, model_name, model, sketches ? *sketches : NULL);
  g_free (acc);
  return out;
}
GArray *
strobe_timer_stats_durations (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1,
                              GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) ids = NULL;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);

  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; i < ids->len; i++)
    {
      StrobeScopeThread *th;

      /* The statistics' walk without the children: read in place, one lock per thread. */
      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, g_array_index (ids, guint16, i));
      for (guint d = 0; th && d < th->tracks->len; d++)
        {
          StrobeScopeTrack *t = th->tracks->pdata[d];
          StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);

          /* From the first scope on, record by record a chunk at a time: no position
           * kept, nor flags (a walk of every scope of a billion-scope trace). */
          for (guint ci = p.ci; strobe_scope_pos_valid (t, p) && ci < t->chunks->len; ci++)
            {
              const StrobeScopeChunk *c = strobe_scope_chunk (t, ci);
              const guint8 *rec = c->data + (ci == p.ci ? p.off : 0);
              guint64 b = p.begin, e = ci == p.ci ? p.end : c->base, incl;
              guint32 name = p.name;
              guint n = strobe_scope_chunk_count (t, ci), k = ci == p.ci ? p.pi : 0;
              gboolean have = ci == p.ci;

              for (; k < n; k++, have = FALSE)
                {
                  if (!have)
                    name = strobe_scope_record_next (&rec, &b, &e);
                  if (b > t1)
                    break;
                  if (name != name_id)
                    continue;
                  incl = clip (b, e, t0, t1);
                  if (incl == 0 && e > b)
                    continue;
                  g_array_append_val (out, incl);
                }
              if (k < n || g_cancellable_is_cancelled (cancellable))
                break;
            }
        }
      strobe_timeline_model_read_unlock (model);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  return g_steal_pointer (&out);
}

GArray *
strobe_timer_stats_compute (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id)
{
  return strobe_timer_stats_compute_full (model, t0, t1, thread_id, NULL, NULL);
}
