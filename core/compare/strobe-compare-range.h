/* strobe-compare-range.h — which part of each trace a comparison looks at: the whole
 * trace, a time range, game frames N–M, or the span of a named region, resolved on each
 * trace on its own so that the same segment of two captures is compared.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-document.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_COMPARE_RANGE_WHOLE,
  STROBE_COMPARE_RANGE_TIME,     /* [from, to] seconds from the trace's start */
  STROBE_COMPARE_RANGE_FRAMES,   /* game frames first..last (numbered from 0), inclusive */
  STROBE_COMPARE_RANGE_REGION,   /* the first region named @region */
  STROBE_COMPARE_RANGE_BOOKMARKS,/* from the first bookmark named @region to the first named
                                  * @until at or after it */
} StrobeCompareRangeKind;

typedef struct
{
  StrobeCompareRangeKind kind;
  gdouble                from, to;
  guint64                first_frame, last_frame;
  char                  *region;
  char                  *until;
} StrobeCompareRange;

/* A range resolved on one trace. */
typedef struct
{
  guint64 t0, t1;                                  /* ticks; 0 and G_MAXUINT64: the whole trace */
  guint64 frames[STROBE_TIMELINE_FRAME_KINDS];     /* finished frames of each kind inside the span */
  gdouble seconds;                                 /* how long the span is */
} StrobeCompareSpan;

void     strobe_compare_range_clear        (StrobeCompareRange *range);
/* The span of @range in @document (read, with its timeline model): FALSE with @error
 * (G_IO_ERROR_NOT_FOUND, _INVALID_ARGUMENT) when the trace has no such frames or region
 * or the times lie outside it. */
gboolean strobe_compare_range_resolve      (const StrobeCompareRange *range, StrobeDocument *document,
                                            StrobeCompareSpan *out, GError **error);
/* A finished frame wholly inside @span: what the span counts, and
 * the frames whose times are compared. */
gboolean strobe_compare_span_has_frame     (const StrobeCompareSpan *span, const StrobeTimelineFrame *frame);
/* "whole trace", "0.500–1.000 s", "frames 100–200", "region “Level 2”", "bookmarks “Start”–“Boss”": for titles. */
char    *strobe_compare_range_describe     (const StrobeCompareRange *range);

G_END_DECLS
