/* strobe-scope-search.c — the names that match are found once; then one pass over every
 * track compares a name id per scope against that set. A track's summary blocks (its
 * timers', strobe-timer-summary.h) say which names each 16 384 scopes hold and their
 * longest: a block with nothing wanted in it is jumped over, its count taken as it is —
 * on a big trace, most of them. The others are read a chunk at a time, record by record
 * (no position kept), and the threads are shared out among a worker per core.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "strobe-scope-search.h"
#include "strobe-give-way.h"
#include "strobe-timeline-model-private.h"
#include "strobe-track-units.h"
#include "strobe-timer-stats.h"

static gint
match_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeScopeMatch *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->thread_id != y->thread_id)
    return x->thread_id < y->thread_id ? -1 : 1;
  return (x->depth > y->depth) - (x->depth < y->depth);
}

/* The chunks of @t's summary block @k (its tail's, for @k the number of blocks): from @c0
 * up to @c1. FALSE when there is no such block, or not all of its chunks yet. */
static gboolean
block_chunks (const StrobeScopeTrack *t, guint k, guint *c0, guint *c1)
{
  guint nb = strobe_timer_summary_n_blocks (t->summary), tail;

  if (k > nb)
    return FALSE;
  *c0 = strobe_timer_summary_block_chunk (t->summary, k);
  if (k < nb)
    *c1 = strobe_timer_summary_block_chunk (t->summary, k + 1);
  else if ((tail = strobe_timer_summary_tail_chunks (t->summary)) > 0)
    *c1 = *c0 + tail;
  else
    return FALSE;
  return *c1 <= t->chunks->len;
}

/* At the first scope of one of @t's summary blocks (or of its tail) that lies wholly in
 * [t0, t1]: which block (@k, the number of blocks for the tail), and in @next the index
 * of the scope after it. FALSE elsewhere. */
static gboolean
block_at (const StrobeScopeTrack *t, StrobeScopePos p, guint64 t0, guint64 t1, guint *k, guint64 *next)
{
  guint64 i, per_block;
  guint c0, c1;

  if (p.pi != 0 || t->summary == NULL)
    return FALSE;
  i = strobe_scope_pos_index (t, p);
  per_block = (guint64) STROBE_SCOPE_CHUNK << t->summary->shift;
  if (i % per_block != 0 || i / per_block > G_MAXUINT)
    return FALSE;
  *k = (guint) (i / per_block);
  if (!block_chunks (t, *k, &c0, &c1)
      || strobe_scope_chunk (t, c0)->base < t0 || strobe_scope_chunk (t, c1 - 1)->last_end > t1)
    return FALSE;
  *next = (guint64) c1 << STROBE_SCOPE_CHUNK_SHIFT;
  return TRUE;
}

typedef struct
{
  guint64 last_end;
  guint64 count;
} BlockCount;

static gint
by_last_end (gconstpointer a, gconstpointer b)
{
  const BlockCount *x = a, *y = b;

  return (x->last_end > y->last_end) - (x->last_end < y->last_end);
}

/* A time by which the earliest @max scopes named in the set surely began, from the
 * summary blocks' counts alone (G_MAXUINT64 when they do not hold that many): every block
 * ending by then counted, the fewest such blocks that hold @max. Blocks that begin after
 * it need no walk. */
static guint64
horizon_from (GArray *blocks, guint max)
{
  guint64 sum = 0;

  g_array_sort (blocks, by_last_end);
  for (guint i = 0; i < blocks->len; i++)
    if ((sum += g_array_index (blocks, BlockCount, i).count) >= max)
      return g_array_index (blocks, BlockCount, i).last_end;
  return G_MAXUINT64;
}

/* Test pacing (strobe_scope_search_set_test_pace): 0 for the real ones. */
static guint test_step_scopes, test_step_delay_us, test_workers;

void
strobe_scope_search_set_test_pace (guint step_scopes, guint step_delay_us, guint workers)
{
  g_atomic_int_set (&test_step_scopes, step_scopes);
  g_atomic_int_set (&test_step_delay_us, step_delay_us);
  g_atomic_int_set (&test_workers, workers);
}

static guint
step_scopes (void)
{
  guint step = g_atomic_int_get (&test_step_scopes);

  return step ? step : STROBE_TIMER_STATS_PROGRESS_SCOPES;
}

