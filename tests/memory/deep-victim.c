/* deep-victim.c — for test-memory-trace.c, not linked with Strobe: opens its plugin by a
 * bare name found through this program's RUNPATH, with RTLD_DEEPBIND (the interposer must
 * still see the plugin's allocations, and the loader must still take this program for
 * dlopen's caller), then allocates 7401 bytes RECURSE calls deep (a stack cut at the
 * depth limit).
 *
 * Usage: deep-victim PLUGIN-NAME */
#include <dlfcn.h>
#include <stdlib.h>

#define RECURSE 100

void *volatile victim_keep[4];

__attribute__ ((noinline)) static void
recurse (int depth)
{
  if (depth == 0)
    victim_keep[1] = malloc (7401); /* LINE:recurse_alloc */
  else
    recurse (depth - 1);
  __asm__ volatile ("" ::: "memory");   /* not a tail call: every level keeps its frame */
}

int
main (int argc, char **argv)
{
  void *plugin;
  void *(*plugin_alloc) (size_t);

  if (argc < 2 || (plugin = dlopen (argv[1], RTLD_NOW | RTLD_DEEPBIND)) == NULL)
    return 2;
  plugin_alloc = (void *(*) (size_t)) dlsym (plugin, "deep_plugin_alloc");
  if (plugin_alloc == NULL)
    return 3;
  victim_keep[0] = plugin_alloc (7301); /* LINE:main_deep_plugin */
  recurse (RECURSE);
  return 0;
}
