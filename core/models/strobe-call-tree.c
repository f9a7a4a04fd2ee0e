/* strobe-call-tree.c — the call tree by name path: each thread's depths are walked
 * together in time order (a cursor per depth, which only moves forward, as in the timer
 * statistics), a stack of the enclosing scopes giving each scope its parent node in a
 * StrobeCostTree (column 0: instances, 1: time). Big ranges: a tree per thread on two
 * workers, merged by path. One timer's callers and callees need no tree: each depth is
 * read beside the one above it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-call-tree.h"
#include "strobe-give-way.h"
#include "strobe-timeline-model-private.h"
#include "strobe-timer-stats.h"
#include "strobe-track-units.h"

#include <string.h>

static inline guint64
clip (guint64 b, guint64 e, guint64 t0, guint64 t1)
{
  guint64 lo = MAX (b, t0), hi = MIN (e, t1);
  return hi > lo ? hi - lo : 0;
}

typedef struct
{
  guint32 node;
  guint64 begin;
  guint64 end;
} Frame;

/* Every scope walked (kept, lumped or skipped) is counted: the progress moves evenly. */
typedef struct
{
  guint         tick;
  gint         *progress;
  GCancellable *cancellable;
} Ticks;

static gint test_hold;

void
strobe_call_tree_set_test_hold (gboolean hold)
{
  g_atomic_int_set (&test_hold, hold);
}

/* A step of progress; FALSE when cancelled. */
static gboolean
tick (Ticks *ticks)
{
  ticks->tick = 0;
  if (ticks->progress)
    g_atomic_int_inc (ticks->progress);
  strobe_give_way ();
  while (G_UNLIKELY (g_atomic_int_get (&test_hold)) && !g_cancellable_is_cancelled (ticks->cancellable))
    g_usleep (1000);
  return !g_cancellable_is_cancelled (ticks->cancellable);
}

/* One timer's callers and callees while they are summed: count and time by name id
 * (the callers' STROBE_CALL_NONE at @n_names). */
typedef struct
{
  guint32  name;
  guint32  n_names;
  guint64 *callers;    /* count, time for each name id, then for none */
  guint64 *callees;
} Links;

static void
links_grow (Links *l, guint32 name)
{
  guint32 n = MAX (name + 1, l->n_names * 2);

  /* The callers' "none" moves to the new end. */
  l->callers = g_renew (guint64, l->callers, 2 * ((gsize) n + 1));
  memcpy (&l->callers[2 * (gsize) n], &l->callers[2 * (gsize) l->n_names], 2 * sizeof (guint64));
  memset (&l->callers[2 * (gsize) l->n_names], 0, 2 * sizeof (guint64) * (n - l->n_names));
  l->callees = g_renew (guint64, l->callees, 2 * (gsize) n);
  memset (&l->callees[2 * (gsize) l->n_names], 0, 2 * sizeof (guint64) * (n - l->n_names));
  l->n_names = n;
}

static inline void
links_add (Links *l, guint64 *table, guint32 name, guint64 time)
{
  gsize at = name == STROBE_CALL_NONE ? l->n_names : name;

  table[2 * at] += 1;
  table[2 * at + 1] += time;
}

/* Every (caller, callee) name pair's count and time while they are summed: open
 * addressing, keys (caller + 1) << 32 | callee (the callers' STROBE_CALL_NONE: 0 << 32). */
typedef struct
{
  guint64 key;         /* PAIR_EMPTY: free */
  guint64 count;
  guint64 time;
} Pair;

#define PAIR_EMPTY G_MAXUINT64
/* At most this many pairs (a table of 96 MiB per worker): a range of a million names
 * nested at random holds more pairs than a machine should be asked to keep. */
#define PAIRS_MAX (1u << 21)

static guint pairs_max = PAIRS_MAX;

void
strobe_call_tree_set_test_pair_limit (guint32 limit)
{
  pairs_max = limit == 0 ? PAIRS_MAX : MIN (limit, PAIRS_MAX);
}

typedef struct
{
  Pair    *slots;
  guint    bits;
  guint    used;
  gboolean full;       /* a pair past pairs_max was left out: the walk stops */
} Pairs;

static inline guint64
pair_key (guint32 caller, guint32 name)
{
  return (guint64) (caller == STROBE_CALL_NONE ? 0 : caller + 1) << 32 | name;
}

static void
pairs_init (Pairs *p, guint bits)
{
  p->bits = bits;
  p->used = 0;
  p->full = FALSE;
  p->slots = g_new (Pair, (gsize) 1 << bits);
  for (gsize i = 0; i < (gsize) 1 << bits; i++)
    p->slots[i].key = PAIR_EMPTY;
}

static void pairs_add (Pairs *p, guint64 key, guint64 count, guint64 time);

static void
pairs_grow (Pairs *p)
{
  Pairs bigger;

  pairs_init (&bigger, p->bits + 1);
  for (gsize i = 0; i < (gsize) 1 << p->bits; i++)
    if (p->slots[i].key != PAIR_EMPTY)
      pairs_add (&bigger, p->slots[i].key, p->slots[i].count, p->slots[i].time);
  g_free (p->slots);
  *p = bigger;
}

static inline void
pairs_add (Pairs *p, guint64 key, guint64 count, guint64 time)
{
  gsize mask = ((gsize) 1 << p->bits) - 1, i = (gsize) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - p->bits));

  for (;; i = (i + 1) & mask)
    {
      Pair *s = &p->slots[i];

      if (s->key == key)
        {
          s->count += count;
          s->time += time;
          return;
        }
      if (s->key == PAIR_EMPTY)
        break;
    }
  if (G_UNLIKELY (p->used >= pairs_max))
    {
      p->full = TRUE;
      return;
    }
  /* At most half full: probes stay short. */
  if (2 * (p->used + 1) > (guint) 1 << p->bits)
    {
      pairs_grow (p);
      pairs_add (p, key, count, time);
      return;
    }
  p->slots[i] = (Pair) { key, count, time };
  p->used++;
}

