/* strobe-memory.h — memory tracing: allocation events for any allocator, heaps, tags
 * scoped per thread (like Unreal's LLM tags) and optional call stacks.
 *
 * libstrobe-preload.so (`strobe-cli run`) reports malloc and friends of an unmodified
 * program to heap 0, "System". Custom allocators report their own heaps:
 *
 *   uint32_t pool = strobe_memory_heap_register ("Particles", STROBE_MEMORY_HEAP_SYSTEM, 0);
 *   void *block = malloc (1 << 20);                       // traced by the preload, or:
 *   strobe_memory_heap_mark (block, STROBE_MEMORY_HEAP_SYSTEM, pool);
 *   void *p = pool_take (…);  strobe_memory_alloc (p, 64, 16, pool);
 *   strobe_memory_free (p, pool);  pool_give (p);         // report a free BEFORE it happens
 *
 * Events go out when the "Memory" channel is on. See runtime/INSTRUMENTATION.md, section
 * Memory.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strobe-channel.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* Internal. The reports take addresses, never read through them: tells gcc so, which
 * otherwise warns (-Wmaybe-uninitialized, in -Wall) on the first thing one does with fresh
 * memory, `p = malloc (n); strobe_memory_alloc (p, n, 0, 0);`. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define STROBE__ADDRESS_ONLY(n) __attribute__ ((access (none, n)))
#else
#define STROBE__ADDRESS_ONLY(n)
#endif

/* The standard channel "Memory". While it is off the reports below do nothing (unless
 * the live table is kept: strobe_memory_set_live_table()). */
STROBE_CHANNEL_EXTERN (MemoryChannel);

/* Heap 0 is the C library's malloc; registered heaps get ids from 1. */
#define STROBE_MEMORY_HEAP_SYSTEM 0u
#define STROBE_MEMORY_NO_PARENT   0xffffffffu   /* the parent of a root heap */

/* Heap flags (Memory.HeapSpec.Flags), informative for the analysis. */
#define STROBE_MEMORY_HEAP_POOL  (1u << 0)   /* fixed-size blocks */
#define STROBE_MEMORY_HEAP_ARENA (1u << 1)   /* bump allocation, freed all at once */
#define STROBE_MEMORY_HEAP_GPU   (1u << 2)   /* not CPU-addressable memory */

/* Tag 0 is "untagged". */
#define STROBE_MEMORY_TAG_NONE 0u

/* Registers a heap (an allocator) named @name whose memory comes from heap @parent
 * (STROBE_MEMORY_NO_PARENT for a root), with STROBE_MEMORY_HEAP_* @flags; returns its id.
 * Sent once as Memory.HeapSpec even when the channel is off at the time (it is kept for
 * later outputs). Every call makes a new heap, even for a name registered before: register
 * each allocator once. Heaps beyond the first 4095 get no live table (their allocations
 * are not tracked). In a child of fork(): STROBE_MEMORY_HEAP_SYSTEM, nothing registered.
 *
 * Cost: a mutex and one Important event, kept for the process lifetime.
 * Blocks: on the memory registry's mutex and the important cache's.
 * Threads: any thread; not in a signal handler. */
uint32_t strobe_memory_heap_register (const char *name, uint32_t parent, uint32_t flags);

/* Registers a tag named @name (child of @parent, or STROBE_MEMORY_TAG_NONE); returns its
 * id, the same one for the same name and parent (a new one sends Memory.TagSpec).
 * STROBE_MEMORY_TAG_NONE for a @name NULL, out of memory, or in a child of fork().
 *
 * Cost: a mutex and a comparison with every tag registered so far: register once and
 * keep the id, not per allocation.
 * Blocks: on the memory registry's mutex.
 * Threads: any thread; not in a signal handler. */
uint32_t strobe_memory_tag_register (const char *name, uint32_t parent);

/* Pushes @tag for the calling thread: allocations it reports until the matching pop carry
 * it. Nests up to 64 deep (deeper pushes are counted and ignored by their pops).
 *
 * Cost: a thread-local store (a push and a pop: under a third of a clock read).
 * Blocks: never. Threads: the calling thread's tag stack. */
void     strobe_memory_tag_push (uint32_t tag);
/* Pops the calling thread's innermost tag (nothing when none is pushed).
 *
 * Cost: a thread-local store. Blocks: never. Threads: the calling thread's tag stack. */
