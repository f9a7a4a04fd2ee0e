/* strobe-preload.c — LD_PRELOAD interposer: reports malloc, calloc, realloc,
 * reallocarray, free, posix_memalign, aligned_alloc, memalign, valloc and pvalloc of an
 * unmodified, dynamically linked program on the Memory channel (heap 0, "System").
 *
 * - Bootstrap: until dlsym (RTLD_NEXT, …) has resolved the C library's functions, which
 *   itself may allocate, requests are served from a static arena. Arena blocks are never
 *   freed (free ignores them) and never traced; realloc moves them to the real heap.
 * - Reentrancy: the runtime raises strobe__memory_guard (thread-local) while it works, and
 *   its own threads (worker, control server) keep it raised, so the runtime's allocations
 *   are never traced and never recurse.
 * - Start: the runtime always starts (control server, discovery), with or without an
 *   output, so a program run with tracing off can be found (`strobe-cli ps`) and
 *   connected to later. Tracing switches on at this library's last constructor, after
 *   the runtime's own.
 * - One runtime per process: when the program links its own libstrobe.so, the
 *   interposer reports into that runtime (its strobe_memory_interposer_hooks) and never starts the
 *   private copy linked into this library.
 * - Children: the interposer and every STROBE_* variable are taken out of the
 *   environment, so programs this one runs are not traced (and do not allocate
 *   differently because of a longer environment) — unless STROBE_FOLLOW_CHILDREN is set
 *   (strobe-cli run --follow-children): then each child traces to a file of its own,
 *   DIR/PROGRAM-PID.strobe (or to the same recorder). A program that execs *in place*
 *   (env VAR=… prog, nice, a wrapper script such as pyenv's shims) is not a child: the
 *   exec functions put the variables back for it when the caller is the process that
 *   read them (same pid), so the program behind the wrapper is the one traced.
 * - fork without exec: the child is not traced (it has no worker; its exit must not end
 *   the parent's trace).
 * - Call stacks (STROBE_CALLSTACKS=1): libunwind's unw_backtrace with its per-thread
 *   cache, behind the runtime's verified per-thread stack cache. Frame #0 is the
 *   caller of malloc. This library is built with frame pointers so STROBE_CALLSTACKS=fp
 *   can start the walk at its caller.
 * - Compression: one zstd stream per output (PROTOCOL.md §2) unless STROBE_COMPRESSION
 *   says otherwise: allocation records repeat further back than LZ4's 64 KiB.
 * - malloc_usable_size, malloc_trim, mallinfo… are not interposed. dlclose is (the
 *   module map is rescanned after it); dlopen is, only to drop RTLD_DEEPBIND (a library
 *   opened with it would bind malloc to the C library's, past this one, as heaptrack
 *   found), and calls the C library's by a tail call, so the loader still takes the
 *   program's code for the caller (whose RUNPATH finds a bare name). The module map
 *   picks dlopen'ed modules up by the loader's counters (strobe-memory-modules.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-private.h"
#include "strobe-memory-state.h"
#include "strobe-output-private.h"

#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#define UNW_LOCAL_ONLY   /* this process only: libunwind.so, not libunwind-$arch.so */
#include <libunwind.h>
#include <malloc.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The interposed functions are defined under names of their own (preload_malloc…, what a
 * backtrace through them shows) and exported under the C library's by alias: nothing in
 * this library defines a function named like one the rest of the runtime calls. */