/* A track read a chunk at a time: its records decoded in one tight loop, then taken one
 * by one — the walk moves between depths at nearly every scope, and a record read where
 * it is needed paid a call and a chain of dependent loads each time. */
typedef struct
{
  const StrobeScopeTrack *t;
  guint                   ci;       /* the chunk decoded */
  guint                   i, n;     /* the next scope in it, its scopes (i == n: none left) */
  guint64                 begin[STROBE_SCOPE_CHUNK];
  guint64                 end[STROBE_SCOPE_CHUNK];
  guint32                 name[STROBE_SCOPE_CHUNK];
} Cursor;

static void
cursor_load (Cursor *c, guint ci)
{
  const StrobeScopeChunk *chunk;
  const guint8 *rec;
  guint64 begin, end;

  c->ci = ci;
  c->i = 0;
  if (ci >= c->t->chunks->len)
    {
      c->n = 0;
      return;
    }
  chunk = strobe_scope_chunk (c->t, ci);
  rec = chunk->data;
  end = chunk->base;
  c->n = strobe_scope_chunk_count (c->t, ci);
  for (guint k = 0; k < c->n; k++)
    {
      c->name[k] = strobe_scope_record_next (&rec, &begin, &end);
      c->begin[k] = begin;
      c->end[k] = end;
    }
}

/* At the first scope whose end is >= @time. */
static void
cursor_init (Cursor *c, const StrobeScopeTrack *t, guint64 time)
{
  StrobeScopePos p = strobe_scope_track_lower_bound_end (t, time);

  c->t = t;
  cursor_load (c, p.ci);
  c->i = strobe_scope_pos_valid (t, p) ? p.pi : c->n;
}

static inline gboolean
cursor_valid (const Cursor *c)
{
  return c->i < c->n;
}

static inline void
cursor_next (Cursor *c)
{
  if (++c->i == c->n && c->n == STROBE_SCOPE_CHUNK)
    cursor_load (c, c->ci + 1);
}

/* The walk of one thread's scopes in [t0, t1] into @tree's nodes. FALSE when cancelled. */
static gboolean
thread_tree (StrobeScopeThread *th, guint64 t0, guint64 t1, StrobeCostTree *tree, Ticks *ticks)
{
  guint n = th->tracks->len;
  g_autofree Cursor *pos = g_new (Cursor, MAX (n, 1));
  g_autofree Frame *stack = g_new (Frame, n + 1);
  guint top = 0;

  for (guint d = 0; d < n; d++)
    cursor_init (&pos[d], th->tracks->pdata[d], t0);
  stack[0].node = 0;
  stack[0].begin = 0;
  stack[0].end = G_MAXUINT64;
  /* stack[k] is the open scope at depth k - 1; its children are at depth k. */
  for (;;)
    {
      Frame *f = &stack[top];
      guint d = top;
      Cursor *c = d < n ? &pos[d] : NULL;
      gboolean child = FALSE;

      if (c)
        {
          /* Scopes that began before this parent belong to an earlier one (outside the
           * range, or before t0): skip them. */
          while (cursor_valid (c) && c->begin[c->i] < f->begin)
            {
              cursor_next (c);
              if (G_UNLIKELY (++ticks->tick == STROBE_TIMER_STATS_PROGRESS_SCOPES) && !tick (ticks))
                return FALSE;
            }
          if (cursor_valid (c))
            {
              guint64 b = c->begin[c->i];
              guint64 e = c->end[c->i];
              child = b <= t1 && b <= f->end && e <= f->end;
              if (child)
                {
                  guint32 name = c->name[c->i], id;
                  guint64 time = clip (b, e, t0, t1);

                  /* A scope that only touches the range (ends where it begins, begins
                   * where it ends) is not in it, as for the timer statistics; nor is what
                   * it encloses. */
                  if (G_UNLIKELY (time == 0 && e > b))
                    {
                      cursor_next (c);
                      continue;
                    }
                  id = strobe_cost_tree_child (tree, f->node, name);
                  /* The root's costs are the outermost scopes'. */
                  strobe_cost_tree_add (tree, id, STROBE_CALL_COUNT, FALSE, 1);
                  strobe_cost_tree_add (tree, id, STROBE_CALL_TIME, FALSE, time);
                  if (f->node == 0)
                    {
                      strobe_cost_tree_add (tree, 0, STROBE_CALL_COUNT, FALSE, 1);
                      strobe_cost_tree_add (tree, 0, STROBE_CALL_TIME, FALSE, time);
                    }
                  cursor_next (c);
                  if (G_UNLIKELY (++ticks->tick == STROBE_TIMER_STATS_PROGRESS_SCOPES) && !tick (ticks))
                    return FALSE;
                  /* A path not kept: its time is whole in the parent's "other" node; the
                   * scopes it encloses are skipped as the next sibling is taken. */
                  if (strobe_cost_tree_get_key (tree, id) == STROBE_CALL_OTHER)
                    continue;
                  top++;
                  stack[top].node = id;
                  stack[top].begin = b;
                  stack[top].end = e;
                }
            }
        }
      if (!child)
        {
          if (top == 0)
            break;
          top--;
        }
    }
  return TRUE;
}

static gint test_jumps;

guint
strobe_call_tree_get_test_jumps (void)
{
  return (guint) g_atomic_int_and (&test_jumps, 0);
}

