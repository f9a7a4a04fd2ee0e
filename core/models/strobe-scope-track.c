/* strobe-scope-track.c — a thread's scopes at one depth, packed into varint chunks
 * (strobe-scope-track.h); the arena their full chunks are copied into.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-scope-track.h"

#include "strobe-give-way.h"
#include "strobe-timeline-model.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Full chunks are copied into blocks mapped on their own, aligned to and offered to the
 * kernel for 2 MiB pages: the storage is written once, front to back, and with 4 KiB pages
 * a fault came every few hundred scopes (under a hypervisor a third of the model's build
 * time). Pages of a block not reached yet are never resident. */
#define ARENA_BLOCK  ((gsize) 4 << 20)
#define ARENA_ALIGN  ((gsize) 2 << 20)
#define FIRST_FILL   32u

/* Blocks of arenas cleared (a model freed) wait here for the next arena, as malloc's heap
 * kept the fixed records' chunks: a fresh block's pages are faulted in and zeroed by the
 * kernel again (under this hypervisor as slow as 1 GB/s, and freed 2 MiB pages are handed
 * back to the host, which zeroes them once more), where a kept one is written at once.
 * MADV_FREE'd: the kernel may still take their pages when it needs them. */
#define POOL_MAX 32
static GMutex  pool_lock;
static guint8 *pool[POOL_MAX];
static guint   pool_len;

static guint8 *
pool_take (void)
{
  guint8 *block = NULL;

  g_mutex_lock (&pool_lock);
  if (pool_len)
    block = pool[--pool_len];
  g_mutex_unlock (&pool_lock);
  return block;
}

