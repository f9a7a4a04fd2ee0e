/* strobe-private.h — what the runtime's files share; not installed. */
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

/* ---- locks: every mutex of the runtime, in the order they nest (strobe-fork.c takes
 * them all in this order around a fork) ------------------------------------------------ */

extern pthread_mutex_t strobe__init_lock;        /* strobe-init.c */
extern pthread_mutex_t strobe__channels_lock;    /* strobe-channel.c */
extern pthread_mutex_t strobe__log_lock;         /* strobe-logging.c */
extern pthread_mutex_t strobe__cpu_spec_lock;    /* strobe-cpu.c */
extern pthread_mutex_t strobe__counters_lock;    /* strobe-counters.c */
extern pthread_mutex_t strobe__bookmark_lock;    /* strobe-misc.c */
extern pthread_mutex_t strobe__discovery_lock;   /* strobe-discovery.c */
extern pthread_mutex_t strobe__update_lock;      /* strobe-update.c */
extern pthread_mutex_t strobe__threads_lock;     /* strobe-thread.c */
extern pthread_mutex_t strobe__events_lock;      /* strobe-event.c */
extern pthread_mutex_t strobe__important_lock;   /* strobe-important.c */
extern pthread_mutex_t strobe__pool_lock;        /* strobe-pool.c */
extern pthread_mutex_t strobe__worker_lock;      /* strobe-update.c */

/* ---- fork (strobe-fork.c); the *_after_fork_child functions run in the child with
 * every lock above held ---------------------------------------------------------------- */

void strobe__fork_init (void);
void strobe__counters_fork_lock (bool lock);   /* every counter's value lock */
bool strobe__init_running_locked (bool *follow);
void strobe__init_after_fork_child_off (void);
const StrobeInitOptions *strobe__init_options (void);
void strobe__out_forget_child_locked (char *kind, size_t kind_size, char *what, size_t what_size);
void strobe__update_after_fork_child (void);
void strobe__control_after_fork_child (void);
void strobe__threads_after_fork_child (void);
void strobe__cpu_after_fork_child (void);
void strobe__tail_clear_locked (void);
void strobe__channels_after_fork_child_off (void);
bool strobe__worker_running (void);
bool strobe__control_running (void);

/* ---- blocks (strobe-pool.c) ---------------------------------------------------- */

typedef struct StrobeBlock
{
  StrobeBlockHeader   hdr;
  struct StrobeBlock *next;        /* linked by the producer (release) */
  struct StrobeBlock *free_next;   /* pool free list */
  uint8_t            *shipped;     /* consumer only */
  size_t              capacity;
  uint8_t             data[];
} StrobeBlock;

void         strobe__pool_configure (size_t limit_bytes, int wait_ms);
StrobeBlock *strobe__pool_get (size_t min_capacity, bool wait);
void         strobe__pool_put (StrobeBlock *block);
size_t       strobe__pool_memory (void);
size_t       strobe__pool_limit (void);

/* ---- threads (strobe-thread.c) --------------------------------------------------- */

typedef struct StrobeThread
{
  struct StrobeThread *next;       /* global list, under strobe__threads_lock */
  uint16_t             id;
  StrobeBlock         *first;      /* set once by the producer (release) */
  StrobeBlock         *tail;       /* producer's current block (release) */
  int                  exited;     /* set by the producer after its last commit (release) */
  uint64_t             exit_time;  /* strobe_time() at exit, written before exited */
  uint64_t             dropped;    /* written by the producer only (relaxed) */
  bool                 dropping;   /* producer: no block, try once per event without waiting */
  bool                 aux_open;   /* producer: an aux event is being built */
  bool                 no_wait;    /* producer: never wait for blocks (the updater) */
  StrobeCpuTls        *cpu_tls;    /* the thread's CPU batch state, under strobe__threads_lock */
  /* Consumer side, under the update lock. */
  StrobeBlock         *head;
  uint64_t             events_retired;
  StrobeBlock         *snap_block;
  uint8_t             *snap_committed;
  bool                 snap_valid;
  bool                 snap_exited;
} StrobeThread;

extern StrobeThread   *strobe__threads;
StrobeThread *strobe__thread_current (void);
void          strobe__thread_set_no_wait (bool no_wait);
void          strobe__thread_free (StrobeThread *thread);
void          strobe__count_drop (void);

/* ---- CPU scope batches (strobe-cpu.c) --------------------------------------------- */

/* Every thread ships its batch at its next scope record; the caller's ships now. */
void strobe__cpu_request_flush_all (void);
/* From the thread's exit hook, before its last commit. */
void strobe__cpu_thread_exit (void);

/* ---- important cache (strobe-important.c) ---------------------------------------- */

bool   strobe__important_append (const void *a, size_t a_len, const void *b, size_t b_len,
                                 const void *c, size_t c_len, const void *d, size_t d_len);
/* Copies cache bytes [from, …) into @out (whole records); returns the new end offset. */
size_t strobe__important_copy (size_t from, StrobeWireBuf *out);
size_t strobe__important_size (void);

/* ---- events, channels, system events --------------------------------------------- */

/* uid → flags and payload size of a registered event type; false when unknown. */
bool strobe__event_layout (uint16_t uid, uint8_t *flags, uint16_t *payload_size);

void strobe__global_init (void);            /* pthread_once: clock, ids, system events, env */
void strobe__events_init (void);
void strobe__channels_init (void);
/* Like strobe_channels_set_enabled(); names matching no channel go to @unmatched (and
 * are remembered), those not remembered either (the rules are bounded) to @refused. */