#define INTERPOSE(name, impl) \
  extern __typeof__ (name) name __attribute__ ((alias (#impl), visibility ("default")))

typedef void *(*MallocFn) (size_t);
typedef void *(*CallocFn) (size_t, size_t);
typedef void *(*ReallocFn) (void *, size_t);
typedef void  (*FreeFn) (void *);
typedef int   (*PosixMemalignFn) (void **, size_t, size_t);
typedef void *(*AlignedFn) (size_t, size_t);
typedef void *(*VallocFn) (size_t);
typedef int   (*DlcloseFn) (void *);
typedef void *(*DlopenFn) (const char *, int);

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
  DlcloseFn       dlclose;
  DlopenFn        dlopen;
} real;

enum { UNRESOLVED, RESOLVING, READY };
static int state = UNRESOLVED;
static __thread int resolving_here __attribute__ ((tls_model ("initial-exec")));
static bool  traced;
static bool  tracing_wanted;
static pid_t traced_pid;
static size_t page_size = 4096;
/* Set when the program's own libstrobe.so takes the reports. */
static const StrobeMemoryHooks *adopted;

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
lookup_next (const char *name)
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
      real.malloc = (MallocFn) lookup_next ("malloc");
      real.calloc = (CallocFn) lookup_next ("calloc");
      real.realloc = (ReallocFn) lookup_next ("realloc");
      real.free = (FreeFn) lookup_next ("free");
      real.posix_memalign = (PosixMemalignFn) lookup_next ("posix_memalign");
      real.aligned_alloc = (AlignedFn) lookup_next ("aligned_alloc");
      real.memalign = (AlignedFn) lookup_next ("memalign");
      real.valloc = (VallocFn) lookup_next ("valloc");
      real.pvalloc = (VallocFn) lookup_next ("pvalloc");
      real.dlclose = (DlcloseFn) lookup_next ("dlclose");
      real.dlopen = (DlopenFn) lookup_next ("dlopen");
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

/* ---- reporting: into this library's runtime, or the program's --------------------- */

static __attribute__ ((noinline, cold)) bool
adopted_wanted (void)
{
  if ((__atomic_load_n (&adopted->channel->enabled, __ATOMIC_RELAXED)
       | __atomic_load_n (adopted->table_optin, __ATOMIC_RELAXED)) != 0)
    return true;
  if (__atomic_load_n (adopted->skip_state, __ATOMIC_RELAXED) != STROBE_MEMORY_STATE_SKIPPING)
    adopted->skip_slow ();
  return false;
}

static inline bool
report (void)
{
  if (__builtin_expect (!traced, 0))
    return false;
  if (__builtin_expect (adopted != NULL, 0))
    return adopted_wanted ();
  if (strobe__memory_guard)
    return false;
  if (__builtin_expect (strobe__memory_wanted (), 1))
    return true;
  strobe__memory_skip ();
  return false;
}

/* Frame #0's return address, the stack pointer after it returns, and its frame
 * pointer (this library keeps frame pointers, so ours holds the caller's). Evaluated in
 * each exported function itself. */
#define CALLER(c)                                                                          \
  StrobeMemoryCaller c = { (uintptr_t) __builtin_return_address (0),                       \
                           (uintptr_t) __builtin_dwarf_cfa (),                             \
                           *(const uintptr_t *) __builtin_frame_address (0) }

static inline void
on_alloc (void *p, size_t size, uint32_t align, const StrobeMemoryCaller *c)
{
  if (__builtin_expect (adopted != NULL, 0))
    adopted->on_alloc (p, size, align, STROBE_MEMORY_HEAP_SYSTEM, c);
  else
    strobe__memory_on_alloc (p, size, align, STROBE_MEMORY_HEAP_SYSTEM, c);
}

static inline void
on_free (void *p)
{
  if (__builtin_expect (adopted != NULL, 0))
    adopted->on_free (p, STROBE_MEMORY_HEAP_SYSTEM);
  else
    strobe__memory_on_free (p, STROBE_MEMORY_HEAP_SYSTEM);
}

/* ---- the interposed functions -------------------------------------------------------- */

static void *
preload_malloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, 16));
  p = real.malloc (size);
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, size, 0, &c);
    }
  return p;
}
INTERPOSE (malloc, preload_malloc);

static void
preload_free (void *p)
{
  if (p == NULL || in_arena (p))
    return;
  if (report ())
    on_free (p);
  READY_OR ();
  real.free (p);
}
INTERPOSE (free, preload_free);

