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

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* A scope name with its source location. Statically allocated by STROBE_CPU_SCOPE; the id
 * is assigned (and the spec sent) the first time the scope runs with the channel on. */
typedef struct
{
  uint32_t    id;        /* 0 until registered; first: the fast path loads it */
  uint32_t    line;
  const char *name;
  const char *file;
} StrobeCpuSpec;

/* The initialiser of a static StrobeCpuSpec named @name at this file and line:
 * `static StrobeCpuSpec spec = STROBE_CPU_SPEC_INIT ("io");`. @name must live as long as
 * the program (a string literal). */
#define STROBE_CPU_SPEC_INIT(name) { 0, __LINE__, (name), __FILE__ }

/* The standard channel "Cpu", of CPU scopes. */
STROBE_CHANNEL_EXTERN (StrobeCpuChannel);

/* ---- internals of the inline fast path ------------------------------------------- */

/* Internal: the calling thread's scope batch (the fast path's initial-exec thread-local
 * state). */
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

/* Begins a scope of @spec (a static StrobeCpuSpec) on the calling thread, now. Returns
 * false when the Cpu channel is off (or the begin was dropped): then do not call the
 * matching end. The first begin of a spec with the channel on registers it (Cpu.EventSpec).
 *
 * Cost: off: one load and a branch (about 1 ns, strobe-bench-cpu cost.cpu_scope_disabled).
 * On: a clock read and a few bytes appended to the thread's batch; a whole scope, begin
 * and end, is about 2.2 clock reads (cost.cpu_scope 24 ns, cost.cpu_begin_end_api 21 ns,
 * against a 10.6 ns clock read). A spec's first begin takes a mutex; every 1 KiB of
 * records or 20 ms the batch ships as one event (STROBE_LOG's cost).
 * Blocks: only when shipping the batch needs a buffer block and the pool is at its limit
 * (up to STROBE_BLOCK_WAIT_MS, as STROBE_LOG).
 * Threads: any thread; scopes nest per thread and end on the thread that began them. In
 * a signal handler: only specs that already ran once outside it, on a thread that traced
 * before (README.md, "Signal handlers"). */
static inline bool
strobe_cpu_begin (StrobeCpuSpec *spec)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe__cpu_spec_id (spec)) == 0)
    return false;
  return strobe__cpu_record (strobe_time (), id, false);
}

/* strobe_cpu_begin() at timestamp @ts (strobe_time() ticks, non-decreasing per thread; an
 * earlier one is clamped to the thread's last): for replaying external data and for tests
 * that need exact times.
 *
 * Cost: as strobe_cpu_begin() without its clock read.
 * Blocks, Threads: as strobe_cpu_begin(). */
static inline bool
strobe_cpu_begin_at (StrobeCpuSpec *spec, uint64_t ts)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe__cpu_spec_id (spec)) == 0)
    return false;
  return strobe__cpu_record (ts, id, false);
}

/* Ends the innermost open scope of the calling thread at @ts (strobe_time() ticks). Call
 * it once for each begin that returned true, whether or not the channel is still on.
 *
 * Cost: a few bytes appended to the thread's batch (no clock read).
 * Blocks, Threads: as strobe_cpu_begin(). */
static inline void
strobe_cpu_end_at (uint64_t ts)
{
  (void) strobe__cpu_record (ts, 0, true);
}

/* Ends the innermost open scope of the calling thread now: strobe_cpu_end_at()
 * (strobe_time ()). Once for each begin that returned true.
 *
 * Cost: a clock read and a few bytes.
 * Blocks, Threads: as strobe_cpu_begin(). */
static inline void
strobe_cpu_end (void)
{
  (void) strobe__cpu_record (strobe_time (), 0, true);
}

/* The spec id of the dynamic name @name: interned by content (one spec per distinct name,
 * sent once as Cpu.EventSpec and kept for the process lifetime), with a per-thread
 * 64-slot cache in front of a global table. 0 when out of memory. @name NULL is "".
 *
 * Cost: a cache hit: hashing and comparing @name (half a clock read for a short name);
 * a miss: a mutex and a table lookup; a new name: a copy and an Important event.
 * Blocks: on the spec table's mutex, on a miss.
 * Threads: any thread; not in a signal handler. */
uint32_t strobe_cpu_intern (const char *name);

/* Begins a scope named @name, a string of any lifetime (interned: strobe_cpu_intern()).
 * Returns as strobe_cpu_begin(); end it with strobe_cpu_end().
 *
 * Cost: the interning and a begin; a whole dynamic scope is about 3 clock reads
 * (strobe-bench-cpu cost.cpu_scope_dynamic, 4 names through the thread's cache).
 * Blocks: as strobe_cpu_intern() and strobe_cpu_begin().
 * Threads: any thread; not in a signal handler. */
static inline bool
strobe_cpu_begin_dynamic (const char *name)
{
  uint32_t id;

  if (!STROBE_CHANNEL_ENABLED (StrobeCpuChannel) || (id = strobe_cpu_intern (name)) == 0)
    return false;
  return strobe__cpu_record (strobe_time (), id, false);
}

/* Ships the calling thread's scope batch now, as one Cpu.EventBatch into its buffer (the
 * consumer then sends it). Otherwise a batch ships when full, at the first record after
 * its 20 ms deadline, at thread exit and on strobe_flush(): call it before a thread
 * blocks for long inside a scope, so what it recorded so far is not held back.
 *
 * Cost: one event of up to 1 KiB of aux data; nothing when the batch is empty.
 * Blocks: as STROBE_LOG when a buffer block is needed.
 * Threads: the calling thread's batch only; not in a signal handler. */
void strobe_cpu_flush_thread (void);

/* ---- block scopes ------------------------------------------------------------------- */

/* Internal: the state of one STROBE_CPU_SCOPE, ended by its cleanup. */
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

/* A scope from here to the end of the enclosing block, however it is left (return,
 * break, goto; not longjmp). @name: a string literal (or any string that lives as long as
 * the program); the spec is static, one per site.
 *
 * Cost: on: about 2.2 clock reads per scope, begin and end (strobe-bench-cpu
 * cost.cpu_scope); off: about 1 ns.
 * Blocks, Threads: as strobe_cpu_begin(). */
#define STROBE_CPU_SCOPE(name) STROBE__CPU_SCOPE (name, __COUNTER__)
/* STROBE_CPU_SCOPE with a name computed at run time (interned: copied once per distinct
 * name; any lifetime).
 *
 * Cost, Blocks, Threads: as strobe_cpu_begin_dynamic(). */
#define STROBE_CPU_SCOPE_DYNAMIC(name) STROBE__CPU_SCOPE_DYNAMIC (name, __COUNTER__)

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