static guint8 *
block_map (void)
{
  guint8 *map = mmap (NULL, ARENA_BLOCK + ARENA_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  gsize head;

  /* The model's memory budget should keep it from coming to this, but under an
   * address-space limit the toolkit's threads may take the room it saw. */
  if (map == MAP_FAILED)
    return NULL;
  head = (ARENA_ALIGN - ((guintptr) map & (ARENA_ALIGN - 1))) & (ARENA_ALIGN - 1);
  if (head)
    munmap (map, head);
  munmap (map + head + ARENA_BLOCK, ARENA_ALIGN - head);
#ifdef MADV_HUGEPAGE
  madvise (map + head, ARENA_BLOCK, MADV_HUGEPAGE);
#endif
  return map + head;
}

static void
block_unmap (gpointer block)
{
  g_mutex_lock (&pool_lock);
  if (pool_len < POOL_MAX)
    {
#ifdef MADV_FREE
      madvise (block, ARENA_BLOCK, MADV_FREE);
#endif
      pool[pool_len++] = block;
      block = NULL;
    }
  g_mutex_unlock (&pool_lock);
  if (block)
    munmap (block, ARENA_BLOCK);
}

/* The first write to each page of a fresh block is a fault and the kernel zeroing the page
 * (2 MiB at once, slow under a hypervisor): a quarter of the model's building thread. The
 * next block is written here, on a thread of its own, while the last one fills. */
static gpointer
prefault_main (gpointer data)
{
  volatile guint8 *block = data;

  for (gsize at = 0; at < ARENA_BLOCK; at += 4096)
    {
      /* A huge page is one fault of 2–2.5 ms here; small pages a megabyte at a time. */
      if ((at & ((1u << 20) - 1)) == 0)
        strobe_give_way ();
      block[at] = 0;
    }
  return NULL;
}

/* A new block for the arena: the one faulted in ahead if there is one; and, from the
 * second block on (a small trace keeps one), the next mapped and faulted in ahead. */
static guint8 *
arena_block (StrobeScopeArena *arena)
{
  guint8 *block;

  if (arena->prefault)
    g_thread_join (g_steal_pointer (&arena->prefault));
  if (arena->next)
    block = g_steal_pointer (&arena->next);
  else if ((block = pool_take ()) == NULL)
    block = block_map ();
  if (block == NULL || arena->blocks->len == 0)
    return block;
  /* A kept block's pages are in already. */
  if ((arena->next = pool_take ()) != NULL)
    return block;
  arena->next = block_map ();
  if (arena->next)
    arena->prefault = g_thread_try_new ("strobe-prefault", prefault_main, arena->next, NULL);
  return block;
}

void
strobe_scope_arena_init (StrobeScopeArena *arena, gboolean summaries_apart)
{
  arena->blocks = g_ptr_array_new_with_free_func (block_unmap);
  arena->used = ARENA_BLOCK;
  arena->bytes = 0;
  arena->spill = NULL;
  arena->full = FALSE;
  arena->next = NULL;
  arena->prefault = NULL;
  arena->summaries = NULL;
  arena->summaries_apart = summaries_apart;
  arena->summary_blocks = NULL;
}

void
strobe_scope_arena_sync_summaries (StrobeScopeArena *arena)
{
  if (arena->summaries == NULL)
    return;
  /* At most a queue behind (1 024 chunks): a few milliseconds. */
  strobe_timer_summary_worker_wait (arena->summaries);
  arena->bytes += (gsize) strobe_timer_summary_worker_take_bytes (arena->summaries);
  strobe_timer_summary_worker_idle (arena->summaries);
}

void
strobe_scope_arena_clear (StrobeScopeArena *arena)
{
  g_clear_pointer (&arena->summaries, strobe_timer_summary_worker_free);
  if (arena->summary_blocks)
    {
      strobe_scope_arena_clear (arena->summary_blocks);
      g_clear_pointer (&arena->summary_blocks, g_free);
    }
  if (arena->prefault)
    g_thread_join (g_steal_pointer (&arena->prefault));
  g_clear_pointer (&arena->next, block_unmap);
  g_clear_pointer (&arena->blocks, g_ptr_array_unref);
  g_clear_pointer (&arena->spill, g_ptr_array_unref);
}

/* A copy of @len bytes in the arena. */
static const guint8 *
arena_copy (StrobeScopeArena *arena, const guint8 *data, gsize len)
{
  guint8 *to;

  /* 8 bytes kept free at a block's end: a record is read with one 8-byte load. */
  if (arena->used + len + 8 > ARENA_BLOCK)
    {
      guint8 *block = arena->full ? NULL : arena_block (arena);

      if (block == NULL)
        return NULL;
      g_ptr_array_add (arena->blocks, block);
      arena->used = 0;
    }
  to = (guint8 *) arena->blocks->pdata[arena->blocks->len - 1] + arena->used;
  memcpy (to, data, len);
  arena->used += len;
  arena->bytes += len;
  return to;
}

StrobeScopeTrack *
strobe_scope_track_new (StrobeScopeArena *arena)
{
  StrobeScopeTrack *t = g_new0 (StrobeScopeTrack, 1);

  t->chunks = g_array_new (FALSE, FALSE, sizeof (StrobeScopeChunk));
  arena->bytes += sizeof *t;
  return t;
}

void
strobe_scope_track_free (gpointer track)
{
  StrobeScopeTrack *t = track;

  g_array_unref (t->chunks);
  strobe_timer_summary_free (t->summary);
  g_free (t->side);
  if (t->flags)
    g_array_unref (t->flags);
  g_free (t->fill);
  g_free (t);
}

static const guint8 *
summary_store (gpointer arena, const guint8 *bytes, gsize len)
{
  return arena_copy (arena, bytes, len);
}

/* The filling chunk's records go to the arena; the buffer is kept for the next chunk. A
 * full chunk goes into the timers' summary first, while its records are in cache. */
static void
fill_close (StrobeScopeArena *arena, StrobeScopeTrack *t)
{
  StrobeScopeChunk *c = &g_array_index (t->chunks, StrobeScopeChunk, t->chunks->len - 1);

  if ((t->n & (STROBE_SCOPE_CHUNK - 1)) == 0 && t->side_cap >= STROBE_SCOPE_CHUNK)
    {
      if (t->summary == NULL)
        {
          t->summary = strobe_timer_summary_new ();
          arena->bytes += t->summary->bytes;
        }
      if (arena->summaries_apart)
        {
          /* Building a block took as long as the walk and appends: the second core does
           * it, from the scopes beside the chunk (the records in the arena lack the
           * children's time), handed over. What it took so far is counted now. */
          if (arena->summaries == NULL)
            {
              arena->summary_blocks = g_new (StrobeScopeArena, 1);
              strobe_scope_arena_init (arena->summary_blocks, FALSE);
              arena->summaries = strobe_timer_summary_worker_new (summary_store, arena->summary_blocks);
            }
          t->summary->worker = arena->summaries;
          strobe_timer_summary_worker_add_chunk (arena->summaries, t->summary, t->chunks->len - 1, &t->side);
          arena->bytes += (gsize) strobe_timer_summary_worker_take_bytes (arena->summaries);
        }
      else
        {
          gsize before = t->summary->bytes;

          strobe_timer_summary_add_chunk (t->summary, t->chunks->len - 1, t->side, summary_store, arena);
          arena->bytes += t->summary->bytes - before;
        }
    }

  c->data = arena_copy (arena, t->fill, t->fill_len);
  if (c->data == NULL)
    {
      /* No block for it: the chunk keeps the buffer it was filled in, and the model,
       * seeing the arena full, keeps no more scopes (counted as not kept, not a crash). */
      arena->full = TRUE;
      if (arena->spill == NULL)
        arena->spill = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (arena->spill, t->fill);
      c->data = t->fill;
      t->fill = NULL;
      t->fill_cap = 0;
    }
  t->fill_len = 0;
}

static void
fill_reserve (StrobeScopeArena *arena, StrobeScopeTrack *t, guint32 need)
{
  guint32 cap = t->fill_cap ? t->fill_cap : FIRST_FILL;

  if (t->fill != NULL && t->fill_len + need <= t->fill_cap)
    return;
  while (cap < t->fill_len + need)
    cap *= 2;
  arena->bytes += cap - t->fill_cap;
  t->fill = g_realloc (t->fill, cap);
  t->fill_cap = cap;
  if (t->chunks->len && (t->n & (STROBE_SCOPE_CHUNK - 1)) != 0)
    g_array_index (t->chunks, StrobeScopeChunk, t->chunks->len - 1).data = t->fill;
}

/* Room for the filling chunk's next scope beside it. */
static void
side_reserve (StrobeScopeArena *arena, StrobeScopeTrack *t)
{
  guint in_chunk = (guint) (t->n & (STROBE_SCOPE_CHUNK - 1));
  guint32 cap = t->side_cap;

  if (in_chunk < cap)
    return;
  while (cap <= in_chunk)
    cap = cap ? cap * 2 : 8;
  arena->bytes += (cap - t->side_cap) * sizeof (StrobeTimerSummaryScope);
  t->side = g_renew (StrobeTimerSummaryScope, t->side, cap);
  t->side_cap = cap;
}

void
strobe_scope_track_append_slow (StrobeScopeArena *arena, StrobeScopeTrack *t, guint64 begin, guint64 end,
                                guint32 name_id, guint8 flags, guint64 children)
{
  guint64 duration = end >= begin ? end - begin : 0;
  StrobeScopeChunk *c;
  gint64 gap;
  guint8 *p;

  if ((t->n & (STROBE_SCOPE_CHUNK - 1)) == 0)
    {
      StrobeScopeChunk n = { begin, begin, begin, NULL };

      if (t->chunks->len && t->fill_len)
        fill_close (arena, t);
      g_array_append_val (t->chunks, n);
      t->tail = &g_array_index (t->chunks, StrobeScopeChunk, t->chunks->len - 1);
      arena->bytes += sizeof n;
    }
  else if (t->fill == NULL)
    {
      /* Finished, and now growing again: the chunk's records come back to a buffer (their
       * copy in the arena is left unused). */
      const StrobeScopeChunk *last = &g_array_index (t->chunks, StrobeScopeChunk, t->chunks->len - 1);
      const guint8 *d = last->data;
      guint left = (guint) (t->n & (STROBE_SCOPE_CHUNK - 1));

      while (left--)
        for (guint k = 0; k < 3; k++)
          (void) strobe_scope_get_varint (&d);
      t->fill_len = 0;
      fill_reserve (arena, t, (guint32) (d - last->data) + STROBE_SCOPE_REC_MAX);
      memcpy (t->fill, last->data, (gsize) (d - last->data));
      t->fill_len = (guint32) (d - last->data);
    }
  fill_reserve (arena, t, STROBE_SCOPE_REC_MAX);
  side_reserve (arena, t);
  t->side[t->n & (STROBE_SCOPE_CHUNK - 1)] = (StrobeTimerSummaryScope) { duration, duration > children ? duration - children : 0,
                                                                       name_id };
  c = &g_array_index (t->chunks, StrobeScopeChunk, t->chunks->len - 1);
  c->data = t->fill;
  gap = (gint64) (begin - ((t->n & (STROBE_SCOPE_CHUNK - 1)) ? c->last_end : c->base));
  p = t->fill + t->fill_len;
  p = strobe_scope_put_record (p, ((guint64) gap << 1) ^ (guint64) (gap >> 63), duration, name_id);
  t->fill_len = (guint32) (p - t->fill);
  c->last_begin = begin;
  c->last_end = t->last_end = begin + duration;
  if (flags)
    {
      StrobeScopeFlag f = { t->n, flags };
      if (t->flags == NULL)
        t->flags = g_array_new (FALSE, FALSE, sizeof (StrobeScopeFlag));
      g_array_append_val (t->flags, f);
      arena->bytes += sizeof f;
    }
  t->n++;
}

void
strobe_scope_track_finish (StrobeScopeArena *arena, StrobeScopeTrack *t)
{
  if (t->fill == NULL)
    return;
  if (t->chunks->len && t->fill_len)
    fill_close (arena, t);
  /* The block being summarised goes (what it takes of a chunk not full stays, a
   * chunk's worth at most, for a trace that grows again): if scopes come after, the
   * summary goes on from the next block, or stops. */
  if (t->summary && arena->summaries)
    strobe_timer_summary_worker_pause (arena->summaries, t->summary,
                                       t->chunks->len - ((t->n & (STROBE_SCOPE_CHUNK - 1)) ? 1 : 0));
  else if (t->summary)
    {
      gsize before = t->summary->bytes;
      strobe_timer_summary_pause (t->summary, t->chunks->len - ((t->n & (STROBE_SCOPE_CHUNK - 1)) ? 1 : 0),
                                  summary_store, arena);
      arena->bytes += t->summary->bytes - before;
    }
  arena->bytes -= t->fill_cap;
  g_clear_pointer (&t->fill, g_free);
  t->fill_len = t->fill_cap = 0;
}

/* A position at the first scope of chunk @ci (< the chunks), its flags entry found. */
static StrobeScopePos
pos_at_chunk (const StrobeScopeTrack *t, guint ci)
{
  StrobeScopePos p = { ci, 0, 0, 0, 0, 0, 0, 0 };

  if (t->flags)
    {
      guint64 index = (guint64) ci << STROBE_SCOPE_CHUNK_SHIFT;
      guint lo = 0, hi = t->flags->len;

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (g_array_index (t->flags, StrobeScopeFlag, mid).index < index)
            lo = mid + 1;
          else
            hi = mid;
        }
      p.fi = lo;
    }
  strobe_scope_pos_decode (t, &p, strobe_scope_chunk (t, ci)->base);
  return p;
}

