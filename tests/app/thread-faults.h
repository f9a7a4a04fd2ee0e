/* thread-faults.h — the calling thread's page faults so far (getrusage), for the tests of
 * what the viewer faults in ahead of its frames (test-heap-reserve.c, test-x11-shm.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <sys/resource.h>

/* Under ASan or TSan the sanitizer's allocator serves the heap: what the viewer faults in
 * ahead does not reach it, and the faults are not the viewer's to count. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZER_ALLOCATOR 1
#else
#define SANITIZER_ALLOCATOR 0
#endif

static inline long
thread_faults (void)
{
  struct rusage ru;

  getrusage (RUSAGE_THREAD, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}
