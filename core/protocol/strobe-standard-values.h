/* strobe-standard-values.h — the values of the standard events' enumerated fields
 * (runtime/INSTRUMENTATION.md): frame kinds, counter value types and units. The runtime's
 * public enums and the analysis side's are both defined from these (and the runtime
 * asserts that its own match), so the two can never drift apart.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

/* Misc.BeginFrame / EndFrame "FrameType". */
enum
{
  STROBE_STANDARD_FRAME_GAME   = 0,
  STROBE_STANDARD_FRAME_RENDER = 1,
  STROBE_STANDARD_FRAME_KINDS  = 2,
};

/* Counters.Spec "Type". */
enum
{
  STROBE_STANDARD_COUNTER_INT   = 0,
  STROBE_STANDARD_COUNTER_FLOAT = 1,
};

/* Counters.Spec "Unit". */
enum
{
  STROBE_STANDARD_UNIT_COUNT   = 0,
  STROBE_STANDARD_UNIT_BYTES   = 1,
  STROBE_STANDARD_UNIT_PERCENT = 2,
};
