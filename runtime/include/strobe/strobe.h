/* strobe.h — the Strobe runtime: structured tracing for C and C++. Include this one
 * header; it includes the others.
 *
 *   STROBE_CHANNEL_DEFINE (GameChannel);      // runtime name "Game"
 *   STROBE_EVENT (App, Tick, STROBE_EVENT_NOSYNC,
 *                 STROBE_FIELD (uint64, Cycle)
 *                 STROBE_FIELD (ansi, Name))
 *
 *   STROBE_LOG (App, Tick, GameChannel)
 *     {
 *       STROBE_SET (Cycle, strobe_time ());
 *       STROBE_SET_STRING (Name, "tick");
 *     }
 *
 * This header: starting and stopping the runtime, its options, the arguments helper,
 * outputs, the consumer (strobe_update, strobe_flush), thread names and statistics. See
 * runtime/README.md for the environment variables, threading model and limits.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strobe-channel.h"
#include "strobe-clock.h"
#include "strobe-counters.h"
#include "strobe-cpu.h"
#include "strobe-declare.h"
#include "strobe-flow.h"
#include "strobe-log.h"
#include "strobe-logging.h"
#include "strobe-memory.h"
#include "strobe-sampling.h"
#include "strobe-misc.h"
#include "strobe-session.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* ---- start-up and shutdown -------------------------------------------------------- */

/* StrobeInitOptions.block_wait_ms: a thread that finds the buffer pool at its limit drops
 * its event at once instead of waiting for the consumer to free a block. */
#define STROBE_BLOCK_WAIT_NONE (-1)

/* The options of strobe_init(). Zero-initialise, then set what you need: every 0 means
 * "the environment variable, else the default". Only the first strobe_init() given
 * options applies them. */
typedef struct
{
  bool     no_worker;        /* no background thread: call strobe_update() yourself */
  size_t   buffer_bytes;     /* limit of event buffer memory; 0: STROBE_BUFFER_MB or 64 MiB */
  int      block_wait_ms;    /* wait for a free block before dropping, ms; 0: STROBE_BLOCK_WAIT_MS
                              * or 20; STROBE_BLOCK_WAIT_NONE: drop at once */
  int64_t  tail_bytes;       /* tail ring of recent history for late connects and snapshots;
                              * 0: STROBE_TAIL_MB or 4 MiB; STROBE_TAIL_NONE: no tail */
  int32_t  control_port;     /* control server port (runtime/CONTROL.md); 0: STROBE_CONTROL_PORT
                              * or 1985 (another one when taken); STROBE_CONTROL_NONE: none */
  uint32_t control_flags;    /* STROBE_CONTROL_* below */
  const char *control_write_dir; /* write-to from remote peers allowed inside this directory;
                                  * NULL: STROBE_CONTROL_WRITE_DIR or refused */
  uint32_t flags;            /* STROBE_INIT_* below */
  uint32_t reserved[1];
} StrobeInitOptions;

/* A child of fork() starts a trace of its own (also STROBE_FOLLOW_FORK=1): an output of
 * the parent's kind (a file gets the child's pid before its extension), its own worker
 * and control server. Without it the runtime is off in the child. Never does a child
 * write to its parent's outputs. */
#define STROBE_INIT_FOLLOW_FORK (1u << 0)

/* StrobeInitOptions.tail_bytes: no tail ring (a late output gets no recent history). */
#define STROBE_TAIL_NONE    (-1)
/* StrobeInitOptions.control_port: no control server (the program cannot be traced late). */
#define STROBE_CONTROL_NONE (-1)
/* Listen on every interface, not only loopback (also STROBE_CONTROL_LISTEN=all). */
#define STROBE_CONTROL_LISTEN_ALL  (1u << 0)
/* No discovery file (also STROBE_DISCOVERY=0). */
#define STROBE_CONTROL_NO_DISCOVERY (1u << 1)

/* Starts the runtime: the worker thread, the control server and any output named in the
 * environment (STROBE_TRACEFILE, else STROBE_TRACEHOST) or by strobe_parse_args(), which
 * then win. @options may be NULL. Returns true once the runtime runs, also when the output
 * could not be opened (said on stderr, and by strobe_output_error()).
 *
 * When the runtime is running already (started from the STROBE_TRACE* variables before
 * main, by the LD_PRELOAD interposer or by an output call), the first call with @options
 * still applies them: no_worker stops the worker, control_* close or move the control
 * server, the limits change. Later calls return true and change nothing; so does
 * strobe_init (NULL). False with ECHILD in a child of fork() that does not trace (see
 * STROBE_INIT_FOLLOW_FORK). A name in STROBE_TRACE or --trace= that matches no channel is
 * reported once on stderr, here when @options is given, else a second later.
 *
 * Cost: once per process: measuring the clock (15 ms unless already done), the worker
 * and control server threads, a listening socket, the discovery file, the output's start
 * (see strobe_output_file).
 * Later calls: a mutex.
 * Blocks: on the output's start (opening the file, or resolving and connecting to the
 * host: up to 3 s per address), and while options stop the worker (it finishes its
 * round) or restart the control server.
 * Threads: any thread, calls serialised by a lock; usually main, before other threads
 * trace. Not in a signal handler. */
