/* debuglink-lib.c — a library test-symbols-debug.c strips and gives its symbols back
 * through a separate debug file: hidden_work is in no dynamic symbol table, so only the
 * debug file names it. debuglink_table lies in .rodata, after the code's last (unsized)
 * symbol _fini: no function is there. */
#include <stdlib.h>

int debuglink_entry (int n);
extern const int debuglink_table[64];

const int debuglink_table[64] = { 3, 1, 4, 1, 5, 9, 2, 6 };

__attribute__ ((noinline)) static int
hidden_work (int n)
{
  int *p = malloc (sizeof *p * (size_t) (n + 1));
  int r;

  __asm__ volatile ("" ::: "memory");
  p[0] = n;
  r = p[0] * 3;
  free (p);
  return r;
}

int
debuglink_entry (int n)
{
  return hidden_work (n) + debuglink_table[n & 63];
}