static gboolean
ticks_add (Ticks *ticks, guint64 n)
{
  for (n += ticks->tick; n >= STROBE_TIMER_STATS_PROGRESS_SCOPES; n -= STROBE_TIMER_STATS_PROGRESS_SCOPES)
    if (!tick (ticks))
      return FALSE;
  ticks->tick = (guint) n;
  return TRUE;
}

/* Whether summary block @k of @t holds a scope named @name, asked once (@known: 0 not yet,
 * 1 no, 2 yes, by block). */
static gboolean
block_has (const StrobeScopeTrack *t, guint k, guint32 name, guint8 *known)
{
  static const guint8 wanted[1] = { 1 };

  if (known[k] == 0)
    known[k] = strobe_timer_summary_block_count (t->summary, k, wanted, name, 1, 1, NULL) > 0 ? 2 : 1;
  return known[k] == 2;
}

/* Whether the scopes of @up (the depth above) from @from to @to hold a scope named @name,
 * by their published summary blocks (a block not yet published: yes). */
static gboolean
above_has (const StrobeScopeTrack *up, guint64 from, guint64 to, guint32 name, guint8 *known, guint nb)
{
  StrobeScopePos q = strobe_scope_track_lower_bound_end (up, from);

  for (guint k = q.ci >> up->summary->shift;
       strobe_scope_pos_valid (up, q) && ((guint64) k << up->summary->shift) < up->chunks->len; k++)
    {
      if (strobe_scope_chunk (up, strobe_timer_summary_block_chunk (up->summary, k))->base > to)
        return FALSE;
      if (k >= nb || block_has (up, k, name, known))
        return TRUE;
    }
  return FALSE;
}

/* One depth @d of a thread for the callers and callees: its scopes in [t0, t1] beside
 * their parents (depth d − 1), two cursors moving forward together — each scope's parent is
 * the first scope above that ends at or after its begin. Where scopes nest (as the model
 * keeps them) these are the scopes and parents the tree's walk takes: a parent that only
 * touches the range is not in it, nor what it encloses; a scope its parent does not
 * enclose is in no path. A summary block of this depth (16 384 scopes) with none of the
 * name, whose time meets no block above with the name, holds neither a caller nor a callee:
 * jumped over. Blocks are asked lazily, and less and less often while the answer is no (a
 * name in every block: asking costs a tenth of walking). Each depth on its own, so the
 * workers share out depths, not threads. FALSE when cancelled. */
static inline __attribute__ ((always_inline)) gboolean
depth_walk (StrobeScopeThread *th, guint d, guint64 t0, guint64 t1, Links *l, Pairs *pairs, Ticks *ticks, Cursor *c,
            Cursor *p)
{
  const StrobeScopeTrack *t = th->tracks->pdata[d], *up = d > 0 ? th->tracks->pdata[d - 1] : NULL;
  guint nb = t->summary ? strobe_timer_summary_n_blocks (t->summary) : 0;
  guint nb_up = up && up->summary ? strobe_timer_summary_n_blocks (up->summary) : 0;
  guint per_block = nb ? 1u << t->summary->shift : 0, check_at = 0, backoff = 1, kept = 0;
  g_autofree guint8 *known = g_new0 (guint8, MAX (nb, 1));
  g_autofree guint8 *known_up = g_new0 (guint8, MAX (nb_up, 1));

  cursor_init (c, t, t0);
  if (up)
    cursor_init (p, up, t0);
  /* A chunk at a time: whether to jump is asked at a block's first chunk. */
  while (cursor_valid (c))
    {
      guint k = per_block ? c->ci / per_block : 0;

      if (pairs && G_UNLIKELY (pairs->full))
        return FALSE;
      if (l && c->i == 0 && per_block && c->ci % per_block == 0 && k < nb && k >= check_at && c->begin[0] <= t1)
        {
          guint c1 = strobe_timer_summary_block_chunk (t->summary, k + 1);

          if (!block_has (t, k, l->name, known)
              && (up == NULL || (up->summary != NULL
                                 && !above_has (up, c->begin[0], strobe_scope_chunk (t, c1 - 1)->last_end, l->name, known_up, nb_up))))
            {
              g_atomic_int_inc (&test_jumps);
              if (!ticks_add (ticks, (guint64) (c1 - c->ci) << STROBE_SCOPE_CHUNK_SHIFT))
                return FALSE;
              cursor_load (c, c1);
              check_at = k + 1;
              backoff = 1;
              kept = 0;
              /* Past a jump, the parent is found by a search rather than a walk. */
              if (up && cursor_valid (c) && (!cursor_valid (p) || strobe_scope_chunk (up, p->ci)->last_end < c->begin[0]))
                cursor_init (p, up, c->begin[0]);
              continue;
            }
          /* Kept again and again (the name in every block): asked less often. */
          check_at = k + 1;
          if (++kept >= 4)
            {
              check_at = k + backoff;
              backoff = MIN (backoff * 2, 1024u);
            }
        }
      for (; c->i < c->n; c->i++)
        {
          guint64 b = c->begin[c->i], e = c->end[c->i], time;
          guint32 name = c->name[c->i], caller = STROBE_CALL_NONE;

          if (b > t1)
            return TRUE;
          if (G_UNLIKELY (++ticks->tick == STROBE_TIMER_STATS_PROGRESS_SCOPES) && !tick (ticks))
            return FALSE;
          time = clip (b, e, t0, t1);
          if (G_UNLIKELY (time == 0 && e > b))
            continue;
          if (up)
            {
              guint64 pb, pe;

              while (cursor_valid (p) && p->end[p->i] < b)
                cursor_next (p);
              if (G_UNLIKELY (!cursor_valid (p)))
                return TRUE;
              pb = p->begin[p->i];
              pe = p->end[p->i];
              if (G_UNLIKELY (pb > b || pe < e || (clip (pb, pe, t0, t1) == 0 && pe > pb)))
                continue;
              caller = p->name[p->i];
            }
          if (pairs)
            pairs_add (pairs, pair_key (caller, name), 1, time);
          else if (G_UNLIKELY (name == l->name || caller == l->name))
            {
              guint32 most = MAX (name, caller == STROBE_CALL_NONE ? 0 : caller);

              if (most >= l->n_names)
                links_grow (l, most);
              if (name == l->name)
                links_add (l, l->callers, caller, time);
              if (caller == l->name)
                links_add (l, l->callees, name, time);
            }
        }
      if (c->n < STROBE_SCOPE_CHUNK)
        break;
      cursor_load (c, c->ci + 1);
    }
  return TRUE;
}

