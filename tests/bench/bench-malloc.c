/* bench-malloc.c — the malloc-heavy program strobe-bench-mem runs plain, under
 * libstrobe-preload.so and under heaptrack: N malloc/free pairs of mixed sizes (16 B to
 * 4 KiB, a few live at a time, like a parser or a container-heavy loop).
 *
 * Usage: bench-malloc [PAIRS]   (default 5000000) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *volatile bench_sink;

int
main (int argc, char **argv)
{
  long pairs = argc > 1 ? atol (argv[1]) : 5000000;
  void *ring[8] = { 0 };
  uint32_t x = 12345;

  for (long i = 0; i < pairs; i++)
    {
      size_t size;
      unsigned slot = (unsigned) i & 7;

      x = x * 1664525u + 1013904223u;
      size = 16u << ((x >> 24) & 7);            /* 16 … 2048 */
      size += (x >> 8) & 255;
      free (ring[slot]);
      ring[slot] = malloc (size);
      ((char *) ring[slot])[0] = (char) i;
      bench_sink = ring[slot];
    }
  for (unsigned k = 0; k < 8; k++)
    free (ring[k]);
  return 0;
}
