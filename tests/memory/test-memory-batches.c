/* test-memory-batches.c — StrobeMemoryModel reading Memory.Batch: the batches of one
 * update round merged by time across threads (ties to the batch that came first), a round
 * of one batch applied as it arrives, allocation ids that stay live while their thread's
 * window of recent ids (StrobeIdMap) moves on, by one id or by a jump, heap resets, and
 * Memory.Live snapshots ending the blocks they do not name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib.h>

#include "strobe-decoder.h"
#include "strobe-memory-model.h"
#include "strobe-memory-livemap.h"
#include "strobe-memory-records.h"
#include "test-stream-builder.h"

#define TID 16

enum
{
  UID_BATCH = TSB_UID_USER,
  UID_LIVE,
};

static Tsb *
batch_stream (void)
{
  static const TsbField batch[] = {
    { "Thread", STROBE_TYPE_UINT16 }, { "Flags", STROBE_TYPE_UINT8 }, { "Shift", STROBE_TYPE_UINT8 },
    { "Round", STROBE_TYPE_UINT32 }, { "Seq", STROBE_TYPE_UINT64 }, { "Alloc", STROBE_TYPE_UINT64 },
    { "Time", STROBE_TYPE_UINT64 }, { "Heap", STROBE_TYPE_UINT32 }, { "Tag", STROBE_TYPE_UINT32 },
    { "Stack", STROBE_TYPE_UINT32 }, { "Dropped", STROBE_TYPE_UINT64 }, { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
    { "Times", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  static const TsbField live[] = {
    { "Time", STROBE_TYPE_UINT64 }, { "Flags", STROBE_TYPE_UINT8 }, { "Shift", STROBE_TYPE_UINT8 },
    { "Data", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_BATCH, "Memory", "Batch", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (batch), batch);
  tsb_define (b, UID_LIVE, "Memory", "Live", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (live), live);
  tsb_flush_all (b, TSB_AUTO);
  return b;
}

/* A thread's state as a writer keeps it, and the bytes of its next batch. */
typedef struct
{
  guint16  thread;
  guint64  seq, alloc, time;     /* at the batch's start */
  guint64  n;                    /* records in the batch */
  guint64  cur_alloc, cur_time;
  GByteArray *data;
} Writer;

static void
writer_init (Writer *w, guint16 thread)
{
  *w = (Writer) { thread, 0, 0, 0, 0, 0, 0, g_byte_array_new () };
}

static void
put (Writer *w, const guint8 *bytes, guint8 *end)
{
  g_byte_array_append (w->data, bytes, (guint) (end - bytes));
  w->n++;
}

static void
at (Writer *w, guint64 t)
{
  guint8 buf[16], *p = buf;

  g_assert_cmpuint (t, >=, w->cur_time);
  *p++ = STROBE_MEMREC_TIME;
  p = strobe_memrec_put_varint (p, t - w->cur_time);
  put (w, buf, p);
  w->cur_time = t;
}

/* An allocation of @size: its id. */
static guint64
w_alloc (Writer *w, guint64 size)
{
  guint8 buf[16], *p = buf;

  *p++ = STROBE_MEMREC_ALLOC;
  p = strobe_memrec_put_varint (p, size);
  put (w, buf, p);
  return ++w->cur_alloc;
}

/* An allocation in @heap (sticky: the next ones too). */
static guint64
w_alloc_in (Writer *w, guint32 heap, guint64 size)
{
  guint8 buf[24], *p = buf;

  *p++ = STROBE_MEMREC_ALLOC | STROBE_MEMREC_F_HEAP;
  p = strobe_memrec_put_varint (p, heap);
  p = strobe_memrec_put_varint (p, size);
  put (w, buf, p);
  return ++w->cur_alloc;
}

static void
w_free_all (Writer *w, guint32 heap)
{
  guint8 buf[16], *p = buf;

  *p++ = STROBE_MEMREC_EXT;
  *p++ = STROBE_MEMREC_EXT_FREE_ALL;
  p = strobe_memrec_put_varint (p, heap);
  put (w, buf, p);
}

static void
w_free (Writer *w, guint64 id)
{
  guint8 buf[16], *p = buf;

  p = strobe_memrec_put_free (p, w->cur_alloc - id, false);
  put (w, buf, p);
}

static void
w_free_remote (Writer *w, guint16 thread, guint64 id)
{
  guint8 buf[24], *p = buf;

  *p++ = STROBE_MEMREC_FREE_REMOTE;
  p = strobe_memrec_put_varint (p, thread);
  p = strobe_memrec_put_varint (p, id);
  put (w, buf, p);
}

