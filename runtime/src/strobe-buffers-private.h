/* strobe-buffers-private.h — where events wait between their thread and an output: the
 * block pool, the threads' chains of blocks, the important cache, and the consumer (the
 * worker thread, or strobe_update) that drains them. Not installed.
 *
 * Locks (strobe-private.h has their order):
 *   strobe__update_lock     the consumer: one round at a time, every thread's consumer-side
 *                           fields (head, snap_*), the output (strobe-output-private.h) and
 *                           the tail ring; every output start and stop happens under it.
 *   strobe__threads_lock    the list of threads (strobe__threads) and each one's cpu_tls.
 *   strobe__important_lock  the important cache's bytes.
 *   strobe__pool_lock       the pool's free list and its memory count.
 *   strobe__worker_lock     the worker thread's state (running, quit, kicked) and its
 *                           condition variable.
 * A producer's own fields are its thread's alone (no lock; release/acquire where the
 * consumer reads them). */
#pragma once

#include "strobe-private.h"

extern pthread_mutex_t strobe__update_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__threads_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__important_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__pool_lock;   /* strobe-runtime-hooks.c */
extern pthread_mutex_t strobe__worker_lock;   /* strobe-runtime-hooks.c */

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
  uint32_t             system_id;  /* its OS thread id (the ThreadInfo's SystemId) */
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
void          strobe__threads_after_fork_child (void);
/* Whether a live thread with OS id @system_id has a stream (traced an event); takes
 * strobe__threads_lock. */
bool          strobe__thread_has_stream (uint32_t system_id);
/* A stream id of its own for a thread that writes none (0 when they ran out): what the
 * Sampling channel names a program's untraced threads by. */
uint16_t      strobe__thread_reserve_id (void);
/* Strobe's own threads (the worker, the control server) are known to the sampler by the
 * name they give themselves; until they have, it must not take them for the program's.
 * The creator calls _begin before pthread_create (and _named if that fails), the thread
 * _named once it has its name; the sampler waits while any is starting. */
void          strobe__own_thread_begin (void);
void          strobe__own_thread_named (void);
bool          strobe__own_threads_starting (void);

/* ---- aux records (strobe-thread.c builds, strobe-aux.c converts) ------------------- */

/* Room for one AuxData record with up to @max_value bytes; NULL when the event fails. */
uint8_t *strobe__aux_record_begin (StrobeAux *aux, size_t max_value);
void     strobe__aux_record_end (StrobeAux *aux, uint8_t *record, unsigned index, size_t value_size);
uint64_t strobe__dropped_elsewhere (void);

/* ---- important cache (strobe-important.c) ---------------------------------------- */

bool   strobe__important_append (const void *a, size_t a_len, const void *b, size_t b_len,
                                 const void *c, size_t c_len, const void *d, size_t d_len);
/* Copies cache bytes [from, …) into @out (whole records); returns the new end offset. */
size_t strobe__important_copy (size_t from, StrobeWireBuf *out);
size_t strobe__important_size (void);

/* ---- the consumer (strobe-update.c) ------------------------------------------------ */

/* One round: snapshot, importants, thread data; under the update lock. Returns bytes moved. */
size_t strobe__update_locked (void);
void   strobe__worker_start (void);
void   strobe__worker_stop (void);
void   strobe__worker_kick (void);
bool   strobe__worker_running (void);
void   strobe__update_after_fork_child (void);
void   strobe__stats_collect (StrobeStats *stats);
/* Collects the totals and emits them as $Trace.Stats; under the update lock. */
void   strobe__stats_emit_locked (void);
void   strobe__replay_importants_locked (void);
void   strobe__importants_to_packets (const uint8_t *data, size_t len,
                                      void (*sink) (uint16_t thread_id, const uint8_t *data,
                                                    size_t len, void *user),
                                      void *user);
