/* strobe-compare-log.h — log A vs B: messages per category and verbosity, and the
 * warnings and errors of each trace by where they come from (category and format), so a
 * warning that only one run printed stands out whatever its arguments were.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-range.h"
#include "strobe-compare-timers.h"

G_BEGIN_DECLS

typedef struct
{
  char            *category;    /* "(unknown)" for messages whose site was never described */
  guint8           verbosity;
  StrobeCompareIn  in;
  guint64          a, b;        /* messages */
} StrobeCompareLogCount;

typedef struct
{
  char            *category;
  guint8           verbosity;   /* warning or worse */
  char            *format;      /* the site's format, as the source wrote it */
  StrobeCompareIn  in;
  guint64          a, b;        /* messages */
  char            *text;        /* the first message's text (of A when it has one, else B's) */
} StrobeCompareLogProblem;

typedef struct
{
  GArray *counts;     /* StrobeCompareLogCount, by category then verbosity */
  GArray *problems;   /* StrobeCompareLogProblem, by verbosity, category, format */
} StrobeCompareLog;

/* Both documents need their log model. NULL with @error when cancelled. */
StrobeCompareLog *strobe_compare_log      (StrobeDocument *a, const StrobeCompareSpan *span_a,
                                           StrobeDocument *b, const StrobeCompareSpan *span_b,
                                           GCancellable *cancellable, GError **error);
void              strobe_compare_log_free (StrobeCompareLog *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCompareLog, strobe_compare_log_free)

G_END_DECLS
