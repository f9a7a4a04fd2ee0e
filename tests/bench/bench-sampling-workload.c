/* bench-sampling-workload.c — the program strobe-bench-sampling runs with and without the
 * Sampling channel: a fixed amount of CPU work (not a fixed time, so the cost shows as
 * time) through call chains of depth 16, built with frame pointers. At each level one of
 * two functions is called as the iteration's bits say, so the samples see many distinct
 * chains (up to 2^16) — the stack trie's worst case, not a loop of one stack.
 *
 *   bench-sampling-workload ITERATIONS THREADS
 *
 * With BENCH_BARE_PERF_HZ=N it runs without Strobe's sampling but with a bare perf event
 * of its own on each working thread — the CPU clock every 1/N s, no call chain, no ring
 * buffer: what the kernel's timer interrupts alone cost on this machine (a virtual
 * machine's are dear), the floor under any sampler. */
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <strobe/strobe.h>

#define DEPTH 16

static volatile double sink;

__attribute__ ((noinline)) static double
leaf (unsigned n)
{
  double x = (double) n;

  for (int i = 0; i < 4000; i++)
    x = x * 1.0000001 + 1e-9;
  return x;
}

static double level_a (unsigned bits, int depth);
static double level_b (unsigned bits, int depth);

__attribute__ ((noinline)) static double
level_a (unsigned bits, int depth)
{
  if (depth == DEPTH)
    return leaf (bits);
  return ((bits >> depth) & 1 ? level_b : level_a) (bits, depth + 1) + 1.0;
}

__attribute__ ((noinline)) static double
level_b (unsigned bits, int depth)
{
  if (depth == DEPTH)
    return leaf (bits);
  return ((bits >> depth) & 1 ? level_b : level_a) (bits, depth + 1) - 1.0;
}

static long iterations;

static long bare_hz;

static void
open_bare_event (void)
{
  struct perf_event_attr a;

  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_CPU_CLOCK;
  a.sample_period = 1000000000u / (unsigned long) bare_hz;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  a.exclude_hv = 1;
  /* Left open for the thread's life: the process exits with it. */
  syscall (SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void *
work (void *data)
{
  double x = 0;

  (void) data;
  if (bare_hz > 0)
    open_bare_event ();
  for (long i = 0; i < iterations; i++)
    x += level_a ((unsigned) (i * 2654435761u), 0);
  sink += x;
  return NULL;
}

int
main (int argc, char **argv)
{
  int threads = argc > 2 ? atoi (argv[2]) : 1;
  pthread_t t[16];

  iterations = argc > 1 ? atol (argv[1]) : 100000;
  bare_hz = getenv ("BENCH_BARE_PERF_HZ") ? atol (getenv ("BENCH_BARE_PERF_HZ")) : 0;
  strobe_init (NULL);
  if (threads < 1 || threads > 16)
    threads = 1;
  for (int i = 0; i < threads; i++)
    pthread_create (&t[i], NULL, work, NULL);
  for (int i = 0; i < threads; i++)
    pthread_join (t[i], NULL);
  strobe_shutdown ();
  return 0;
}
