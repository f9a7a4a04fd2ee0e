/* strobe-clock.h — the timestamp clock, inline so a timestamp costs one instruction. */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* Which clock strobe_time() reads. Zero until the library measured the clock, so the very
 * first call goes out of line and initialises it; afterwards the check is one load of a
 * read-mostly byte that is always predicted. */
enum
{
  STROBE__CLOCK_UNSET     = 0,
  STROBE__CLOCK_MONOTONIC = 1,
  STROBE__CLOCK_TSC       = 2,
  STROBE__CLOCK_ARM       = 3,
};
extern uint8_t strobe__clock_mode;

uint64_t strobe__time_slow (void);

/* Ticks of the trace clock: the TSC on x86 when it is invariant, the virtual counter on
 * aarch64, else CLOCK_MONOTONIC in nanoseconds; see strobe_clock_frequency(). Not a
 * serialising read: the timestamp may be a few ns early or late against the code around.
 *
 * Cost: one clock read: 9.5–11 ns on the benchmark machine (strobe-bench
 * cost.clock_read), the unit the other costs of this reference are given in. The first
 * call of a process measures the clock (15 ms) unless that was done already: strobe_init()
 * does it, and so does a constructor of the library in most programs.
 * Blocks: only that first call (the measurement sleeps).
 * Threads: any thread; also a signal handler, once the clock is measured. */
static inline uint64_t
strobe_time (void)
{
#if defined(__x86_64__) || defined(__i386__)
  /* No fence: the point of a trace timestamp is to be cheap, and the out-of-order window
   * is a few ns, far below what a trace resolves. */
  if (__builtin_expect (strobe__clock_mode == STROBE__CLOCK_TSC, 1))
    return __builtin_ia32_rdtsc ();
#elif defined(__aarch64__)
  if (__builtin_expect (strobe__clock_mode == STROBE__CLOCK_ARM, 1))
    {
      uint64_t v;
      __asm__ __volatile__ ("mrs %0, cntvct_el0" : "=r" (v));
      return v;
    }
#endif
  return strobe__time_slow ();
}

/* Ticks per second of strobe_time() (measured against CLOCK_MONOTONIC over 15 ms: within
 * about 0.01 %), as every trace's metadata says.
 *
 * Cost: a pthread_once check and a load.
 * Blocks: the first call measures the clock, as strobe_time().
 * Threads: any thread; not in a signal handler. */
uint64_t strobe_clock_frequency (void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