/* The thread's allocation counter jumps (ids handed out while nothing was written). */
static void
w_sync (Writer *w, guint64 alloc)
{
  guint8 buf[16], *p = buf;

  *p++ = STROBE_MEMREC_EXT;
  *p++ = STROBE_MEMREC_EXT_SYNC;
  p = strobe_memrec_put_varint (p, alloc);
  put (w, buf, p);
  w->cur_alloc = alloc;
}

/* Writes the batch (@last: the round's last) and starts the next one. */
static void
flush (Tsb *b, Writer *w, gboolean last)
{
  tsb_begin (b, TID, UID_BATCH, 0);
  tsb_set_int (b, 0, w->thread);
  tsb_set_int (b, 1, last ? 1 : 0);
  tsb_set_int (b, 4, w->seq);
  tsb_set_int (b, 5, w->alloc);
  tsb_set_int (b, 6, w->time);
  tsb_aux (b, 11, w->data->data, w->data->len);
  tsb_aux (b, 12, NULL, 0);
  tsb_end (b);
  w->seq += w->n;
  w->n = 0;
  w->alloc = w->cur_alloc;
  w->time = w->cur_time;
  g_byte_array_set_size (w->data, 0);
}

static StrobeMemoryModel *
decode (Tsb *b)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr (GError) error = NULL;
  StrobeMemoryModel *m = strobe_memory_model_new ();
  const guint8 *data;
  gsize len;

  tsb_flush_all (b, TSB_AUTO);
  data = tsb_data (b, &len);
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (m));
  strobe_decoder_feed (decoder, data, len, &error);
  g_assert_no_error (error);
  strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  return m;
}

/* Two threads' batches of one round interleave in time: the records come out in time
 * order, a tie goes to the batch that came first, and a free of the other thread's block
 * finds it allocated (it comes earlier in time, later in the stream). */
static void
test_merge (void)
{
  g_autoptr (Tsb) b = batch_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  Writer w1, w2;
  StrobeMemorySummary s;
  const guint64 sizes[] = { 100, 101, 200, 201, 202, 102 };
  const guint64 times[] = { 0, 10, 10, 20, 30, 40 };

  writer_init (&w1, 1);
  writer_init (&w2, 2);
  w_alloc (&w1, 100);                 /* t 0 */
  at (&w1, 10);
  w_alloc (&w1, 101);                 /* t 10: ties with thread 2's, whose batch comes later */
  at (&w1, 40);
  w_alloc (&w1, 102);
  at (&w2, 10);
  w_alloc (&w2, 200);
  at (&w2, 20);
  w_alloc (&w2, 201);
  at (&w2, 30);
  w_alloc (&w2, 202);
  w_free_remote (&w2, 1, 2);          /* thread 1's 101 B, at 30 */
  flush (b, &w1, FALSE);
  flush (b, &w2, TRUE);
  m = decode (b);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, ==, 6);
  g_assert_cmpuint (s.frees, ==, 1);
  g_assert_cmpuint (s.unmatched_frees, ==, 0);
  g_assert_cmpuint (s.late_records, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      StrobeMemoryAlloc a;

      g_assert_true (strobe_memory_model_get_alloc (m, i, &a));
      g_assert_cmpuint (a.size, ==, sizes[i]);
      g_assert_cmpuint (a.alloc_time, ==, times[i]);
      g_assert_cmpuint (a.free_time, ==, sizes[i] == 101 ? 30 : STROBE_MEMORY_LIVE);
    }
  g_byte_array_unref (w1.data);
  g_byte_array_unref (w2.data);
}

/* Far more ids than a window holds, freed long after (they left the window live), soon
 * after, and after a jump of the counter past the whole window; a free of an id never
 * allocated. Every figure exact; the model stays small. */