static void *
preload_calloc (size_t nmemb, size_t size)
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
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, total, 0, &c);
    }
  return p;
}
INTERPOSE (calloc, preload_calloc);

static inline void *
do_realloc (void *old, size_t size, const StrobeMemoryCaller *c)
{
  StrobeMemoryRealloc r;
  void *p;

  if (old == NULL)
    {
      READY_OR (arena_alloc (size, 16));
      p = real.malloc (size);
      if (p && report ())
        on_alloc (p, size, 0, c);
      return p;
    }
  if (in_arena (old))
    {
      size_t n = arena_size (old);
      if (size == 0)
        return NULL;
      READY_OR (NULL);
      p = real.malloc (size);
      if (p)
        {
          memcpy (p, old, n < size ? n : size);
          if (report ())
            on_alloc (p, size, 0, c);
        }
      return p;
    }
  READY_OR (NULL);
  if (!report ())
    return real.realloc (old, size);
  if (__builtin_expect (adopted != NULL, 0))
    {
      adopted->on_realloc_begin (old, STROBE_MEMORY_HEAP_SYSTEM, &r);
      p = real.realloc (old, size);
      adopted->on_realloc_end (&r, old, p, size, 0, c);
      return p;
    }
  strobe__memory_on_realloc_begin (old, STROBE_MEMORY_HEAP_SYSTEM, &r);
  p = real.realloc (old, size);
  strobe__memory_on_realloc_end (&r, old, p, size, 0, c);
  return p;
}

static void *
preload_realloc (void *old, size_t size)
{
  CALLER (c);
  return do_realloc (old, size, &c);
}
INTERPOSE (realloc, preload_realloc);

static void *
preload_reallocarray (void *old, size_t nmemb, size_t size)
{
  size_t total;
  CALLER (c);

  if (__builtin_mul_overflow (nmemb, size, &total))
    {
      errno = ENOMEM;
      return NULL;
    }
  return do_realloc (old, total, &c);
}
INTERPOSE (reallocarray, preload_reallocarray);

static int
preload_posix_memalign (void **out, size_t align, size_t size)
{
  int r;

  if (__builtin_expect (__atomic_load_n (&state, __ATOMIC_ACQUIRE) != READY, 0) && !resolve ())
    {
      *out = arena_alloc (size, align);
      return *out ? 0 : ENOMEM;
    }
  r = real.posix_memalign (out, align, size);
  if (r == 0 && *out && report ())
    {
      CALLER (c);
      on_alloc (*out, size, (uint32_t) align, &c);
    }
  return r;
}
INTERPOSE (posix_memalign, preload_posix_memalign);

static void *
preload_aligned_alloc (size_t align, size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, align));
  p = real.aligned_alloc (align, size);
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, size, (uint32_t) align, &c);
    }
  return p;
}
INTERPOSE (aligned_alloc, preload_aligned_alloc);

static void *
preload_memalign (size_t align, size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, align));
  p = real.memalign (align, size);
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, size, (uint32_t) align, &c);
    }
  return p;
}
INTERPOSE (memalign, preload_memalign);

static void *
preload_valloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc (size, page_size));
  p = real.valloc (size);
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, size, (uint32_t) page_size, &c);
    }
  return p;
}
INTERPOSE (valloc, preload_valloc);

/* Reported with the size asked for, not the whole pages the program may use. */
static void *
preload_pvalloc (size_t size)
{
  void *p;

  READY_OR (arena_alloc ((size + page_size - 1) & ~(page_size - 1), page_size));
  p = real.pvalloc (size);
  if (p && report ())
    {
      CALLER (c);
      on_alloc (p, size, (uint32_t) page_size, &c);
    }
  return p;
}
INTERPOSE (pvalloc, preload_pvalloc);

/* After it returns the module map is rescanned: addresses of the module it unloaded may
 * soon belong to another one. */
