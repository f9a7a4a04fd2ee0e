/* strobe-memory-state.h — the checks a report makes before it writes, inline (the
 * reports' fast path and the interposer's), and what strobe-memory-state.c does when one
 * fails: the Memory channel's state and the System heap. Not installed. */
#pragma once

#include "strobe-memory-private.h"

void strobe__memory_skip_slow (void);
void strobe__memory_state_slow (void);
void strobe__memory_send_system_heap (void);
extern bool strobe__memory_system_heap_sent;
/* The Memory channel is about to go off (through the channels' hook, under their lock). */
void strobe__memory_channel_off (void);

/* Whether a call should be reported: the Memory channel is on or the table is kept. */
static inline bool
strobe__memory_wanted (void)
{
  return (__atomic_load_n (&MemoryChannel.enabled, __ATOMIC_RELAXED)
          | __atomic_load_n (&strobe__memory_table_optin, __ATOMIC_RELAXED)) != 0;
}

/* Called instead of a report when strobe__memory_wanted() is false: notes (once) that the
 * table missed allocations, so a later snapshot says it is incomplete. */
static inline void
strobe__memory_skip (void)
{
  if (__builtin_expect (__atomic_load_n (&strobe__memory_skip_state, __ATOMIC_RELAXED)
                        != STROBE_MEMORY_STATE_SKIPPING, 0))
    strobe__memory_skip_slow ();
}

/* Before each report: cheap unless the channel or the table's state changed. */
static inline void
strobe__memory_check_state (void)
{
  int channel = __atomic_load_n (&MemoryChannel.enabled, __ATOMIC_RELAXED) != 0;

  if (__builtin_expect (channel != __atomic_load_n (&strobe__memory_active, __ATOMIC_RELAXED)
                        || !__atomic_load_n (&strobe__memory_table_valid, __ATOMIC_RELAXED), 0))
    strobe__memory_state_slow ();
}

static inline void
strobe__memory_ensure_system_heap (void)
{
  if (__builtin_expect (!__atomic_load_n (&strobe__memory_system_heap_sent, __ATOMIC_ACQUIRE), 0))
    strobe__memory_send_system_heap ();
}