static void
test_window (void)
{
  g_autoptr (Tsb) b = batch_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  const guint64 n = 5 * STROBE_ID_WINDOW + 123;
  guint64 frees = 0, live = 0, t = 0, jumped;
  Writer w;
  StrobeMemorySummary s;

  writer_init (&w, 3);
  for (guint64 id = 1; id <= n; id++)
    {
      at (&w, ++t);
      g_assert_cmpuint (w_alloc (&w, id), ==, id);
      /* Every third freed at once; the others stay for now. */
      if (id % 3 == 0)
        {
          w_free (&w, id);
          frees++;
        }
      if (id % 1000 == 0)
        flush (b, &w, TRUE);
    }
  /* The old ones (all out of the window by now) except every seventh. */
  for (guint64 id = 1; id <= n; id++)
    if (id % 3 != 0 && id % 7 != 0)
      {
        w_free (&w, id);
        frees++;
      }
    else if (id % 3 != 0)
      live++;
  flush (b, &w, TRUE);
  /* A jump past a whole window while ids in it are live; then those freed. */
  at (&w, ++t);
  jumped = w_alloc (&w, 1);
  w_sync (&w, jumped + 3 * STROBE_ID_WINDOW);
  at (&w, ++t);
  w_alloc (&w, 2);
  w_free (&w, jumped);
  w_free (&w, w.cur_alloc);
  frees += 2;
  w_free (&w, w.cur_alloc - 7);      /* never allocated */
  flush (b, &w, TRUE);
  m = decode (b);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, ==, n + 2);
  g_assert_cmpuint (s.frees, ==, frees);
  g_assert_cmpint (s.live_count, ==, (gint64) live);
  g_assert_cmpuint (s.unmatched_frees, ==, 1);
  g_assert_cmpuint (s.lost_records, ==, 0);
  /* Record i is id i + 1: the live ones are the sevenths that are not thirds. */
  for (guint64 i = 0; i < n; i++)
    {
      StrobeMemoryAlloc a;
      guint64 id = i + 1;

      g_assert_true (strobe_memory_model_get_alloc (m, i, &a));
      g_assert_cmpuint (a.size, ==, id);
      if (id % 3 != 0 && id % 7 == 0)
        g_assert_cmpuint (a.free_time, ==, STROBE_MEMORY_LIVE);
      else
        g_assert_cmpuint (a.free_time, !=, STROBE_MEMORY_LIVE);
    }
  g_byte_array_unref (w.data);
}

/* Resets of heap 0 (whose live list the model makes at its first reset) and of another
 * heap: each ends exactly its own live blocks, the first reset and the later ones alike,
 * including blocks the window has moved past. */
static void
test_heap_resets (void)
{
  g_autoptr (Tsb) b = batch_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  g_autoptr (GPtrArray) heaps = NULL;
  guint64 old;
  Writer w;
  StrobeMemorySummary s;

  writer_init (&w, 1);
  old = w_alloc (&w, 5);                                    /* heap 0, left behind by the window */
  for (guint i = 0; i < STROBE_ID_WINDOW + 10; i++)
    w_free (&w, w_alloc (&w, 1));
  for (guint i = 0; i < 10; i++)
    w_alloc_in (&w, 0, 10);                                 /* ids old + 2 * (WINDOW + 10) + 1… */
  for (guint i = 0; i < 5; i++)
    w_alloc_in (&w, 7, 100);
  w_free (&w, w.cur_alloc - 14);                            /* two of heap 0's, one of heap 7's */
  w_free (&w, w.cur_alloc - 12);
  w_free (&w, w.cur_alloc - 3);
  w_free_all (&w, 0);                                       /* the old one and 8 more */
  flush (b, &w, TRUE);
  w_alloc_in (&w, 0, 1000);
  w_alloc (&w, 1000);
  w_alloc (&w, 1000);
  w_free (&w, w.cur_alloc - 1);
  w_free_all (&w, 0);                                       /* 2 */
  w_alloc_in (&w, 7, 100);
  flush (b, &w, TRUE);
  m = decode (b);
  strobe_memory_model_get_summary (m, &s);
  g_assert_cmpuint (s.allocs, ==, 1 + STROBE_ID_WINDOW + 10 + 15 + 3 + 1);
  g_assert_cmpuint (s.frees, ==, STROBE_ID_WINDOW + 10 + 3 + 9 + 1 + 2);
  g_assert_cmpint (s.live_count, ==, 5);
  g_assert_cmpint (s.live_bytes, ==, 500);
  g_assert_cmpuint (s.unmatched_frees, ==, 0);
  heaps = strobe_memory_model_get_heaps (m);
  for (guint i = 0; i < heaps->len; i++)
    {
      const StrobeMemoryGroup *g = g_ptr_array_index (heaps, i);
      g_assert_cmpint (g->live_count, ==, g->id == 7 ? 5 : 0);
    }
  {
    StrobeMemoryAlloc a;
    g_assert_true (strobe_memory_model_get_alloc (m, old - 1, &a));
    g_assert_cmpuint (a.free_time, !=, STROBE_MEMORY_LIVE);
    g_assert_true (a.flags & STROBE_MEMORY_ALLOC_HEAP_RESET);
  }
  g_byte_array_unref (w.data);
}

/* A Memory.Live item: a thread's allocation counter (@size 0) or a live block. */
typedef struct
{
  guint16 thread;
  guint64 id, size;
} LiveItem;

