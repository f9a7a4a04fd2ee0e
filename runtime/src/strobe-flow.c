/* strobe-flow.c — flow points (strobe-flow.h). They ride the Cpu channel because a flow
 * point means nothing without the scope it is in; as plain synchronised events they are
 * ordered with the thread's other events, and analysis finds their scope by time (the
 * scopes themselves arrive in batches, later). Wire format: runtime/INSTRUMENTATION.md. */
#include "strobe-instrument-private.h"

#include <strobe/strobe-flow.h>

STROBE_EVENT (Misc, Flow, 0,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint64, Id)
              STROBE_FIELD (uint8, Phase))

void
strobe_flow_at (uint64_t id, StrobeFlowPhase phase, uint64_t ts)
{
  if ((unsigned) phase > STROBE_FLOW_END)
    return;
  STROBE_LOG (Misc, Flow, StrobeCpuChannel)
    {
      STROBE_SET (Cycle, ts);
      STROBE_SET (Id, id);
      STROBE_SET (Phase, (uint8_t) phase);
    }
}

/* The clock read in program order. A flow point's scope is found by time, and a scope's
 * end follows the flow point by little more than the event's store: an unserialised
 * read of the end's TSC was executed early enough to lie before the flow point's, which
 * then fell outside its scope (tests/group, under load). Fenced on both sides, the flow
 * point's read comes after the scope's begin and before its end; flow points are rare
 * enough for the two fences. */
static uint64_t
flow_time (void)
{
#if defined(__x86_64__) || defined(__i386__)
  if (strobe__clock_mode == STROBE__CLOCK_TSC)
    {
      uint64_t t;

      __asm__ __volatile__ ("lfence" ::: "memory");
      t = __builtin_ia32_rdtsc ();
      __asm__ __volatile__ ("lfence" ::: "memory");
      return t;
    }
#elif defined(__aarch64__)
  if (strobe__clock_mode == STROBE__CLOCK_ARM)
    {
      uint64_t t;

      __asm__ __volatile__ ("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r" (t) :: "memory");
      return t;
    }
#endif
  return strobe_time ();
}

void
strobe_flow_begin (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_BEGIN, flow_time ());
}

void
strobe_flow_step (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_STEP, flow_time ());
}

void
strobe_flow_end (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_END, flow_time ());
}