guint64
strobe_scope_search_steps (StrobeTimelineModel *model)
{
  StrobeTimelineStats stats;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), 0);
  strobe_timeline_model_get_stats (model, &stats);
  return stats.scopes / step_scopes ();
}

/* Tracks are shared out among workers as they go (an atomic cursor over them, the
 * largest first so that the last one taken is a small one), twice: first each of their
 * summary blocks' matches are counted (kept for the walk, and the horizon from them all),
 * then the tracks are walked, each worker keeping its own earliest matches; sorted by
 * each and merged at the end, they are what one walk would keep: a track's matches all come from
 * one worker, in its order. A track is the unit, not a thread: the scale workload's game
 * thread alone holds 30 % of the scopes. */
typedef struct
{
  StrobeTimelineModel *model;
  GArray              *units;        /* Unit, the most scopes first */
  const guint8        *set;
  guint32              n_names, n_set;
  guint                max;
  guint64              horizon;      /* atomic: lowered by any worker that kept @max */
  guint                step, delay;
  gint                *progress;
  guint64              rest;         /* atomic: the scopes after each worker's last step */
  GPtrArray           *counts;       /* by unit: guint32 matches by block (or NULL) */
  gint                 next_count;   /* atomic: the next unit to count */
  gint                 next;         /* atomic: the next unit to walk */
  gint                 cancelled;    /* atomic */
  GCancellable        *cancellable;
} Shared;

typedef struct
{
  Shared  *sh;
  GArray  *out;                      /* StrobeScopeMatch */
  GArray  *blocks;                   /* BlockCount, of the blocks that hold matches */
  guint64  count;
  guint64  tick;                     /* scopes passed since the last step */
} Worker;

/* At least a step's worth of scopes passed: counted; FALSE when cancelled. */
static G_GNUC_NO_INLINE gboolean
worker_step (Worker *w)
{
  Shared *sh = w->sh;

  while (w->tick >= sh->step)
    {
      w->tick -= sh->step;
      if (sh->progress)
        g_atomic_int_inc (sh->progress);
      if (G_UNLIKELY (sh->delay))
        g_usleep (sh->delay);
    }
  strobe_give_way ();
  if (g_atomic_int_get (&sh->cancelled) || g_cancellable_is_cancelled (sh->cancellable))
    {
      g_atomic_int_set (&sh->cancelled, 1);
      return FALSE;
    }
  return TRUE;
}

