/* strobe-compare-gate.h — regression thresholds over a comparison (`strobe-cli compare
 * --fail-if`): "Physics:mean>+5%", "frame.game:p95>+1ms", "*:excl>+20%",
 * "memory.peak>+10%", "log.errors>+0".
 *
 *   CHECK   := TIMER ":" METRIC OP VALUE | "memory." COST OP VALUE | "log." ("errors"|"warnings") OP VALUE
 *   TIMER   := a scope name, "frame.game", "frame.render", or a glob of them (* and ?)
 *   METRIC  := count incl excl mean median p95 max min
 *   COST    := peak leaked allocations temporary bytes
 *   OP      := ">" (fails when B − A is above VALUE) | "<" (fails when it is below)
 *   VALUE   := [+|-]NUMBER followed by "%" (of A), a time unit (ns us ms s; times only),
 *              or nothing (counts, bytes, seconds for times)
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-log.h"
#include "strobe-compare-memory.h"
#include "strobe-compare-timers.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_COMPARE_CHECK_TIMER,
  STROBE_COMPARE_CHECK_MEMORY,
  STROBE_COMPARE_CHECK_LOG,
} StrobeCompareCheckKind;

typedef struct
{
  char                    *text;        /* as written */
  StrobeCompareCheckKind   kind;
  char                    *pattern;     /* TIMER */
  StrobeCompareMetric      metric;      /* TIMER */
  StrobeCompareMemoryCost  cost;        /* MEMORY */
  gboolean                 errors;      /* LOG: errors (and fatal) rather than warnings */
  gboolean                 above;       /* ">" */
  gdouble                  threshold;   /* percent, seconds, or a count */
  gboolean                 percent;
} StrobeCompareCheck;

/* What a check found on one row. Values are seconds for times (each trace's own clock),
 * else counts or bytes. */
typedef struct
{
  guint    check;        /* index into the checks */
  char    *row;          /* the row's name ("memory", "log" for totals) */
  gdouble  a, b, delta, percent;
  guint64  samples_a, samples_b;   /* what the figures rest on: calls, frames, allocations, messages */
  gboolean evaluated;    /* FALSE: too few samples, or a percentage without a baseline */
  gboolean failed;
} StrobeCompareGateRow;

/* What the gate sees: the comparison's tables (any may be NULL when not computed). */
typedef struct
{
  GArray                  *timers;     /* StrobeCompareTimer */
  GArray                  *frames;     /* StrobeCompareTimer */
  StrobeCompareMemory     *memory;
  StrobeCompareLog        *log;
  const StrobeCompareSpan *span_a, *span_b;
  StrobeTraceClock         clock_a, clock_b;
  StrobeCompareNorm        norm;
  guint64                  min_count;   /* rows with fewer samples in a trace that has them are not judged */
} StrobeCompareTables;

/* FALSE with @error (G_OPTION_ERROR_BAD_VALUE) saying what is wrong with @text. */
gboolean strobe_compare_check_parse (const char *text, StrobeCompareCheck *out, GError **error);
void     strobe_compare_check_clear (StrobeCompareCheck *check);

/* A timer row's figures as people read them: seconds (times, through each trace's clock)
 * or counts, under @norm. */
void     strobe_compare_timer_pair  (const StrobeCompareTimer *row, StrobeCompareMetric metric,
                                     const StrobeCompareTables *tables, gdouble *a, gdouble *b);

/* Every row each check applies to, in check order (StrobeCompareGateRow, freed with the
 * array). FALSE with @error (G_OPTION_ERROR_BAD_VALUE) when a check applies to no row —
 * a misspelt name must not pass a gate — or needs a table that was not computed. */
gboolean strobe_compare_gate_run    (const StrobeCompareCheck *checks, guint n_checks,
                                     const StrobeCompareTables *tables, GArray **rows, GError **error);

G_END_DECLS
