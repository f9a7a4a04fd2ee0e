/* strobe-counter-series.h — one counter's samples in time order, with a min/max summary
 * per run of samples, so a series query over millions of samples reads the summary. The
 * timeline model keeps one per counter, under its lock. Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint32  id;
  char    *name;
  guint8   type;
  guint8   unit;
  GArray  *samples;      /* StrobeCounterSample, in time order (unless unsorted) */
  GArray  *summary;      /* min and max per run of samples; the last one may be partial */
  gboolean unsorted;     /* a sample came too late to insert: sort before the next query */
} StrobeCounterSeries;

void     strobe_counter_series_init    (StrobeCounterSeries *c, guint32 id);
void     strobe_counter_series_clear   (StrobeCounterSeries *c);
/* Adds a sample; TRUE when it left the series unsorted (strobe_counter_series_sort before
 * the next query). */
gboolean strobe_counter_series_add     (StrobeCounterSeries *c, const StrobeCounterSample *s);
void     strobe_counter_series_sort    (StrobeCounterSeries *c);
/* The samples in [t0, t1], appended to @out. */
guint    strobe_counter_series_samples (const StrobeCounterSeries *c, guint64 t0, guint64 t1, GArray *out);
/* strobe_timeline_model_get_counter_series() on this series. */
guint    strobe_counter_series_buckets (const StrobeCounterSeries *c, guint64 t0, guint64 t1, guint n_buckets,
                                        StrobeCounterSample *before, StrobeCounterSample *after, GArray *out);

G_END_DECLS