static gboolean
depth_links (StrobeScopeThread *th, guint d, guint64 t0, guint64 t1, Links *l, Ticks *ticks, Cursor *c, Cursor *p)
{
  return depth_walk (th, d, t0, t1, l, NULL, ticks, c, p);
}

/* Every pair's: no block can be jumped over. */
static gboolean
depth_pairs (StrobeScopeThread *th, guint d, guint64 t0, guint64 t1, Pairs *pairs, Ticks *ticks, Cursor *c, Cursor *p)
{
  return depth_walk (th, d, t0, t1, NULL, pairs, ticks, c, p);
}

static guint64
thread_scopes (StrobeScopeThread *th)
{
  guint64 n = 0;

  for (guint d = 0; d < th->tracks->len; d++)
    n += ((StrobeScopeTrack *) th->tracks->pdata[d])->n;
  return n;
}

typedef struct
{
  guint16 id;
  guint64 scopes;
  guint64 in_range;   /* at most: from the first ending at or after t0 to the last beginning by t1 */
} ThreadSize;

static guint64
range_scopes (StrobeScopeThread *th, guint64 t0, guint64 t1)
{
  guint64 n = 0;

  for (guint d = 0; d < th->tracks->len; d++)
    {
      const StrobeScopeTrack *t = th->tracks->pdata[d];
      guint64 from = strobe_scope_pos_index (t, strobe_scope_track_lower_bound_end (t, t0));
      guint64 to = t1 == G_MAXUINT64 ? t->n : strobe_scope_pos_index (t, strobe_scope_track_lower_bound_begin (t, t1 + 1));

      n += to > from ? to - from : 0;
    }
  return n;
}

static gint
by_size (gconstpointer a, gconstpointer b)
{
  const ThreadSize *x = a, *y = b;

  if (x->scopes != y->scopes)
    return x->scopes > y->scopes ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* The threads to walk (one, or all: ThreadSize), largest first: the workers end
 * together. */
static GArray *
threads_by_size (StrobeTimelineModel *model, gint thread_id, guint64 t0, guint64 t1)
{
  g_autoptr(GArray) ids = strobe_timeline_model_get_threads (model);
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (ThreadSize));

  strobe_timeline_model_read_lock (model);
  for (guint i = 0; i < ids->len; i++)
    {
      ThreadSize t = { g_array_index (ids, guint16, i), 0, 0 };
      StrobeScopeThread *th;

      if (thread_id >= 0 && t.id != thread_id)
        continue;
      th = strobe_timeline_model_peek_thread (model, t.id);
      t.scopes = th ? thread_scopes (th) : 0;
      t.in_range = th ? range_scopes (th, t0, t1) : 0;
      g_array_append_val (sizes, t);
    }
  strobe_timeline_model_read_unlock (model);
  g_array_sort (sizes, by_size);
  return sizes;
}

/* Columns STROBE_CALL_COUNT (inclusive only) and STROBE_CALL_TIME, keyed by name id. */
static StrobeCostTree *
new_tree (void)
{
  static const StrobeCostColumnFlags columns[] = { STROBE_COST_COLUMN_NO_SELF, STROBE_COST_COLUMN_DEFAULT };

  return strobe_cost_tree_new (STROBE_COST_TREE_TOP_DOWN, G_N_ELEMENTS (columns), columns, STROBE_CALL_NONE);
}

static gint node_limit = STROBE_CALL_TREE_MAX_NODES;

void
strobe_call_tree_set_test_node_limit (guint32 limit)
{
  g_atomic_int_set (&node_limit, (gint) MIN (limit, STROBE_CALL_TREE_MAX_NODES));
}

StrobeCostTree *
strobe_call_tree_compute (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                          GCancellable *cancellable, GError **error)
{
  return strobe_call_tree_compute_full (model, t0, t1, thread_id, NULL, cancellable, error);
}

/* One tree a thread, built by a few workers (each taking the next thread, largest
 * first), then merged by path: the result the same whatever the workers. */
typedef struct
{
  StrobeTimelineModel *model;
  GArray              *threads;   /* ThreadSize, largest first */
  StrobeCostTree     **trees;     /* a thread's, by its index in @threads */
  guint32             *limits;    /* its share of the nodes */
  guint64              t0, t1;
  gint                 next;
  gint                *progress;
  GCancellable        *cancellable;
  gint                 cancelled;
  gboolean             shared;    /* one tree for every thread (trees[0]), on one worker */
} TreeWalk;

