/* strobe-log.h — log sites and the per-thread fast path they inline.
 *
 * A site is `if (channels on) for (writer; once; emit) for (typed info pointer; once;)`:
 * the body sets scalars into a zeroed payload on the stack, and the loop's increment
 * reserves the record in the thread's buffer, copies it and commits. Anything unusual
 * (first event of a thread, full block, no memory) is out of line in strobe__reserve_slow.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "strobe-channel.h"
#include "strobe-declare.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* Internal: the head of a buffer block, what the fast path publishes to the worker. */
typedef struct
{
  uint8_t *committed;   /* end of the last whole event; release-stored */
  uint64_t events;      /* events committed in this block; only its thread writes it */
} StrobeBlockHeader;

/* Internal: the calling thread's place in its current buffer block (the fast path's
 * initial-exec thread-local state). */
typedef struct
{
  uint8_t           *cursor;
  uint8_t           *end;
  StrobeBlockHeader *block;
  /* Non-zero while this thread is inside an emit (or holds a lock an emit needs): an
   * event that interrupts it — from a signal handler — is dropped and counted instead of
   * writing over the interrupted one. Only this thread writes it. */
  unsigned           busy;
} StrobeTls;

extern __thread StrobeTls strobe__tls __attribute__ ((tls_model ("initial-exec")));
extern uint32_t strobe__serial;

uint8_t *strobe__reserve_slow (size_t size) __attribute__ ((cold));
void strobe__emit_slow (StrobeEventDef *type, const void *payload) __attribute__ ((cold));
void strobe__emit_nested (void) __attribute__ ((cold));
void strobe__emit_important (StrobeEventDef *type, StrobeAux *aux, const void *payload);
void strobe__aux_finish (StrobeEventDef *type, StrobeAux *aux, const void *payload);
void strobe__aux_bytes (StrobeEventDef *type, StrobeAux *aux, unsigned index, const void *data, size_t size);
void strobe__aux_string (StrobeEventDef *type, StrobeAux *aux, unsigned index, unsigned wire_type,
                         const char *s, size_t len);
void strobe__aux_wstring (StrobeEventDef *type, StrobeAux *aux, unsigned index, unsigned wire_type,
                          const wchar_t *s, size_t len);

/* Raises the thread's busy flag; false (the event dropped and counted) when it is up
 * already: this emit interrupts another of the same thread (a signal handler). */
static inline bool
strobe__busy_enter (void)
{
  if (__builtin_expect (strobe__tls.busy != 0, 0))
    {
      strobe__emit_nested ();
      return false;
    }
  strobe__tls.busy = 1;
  /* The handler of a signal runs on this thread: compiler ordering is all it takes. */
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  return true;
}

static inline void
strobe__busy_leave (void)
{
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  strobe__tls.busy = 0;
}

