/* strobe-memory.c — the Memory channel's public reporting calls, its call-stack settings,
 * the environment it reads, and the table the interposer takes from a program's own
 * libstrobe.so. The top of the memory files: the channel and its state are
 * strobe-memory-events.c's and strobe-memory-state.c's. */
#include "strobe-memory-private.h"
#include "strobe-memory-state.h"

#include <stdlib.h>
#include <strings.h>

/* ---- call stacks ------------------------------------------------------------------ */

void
strobe_memory_set_callstacks (bool enabled)
{
  int mode = __atomic_load_n (&strobe__memory_stack_mode, __ATOMIC_RELAXED);

  if (enabled && mode == STROBE_STACKS_OFF)
    mode = STROBE_STACKS_UNWIND;
  else if (!enabled)
    mode = STROBE_STACKS_OFF;
  __atomic_store_n (&strobe__memory_stack_mode, mode, __ATOMIC_RELAXED);
}

void
strobe_memory_set_stack_depth (unsigned depth)
{
  if (depth < 2)
    depth = 2;
  if (depth > STROBE_MEMORY_STACK_LIMIT)
    depth = STROBE_MEMORY_STACK_LIMIT;
  __atomic_store_n (&strobe__memory_stack_depth, depth, __ATOMIC_RELAXED);
}

/* ---- the public reports: the channel (or table) test first ------------------------- *
 * Frame #0 of a recorded stack is the code that called these, so each takes its own
 * return address and frame. */

static inline bool
api_wanted (void)
{
  if (strobe__memory_guard != 0 || __atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return false;
  if (!strobe__memory_wanted ())
    {
      strobe__memory_skip ();
      return false;
    }
  return true;
}

/* In a function built with a frame pointer, its frame holds the caller's frame pointer. */
#define CALLER() { (uintptr_t) __builtin_return_address (0), (uintptr_t) __builtin_dwarf_cfa (), \
                   *(const uintptr_t *) __builtin_frame_address (0) }

__attribute__ ((noinline, optimize ("no-omit-frame-pointer"))) void
strobe_memory_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap)
{
  if (ptr && api_wanted ())
    {
      StrobeMemoryCaller c = CALLER ();
      strobe__memory_on_alloc (ptr, size, alignment, heap, &c);
    }
}

void
strobe_memory_free (const void *ptr, uint32_t heap)
{
  if (ptr && api_wanted ())
    strobe__memory_on_free (ptr, heap);
}

/* The two halves of a realloc meet through this thread's pending slot. */
static __thread StrobeMemoryRealloc pending_realloc;
static __thread bool pending_realloc_set;

void
strobe_memory_realloc_begin (const void *old_ptr, uint32_t heap)
{
  pending_realloc_set = false;
  if (old_ptr && api_wanted ())
    {
      strobe__memory_on_realloc_begin (old_ptr, heap, &pending_realloc);
      pending_realloc_set = true;
    }
}

__attribute__ ((noinline, optimize ("no-omit-frame-pointer"))) void
strobe_memory_realloc_end (const void *old_ptr, const void *new_ptr, uint64_t size,
                           uint32_t alignment, uint32_t heap)
{
  StrobeMemoryCaller c = CALLER ();

  if (old_ptr == NULL)
    {
      if (new_ptr && api_wanted ())
        strobe__memory_on_alloc (new_ptr, size, alignment, heap, &c);
      return;
    }
  if (!pending_realloc_set || strobe__memory_guard != 0)
    return;
  pending_realloc_set = false;
  pending_realloc.heap = heap;
  strobe__memory_on_realloc_end (&pending_realloc, old_ptr, new_ptr, size, alignment, &c);
}

void
strobe_memory_heap_mark (const void *ptr, uint32_t parent, uint32_t heap)
{
  if (ptr && api_wanted ())
    strobe__memory_on_mark (ptr, parent, heap, true);
}

void
strobe_memory_heap_unmark (const void *ptr, uint32_t parent, uint32_t heap)
{
  if (ptr && api_wanted ())
    strobe__memory_on_mark (ptr, parent, heap, false);
}

void
strobe_memory_heap_free_all (uint32_t heap)
{
  if (api_wanted ())
    strobe__memory_on_free_all (heap);
}

/* ---- the interposer's way in when the program links its own libstrobe ------------- */

static int *
guard_address (void)
{
  return &strobe__memory_guard;
}

static void
set_walker (int (*walker) (void **frames, int max))
{
  strobe_memory_set_stack_walker (walker);
}

const void *
strobe_memory_interposer_hooks (void)
{
  static const StrobeMemoryHooks hooks = {
    sizeof (StrobeMemoryHooks),
    &strobe__memory_table_optin,
    &strobe__memory_skip_state,
    &MemoryChannel,
    strobe__memory_on_alloc,
    strobe__memory_on_free,
    strobe__memory_on_realloc_begin,
    strobe__memory_on_realloc_end,
    strobe__memory_skip_slow,
    guard_address,
    set_walker,
    strobe__memory_modules_changed,
  };
  return &hooks;
}

/* ---- the environment --------------------------------------------------------------- */

static bool
env_on (const char *s)
{
  return s && (strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0 || strcasecmp (s, "yes") == 0);
}

void
strobe__memory_init_from_env (void)
{
  const char *s = getenv ("STROBE_CALLSTACKS");

  strobe__memory_init_once ();
  if (s && strcasecmp (s, "fp") == 0)
    __atomic_store_n (&strobe__memory_stack_mode, STROBE_STACKS_FP, __ATOMIC_RELAXED);
  else if (env_on (s) || (s && strcasecmp (s, "dwarf") == 0))
    strobe_memory_set_callstacks (true);
  if ((s = getenv ("STROBE_STACK_DEPTH")) != NULL && atoi (s) > 0)
    strobe_memory_set_stack_depth ((unsigned) atoi (s));
  if (env_on (getenv ("STROBE_MEMORY_LIVE_TABLE")))
    strobe_memory_set_live_table (true);
  if (env_on (getenv ("STROBE_MEMORY_ADDRESSES")))
    strobe__memory_addresses = true;
}

__attribute__ ((constructor)) static void
memory_ctor (void)
{
  strobe__memory_init_from_env ();
}