static int
preload_dlclose (void *handle)
{
  int r;

  READY_OR (-1);
  if (real.dlclose == NULL)
    return -1;
  r = real.dlclose (handle);
  if (traced)
    {
      if (adopted)
        adopted->modules_changed ();
      else
        {
          strobe__memory_guard++;
          strobe__memory_modules_changed ();
          strobe__memory_guard--;
        }
    }
  return r;
}
INTERPOSE (dlclose, preload_dlclose);

/* Tail-called (see the top of this file): nothing may follow the call. */
static void *
preload_dlopen (const char *file, int flags)
{
  READY_OR (NULL);
  if (real.dlopen == NULL)
    return NULL;
#ifdef RTLD_DEEPBIND
  flags &= ~RTLD_DEEPBIND;
#endif
  return real.dlopen (file, flags);
}
INTERPOSE (dlopen, preload_dlopen);

/* ---- the environment children get -------------------------------------------------- */

/* LD_PRELOAD's value without this library (any other entry kept), into @kept. */
static void
preload_without_self (const char *pre, const char *self, char *kept, size_t size)
{
  const char *base = strrchr (self, '/');
  size_t n = 0, blen = base ? strlen (base + 1) : 0;

  while (*pre)
    {
      size_t len = strcspn (pre, ": ");
      bool ours = len > 0 && strncmp (pre, self, len) == 0 && self[len] == '\0';

      /* The same file under another spelling: compare the base name. */
      if (!ours && base && len >= blen && strncmp (pre + len - blen, base + 1, blen) == 0
          && (len == blen || pre[len - blen - 1] == '/'))
        ours = true;
      if (!ours && len && n + len + 2 < size)
        {
          if (n)
            kept[n++] = ':';
          memcpy (kept + n, pre, len);
          n += len;
        }
      pre += len;
      while (*pre == ':' || *pre == ' ')
        pre++;
    }
  kept[n] = '\0';
}

/* Takes this library out of LD_PRELOAD (keeping any other entry) and removes every
 * STROBE_* variable (only STROBE_TRACEFILE when @only_file): the program's children are
 * then not traced. The array is edited in place, not through unsetenv: a program that
 * brings its own (bash does) may not touch environ before its main, and the array is
 * also main's third argument. */
static void
strip_environment (const char *self, bool only_file)
{
  size_t out = 0;

  if (environ == NULL)
    return;
  for (size_t i = 0; environ[i]; i++)
    {
      char *e = environ[i];

      if (only_file ? strncmp (e, "STROBE_TRACEFILE=", 17) == 0 : strncmp (e, "STROBE_", 7) == 0)
        continue;
      if (!only_file && self && strncmp (e, "LD_PRELOAD=", 11) == 0)
        {
          char kept[4096];
          char *entry;

          preload_without_self (e + 11, self, kept, sizeof kept);
          if (kept[0] == '\0')
            continue;
          /* Never freed: the environment may keep pointing at it. */
          if ((entry = malloc (strlen (kept) + 12)) != NULL)
            {
              memcpy (entry, "LD_PRELOAD=", 11);
              strcpy (entry + 11, kept);
              e = entry;
            }
        }
      environ[out++] = e;
    }
  environ[out] = NULL;
}

/* ---- exec in place ------------------------------------------------------------------ */

/* What strip_environment took out ("NAME=VALUE" each, and this library's path), for an
 * exec that replaces this process rather than starting a child. Made once at start,
 * never freed. */
static char  **saved_env;
static size_t  n_saved_env;
static char   *saved_self;

static void
save_environment (const char *self)
{
  size_t n = 0;

  for (char **e = environ; e && *e; e++)
    n += strncmp (*e, "STROBE_", 7) == 0;
  if (n && (saved_env = malloc (n * sizeof *saved_env)) == NULL)
    return;
  for (char **e = environ; e && *e; e++)
    if (strncmp (*e, "STROBE_", 7) == 0 && (saved_env[n_saved_env] = strdup (*e)) != NULL)
      n_saved_env++;
  saved_self = self ? strdup (self) : NULL;
}

