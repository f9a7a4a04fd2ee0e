/* strobe-preload.c — LD_PRELOAD interposer: reports malloc, calloc, realloc,
 * reallocarray, free, posix_memalign, aligned_alloc, memalign, valloc and pvalloc of an
 * unmodified, dynamically linked program on the Memory channel (heap 0, "System").
 *
 * - Bootstrap: until dlsym (RTLD_NEXT, …) has resolved the C library's functions, which
 *   itself may allocate, requests are served from a static arena. Arena blocks are never
 *   freed (free ignores them) and never traced; realloc moves them to the real heap.
 * - Reentrancy: the runtime raises strobe__memory_guard (thread-local) while it emits, and
 *   its own threads (worker, control server) keep it raised, so the runtime's allocations
 *   are never traced and never recurse.
 * - Ordering: a free is reported before the block is released and an allocation after it
 *   is obtained, on synchronised events, so an address reused by another thread is always
 *   seen freed first. realloc is reported in two halves (ReallocFree before, ReallocAlloc
 *   after) for the same reason.
 * - fork: the child is not traced (it has no worker; its exit must not end the parent's
 *   trace). Programs it execs are not traced either: the output variables are removed
 *   from the environment once the runtime has read them.
 * - malloc_usable_size, malloc_trim, mallinfo… are not interposed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-private.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

typedef void *(*MallocFn) (size_t);
typedef void *(*CallocFn) (size_t, size_t);
typedef void *(*ReallocFn) (void *, size_t);
typedef void  (*FreeFn) (void *);
typedef int   (*PosixMemalignFn) (void **, size_t, size_t);
typedef void *(*AlignedFn) (size_t, size_t);
typedef void *(*VallocFn) (size_t);

static struct
{
  MallocFn        malloc;
  CallocFn        calloc;
  ReallocFn       realloc;
  FreeFn          free;
  PosixMemalignFn posix_memalign;
  AlignedFn       aligned_alloc;
  AlignedFn       memalign;
  VallocFn        valloc;
  VallocFn        pvalloc;
} real;

enum { UNRESOLVED, RESOLVING, READY };
static int state = UNRESOLVED;
static __thread int resolving_here __attribute__ ((tls_model ("initial-exec")));
static bool  traced;
static bool  tracing_wanted;
static pid_t traced_pid;
static size_t page_size = 4096;

/* ---- the bootstrap arena ---------------------------------------------------------- */

#define ARENA_SIZE (1u << 20)
static _Alignas (64) unsigned char arena[ARENA_SIZE];
static size_t arena_used;

static bool
in_arena (const void *p)
{
  return (const unsigned char *) p >= arena && (const unsigned char *) p < arena + ARENA_SIZE;
}