static StrobeScopePos
pos_end (const StrobeScopeTrack *t)
{
  StrobeScopePos p = { t->chunks->len, 0, 0, 0, 0, 0, 0, 0 };
  return p;
}

/* The first scope whose end (@by_end) or begin is at or after @time: a binary search over
 * the chunks' last ends or begins, then a walk in the one chunk. */
static StrobeScopePos
lower_bound (const StrobeScopeTrack *t, guint64 time, gboolean by_end)
{
  guint lo = 0, hi = t->chunks->len;
  StrobeScopePos p;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const StrobeScopeChunk *c = strobe_scope_chunk (t, mid);

      if ((by_end ? c->last_end : c->last_begin) >= time)
        hi = mid;
      else
        lo = mid + 1;
    }
  if (lo >= t->chunks->len)
    return pos_end (t);
  p = pos_at_chunk (t, lo);
  while ((by_end ? p.end : p.begin) < time && p.pi + 1 < strobe_scope_chunk_count (t, lo))
    strobe_scope_pos_next (t, &p);
  return p;
}

StrobeScopePos
strobe_scope_track_lower_bound_end (const StrobeScopeTrack *t, guint64 time)
{
  return lower_bound (t, time, TRUE);
}

StrobeScopePos
strobe_scope_track_lower_bound_begin (const StrobeScopeTrack *t, guint64 time)
{
  return lower_bound (t, time, FALSE);
}

