/* strobe-demangle.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-demangle.h"

#include <stdlib.h>

/* libstdc++'s, with C linkage (cxxabi.h is C++ only). */
extern char *__cxa_demangle (const char *mangled, char *buf, size_t *len, int *status);

char *
strobe_demangle (const char *name)
{
  char *out;
  char *copy;
  int status = -1;

  /* The Itanium ABI's prefix; anything else (C names, Rust's v0 "_R") stays as it is. */
  if (name == NULL || name[0] != '_' || name[1] != 'Z')
    return NULL;
  out = __cxa_demangle (name, NULL, NULL, &status);
  if (status != 0 || out == NULL)
    {
      free (out);
      return NULL;
    }
  /* Allocated with malloc: handed back in g_malloc's memory, as callers g_free it. */
  copy = g_strdup (out);
  free (out);
  return copy;
}