static gpointer
tree_worker (gpointer data)
{
  TreeWalk *walk = data;
  Ticks ticks = { 0, walk->progress, walk->cancellable };
  guint i;

  while (!g_atomic_int_get (&walk->cancelled) && (i = (guint) g_atomic_int_add (&walk->next, 1)) < walk->threads->len)
    {
      StrobeCostTree *tree = walk->shared ? walk->trees[0] : NULL;
      StrobeScopeThread *th;

      if (tree == NULL)
        {
          tree = new_tree ();
          /* The two outermost levels always kept: the lumped paths are deep ones. */
          strobe_cost_tree_set_node_limit (tree, walk->limits[i], STROBE_CALL_OTHER, 2);
          walk->trees[i] = tree;
        }
      strobe_timeline_model_read_lock (walk->model);
      th = strobe_timeline_model_peek_thread (walk->model, g_array_index (walk->threads, ThreadSize, i).id);
      if (th && !thread_tree (th, walk->t0, walk->t1, tree, &ticks))
        g_atomic_int_set (&walk->cancelled, TRUE);
      strobe_timeline_model_read_unlock (walk->model);
    }
  return NULL;
}

/* A child of one path in one of the trees merged. */
typedef struct
{
  guint64 key;
  guint32 tree;
  guint32 node;
} Part;

static gint
part_cmp (gconstpointer a, gconstpointer b)
{
  const Part *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->tree > y->tree) - (x->tree < y->tree);
}

/* The children of one path, @at (its node in each tree that has it, by tree), merged
 * under @out_node (every node made here is new, one a key under each parent: appended,
 * not looked up). A child kept in one tree and lumped in another (which has an "other
 * call paths" node here, and not that child) would miss the lumped instances: it goes
 * whole into "other" too, so every path kept has its exact costs. */
static void
merge_children (StrobeCostTree *out, guint32 out_node, StrobeCostTree **trees, const Part *at, guint n_at)
{
  g_autoptr(GArray) kids = NULL;
  g_autofree gboolean *lumped = NULL;
  guint64 other_count = 0, other_time = 0;
  guint n_lumped = 0;

  /* A path of one thread only (most, where threads call different code). */
  if (n_at == 1)
    {
      strobe_cost_tree_graft (out, out_node, trees[at[0].tree], at[0].node);
      return;
    }
  kids = g_array_new (FALSE, FALSE, sizeof (Part));
  lumped = g_new0 (gboolean, n_at);

  for (guint k = 0; k < n_at; k++)
    for (guint32 c = strobe_cost_tree_get_first_child (trees[at[k].tree], at[k].node); c != STROBE_COST_NODE_NONE;
         c = strobe_cost_tree_get_next_sibling (trees[at[k].tree], c))
      {
        Part p = { strobe_cost_tree_get_key (trees[at[k].tree], c), k, c };

        g_array_append_val (kids, p);
        if (p.key == STROBE_CALL_OTHER)
          lumped[k] = TRUE, n_lumped++;
      }
  g_array_sort (kids, part_cmp);
  for (guint g = 0, e; g < kids->len; g = e)
    {
      const Part *first = &g_array_index (kids, Part, g);
      guint64 count = 0, time = 0;
      guint n_lumped_here = 0;
      g_autofree Part *next = NULL;

      for (e = g; e < kids->len && g_array_index (kids, Part, e).key == first->key; e++)
        {
          const Part *p = &g_array_index (kids, Part, e);

          count += strobe_cost_tree_get_inclusive (trees[at[p->tree].tree], p->node, STROBE_CALL_COUNT);
          time += strobe_cost_tree_get_inclusive (trees[at[p->tree].tree], p->node, STROBE_CALL_TIME);
          n_lumped_here += lumped[p->tree];
        }
      if (first->key == STROBE_CALL_OTHER || n_lumped_here < n_lumped)
        {
          other_count += count;
          other_time += time;
          continue;
        }
      {
        guint32 node = strobe_cost_tree_append_child (out, out_node, first->key);
        gboolean leaf = TRUE;

        strobe_cost_tree_add (out, node, STROBE_CALL_COUNT, FALSE, count);
        strobe_cost_tree_add (out, node, STROBE_CALL_TIME, FALSE, time);
        next = g_new (Part, e - g);
        for (guint k = g; k < e; k++)
          {
            const Part *p = &g_array_index (kids, Part, k);
            next[k - g] = (Part) { 0, at[p->tree].tree, p->node };
            leaf = leaf && strobe_cost_tree_get_first_child (trees[at[p->tree].tree], p->node) == STROBE_COST_NODE_NONE;
          }
        if (!leaf)
          merge_children (out, node, trees, next, e - g);
      }
    }
  if (other_count)
    {
      guint32 node = strobe_cost_tree_append_child (out, out_node, STROBE_CALL_OTHER);

      strobe_cost_tree_add (out, node, STROBE_CALL_COUNT, FALSE, other_count);
      strobe_cost_tree_add (out, node, STROBE_CALL_TIME, FALSE, other_time);
    }
}

#define TREE_WORKERS 2