static bool
is_strobe_entry (const char *e)
{
  return strncmp (e, "STROBE_", 7) == 0;
}

/* @envp with the saved variables back (the caller's own STROBE_* dropped, this library
 * first in LD_PRELOAD) into @out (room for count (envp) + n_saved_env + 2) and @pre;
 * @envp itself when the exec starts a child (another pid) or nothing was taken out. */
static char *const *
exec_environment (char *const *envp, char **out, char *pre, size_t pre_size)
{
  size_t n = 0;
  bool have_pre = false;

  if (saved_self == NULL || getpid () != traced_pid)
    return envp;
  for (char *const *e = envp; e && *e; e++)
    {
      if (is_strobe_entry (*e))
        continue;
      if (strncmp (*e, "LD_PRELOAD=", 11) == 0)
        {
          const char *theirs = *e + 11;

          if (strstr (theirs, saved_self))
            snprintf (pre, pre_size, "LD_PRELOAD=%s", theirs);
          else
            snprintf (pre, pre_size, "LD_PRELOAD=%s%s%s", saved_self, *theirs ? ":" : "", theirs);
          out[n++] = pre;
          have_pre = true;
          continue;
        }
      out[n++] = *e;
    }
  if (!have_pre)
    {
      snprintf (pre, pre_size, "LD_PRELOAD=%s", saved_self);
      out[n++] = pre;
    }
  for (size_t i = 0; i < n_saved_env; i++)
    out[n++] = saved_env[i];
  out[n] = NULL;
  return out;
}

static size_t
count_env (char *const *envp)
{
  size_t n = 0;

  while (envp && envp[n])
    n++;
  return n;
}

typedef int (*ExecveFn) (const char *, char *const[], char *const[]);

static void end_before_exec (void);

static ExecveFn
real_exec (const char *name)
{
  return (ExecveFn) lookup_next (name);
}

