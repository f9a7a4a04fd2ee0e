/* strobe-private.h — what every part of the runtime shares: its limits, the order in which
 * its locks nest, start-up and fork(). Not installed.
 *
 * Each subsystem has its own private header, which names its locks and what they guard:
 *   strobe-buffers-private.h     blocks, threads, the important cache, the consumer (worker)
 *   strobe-output-private.h      the output (file or connection), the tail ring, snapshots
 *   strobe-control-private.h     the control server and the discovery file
 *   strobe-instrument-private.h  event types, channels, system events, the clock, CPU
 *                                scopes, logging, counters, bookmarks
 *   strobe-memory-private.h      memory tracing (and what the interposer calls)
 * A file includes the headers of the subsystems it uses, not all of them. */
#pragma once

#include <pthread.h>
#include <stdatomic.h>

#include "strobe/strobe.h"
#include "strobe-wire.h"

#define STROBE_BLOCK_SIZE        (64u * 1024u)
#define STROBE_DEFAULT_BUFFER_MB 64u
#define STROBE_DEFAULT_WAIT_MS   20
#define STROBE_DEFAULT_TAIL_BYTES (4u * 1024u * 1024u)
#define STROBE_DEFAULT_CONTROL_PORT 1985
/* An event with its aux data must fit in one packet. */
#define STROBE_MAX_EVENT_SIZE    (STROBE_WIRE_MAX_PAYLOAD - 64u)

/* ---- the lock order ---------------------------------------------------------------------
 * Every global lock of the runtime, outermost first: a thread holding one may take only
 * those after it. They are all defined in strobe-runtime-hooks.c, in this order, and its
 * pthread_atfork prepare handler takes them in this order around a fork(), so the child
 * finds each one in a consistent state. The order is what keeps that from deadlocking:
 * change it only with the code that nests them.
 *
 *   strobe__init_lock        (below)
 *   (every counter's value lock, the counters' fork hook: strobe-counters.c)
 *   strobe__channels_lock    strobe-instrument-private.h
 *   strobe__log_lock         strobe-instrument-private.h
 *   strobe__cpu_spec_lock    strobe-instrument-private.h
 *   strobe__counters_lock    strobe-instrument-private.h
 *   strobe__bookmark_lock    strobe-instrument-private.h
 *   strobe__discovery_lock   strobe-control-private.h
 *   strobe__update_lock      strobe-buffers-private.h (also guards the output and the tail)
 *   strobe__threads_lock     strobe-buffers-private.h
 *   strobe__events_lock      strobe-instrument-private.h
 *   strobe__important_lock   strobe-buffers-private.h
 *   strobe__pool_lock        strobe-buffers-private.h
 *   strobe__worker_lock      strobe-buffers-private.h
 *   strobe__session_lock     (below; a leaf: held for a copy of the session name)
 * The memory channel's locks are its own (strobe-memory-private.h): a forked child does
 * not trace memory, so fork() does not take them. */

/* ---- the layers, and the hooks a lower one calls a higher one through ----------------
 * The runtime's files call downward only, bottom first:
 *   strobe-runtime-hooks.c   the locks above, fork()'s handlers, the thread's fast-path
 *                            state, the hooks below (includes no subsystem's header)
 *   clock, important cache, event registry, pool, threads (slow path), aux, channels,
 *   system events, session, strobe-global-init.c (the start every part may need)
 *   instrumentation: CPU scopes, logging, counters, bookmarks, flows, memory, sampling
 *   the consumer (strobe-update.c), the tail, the output, discovery, the control server
 *   strobe-init.c: strobe_init(), the outputs' start, shutdown, a forked child
 * Where a lower part must reach a higher one (a thread announcing itself with a system
 * event, a full block kicking the worker, a round handing packets to the output), it calls
 * a hook of strobe__hooks_get(). A part that implements hooks names a function that sets
 * them with STROBE_HOOKS_SETTER: a pointer to it in the section "strobe_hooks", so the
 * list is made by the linker, not by code that runs: the first strobe__hooks_get() calls
 * every setter of the program, whichever constructor (of the runtime, the interposer or
 * the program) asks first. A hook that no part sets does nothing (false, 0): that part is
 * not in the program (a static link without it). */

typedef struct
{
  /* strobe-system.c: the $Trace events of a thread's start and of the channels. */
  void (*emit_thread_info) (uint16_t id, const char *name, const char *group, int32_t sort_hint);
  void (*emit_channel_announce) (uint32_t id, bool enabled, const char *name);
  void (*emit_channel_toggle) (uint32_t id, bool enabled);
  /* strobe-memory-state.c: @ch is being switched off (before the store that does it). */
  void (*channel_turning_off) (StrobeChannel *ch);
  /* From the exit of a thread that traced, before its last commit, in this order. */
  void (*cpu_thread_exit) (void);      /* strobe-cpu.c */
  void (*memory_thread_exit) (void);   /* strobe-memory-ring.c */
  /* strobe-update.c: the consumer. */
  void (*consumer_kick) (void);        /* wake the worker */
  bool (*consumer_update) (void);      /* strobe_update() */
  bool (*consumer_flush) (void);       /* strobe_flush() */
  /* strobe-output.c: where a round's packets go (strobe-output-private.h). */
  void     (*out_packet) (uint16_t thread_id, const uint8_t *data, size_t len);
  void     (*out_write_pending) (void);
  bool     (*out_backed_up) (void);
  bool     (*out_active) (void);
  uint64_t (*out_bytes_sent) (void);
  int      (*out_error) (void);
  /* fork(): every counter's value lock (strobe-counters.c), taken and released around
   * it; the child's own handling (strobe-init.c), first with every lock held, then once
   * they are released. */
  void (*counters_fork_lock) (bool lock);
  void (*fork_child_locked) (void);
  void (*fork_child_unlocked) (void);
} StrobeHooks;

typedef void (*StrobeHooksSetter) (StrobeHooks *hooks);

/* Outside any function: lists @fn for strobe__hooks_get(). Not instrumented by
 * AddressSanitizer (GCC leaves variables of a named section alone), so the section stays
 * an array. */
#define STROBE_HOOKS_SETTER(fn)                                                              \
  __attribute__ ((used, section ("strobe_hooks"))) static const StrobeHooksSetter           \
    strobe__hooks_setter_##fn = fn

/* The hooks, every setter of the program applied (the first call applies them). */
const StrobeHooks *strobe__hooks_get (void);

/* Registers the fork() handlers (once, from strobe__global_init). */
void strobe__fork_init (void);

/* The runtime's own work raises it so its allocations are not traced (the memory
 * channel, the interposer); strobe-runtime-hooks.c. */
extern __thread int strobe__memory_guard __attribute__ ((tls_model ("initial-exec")));

/* ---- the session and the clock domain (strobe-session.c) ---------------------------- */

extern pthread_mutex_t strobe__session_lock;

/* Reads STROBE_SESSION (once, at start). */
void strobe__session_init (void);

/* The machine's boot id as 16 bytes (metadata clock_domain); all zero and false when
 * /proc does not say. */
bool strobe__clock_domain (uint8_t domain[16]);

/* ---- start-up (strobe-init.c) ------------------------------------------------------- */

/* Guards the runtime's state as a whole: whether it runs, with which options, and every
 * start, stop and restart of the worker, the control server and the outputs' setup. */
extern pthread_mutex_t strobe__init_lock;

/* strobe-global-init.c, once: the clock, the session, the channels' environment, the
 * fork() handlers. What any part may need before strobe_init(). */
void strobe__global_init (void);

