/* strobe-log-order.c — the log model's time order as immutable snapshots (see
 * strobe-log-model-private.h): chunks of record indexes in refcounted blocks, so that a
 * new snapshot shares whole blocks with the one before it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-model-private.h"

static StrobeLogOrderChunk *
chunk_new (void)
{
  StrobeLogOrderChunk *c = g_new (StrobeLogOrderChunk, 1);

  g_atomic_ref_count_init (&c->ref);
  return c;
}

static StrobeLogOrderChunk *
chunk_ref (StrobeLogOrderChunk *c)
{
  g_atomic_ref_count_inc (&c->ref);
  return c;
}

static void
chunk_unref (StrobeLogOrderChunk *c)
{
  if (g_atomic_ref_count_dec (&c->ref))
    g_free (c);
}

static StrobeLogOrderBlock *
block_new (void)
{
  StrobeLogOrderBlock *b = g_new0 (StrobeLogOrderBlock, 1);

  g_atomic_ref_count_init (&b->ref);
  return b;
}

static StrobeLogOrderBlock *
block_ref (StrobeLogOrderBlock *b)
{
  g_atomic_ref_count_inc (&b->ref);
  return b;
}

static void
block_unref (StrobeLogOrderBlock *b)
{
  if (!g_atomic_ref_count_dec (&b->ref))
    return;
  for (guint i = 0; i < STROBE_LOG_ORDER_BLOCK; i++)
    if (b->chunks[i])
      chunk_unref (b->chunks[i]);
  g_free (b);
}

static inline StrobeLogOrderChunk *
order_chunk (const StrobeLogOrder *o, guint c)
{
  return o->blocks[c / STROBE_LOG_ORDER_BLOCK]->chunks[c % STROBE_LOG_ORDER_BLOCK];
}

StrobeLogOrder *
strobe_log_order_new (guint64 n)
{
  StrobeLogOrder *o = g_new0 (StrobeLogOrder, 1);

  g_atomic_ref_count_init (&o->ref);
  o->n = n;
  o->n_chunks = (guint) ((n + STROBE_LOG_ORDER_CHUNK - 1) / STROBE_LOG_ORDER_CHUNK);
  o->n_blocks = (o->n_chunks + STROBE_LOG_ORDER_BLOCK - 1) / STROBE_LOG_ORDER_BLOCK;
  o->blocks = g_new0 (StrobeLogOrderBlock *, MAX (o->n_blocks, 1));
  return o;
}

StrobeLogOrder *
strobe_log_order_ref (StrobeLogOrder *order)
{
  g_return_val_if_fail (order != NULL, NULL);
  g_atomic_ref_count_inc (&order->ref);
  return order;
}

void
strobe_log_order_unref (StrobeLogOrder *order)
{
  g_return_if_fail (order != NULL);
  if (!g_atomic_ref_count_dec (&order->ref))
    return;
  for (guint i = 0; i < order->n_blocks; i++)
    if (order->blocks[i])
      block_unref (order->blocks[i]);
  g_free (order->blocks);
  g_free (order);
}

guint64
strobe_log_order_diff (const StrobeLogOrder *a,
                       const StrobeLogOrder *b)
{
  guint64 n;
  guint c;

  g_return_val_if_fail (a != NULL && b != NULL, 0);
  n = MIN (a->n, b->n);
  for (c = 0; (guint64) c * STROBE_LOG_ORDER_CHUNK < n; c++)
    {
      StrobeLogOrderChunk *x, *y;

      /* A block both share holds the same chunks. */
      if (c % STROBE_LOG_ORDER_BLOCK == 0 && a->blocks[c / STROBE_LOG_ORDER_BLOCK] == b->blocks[c / STROBE_LOG_ORDER_BLOCK])
        {
          c += STROBE_LOG_ORDER_BLOCK - 1;
          continue;
        }
      x = order_chunk (a, c);
      y = order_chunk (b, c);
      if (x != y)
        {
          guint64 base = (guint64) c * STROBE_LOG_ORDER_CHUNK;
          guint64 end = MIN (n, base + STROBE_LOG_ORDER_CHUNK);

          for (guint64 i = base; i < end; i++)
            if (x->idx[i - base] != y->idx[i - base])
              return i;
        }
    }
  return n;
}

void
strobe_log_order_put_slow (StrobeLogOrder *o, guint64 w, guint32 value)
{
  guint c = (guint) (w / STROBE_LOG_ORDER_CHUNK);
  StrobeLogOrderBlock **block = &o->blocks[c / STROBE_LOG_ORDER_BLOCK];
  StrobeLogOrderChunk **chunk;

  if (*block == NULL)
    *block = block_new ();
  chunk = &(*block)->chunks[c % STROBE_LOG_ORDER_BLOCK];
  if (*chunk == NULL)
    *chunk = chunk_new ();
  (*chunk)->idx[w % STROBE_LOG_ORDER_CHUNK] = value;
}


void
strobe_log_order_share (StrobeLogOrder *next, const StrobeLogOrder *old, guint c0)
{
  /* Whole blocks before the first chunk that changes are shared; that chunk's block is
   * new, sharing its chunks before it. */
  for (guint b = 0; b < c0 / STROBE_LOG_ORDER_BLOCK; b++)
    next->blocks[b] = block_ref (old->blocks[b]);
  if (c0 % STROBE_LOG_ORDER_BLOCK)
    {
      StrobeLogOrderBlock *block = next->blocks[c0 / STROBE_LOG_ORDER_BLOCK] = block_new ();

      for (guint c = c0 - c0 % STROBE_LOG_ORDER_BLOCK; c < c0; c++)
        block->chunks[c % STROBE_LOG_ORDER_BLOCK] = chunk_ref (order_chunk (old, c));
    }
}
