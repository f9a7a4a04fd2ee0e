/* strobe-scope-search.c — the names that match are found once; then one pass over every
 * track compares a name id per scope against that set. A track's summary blocks (its
 * timers', strobe-timer-summary.h) say which names each 16 384 scopes hold and their
 * longest: a block with nothing wanted in it is jumped over, its count taken as it is —
 * on a big trace, most of them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "strobe-scope-search.h"
#include "strobe-timeline-model-private.h"

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

/* A time by which the earliest @max scopes named in @set surely began, from the summary
 * blocks alone (G_MAXUINT64 when they do not hold that many): every block ending by then
 * counted, the fewest such blocks that hold @max. Blocks that begin after it need no walk. */
static guint64
horizon_of (StrobeTimelineModel *model, GArray *ids, const guint8 *set, guint32 n_names, guint32 n_set, guint max,
            GCancellable *cancellable)
{
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (BlockCount));
  guint64 sum = 0;

  for (guint i = 0; i < ids->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, g_array_index (ids, guint16, i));
      for (guint d = 0; th != NULL && d < th->tracks->len; d++)
        {
          StrobeScopeTrack *t = th->tracks->pdata[d];
          guint c0, c1;

          for (guint k = 0; t->summary != NULL && block_chunks (t, k, &c0, &c1); k++)
            {
              BlockCount b;

              b.count = strobe_timer_summary_block_count (t->summary, k, set, 0, n_names, n_set, NULL);
              b.last_end = strobe_scope_chunk (t, c1 - 1)->last_end;
              if (b.count)
                g_array_append_val (blocks, b);
            }
        }
      strobe_timeline_model_read_unlock (model);
    }
  g_array_sort (blocks, by_last_end);
  for (guint i = 0; i < blocks->len; i++)
    if ((sum += g_array_index (blocks, BlockCount, i).count) >= max)
      return g_array_index (blocks, BlockCount, i).last_end;
  return G_MAXUINT64;
}

GArray *
strobe_scope_search (StrobeTimelineModel *model, const char *text, guint max, guint64 *total,
                     GCancellable *cancellable, GError **error)
{
  g_autofree char *needle = NULL;
  g_autofree guint8 *set = NULL;
  g_autoptr(GArray) ids = NULL;
  GArray *out;
  guint n_names, n_set = 0, tick = 0;
  guint64 count = 0, horizon = G_MAXUINT64;
  gboolean any = FALSE, cancelled = FALSE;

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
  ids = strobe_timeline_model_get_threads (model);
  if (any && max > 0)
    horizon = horizon_of (model, ids, set, n_names, n_set, max, cancellable);
  for (guint i = 0; any && !cancelled && i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th != NULL && !cancelled)
        {
          for (guint d = 0; d < th->tracks->len && !cancelled; d++)
            {
              StrobeScopeTrack *t = th->tracks->pdata[d];
              StrobeScopePos p = strobe_scope_track_lower_bound_end (t, 0);
              guint64 in_track = 0;
              gboolean last_empty = TRUE;
              guint unread = 0;

              for (; strobe_scope_pos_valid (t, p) && !cancelled; strobe_scope_pos_next (t, &p))
                {
                  guint32 name;
                  guint64 in_block, next;
                  guint k;
                  StrobeScopeMatch m;

                  /* A block with none, or whose scopes cannot be among the earliest
                   * @max (this track gave that many already, or it begins after the
                   * @max-th kept): counted, not walked. Where the last block read held
                   * some, the next likely does too: its summary (a tenth of a walk of
                   * it) is read only now and then. */
                  while (block_at (t, p, 0, G_MAXUINT64, &k, &next))
                    {
                      gboolean late = in_track >= max || strobe_scope_begin_at (t, p) > horizon;

                      if (!late && !last_empty && ++unread % 8 != 0)
                        break;
                      in_block = strobe_timer_summary_block_count (t->summary, k, set, 0, n_names, n_set, NULL);
                      last_empty = in_block == 0;
                      if (!late && in_block != 0)
                        break;
                      count += in_block;
                      p = strobe_scope_track_seek (t, next);
                      if (G_UNLIKELY (++tick % 64 == 0) && g_cancellable_is_cancelled (cancellable))
                        cancelled = TRUE;
                    }
                  if (!strobe_scope_pos_valid (t, p) || cancelled)
                    break;
                  name = strobe_scope_name_at (t, p);
                  if (G_UNLIKELY (++tick % 8192 == 0) && g_cancellable_is_cancelled (cancellable))
                    cancelled = TRUE;
                  if (name >= n_names || !set[name])
                    continue;
                  count++;
                  in_track++;
                  m.begin = strobe_scope_begin_at (t, p);
                  m.end = strobe_scope_end_at (t, p);
                  m.name_id = name;
                  m.thread_id = id;
                  m.depth = (guint16) MIN (d, G_MAXUINT16);
                  g_array_append_val (out, m);
                  /* Over the cap: keep the earliest, trimmed now and then. */
                  if (out->len >= 2 * (gsize) MAX (max, 1))
                    {
                      g_array_sort (out, match_cmp);
                      g_array_set_size (out, max);
                      if (max > 0)
                        horizon = MIN (horizon, g_array_index (out, StrobeScopeMatch, max - 1).begin);
                    }
                }
            }
        }
      strobe_timeline_model_read_unlock (model);
    }
  if (cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (out);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  g_array_sort (out, match_cmp);
  if (out->len > max)
    g_array_set_size (out, max);
  if (total)
    *total = count;
  return out;
}

gboolean
strobe_scope_search_longest (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1,
                             StrobeScopeMatch *out, GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) ids = NULL;
  const guint8 one = 1;
  gboolean found = FALSE;
  guint64 best = 0;
  guint tick = 0;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th != NULL)
        {
          for (guint d = 0; d < th->tracks->len; d++)
            {
              StrobeScopeTrack *t = th->tracks->pdata[d];
              StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);

              for (; strobe_scope_pos_valid (t, p); strobe_scope_pos_next (t, &p))
                {
                  guint64 b, e, longest, next;
                  guint k;

                  /* A block with none, or none longer than the one found: jumped. */
                  while (block_at (t, p, t0, t1, &k, &next)
                         && (strobe_timer_summary_block_count (t->summary, k, &one, name_id, 1, 1, &longest) == 0
                             || (found && longest <= best)))
                    p = strobe_scope_track_seek (t, next);
                  if (!strobe_scope_pos_valid (t, p))
                    break;
                  b = strobe_scope_begin_at (t, p);

                  if (b > t1)
                    break;
                  if (strobe_scope_name_at (t, p) != name_id)
                    continue;
                  e = strobe_scope_end_at (t, p);
                  if (!found || e - b > best)
                    {
                      found = TRUE;
                      best = e - b;
                      out->begin = b;
                      out->end = e;
                      out->name_id = name_id;
                      out->thread_id = id;
                      out->depth = (guint16) MIN (d, G_MAXUINT16);
                    }
                  if (++tick % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
                    {
                      strobe_timeline_model_read_unlock (model);
                      g_cancellable_set_error_if_cancelled (cancellable, error);
                      return FALSE;
                    }
                }
            }
        }
      strobe_timeline_model_read_unlock (model);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return found;
}
