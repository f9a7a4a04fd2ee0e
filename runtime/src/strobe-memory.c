/* strobe-memory.c — the Memory channel: allocation events, heaps, per-thread tags and
 * call stacks sent once each.
 *
 * Allocation events are synchronised (they carry the global serial): the analysis then
 * sees them in one order across threads, and since a free takes its serial before the
 * memory is released and an allocation after it is obtained, an address reused by another
 * thread is always freed before it is allocated again in that order. */
#include "strobe-memory-private.h"

#include <execinfo.h>
#include <stdlib.h>
#include <strings.h>

STROBE_CHANNEL_DEFINE (MemoryChannel);

__thread int strobe__memory_guard __attribute__ ((tls_model ("initial-exec")));

STROBE_EVENT (Memory, Alloc, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint64, Size)
              STROBE_FIELD (uint32, Alignment)
              STROBE_FIELD (uint32, HeapId)
              STROBE_FIELD (uint32, Tag)
              STROBE_FIELD (uint32, CallstackId))

STROBE_EVENT (Memory, Free, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint32, HeapId))

STROBE_EVENT (Memory, ReallocFree, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint32, HeapId))

STROBE_EVENT (Memory, ReallocAlloc, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, OldAddress)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint64, Size)
              STROBE_FIELD (uint32, Alignment)
              STROBE_FIELD (uint32, HeapId)
              STROBE_FIELD (uint32, Tag)
              STROBE_FIELD (uint32, CallstackId))

STROBE_EVENT (Memory, HeapMark, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (uint32, HeapId))

STROBE_EVENT (Memory, HeapUnmark, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (ptr, Address)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (uint32, HeapId))

STROBE_EVENT (Memory, HeapFreeAll, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, HeapId))

STROBE_EVENT (Memory, HeapSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (uint32, Flags)
              STROBE_FIELD (ansi, Name))

STROBE_EVENT (Memory, TagSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (ansi, Name))

STROBE_EVENT (Memory, Callstack, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_ARRAY (ptr, Frames))

#define TAG_DEPTH      64
#define MAX_FRAMES     48
#define SKIP_FRAMES    2      /* capture_stack and the event function */

typedef struct
{
  uint32_t depth;           /* pushes, including those past TAG_DEPTH */
  uint32_t stack[TAG_DEPTH];
} TagStack;

static __thread TagStack tags __attribute__ ((tls_model ("initial-exec")));

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t        next_heap_id = 1;
static bool            system_heap_sent;
static int             callstacks_on;

/* ---- guard ------------------------------------------------------------------------ */

void
strobe__thread_untraced (void)
{
  strobe__memory_guard = 1 << 20;
}

/* ---- heaps and tags ----------------------------------------------------------------- */

static void
send_heap_spec (uint32_t id, uint32_t parent, uint32_t flags, const char *name)
{
  STROBE_LOG (Memory, HeapSpec, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (ParentId, parent);
      STROBE_SET (Flags, flags);
      STROBE_SET_STRING (Name, name ? name : "");
    }
}

