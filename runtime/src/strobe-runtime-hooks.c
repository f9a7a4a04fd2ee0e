/* strobe-runtime-hooks.c — the bottom of the runtime: every global lock, defined here in
 * the one order in which they nest (strobe-private.h, "the lock order"), fork()'s
 * handlers that take them all, the thread's fast-path state, and the hooks through which
 * a lower part of the runtime calls a higher one (strobe-private.h, "the layers"). It
 * includes no subsystem's header: each subsystem sets its own hooks.
 *
 * pthread_atfork's prepare handler takes every lock of the runtime in that order, so the
 * child gets them in a consistent state (a lock held by a thread that does not exist in
 * the child would never be released there); what the child then does is strobe-init.c's. */
#include "strobe-private.h"


__thread StrobeTls strobe__tls __attribute__ ((tls_model ("initial-exec")));
__thread int strobe__memory_guard __attribute__ ((tls_model ("initial-exec")));

/* Outermost first. Statically initialised: registration runs from constructors, before
 * main and before the runtime itself is initialised. */
pthread_mutex_t strobe__init_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__channels_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__log_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__cpu_spec_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__counters_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__bookmark_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__discovery_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__update_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__threads_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__events_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__important_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__pool_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__worker_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t strobe__session_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the hooks ------------------------------------------------------------------------ */

/* What a hook does when no part of the program sets it: nothing. */
static void
no_thread_info (uint16_t id, const char *name, const char *group, int32_t sort_hint)
{
  (void) id, (void) name, (void) group, (void) sort_hint;
}

static void
no_channel_announce (uint32_t id, bool enabled, const char *name)
{
  (void) id, (void) enabled, (void) name;
}

static void
no_channel_toggle (uint32_t id, bool enabled)
{
  (void) id, (void) enabled;
}

static void
no_channel_off (StrobeChannel *ch)
{
  (void) ch;
}

static void
no_packet (uint16_t thread_id, const uint8_t *data, size_t len)
{
  (void) thread_id, (void) data, (void) len;
}

static void
no_lock (bool lock)
{
  (void) lock;
}

static void nothing (void) { }
static bool done (void) { return true; }
static bool no (void) { return false; }
static uint64_t none (void) { return 0; }
static int no_error (void) { return 0; }

/* The linker's bounds of the section STROBE_HOOKS_SETTER fills; weak: a program may have
 * no setter at all. */
extern const StrobeHooksSetter __start_strobe_hooks[] __attribute__ ((weak));
extern const StrobeHooksSetter __stop_strobe_hooks[] __attribute__ ((weak));

static StrobeHooks    hooks;
static int            hooks_ready;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void
hooks_install_once (void)
{
  StrobeHooks h = {
    .emit_thread_info = no_thread_info,
    .emit_channel_announce = no_channel_announce,
    .emit_channel_toggle = no_channel_toggle,
    .channel_turning_off = no_channel_off,
    .cpu_thread_exit = nothing,
    .memory_thread_exit = nothing,
    .consumer_kick = nothing,
    .consumer_update = done,
    .consumer_flush = done,
    .out_packet = no_packet,
    .out_write_pending = nothing,
    .out_backed_up = no,
    .out_active = no,
    .out_bytes_sent = none,
    .out_error = no_error,
    .counters_fork_lock = no_lock,
    .fork_child_locked = nothing,
    .fork_child_unlocked = nothing,
  };

  for (const StrobeHooksSetter *p = __start_strobe_hooks; p && p < __stop_strobe_hooks; p++)
    (*p) (&h);
  hooks = h;
  __atomic_store_n (&hooks_ready, 1, __ATOMIC_RELEASE);
}

const StrobeHooks *
strobe__hooks_get (void)
{
  if (__builtin_expect (!__atomic_load_n (&hooks_ready, __ATOMIC_ACQUIRE), 0))
    pthread_once (&hooks_once, hooks_install_once);
  return &hooks;
}

/* ---- fork() ---------------------------------------------------------------------------- */

static pthread_mutex_t *const fork_locks[] = {
  &strobe__init_lock,
  &strobe__channels_lock,
  &strobe__log_lock,
  &strobe__cpu_spec_lock,
  &strobe__counters_lock,
  &strobe__bookmark_lock,
  &strobe__discovery_lock,
  &strobe__update_lock,
  &strobe__threads_lock,
  &strobe__events_lock,
  &strobe__important_lock,
  &strobe__pool_lock,
  &strobe__worker_lock,
  &strobe__session_lock,
};

#define N_FORK_LOCKS (sizeof fork_locks / sizeof fork_locks[0])

/* The counters' value locks come right after the first: each is held while its
 * counter's spec and value are emitted. */
static void
unlock_all (void)
{
  for (size_t i = N_FORK_LOCKS; i-- > 1;)
    pthread_mutex_unlock (fork_locks[i]);
  strobe__hooks_get ()->counters_fork_lock (false);
  pthread_mutex_unlock (fork_locks[0]);
}

static void
prepare (void)
{
  pthread_mutex_lock (fork_locks[0]);
  strobe__hooks_get ()->counters_fork_lock (true);
  for (size_t i = 1; i < N_FORK_LOCKS; i++)
    pthread_mutex_lock (fork_locks[i]);
}

static void
parent (void)
{
  unlock_all ();
}

static void
child (void)
{
  strobe__hooks_get ()->fork_child_locked ();
  unlock_all ();
  strobe__hooks_get ()->fork_child_unlocked ();
}

void
strobe__fork_init (void)
{
  pthread_atfork (prepare, parent, child);
}