StrobeCostTree *
strobe_call_tree_compute_full (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id,
                               gint *progress, GCancellable *cancellable, GError **error)
{
  TreeWalk walk = { 0 };
  g_autoptr(StrobeCostTree) tree = NULL;
  g_autofree Part *roots = NULL;
  guint64 total = 0, in_range;
  gboolean stopped;
  guint32 limit = (guint32) MAX (g_atomic_int_get (&node_limit), 1);
  guint n_workers;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  walk.model = model;
  walk.threads = threads_by_size (model, thread_id, t0, t1);
  walk.trees = g_new0 (StrobeCostTree *, MAX (walk.threads->len, 1));
  walk.limits = g_new (guint32, MAX (walk.threads->len, 1));
  walk.t0 = t0;
  walk.t1 = t1;
  walk.progress = progress;
  walk.cancellable = cancellable;
  /* Each thread a share of the nodes as large as its share of the scopes (a fixed one,
   * so the tree does not depend on which worker ends first). */
  for (guint i = 0; i < walk.threads->len; i++)
    total += g_array_index (walk.threads, ThreadSize, i).scopes;
  for (guint i = 0; i < walk.threads->len; i++)
    walk.limits[i] = (guint32) MAX (1, total ? (guint64) limit * g_array_index (walk.threads, ThreadSize, i).scopes / total
                                             : limit / walk.threads->len);
  /* A range with fewer scopes than the tree keeps nodes cannot lump a path: one tree, one
   * pass (a thread's tree each, merged, cost more than the walk there). Otherwise two
   * cores take the walk, which waits on memory more than it computes, at nearly twice
   * the speed; the workers inherit this thread's priority (a viewer's is lowered). */
  in_range = 0;
  for (guint i = 0; i < walk.threads->len; i++)
    in_range += g_array_index (walk.threads, ThreadSize, i).in_range;
  walk.shared = in_range <= limit;
  if (walk.shared)
    walk.trees[0] = new_tree ();
  n_workers = walk.shared ? 1 : CLAMP (MIN (walk.threads->len, g_get_num_processors ()), 1, TREE_WORKERS);
  strobe_track_units_run ("strobe-tree", tree_worker, &walk, 0, n_workers);

  /* The walk stops only when cancelled: the error says so. */
  stopped = g_cancellable_set_error_if_cancelled (cancellable, error) || walk.cancelled;
  if (!stopped && walk.shared)
    tree = g_steal_pointer (&walk.trees[0]);
  else if (!stopped)
    {
      tree = new_tree ();
      roots = g_new (Part, MAX (walk.threads->len, 1));
      for (guint i = 0; i < walk.threads->len; i++)
        {
          roots[i] = (Part) { 0, i, 0 };
          strobe_cost_tree_add (tree, 0, STROBE_CALL_COUNT, FALSE,
                                strobe_cost_tree_get_inclusive (walk.trees[i], 0, STROBE_CALL_COUNT));
          strobe_cost_tree_add (tree, 0, STROBE_CALL_TIME, FALSE,
                                strobe_cost_tree_get_inclusive (walk.trees[i], 0, STROBE_CALL_TIME));
        }
      merge_children (tree, 0, walk.trees, roots, walk.threads->len);
    }
  for (guint i = 0; i < walk.threads->len; i++)
    g_clear_pointer (&walk.trees[i], strobe_cost_tree_unref);
  g_free (walk.trees);
  g_free (walk.limits);
  g_array_unref (walk.threads);
  if (tree == NULL)
    return NULL;
  /* Exclusive time, and children largest first (ties by name id) for the flame graph. */
  strobe_cost_tree_compute_self (tree);
  strobe_cost_tree_sort_children (tree, STROBE_CALL_TIME, STROBE_COST_SORT_DESCENDING | STROBE_COST_SORT_TIE_BY_KEY);
  strobe_cost_tree_trim (tree);
  return g_steal_pointer (&tree);
}

void
strobe_call_tree_get_node (StrobeCostTree *tree, guint32 node, StrobeCallNode *out)
{
  g_return_if_fail (tree != NULL && out != NULL);
  g_return_if_fail (node < strobe_cost_tree_get_n_nodes (tree));

  out->name_id = (guint32) strobe_cost_tree_get_key (tree, node);
  out->parent = node == 0 ? STROBE_CALL_NONE : strobe_cost_tree_get_parent (tree, node);
  out->first_child = strobe_cost_tree_get_first_child (tree, node);
  out->next_sibling = strobe_cost_tree_get_next_sibling (tree, node);
  out->depth = strobe_cost_tree_get_depth (tree, node);
  out->count = strobe_cost_tree_get_inclusive (tree, node, STROBE_CALL_COUNT);
  out->inclusive = strobe_cost_tree_get_inclusive (tree, node, STROBE_CALL_TIME);
  out->exclusive = strobe_cost_tree_get_self (tree, node, STROBE_CALL_TIME);
}

static gint
link_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeCallLink *x = a, *y = b;

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* Unreal Insights' butterfly counts a recursive timer at each level, and the outermost
 * scopes' caller is "none" (the root's key). */
static GArray *
links (StrobeCostTree *tree, guint32 name_id, gboolean callers)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeCallLink));
  g_autoptr(StrobeCostCalls) calls = NULL;
  const guint32 *list;
  guint f, n = 0;

  g_return_val_if_fail (tree != NULL, out);

  calls = strobe_cost_calls_new (tree, STROBE_COST_CALLS_EACH_LEVEL | STROBE_COST_CALLS_ROOT_CALLS, NULL, NULL);
  f = strobe_cost_calls_find (calls, name_id);
  if (f == G_MAXUINT || name_id == STROBE_CALL_NONE)
    return out;
  list = callers ? strobe_cost_calls_get_callers (calls, f, &n) : strobe_cost_calls_get_callees (calls, f, &n);
  for (guint i = 0; i < n; i++)
    {
      guint other = callers ? strobe_cost_calls_get_caller (calls, list[i]) : strobe_cost_calls_get_callee (calls, list[i]);
      StrobeCallLink l;

      l.name_id = (guint32) strobe_cost_calls_get_key (calls, other);
      l.count = strobe_cost_calls_get_value (calls, list[i], STROBE_CALL_COUNT);
      l.inclusive = strobe_cost_calls_get_value (calls, list[i], STROBE_CALL_TIME);
      g_array_append_val (out, l);
    }
  g_array_sort (out, link_cmp);
  return out;
}

GArray *
strobe_call_tree_callers (StrobeCostTree *tree, guint32 name_id)
{
  return links (tree, name_id, TRUE);
}

