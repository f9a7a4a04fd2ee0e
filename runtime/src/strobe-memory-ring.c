/* strobe-memory-ring.c — each thread's ring of allocation records and the updater's
 * drain into Memory.Batch events.
 *
 * The owner appends whole records and release-stores head; the updater copies
 * [tail, head) once per round, emits it as one Memory.Batch (on its own thread stream,
 * naming the owner in the Thread field) and release-stores tail. The updater decodes what
 * it shipped to know the reader's state at the next batch's start (the batch's scalar
 * fields), so a batch can begin at any record and the owner pays one store per record.
 * A thread that stops allocating never holds records back: the next round ships them.
 *
 * Exited threads: their ring is final once `exited` is set; the updater ships the rest and
 * frees it. Frees the C library makes after that (thread teardown) go to one shared late
 * ring under a mutex. */
#include "strobe-buffers-private.h"
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <stdlib.h>
#include <time.h>

#define RING_MASK  ((uint64_t) STROBE_MEMORY_RING_BYTES - 1)
#define WAIT_MS    20
/* The late ring's records belong to no thread stream; this id names them. */
#define LATE_THREAD_ID STROBE_TID_IMPORTANTS

pthread_mutex_t  strobe__memory_rings_lock = PTHREAD_MUTEX_INITIALIZER;
StrobeMemThread *strobe__memory_rings;
pthread_mutex_t  strobe__memory_late_lock = PTHREAD_MUTEX_INITIALIZER;
StrobeMemThread  strobe__memory_late = { .thread_id = LATE_THREAD_ID, .shared = true };

__thread StrobeMemThread *strobe__memory_current __attribute__ ((tls_model ("initial-exec")));
#define current strobe__memory_current

/* Updater state, under the update lock. */
static uint8_t  *drain_buf;
static uint8_t  *data_buf;
static uint8_t  *times_buf;   /* a pair per TIME record (≥ 2 bytes): at most twice its bytes */
static uint32_t  round_no;
uint64_t         strobe__memory_coarse_units;

StrobeMemThread *
strobe__memory_thread_setup (void)
{
  StrobeThread *t = strobe__thread_current ();
  StrobeMemThread *mt;

  if (t == NULL || t->id == 0 || (mt = calloc (1, sizeof *mt)) == NULL)
    return NULL;
  if ((mt->ring = malloc (STROBE_MEMORY_RING_BYTES + STROBE_MEMORY_MAX_RECORD)) == NULL)
    {
      free (mt);
      return NULL;
    }
  mt->thread_id = t->id;
  pthread_mutex_lock (&strobe__memory_rings_lock);
  mt->next = strobe__memory_rings;
  strobe__memory_rings = mt;
  pthread_mutex_unlock (&strobe__memory_rings_lock);
  current = mt;
  return mt;
}

/* From the thread's exit hook (strobe-thread.c). */
void
strobe__memory_thread_exit (void)
{
  StrobeMemThread *mt = current;

  if (mt == NULL || mt->shared)
    return;
  current = &strobe__memory_late;
  __atomic_store_n (&mt->exited, 1, __ATOMIC_RELEASE);
}

static uint64_t
space (StrobeMemThread *mt)
{
  return STROBE_MEMORY_RING_BYTES - (mt->head - mt->cached_tail);
}

static __attribute__ ((noinline, cold)) bool
reserve_slow (StrobeMemThread *mt)
{
  struct timespec nap = { 0, 100000 };

  if (mt->shared && mt->ring == NULL
      && (mt->ring = malloc (STROBE_MEMORY_RING_BYTES + STROBE_MEMORY_MAX_RECORD)) == NULL)
    return false;
  for (int waited = 0;; waited++)
    {
      mt->cached_tail = __atomic_load_n (&mt->tail, __ATOMIC_ACQUIRE);
      if (space (mt) >= STROBE_MEMORY_MAX_RECORD)
        return true;
      if (waited == 0)
        strobe__hooks_get ()->consumer_kick ();
      else if (waited * 100 >= WAIT_MS * 1000)
        {
          /* No worker took them (a program without one, or a stalled output): drain
           * here once, then give up. Never with the late ring's lock held. */
          if (mt->shared)
            return false;
          strobe__hooks_get ()->consumer_update ();
          mt->cached_tail = __atomic_load_n (&mt->tail, __ATOMIC_ACQUIRE);
          return space (mt) >= STROBE_MEMORY_MAX_RECORD;
        }
      nanosleep (&nap, NULL);
    }
}

bool
strobe__memory_ring_reserve (StrobeMemThread *mt)
{
  if (__builtin_expect (mt->ring != NULL && space (mt) >= STROBE_MEMORY_MAX_RECORD, 1))
    return true;
  return reserve_slow (mt);
}

/* Records are encoded in place: the ring has STROBE_MEMORY_MAX_RECORD spare bytes past
 * its end, and what lands there is moved to its start on commit. */
uint8_t *
strobe__memory_ring_cursor (StrobeMemThread *mt)
{
  return mt->ring + (mt->head & RING_MASK);
}

void
strobe__memory_ring_commit (StrobeMemThread *mt, const uint8_t *end)
{
  uint64_t head = mt->head;
  size_t at = (size_t) (head & RING_MASK);
  size_t len = (size_t) (end - (mt->ring + at));

  if (at + len > STROBE_MEMORY_RING_BYTES)
    memcpy (mt->ring, mt->ring + STROBE_MEMORY_RING_BYTES, at + len - STROBE_MEMORY_RING_BYTES);
  __atomic_store_n (&mt->head, head + len, __ATOMIC_RELEASE);
}

/* ---- the updater ------------------------------------------------------------------- */

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

/* The threads are below memory tracing: a thread's exit hands its ring over through this
 * hook. */
static void
memory_ring_hooks (StrobeHooks *hooks)
{
  hooks->memory_thread_exit = strobe__memory_thread_exit;
}
STROBE_HOOKS_SETTER (memory_ring_hooks);
