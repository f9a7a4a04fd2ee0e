/* strobe-clock.c — picks and measures the trace clock. */
#include "strobe-instrument-private.h"

#include <time.h>

uint8_t strobe__clock_mode;

static uint64_t clock_frequency = 1000000000u;
static uint64_t clock_origin;
static uint64_t clock_start_ns;
static uint8_t  clock_source = STROBE_CLOCK_SOURCE_MONOTONIC;
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;

static uint64_t
ns_of (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static bool
tsc_is_invariant (void)
{
  unsigned a, b, c, d;

  if (__get_cpuid_max (0x80000000u, NULL) < 0x80000007u)
    return false;
  __cpuid (0x80000007u, a, b, c, d);
  return (d & (1u << 8)) != 0;
}

/* A TSC read and the CLOCK_MONOTONIC time it was made at: the middle of the two
 * CLOCK_MONOTONIC reads around it, from the tightest of several tries. A single pair of
 * reads is wrong by however long the thread lost the CPU between them (preempted, an
 * interrupt, the hypervisor's steal): 5 us lost at one end of the 15 ms is 3.3 x 10^-4
 * off the frequency, 1 us over 3 ms of trace — two processes' traces, aligned on the TSC
 * they share, drifted apart by that much under load. */
static void
read_tsc_at (uint64_t *mono, uint64_t *tsc)
{
  uint64_t best = UINT64_MAX;

  for (int i = 0; i < 16; i++)
    {
      uint64_t before = ns_of (CLOCK_MONOTONIC);
      uint64_t t = __builtin_ia32_rdtsc ();
      uint64_t after = ns_of (CLOCK_MONOTONIC);

      if (after >= before && after - before < best)
        {
          best = after - before;
          *mono = before + best / 2;
          *tsc = t;
        }
    }
}

/* Against CLOCK_MONOTONIC over ~15 ms: long enough for a 0.01 % estimate, short enough
 * not to be noticed at start-up. */
static uint64_t
measure_tsc (void)
{
  struct timespec pause = { 0, 15 * 1000 * 1000 };
  uint64_t m0 = 0, m1 = 0, t0 = 0, t1 = 0;

  read_tsc_at (&m0, &t0);
  nanosleep (&pause, NULL);
  read_tsc_at (&m1, &t1);
  if (m1 <= m0 || t1 <= t0)
    return 0;
  return (uint64_t) ((double) (t1 - t0) * 1e9 / (double) (m1 - m0));
}
#endif

static void
clock_init_once (void)
{
  uint8_t mode = STROBE__CLOCK_MONOTONIC;

#if defined(__x86_64__) || defined(__i386__)
  if (tsc_is_invariant ())
    {
      uint64_t f = measure_tsc ();
      if (f > 0)
        {
          clock_frequency = f;
          clock_source = STROBE_CLOCK_SOURCE_TSC;
          mode = STROBE__CLOCK_TSC;
        }
    }
#elif defined(__aarch64__)
  {
    uint64_t f;
    __asm__ __volatile__ ("mrs %0, cntfrq_el0" : "=r" (f));
    if (f > 0)
      {
        clock_frequency = f;
        clock_source = STROBE_CLOCK_SOURCE_ARM_TIMER;
        mode = STROBE__CLOCK_ARM;
      }
  }
#endif
  __atomic_store_n (&strobe__clock_mode, mode, __ATOMIC_RELEASE);
  clock_start_ns = ns_of (CLOCK_REALTIME);
  clock_origin = strobe_time ();
}

void
strobe__clock_init (void)
{
  pthread_once (&clock_once, clock_init_once);
}

uint64_t
strobe__time_slow (void)
{
  if (__atomic_load_n (&strobe__clock_mode, __ATOMIC_ACQUIRE) == STROBE__CLOCK_UNSET)
    strobe__clock_init ();
  if (strobe__clock_mode != STROBE__CLOCK_MONOTONIC)
    return strobe_time ();
  return ns_of (CLOCK_MONOTONIC);
}

uint64_t
strobe_clock_frequency (void)
{
  strobe__clock_init ();
  return clock_frequency;
}

uint64_t strobe__clock_origin (void) { strobe__clock_init (); return clock_origin; }
uint64_t strobe__clock_start_ns (void) { strobe__clock_init (); return clock_start_ns; }
uint8_t  strobe__clock_source (void) { strobe__clock_init (); return clock_source; }
