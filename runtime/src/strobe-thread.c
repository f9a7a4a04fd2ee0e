/* strobe-thread.c — per-thread state and the out-of-line half of the fast path.
 *
 * The thread-local part is three pointers (strobe__tls) so the inline path needs one
 * initial-exec TLS access; everything else lives in a heap StrobeThread that outlives the
 * thread until the worker has shipped its last bytes. Each thread is the single producer
 * of its chain of blocks; the updater is the single consumer. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"
#include "strobe-memory-private.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

uint32_t strobe__serial;   /* strobe__tls is strobe-runtime-hooks.c's: the pool raises its busy flag */

static __thread StrobeThread *current __attribute__ ((tls_model ("initial-exec")));

StrobeThread   *strobe__threads;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t  exit_key;
static uint32_t       next_thread_id = STROBE_TID_FIRST_USER;
static uint64_t       dropped_elsewhere;      /* drops with no thread state to count them */
static unsigned       own_starting;           /* own threads created, not named yet */

static void thread_exit (void *arg);

static void
make_key (void)
{
  pthread_key_create (&exit_key, thread_exit);
}

StrobeThread *
strobe__thread_current (void)
{
  StrobeThread *t = current;
  StrobeThread **link;
  char name[64] = "";

  if (t)
    return t;
  t = calloc (1, sizeof *t);
  if (t == NULL)
    return NULL;
  t->id = strobe__thread_reserve_id ();
  t->system_id = (uint32_t) syscall (SYS_gettid);
  pthread_once (&key_once, make_key);
  pthread_setspecific (exit_key, t);

  pthread_mutex_lock (&strobe__threads_lock);
  for (link = &strobe__threads; *link; link = &(*link)->next)
    ;
  *link = t;
  pthread_mutex_unlock (&strobe__threads_lock);

  current = t;
  if (t->id)
    {
      pthread_getname_np (pthread_self (), name, sizeof name);
      strobe__hooks_get ()->emit_thread_info (t->id, name, NULL, 0);
    }
  return t;
}

static void
thread_exit (void *arg)
{
  StrobeThread *t = arg;

  /* ThreadEnd is emitted by the updater once it has shipped this thread's last bytes
   * (retire_thread): emitted here, it could reach the output before them, and a reader
   * would stop waiting for this thread's serials while some were still on their way. */
  strobe__hooks_get ()->cpu_thread_exit ();
  strobe__hooks_get ()->memory_thread_exit ();
  t->exit_time = strobe_time ();
  memset (&strobe__tls, 0, sizeof strobe__tls);
  current = NULL;
  /* Last: the consumer frees the state once it has seen this and shipped the rest. */
  __atomic_store_n (&t->exited, 1, __ATOMIC_RELEASE);
}

void
strobe__thread_free (StrobeThread *t)
{
  StrobeBlock *b = t->head ? t->head : t->first;

  while (b)
    {
      StrobeBlock *next = b->next;
      strobe__pool_put (b);
      b = next;
    }
  free (t);
}

/* In a forked child, with every runtime lock held. Only the calling thread exists here;
 * every committed byte is the parent's (it ships them itself), so the child starts from
 * empty: its own events only, counted from zero. The other threads' states are retired
 * by the consumer like those of exited threads. */
void
strobe__threads_after_fork_child (void)
{
  uint64_t now = strobe_time ();

  for (StrobeThread *t = strobe__threads; t; t = t->next)
    {
      for (StrobeBlock *b = t->head ? t->head : t->first; b; b = b->next)
        {
          b->shipped = b->hdr.committed;
          b->hdr.events = 0;
        }
      t->events_retired = 0;
      t->dropped = 0;
      t->snap_valid = false;
      if (t != current && !t->exited)
        {
          t->exit_time = now;
          t->exited = 1;
        }
    }
  if (current)
    current->system_id = (uint32_t) syscall (SYS_gettid);
  dropped_elsewhere = 0;
  own_starting = 0;   /* those threads are the parent's */
}

