/* strobe-memory-ring.h — the calling thread's ring, found inline on every report
 * (strobe-memory-ring.c sets it up). Not installed. */
#pragma once

#include "strobe-memory-private.h"

static inline StrobeMemThread *
strobe__memory_thread (void)
{
  StrobeMemThread *mt = strobe__memory_current;

  return __builtin_expect (mt != NULL, 1) ? mt : strobe__memory_thread_setup ();
}