void strobe__channels_set_reporting (const char *list, bool enabled, char *unmatched,
                                     size_t unmatched_size, char *refused, size_t refused_size);
/* --trace=LIST: like STROBE_TRACE, reported once when a name matches no channel. */
void strobe__channels_add_start_list (const char *list);
void strobe__channels_schedule_report (void);
void strobe__channels_report_unmatched (bool now);
void strobe__system_init (void);
void strobe__clock_init (void);
uint64_t strobe__clock_origin (void);
uint64_t strobe__clock_start_ns (void);
uint8_t  strobe__clock_source (void);

void strobe__emit_thread_info (uint16_t id, const char *name, const char *group, int32_t sort_hint);
void strobe__emit_thread_end (uint16_t id, uint64_t timestamp);
void strobe__emit_channel_announce (uint32_t id, bool enabled, const char *name);
void strobe__emit_channel_toggle (uint32_t id, bool enabled);
void strobe__emit_stats (void);

/* ---- consumer (strobe-update.c) and output (strobe-output.c) ---------------------- */

/* One round: snapshot, importants, thread data; under the update lock. Returns bytes moved. */
size_t strobe__update_locked (void);
void   strobe__worker_start (void);
void   strobe__worker_stop (void);
void   strobe__worker_kick (void);
void   strobe__stats_collect (StrobeStats *stats);
void   strobe__replay_importants_locked (void);
void   strobe__importants_to_packets (const uint8_t *data, size_t len,
                                      void (*sink) (uint16_t thread_id, const uint8_t *data,
                                                    size_t len, void *user),
                                      void *user);

/* Sinks one packet's payload; with no output it is discarded. */
void   strobe__out_packet (uint16_t thread_id, const uint8_t *data, size_t len);
bool   strobe__out_active (void);
void   strobe__out_write_pending (void);
/* Too many bytes the peer has not taken yet: the updater leaves data in the threads' blocks. */
bool   strobe__out_backed_up (void);
bool   strobe__out_start_locked (int fd, bool is_socket);
void   strobe__out_stop_locked (void);
void   strobe__out_add_sent (size_t n);
uint64_t strobe__out_bytes_sent (void);
/* Starts an output on @fd (taken over), described as "KIND:WHAT" in status replies. */
bool   strobe__out_start_described (int fd, bool is_socket, const char *kind, const char *what);
/* Connects to "host[:port]" (port 1980, 3 s timeout); -1 with errno. */
int    strobe__connect_host (const char *host_port);
/* Why the calling thread's last strobe__connect_host() failed (@err: its errno). */
const char *strobe__connect_error (int err);
/* NULL when @host_port is a valid HOST[:PORT], else why not (core/protocol/strobe-host-port.h). */
const char *strobe__host_port_problem (const char *host_port);
/* A one-off copy: handshake, important cache, Sync, tail, End, written to @fd (closed). */
bool   strobe__snapshot_fd (int fd, bool is_socket);
/* What the current output is, for the control server's status ("" when none). */
void   strobe__out_describe (char *buf, size_t size);

/* ---- tail ring (strobe-tail.c), under the update lock ----------------------------- */

void     strobe__tail_configure (size_t limit_bytes);
/* @sent: an output receives it as well. */
void     strobe__tail_keep_newest (size_t bytes);
void     strobe__tail_add (uint16_t thread_id, const uint8_t *data, size_t len, bool sent);
void     strobe__tail_stats (size_t *bytes, size_t *packets, size_t *limit);
uint32_t strobe__tail_start_serial (uint32_t fallback, bool unsent_only);
bool     strobe__tail_foreach (bool unsent_only, bool (*fn) (uint16_t thread_id, const uint8_t *data, size_t len,
                                           void *user),
                               void *user);

/* ---- control server and discovery (strobe-control.c, strobe-discovery.c) --------- */

void strobe__control_start (const StrobeInitOptions *options);
void strobe__control_stop (void);
/* Writes (or rewrites) this process's discovery file; removes it when @remove. */
void strobe__discovery_publish (uint16_t control_port, bool listen_all, bool tracing,
                                const char *secret);
void strobe__discovery_remove (void);

/* ---- aux records (strobe-thread.c builds, strobe-aux.c converts) ------------------- */

/* Room for one AuxData record with up to @max_value bytes; NULL when the event fails. */
uint8_t *strobe__aux_record_begin (StrobeAux *aux, size_t max_value);
void     strobe__aux_record_end (StrobeAux *aux, uint8_t *record, unsigned index, size_t value_size);
uint64_t strobe__dropped_elsewhere (void);

/* ---- memory tracing (strobe-memory.c) ---------------------------------------------- */

/* Marks the calling thread as one of the runtime's own (worker, control server): the
 * LD_PRELOAD interposer never traces its allocations. */
void strobe__thread_untraced (void);
/* Set by the interposer before constructors run: it starts the runtime itself. */
extern bool strobe__no_auto_init;
/* Raised while the calling thread is inside the runtime (strobe-memory.c): allocations it
 * makes then are the runtime's, never traced (the LD_PRELOAD interposer reports them
 * otherwise, and a round that allocates would report itself round after round). */
extern __thread int strobe__memory_guard __attribute__ ((tls_model ("initial-exec")));
/* The updater's part of each round: threads' allocation records (strobe-memory-ring.c). */
void strobe__memory_drain (void);
/* An output just started: memory tracing into it begins with a live-set snapshot. */
void strobe__memory_output_started (void);
/* A fork()ed child (strobe-fork.c, before anything else): memory tracing is over there. */
void strobe__memory_after_fork_child (void);
/* From the thread exit hook. */
void strobe__memory_thread_exit (void);