StrobeScopePos
strobe_scope_track_seek (const StrobeScopeTrack *t, guint64 index)
{
  StrobeScopePos p;
  guint pi;

  if (index >= t->n)
    return pos_end (t);
  p = pos_at_chunk (t, (guint) (index >> STROBE_SCOPE_CHUNK_SHIFT));
  pi = (guint) (index & (STROBE_SCOPE_CHUNK - 1));
  while (p.pi < pi)
    strobe_scope_pos_next (t, &p);
  return p;
}

/* The end of the run of scopes from @p (whose begin is below @limit): @q, the first scope
 * that begins at or after @limit, and @last, the one before it (its begin and end only).
 * A short run is walked; a longer one is found by the chunks' last begins and a walk in
 * its last chunk, the scope before the chunk's first being the previous chunk's last.
 * Seeking the last again from its chunk's start (up to 127 records decoded) was a third
 * of a tile's time at the whole trace's zoom. */
static void
run_end (const StrobeScopeTrack *t, StrobeScopePos p, guint64 limit, StrobeScopePos *q, StrobeScopePos *last)
{
  guint lo, hi;

  *last = p;
  for (guint i = 0; i < 16; i++)
    {
      *q = *last;
      strobe_scope_pos_next (t, q);
      if (!strobe_scope_pos_valid (t, *q) || q->begin >= limit)
        return;
      *last = *q;
    }
  lo = last->ci;
  hi = t->chunks->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (strobe_scope_chunk (t, mid)->last_begin >= limit)
        hi = mid;
      else
        lo = mid + 1;
    }
  if (lo >= t->chunks->len)
    {
      const StrobeScopeChunk *c = strobe_scope_chunk (t, t->chunks->len - 1);

      *q = pos_end (t);
      last->begin = c->last_begin;
      last->end = c->last_end;
      return;
    }
  if (lo > last->ci)
    {
      const StrobeScopeChunk *c = strobe_scope_chunk (t, lo - 1);

      *q = pos_at_chunk (t, lo);
      last->begin = c->last_begin;
      last->end = c->last_end;
    }
  else
    *q = *last;
  while (q->begin < limit)
    {
      *last = *q;
      strobe_scope_pos_next (t, q);
    }
}