bool
strobe__thread_has_stream (uint32_t system_id)
{
  bool found = false;

  pthread_mutex_lock (&strobe__threads_lock);
  for (StrobeThread *t = strobe__threads; t && !found; t = t->next)
    found = t->id != 0 && t->system_id == system_id && !__atomic_load_n (&t->exited, __ATOMIC_ACQUIRE);
  pthread_mutex_unlock (&strobe__threads_lock);
  return found;
}

void
strobe__own_thread_begin (void)
{
  __atomic_add_fetch (&own_starting, 1, __ATOMIC_ACQ_REL);
}

void
strobe__own_thread_named (void)
{
  __atomic_sub_fetch (&own_starting, 1, __ATOMIC_ACQ_REL);
}

bool
strobe__own_threads_starting (void)
{
  return __atomic_load_n (&own_starting, __ATOMIC_ACQUIRE) != 0;
}

/* Ids are never reused: a reader keeps per-thread state by id for the whole trace. */
uint16_t
strobe__thread_reserve_id (void)
{
  uint32_t id = __atomic_fetch_add (&next_thread_id, 1, __ATOMIC_RELAXED);

  return id <= STROBE_UID_MAX ? (uint16_t) id : 0;
}

void
strobe__thread_set_no_wait (bool no_wait)
{
  StrobeThread *t = strobe__thread_current ();

  if (t)
    t->no_wait = no_wait;
}

/* An atomic add even for the thread's own counter: a drop counted from a signal handler
 * may interrupt one being counted by the thread it runs on. */
static void
count_drop (StrobeThread *t)
{
  if (t)
    __atomic_fetch_add (&t->dropped, 1, __ATOMIC_RELAXED);
  else
    __atomic_fetch_add (&dropped_elsewhere, 1, __ATOMIC_RELAXED);
}

void
strobe__count_drop (void)
{
  count_drop (current);
}

/* An event that interrupted an emit of its own thread (runtime/README.md, "Signal
 * handlers"): writing it would land on the interrupted one. */
__attribute__ ((noinline, cold)) void
strobe__emit_nested (void)
{
  count_drop (current);
}

uint64_t
strobe__dropped_elsewhere (void)
{
  return __atomic_load_n (&dropped_elsewhere, __ATOMIC_RELAXED);
}

/* Makes @b the thread's current block. The previous block's committed offset is final
 * from here on; the release on `next` publishes it to the consumer. */
static void
link_block (StrobeThread *t, StrobeBlock *b)
{
  if (t->tail)
    __atomic_store_n (&t->tail->next, b, __ATOMIC_RELEASE);
  else
    __atomic_store_n (&t->first, b, __ATOMIC_RELEASE);
  __atomic_store_n (&t->tail, b, __ATOMIC_RELEASE);
  strobe__tls.cursor = b->data;
  strobe__tls.end = b->data + b->capacity;
  strobe__tls.block = &b->hdr;
}

static uint8_t *
reserve_slow (size_t size, bool count)
{
  StrobeThread *t = strobe__thread_current ();
  StrobeBlock *b;

  /* An event logged while an aux event of this thread is open (from an argument of a
   * STROBE_SET_* call) would land inside the open event: drop it instead. */
  if (t == NULL || t->id == 0 || t->aux_open || size > STROBE_MAX_EVENT_SIZE)
    goto drop;
  if (strobe__tls.block && (size_t) (strobe__tls.end - strobe__tls.cursor) >= size)
    return strobe__tls.cursor;
  b = strobe__pool_get (size, !t->dropping && !t->no_wait);
  if (b == NULL)
    {
      t->dropping = true;
      goto drop;
    }
  t->dropping = false;
  link_block (t, b);
  return strobe__tls.cursor;

drop:
  if (count)
    count_drop (t);
  return NULL;
}

