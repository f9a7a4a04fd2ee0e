/* strobe-memory-snapshot.c — Memory.Live: what the live table holds when memory tracing
 * into an output begins, so a trace that starts in the middle of a program knows every
 * block still live then.
 *
 * Every table is locked for the copy (reports wait for its length: about a millisecond
 * per 100 000 live blocks), together with each thread's allocation counter: the reader
 * then knows that an allocation of that thread with a smaller id that is not in the
 * snapshot was freed before it, and one with a larger id came after. The copy is then
 * encoded and emitted from the calling thread without any lock; records written
 * meanwhile carry ids, so the reader matches them whatever arrives first. */
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <stdlib.h>

#define PIECE_BYTES (60u * 1024u)
#define ITEM_MAX    64u

typedef struct
{
  uint32_t heap;
  StrobeLiveEntry e;
} Item;

typedef struct
{
  Item     *items;
  size_t    n, cap;
  uint64_t (*counters)[2];   /* thread id, alloc counter */
  size_t    n_counters, cap_counters;
  bool      overflow;
} Copy;

static void
copy_entry (uint32_t heap, const StrobeLiveEntry *e, void *user)
{
  Copy *c = user;

  if (c->n == c->cap)
    {
      c->overflow = true;
      return;
    }
  c->items[c->n].heap = heap;
  c->items[c->n++].e = *e;
}

static void
copy_counter (Copy *c, const StrobeMemThread *mt)
{
  if (c->n_counters == c->cap_counters)
    {
      c->overflow = true;
      return;
    }
  c->counters[c->n_counters][0] = mt->thread_id;
  c->counters[c->n_counters++][1] = __atomic_load_n (&mt->alloc, __ATOMIC_RELAXED);
}

static void
copy_locked (void *user)
{
  Copy *c = user;

  c->n = c->n_counters = 0;
  c->overflow = false;
  strobe__memory_table_foreach_locked (copy_entry, c);
  pthread_mutex_lock (&strobe__memory_rings_lock);
  for (StrobeMemThread *mt = strobe__memory_rings; mt; mt = mt->next)
    copy_counter (c, mt);
  pthread_mutex_unlock (&strobe__memory_rings_lock);
  /* Not under its lock (a late writer holds that and waits for a table): its counter
   * only moves under a table lock, and all of them are held. */
  copy_counter (c, &strobe__memory_late);
}

static void
emit (uint64_t time, uint32_t flags, uint64_t count, const uint8_t *data, size_t len)
{
  STROBE_LOG (Memory, Live, StrobeTraceChannel)
    {
      STROBE_SET (Time, time);
      STROBE_SET (Shift, strobe__memory_shift);
      STROBE_SET (Flags, flags);
      STROBE_SET (Count, count);
      STROBE_SET_ARRAY (Data, data, len);
    }
}

void
strobe__memory_snapshot (bool complete)
{
  Copy c = { 0 };
  uint8_t *piece;
  size_t len = 0, in_piece = 0;
  uint64_t now;
  uint32_t flags = (complete ? STROBE_MEMLIVE_COMPLETE : 0) | STROBE_MEMLIVE_FIRST;

  strobe__memory_guard++;
  if ((piece = malloc (PIECE_BYTES + ITEM_MAX)) == NULL)
    goto out;
  for (;;)
    {
      size_t threads = 16;

      pthread_mutex_lock (&strobe__memory_rings_lock);
      for (StrobeMemThread *mt = strobe__memory_rings; mt; mt = mt->next)
        threads++;
      pthread_mutex_unlock (&strobe__memory_rings_lock);
      c.cap = strobe__memory_table_count () * 5 / 4 + 1024;
      c.cap_counters = threads * 2;
      free (c.items);
      free (c.counters);
      c.items = malloc (c.cap * sizeof *c.items);
      c.counters = malloc (c.cap_counters * sizeof *c.counters);
      if (c.items == NULL || c.counters == NULL)
        goto out;
      now = strobe_time ();
      strobe__memory_table_locked (copy_locked, &c);
      if (!c.overflow)
        break;
    }

  /* The stacks the entries name: their nodes before them. */
  strobe__memory_stack_flush ();
  for (size_t i = 0; i < c.n_counters; i++)
    {
      uint8_t *p = piece + len;
      *p++ = STROBE_MEMLIVE_THREAD;
      p = strobe_memrec_put_varint (p, c.counters[i][0]);
      p = strobe_memrec_put_varint (p, c.counters[i][1]);
      len = (size_t) (p - piece);
      if (len >= PIECE_BYTES)
        {
          emit (now, flags, in_piece, piece, len);
          flags &= ~STROBE_MEMLIVE_FIRST;
          len = in_piece = 0;
        }
    }
  for (size_t i = 0; i < c.n; i++)
    {
      const StrobeLiveEntry *e = &c.items[i].e;
      uint8_t *p = piece + len;

      *p++ = STROBE_MEMLIVE_ENTRY;
      p = strobe_memrec_put_varint (p, STROBE_LIVE_REF_THREAD (e->ref));
      p = strobe_memrec_put_varint (p, STROBE_LIVE_REF_ID (e->ref));
      p = strobe_memrec_put_varint (p, STROBE_LIVE_SIZE (e));
      p = strobe_memrec_put_varint (p, c.items[i].heap);
      p = strobe_memrec_put_varint (p, e->tag);
      p = strobe_memrec_put_varint (p, e->stack);
      p = strobe_memrec_put_varint (p, e->time);
      *p++ = STROBE_LIVE_ALIGN (e);
      p = strobe_memrec_put_varint (p, e->address);
      len = (size_t) (p - piece);
      in_piece++;
      if (len >= PIECE_BYTES)
        {
          emit (now, flags, in_piece, piece, len);
          flags &= ~STROBE_MEMLIVE_FIRST;
          len = in_piece = 0;
        }
    }
  emit (now, flags | STROBE_MEMLIVE_LAST, in_piece, piece, len);

out:
  free (piece);
  free (c.items);
  free (c.counters);
  strobe__memory_guard--;
}
