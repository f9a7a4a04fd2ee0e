/* strobe-memory-private.h — the memory channel's parts (strobe-memory*.c) and what the
 * LD_PRELOAD interposer calls; not installed.
 *
 * Data flow: an allocation is reported AFTER the block is obtained and a free BEFORE it is
 * released. Each report updates the live table (address → this allocation's thread and
 * id, strobe-memory-table.c) under one shard lock, then appends a few bytes to the
 * calling thread's ring (strobe-memory-ring.c). The updater drains every ring once per
 * round into Memory.Batch events. Frees name the allocation they end by its id, so the
 * stream needs no addresses and the analysis pairs frees without a hash of addresses. */
#pragma once

#include "strobe-private.h"
#include "strobe-memory-records.h"

/* Locks (not in the order of strobe-private.h; strobe__memory_after_fork_child ends
 * memory tracing in a fork()ed child instead of taking them around the fork):
 *   strobe__memory_rings_lock  the list of threads' rings (strobe__memory_rings).
 *   strobe__memory_late_lock   writers of the late ring (frees by threads that exited).
 * The live table's shard and heap locks (strobe-memory-table.c), the stack trie's
 * (strobe-memory-stack.c), the module map's (strobe-memory-modules.c) and the channel
 * state's (strobe-memory-state.c) are private to their files. */

/* The memory files, bottom first: -events.c (the channel, its events, the state the
 * others read), -table.c, -modules.c, -stack.c, -ring.c (each thread's ring; its inline
 * part in strobe-memory-ring.h), -snapshot.c, -state.c (when the table is kept and
 * tracing begins; strobe-memory-state.h has the reports' inline checks), -report.c,
 * -drain.c (the updater's part of a round), strobe-memory.c (the public calls). Each
 * calls only those before it.
 *
 * ---- what the rest of the runtime calls ------------------------------------------ */

/* Marks the calling thread as one of the runtime's own (worker, control server): the
 * LD_PRELOAD interposer never traces its allocations. */
void strobe__thread_untraced (void);
/* Set by the interposer before constructors run: it starts the runtime itself. */
extern bool strobe__no_auto_init;
/* strobe__memory_guard (strobe-private.h) is raised while the calling thread is inside the
 * runtime: allocations it makes then are the runtime's, never traced (the LD_PRELOAD
 * interposer reports them otherwise, and a round that allocates would report itself round
 * after round). */
/* Reads the memory settings the updater uses (the time unit), once. strobe_init() calls it
 * before it starts the worker: the constructor that otherwise reads them may run after
 * the one that starts the runtime (STROBE_TRACE…), and the worker would drain with a
 * time unit of 1 tick while the main thread writes the real one. */
void strobe__memory_init_once (void);
/* The updater's part of each round: threads' allocation records (strobe-memory-drain.c). */
void strobe__memory_drain (void);
/* An output just started: memory tracing into it begins with a live-set snapshot. */
void strobe__memory_output_started (void);
/* A fork()ed child (strobe-init.c, before anything else): memory tracing is over there. */
void strobe__memory_after_fork_child (void);
/* From the thread exit hook. */
void strobe__memory_thread_exit (void);

/* ---- between the memory files and the interposer --------------------------------- */

/* Nonzero while the table is kept with the channel off: STROBE_MEMORY_OPTIN_USER, set by
 * strobe_memory_set_live_table (or STROBE_MEMORY_LIVE_TABLE=1), so a later connect gets a
 * snapshot of the live set; STROBE_MEMORY_OPTIN_TOGGLE, set when the channel goes off
 * while an output is open and cleared when it comes on, so the snapshot then re-seeds the
 * analysis' live set (without it the table was dropped, the snapshot was empty, and the
 * analysis read every block as freed). */
extern int strobe__memory_table_optin;
#define STROBE_MEMORY_OPTIN_USER   1
#define STROBE_MEMORY_OPTIN_TOGGLE 2

/* Where the interposer's fast path stands when it reports nothing: SKIPPING once the
 * table is known stale and that is recorded. */
enum { STROBE_MEMORY_STATE_SKIPPING = 0, STROBE_MEMORY_STATE_OTHER = 1 };
extern int strobe__memory_skip_state;

/* The state the reports read (strobe-memory-events.c). */
extern int strobe__memory_table_valid;
extern int strobe__memory_active;

/* A live-table entry (strobe-memory-table.c): address, (thread << 48 | id), size with
 * the log2 alignment in the top byte, time in units, stack and tag. */
typedef struct
{
  uintptr_t address;
  uint64_t  ref;
  uint64_t  size_align;
  uint64_t  time;
  uint32_t  stack;
  uint32_t  tag;
} StrobeLiveEntry;