/* On the stack (alloca): a vfork child may exec, and must not call malloc. */
#define WITH_EXEC_ENV(envp, var)                                                          \
  char **var##_out = alloca ((count_env (envp) + n_saved_env + 2) * sizeof (char *));   \
  char var##_pre[4096 + 16];                                                             \
  char *const *var = exec_environment ((envp), var##_out, var##_pre, sizeof var##_pre)

static int
preload_execve (const char *path, char *const argv[], char *const envp[])
{
  ExecveFn fn = real_exec ("execve");
  WITH_EXEC_ENV (envp, env);

  end_before_exec ();

  if (fn == NULL)
    {
      errno = ENOSYS;
      return -1;
    }
  return fn (path, argv, env);
}
INTERPOSE (execve, preload_execve);

static int
preload_execvpe (const char *file, char *const argv[], char *const envp[])
{
  ExecveFn fn = real_exec ("execvpe");
  WITH_EXEC_ENV (envp, env);

  end_before_exec ();

  if (fn == NULL)
    {
      errno = ENOSYS;
      return -1;
    }
  return fn (file, argv, env);
}
INTERPOSE (execvpe, preload_execvpe);

/* The C library's own exec functions call its internal execve, which no interposer
 * sees: each is rebuilt on the two above. */
static int
preload_execv (const char *path, char *const argv[])
{
  return execve (path, argv, environ);
}
INTERPOSE (execv, preload_execv);

static int
preload_execvp (const char *file, char *const argv[])
{
  return execvpe (file, argv, environ);
}
INTERPOSE (execvp, preload_execvp);

/* The arguments of execl and friends, up to the terminating NULL, into @argv. */
#define COLLECT_ARGS(arg, ap, argv)                                                       \
  size_t argv##_n = 1;                                                                   \
  va_start (ap, arg);                                                                    \
  while (va_arg (ap, char *) != NULL)                                                    \
    argv##_n++;                                                                          \
  va_end (ap);                                                                           \
  char **argv = alloca ((argv##_n + 1) * sizeof (char *));                              \
  argv[0] = (char *) arg;                                                                \
  va_start (ap, arg);                                                                    \
  for (size_t i_ = 1; i_ <= argv##_n; i_++)                                              \
    argv[i_] = va_arg (ap, char *)

static int
preload_execl (const char *path, const char *arg, ...)
{
  va_list ap;
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execve (path, argv, environ);
}
INTERPOSE (execl, preload_execl);

static int
preload_execlp (const char *file, const char *arg, ...)
{
  va_list ap;
  COLLECT_ARGS (arg, ap, argv);
  va_end (ap);
  return execvpe (file, argv, environ);
}
INTERPOSE (execlp, preload_execlp);

static int
preload_execle (const char *path, const char *arg, ...)
{
  va_list ap;
  char *const *envp;
  COLLECT_ARGS (arg, ap, argv);
  envp = va_arg (ap, char *const *);
  va_end (ap);
  return execve (path, argv, envp);
}
INTERPOSE (execle, preload_execle);

/* Where this library was loaded from (to find it in LD_PRELOAD). */
static char *
self_path (void)
{
  Dl_info info;

  if (dladdr ((void *) self_path, &info) && info.dli_fname)
    return strdup (info.dli_fname);
  return NULL;
}

/* ---- start and end ----------------------------------------------------------------- */

/* A child of fork() that traces on its own (STROBE_FOLLOW_FORK: the runtime's fork
 * handler, which runs before this one, opened its output); 0 otherwise. Not a vfork
 * child: fork handlers do not run for those, and they share the parent's memory. */
static pid_t followed_pid;

static void
atfork_child (void)
{
  traced = false;
  followed_pid = strobe_output_active () ? getpid () : 0;
  if (followed_pid)
    traced_pid = followed_pid;   /* its exit ends its trace (preload_exit) */
}

/* A followed child that execs: its trace ends here, cleanly (the program it becomes
 * traces on its own), instead of being cut off by the exec. */
static void
end_before_exec (void)
{
  if (followed_pid == 0 || getpid () != followed_pid)
    return;
  strobe__memory_guard++;
  strobe_shutdown ();
  strobe__memory_guard--;
  followed_pid = 0;
}

static void
preload_exit (void)
{
  if (getpid () != traced_pid || adopted)
    return;
  strobe__memory_guard++;
  strobe_shutdown ();
  traced = false;
}

static int
unwind_walker (void **frames, int max)
{
  return unw_backtrace (frames, max);
}

/* dlsym (RTLD_DEFAULT, @name) for a symbol that may be absent. A failed lookup leaves the C
 * library's dlerror state allocated — here, with the guard up, so untraced — and the
 * program's next dl* call frees it through this interposer: a free of an unknown block
 * (python3 -S -c "import _json" reported two). The second dlerror () frees that state. */
static void *
lookup_optional (const char *name)
{
  void *p = dlsym (RTLD_DEFAULT, name);

  if (p == NULL)
    {
      (void) dlerror ();
      (void) dlerror ();
    }
  return p;
}

/* A followed child's own trace file: DIR/PROGRAM-PID.strobe. */
static char follow_file[4096];

/* The program links libstrobe.so: start that runtime as the environment asks (before
 * the environment is stripped) and report into it. */
static void
adopt (const StrobeMemoryHooks *hooks, const char *channels)
{
  bool (*init) (const void *) = (bool (*) (const void *)) lookup_optional ("strobe_init");
  bool (*set) (const char *, bool) = (bool (*) (const char *, bool)) lookup_optional ("strobe_channels_set_enabled");
  void (*stacks) (bool) = (void (*) (bool)) lookup_optional ("strobe_memory_set_callstacks");
  void (*table) (bool) = (void (*) (bool)) lookup_optional ("strobe_memory_set_live_table");
  bool (*out_file) (const char *) = (bool (*) (const char *)) lookup_optional ("strobe_output_file");
  void (*shutdown) (void) = (void (*) (void)) lookup_optional ("strobe_shutdown");

  adopted = hooks;
  if (set && channels && *channels)
    set (channels, true);
  else if (set && (getenv ("STROBE_TRACEFILE") || getenv ("STROBE_TRACEHOST") || follow_file[0]))
    set ("Memory", true);
  if (stacks && getenv ("STROBE_CALLSTACKS"))
    stacks (true);
  if (table && getenv ("STROBE_MEMORY_LIVE_TABLE"))
    table (true);
  hooks->set_stack_walker (unwind_walker);
  if (init)
    init (NULL);
  if (follow_file[0] && out_file)
    out_file (follow_file);
  /* Its own constructor may not have seen the environment (it is stripped below). */
  if (shutdown)
    atexit (shutdown);
}

/* Before the runtime's own constructors (priority 101 < default), so it can stop the
 * runtime's automatic start and do it itself with the guard up. */
__attribute__ ((constructor (101))) static void
preload_init (void)
{
  const char *file = getenv ("STROBE_TRACEFILE");
  const char *host = getenv ("STROBE_TRACEHOST");
  const char *channels = getenv ("STROBE_TRACE");
  const char *follow = getenv ("STROBE_FOLLOW_CHILDREN");
  const StrobeMemoryHooks *hooks;
  long ps = sysconf (_SC_PAGESIZE);
  char *self;

  if (ps > 0)
    page_size = (size_t) ps;
  strobe__no_auto_init = true;
  resolve ();
  strobe__memory_guard++;
  /* A child followed into a file of its own. */
  if (follow && *follow && !(file && *file) && !(host && *host))
    {
      snprintf (follow_file, sizeof follow_file, "%s/%s-%d.strobe", follow,
                program_invocation_short_name, (int) getpid ());
      file = follow_file;
    }
  unw_set_caching_policy (unw_local_addr_space, UNW_CACHE_PER_THREAD);
  unw_set_cache_size (unw_local_addr_space, 1024, 0);

  hooks = (const StrobeMemoryHooks *) (uintptr_t) 0;
  {
    const void *(*get) (void) =
      (const void *(*) (void)) lookup_optional ("strobe_memory_interposer_hooks");
    if (get && (hooks = get ()) != NULL && hooks->size < sizeof (StrobeMemoryHooks))
      hooks = NULL;
  }

  if (hooks)
    adopt (hooks, channels);
  else
    {
      strobe_memory_set_stack_walker (unwind_walker);
      strobe__memory_init_from_env ();
      /* A memory trace is a few bytes per allocation that repeat far apart: one zstd
       * stream holds it in half LZ4's bytes (STROBE_COMPRESSION=lz4 for older readers). */
      if (getenv ("STROBE_COMPRESSION") == NULL)
        strobe__out_set_compression ("zstd");
      /* With an output and no channel list: memory. Without an output, tracing stays
       * off until someone connects. */
      if (channels && *channels)
        strobe_channels_set_enabled (channels, true);
      else if ((file && *file) || (host && *host))
        strobe_channel_set_enabled ("Memory", true);
      if (follow_file[0])
        {
          /* Not setenv (see strip_environment): the runtime's --tracefile= argument. */
          char arg[sizeof follow_file + 16];
          char *argv[] = { (char *) "strobe-preload", arg, NULL };
          int argc = 2;
          char **av = argv;

          snprintf (arg, sizeof arg, "--tracefile=%s", follow_file);
          strobe_parse_args (&argc, &av);
        }
      strobe_init (NULL);
      atexit (preload_exit);
    }
  traced_pid = getpid ();
  pthread_atfork (NULL, NULL, atfork_child);

  self = self_path ();
  if (follow && *follow)
    /* Each child opens a trace of its own from the same variables; not this file. */
    strip_environment (self, true);
  else
    {
      save_environment (self);
      strip_environment (self, false);
    }
  free (self);
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
