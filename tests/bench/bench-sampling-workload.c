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
 * machine's are dear), the floor under any sampler. BENCH_BARE_PERF=WORD,… changes that
 * event, one knob at a time, to see which of perf's settings move the floor:
 *   task     the task clock instead of the CPU clock
 *   freq     a frequency (the kernel re-aims the period at every sample) instead of a period
 *   user     exclude_kernel: user time only
 *   inherit  one event for the process, opened before the threads and inherited by them,
 *            instead of one per thread
 *   chain    a user call chain with every sample, written to a ring (what the Sampling
 *            channel asks of the kernel, but for the context switches)
 *   switch   context-switch records too (with chain: all the channel asks)
 *   wake     with chain: the kernel wakes the ring's reader at every sample (wakeup_events
 *            = 1) instead of never (the channel's watermark beyond the ring's size)
 *   small    with chain: a 1-page ring instead of 32 pages (a full ring drops samples)
 *   tick     no perf event: a POSIX timer on the thread's CPU clock with a signal handler
 *            that counts. The kernel checks such timers at its scheduler tick (250 Hz on
 *            this VM's kernel), so it fires at most that often, but it needs no interrupt
 *            of its own: what a sample costs when the interrupt is already there. The
 *            signals it got are written after the CPU time (BENCH_WORK_CPU_FD). */
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
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
static const char *bare_knobs = "";

static bool
knob (const char *word)
{
  size_t n = strlen (word);

  for (const char *p = bare_knobs; (p = strstr (p, word)) != NULL; p += n)
    if ((p == bare_knobs || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
      return true;
  return false;
}

static int
open_bare_event (pid_t pid, bool inherit)
{
  struct perf_event_attr a;
  int fd;

  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = knob ("task") ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
  if (knob ("freq"))
    {
      a.freq = 1;
      a.sample_freq = (unsigned long) bare_hz;
    }
  else
    a.sample_period = 1000000000u / (unsigned long) bare_hz;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  a.exclude_hv = 1;
  a.exclude_kernel = knob ("user");
  a.inherit = inherit;
  if (knob ("chain"))
    {
      a.sample_type |= PERF_SAMPLE_CALLCHAIN;
      a.exclude_callchain_kernel = 1;
      a.use_clockid = 1;
      a.clockid = CLOCK_MONOTONIC;
      if (knob ("wake"))
        a.wakeup_events = 1;
      else
        {
          a.watermark = 1;
          a.wakeup_watermark = 1u << 30;
        }
    }
  if (knob ("switch"))
    {
      a.context_switch = 1;
      a.sample_id_all = 1;
    }
  /* Left open for the thread's life: the process exits with it. */
  fd = (int) syscall (SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    {
      perror ("bench-sampling-workload: perf_event_open");
      exit (3);
    }
  /* Nobody reads the ring: 32 pages hold the whole run at these rates, so nothing is
   * dropped early and every sample is the kernel's full work. */
  if (knob ("chain") && !inherit)
    {
      size_t page = (size_t) sysconf (_SC_PAGESIZE), pages = knob ("small") ? 1 : 32;
      if (mmap (NULL, page * (pages + 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED)
        {
          perror ("bench-sampling-workload: mmap");
          exit (3);
        }
    }
  return fd;
}

static long ticks_seen;

static void
on_tick (int sig)
{
  (void) sig;
  __atomic_add_fetch (&ticks_seen, 1, __ATOMIC_RELAXED);
}

static void
open_tick_timer (void)
{
  struct sigevent ev = { 0 };
  struct itimerspec period = { 0 };
  timer_t timer;

  signal (SIGPROF, on_tick);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev._sigev_un._tid = (pid_t) syscall (SYS_gettid);
  period.it_interval.tv_nsec = 1000000000L / bare_hz;
  period.it_value = period.it_interval;
  if (timer_create (CLOCK_THREAD_CPUTIME_ID, &ev, &timer) != 0 || timer_settime (timer, 0, &period, NULL) != 0)
    {
      perror ("bench-sampling-workload: timer_create");
      exit (3);
    }
}

/* The CPU time of the working threads alone (BENCH_WORK_CPU_FD=N: written there as
 * nanoseconds at exit): the process's minus this is what Strobe's own threads took. */
static long work_cpu_ns;

static void *
work (void *data)
{
  struct timespec ts;
  double x = 0;

  (void) data;
  if (bare_hz > 0 && knob ("tick"))
    open_tick_timer ();
  else if (bare_hz > 0 && !knob ("inherit"))
    open_bare_event (0, false);
  for (long i = 0; i < iterations; i++)
    x += level_a ((unsigned) (i * 2654435761u), 0);
  sink += x;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  __atomic_add_fetch (&work_cpu_ns, (long) ts.tv_sec * 1000000000L + ts.tv_nsec, __ATOMIC_RELAXED);
  return NULL;
}

int
main (int argc, char **argv)
{
  int threads = argc > 2 ? atoi (argv[2]) : 1;
  pthread_t t[16];

  iterations = argc > 1 ? atol (argv[1]) : 100000;
  bare_hz = getenv ("BENCH_BARE_PERF_HZ") ? atol (getenv ("BENCH_BARE_PERF_HZ")) : 0;
  if (getenv ("BENCH_BARE_PERF"))
    bare_knobs = getenv ("BENCH_BARE_PERF");
  /* Inherited: the threads created from here on get copies of it. (The kernel maps no
   * ring for an inherited per-task event: perf record opens one per CPU for that.) */
  if (bare_hz > 0 && knob ("inherit"))
    open_bare_event (0, true);
  strobe_init (NULL);
  if (threads < 1 || threads > 16)
    threads = 1;
  for (int i = 0; i < threads; i++)
    pthread_create (&t[i], NULL, work, NULL);
  for (int i = 0; i < threads; i++)
    pthread_join (t[i], NULL);
  strobe_shutdown ();
  if (getenv ("BENCH_WORK_CPU_FD"))
    dprintf (atoi (getenv ("BENCH_WORK_CPU_FD")), "%ld %ld\n", work_cpu_ns, ticks_seen);
  return 0;
}
