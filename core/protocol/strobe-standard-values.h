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

/* Sampling.Status "Mode": what sampling the program got (PROTOCOL.md §5). */
enum
{
  STROBE_STANDARD_SAMPLING_OFF           = 0,   /* the channel went off */
  STROBE_STANDARD_SAMPLING_HARDWARE      = 1,   /* CPU cycles (a hardware counter) */
  STROBE_STANDARD_SAMPLING_SOFTWARE      = 2,   /* the kernel's CPU clock */
  STROBE_STANDARD_SAMPLING_NOT_PERMITTED = 3,   /* perf_event_open refused: Paranoid, Error */
  STROBE_STANDARD_SAMPLING_UNAVAILABLE   = 4,   /* no perf events here (Error) */
};

/* Sampling.Status "Flags". */
enum
{
  STROBE_STANDARD_SAMPLING_KERNEL   = 1,   /* samples in kernel mode are taken too */
  STROBE_STANDARD_SAMPLING_SWITCHES = 2,   /* context switches are recorded */
};