void
strobe_scope_track_blocks (const StrobeScopeTrack *t, guint depth, guint64 t0, guint64 t1, guint64 r, GArray *out)
{
  StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);
  gboolean last_merged = FALSE;

  while (strobe_scope_pos_valid (t, p))
    {
      StrobeTimelineBlock b;
      guint64 begin = strobe_scope_begin_at (t, p), end, limit;
      StrobeScopePos q;
      guint64 i0, i1;

      if (begin > t1)
        break;
      end = strobe_scope_end_at (t, p);
      b.begin = begin;
      b.name_id = strobe_scope_name_at (t, p);
      b.depth = (guint16) depth;
      b.flags = strobe_scope_flags_at (t, p);
      if (end - begin >= r)
        {
          /* Wide enough to be seen: exact. */
          b.end = end;
          b.count = 1;
          g_array_append_val (out, b);
          last_merged = FALSE;
          strobe_scope_pos_next (t, &p);
          continue;
        }
      /* Narrow: every scope that begins within one resolution step goes into one block.
       * Only the last of them can be wide (they do not overlap); it stays out. */
      limit = begin > G_MAXUINT64 - r ? G_MAXUINT64 : begin + r;
      i0 = strobe_scope_pos_index (t, p);
      {
        StrobeScopePos last;

        run_end (t, p, limit, &q, &last);
        i1 = strobe_scope_pos_index (t, q);
        if (i1 - i0 > 1 && last.end - last.begin >= r)
          {
            q = strobe_scope_track_seek (t, i1 - 1);
            i1--;
            last = strobe_scope_track_seek (t, i1 - 1);
          }
        b.end = last.end;
      }
      b.count = (guint32) MIN (i1 - i0, G_MAXUINT32);
      /* Runs that follow each other closely merge into one block. */
      if (last_merged)
        {
          StrobeTimelineBlock *prev = &g_array_index (out, StrobeTimelineBlock, out->len - 1);
          if (b.begin - prev->end < r)
            {
              prev->end = b.end;
              prev->count = (guint32) MIN ((guint64) prev->count + b.count, G_MAXUINT32);
              prev->flags |= b.flags;
              p = q;
              continue;
            }
        }
      g_array_append_val (out, b);
      last_merged = TRUE;
      p = q;
    }
}