GArray *
strobe_call_tree_callees (StrobeCostTree *tree, guint32 name_id)
{
  return links (tree, name_id, FALSE);
}

/* @table's names with a count, as StrobeCallLinks largest first. */
static GArray *
links_out (const Links *l, const guint64 *table, gboolean with_none)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeCallLink));

  for (gsize at = 0; at < (gsize) l->n_names + (with_none ? 1 : 0); at++)
    if (table[2 * at] != 0)
      {
        StrobeCallLink link = { at == l->n_names ? STROBE_CALL_NONE : (guint32) at, table[2 * at], table[2 * at + 1] };
        g_array_append_val (out, link);
      }
  g_array_sort (out, link_cmp);
  return out;
}

/* One walk of the links shared by a few workers, each taking the next track (a depth of
 * a thread, largest first) and summing into its own tables: one name's links, or every
 * pair's (pairs TRUE). */
typedef struct
{
  StrobeTimelineModel *model;
  GArray              *tracks;    /* StrobeTrackUnit, largest first */
  gint                 next;
  guint64              t0, t1;
  guint32              name;
  gboolean             pairs;
  gint                *progress;
  GCancellable        *cancellable;
} LinksWalk;

typedef struct
{
  LinksWalk *walk;
  Links      links;
  Pairs      pairs;
  gboolean   ok;
} LinksWorker;

static gpointer
links_worker (gpointer data)
{
  LinksWorker *w = data;
  LinksWalk *walk = w->walk;
  Ticks ticks = { 0, walk->progress, walk->cancellable };
  g_autofree Cursor *cursors = g_new (Cursor, 2);
  guint i;

  w->ok = TRUE;
  while (w->ok && (i = (guint) g_atomic_int_add (&walk->next, 1)) < walk->tracks->len)
    {
      const StrobeTrackUnit *t = &g_array_index (walk->tracks, StrobeTrackUnit, i);
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (walk->model);
      th = strobe_timeline_model_peek_thread (walk->model, t->id);
      if (th && t->depth < th->tracks->len)
        w->ok = walk->pairs ? depth_pairs (th, t->depth, walk->t0, walk->t1, &w->pairs, &ticks, &cursors[0], &cursors[1])
                            : depth_links (th, t->depth, walk->t0, walk->t1, &w->links, &ticks, &cursors[0], &cursors[1]);
      strobe_timeline_model_read_unlock (walk->model);
    }
  return NULL;
}

/* @from's sums added to @into's. */
static void
links_merge (Links *into, const Links *from)
{
  if (from->n_names > into->n_names)
    links_grow (into, from->n_names - 1);
  for (gsize at = 0; at < 2 * (gsize) from->n_names; at++)
    {
      into->callers[at] += from->callers[at];
      into->callees[at] += from->callees[at];
    }
  into->callers[2 * (gsize) into->n_names] += from->callers[2 * (gsize) from->n_names];
  into->callers[2 * (gsize) into->n_names + 1] += from->callers[2 * (gsize) from->n_names + 1];
}

#define LINKS_WORKERS 2

/* The walk on up to LINKS_WORKERS workers (@w, their tables made by the caller); whether
 * every one finished. Two cores take it at nearly twice the speed; the workers inherit
 * this thread's priority (a viewer's is lowered). */
static gboolean
links_run (LinksWalk *walk, LinksWorker *w, guint n_workers)
{
  gboolean ok = TRUE;

  for (guint k = 0; k < n_workers; k++)
    w[k].walk = walk;
  strobe_track_units_run ("strobe-links", links_worker, w, sizeof *w, n_workers);
  for (guint k = 0; k < n_workers; k++)
    ok = ok && w[k].ok;
  return ok && !g_cancellable_is_cancelled (walk->cancellable);
}

/* The walk of [@t0, @t1] on @thread_id's tracks (every thread's when below 0); how many
 * workers share it. */
static guint
links_walk_init (LinksWalk *walk, StrobeTimelineModel *model, gint thread_id, guint64 t0, guint64 t1, gint *progress,
                 GCancellable *cancellable)
{
  walk->model = model;
  walk->tracks = strobe_track_units (model, thread_id);
  walk->t0 = t0;
  walk->t1 = t1;
  walk->progress = progress;
  walk->cancellable = cancellable;
  return CLAMP (MIN (walk->tracks->len, g_get_num_processors ()), 1, LINKS_WORKERS);
}

gboolean
strobe_call_tree_links (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1, gint thread_id,
                        GArray **callers, GArray **callees, gint *progress, GCancellable *cancellable,
                        GError **error)
{
  LinksWalk walk = { 0 };
  LinksWorker w[LINKS_WORKERS] = { { 0 } };
  guint n_workers;
  guint32 n_names;
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), FALSE);
  g_return_val_if_fail (callers != NULL && callees != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  n_workers = links_walk_init (&walk, model, thread_id, t0, t1, progress, cancellable);
  walk.name = name_id;
  n_names = MAX (strobe_timeline_model_get_n_names (model), 1);
  for (guint k = 0; k < n_workers; k++)
    {
      w[k].links.name = name_id;
      w[k].links.n_names = n_names;
      w[k].links.callers = g_new0 (guint64, 2 * ((gsize) n_names + 1));
      w[k].links.callees = g_new0 (guint64, 2 * (gsize) n_names);
    }
  ok = links_run (&walk, w, n_workers);
  for (guint k = 1; k < n_workers; k++)
    links_merge (&w[0].links, &w[k].links);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error) && ok)
    {
      *callers = links_out (&w[0].links, w[0].links.callers, TRUE);
      *callees = links_out (&w[0].links, w[0].links.callees, FALSE);
    }
  else
    ok = FALSE;
  for (guint k = 0; k < n_workers; k++)
    {
      g_free (w[k].links.callers);
      g_free (w[k].links.callees);
    }
  g_array_unref (walk.tracks);
  return ok;
}

