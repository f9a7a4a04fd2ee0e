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
 * those after it. strobe-fork.c takes them all in this order around a fork(), so the child
 * finds each one in a consistent state.
 *
 *   strobe__init_lock        (below)
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
 * The memory channel's locks are its own (strobe-memory-private.h); the counters' value
 * locks nest inside everything (strobe__counters_fork_lock). */

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

void strobe__global_init (void);            /* pthread_once: clock, ids, system events, env */
/* The options the runtime runs with. */
const StrobeInitOptions *strobe__init_options (void);

/* ---- fork (strobe-fork.c); the *_after_fork_child functions of every subsystem run in
 * the child with every lock above held ------------------------------------------------- */

void strobe__fork_init (void);
bool strobe__init_running_locked (bool *follow);
void strobe__init_after_fork_child_off (void);
