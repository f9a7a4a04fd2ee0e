/* strobe-memory-state.c — when the live table is kept and when tracing into an output
 * begins, and the heaps and tags announced into it.
 *
 * The table is kept while the channel is on, and also while it is off when the program
 * opted in (strobe_memory_set_live_table). Each output that memory tracing goes to starts
 * with a snapshot of the table (Memory.Live), so a late connect knows what was live; the
 * snapshot says whether the table saw every allocation since tracing could start. */
#include "strobe-memory-private.h"
#include "strobe-memory-state.h"
#include "strobe-memory-events.h"

#include <stdlib.h>

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;   /* heaps and tags */
static uint32_t        next_heap_id = 1;
bool                   strobe__memory_system_heap_sent;
#define system_heap_sent strobe__memory_system_heap_sent

/* State, under state_lock; read relaxed by the reports (strobe-memory-events.c). */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int             complete = 1;  /* the table saw every allocation since tracing could first start */
#define table_valid strobe__memory_table_valid
#define active      strobe__memory_active

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
  strobe__memory_init_once ();
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
  strobe__memory_init_once ();
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