static __attribute__ ((noinline, cold)) void
send_system_heap (void)
{
  pthread_mutex_lock (&memory_lock);
  if (!system_heap_sent)
    {
      send_heap_spec (STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_NO_PARENT, 0, "System");
      __atomic_store_n (&system_heap_sent, true, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&memory_lock);
}

static inline void
ensure_system_heap (void)
{
  if (__builtin_expect (!__atomic_load_n (&system_heap_sent, __ATOMIC_ACQUIRE), 0))
    send_system_heap ();
}

uint32_t
strobe_memory_heap_register (const char *name, uint32_t parent, uint32_t flags)
{
  uint32_t id;

  strobe__memory_guard++;
  ensure_system_heap ();
  pthread_mutex_lock (&memory_lock);
  id = next_heap_id++;
  send_heap_spec (id, parent, flags, name);
  pthread_mutex_unlock (&memory_lock);
  strobe__memory_guard--;
  return id;
}

typedef struct TagName
{
  struct TagName *next;
  uint32_t        id;
  uint32_t        parent;
  char            name[];
} TagName;

static TagName *tag_names;
static uint32_t next_tag_id = 1;

uint32_t
strobe_memory_tag_register (const char *name, uint32_t parent)
{
  TagName *t;
  uint32_t id = STROBE_MEMORY_TAG_NONE;

  if (name == NULL)
    return id;
  strobe__memory_guard++;
  pthread_mutex_lock (&memory_lock);
  for (t = tag_names; t; t = t->next)
    if (t->parent == parent && strcmp (t->name, name) == 0)
      {
        id = t->id;
        goto out;
      }
  t = malloc (sizeof *t + strlen (name) + 1);
  if (t == NULL)
    goto out;
  t->id = id = next_tag_id++;
  t->parent = parent;
  strcpy (t->name, name);
  t->next = tag_names;
  tag_names = t;
  STROBE_LOG (Memory, TagSpec, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (ParentId, parent);
      STROBE_SET_STRING (Name, name);
    }

out:
  pthread_mutex_unlock (&memory_lock);
  strobe__memory_guard--;
  return id;
}

void
strobe_memory_tag_push (uint32_t tag)
{
  if (tags.depth < TAG_DEPTH)
    tags.stack[tags.depth] = tag;
  tags.depth++;
}

void
strobe_memory_tag_pop (void)
{
  if (tags.depth > 0)
    tags.depth--;
}

uint32_t
strobe_memory_tag_current (void)
{
  uint32_t d = tags.depth;

  if (d == 0)
    return STROBE_MEMORY_TAG_NONE;
  return tags.stack[(d > TAG_DEPTH ? TAG_DEPTH : d) - 1];
}

void
strobe__memory_tag_scope_end (int *unused)
{
  (void) unused;
  strobe_memory_tag_pop ();
}

/* ---- call stacks ---------------------------------------------------------------------- */

typedef struct
{
  uint64_t hash;          /* 0: empty slot */
  uint32_t id;
  uint32_t n_frames;
  void   **frames;
} StackSlot;

static StackSlot *stack_table;
static size_t     stack_cap;      /* power of two */
static size_t     stack_count;
static uint32_t   next_stack_id = 1;

void
strobe_memory_set_callstacks (bool enabled)
{
  __atomic_store_n (&callstacks_on, enabled ? 1 : 0, __ATOMIC_RELAXED);
}

void
strobe__memory_init_from_env (void)
{
  const char *s = getenv ("STROBE_CALLSTACKS");

  if (s && (strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0 || strcasecmp (s, "yes") == 0))
    strobe_memory_set_callstacks (true);
}

__attribute__ ((constructor)) static void
memory_ctor (void)
{
  strobe__memory_init_from_env ();
}

static uint64_t
hash_frames (void *const *frames, int n)
{
  uint64_t h = 0xcbf29ce484222325ull;

  for (int i = 0; i < n; i++)
    {
      h ^= (uint64_t) (uintptr_t) frames[i];
      h *= 0x100000001b3ull;
      h ^= h >> 29;
    }
  return h ? h : 1;
}

static bool
stack_grow_locked (void)
{
  size_t cap = stack_cap ? stack_cap * 2 : 4096;
  StackSlot *t = calloc (cap, sizeof *t);

  if (t == NULL)
    return false;
  for (size_t i = 0; i < stack_cap; i++)
    if (stack_table[i].hash)
      {
        size_t j = stack_table[i].hash & (cap - 1);
        while (t[j].hash)
          j = (j + 1) & (cap - 1);
        t[j] = stack_table[i];
      }
  free (stack_table);
  stack_table = t;
  stack_cap = cap;
  return true;
}

/* The id of the calling thread's stack, sending it first if it is new; 0 on failure.
 * Called with the guard up. */
static __attribute__ ((noinline)) uint32_t
capture_stack (void)
{
  void *frames[MAX_FRAMES + SKIP_FRAMES];
  int n = backtrace (frames, MAX_FRAMES + SKIP_FRAMES);
  void **f = frames + (n > SKIP_FRAMES ? SKIP_FRAMES : n);
  uint64_t h;
  size_t i;
  uint32_t id = 0;

  n = n > SKIP_FRAMES ? n - SKIP_FRAMES : 0;
  h = hash_frames (f, n);
  pthread_mutex_lock (&memory_lock);
  if ((stack_count + 1) * 2 > stack_cap && !stack_grow_locked ())
    goto out;
  for (i = h & (stack_cap - 1); stack_table[i].hash; i = (i + 1) & (stack_cap - 1))
    if (stack_table[i].hash == h && stack_table[i].n_frames == (uint32_t) n
        && memcmp (stack_table[i].frames, f, (size_t) n * sizeof *f) == 0)
      {
        id = stack_table[i].id;
        goto out;
      }
  stack_table[i].frames = malloc ((size_t) n * sizeof *f + 1);
  if (stack_table[i].frames == NULL)
    goto out;
  memcpy (stack_table[i].frames, f, (size_t) n * sizeof *f);
  stack_table[i].hash = h;
  stack_table[i].n_frames = (uint32_t) n;
  stack_table[i].id = id = next_stack_id++;
  stack_count++;
  STROBE_LOG (Memory, Callstack, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET_ARRAY (Frames, (void *const *) f, (size_t) n);
    }

out:
  pthread_mutex_unlock (&memory_lock);
  return id;
}

/* ---- events ------------------------------------------------------------------------------ */

void
strobe__memory_alloc_event (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap)
{
  uint32_t stack = 0;

  strobe__memory_guard++;
  ensure_system_heap ();
  if (__builtin_expect (__atomic_load_n (&callstacks_on, __ATOMIC_RELAXED), 0))
    stack = capture_stack ();
  STROBE_LOG (Memory, Alloc, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Address, ptr);
      STROBE_SET (Size, size);
      STROBE_SET (Alignment, alignment);
      STROBE_SET (HeapId, heap);
      STROBE_SET (Tag, strobe_memory_tag_current ());
      STROBE_SET (CallstackId, stack);
    }
  strobe__memory_guard--;
}