static void
horizon_lower (Shared *sh, guint64 to)
{
  guint64 was = __atomic_load_n (&sh->horizon, __ATOMIC_RELAXED);

  while (to < was && !__atomic_compare_exchange_n (&sh->horizon, &was, to, TRUE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

static inline gboolean
wanted (const Shared *sh, guint32 name)
{
  return name < sh->n_names && sh->set[name];
}

/* A match into @w, in the track's order. */
static void
keep (Worker *w, const StrobeScopeMatch *m)
{
  Shared *sh = w->sh;

  g_array_append_vals (w->out, m, 1);
  /* Over the cap: keep the earliest, trimmed now and then. */
  if (w->out->len >= 2 * (gsize) MAX (sh->max, 1))
    {
      g_array_sort (w->out, match_cmp);
      g_array_set_size (w->out, sh->max);
      if (sh->max > 0)
        horizon_lower (sh, g_array_index (w->out, StrobeScopeMatch, sh->max - 1).begin);
    }
}

/* The matches among the @n scopes of chunk @c of a track (depth @d of thread @id), into
 * @w; how many. */
static guint
scan_chunk (Worker *w, const StrobeScopeChunk *c, guint n, guint16 id, guint16 d)
{
  const guint8 *rec = c->data;
  guint64 begin, end = c->base;
  guint found = 0;

  for (guint i = 0; i < n; i++)
    {
      guint32 name = strobe_scope_record_next (&rec, &begin, &end);

      if (G_LIKELY (!wanted (w->sh, name)))
        continue;
      found++;
      keep (w, &(StrobeScopeMatch) { begin, end, name, id, d });
    }
  return found;
}

/* The same for two full chunks of a track, @a then @b, read side by side: a record's
 * length is known only once it is read, so one chunk's walk is a chain of dependent
 * loads; two chains at once keep the core busy. @b's matches wait for @a's. */
static guint
scan_chunk_pair (Worker *w, const StrobeScopeChunk *a, const StrobeScopeChunk *b, guint16 id, guint16 d)
{
  StrobeScopeMatch later[STROBE_SCOPE_CHUNK];
  const guint8 *ra = a->data, *rb = b->data;
  guint64 ba, ea = a->base, bb, eb = b->base;
  guint found = 0, n_later = 0;

  for (guint i = 0; i < STROBE_SCOPE_CHUNK; i++)
    {
      guint32 na = strobe_scope_record_next (&ra, &ba, &ea), nb = strobe_scope_record_next (&rb, &bb, &eb);

      if (G_UNLIKELY (wanted (w->sh, na)))
        {
          found++;
          keep (w, &(StrobeScopeMatch) { ba, ea, na, id, d });
        }
      if (G_UNLIKELY (wanted (w->sh, nb)))
        later[n_later++] = (StrobeScopeMatch) { bb, eb, nb, id, d };
    }
  for (guint i = 0; i < n_later; i++)
    keep (w, &later[i]);
  return found + n_later;
}

/* The matches of one track, depth @d of thread @id, into @w, with @counts (when not NULL)
 * its blocks' counts of matches. FALSE when cancelled. */
static gboolean
search_track (Worker *w, const StrobeScopeTrack *t, const GArray *counts, guint16 id, guint d)
{
  Shared *sh = w->sh;
  guint64 in_track = 0;
  gboolean last_empty = TRUE;
  guint unread = 0, c0, c1, per_block = t->summary ? 1u << t->summary->shift : 0, halved = 0;
  guint16 depth = (guint16) MIN (d, G_MAXUINT16);

  for (guint ci = 0; ci < t->chunks->len;)
    {
      guint n, k = per_block ? ci / per_block : 0;

      /* A block with none, or whose scopes cannot be among the earliest @max (this
       * track gave that many already, or it begins after the @max-th kept): counted,
       * not walked. Its count was taken by the first pass (a block published by then
       * never changes); for one published since, where the last block read held some,
       * the next likely does too: its summary (a tenth of a walk of it) is read only now
       * and then. */
      if (per_block && ci % per_block == 0 && block_chunks (t, k, &c0, &c1) && c0 == ci)
        {
          gboolean late = in_track >= sh->max
                          || strobe_scope_chunk (t, ci)->base > __atomic_load_n (&sh->horizon, __ATOMIC_RELAXED);
          gboolean known = counts != NULL && k < counts->len;
          guint64 in_block = known ? g_array_index (counts, guint32, k) : 0;

          if (known || late || last_empty || ++unread % 8 == 0)
            {
              if (!known)
                in_block = strobe_timer_summary_block_count (t->summary, k, sh->set, 0, sh->n_names, sh->n_set, NULL);
              last_empty = in_block == 0;
              if (late || in_block == 0)
                {
                  guint64 scopes = (guint64) (c1 - ci) << STROBE_SCOPE_CHUNK_SHIFT;

                  w->count += in_block;
                  /* Jumped over, its scopes still move the progress: the bar advances
                   * evenly (half of them, for a block the first pass counted half). */
                  w->tick += known ? scopes - scopes / 2 : scopes;
                  ci = c1;
                  if (w->tick >= sh->step && !worker_step (w))
                    return FALSE;
                  continue;
                }
            }
          /* Walked: its chunks (full ones) count half if the first pass counted half. */
          halved = known ? c1 : 0;
        }
      n = strobe_scope_chunk_count (t, ci);
      /* Two at once where both are full and no block begins at the second. */
      if (ci + 1 < t->chunks->len && n == STROBE_SCOPE_CHUNK && (per_block == 0 || (ci + 1) % per_block != 0)
          && strobe_scope_chunk_count (t, ci + 1) == STROBE_SCOPE_CHUNK)
        {
          w->tick += ci < halved ? STROBE_SCOPE_CHUNK : 2 * STROBE_SCOPE_CHUNK;
          n = scan_chunk_pair (w, strobe_scope_chunk (t, ci), strobe_scope_chunk (t, ci + 1), id, depth);
          ci += 2;
        }
      else
        {
          w->tick += ci < halved ? n - n / 2 : n;
          n = scan_chunk (w, strobe_scope_chunk (t, ci++), n, id, depth);
        }
      w->count += n;
      in_track += n;
      if (w->tick >= sh->step && !worker_step (w))
        return FALSE;
    }
  return TRUE;
}

/* The first pass over unit @i, track @t: its published blocks' matches counted (for
 * the walk), those that hold some listed in @w->blocks (for the horizon). Half of each
 * such block's scopes move the progress now, the other half in the walk: at 1 B this
 * pass is a third of the search, and the bar would sit at 0 % through it. */
static void
count_track (Worker *w, guint i, const StrobeScopeTrack *t)
{
  Shared *sh = w->sh;
  guint nb = strobe_timer_summary_n_blocks (t->summary), c0, c1;
  GArray *counts = g_array_sized_new (FALSE, FALSE, sizeof (guint32), nb);

  /* The tail too for the horizon, not kept: it grows with a live trace. */
  for (guint k = 0; t->summary != NULL && k <= nb && block_chunks (t, k, &c0, &c1); k++)
    {
      BlockCount b = { strobe_scope_chunk (t, c1 - 1)->last_end, 0 };

      b.count = strobe_timer_summary_block_count (t->summary, k, sh->set, 0, sh->n_names, sh->n_set, NULL);
      if (b.count)
        g_array_append_val (w->blocks, b);
      if (k == nb)
        break;
      g_array_append_val (counts, (guint32) { (guint32) b.count });
      w->tick += ((guint64) (c1 - c0) << STROBE_SCOPE_CHUNK_SHIFT) / 2;
      if (w->tick >= sh->step && !worker_step (w))
        break;
    }
  sh->counts->pdata[i] = counts;
}

/* A track of the trace, one worker's share of a pass. */
typedef StrobeTrackUnit Unit;

/* The next unit not yet taken from @next (@i), its track under the read lock (a unit
 * whose track is gone is passed over); NULL when none is left or the search was
 * cancelled. */
static const StrobeScopeTrack *
next_track (Shared *sh, gint *next, gint *i, const Unit **unit)
{
  for (;;)
    {
      const StrobeScopeTrack *t;

      *i = g_atomic_int_add (next, 1);
      if (*i >= (gint) sh->units->len || g_atomic_int_get (&sh->cancelled))
        return NULL;
      *unit = &g_array_index (sh->units, Unit, *i);
      if ((t = strobe_track_unit_lock (sh->model, *unit)) != NULL)
        return t;
    }
}

static gpointer
count_main (gpointer data)
{
  Worker *w = data;
  Shared *sh = w->sh;
  const StrobeScopeTrack *t;
  const Unit *u;
  gint i;

  while ((t = next_track (sh, &sh->next_count, &i, &u)) != NULL)
    {
      count_track (w, (guint) i, t);
      strobe_timeline_model_read_unlock (sh->model);
    }
  return NULL;
}

static gpointer
walk_main (gpointer data)
{
  Worker *w = data;
  Shared *sh = w->sh;
  const StrobeScopeTrack *t;
  const Unit *u;
  gint i;

  while ((t = next_track (sh, &sh->next, &i, &u)) != NULL)
    {
      gboolean ok = search_track (w, t, sh->counts->pdata[i], u->id, u->depth);
      strobe_timeline_model_read_unlock (sh->model);
      if (!ok)
        break;
    }
  __atomic_add_fetch (&sh->rest, w->tick, __ATOMIC_RELAXED);
  /* Sorted here, on every worker at once: the caller only merges. */
  g_array_sort (w->out, match_cmp);
  if (w->out->len > sh->max)
    g_array_set_size (w->out, sh->max);
  return NULL;
}

static void
free_counts (gpointer counts)
{
  if (counts)
    g_array_unref (counts);
}

/* How many workers share @units: one per core (up to 4), or the tests' number. */
static guint
n_workers_for (GArray *units)
{
  guint n = g_atomic_int_get (&test_workers);

  if (n == 0)
    n = MIN (g_get_num_processors (), units->len);
  return CLAMP (n, 1, STROBE_TRACK_UNITS_MAX_WORKERS);
}

/* The earliest @max of the @n workers' sorted matches into @out, in order. Matches of
 * equal keys come from one track, so from one worker, already in its order. */
static void
merge_sorted (GArray *out, const Worker *workers, guint n, guint max)
{
  guint at[4] = { 0 };

  while (out->len < max)
    {
      const StrobeScopeMatch *first = NULL;
      gint from = -1;

      for (guint i = 0; i < n; i++)
        if (at[i] < workers[i].out->len)
          {
            const StrobeScopeMatch *m = &g_array_index (workers[i].out, StrobeScopeMatch, at[i]);

            if (first == NULL || match_cmp (m, first) < 0)
              first = m, from = (gint) i;
          }
      if (first == NULL)
        break;
      g_array_append_vals (out, first, 1);
      at[from]++;
    }
}

/* Both passes over @sh's tracks: the earliest @max matches of all into @out (empty), in
 * order, their count returned. */
static guint64
search_threads (Shared *sh, GArray *out)
{
  Worker workers[STROBE_TRACK_UNITS_MAX_WORKERS] = { { 0 } };
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (BlockCount));
  guint n_workers = n_workers_for (sh->units);
  guint64 count = 0;

  for (guint i = 0; i < n_workers; i++)
    {
      workers[i].sh = sh;
      workers[i].out = g_array_new (FALSE, FALSE, sizeof (StrobeScopeMatch));
      workers[i].blocks = i == 0 ? g_array_ref (blocks) : g_array_new (FALSE, FALSE, sizeof (BlockCount));
    }
  strobe_track_units_run ("strobe-search", count_main, workers, sizeof workers[0], n_workers);
  for (guint i = 1; i < n_workers; i++)
    g_array_append_vals (blocks, workers[i].blocks->data, workers[i].blocks->len);
  if (sh->max > 0)
    sh->horizon = horizon_from (blocks, sh->max);
  strobe_track_units_run ("strobe-search", walk_main, workers, sizeof workers[0], n_workers);
  merge_sorted (out, workers, n_workers, sh->max);
  for (guint i = 0; i < n_workers; i++)
    {
      g_array_unref (workers[i].out);
      g_array_unref (workers[i].blocks);
      count += workers[i].count;
    }
  /* The workers' last part-steps: the counter ends at the scopes passed over a step. */
  for (guint64 rest = sh->rest; sh->progress && rest >= sh->step; rest -= sh->step)
    g_atomic_int_inc (sh->progress);
  return count;
}

GArray *
strobe_scope_search (StrobeTimelineModel *model, const char *text, guint max, guint64 *total,
                     GCancellable *cancellable, GError **error)
{
  return strobe_scope_search_full (model, text, max, total, NULL, cancellable, error);
}

GArray *
strobe_scope_search_full (StrobeTimelineModel *model, const char *text, guint max, guint64 *total, gint *progress,
                          GCancellable *cancellable, GError **error)
{
  g_autofree char *needle = NULL;
  g_autofree guint8 *set = NULL;
  g_autoptr(GArray) units = NULL;
  Shared sh = { 0 };
  GArray *out;
  guint n_names, n_set = 0;
  guint64 count = 0;
  gboolean any = FALSE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  out = g_array_new (FALSE, FALSE, sizeof (StrobeScopeMatch));
  if (total)
    *total = 0;
  needle = g_utf8_casefold (text, -1);
  n_names = strobe_timeline_model_get_n_names (model);
  set = g_new0 (guint8, MAX (n_names, 1));
  for (guint i = 0; i < n_names && *needle; i++)
    {
      const char *name = strobe_timeline_model_get_name (model, i);
      g_autofree char *folded = name ? g_utf8_casefold (name, -1) : NULL;

      if (folded && strstr (folded, needle))
        set[i] = any = TRUE, n_set++;
    }
  if (any)
    {
      units = strobe_track_units (model, -1);
      sh = (Shared) { model, units, set, n_names, n_set, max, G_MAXUINT64, step_scopes (),
                      g_atomic_int_get (&test_step_delay_us), progress, 0, NULL, 0, 0, 0, cancellable };
      sh.counts = g_ptr_array_new_full (units->len, free_counts);
      g_ptr_array_set_size (sh.counts, units->len);
      count = search_threads (&sh, out);
      g_ptr_array_unref (sh.counts);
    }
  if (g_atomic_int_get (&sh.cancelled) || g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (out);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  if (total)
    *total = count;
  return out;
}

/* The longest: each track's own (the first of its length in time), from the tracks
 * shared out as the search shares them, the longest of all then taken in the order one
 * walk would meet them (thread, then depth). A block none of whose scopes is longer than
 * the track's own so far, or shorter than any track's so far, is jumped over. */
typedef struct
{
  StrobeTimelineModel *model;
  GArray              *units;
  guint32              name_id;
  guint64              t0, t1;
  guint64              best;       /* atomic: the longest found so far, +1 (0: none) */
  StrobeScopeMatch    *found;      /* by unit */
  gboolean            *has;        /* by unit */
  gint                 next;       /* atomic */
  gint                 cancelled;  /* atomic */
  GCancellable        *cancellable;
} Longest;

/* Unit @i's track @t: its longest into @lg->found[@i]. FALSE when cancelled. */
static gboolean
longest_in_track (Longest *lg, guint i, const StrobeScopeTrack *t, const Unit *u)
{
  const guint8 one = 1;
  StrobeScopePos p = strobe_scope_track_lower_bound_end (t, lg->t0);
  StrobeScopeMatch *out = &lg->found[i];
  gboolean found = FALSE;
  guint64 best = 0, was;
  guint tick = 0;

  for (; strobe_scope_pos_valid (t, p); strobe_scope_pos_next (t, &p))
    {
      guint64 b, e, longest, next;
      guint k;

      while (block_at (t, p, lg->t0, lg->t1, &k, &next)
             && (strobe_timer_summary_block_count (t->summary, k, &one, lg->name_id, 1, 1, &longest) == 0
                 || (found && longest <= best) || longest + 1 < __atomic_load_n (&lg->best, __ATOMIC_RELAXED)))
        p = strobe_scope_track_seek (t, next);
      if (!strobe_scope_pos_valid (t, p) || (b = strobe_scope_begin_at (t, p)) > lg->t1)
        break;
      if (++tick % 65536 == 0 && g_cancellable_is_cancelled (lg->cancellable))
        return FALSE;
      if (strobe_scope_name_at (t, p) != lg->name_id)
        continue;
      e = strobe_scope_end_at (t, p);
      if (!found || e - b > best)
        {
          found = TRUE;
          best = e - b;
          *out = (StrobeScopeMatch) { b, e, lg->name_id, u->id, (guint16) MIN (u->depth, G_MAXUINT16) };
          was = __atomic_load_n (&lg->best, __ATOMIC_RELAXED);
          while (best + 1 > was
                 && !__atomic_compare_exchange_n (&lg->best, &was, best + 1, TRUE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        }
    }
  lg->has[i] = found;
  return TRUE;
}

static gpointer
longest_main (gpointer data)
{
  Longest *lg = data;

  for (;;)
    {
      gint i = g_atomic_int_add (&lg->next, 1);
      const Unit *u;
      const StrobeScopeTrack *t;
      gboolean ok;

      if (i >= (gint) lg->units->len || g_atomic_int_get (&lg->cancelled))
        break;
      u = &g_array_index (lg->units, Unit, i);
      if ((t = strobe_track_unit_lock (lg->model, u)) == NULL)
        continue;
      ok = longest_in_track (lg, (guint) i, t, u);
      strobe_timeline_model_read_unlock (lg->model);
      if (!ok)
        g_atomic_int_set (&lg->cancelled, 1);
    }
  return NULL;
}

gboolean
strobe_scope_search_longest (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1,
                             StrobeScopeMatch *out, GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) units = NULL;
  g_autofree StrobeScopeMatch *found = NULL;
  g_autofree gboolean *has = NULL;
  Longest lg = { 0 };
  gint pick = -1;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  units = strobe_track_units (model, -1);
  found = g_new0 (StrobeScopeMatch, MAX (units->len, 1));
  has = g_new0 (gboolean, MAX (units->len, 1));
  lg = (Longest) { model, units, name_id, t0, t1, 0, found, has, 0, 0, cancellable };
  if (units->len > 0)
    strobe_track_units_run ("strobe-search", longest_main, &lg, 0, n_workers_for (units));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  for (guint i = 0; i < units->len; i++)
    {
      const StrobeScopeMatch *m = &found[i], *p = pick >= 0 ? &found[pick] : NULL;

      if (has[i]
          && (p == NULL || m->end - m->begin > p->end - p->begin
              || (m->end - m->begin == p->end - p->begin
                  && (m->thread_id < p->thread_id || (m->thread_id == p->thread_id && m->depth < p->depth)))))
        pick = (gint) i;
    }
  if (pick < 0)
    return FALSE;
  *out = found[pick];
  return TRUE;
}
