/* strobe-cpu.h — CPU scopes on the standard channel "Cpu".
 *
 *   void update (void)
 *   {
 *     STROBE_CPU_SCOPE ("update");          // until the end of the enclosing block
 *     ...
 *     {
 *       STROBE_CPU_SCOPE_DYNAMIC (entity->name);
 *       ...
 *     }
 *   }
 *
 * A static name is registered once (Cpu.EventSpec, Important: Id, Line, Name, File); each
 * begin and end then appends a varint timestamp delta (and the spec id on begin) to a small
 * per-thread batch, shipped as one Cpu.EventBatch event when it is full, older than
 * 20 ms, when the thread exits and on strobe_flush(). See runtime/INSTRUMENTATION.md.
 *
 * Works in C and C++ (the block scope uses __attribute__ ((cleanup)), which g++ and clang
 * support). Code that cannot use a block: strobe_cpu_begin() / strobe_cpu_end().
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "strobe-channel.h"
#include "strobe-clock.h"
#include "strobe-log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A scope name with its source location. Statically allocated by STROBE_CPU_SCOPE; the id
 * is assigned (and the spec sent) the first time the scope runs with the channel on. */
typedef struct
{
  uint32_t    id;        /* 0 until registered; first: the fast path loads it */
  uint32_t    line;
  const char *name;
  const char *file;
} StrobeCpuSpec;

#define STROBE_CPU_SPEC_INIT(name) { 0, __LINE__, (name), __FILE__ }

STROBE_CHANNEL_EXTERN (StrobeCpuChannel);   /* runtime name "Cpu" */

/* ---- internals of the inline fast path ------------------------------------------- */

typedef struct
{
  uint8_t *cursor;      /* next byte of the thread's batch; NULL before the first scope */
  uint8_t *limit;       /* a record may start only below this */
  uint64_t last;        /* last timestamp written, in batch units (ticks >> shift) */
  uint64_t deadline;    /* raw ticks: ship the batch at the first record at or after it;
                         * set to 0 by strobe_flush() (from any thread: atomic access) */
} StrobeCpuTls;

extern __thread StrobeCpuTls strobe__cpu_tls __attribute__ ((tls_model ("initial-exec")));
extern uint8_t strobe__cpu_shift;

uint32_t strobe__cpu_spec_register (StrobeCpuSpec *spec) __attribute__ ((cold));
bool     strobe__cpu_record_slow (uint64_t ts, uint32_t id, bool end) __attribute__ ((cold));

static inline uint8_t *
strobe__cpu_varint (uint8_t *p, uint64_t v)
{
  while (__builtin_expect (v >= 0x80, 0))
    {
      *p++ = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  *p++ = (uint8_t) v;
  return p;
}

/* Appends one record: varint ((delta << 1) | end), then on a begin the varint spec id.
 * False when the record was dropped (and counted): it interrupted another record or event
 * of this thread (a signal handler), or there was no memory.
 *
 * The thread-local structs are named, never reached through a pointer: UBSan checks such
 * a pointer for null, and once the linker has relaxed the TLS access (initial-exec to
 * local-exec) into an lea, which sets no flags, the check branches on stale ones. */
static inline bool
strobe__cpu_record (uint64_t ts, uint32_t id, bool end)
{
  uint8_t *p;
  uint64_t u, d;

  if (!strobe__busy_enter ())
    return false;
  p = strobe__cpu_tls.cursor;
  if (__builtin_expect (p >= strobe__cpu_tls.limit || ts >= __atomic_load_n (&strobe__cpu_tls.deadline, __ATOMIC_RELAXED), 0))
    {
      bool ok = strobe__cpu_record_slow (ts, id, end);
      strobe__busy_leave ();
      return ok;
    }
  u = ts >> strobe__cpu_shift;
  /* Never backwards (cores whose TSCs disagree slightly, replayed data out of order). */
  u = u > strobe__cpu_tls.last ? u : strobe__cpu_tls.last;
  d = u - strobe__cpu_tls.last;
  strobe__cpu_tls.last = u;
  p = strobe__cpu_varint (p, (d << 1) | (end ? 1u : 0u));
  if (!end)
    p = strobe__cpu_varint (p, id);
  strobe__cpu_tls.cursor = p;
  strobe__busy_leave ();
  return true;
}

/* ---- begin / end ------------------------------------------------------------------- */

static inline uint32_t
strobe__cpu_spec_id (StrobeCpuSpec *spec)
{
  uint32_t id = __atomic_load_n (&spec->id, __ATOMIC_RELAXED);

  return __builtin_expect (id != 0, 1) ? id : strobe__cpu_spec_register (spec);
}

/* Begins a scope. Returns false when the Cpu channel is off (or the begin was dropped):
 * then do not call the matching end. */
static inline bool
strobe_cpu_begin (StrobeCpuSpec *spec)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe__cpu_spec_id (spec)) == 0)
    return false;
  return strobe__cpu_record (strobe_time (), id, false);
}