void     strobe_memory_tag_pop (void);
/* The calling thread's innermost tag (the 64th for deeper pushes), STROBE_MEMORY_TAG_NONE
 * when none is pushed.
 *
 * Cost: a thread-local load. Blocks: never. Threads: the calling thread's tag stack. */
uint32_t strobe_memory_tag_current (void);

/* A tag pushed for the rest of the enclosing block (GCC/Clang cleanup attribute), popped
 * however the block is left (not longjmp). At most one per source line (its variable is
 * named after the line).
 *
 * Cost, Blocks, Threads: as strobe_memory_tag_push() and strobe_memory_tag_pop(). */
#define STROBE_MEMORY_TAG_SCOPE(tag)                                                       \
  __attribute__ ((cleanup (strobe__memory_tag_scope_end), unused))                          \
  int STROBE__MEMORY_CAT (strobe__tag_scope_, __LINE__) = (strobe_memory_tag_push (tag), 0)
#define STROBE__MEMORY_CAT(a, b)  STROBE__MEMORY_CAT_ (a, b)
#define STROBE__MEMORY_CAT_(a, b) a##b
void strobe__memory_tag_scope_end (int *unused);

/* Reports the allocation of @size bytes at @ptr in @heap (STROBE_MEMORY_HEAP_SYSTEM or a
 * registered heap), with the calling thread's tag and, when enabled, its call stack.
 * Report an allocation AFTER obtaining it and a free BEFORE releasing it: the live table
 * is updated at that moment, so an address reused by another thread is always seen freed
 * before it is allocated again. @alignment 0 means the allocator's default. @ptr NULL:
 * nothing. With the Memory channel off and no live table kept: nothing.
 *
 * Cost: off: a few loads (an alloc and its free: under half a clock read). On: a live
 * table insert (a short compare-exchange lock of one shard) and a record of a few bytes
 * into the thread's 64 KiB ring: an alloc and its free about 6 clock reads (the
 * interposer's whole cost is 71 ns per malloc/free pair, tests/bench/README.md); call
 * stacks add an unwind, or a few loads per frame on a hit of the verified cache. The
 * first report after the channel came on with an output open writes a snapshot of the
 * live table (Memory.Live, about 1 ms per 100 000 live blocks).
 * Blocks: when the thread's ring is full: up to 20 ms for the updater, then it runs an
 * update round itself (strobe_update), then the report is dropped and counted; briefly on
 * the table shard's lock; a new call stack may read the module map (the loader's lock).
 * Threads: any thread (each has its own ring); not in a signal handler. Nothing in a
 * child of fork(): memory tracing ends there. */
STROBE__ADDRESS_ONLY (1)
void strobe_memory_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap);
/* Reports that the block at @ptr in @heap is about to be freed: call it BEFORE releasing
 * the memory (see strobe_memory_alloc). A block the live table never saw (allocated
 * before tracing began) is recorded as such (UNTRACKED). @ptr NULL: nothing.
 *
 * Cost, Blocks, Threads: as strobe_memory_alloc(). */
STROBE__ADDRESS_ONLY (1)
void strobe_memory_free (const void *ptr, uint32_t heap);
/* A reallocation in two halves: call _begin before the block is released (it ends the old
 * allocation), _end after (it starts @new_ptr; NULL when the reallocation failed and
 * @old_ptr is still allocated, or when @size was 0 and the block was freed). The halves
 * meet through the calling thread: one reallocation at a time per thread, both halves on
 * the same thread. @old_ptr NULL: nothing (the _end then reports a plain allocation).
 *
 * Cost, Blocks, Threads: as strobe_memory_alloc(). */
STROBE__ADDRESS_ONLY (1)
void strobe_memory_realloc_begin (const void *old_ptr, uint32_t heap);
/* The second half of a reallocation (see strobe_memory_realloc_begin): @new_ptr, @size
 * bytes, @alignment, in @heap, keeping the tag the block was first allocated with.
 * @old_ptr is only compared with NULL (NULL: the reallocation was an allocation), never
 * read: after a realloc that succeeded, gcc 12 rejects any use of the old pointer
 * (-Wuse-after-free), so pass @new_ptr in its place when it is not NULL
 * (runtime/INSTRUMENTATION.md, "Memory", shows the pattern, compiled by the tests).
 *
 * Cost, Blocks, Threads: as strobe_memory_alloc(). */
STROBE__ADDRESS_ONLY (1) STROBE__ADDRESS_ONLY (2)
void strobe_memory_realloc_end (const void *old_ptr, const void *new_ptr, uint64_t size,
                                uint32_t alignment, uint32_t heap);

