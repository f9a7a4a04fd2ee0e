/* stack-victim.c — known call chains for test-memory-trace.c, not linked with Strobe:
 * every allocation has a size no C library internal uses, and the lines that allocate
 * carry LINE: markers the test finds in this file. Built with -O2: the inlined helper
 * must come out as an inlined frame of its caller.
 *
 * Usage: stack-victim PLUGIN.so */
#include <dlfcn.h>
#include <stdlib.h>

void *volatile victim_keep[64];

static inline __attribute__ ((always_inline)) void *
inlined_alloc (size_t n)
{
  return malloc (n); /* LINE:inlined_alloc */
}

__attribute__ ((noinline)) static void
leaf (int i)
{
  victim_keep[i] = malloc (7001 + (size_t) i); /* LINE:leaf */
}

__attribute__ ((noinline)) static void
middle (int i)
{
  leaf (i); /* LINE:middle */
  __asm__ volatile ("" ::: "memory");   /* not a tail call */
}

__attribute__ ((noinline)) static void
outer (void)
{
  for (int i = 0; i < 8; i++)
    middle (i); /* LINE:outer */
}

__attribute__ ((noinline)) static void
with_inline (void)
{
  victim_keep[20] = inlined_alloc (7101); /* LINE:with_inline */
}

int
main (int argc, char **argv)
{
  void *plugin;
  void *(*plugin_alloc) (size_t);

  outer ();
  with_inline ();
  if (argc < 2 || (plugin = dlopen (argv[1], RTLD_NOW)) == NULL)
    return 2;
  plugin_alloc = (void *(*) (size_t)) dlsym (plugin, "stack_plugin_alloc");
  if (plugin_alloc == NULL)
    return 3;
  victim_keep[30] = plugin_alloc (7201); /* LINE:main_plugin */
  return 0;
}