#define STROBE_LIVE_REF(thread, id) (((uint64_t) (thread) << 48) | ((id) & 0xffffffffffffull))
#define STROBE_LIVE_REF_THREAD(ref) ((uint16_t) ((ref) >> 48))
#define STROBE_LIVE_REF_ID(ref)     ((ref) & 0xffffffffffffull)
#define STROBE_LIVE_SIZE(e)         ((e)->size_align & 0x00ffffffffffffffull)
#define STROBE_LIVE_ALIGN(e)        ((uint8_t) ((e)->size_align >> 56))

/* ---- reports: the caller checked strobe__memory_wanted() and the guard ------------- *
 * @ip: the return address into the code that called the allocator (frame #0 of the
 * stack); @cfa: the stack pointer in that caller just after the call returns (the
 * allocator entry's canonical frame address); @fp: that caller's frame pointer, for the
 * frame-pointer walk (0 when unknown). */
typedef struct
{
  uintptr_t ip;
  uintptr_t cfa;
  uintptr_t fp;
} StrobeMemoryCaller;

STROBE__ADDRESS_ONLY (1)
void strobe__memory_on_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap,
                              const StrobeMemoryCaller *caller);
STROBE__ADDRESS_ONLY (1)
void strobe__memory_on_free (const void *ptr, uint32_t heap);

/* A reallocation: _begin before the block is released (it takes the old block out of
 * the table), _end after (with the result: NULL and @size > 0 when it failed and @old is
 * still allocated; NULL and @size 0 when it freed). */
typedef struct
{
  bool            tracked;
  uint32_t        heap;
  StrobeLiveEntry entry;    /* the old block's, to put back when the realloc fails */
} StrobeMemoryRealloc;

STROBE__ADDRESS_ONLY (1)
void strobe__memory_on_realloc_begin (const void *old_ptr, uint32_t heap, StrobeMemoryRealloc *r);
STROBE__ADDRESS_ONLY (2) STROBE__ADDRESS_ONLY (3)
void strobe__memory_on_realloc_end (StrobeMemoryRealloc *r, const void *old_ptr, const void *new_ptr,
                                    uint64_t size, uint32_t alignment,
                                    const StrobeMemoryCaller *caller);

/* Heap marks and resets: records of their own. */
STROBE__ADDRESS_ONLY (1)
void strobe__memory_on_mark (const void *ptr, uint32_t parent, uint32_t heap, bool mark);
void strobe__memory_on_free_all (uint32_t heap);

/* For the interposer: the module map changed (after dlclose). */
void strobe__memory_modules_changed (void);

/* Hooks a program's own shared libstrobe hands to the interposer, so one process has one
 * runtime (strobe-preload.c looks up strobe_memory_interposer_hooks with dlsym). Versioned by size. */
typedef struct
{
  uint32_t size;
  int     *table_optin;
  int     *skip_state;
  StrobeChannel *channel;
  void   (*on_alloc) (const void *, uint64_t, uint32_t, uint32_t, const StrobeMemoryCaller *);
  void   (*on_free) (const void *, uint32_t);
  void   (*on_realloc_begin) (const void *, uint32_t, StrobeMemoryRealloc *);
  void   (*on_realloc_end) (StrobeMemoryRealloc *, const void *, const void *, uint64_t, uint32_t,
                            const StrobeMemoryCaller *);
  void   (*skip_slow) (void);
  int   *(*guard) (void);
  void   (*set_stack_walker) (int (*walker) (void **frames, int max));
  void   (*modules_changed) (void);
} StrobeMemoryHooks;

/* libstrobe.so hands this table out through strobe_memory_interposer_hooks ()
 * (strobe/strobe-memory.h). */

#define STROBE_MEMORY_RING_BYTES  (64u * 1024u)
#define STROBE_MEMORY_MAX_RECORD  96u
#define STROBE_MEMORY_MAX_HEAPS   4096u
#define STROBE_MEMORY_MAX_FRAMES  64     /* the default depth; the deepest stack the cache keeps */
#define STROBE_MEMORY_STACK_LIMIT 512    /* the deepest strobe_memory_set_stack_depth() allows */

typedef struct StrobeStackCache StrobeStackCache;

/* One thread's ring and encoder state. The owner writes bytes at head and release-stores
 * it; the updater reads [tail, head), release-stores tail. */
typedef struct StrobeMemThread
{
  struct StrobeMemThread *next;          /* under the ring list lock */
  uint8_t                *ring;          /* STROBE_MEMORY_RING_BYTES */
  uint64_t                head;          /* owner (release) */
  uint64_t                tail;          /* updater (release) */
  uint64_t                cached_tail;   /* owner's last look at tail */
  uint16_t                thread_id;     /* stream id of the records' thread */
  bool                    shared;        /* the late ring: writers hold its lock */
  int                     exited;        /* owner, last (release) */
  /* Owner. alloc: ids handed out (changed under a table shard lock, read by snapshots). */
  uint64_t                alloc;
  uint64_t                enc_alloc;     /* the counter as the records say it */
  uint64_t                enc_time;
  uint32_t                enc_heap, enc_tag, enc_stack;
  bool                    enc_started;
  uint64_t                dropped;       /* records not written (relaxed) */
  /* Updater: the reader's state at tail. */
  StrobeMemrecState       wstate;
  bool                    wstarted;
  StrobeStackCache       *stacks;        /* owner; NULL until call stacks are used */
} StrobeMemThread;

