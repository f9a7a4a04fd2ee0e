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
/* @op is "<=" or ">=". */
void   bench_report_ratio (const char *name, double value, const char *op, double target);