static inline void
strobe__commit (uint8_t *end)
{
  StrobeBlockHeader *b = strobe__tls.block;

  strobe__tls.cursor = end;
  /* Plain increment in effect; relaxed atomics only so the worker's read is not a race. */
  __atomic_store_n (&b->events, __atomic_load_n (&b->events, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
  __atomic_store_n (&b->committed, end, __ATOMIC_RELEASE);
}

/* The end of a log site. Every condition is a compile-time constant of the event type,
 * so a plain event inlines to: reserve check, header, payload copy, commit. strobe__tls
 * is named, not reached through a pointer (see strobe__cpu_record in strobe-cpu.h). */
static inline void
strobe__finish (StrobeEventDef *type, StrobeAux *aux, unsigned flags, unsigned aux_count,
                const void *payload, size_t size)
{
  size_t header = (flags & STROBE_EVENT_NOSYNC) ? 2 : 5;
  uint16_t uid;
  uint8_t *p;

  if (flags & STROBE_EVENT_IMPORTANT)
    {
      strobe__emit_important (type, aux, payload);
      return;
    }
  if (aux_count)
    {
      strobe__aux_finish (type, aux, payload);
      return;
    }
  if (!strobe__busy_enter ())
    return;
  uid = __atomic_load_n (&type->uid, __ATOMIC_RELAXED);
  p = strobe__tls.cursor;
  /* Pointer difference, not cursor + size: both are NULL before the thread's first event.
   * uid 0: logged from a constructor before the event's own registered; slow path too. */
  if (__builtin_expect ((size_t) (strobe__tls.end - p) < header + size || uid == 0, 0))
    {
      strobe__emit_slow (type, payload);
      strobe__busy_leave ();
      return;
    }
  memcpy (p, &uid, 2);
  if (!(flags & STROBE_EVENT_NOSYNC))
    {
      /* After the reserve: a dropped event must not consume a serial. */
      uint32_t serial = __atomic_fetch_add (&strobe__serial, 1, __ATOMIC_RELAXED);
      p[2] = (uint8_t) serial;
      p[3] = (uint8_t) (serial >> 8);
      p[4] = (uint8_t) (serial >> 16);
    }
  memcpy (p + header, payload, size);
  strobe__commit (p + header + size);
  strobe__busy_leave ();
}

/* ---- log sites ------------------------------------------------------------------ */

#define STROBE__NARG(...) STROBE__NARG_ (__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define STROBE__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define STROBE__CHANNELS(...) STROBE__CAT (STROBE__CH_, STROBE__NARG (__VA_ARGS__)) (__VA_ARGS__)
#define STROBE__CH_1(a) STROBE_CHANNEL_ENABLED (a)
#define STROBE__CH_2(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_1 (__VA_ARGS__))
#define STROBE__CH_3(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_2 (__VA_ARGS__))
#define STROBE__CH_4(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_3 (__VA_ARGS__))
#define STROBE__CH_5(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_4 (__VA_ARGS__))
#define STROBE__CH_6(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_5 (__VA_ARGS__))
#define STROBE__CH_7(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_6 (__VA_ARGS__))
#define STROBE__CH_8(a, ...) (STROBE_CHANNEL_ENABLED (a) && STROBE__CH_7 (__VA_ARGS__))

/* Emits event @E of logger @L when every listed channel (1 to 8) is enabled. The block
 * that follows sets the fields; `break` ends it early (the event is still emitted). The
 * channel test is a for, not an if, so `if (x) STROBE_LOG (…) {…} else …` stays unambiguous.
 * When a channel is off the block does not run: calls in it (STROBE_SET (V, compute ()))
 * are not made.
 *
 * Cost: channels off: one load and a branch per channel (0.3–0.5 ns, strobe-bench
 * cost.disabled_site). On: the payload is built on the stack, copied into the thread's
 * buffer and committed: a 16-byte event about 1.1–1.4 clock reads NoSync and 1.1–1.9
 * synchronised (cost.event_nosync_16B, cost.event_sync_16B: 10–18 ns against a 9.6 ns
 * clock read); aux fields add their bytes and a header (an 8-byte string: about two
 * clock reads for the event). A thread's first event and every 64 KiB of events take a
 * buffer block (out of line). An Important event takes a mutex and a copy instead.
 * Blocks: only when the thread needs a block and the pool is at its limit
 * (STROBE_BUFFER_MB): it waits up to STROBE_BLOCK_WAIT_MS (20 ms) for the consumer, then
 * drops the event (counted) and drops without waiting until blocks are free again
 * (README.md, "Back-pressure"). An Important event waits for the important cache's mutex.
 * Threads: any thread; each writes its own buffer, without locks. In a signal handler:
 * only types already logged once outside it, not Important ones, on a thread that traced
 * before; an event that interrupts an emit of its own thread is dropped and counted
 * (README.md, "Signal handlers"). */
#define STROBE_LOG(L, E, ...)                                                               \
  for (StrobeEventDef *strobe__type = STROBE__CHANNELS (__VA_ARGS__) ? &STROBE__ID (L, E, type) : 0; \
       strobe__type; strobe__type = 0)                                                      \
    for (STROBE__ID (L, E, Writer) strobe__w = STROBE__ZERO;                                \
         !strobe__w.done;                                                                   \
         strobe__w.done = 1,                                                                \
         strobe__finish (strobe__type, &strobe__w.aux, STROBE__ID (L, E, Flags),            \
                         STROBE__ID (L, E, AuxCount), &strobe__w.p, STROBE__ID (L, E, PayloadSize))) \
      for (const STROBE__ID (L, E, Info) *strobe__info __attribute__ ((unused)) = 0;        \
           !strobe__w.done; strobe__w.done = 1)

#define STROBE__FIELD_INDEX(F) ((unsigned) __builtin_offsetof (__typeof__ (strobe__info->index), F))
#define STROBE__FIELD_TYPE(F)  ((unsigned) sizeof (strobe__info->kind.F))
#define STROBE__CHECK(c)       ((void) sizeof (char[(c) ? 1 : -1]))

/* Sets scalar field @F of the enclosing STROBE_LOG block's event to @value (converted as
 * by assignment). Only inside that block; scalars not set are zero.
 *
 * Cost: one store into the payload on the stack. Blocks: never. Threads: the block's. */
#define STROBE_SET(F, value) ((void) (strobe__w.p.F = (value)))

/* Sets array field @F to @count elements at @data, which must point to the field's element
 * type (checked at compile time); they are copied into the event. Only inside a STROBE_LOG
 * block. An event with its aux data is at most 16 MiB − 64 bytes: a larger one is
 * dropped and counted.
 *
 * Cost: a copy of the elements and an 8-byte record header into the thread's buffer; an
 * event that outgrows its block moves to a new one (never split).
 * Blocks: as STROBE_LOG when a new block is needed.
 * Threads: the block's; the data must not change while it is copied. */
#define STROBE_SET_ARRAY(F, data, count)                                                    \
  strobe__aux_bytes (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), (1 ? (data) : strobe__info->ptr.F), \
                     (size_t) (count) * sizeof (*strobe__info->ptr.F))

/* Sets string field @F from @s, @len BYTES long (not characters; no NUL needed, and one
 * within is copied like any byte). An ANSI field gets the bytes as they are; a wide field
 * reads them as UTF-8 (a malformed sequence becomes U+FFFD) and stores UTF-16LE. @s NULL:
 * the field stays absent. Only inside a STROBE_LOG block.
 *
 * Cost: a copy (a conversion for a wide field) of @len bytes into the thread's buffer.
 * Blocks: as STROBE_SET_ARRAY. Threads: the block's. */
#define STROBE_SET_STRING_N(F, s, len)                                                      \
  (STROBE__CHECK (STROBE__FIELD_TYPE (F) >= STROBE__T_ANSI),                                \
   strobe__aux_string (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), STROBE__FIELD_TYPE (F), (s), (len)))
/* STROBE_SET_STRING_N up to @s's terminating NUL (strlen). */
#define STROBE_SET_STRING(F, s) STROBE_SET_STRING_N (F, s, (size_t) -1)

/* Sets string field @F from the wchar_t string @s, @len CODE UNITS long (wchar_t
 * elements: neither bytes nor characters; on Linux a wchar_t is 4 bytes, one code point).
 * An ANSI field keeps the low 7 bits of each unit; a wide field gets UTF-16LE (surrogate
 * pairs above U+FFFF). @s NULL: the field stays absent. Only inside a STROBE_LOG block.
 *
 * Cost: a conversion of @len units into the thread's buffer.
 * Blocks: as STROBE_SET_ARRAY. Threads: the block's. */
#define STROBE_SET_WSTRING_N(F, s, len)                                                     \
  (STROBE__CHECK (STROBE__FIELD_TYPE (F) >= STROBE__T_ANSI),                                \
   strobe__aux_wstring (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), STROBE__FIELD_TYPE (F), (s), (len)))
/* STROBE_SET_WSTRING_N up to @s's terminating L'\0' (wcslen). */
#define STROBE_SET_WSTRING(F, s) STROBE_SET_WSTRING_N (F, s, (size_t) -1)

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