/* The allocation at @ptr in heap @parent becomes backing memory of heap @heap (a pool's
 * slab, an arena's chunk): it is no longer counted as used memory of its own, the
 * sub-allocations of @heap are. Nothing when the live table does not hold that block.
 *
 * Cost: a live table lookup and one record (about one allocation report).
 * Blocks, Threads: as strobe_memory_alloc(). */
STROBE__ADDRESS_ONLY (1)
void strobe_memory_heap_mark (const void *ptr, uint32_t parent, uint32_t heap);
/* Undoes strobe_memory_heap_mark() (before the block is freed).
 *
 * Cost, Blocks, Threads: as strobe_memory_heap_mark(). */
STROBE__ADDRESS_ONLY (1)
void strobe_memory_heap_unmark (const void *ptr, uint32_t parent, uint32_t heap);

/* Every live allocation of @heap ends at once (an arena reset): one record, and the
 * heap's live table is emptied.
 *
 * Cost: one record, and dropping the heap's table entries.
 * Blocks, Threads: as strobe_memory_alloc(). */
void strobe_memory_heap_free_all (uint32_t heap);

/* Call stacks of allocations: off by default (STROBE_CALLSTACKS=1 turns them on at
 * start-up; STROBE_CALLSTACKS=fp walks frame pointers instead, for programs built with
 * -fno-omit-frame-pointer). Frame #0 is the code that called the allocator (or
 * strobe_memory_alloc). Each distinct stack gets an id once (Memory.StackNodes) and the
 * module map (Memory.Module) goes with them, so the analysis can symbolize them. Takes
 * effect for the reports that follow; true keeps the frame-pointer walk when
 * STROBE_CALLSTACKS=fp chose it.
 *
 * Cost: one store; then each allocation report with stacks costs an unwind, or about one
 * load per frame on a hit of the per-thread verified cache (INSTRUMENTATION.md, "Call
 * stacks"; with the interposer 5 ns more per malloc/free pair, tests/bench/README.md).
 * Blocks: never. Threads: any thread. */
void strobe_memory_set_callstacks (bool enabled);

/* How many frames of an allocation's call stack are kept, frame #0 included (default 64;
 * 2 to 512; STROBE_STACK_DEPTH=N at start-up, `strobe-cli run --stack-depth=N`). A stack
 * cut at this depth is marked: its outermost frame is the "[truncated]" root, so the
 * viewers' top-down trees gather all cut stacks under one root instead of taking each
 * cut stack's outermost caller for a root. Stacks deeper than 64 frames are not kept in
 * the per-thread cache and are unwound each time.
 *
 * Cost: one store. Blocks: never. Threads: any thread; reports that follow use it. */
void strobe_memory_set_stack_depth (unsigned depth);

/* Replaces the unwinder (default: the C library's backtrace()); @walker fills @frames
 * with return addresses, innermost first, and returns how many. NULL restores the
 * default. The LD_PRELOAD interposer installs libunwind's unw_backtrace. @walker runs on
 * the allocating thread, for every report with a stack the cache misses: it must be
 * thread-safe; allocations it makes are not reported.
 *
 * Cost: one store. Blocks: never. Threads: any thread; reports that follow use it. */
void strobe_memory_set_stack_walker (int (*walker) (void **frames, int max));

/* Keeps the table of live allocations while the Memory channel is off too (it is always
 * kept while it is on), so a later connect receives every allocation still live then
 * (address, size, heap, tag, stack, time) before live events: the analysis is then right
 * for a program traced from the middle. Costs a table update per allocation and free.
 * STROBE_MEMORY_LIVE_TABLE=1 turns it on at start-up.
 *
 * Cost: one store; then each allocation and free with the channel off costs a table
 * update (22 ns per allocation with the interposer, preload.live_table_per_alloc in
 * tests/bench/README.md).
 * Blocks: never. Threads: any thread. */
void strobe_memory_set_live_table (bool enabled);

/* For the LD_PRELOAD interposer (`strobe-cli run --trace=memory`), not for applications:
 * when a program links libstrobe.so itself, the interposer finds this function with dlsym
 * and reports allocations into that runtime rather than starting a second one. Returns a
 * table whose layout is private to the runtime and versioned by its first field (a
 * uint32_t size); an interposer that finds it shorter than it needs starts its own.
 *
 * Cost: none (a constant). Blocks: never. Threads: any thread. */
const void *strobe_memory_interposer_hooks (void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
