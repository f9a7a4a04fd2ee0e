/* strobe-memory.c — the Memory channel: its events, heaps and tags, the public reporting
 * calls, and when tracing into an output begins (the live table's state).
 *
 * The table is kept while the channel is on, and also while it is off when the program
 * opted in (strobe_memory_set_live_table). Each output that memory tracing goes to starts
 * with a snapshot of the table (Memory.Live), so a late connect knows what was live; the
 * snapshot says whether the table saw every allocation since tracing could start. */
#include "strobe-output-private.h"
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <stdlib.h>
#include <strings.h>

STROBE_CHANNEL_DEFINE (MemoryChannel);

int     strobe__memory_table_optin;
int     strobe__memory_skip_state = STROBE_MEMORY_STATE_OTHER;
uint8_t strobe__memory_shift;
bool    strobe__memory_addresses;

STROBE_EVENT_DEFINE (Memory, Batch)
STROBE_EVENT_DEFINE (Memory, Live)
STROBE_EVENT_DEFINE (Memory, StackNodes)
STROBE_EVENT_DEFINE (Memory, Module)
STROBE_EVENT_DEFINE (Memory, ModuleUnload)

STROBE_EVENT (Memory, HeapSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (uint32, Flags)
              STROBE_FIELD (ansi, Name))

STROBE_EVENT (Memory, TagSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, ParentId)
              STROBE_FIELD (ansi, Name))

#define TAG_DEPTH 64
/* The time unit: the coarsest power of two of ticks that is at most this (2^18 ticks,
 * 101 µs, on a 2.6 GHz TSC). The order of allocations is exact whatever the unit; their
 * times are for graphs and range queries, where heaptrack has 10 ms. Each unit that
 * passes while a thread allocates costs about a byte of trace: python at 16 µs made a
 * trace 45 % larger than at 101 µs. STROBE_MEMORY_SHIFT chooses. */
#define UNIT_NS 128000.0

typedef struct
{
  uint32_t depth;           /* pushes, including those past TAG_DEPTH */
  uint32_t stack[TAG_DEPTH];
} TagStack;

static __thread TagStack tags __attribute__ ((tls_model ("initial-exec")));

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t        next_heap_id = 1;
bool                   strobe__memory_system_heap_sent;
#define system_heap_sent strobe__memory_system_heap_sent

/* State, under state_lock; read relaxed by the reports. */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
int                    strobe__memory_table_valid;   /* kept without a gap since it was last cleared */
static int             complete = 1;  /* ... and since tracing could first start */
int                    strobe__memory_active;        /* the channel was seen on: records are written */
#define table_valid strobe__memory_table_valid
#define active      strobe__memory_active
static pthread_once_t  init_once = PTHREAD_ONCE_INIT;
/* Set in a fork()ed child: memory tracing is over there. Its table is the parent's and
 * its locks may be held by threads that do not exist in the child. */
int                    strobe__memory_forked;

/* ---- guard ------------------------------------------------------------------------ */

void
strobe__thread_untraced (void)
{
  strobe__memory_guard = 1 << 20;
}

/* ---- time unit and environment ---------------------------------------------------- */

static bool
env_on (const char *s)
{
  return s && (strcmp (s, "1") == 0 || strcasecmp (s, "true") == 0 || strcasecmp (s, "yes") == 0);
}

/* From strobe-fork.c's child handler, first: before it starts the child's output (whose
 * start would take a snapshot under the table's locks). */
void
strobe__memory_after_fork_child (void)
{
  __atomic_store_n (&strobe__memory_forked, 1, __ATOMIC_RELAXED);
  __atomic_store_n (&active, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&table_valid, 0, __ATOMIC_RELAXED);
  strobe__memory_guard = 1 << 20;   /* the one thread the child has */
}

static void
memory_init (void)
{
  const char *s = getenv ("STROBE_MEMORY_SHIFT");
  uint64_t freq;
  unsigned shift = 0;

  strobe__global_init ();
  freq = strobe_clock_frequency ();
  if (s && *s >= '0' && *s <= '9')
    shift = (unsigned) atoi (s);
  else
    while (shift < 40 && (double) (2ull << shift) * 1e9 / (double) freq <= UNIT_NS)
      shift++;
  strobe__memory_shift = (uint8_t) (shift > 40 ? 40 : shift);
}

void
strobe__memory_init_once (void)
{
  pthread_once (&init_once, memory_init);
}

