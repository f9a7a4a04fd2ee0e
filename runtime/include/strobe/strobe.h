/* strobe.h — the Strobe runtime: structured tracing for C and C++.
 *
 *   STROBE_CHANNEL_DEFINE (CpuChannel);
 *   STROBE_EVENT (App, Tick, STROBE_EVENT_NOSYNC,
 *                 STROBE_FIELD (uint64, Cycle)
 *                 STROBE_FIELD (ansi, Name))
 *
 *   STROBE_LOG (App, Tick, CpuChannel)
 *     {
 *       STROBE_SET (Cycle, strobe_time ());
 *       STROBE_SET_STRING (Name, "tick");
 *     }
 *
 * See runtime/README.md for the environment variables, threading model and limits.
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
#include "strobe-log.h"
#include "strobe-logging.h"
#include "strobe-memory.h"
#include "strobe-misc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STROBE_BLOCK_WAIT_NONE (-1)

/* Zero-initialise, then set what you need. */
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

#define STROBE_TAIL_NONE    (-1)
#define STROBE_CONTROL_NONE (-1)
/* Listen on every interface, not only loopback (also STROBE_CONTROL_LISTEN=all). */
#define STROBE_CONTROL_LISTEN_ALL  (1u << 0)
/* No discovery file (also STROBE_DISCOVERY=0). */
#define STROBE_CONTROL_NO_DISCOVERY (1u << 1)

/* Starts the runtime: the worker and any output named in the environment or by
 * strobe_parse_args(). @options may be NULL. When the runtime is running already (started
 * from the STROBE_TRACE* variables before main, by the LD_PRELOAD interposer or by an
 * output call), the first call with @options still applies them: no_worker stops the
 * worker, control_* close or move the control server, the limits change. Later calls
 * return true and change nothing. False with ECHILD in a child of fork() that does not
 * trace (see STROBE_INIT_FOLLOW_FORK). */
bool strobe_init (const StrobeInitOptions *options);
/* Ships everything committed, writes End, closes the output, stops the worker. */
void strobe_shutdown (void);

/* Consumes --trace=a,b, --tracefile=PATH and --tracehost=HOST[:PORT] from the arguments;
 * outputs open when the runtime starts (at once if it already runs). */
bool strobe_parse_args (int *argc, char ***argv);

/* One round of the worker's job: for programs that set no_worker. Returns false with
 * errno when the output failed during it. */
bool strobe_update (void);
/* Ships everything committed so far to the output before returning. */
bool strobe_flush (void);

/* Outputs: one at a time. Starting one stops the current one; every output receives the
 * handshake, all important events and then live data, so it is complete on its own. */
bool strobe_output_file (const char *path);
bool strobe_output_host (const char *host_port);   /* "host" or "host:port"; port 1980 */
bool strobe_output_stop (void);
bool strobe_output_active (void);
/* errno of the last output failure (an output that could not start: open, connect or its
 * first write; or one that failed and was closed), 0 when none since the last output
 * started. */
int  strobe_output_error (void);
/* The control server's port, advertised in every trace's metadata (0: none). Set by the
 * control server when it starts; set it yourself if you run your own. */
void     strobe_set_control_port (uint16_t port);
uint16_t strobe_get_control_port (void);

/* Names the calling thread in the trace; @group may be NULL. Re-announces the thread. */
void strobe_thread_set_name (const char *name, const char *group, int32_t sort_hint);

typedef struct
{
  uint64_t bytes_emitted;    /* event bytes committed by threads and the important cache */
  uint64_t bytes_sent;       /* bytes written to outputs */
  uint64_t events_emitted;
  uint64_t events_dropped;
  uint64_t buffer_memory;    /* bytes of buffer blocks allocated now */
  uint64_t buffer_limit;
} StrobeStats;

void strobe_get_stats (StrobeStats *stats);

#ifdef __cplusplus
}
#endif
