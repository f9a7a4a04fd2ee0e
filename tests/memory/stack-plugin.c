/* stack-plugin.c — a library stack-victim dlopens: its allocations must come out with
 * frames in this file (the module map covers modules loaded after the trace began).
 * The LINE: markers are what test-memory-trace.c looks for. */
#include <stdlib.h>

void *stack_plugin_alloc (size_t n);

__attribute__ ((noinline)) void *
stack_plugin_alloc (size_t n)
{
  void *p = malloc (n); /* LINE:plugin_alloc */

  __asm__ volatile ("" ::: "memory");   /* a call, not a tail call: this frame stays */
  return p;
}