void
strobe__memory_init_from_env (void)
{
  const char *s = getenv ("STROBE_CALLSTACKS");

  pthread_once (&init_once, memory_init);
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

/* ---- state: when the table is kept and tracing begins ----------------------------- */

/* The output is above memory tracing (it tells strobe__memory_output_started). */
static bool
output_active (void)
{
  return strobe__hooks_get ()->out_active ();
}

/* Brings the state in line with the channel and the opt-in; true when a snapshot is due
 * (tracing just began while an output is open). Under state_lock. */
static bool
update_locked (bool output_started)
{
  bool channel = STROBE_CHANNEL_ENABLED (MemoryChannel);
  bool want = channel || __atomic_load_n (&strobe__memory_table_optin, __ATOMIC_RELAXED);
  bool snapshot = false;

  if (want && !table_valid)
    {
      /* What it held is stale (frees went unseen while it was not kept). */
      strobe__memory_table_clear_all ();
      __atomic_store_n (&table_valid, 1, __ATOMIC_RELAXED);
      __atomic_store_n (&strobe__memory_skip_state, STROBE_MEMORY_STATE_OTHER, __ATOMIC_RELAXED);
    }
  if (channel && (!active || output_started))
    snapshot = output_active () || output_started;
  /* On again: the channel keeps the table now; off later, it is asked for again. */
  if (channel)
    __atomic_and_fetch (&strobe__memory_table_optin, ~STROBE_MEMORY_OPTIN_TOGGLE, __ATOMIC_RELAXED);
  __atomic_store_n (&active, channel ? 1 : 0, __ATOMIC_RELAXED);
  return snapshot;
}

__attribute__ ((noinline, cold)) void
strobe__memory_state_slow (void)
{
  bool snapshot;
  bool whole;

  if (__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return;
  pthread_once (&init_once, memory_init);
  pthread_mutex_lock (&state_lock);
  snapshot = update_locked (false);
  whole = complete;
  pthread_mutex_unlock (&state_lock);
  if (snapshot)
    strobe__memory_snapshot (whole);
}


void
strobe__memory_skip_slow (void)
{
  if (__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock (&state_lock);
  if (!strobe__memory_wanted ())
    {
      /* An allocation the table does not see: from now on it is not the live set. */
      __atomic_store_n (&table_valid, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&active, 0, __ATOMIC_RELAXED);
      complete = 0;
      __atomic_store_n (&strobe__memory_skip_state, STROBE_MEMORY_STATE_SKIPPING, __ATOMIC_RELAXED);
    }
  pthread_mutex_unlock (&state_lock);
}

/* From strobe-output.c once an output has started: memory tracing into it begins now. */
void
strobe__memory_output_started (void)
{
  bool snapshot, whole;

  if (!STROBE_CHANNEL_ENABLED (MemoryChannel) || __atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return;
  strobe__memory_guard++;
  pthread_once (&init_once, memory_init);
  pthread_mutex_lock (&state_lock);
  snapshot = update_locked (true);
  whole = complete;
  pthread_mutex_unlock (&state_lock);
  if (snapshot)
    strobe__memory_snapshot (whole);
  strobe__memory_guard--;
}

void
strobe_memory_set_live_table (bool enabled)
{
  if (enabled)
    __atomic_or_fetch (&strobe__memory_table_optin, STROBE_MEMORY_OPTIN_USER, __ATOMIC_RELAXED);
  else
    __atomic_and_fetch (&strobe__memory_table_optin, ~STROBE_MEMORY_OPTIN_USER, __ATOMIC_RELAXED);
}

/* From the channel registry, before @ch is switched off. */
static void
channel_turning_off (StrobeChannel *ch)
{
  if (ch == &MemoryChannel)
    strobe__memory_channel_off ();
}

static void
memory_hooks (StrobeHooks *hooks)
{
  hooks->channel_turning_off = channel_turning_off;
}
STROBE_HOOKS_SETTER (memory_hooks);

void
strobe__memory_channel_off (void)
{
  if (output_active () && !__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    __atomic_or_fetch (&strobe__memory_table_optin, STROBE_MEMORY_OPTIN_TOGGLE, __ATOMIC_RELAXED);
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

__attribute__ ((noinline, cold)) void
strobe__memory_send_system_heap (void)
{
  pthread_mutex_lock (&memory_lock);
  if (!system_heap_sent)
    {
      send_heap_spec (STROBE_MEMORY_HEAP_SYSTEM, STROBE_MEMORY_NO_PARENT, 0, "System");
      __atomic_store_n (&system_heap_sent, true, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&memory_lock);
}


uint32_t
strobe_memory_heap_register (const char *name, uint32_t parent, uint32_t flags)
{
  uint32_t id;

  if (__atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
    return STROBE_MEMORY_HEAP_SYSTEM;
  strobe__memory_guard++;
  strobe__memory_ensure_system_heap ();
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

  if (name == NULL || __atomic_load_n (&strobe__memory_forked, __ATOMIC_RELAXED))
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
