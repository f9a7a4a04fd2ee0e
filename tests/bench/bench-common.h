/* bench-common.h — what every Strobe benchmark prints and how it summarises.
 *
 * Output: one `name value unit` line per figure, and `ratio name value target OP T
 * MET|MISSED` lines for the targets, always against a baseline from the same run.
 */
#pragma once

#include <glib.h>

double bench_now_ns (void);
void   bench_sort (double *v, int n);
/* Sorts @v in place. */
double bench_median (double *v, int n);
void   bench_report (const char *name, double value, const char *unit);
/* The process's resident memory (VmRSS), MiB; 0 when unknown. */
double bench_rss_mib (void);
/* @op is "<=" or ">=". */
void   bench_report_ratio (const char *name, double value, const char *op, double target);

/* ---- per-operation costs, against a clock read ------------------------------------ */

#define BENCH_BURST  1000000
#define BENCH_BURSTS 9

/* @n operations of one kind; a function per case keeps the loop body the real macro,
 * inlined, and the call per burst costs nothing measurable. */
typedef void (*BenchBurst) (int n);

/* @n clock reads. */
void   bench_burst_clock (int n);

/* Median ns per operation over BENCH_BURSTS bursts of @n, after one untimed warm-up burst
 * (pages touched, sites registered). Each burst is preceded by a clock-read burst of the
 * same length: on a machine whose load changes from second to second adjacent bursts see
 * the same load, so the median of the per-pair ratios (@ratio) is steadier than either
 * figure; @clock_ns receives the clock bursts' median. Each burst is shipped before the
 * next, so the cost is the emitter's and no burst runs into back-pressure (a dropped
 * event would look cheaper). @ratio and @clock_ns may be NULL. */
double bench_measure (BenchBurst burst, int n, double *ratio, double *clock_ns);