bool strobe_init (const StrobeInitOptions *options);

/* Stops the runtime for good: reports unmatched STROBE_TRACE/--trace= names, ships the
 * calling thread's CPU batch, stops the control server and the worker, then stops the
 * output (everything committed is shipped, then Stats and End are written) and lets
 * threads that still log drop at once instead of waiting for buffer space. Does nothing
 * when the runtime never started or has stopped already. The automatic start registers it
 * with atexit().
 *
 * CPU scopes that other, still running threads recorded in their last 20 ms are not in
 * the trace unless those threads exited or called strobe_cpu_flush_thread() first
 * (INSTRUMENTATION.md, "Batch encoding"). The runtime does not start again: strobe_init()
 * after it changes nothing.
 *
 * Cost: a last update round and closing the output (under a millisecond for a small
 * trace into a file).
 * Blocks: joins the control server and the worker thread; writes the rest of the trace:
 * a file's disk, or a peer that does not read for up to 2 s, then up to 2 s for End
 * (after that the connection is closed with the rest unsent).
 * Threads: any one thread, once; not in a signal handler. */
void strobe_shutdown (void);

/* Consumes the runtime's three options from the program's arguments: --trace=LIST
 * (channels to enable: added to STROBE_TRACE, never removing any; may be repeated),
 * --tracefile=PATH and --tracehost=HOST[:PORT] (which take the place of STROBE_TRACEFILE
 * and STROBE_TRACEHOST; given both, the file wins). Only the --opt=value form is consumed:
 * an option and its value as two arguments (--trace cpu) are left alone. The scan stops
 * at "--", which stays in the arguments with everything after it (a program it runs gets
 * them untouched).
 *
 * Consumed arguments are removed from @argv (the rest keep their order, a NULL after the
 * last) and @argc is updated. The outputs open when the runtime starts, or at once when it
 * runs already (started from the environment before main); a failure to open is said on
 * stderr. Always returns true.
 *
 * Cost: one pass over the arguments, plus the output's start when the runtime runs.
 * Blocks: only then, on that start (see strobe_output_file, strobe_output_host).
 * Threads: the thread that owns @argv, before anything else reads it (usually first
 * thing in main); not in a signal handler. */
bool strobe_parse_args (int *argc, char ***argv);

/* ---- the consumer ----------------------------------------------------------------- */

/* One round of the worker's job, for programs that set no_worker (STROBE_NO_WORKER=1):
 * takes every thread's committed events and memory records, ships new Important records
 * first, then the threads' data, to the output (LZ4 packets), and every 250 ms a
 * $Trace.Stats event. Without an output the data only feeds the tail ring. With the
 * worker running it is one more round. Returns false, with errno, while
 * strobe_output_error() is not 0: an output failed, or could not start, since the last
 * one started.
 *
 * Cost: proportional to what was committed since the last round (under a microsecond
 * when there is nothing; compressing and writing otherwise). Call it often enough that
 * the buffers (64 MiB by default) do not fill: a thread that finds the pool full waits
 * up to STROBE_BLOCK_WAIT_MS, then drops.
 * Blocks: on the update lock while another round or an output change runs; on the
 * output's write: a file's disk, a socket whose peer does not read for up to 50 ms (the
 * rest is kept for the next round).
 * Threads: any thread, rounds serialised by the update lock; not in a signal handler. */
bool strobe_update (void);

/* Ships what has been committed so far: asks every thread to ship its CPU scope batch at
 * its next scope record (the calling thread's goes at once), then runs one update round
 * (strobe_update). A thread that records no more scopes keeps its last batch (< 20 ms)
 * until it does or exits; a socket whose peer does not read keeps the rest pending.
 * A Fatal log message calls it. Returns as strobe_update.
 *
 * Cost: one update round, plus a walk over the threads.
 * Blocks: as strobe_update.
 * Threads: any thread; not in a signal handler. */
bool strobe_flush (void);

/* ---- outputs ------------------------------------------------------------------------ */

/* One output at a time: starting one stops the current one, which gets everything
 * committed and its End. Every output receives the handshake, all Important events (every
 * schema, name and channel declared so far) and the tail of recent history, then live
 * data, so each file or connection is a complete trace on its own. */

/* Writes the trace to the file @path (created, or truncated) from now on; starts the
 * runtime first if needed (strobe_init (NULL)). False with errno when @path cannot be
 * opened (the current output then goes on) or the start could not be written; ECHILD in
 * a child of fork() that does not trace.
 *
 * Cost: stopping the current output, then writing the handshake, the important cache and
 * the tail (up to 4 MiB by default) into the file.
 * Blocks: on the update lock, and on the disk while all that is written.
 * Threads: any thread; other threads keep logging meanwhile (into their buffers). Not in a
 * signal handler. */
