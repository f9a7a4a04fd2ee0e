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

void
strobe_flow_begin (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_BEGIN, strobe_time ());
}

void
strobe_flow_step (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_STEP, strobe_time ());
}

void
strobe_flow_end (uint64_t id)
{
  if (STROBE_CHANNEL_ENABLED (StrobeCpuChannel))
    strobe_flow_at (id, STROBE_FLOW_END, strobe_time ());
}
