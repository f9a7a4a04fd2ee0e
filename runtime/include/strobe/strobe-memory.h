/* strobe-memory.h — memory tracing: allocation events for any allocator, heaps, tags
 * scoped per thread (like Unreal's LLM tags) and optional call stacks.
 *
 * libstrobe-preload.so (strobe-cli run) reports malloc and friends of an unmodified
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

STROBE_CHANNEL_EXTERN (MemoryChannel);

/* Heap 0 is the C library's malloc; registered heaps get ids from 1. */
#define STROBE_MEMORY_HEAP_SYSTEM 0u
#define STROBE_MEMORY_NO_PARENT   0xffffffffu

/* Heap flags (Memory.HeapSpec.Flags), informative for the analysis. */
#define STROBE_MEMORY_HEAP_POOL  (1u << 0)   /* fixed-size blocks */
#define STROBE_MEMORY_HEAP_ARENA (1u << 1)   /* bump allocation, freed all at once */
#define STROBE_MEMORY_HEAP_GPU   (1u << 2)   /* not CPU-addressable memory */

/* Tag 0 is "untagged". */
#define STROBE_MEMORY_TAG_NONE 0u

/* Registers a heap (an allocator) named @name whose memory comes from heap @parent
 * (STROBE_MEMORY_NO_PARENT for a root); returns its id. Sent once as Memory.HeapSpec
 * even when the channel is off at the time (it is kept for later outputs). */
uint32_t strobe_memory_heap_register (const char *name, uint32_t parent, uint32_t flags);

/* Registers a tag named @name (child of @parent, or STROBE_MEMORY_TAG_NONE); returns its
 * id, the same one for the same name and parent. */
uint32_t strobe_memory_tag_register (const char *name, uint32_t parent);

/* Pushes @tag for the calling thread: allocations it reports until the matching pop carry
 * it. Nests up to 64 deep (deeper pushes are counted and ignored by their pops). */
void     strobe_memory_tag_push (uint32_t tag);
void     strobe_memory_tag_pop (void);
uint32_t strobe_memory_tag_current (void);

/* A tag pushed for the rest of the enclosing block (GCC/Clang cleanup attribute). */
#define STROBE_MEMORY_TAG_SCOPE(tag)                                                       \
  __attribute__ ((cleanup (strobe__memory_tag_scope_end), unused))                          \
  int STROBE__MEMORY_CAT (strobe__tag_scope_, __LINE__) = (strobe_memory_tag_push (tag), 0)
#define STROBE__MEMORY_CAT(a, b)  STROBE__MEMORY_CAT_ (a, b)
#define STROBE__MEMORY_CAT_(a, b) a##b
void strobe__memory_tag_scope_end (int *unused);

/* Report an allocation AFTER obtaining it and a free BEFORE releasing it: the events are
 * ordered across threads by a serial taken at that moment, so an address reused by
 * another thread is always seen freed before it is allocated again. @alignment 0 means
 * the allocator's default. */
void strobe_memory_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap);
void strobe_memory_free (const void *ptr, uint32_t heap);
/* A reallocation in two halves: call _begin before the block is released (it ends the old
 * allocation), _end after (it starts @new_ptr; NULL when the reallocation failed and
 * @old_ptr is still allocated, or when @size was 0 and the block was freed). */
void strobe_memory_realloc_begin (const void *old_ptr, uint32_t heap);
void strobe_memory_realloc_end (const void *old_ptr, const void *new_ptr, uint64_t size,
                                uint32_t alignment, uint32_t heap);

/* The allocation at @ptr in heap @parent becomes backing memory of heap @heap (a pool's
 * slab, an arena's chunk): it is no longer counted as used memory of its own, the
 * sub-allocations of @heap are. _unmark undoes it (before the block is freed). */
void strobe_memory_heap_mark (const void *ptr, uint32_t parent, uint32_t heap);
void strobe_memory_heap_unmark (const void *ptr, uint32_t parent, uint32_t heap);

/* Every live allocation of @heap ends at once (an arena reset). */
void strobe_memory_heap_free_all (uint32_t heap);

/* Call stacks of allocations: off by default (STROBE_CALLSTACKS=1 turns them on at
 * start-up; STROBE_CALLSTACKS=fp walks frame pointers instead, for programs built with
 * -fno-omit-frame-pointer). Frame #0 is the code that called the allocator (or
 * strobe_memory_alloc). Each distinct stack gets an id once (Memory.StackNodes) and the
 * module map (Memory.Module) goes with them, so the analysis can symbolize them. */
void strobe_memory_set_callstacks (bool enabled);

/* Replaces the unwinder (default: the C library's backtrace()); @walker fills @frames
 * with return addresses, innermost first, and returns how many. NULL restores the
 * default. The LD_PRELOAD interposer installs libunwind's unw_backtrace. */
void strobe_memory_set_stack_walker (int (*walker) (void **frames, int max));

/* Keeps the table of live allocations while the Memory channel is off too (it is always
 * kept while it is on), so a later connect receives every allocation still live then
 * (address, size, heap, tag, stack, time) before live events: the analysis is then right
 * for a program traced from the middle. Costs a table update per allocation and free.
 * STROBE_MEMORY_LIVE_TABLE=1 turns it on at start-up. */
void strobe_memory_set_live_table (bool enabled);

#ifdef __cplusplus
}
#endif