bool strobe_output_file (const char *path);

/* Streams the trace to a recorder (the viewer, `strobe-cli serve`) at @host_port:
 * "host", "host:port", "[v6]" or "[v6]:port"; port 1980 by default. Starts the runtime
 * first if needed. False with errno when @host_port is malformed (EINVAL), the name does
 * not resolve (EHOSTUNREACH), the connection fails or times out (3 s), or the start could
 * not be sent; the current output then goes on.
 *
 * Cost: name resolution, a TCP connect, then as strobe_output_file.
 * Blocks: on name resolution (the resolver's own timeouts), up to 3 s per address for
 * the connection, then as strobe_output_file; a peer that does not read delays each
 * write by at most 50 ms.
 * Threads: any thread; not in a signal handler. */
bool strobe_output_host (const char *host_port);

/* Stops the current output: ships everything committed, writes the final Stats and End,
 * closes it. Nothing when there is none. Always returns true; a peer that stopped
 * reading is given up on (see Blocks), said on stderr and by strobe_output_error()
 * (ETIMEDOUT). Events keep going into the buffers and the tail ring.
 *
 * Cost: update rounds until nothing is left to ship.
 * Blocks: on the update lock; on a file's disk; on a peer that does not read for up to
 * 2 s of draining and 2 s more for End.
 * Threads: any thread; not in a signal handler. */
bool strobe_output_stop (void);

/* True while an output is open (false once a write error closed it).
 *
 * Cost: the update lock, uncontended: under one clock read.
 * Blocks: on the update lock while a round (up to 50 ms with a slow peer) or an output
 * change runs.
 * Threads: any thread; not in a signal handler. */
bool strobe_output_active (void);

/* errno of the last output failure (an output that could not start: open, connect or its
 * first write; or one that failed and was closed), 0 when none since the last output
 * started.
 *
 * Cost: one relaxed load. Blocks: never.
 * Threads: any thread, also a signal handler. */
int  strobe_output_error (void);

/* The control server's port, advertised in the metadata of every output started from now
 * on (0: none). Set by the control server when it starts (0 when it stops); set it
 * yourself if you run your own.
 *
 * Cost: one relaxed store. Blocks: never. Threads: any thread. */
void     strobe_set_control_port (uint16_t port);

/* The port strobe_set_control_port() set last: the control server's, 0 when there is
 * none (runtime/CONTROL.md).
 *
 * Cost: one relaxed load. Blocks: never. Threads: any thread, also a signal handler. */
uint16_t strobe_get_control_port (void);

/* ---- threads and statistics --------------------------------------------------------- */

/* Names the calling thread in the trace, in group @group (NULL: none; viewers put a
 * group's threads together) with @sort_hint (smaller first). Sends $Trace.ThreadInfo,
 * an Important event kept for the process lifetime: name a thread once, not per frame.
 * Threads that never call it are named from pthread_getname_np() at their first event.
 *
 * Cost: one Important event (a mutex and a copy into the important cache).
 * Blocks: on the important cache's mutex, held briefly by other threads.
 * Threads: any thread, for itself; not in a signal handler. */
void strobe_thread_set_name (const char *name, const char *group, int32_t sort_hint);

/* The runtime's running totals, as in the $Trace.Stats events (README.md,
 * "Back-pressure"). Counted from the start of the process (of the child, after fork). */
typedef struct
{
  uint64_t bytes_emitted;    /* event bytes taken from threads and the important cache */
  uint64_t bytes_sent;       /* bytes written to outputs */
  uint64_t events_emitted;   /* events committed, still buffered ones included */
  uint64_t events_dropped;   /* events dropped and counted: full buffers, too large, in a
                              * signal handler that interrupted an emit, out of memory */
  uint64_t buffer_memory;    /* bytes of buffer blocks allocated now */
  uint64_t buffer_limit;     /* their limit (StrobeInitOptions.buffer_bytes) */
} StrobeStats;

/* Fills @stats with the totals now.
 *
 * Cost: the update lock and a walk over every thread's buffer blocks (about two clock
 * reads with one thread).
 * Blocks: on the update lock while a round or an output change runs.
 * Threads: any thread; not in a signal handler. */
void strobe_get_stats (StrobeStats *stats);

#pragma GCC visibility pop

/* Linked with libstrobe.a, a program that includes this header gets the whole runtime, as
 * with libstrobe.so: the start from the environment (runtime/README.md) is part of it,
 * though the code that emits never calls it (the runtime's lower parts reach the higher
 * ones through hooks, not calls). Not in the runtime's own sources. */
#ifndef STROBE_COMPILATION
__attribute__ ((used, unused)) static bool (*const strobe__link_runtime) (const StrobeInitOptions *) = strobe_init;
#endif

#ifdef __cplusplus
}
#endif
