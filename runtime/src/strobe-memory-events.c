/* strobe-memory-events.c — the Memory channel, its event types, and the state every
 * memory file reads: the time unit, the reports' switches, whether tracing is active and
 * the live table valid, a fork()ed child's end of memory tracing, each thread's tag stack.
 * The lowest of the memory files (strobe-memory-private.h). */
#include "strobe-memory-private.h"
#include "strobe-memory-events.h"

#include <stdlib.h>

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

STROBE_EVENT_DEFINE (Memory, HeapSpec)
STROBE_EVENT_DEFINE (Memory, TagSpec)

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

/* State, written under strobe-memory-state.c's lock; read relaxed by the reports. */
int                    strobe__memory_table_valid;   /* kept without a gap since it was last cleared */
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

/* ---- a fork()ed child, the time unit ---------------------------------------------- */

/* From the fork() child handler (strobe-init.c), first: before it starts the child's
 * output (whose start would take a snapshot under the table's locks). */
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

/* ---- tags ------------------------------------------------------------------------- */

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
