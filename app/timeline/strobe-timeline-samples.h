/* strobe-timeline-samples.h — the timeline's tracks of sampling (issue 22): under a
 * sampled thread's scopes a strip of its states (running, preempted, waiting: what the
 * kernel's context switches say) over its sample ticks, and the process's CPU usage as a
 * graph track (samples per pixel column over what the sampling frequency would give a
 * thread always on a CPU; 100 % is one core), drawn with app/chart's layers. Painted on
 * the tile workers (cairo only); the tooltips' words for the main thread.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <cairo.h>

#include "strobe-sample-model.h"
#include "strobe-time-scale.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

/* The strip of thread @system_id at @y (STROBE_TRACK_SAMPLES_H high) over @axis. */
void   strobe_timeline_paint_sample_strip (cairo_t                *cr,
                                           const StrobeTimeScale  *axis,
                                           StrobeSampleModel      *model,
                                           guint32                 system_id,
                                           double                  y,
                                           gboolean                dark);
/* The CPU usage graph in a canvas-backed surface, the lane from @y down @h pixels
 * scaled to @max_share (1.0: one core). */
void   strobe_timeline_paint_cpu_usage    (cairo_surface_t        *surface,
                                           const StrobeTimeScale  *axis,
                                           const StrobeTraceClock *clock,
                                           StrobeSampleModel      *model,
                                           double                  y,
                                           double                  h,
                                           double                  max_share,
                                           gboolean                dark);
/* The process's highest CPU share (1.0: one core) over @n buckets of [@t0, @t1]: the CPU
 * track's scale, at least 1. */
double strobe_timeline_cpu_peak           (StrobeSampleModel      *model,
                                           const StrobeTraceClock *clock,
                                           guint64                 t0,
                                           guint64                 t1,
                                           guint                   n);
/* Tooltips: the state of @system_id at @t (and how long it lasted: a wait's duration) and
 * the samples within @slop ticks; the CPU share around @t. NULL when nothing is there. */
char  *strobe_timeline_describe_strip     (StrobeSampleModel      *model,
                                           const StrobeTraceClock *clock,
                                           guint32                 system_id,
                                           guint64                 t,
                                           guint64                 slop);
char  *strobe_timeline_describe_cpu       (StrobeSampleModel      *model,
                                           const StrobeTraceClock *clock,
                                           guint64                 t,
                                           guint64                 slop);

G_END_DECLS
