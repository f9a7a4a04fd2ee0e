/* runtime-nocpp.c — stands in for runtime-cpp.cc when no C++ compiler is available. */
#include <stdbool.h>
#include <stdint.h>

bool runtime_cpp_emit (uint32_t value);

bool
runtime_cpp_emit (uint32_t value)
{
  return value != 0;
}