/* ---- every timer's callers and callees ---------------------------------------------- */

typedef struct
{
  guint32 caller;     /* STROBE_CALL_NONE: outermost */
  guint32 callee;
  guint64 count;
  guint64 time;
} PairEntry;

struct _StrobeCallPairs
{
  PairEntry *by_callee;   /* by callee, then caller */
  PairEntry *by_caller;   /* by caller, then callee */
  gsize      n;
};

/* Orders by (@hi, @lo) of each entry. */
static inline gint
order (guint32 hi_a, guint32 lo_a, guint32 hi_b, guint32 lo_b)
{
  guint64 a = (guint64) hi_a << 32 | lo_a, b = (guint64) hi_b << 32 | lo_b;

  return a < b ? -1 : a > b;
}

static gint
by_callee_cmp (gconstpointer a, gconstpointer b)
{
  const PairEntry *x = a, *y = b;

  return order (x->callee, x->caller, y->callee, y->caller);
}

static gint
by_caller_cmp (gconstpointer a, gconstpointer b)
{
  const PairEntry *x = a, *y = b;

  return order (x->caller, x->callee, y->caller, y->callee);
}

StrobeCallPairs *
strobe_call_tree_pairs (StrobeTimelineModel *model, guint64 t0, guint64 t1, gint thread_id, gint *progress,
                        GCancellable *cancellable, GError **error)
{
  LinksWalk walk = { 0 };
  LinksWorker w[LINKS_WORKERS] = { { 0 } };
  StrobeCallPairs *out = NULL;
  guint n_workers;
  gsize n = 0;
  gboolean ok, full = FALSE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_workers = links_walk_init (&walk, model, thread_id, t0, t1, progress, cancellable);
  walk.pairs = TRUE;
  for (guint k = 0; k < n_workers; k++)
    pairs_init (&w[k].pairs, 6);
  ok = links_run (&walk, w, n_workers);
  for (guint k = 1; ok && k < n_workers; k++)
    for (gsize i = 0; i < (gsize) 1 << w[k].pairs.bits; i++)
      if (w[k].pairs.slots[i].key != PAIR_EMPTY)
        pairs_add (&w[0].pairs, w[k].pairs.slots[i].key, w[k].pairs.slots[i].count, w[k].pairs.slots[i].time);
  for (guint k = 0; k < n_workers; k++)
    full = full || w[k].pairs.full;
  if (full && !g_cancellable_is_cancelled (cancellable))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "More than %u caller and callee pairs in this range", pairs_max);
  else if (ok)
    {
      out = g_new0 (StrobeCallPairs, 1);
      out->n = w[0].pairs.used;
      out->by_callee = g_new (PairEntry, MAX (out->n, 1));
      for (gsize i = 0; i < (gsize) 1 << w[0].pairs.bits; i++)
        {
          const Pair *s = &w[0].pairs.slots[i];
          guint32 caller = (guint32) (s->key >> 32);

          if (s->key != PAIR_EMPTY)
            out->by_callee[n++] = (PairEntry) { caller == 0 ? STROBE_CALL_NONE : caller - 1, (guint32) s->key,
                                                s->count, s->time };
        }
      qsort (out->by_callee, out->n, sizeof (PairEntry), by_callee_cmp);
      out->by_caller = g_memdup2 (out->by_callee, MAX (out->n, 1) * sizeof (PairEntry));
      qsort (out->by_caller, out->n, sizeof (PairEntry), by_caller_cmp);
    }
  else
    g_cancellable_set_error_if_cancelled (cancellable, error);
  for (guint k = 0; k < n_workers; k++)
    g_free (w[k].pairs.slots);
  g_array_unref (walk.tracks);
  return out;
}

/* The first entry of @v (sorted by @cmp) not before @key. */
static gsize
lower_bound (const PairEntry *v, gsize n, const PairEntry *key, GCompareFunc cmp)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (cmp (&v[mid], key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The entries of @v (sorted by @cmp) whose callee (@callers) or caller is @name_id, as
 * StrobeCallLinks of the other side, largest first. */
static GArray *
pairs_of (const PairEntry *v, gsize n, guint32 name_id, gboolean callers)
{
  PairEntry key = { callers ? 0 : name_id, callers ? name_id : 0, 0, 0 };
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StrobeCallLink));

  for (gsize i = lower_bound (v, n, &key, callers ? by_callee_cmp : by_caller_cmp);
       i < n && (callers ? v[i].callee : v[i].caller) == name_id; i++)
    {
      StrobeCallLink link = { callers ? v[i].caller : v[i].callee, v[i].count, v[i].time };
      g_array_append_val (out, link);
    }
  g_array_sort (out, link_cmp);
  return out;
}

void
strobe_call_pairs_get_links (const StrobeCallPairs *pairs, guint32 name_id, GArray **callers, GArray **callees)
{
  g_return_if_fail (pairs != NULL);
  g_return_if_fail (callers != NULL && callees != NULL);

  *callers = pairs_of (pairs->by_callee, pairs->n, name_id, TRUE);
  *callees = pairs_of (pairs->by_caller, pairs->n, name_id, FALSE);
}

gsize
strobe_call_pairs_get_n_pairs (const StrobeCallPairs *pairs)
{
  g_return_val_if_fail (pairs != NULL, 0);
  return pairs->n;
}

void
strobe_call_pairs_free (StrobeCallPairs *pairs)
{
  if (pairs == NULL)
    return;
  g_free (pairs->by_callee);
  g_free (pairs->by_caller);
  g_free (pairs);
}
