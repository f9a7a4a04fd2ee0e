/* strobe-memory-drain.c — the updater's part of each round: every thread's ring of
 * allocation records drained into Memory.Batch events (strobe-memory-ring.c is the
 * owners' side).
 *
 * The updater copies [tail, head) once per round, emits it as one Memory.Batch (on its own
 * thread stream, naming the owner in the Thread field) and release-stores tail. It decodes
 * what it shipped to know the reader's state at the next batch's start (the batch's
 * scalar fields), so a batch can begin at any record. A thread that stops allocating
 * never holds records back: the next round ships them. An exited thread's ring is shipped
 * to its end, then freed. */
#include "strobe-buffers-private.h"
#include "strobe-memory-private.h"
#include "strobe-memory-state.h"
#include "strobe-memory-events.h"

#include <stdlib.h>

#define RING_MASK  ((uint64_t) STROBE_MEMORY_RING_BYTES - 1)

/* Updater state, under the update lock. */
static uint8_t  *drain_buf;
static uint8_t  *data_buf;
static uint8_t  *times_buf;   /* a pair per TIME record (≥ 2 bytes): at most twice its bytes */
static uint32_t  round_no;

static uint64_t
thread_dropped (void)
{
  StrobeThread *t = strobe__thread_current ();

  return t ? __atomic_load_n (&t->dropped, __ATOMIC_RELAXED) : 0;
}

/* Splits @len bytes of records at @in into Data (@data: every record but TIME) and Times
 * (@times: "after n records, time += d" pairs), decoding them from @s, which ends as the
 * reader's state after them. Returns false on a record the decoder refuses (cannot
 * happen: the owner writes whole records). */
static bool
split (const uint8_t *in, size_t len, StrobeMemrecState *s, uint8_t *data, size_t *data_len,
       uint8_t *times, size_t *times_len)
{
  const uint8_t *p = in, *end = in + len;
  uint8_t *d = data, *t = times;
  uint64_t since = 0;

  while (p < end)
    {
      StrobeMemrec r;
      size_t n = strobe_memrec_decode (p, end, s, &r);

      if (n == 0)
        return false;
      if (r.kind == STROBE_MEMREC_TIME)
        {
          uint64_t delta = 0;
          const uint8_t *q = p + 1;

          strobe_memrec_get_varint (&q, p + n, &delta);
          t = strobe_memrec_put_varint (t, since);
          t = strobe_memrec_put_varint (t, delta);
          since = 0;
        }
      else
        {
          memcpy (d, p, n);
          d += n;
          since++;
        }
      p += n;
    }
  *data_len = (size_t) (d - data);
  *times_len = (size_t) (t - times);
  return true;
}

/* Ships [tail, head) of @mt as one batch; false when the event could not be emitted (the
 * bytes stay for the next round). */
static bool
ship (StrobeMemThread *mt, uint64_t head, bool last)
{
  uint64_t tail = mt->tail;
  size_t len = (size_t) (head - tail), at = (size_t) (tail & RING_MASK);
  size_t first = STROBE_MEMORY_RING_BYTES - at, data_len, times_len;
  StrobeMemrecState s = mt->wstate, after = s;
  uint64_t before = thread_dropped ();

  if (len <= first)
    memcpy (drain_buf, mt->ring + at, len);
  else
    {
      memcpy (drain_buf, mt->ring + at, first);
      memcpy (drain_buf + first, mt->ring, len - first);
    }
  if (!split (drain_buf, len, &after, data_buf, &data_len, times_buf, &times_len))
    {
      /* Ship them as they are (Data may hold TIME records). */
      memcpy (data_buf, drain_buf, len);
      data_len = len;
      times_len = 0;
    }
  STROBE_LOG (Memory, Batch, StrobeTraceChannel)
    {
      STROBE_SET (Thread, mt->thread_id);
      STROBE_SET (Flags, last ? STROBE_MEMORY_BATCH_LAST : 0);
      STROBE_SET (Shift, strobe__memory_shift);
      STROBE_SET (Round, round_no);
      STROBE_SET (Seq, s.seq);
      STROBE_SET (Alloc, s.alloc);
      STROBE_SET (Time, s.time);
      STROBE_SET (Heap, s.heap);
      STROBE_SET (Tag, s.tag);
      STROBE_SET (Stack, s.stack);
      STROBE_SET (Dropped, __atomic_load_n (&mt->dropped, __ATOMIC_RELAXED));
      STROBE_SET_ARRAY (Data, data_buf, data_len);
      STROBE_SET_ARRAY (Times, times_buf, times_len);
    }
  if (thread_dropped () != before)
    return false;
  /* The reader's state after these records, for the next batch. */
  mt->wstate = after;
  __atomic_store_n (&mt->tail, head, __ATOMIC_RELEASE);
  return true;
}

void
strobe__memory_drain (void)
{
  StrobeMemThread *due[256];
  uint64_t heads[256];
  size_t n = 0;
  StrobeMemThread **link, *gone = NULL;

  if (__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return;
  /* Memory tracing switched on begins now, with its snapshot (Memory.Live), not at the
   * program's next allocation, which may come much later or never. */
  if (STROBE_CHANNEL_ENABLED (MemoryChannel) && !__atomic_load_n (&strobe__memory_active, __ATOMIC_RELAXED))
    {
      strobe__memory_guard++;
      strobe__memory_state_slow ();
      strobe__memory_guard--;
    }
  __atomic_store_n (&strobe__memory_coarse_units, strobe_time () >> strobe__memory_shift, __ATOMIC_RELAXED);
  if (drain_buf == NULL
      && ((drain_buf = malloc (STROBE_MEMORY_RING_BYTES)) == NULL
          || (data_buf = malloc (STROBE_MEMORY_RING_BYTES)) == NULL
          || (times_buf = malloc (2 * STROBE_MEMORY_RING_BYTES)) == NULL))
    {
      free (drain_buf);
      free (data_buf);
      drain_buf = data_buf = NULL;
      return;
    }
  strobe__memory_guard++;
  pthread_mutex_lock (&strobe__memory_rings_lock);
  for (link = &strobe__memory_rings; *link;)
    {
      StrobeMemThread *mt = *link;
      int exited = __atomic_load_n (&mt->exited, __ATOMIC_ACQUIRE);
      uint64_t head = __atomic_load_n (&mt->head, __ATOMIC_ACQUIRE);

      if (head != mt->tail && n < 256)
        {
          due[n] = mt;
          heads[n++] = head;
        }
      else if (exited && head == mt->tail)
        {
          *link = mt->next;
          mt->next = gone;
          gone = mt;
          continue;
        }
      link = &mt->next;
    }
  pthread_mutex_unlock (&strobe__memory_rings_lock);

  pthread_mutex_lock (&strobe__memory_late_lock);
  if (strobe__memory_late.ring && strobe__memory_late.head != strobe__memory_late.tail && n < 256)
    {
      due[n] = &strobe__memory_late;
      heads[n++] = strobe__memory_late.head;
    }
  pthread_mutex_unlock (&strobe__memory_late_lock);

  /* After the heads were read: every stack their records name is in the trie's
   * pending nodes by now, and goes out first. */
  strobe__memory_stack_flush ();
  if (n)
    round_no++;
  for (size_t i = 0; i < n; i++)
    if (!ship (due[i], heads[i], i + 1 == n))
      break;
  while (gone)
    {
      StrobeMemThread *next = gone->next;
      strobe__memory_stack_thread_free (gone);
      free (gone->ring);
      free (gone);
      gone = next;
    }
  strobe__memory_guard--;
}