__attribute__ ((noinline, cold)) uint8_t *
strobe__reserve_slow (size_t size)
{
  return reserve_slow (size, true);
}

/* Everything the inline path does not: first event of a thread, full block, unregistered
 * type, dropping. */
__attribute__ ((noinline, cold)) void
strobe__emit_slow (StrobeEventDef *type, const void *payload)
{
  uint16_t uid = __atomic_load_n (&type->uid, __ATOMIC_RELAXED);
  size_t header = (type->flags & STROBE_EVENT_FLAG_NOSYNC) ? 2 : 2 + STROBE_WIRE_SERIAL_BYTES;
  uint8_t *p;

  if (uid == 0 && (uid = strobe__event_register (type)) == 0)
    {
      strobe__count_drop ();
      return;
    }
  p = reserve_slow (header + type->payload_size, true);
  if (p == NULL)
    return;
  memcpy (p, &uid, 2);
  if (header > 2)
    strobe_wire_put_u24 (p + 2, __atomic_fetch_add (&strobe__serial, 1, __ATOMIC_RELAXED));
  memcpy (p + header, payload, type->payload_size);
  strobe__commit (p + header + type->payload_size);
}

/* ---- aux events ---------------------------------------------------------------------
 * While an aux event is built its bytes sit uncommitted after the cursor, and tls.end is
 * parked at the cursor so any other reservation on this thread goes to the slow path.
 * The thread's busy flag is up from its first reservation to its commit: an event from a
 * signal handler that interrupts the building is dropped at once. */

static size_t
header_size (const StrobeEventDef *type)
{
  return (type->flags & STROBE_EVENT_FLAG_NOSYNC) ? 2 : 2 + STROBE_WIRE_SERIAL_BYTES;
}

static void
aux_park (StrobeAux *a)
{
  a->end = strobe__tls.end;
  strobe__tls.end = strobe__tls.cursor;
  current->aux_open = true;
}

static void
aux_unpark (StrobeAux *a)
{
  strobe__tls.end = a->end;
  current->aux_open = false;
}

static uint8_t *
reserve_any (size_t size)
{
  if ((size_t) (strobe__tls.end - strobe__tls.cursor) >= size)
    return strobe__tls.cursor;
  return reserve_slow (size, false);
}

/* Room for @need more bytes plus the AuxEnd. */
static bool
aux_room (StrobeAux *a, size_t need)
{
  size_t total;
  StrobeBlock *b;
  StrobeThread *t;

  if (a->failed)
    return false;
  if (a->start == NULL)
    {
      if (strobe__tls.busy)
        {
          /* Counted once, by aux_finish. */
          a->failed = true;
          return false;
        }
      strobe__tls.busy = 1;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      total = header_size (a->type) + a->type->payload_size + need + 2;
      if (total > STROBE_MAX_EVENT_SIZE || reserve_any (total) == NULL)
        {
          strobe__busy_leave ();
          goto fail;
        }
      a->start = strobe__tls.cursor;
      a->used = header_size (a->type) + a->type->payload_size;
      aux_park (a);
      return true;
    }
  total = a->used + need + 2;
  if (total > STROBE_MAX_EVENT_SIZE)
    goto fail;
  if ((size_t) (a->end - a->start) >= total)
    return true;

  /* Move the event so far to a new block, big enough for it: never split an event. */
  t = current;
  b = strobe__pool_get (total, !t->dropping && !t->no_wait);
  if (b == NULL)
    {
      t->dropping = true;
      goto fail;
    }
  memcpy (b->data, a->start, a->used);
  aux_unpark (a);
  link_block (t, b);
  a->start = b->data;
  aux_park (a);
  return true;

fail:
  a->failed = true;
  return false;
}