/* The ring exited threads' late frees go to (writers hold strobe__memory_late_lock). */
extern StrobeMemThread strobe__memory_late;
extern pthread_mutex_t strobe__memory_late_lock;
extern pthread_mutex_t strobe__memory_rings_lock;
extern StrobeMemThread *strobe__memory_rings;
/* The calling thread's ring, created on first use (strobe-memory-ring.h). */
extern __thread StrobeMemThread *strobe__memory_current __attribute__ ((tls_model ("initial-exec")));
StrobeMemThread *strobe__memory_thread_setup (void);
extern int     strobe__memory_forked;    /* a fork()ed child: memory tracing is over */
extern uint8_t strobe__memory_shift;     /* time unit = 2^shift ticks */
extern uint64_t strobe__memory_coarse_units;   /* the time at the updater's last round */
extern bool    strobe__memory_addresses; /* allocation records carry addresses */

/* Room for one report in @mt's ring (waits a little, as buffer blocks do); false: drop. */
bool strobe__memory_ring_reserve (StrobeMemThread *mt);
/* Where the next record is encoded (STROBE_MEMORY_MAX_RECORD bytes are there after a
 * reserve), and its publication once written up to @end. */
uint8_t *strobe__memory_ring_cursor (StrobeMemThread *mt);
void     strobe__memory_ring_commit (StrobeMemThread *mt, const uint8_t *end);

/* Live table (strobe-memory-table.c). */
/* Inserts @e (its address is the key) into @heap's table, giving it the next id of @mt
 * (under the table's lock, so snapshots see ids and entries agree). Returns 0 when the
 * heap has no table (the block is not tracked), 1 when inserted, 2 when the address was
 * live already: that entry is replaced and copied to *old. */
int  strobe__memory_table_insert (uint32_t heap, StrobeMemThread *mt, StrobeLiveEntry *e,
                                  StrobeLiveEntry *old);
/* Puts back an entry taken out by _remove (a failed realloc). */
void strobe__memory_table_restore (uint32_t heap, const StrobeLiveEntry *e);
bool strobe__memory_table_remove (uint32_t heap, uintptr_t address, StrobeLiveEntry *out);
/* The same, for a free: only the allocation it was (what its record names). */
bool strobe__memory_table_remove_ref (uint32_t heap, uintptr_t address, uint64_t *ref);
bool strobe__memory_table_lookup (uint32_t heap, uintptr_t address, StrobeLiveEntry *out);
void strobe__memory_table_clear_heap (uint32_t heap);
void strobe__memory_table_clear_all (void);
/* Locks every table (and so holds every report still), runs @fn, unlocks. */
void strobe__memory_table_locked (void (*fn) (void *user), void *user);
/* Under strobe__memory_table_locked: each entry of each heap. */
void strobe__memory_table_foreach_locked (void (*fn) (uint32_t heap, const StrobeLiveEntry *e, void *user),
                                          void *user);
size_t strobe__memory_table_count (void);
/* The snapshot of the live set, as Memory.Live events from the calling thread. */
void strobe__memory_snapshot (bool complete);

/* Call stacks (strobe-memory-stack.c). Returns the stack id (0: none). */
enum { STROBE_STACKS_OFF = 0, STROBE_STACKS_UNWIND = 1, STROBE_STACKS_FP = 2 };
extern int strobe__memory_stack_mode;
uint32_t strobe__memory_stack_capture (StrobeMemThread *mt, const StrobeMemoryCaller *caller);
extern unsigned strobe__memory_stack_depth;   /* frames kept, STROBE_MEMORY_MAX_FRAMES by default */
void     strobe__memory_stack_thread_free (StrobeMemThread *mt);
/* The id of a call chain (innermost first) found elsewhere than at an allocation: sampled
 * stacks. The updater's only (under the update lock). */
uint32_t strobe__memory_stack_intern (const uintptr_t *frames, int n);

/* Module map (strobe-memory-modules.c). */
bool strobe__memory_modules_cover (const uintptr_t *ips, int n);
bool strobe__memory_modules_changed_since_scan (void);
void strobe__memory_modules_rescan (bool forced);
/* How many scans found a module gone (its addresses may be reused): the stacks' trie
 * starts anew when it changed. */
unsigned strobe__memory_modules_unloads (void);
/* Emits the trie's new nodes (one Memory.StackNodes): each round before its batches. */
void strobe__memory_stack_flush (void);

/* Reads STROBE_CALLSTACKS, STROBE_MEMORY_*. */
void strobe__memory_init_from_env (void);
