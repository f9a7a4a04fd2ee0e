// runtime-cpp.cc — the public header compiled as C++, emitting through the same events.
#include "runtime-events.h"

STROBE_EVENT (TestCpp, Plain, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint32, Value)
              STROBE_FIELD (bool, Flag)
              STROBE_ARRAY (int16, Shorts)
              STROBE_FIELD (wide, Text))

extern "C" bool runtime_cpp_emit (uint32_t value);

bool
runtime_cpp_emit (uint32_t value)
{
  int16_t shorts[2] = { -1, 2 };

  STROBE_LOG (TestCpp, Plain, CpuChannel)
    {
      STROBE_SET (Value, value);
      STROBE_SET (Flag, true);
      STROBE_SET_ARRAY (Shorts, shorts, 2);
      STROBE_SET_WSTRING (Text, L"c++");
    }
  STROBE_LOG (Test, Sync, CpuChannel, GpuChannel)
    STROBE_SET (Value, value);
  return strobe_time () != 0;
}