static bool
heap_room (StrobeAux *a, size_t need)
{
  size_t cap;
  uint8_t *p;

  if (a->failed)
    return false;
  if (a->heap_len + need + a->type->payload_size + 2 > STROBE_MAX_EVENT_SIZE)
    goto fail;
  if (a->heap_cap - a->heap_len >= need)
    return true;
  cap = a->heap_cap ? a->heap_cap : 256;
  while (cap - a->heap_len < need)
    cap *= 2;
  p = realloc (a->heap, cap);
  if (p == NULL)
    goto fail;
  a->heap = p;
  a->heap_cap = cap;
  return true;

fail:
  a->failed = true;
  return false;
}

uint8_t *
strobe__aux_record_begin (StrobeAux *a, size_t max_value)
{
  size_t need = sizeof (StrobeWireAuxHeader) + max_value;

  if (a->type->flags & STROBE_EVENT_FLAG_IMPORTANT)
    return heap_room (a, need) ? a->heap + a->heap_len : NULL;
  return aux_room (a, need) ? a->start + a->used : NULL;
}

void
strobe__aux_record_end (StrobeAux *a, uint8_t *record, unsigned index, size_t value_size)
{
  StrobeWireAuxHeader h;

  h.uid = STROBE_UID_AUX_DATA;
  h.field_index = (uint8_t) index;
  h.reserved = 0;
  h.size = (uint32_t) value_size;
  memcpy (record, &h, sizeof h);
  if (a->type->flags & STROBE_EVENT_FLAG_IMPORTANT)
    a->heap_len += sizeof h + value_size;
  else
    a->used += sizeof h + value_size;
}

void
strobe__aux_finish (StrobeEventDef *type, StrobeAux *a, const void *payload)
{
  uint16_t uid = __atomic_load_n (&type->uid, __ATOMIC_RELAXED);
  size_t header = header_size (type);
  uint8_t *p;

  if (uid == 0 && (uid = strobe__event_register (type)) == 0)
    a->failed = true;
  a->type = type;
  if (!a->failed && a->start == NULL)
    aux_room (a, 0);
  if (a->failed)
    {
      if (a->start)
        {
          aux_unpark (a);
          strobe__busy_leave ();
        }
      strobe__count_drop ();
      return;
    }
  p = a->start;
  memcpy (p, &uid, 2);
  if (!(type->flags & STROBE_EVENT_FLAG_NOSYNC))
    strobe_wire_put_u24 (p + 2, __atomic_fetch_add (&strobe__serial, 1, __ATOMIC_RELAXED));
  memcpy (p + header, payload, type->payload_size);
  strobe_wire_put_u16 (p + a->used, STROBE_UID_AUX_END);
  a->used += 2;
  aux_unpark (a);
  strobe__commit (p + a->used);
  strobe__busy_leave ();
}

/* ---- important events: into the important cache, not the thread's blocks ---------- */

/* Body = payload, then (for types with aux) the collected aux records and an AuxEnd. */
void
strobe__emit_important (StrobeEventDef *type, StrobeAux *aux, const void *payload)
{
  StrobeWireImportantHeader h;
  uint8_t aux_end[2];
  size_t aux_end_len = 0;
  uint16_t uid = __atomic_load_n (&type->uid, __ATOMIC_RELAXED);

  if (uid == 0)
    uid = strobe__event_register (type);
  if (uid == 0 || aux->failed)
    goto out;
  if (type->flags & STROBE_EVENT_FLAG_HAS_AUX)
    {
      strobe_wire_put_u16 (aux_end, STROBE_UID_AUX_END);
      aux_end_len = 2;
    }
  if (type->payload_size + aux->heap_len + aux_end_len > STROBE_MAX_EVENT_SIZE)
    goto out;
  h.uid = uid;
  h.size = (uint32_t) (type->payload_size + aux->heap_len + aux_end_len);
  if (!strobe__important_append (&h, sizeof h, payload, type->payload_size,
                                 aux->heap, aux->heap_len, aux_end, aux_end_len))
    goto out;
  free (aux->heap);
  aux->heap = NULL;
  return;

out:
  free (aux->heap);
  aux->heap = NULL;
  strobe__count_drop ();
}
