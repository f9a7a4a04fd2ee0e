/* strobe-memory-round.c — see strobe-memory-round.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-round.h"

typedef struct
{
  guint16           thread;
  guint             shift;
  StrobeMemrecState s;          /* at the first record; while merging, the reader's */
  guint64           skip_below;
  gsize             data, data_len, times, times_len;  /* offsets into bytes */
  /* While merging: */
  StrobeMemrecBatch reader;
  StrobeMemrec      rec;        /* the next record to yield */
  guint64           ticks;
} RoundBatch;

void
strobe_memory_round_init (StrobeMemoryRound *r)
{
  r->bytes = g_byte_array_new ();
  r->batches = g_array_new (FALSE, FALSE, sizeof (RoundBatch));
  r->records = 0;
}

void
strobe_memory_round_clear (StrobeMemoryRound *r)
{
  g_clear_pointer (&r->bytes, g_byte_array_unref);
  g_clear_pointer (&r->batches, g_array_unref);
}

void
strobe_memory_round_add (StrobeMemoryRound *r, guint16 thread, guint shift, const StrobeMemrecState *s,
                         guint64 skip_below, guint64 n, const guint8 *data, gsize len,
                         const guint8 *times, gsize times_len)
{
  RoundBatch b = { 0 };

  b.thread = thread;
  b.shift = shift;
  b.s = *s;
  b.skip_below = skip_below;
  b.data = r->bytes->len;
  b.data_len = len;
  g_byte_array_append (r->bytes, data, (guint) len);
  b.times = r->bytes->len;
  b.times_len = times_len;
  g_byte_array_append (r->bytes, times, (guint) times_len);
  g_array_append_val (r->batches, b);
  r->records += n;
}

/* The batch's next applied record into b->rec; FALSE at its end (or its first malformed
 * record, where the count of strobe_memory_round_add's caller stopped too). */
static gboolean
fetch (RoundBatch *b)
{
  for (;;)
    {
      guint64 seq = b->s.seq;

      if (strobe_memrec_batch_next (&b->reader, &b->s, &b->rec) <= 0)
        return FALSE;
      if (seq < b->skip_below || !strobe_memory_round_applies (b->rec.kind))
        continue;
      b->ticks = strobe_memory_units_to_ticks (b->rec.time, b->shift);
      return TRUE;
    }
}

/* Min-heap of batch indexes by (ticks, index): the index breaks ties as a stable sort. */
static inline gboolean
before (const RoundBatch *v, guint i, guint j)
{
  return v[i].ticks < v[j].ticks || (v[i].ticks == v[j].ticks && i < j);
}

static void
sift_down (const RoundBatch *v, guint *heap, guint n, guint k)
{
  for (;;)
    {
      guint l = 2 * k + 1, m = k;

      if (l < n && before (v, heap[l], heap[m]))
        m = l;
      if (l + 1 < n && before (v, heap[l + 1], heap[m]))
        m = l + 1;
      if (m == k)
        return;
      guint t = heap[k];
      heap[k] = heap[m];
      heap[m] = t;
      k = m;
    }
}

void
strobe_memory_round_drain (StrobeMemoryRound *r,
                           void (*fn) (const StrobeMemrec *rec, guint16 thread, guint64 ticks, gpointer user),
                           gpointer user)
{
  RoundBatch *v = (RoundBatch *) (void *) r->batches->data;
  guint n = 0, *heap = g_new (guint, MAX (r->batches->len, 1));

  for (guint i = 0; i < r->batches->len; i++)
    {
      RoundBatch *b = &v[i];

      if (!strobe_memrec_batch_init (&b->reader, r->bytes->data + b->data, b->data_len, r->bytes->data + b->times,
                                     b->times_len))
        continue;
      if (fetch (b))
        heap[n++] = i;
    }
  for (guint k = n / 2; k-- > 0;)
    sift_down (v, heap, n, k);
  while (n > 0)
    {
      RoundBatch *b = &v[heap[0]];

      fn (&b->rec, b->thread, b->ticks, user);
      if (!fetch (b))
        heap[0] = heap[--n];
      sift_down (v, heap, n, 0);
    }
  g_free (heap);
  g_byte_array_set_size (r->bytes, 0);
  g_array_set_size (r->batches, 0);
  r->records = 0;
}

gsize
strobe_memory_round_bytes (const StrobeMemoryRound *r)
{
  return r->bytes->len + r->batches->len * sizeof (RoundBatch);
}