/* Each block is preceded by its size (in the 16 bytes before it). Zeroed: never reused. */
static void *
arena_alloc (size_t size, size_t align)
{
  size_t old, start, end;

  if (align < 16)
    align = 16;
  if (align & (align - 1) || size > ARENA_SIZE)
    return NULL;
  old = __atomic_load_n (&arena_used, __ATOMIC_RELAXED);
  do
    {
      start = (old + 16 + align - 1) & ~(align - 1);
      end = start + size;
      if (end > ARENA_SIZE)
        {
          errno = ENOMEM;
          return NULL;
        }
    }
  while (!__atomic_compare_exchange_n (&arena_used, &old, end, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  memcpy (arena + start - sizeof (size_t), &size, sizeof size);
  return arena + start;
}

static size_t
arena_size (const void *p)
{
  size_t n;

  memcpy (&n, (const unsigned char *) p - sizeof n, sizeof n);
  return n;
}

/* ---- resolving the C library ------------------------------------------------------- */

static void *
next (const char *name)
{
  return dlsym (RTLD_NEXT, name);
}

/* True when the real functions are usable; false on the resolving thread while dlsym
 * runs (use the arena then). Other threads wait for the resolver. */
static __attribute__ ((noinline, cold)) bool
resolve (void)
{
  int expected = UNRESOLVED;

  if (__atomic_load_n (&state, __ATOMIC_ACQUIRE) == READY)
    return true;
  if (resolving_here)
    return false;
  if (__atomic_compare_exchange_n (&state, &expected, RESOLVING, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      resolving_here = 1;
      real.malloc = (MallocFn) next ("malloc");
      real.calloc = (CallocFn) next ("calloc");
      real.realloc = (ReallocFn) next ("realloc");
      real.free = (FreeFn) next ("free");
      real.posix_memalign = (PosixMemalignFn) next ("posix_memalign");
      real.aligned_alloc = (AlignedFn) next ("aligned_alloc");
      real.memalign = (AlignedFn) next ("memalign");
      real.valloc = (VallocFn) next ("valloc");
      real.pvalloc = (VallocFn) next ("pvalloc");
      resolving_here = 0;
      if (real.malloc == NULL || real.free == NULL || real.calloc == NULL || real.realloc == NULL)
        abort ();
      __atomic_store_n (&state, READY, __ATOMIC_RELEASE);
      return true;
    }
  while (__atomic_load_n (&state, __ATOMIC_ACQUIRE) != READY)
    sched_yield ();
  return true;
}

#define READY_OR(fallback)                                                                 \
  do                                                                                       \
    {                                                                                      \
      if (__builtin_expect (__atomic_load_n (&state, __ATOMIC_ACQUIRE) != READY, 0)        \
          && !resolve ())                                                                  \
        return fallback;                                                                   \
    }                                                                                      \
  while (0)

static inline bool
should_trace (void)
{
  return __builtin_expect (traced, 1) && strobe__memory_guard == 0
         && STROBE_CHANNEL_ENABLED (MemoryChannel);
}

/* ---- the interposed functions -------------------------------------------------------- */

EXPORT void *
malloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, 16));
  p = real.malloc (size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, size, 0, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

EXPORT void
free (void *p)
{
  if (p == NULL || in_arena (p))
    return;
  if (should_trace ())
    strobe__memory_free_event (p, STROBE_MEMORY_HEAP_SYSTEM);
  READY_OR ();
  real.free (p);
}

EXPORT void *
calloc (size_t nmemb, size_t size)
{
  size_t total;
  void *p;

  if (__builtin_mul_overflow (nmemb, size, &total))
    {
      errno = ENOMEM;
      return NULL;
    }
  READY_OR (arena_alloc (total, 16));
  p = real.calloc (nmemb, size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, total, 0, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

EXPORT void *
realloc (void *old, size_t size)
{
  bool trace;
  void *p;

  if (old == NULL)
    return malloc (size);
  if (in_arena (old))
    {
      size_t n = arena_size (old);
      if (size == 0)
        return NULL;
      p = malloc (size);
      if (p)
        memcpy (p, old, n < size ? n : size);
      return p;
    }
  READY_OR (NULL);
  trace = should_trace ();
  if (trace)
    strobe__memory_realloc_free_event (old, STROBE_MEMORY_HEAP_SYSTEM);
  p = real.realloc (old, size);
  if (trace)
    strobe__memory_realloc_alloc_event (old, p, size, 0, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

EXPORT void *
reallocarray (void *old, size_t nmemb, size_t size)
{
  size_t total;

  if (__builtin_mul_overflow (nmemb, size, &total))
    {
      errno = ENOMEM;
      return NULL;
    }
  return realloc (old, total);
}

EXPORT int
posix_memalign (void **out, size_t align, size_t size)
{
  int r;

  if (__builtin_expect (__atomic_load_n (&state, __ATOMIC_ACQUIRE) != READY, 0) && !resolve ())
    {
      *out = arena_alloc (size, align);
      return *out ? 0 : ENOMEM;
    }
  r = real.posix_memalign (out, align, size);
  if (r == 0 && *out && should_trace ())
    strobe__memory_alloc_event (*out, size, (uint32_t) align, STROBE_MEMORY_HEAP_SYSTEM);
  return r;
}

EXPORT void *
aligned_alloc (size_t align, size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, align));
  p = real.aligned_alloc (align, size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, size, (uint32_t) align, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

EXPORT void *
memalign (size_t align, size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, align));
  p = real.memalign (align, size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, size, (uint32_t) align, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

EXPORT void *
valloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, page_size));
  p = real.valloc (size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, size, (uint32_t) page_size, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

/* Reported with the size asked for, not the whole pages the program may use. */
EXPORT void *
pvalloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc ((size + page_size - 1) & ~(page_size - 1), page_size));
  p = real.pvalloc (size);
  if (p && should_trace ())
    strobe__memory_alloc_event (p, size, (uint32_t) page_size, STROBE_MEMORY_HEAP_SYSTEM);
  return p;
}

/* ---- start and end ----------------------------------------------------------------- */

static void
atfork_child (void)
{
  traced = false;
}

static void
preload_exit (void)
{
  if (getpid () != traced_pid)
    return;
  strobe__memory_guard++;
  strobe_shutdown ();
  traced = false;
}

/* Before the runtime's own constructors (priority 101 < default), so it can stop the
 * runtime's automatic start and do it itself with the guard up. */
__attribute__ ((constructor (101))) static void
preload_init (void)
{
  const char *file = getenv ("STROBE_TRACEFILE");
  const char *host = getenv ("STROBE_TRACEHOST");
  const char *channels = getenv ("STROBE_TRACE");
  long ps = sysconf (_SC_PAGESIZE);

  if (ps > 0)
    page_size = (size_t) ps;
  strobe__no_auto_init = true;
  resolve ();
  if (!(file && *file) && !(host && *host))
    return;

  strobe__memory_guard++;
  if (channels == NULL || *channels == '\0')
    strobe_channel_set_enabled ("Memory", true);
  strobe_init (NULL);
  traced_pid = getpid ();
  atexit (preload_exit);
  pthread_atfork (NULL, NULL, atfork_child);
  /* Programs this one runs must not write into the same trace. */
  unsetenv ("STROBE_TRACEFILE");
  unsetenv ("STROBE_TRACEHOST");
  unsetenv ("STROBE_TRACE");
  tracing_wanted = true;
  strobe__memory_guard--;
}

/* Last of this library's constructors (see meson.build): from here on allocations are the
 * program's (and its libraries'), not the runtime's. */
__attribute__ ((constructor)) static void
preload_start (void)
{
  traced = tracing_wanted;
}
