/* strobe-system.c — the $Trace system events (PROTOCOL.md §5), declared with the same
 * macros as any user event. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"

#include <sys/syscall.h>
#include <unistd.h>

/* Always on and read-only: system events must reach every trace. */
StrobeChannel StrobeTraceChannel = { 1, "TraceChannel", 0, 0, true, false, 0 };

__attribute__ ((constructor)) static void
trace_channel_ctor (void)
{
  strobe_channel_register (&StrobeTraceChannel);
}

STROBE_EVENT_DECLARE (StrobeTrace, ThreadInfo, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint16, ThreadId)
                      STROBE_FIELD (uint64, SystemId)
                      STROBE_FIELD (int32, SortHint)
                      STROBE_FIELD (ansi, Name)
                      STROBE_FIELD (ansi, Group))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, ThreadInfo, "$Trace", "ThreadInfo")

STROBE_EVENT_DECLARE (StrobeTrace, ThreadEnd, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint16, ThreadId)
                      STROBE_FIELD (uint64, Timestamp))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, ThreadEnd, "$Trace", "ThreadEnd")

STROBE_EVENT_DECLARE (StrobeTrace, ChannelAnnounce, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (bool, Enabled)
                      STROBE_FIELD (ansi, Name))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, ChannelAnnounce, "$Trace", "ChannelAnnounce")

STROBE_EVENT_DECLARE (StrobeTrace, ChannelToggle, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint32, Id)
                      STROBE_FIELD (bool, Enabled)
                      STROBE_FIELD (uint64, Timestamp))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, ChannelToggle, "$Trace", "ChannelToggle")

STROBE_EVENT_DECLARE (StrobeTrace, Stats, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint64, Timestamp)
                      STROBE_FIELD (uint64, BytesEmitted)
                      STROBE_FIELD (uint64, BytesSent)
                      STROBE_FIELD (uint64, EventsEmitted)
                      STROBE_FIELD (uint64, EventsDropped)
                      STROBE_FIELD (uint64, BufferMemory))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, Stats, "$Trace", "Stats")

/* Important: a late connect replays it, and the trace is aligned from its first byte. */
STROBE_EVENT_DECLARE (StrobeTrace, ClockOffset, STROBE_EVENT_IMPORTANT,
                      STROBE_FIELD (uint64, Timestamp)
                      STROBE_FIELD (int64, Offset)
                      STROBE_FIELD (uint64, Uncertainty)
                      STROBE_FIELD (uint32, RoundTrips)
                      STROBE_FIELD (uint8, PeerSource)
                      STROBE_FIELD (ansi, PeerDomain))
STROBE__EVENT_DEFINE_NAMED (StrobeTrace, ClockOffset, "$Trace", "ClockOffset")

static void
emit_thread_info (uint16_t id, uint64_t system_id, const char *name, const char *group, int32_t sort_hint)
{
  STROBE_LOG (StrobeTrace, ThreadInfo, StrobeTraceChannel)
    {
      STROBE_SET (ThreadId, id);
      STROBE_SET (SystemId, system_id);
      STROBE_SET (SortHint, sort_hint);
      if (name)
        STROBE_SET_STRING (Name, name);
      if (group)
        STROBE_SET_STRING (Group, group);
    }
}

void
strobe__emit_thread_info (uint16_t id, const char *name, const char *group, int32_t sort_hint)
{
  emit_thread_info (id, (uint64_t) syscall (SYS_gettid), name, group, sort_hint);
}

void
strobe__emit_thread_info_of (uint16_t id, uint64_t system_id, const char *name)
{
  emit_thread_info (id, system_id, name, NULL, 0);
}

void
strobe__emit_thread_end (uint16_t id, uint64_t timestamp)
{
  STROBE_LOG (StrobeTrace, ThreadEnd, StrobeTraceChannel)
    {
      STROBE_SET (ThreadId, id);
      STROBE_SET (Timestamp, timestamp);
    }
}

void
strobe__emit_channel_announce (uint32_t id, bool enabled, const char *name)
{
  STROBE_LOG (StrobeTrace, ChannelAnnounce, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (Enabled, enabled);
      STROBE_SET_STRING (Name, name);
    }
}

void
strobe__emit_channel_toggle (uint32_t id, bool enabled)
{
  STROBE_LOG (StrobeTrace, ChannelToggle, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (Enabled, enabled);
      STROBE_SET (Timestamp, strobe_time ());
    }
}

void
strobe__emit_clock_offset (int64_t offset_ns, uint64_t uncertainty_ns, uint32_t rounds,
                           const char *peer_domain_hex)
{
  STROBE_LOG (StrobeTrace, ClockOffset, StrobeTraceChannel)
    {
      STROBE_SET (Timestamp, strobe_time ());
      STROBE_SET (Offset, offset_ns);
      STROBE_SET (Uncertainty, uncertainty_ns);
      STROBE_SET (RoundTrips, rounds);
      STROBE_SET (PeerSource, 0);   /* the peer's CLOCK_MONOTONIC: the one clock every tool has */
      STROBE_SET_STRING (PeerDomain, peer_domain_hex);
    }
}

/* @s: the totals of strobe__stats_collect (strobe-update.c), which the caller holds the
 * update lock for. */
void
strobe__emit_stats (const StrobeStats *s)
{
  StrobeThread *t = strobe__thread_current ();
  bool no_wait = t ? t->no_wait : false;

  /* Called with the update lock held: waiting for a block nobody else can free is pointless. */
  if (t)
    t->no_wait = true;
  STROBE_LOG (StrobeTrace, Stats, StrobeTraceChannel)
    {
      STROBE_SET (Timestamp, strobe_time ());
      STROBE_SET (BytesEmitted, s->bytes_emitted);
      STROBE_SET (BytesSent, s->bytes_sent);
      STROBE_SET (EventsEmitted, s->events_emitted);
      STROBE_SET (EventsDropped, s->events_dropped);
      STROBE_SET (BufferMemory, s->buffer_memory);
    }
  if (t)
    t->no_wait = no_wait;
}

void
strobe_thread_set_name (const char *name, const char *group, int32_t sort_hint)
{
  StrobeThread *t = strobe__thread_current ();

  if (t && t->id)
    strobe__emit_thread_info (t->id, name, group, sort_hint);
}


/* A thread's first event announces it, and a channel's registration and every switch
 * are events: the threads and the channels are below this file (strobe-private.h). */
static void
system_hooks (StrobeHooks *hooks)
{
  hooks->emit_thread_info = strobe__emit_thread_info;
  hooks->emit_channel_announce = strobe__emit_channel_announce;
  hooks->emit_channel_toggle = strobe__emit_channel_toggle;
}
STROBE_HOOKS_SETTER (system_hooks);