void
strobe__memory_free_event (const void *ptr, uint32_t heap)
{
  strobe__memory_guard++;
  STROBE_LOG (Memory, Free, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Address, ptr);
      STROBE_SET (HeapId, heap);
    }
  strobe__memory_guard--;
}

void
strobe__memory_realloc_free_event (const void *old_ptr, uint32_t heap)
{
  strobe__memory_guard++;
  STROBE_LOG (Memory, ReallocFree, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Address, old_ptr);
      STROBE_SET (HeapId, heap);
    }
  strobe__memory_guard--;
}

void
strobe__memory_realloc_alloc_event (const void *old_ptr, const void *new_ptr, uint64_t size,
                                    uint32_t alignment, uint32_t heap)
{
  uint32_t stack = 0;

  strobe__memory_guard++;
  ensure_system_heap ();
  if (new_ptr && __builtin_expect (__atomic_load_n (&callstacks_on, __ATOMIC_RELAXED), 0))
    stack = capture_stack ();
  STROBE_LOG (Memory, ReallocAlloc, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (OldAddress, old_ptr);
      STROBE_SET (Address, new_ptr);
      STROBE_SET (Size, size);
      STROBE_SET (Alignment, alignment);
      STROBE_SET (HeapId, heap);
      STROBE_SET (Tag, strobe_memory_tag_current ());
      STROBE_SET (CallstackId, stack);
    }
  strobe__memory_guard--;
}

/* ---- the public calls: the channel test first ----------------------------------------- */

void
strobe_memory_alloc (const void *ptr, uint64_t size, uint32_t alignment, uint32_t heap)
{
  if (STROBE_CHANNEL_ENABLED (MemoryChannel) && ptr)
    strobe__memory_alloc_event (ptr, size, alignment, heap);
}

void
strobe_memory_free (const void *ptr, uint32_t heap)
{
  if (STROBE_CHANNEL_ENABLED (MemoryChannel) && ptr)
    strobe__memory_free_event (ptr, heap);
}

void
strobe_memory_realloc_begin (const void *old_ptr, uint32_t heap)
{
  if (STROBE_CHANNEL_ENABLED (MemoryChannel) && old_ptr)
    strobe__memory_realloc_free_event (old_ptr, heap);
}

void
strobe_memory_realloc_end (const void *old_ptr, const void *new_ptr, uint64_t size,
                           uint32_t alignment, uint32_t heap)
{
  if (STROBE_CHANNEL_ENABLED (MemoryChannel))
    {
      if (old_ptr == NULL && new_ptr)
        strobe__memory_alloc_event (new_ptr, size, alignment, heap);
      else if (old_ptr)
        strobe__memory_realloc_alloc_event (old_ptr, new_ptr, size, alignment, heap);
    }
}

void
strobe_memory_heap_mark (const void *ptr, uint32_t parent, uint32_t heap)
{
  if (!STROBE_CHANNEL_ENABLED (MemoryChannel) || ptr == NULL)
    return;
  strobe__memory_guard++;
  STROBE_LOG (Memory, HeapMark, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Address, ptr);
      STROBE_SET (ParentId, parent);
      STROBE_SET (HeapId, heap);
    }
  strobe__memory_guard--;
}

void
strobe_memory_heap_unmark (const void *ptr, uint32_t parent, uint32_t heap)
{
  if (!STROBE_CHANNEL_ENABLED (MemoryChannel) || ptr == NULL)
    return;
  strobe__memory_guard++;
  STROBE_LOG (Memory, HeapUnmark, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (Address, ptr);
      STROBE_SET (ParentId, parent);
      STROBE_SET (HeapId, heap);
    }
  strobe__memory_guard--;
}

void
strobe_memory_heap_free_all (uint32_t heap)
{
  if (!STROBE_CHANNEL_ENABLED (MemoryChannel))
    return;
  strobe__memory_guard++;
  STROBE_LOG (Memory, HeapFreeAll, MemoryChannel)
    {
      STROBE_SET (Cycle, strobe_time ());
      STROBE_SET (HeapId, heap);
    }
  strobe__memory_guard--;
}
