/* thread-faults.h — the calling thread's page faults so far (getrusage), for the tests of
 * what the viewer faults in ahead of its frames (test-heap-reserve.c, test-x11-shm.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <sys/resource.h>

static inline long
thread_faults (void)
{
  struct rusage ru;

  getrusage (RUSAGE_THREAD, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}
