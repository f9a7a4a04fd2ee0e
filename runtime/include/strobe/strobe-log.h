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

/* Head of a buffer block: what the fast path publishes to the worker. */
typedef struct
{
  uint8_t *committed;   /* end of the last whole event; release-stored */
  uint64_t events;      /* events committed in this block; only its thread writes it */
} StrobeBlockHeader;

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
 * channel test is a for, not an if, so `if (x) STROBE_LOG (…) {…} else …` stays unambiguous. */
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

#define STROBE_SET(F, value) ((void) (strobe__w.p.F = (value)))

/* @data must point to the array field's element type. */
#define STROBE_SET_ARRAY(F, data, count)                                                    \
  strobe__aux_bytes (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), (1 ? (data) : strobe__info->ptr.F), \
                     (size_t) (count) * sizeof (*strobe__info->ptr.F))

/* char * input: copied into an ANSI field, UTF-8 converted to UTF-16 for a wide one. */
#define STROBE_SET_STRING_N(F, s, len)                                                      \
  (STROBE__CHECK (STROBE__FIELD_TYPE (F) >= STROBE__T_ANSI),                                \
   strobe__aux_string (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), STROBE__FIELD_TYPE (F), (s), (len)))
#define STROBE_SET_STRING(F, s) STROBE_SET_STRING_N (F, s, (size_t) -1)

/* wchar_t * input: truncated to 7 bits per character for an ANSI field, UTF-16 for wide. */
#define STROBE_SET_WSTRING_N(F, s, len)                                                     \
  (STROBE__CHECK (STROBE__FIELD_TYPE (F) >= STROBE__T_ANSI),                                \
   strobe__aux_wstring (strobe__type, &strobe__w.aux, STROBE__FIELD_INDEX (F), STROBE__FIELD_TYPE (F), (s), (len)))
#define STROBE_SET_WSTRING(F, s) STROBE_SET_WSTRING_N (F, s, (size_t) -1)

#ifdef __cplusplus
}
#endif
