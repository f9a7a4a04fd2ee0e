/* cpp-victim.cc — allocates from a C++ member function in a namespace, for the test that
 * its frames are shown demangled (tests/memory/test-memory-trace.c, /memory-trace/demangled).
 *
 * SPDX-License-Identifier: MIT
 */
#include <cstdlib>

namespace strobe_test
{
struct Widget
{
  /* Not inlined: the allocation's frame #0 is this function. */
  __attribute__ ((noinline)) static void *make (std::size_t n)
  {
    void *p = std::malloc (n);
    __asm__ volatile ("" : : "r"(p) : "memory");
    return p;
  }
};
}

int
main ()
{
  void *p = strobe_test::Widget::make (4242);

  std::free (p);
  return 0;
}
