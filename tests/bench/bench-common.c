/* bench-common.c — shared output and statistics of the benchmarks. */
#include "bench-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strobe/strobe.h>

double
bench_now_ns (void)
{
  /* STROBE_BENCH_CLOCK=cpu: the process's CPU time (every thread), not the wall clock —
   * on a machine other work loads, a build's figures against another's hold better. */
  static int clock_id = -1;
  struct timespec ts;

  if (clock_id < 0)
    {
      const char *c = getenv ("STROBE_BENCH_CLOCK");
      clock_id = c != NULL && strcmp (c, "cpu") == 0 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    }
  clock_gettime (clock_id, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
bench_sort (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
}

double
bench_median (double *v, int n)
{
  bench_sort (v, n);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
bench_report (const char *name, double value, const char *unit)
{
  printf ("%-36s %14.3f %s\n", name, value, unit);
  fflush (stdout);
}

double
bench_rss_mib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  return line ? g_ascii_strtod (line + 6, NULL) / 1024.0 : 0;
}

void
bench_report_ratio (const char *name, double value, const char *op, double target)
{
  gboolean ok = g_str_equal (op, "<=") ? value <= target : value >= target;
  printf ("ratio %-30s %8.3f target %s %.2f %s\n", name, value, op, target, ok ? "MET" : "MISSED");
  fflush (stdout);
}

static volatile uint64_t bench_sink;

void
bench_burst_clock (int n)
{
  uint64_t acc = 0;
  for (int i = 0; i < n; i++)
    acc += strobe_time ();
  bench_sink = acc;
}

double
bench_measure (BenchBurst burst, int n, double *ratio, double *clock_ns)
{
  double v[BENCH_BURSTS], r[BENCH_BURSTS], c[BENCH_BURSTS];

  burst (n);
  strobe_flush ();
  for (int b = 0; b < BENCH_BURSTS; b++)
    {
      double t0 = bench_now_ns (), t1;
      bench_burst_clock (n);
      t1 = bench_now_ns ();
      burst (n);
      v[b] = (bench_now_ns () - t1) / n;
      c[b] = (t1 - t0) / n;
      r[b] = v[b] / c[b];
      strobe_flush ();
    }
  if (ratio)
    *ratio = bench_median (r, BENCH_BURSTS);
  if (clock_ns)
    *clock_ns = bench_median (c, BENCH_BURSTS);
  return bench_median (v, BENCH_BURSTS);
}
