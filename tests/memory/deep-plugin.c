/* deep-plugin.c — a library deep-victim opens with RTLD_DEEPBIND, which binds a library's
 * symbols in itself and its own dependencies first: its malloc would be the C library's,
 * not the interposer's, unless the interposer drops the flag (issue 24 item 16). */
#include <stdlib.h>

void *deep_plugin_alloc (size_t n);

__attribute__ ((noinline)) void *
deep_plugin_alloc (size_t n)
{
  void *p = malloc (n); /* LINE:deep_plugin_alloc */

  __asm__ volatile ("" ::: "memory");   /* a call, not a tail call: this frame stays */
  return p;
}
