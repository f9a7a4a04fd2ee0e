/* runtime-events.h — events shared by the helper's C and C++ translation units. */
#pragma once

#include <strobe/strobe.h>

STROBE_CHANNEL_EXTERN (CpuChannel);
STROBE_CHANNEL_EXTERN (GpuChannel);

STROBE_EVENT_DECLARE (Test, Sync, 0,
                      STROBE_FIELD (uint64, Cycle)
                      STROBE_FIELD (uint32, Value))
STROBE_EVENT_DECLARE (Test, NoSync, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint32, Value)
                      STROBE_FIELD (bool, Flag)
                      STROBE_FIELD (double, Ratio)
                      STROBE_FIELD (int8_t, Small)
                      STROBE_FIELD (ptr, Where))
STROBE_EVENT_DECLARE (Test, Aux, STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint16, Id)
                      STROBE_ARRAY (float, Samples)
                      STROBE_FIELD (ansi, Name)
                      STROBE_FIELD (wide, Title))
STROBE_EVENT_DECLARE (Test, Config, STROBE_EVENT_IMPORTANT | STROBE_EVENT_NOSYNC,
                      STROBE_FIELD (uint8, Mode)
                      STROBE_FIELD (ansi, Label))