/* The same at timestamp @ts (strobe_time() ticks, non-decreasing per thread): for replaying
 * external data and for tests that need exact times. */
static inline bool
strobe_cpu_begin_at (StrobeCpuSpec *spec, uint64_t ts)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe__cpu_spec_id (spec)) == 0)
    return false;
  return strobe__cpu_record (ts, id, false);
}

/* Ends the innermost scope of this thread. Call it once for each begin that returned true,
 * whether or not the channel is still on. */
static inline void
strobe_cpu_end_at (uint64_t ts)
{
  (void) strobe__cpu_record (ts, 0, true);
}

static inline void
strobe_cpu_end (void)
{
  (void) strobe__cpu_record (strobe_time (), 0, true);
}

/* The spec of a dynamic name: interned by content (one spec per distinct name, sent once),
 * with a per-thread cache in front of a global table. 0 when out of memory. */
uint32_t strobe_cpu_intern (const char *name);

static inline bool
strobe_cpu_begin_dynamic (const char *name)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe_cpu_intern (name)) == 0)
    return false;
  return strobe__cpu_record (strobe_time (), id, false);
}

/* Ships the calling thread's batch now. */
void strobe_cpu_flush_thread (void);

/* ---- block scopes ------------------------------------------------------------------- */

typedef struct
{
  bool active;
} StrobeCpuScope;

static inline void
strobe__cpu_scope_leave (StrobeCpuScope *scope)
{
  if (scope->active)
    strobe_cpu_end ();
}

#define STROBE__CPU_UNIQ(a, n) STROBE__CPU_UNIQ_ (a, n)
#define STROBE__CPU_UNIQ_(a, n) a##n

#define STROBE__CPU_SCOPE(name, n)                                                          \
  static StrobeCpuSpec STROBE__CPU_UNIQ (strobe__cpu_spec_, n) = STROBE_CPU_SPEC_INIT (name); \
  StrobeCpuScope STROBE__CPU_UNIQ (strobe__cpu_scope_, n)                                    \
    __attribute__ ((cleanup (strobe__cpu_scope_leave), unused))                              \
    = { strobe_cpu_begin (&STROBE__CPU_UNIQ (strobe__cpu_spec_, n)) }

#define STROBE__CPU_SCOPE_DYNAMIC(name, n)                                                  \
  StrobeCpuScope STROBE__CPU_UNIQ (strobe__cpu_scope_, n)                                    \
    __attribute__ ((cleanup (strobe__cpu_scope_leave), unused))                              \
    = { strobe_cpu_begin_dynamic (name) }

/* A scope from here to the end of the enclosing block. @name: a string literal (or any
 * string that lives as long as the program). */
#define STROBE_CPU_SCOPE(name) STROBE__CPU_SCOPE (name, __COUNTER__)
/* Same with a name computed at run time (copied; any lifetime). */
#define STROBE_CPU_SCOPE_DYNAMIC(name) STROBE__CPU_SCOPE_DYNAMIC (name, __COUNTER__)

#ifdef __cplusplus
}
#endif