/* A Memory.Live piece of @n items. */
static void
live_event (Tsb *b, guint64 time, guint flags, const LiveItem *items, gsize n)
{
  g_autoptr (GByteArray) data = g_byte_array_new ();

  for (gsize i = 0; i < n; i++)
    {
      guint8 buf[64], *p = buf;

      *p++ = items[i].size == 0 ? STROBE_MEMLIVE_THREAD : STROBE_MEMLIVE_ENTRY;
      p = strobe_memrec_put_varint (p, items[i].thread);
      p = strobe_memrec_put_varint (p, items[i].id);
      if (items[i].size != 0)
        {
          p = strobe_memrec_put_varint (p, items[i].size);
          p = strobe_memrec_put_varint (p, 0);                     /* heap */
          p = strobe_memrec_put_varint (p, 0);                     /* tag */
          p = strobe_memrec_put_varint (p, 0);                     /* stack */
          p = strobe_memrec_put_varint (p, 1);                     /* time */
          *p++ = 3;                                                /* alignment 8 */
          p = strobe_memrec_put_varint (p, 0x1000 * items[i].size); /* address */
        }
      g_byte_array_append (data, buf, (guint) (p - buf));
    }
  tsb_begin (b, TID, UID_LIVE, 0);
  tsb_set_int (b, 0, time);
  tsb_set_int (b, 1, flags);
  tsb_aux (b, 3, data->data, data->len);
  tsb_end (b);
}

/* The block of @size (sizes are unique here). */
static StrobeMemoryAlloc
by_size (StrobeMemoryModel *m, guint64 size)
{
  StrobeMemorySummary s;

  strobe_memory_model_get_summary (m, &s);
  for (guint64 i = 0; i < s.allocs; i++)
    {
      StrobeMemoryAlloc a;

      g_assert_true (strobe_memory_model_get_alloc (m, i, &a));
      if (a.size == size)
        return a;
    }
  g_error ("no block of %" G_GUINT64_FORMAT " bytes", size);
}

/* Two snapshots (a late connect, then another output started): a block the model has
 * live, older than the snapshot's counter of its thread and not in the snapshot, was
 * freed unseen; one in it stays live; one the model never saw comes from the snapshot.
 * The second snapshot forgets what the first named. */
static void
test_snapshots (void)
{
  g_autoptr (Tsb) b = batch_stream ();
  g_autoptr (StrobeMemoryModel) m = NULL;
  /* Thread 3 made blocks 1-3 (sizes 101-103), thread 4 block 5 (205, unknown to the model). */
  static const LiveItem first[] = { { 3, 3, 0 }, { 4, 5, 0 }, { 3, 1, 101 }, { 3, 3, 103 }, { 4, 5, 205 } };
  /* Then thread 3 made block 4 (104); 101 and 103 are gone. */
  static const LiveItem second[] = { { 3, 4, 0 }, { 4, 5, 0 }, { 3, 4, 104 } };
  static const LiveItem second_end[] = { { 4, 5, 205 } };
  Writer w;

  writer_init (&w, 3);
  at (&w, 5);
  w_alloc (&w, 101);
  w_alloc (&w, 102);
  w_alloc (&w, 103);
  flush (b, &w, TRUE);
  live_event (b, 10, STROBE_MEMLIVE_FIRST | STROBE_MEMLIVE_LAST | STROBE_MEMLIVE_COMPLETE, first,
              G_N_ELEMENTS (first));
  at (&w, 20);
  w_alloc (&w, 104);
  flush (b, &w, TRUE);
  /* In a piece of its own: what the first piece named is still known in the last. */
  live_event (b, 30, STROBE_MEMLIVE_FIRST, second, G_N_ELEMENTS (second));
  live_event (b, 30, STROBE_MEMLIVE_LAST, second_end, G_N_ELEMENTS (second_end));
  m = decode (b);

  g_assert_cmpuint (by_size (m, 102).free_time, ==, 10);
  g_assert_true (by_size (m, 102).flags & STROBE_MEMORY_ALLOC_END_UNSEEN);
  g_assert_true (by_size (m, 205).flags & STROBE_MEMORY_ALLOC_FROM_SNAPSHOT);
  /* The second snapshot names neither 101 nor 103. */
  for (guint64 size = 101; size <= 103; size += 2)
    {
      g_assert_cmpuint (by_size (m, size).free_time, ==, 30);
      g_assert_true (by_size (m, size).flags & STROBE_MEMORY_ALLOC_END_UNSEEN);
    }
  g_assert_cmpuint (by_size (m, 104).free_time, ==, STROBE_MEMORY_LIVE);
  g_assert_cmpuint (by_size (m, 205).free_time, ==, STROBE_MEMORY_LIVE);
  g_byte_array_unref (w.data);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-batches/merge", test_merge);
  g_test_add_func ("/memory-batches/window", test_window);
  g_test_add_func ("/memory-batches/heap-resets", test_heap_resets);
  g_test_add_func ("/memory-batches/snapshots", test_snapshots);
  return g_test_run ();
}
