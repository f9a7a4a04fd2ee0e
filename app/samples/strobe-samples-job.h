/* strobe-samples-job.h — what the Samples panel shows for one interval of one thread,
 * computed on a worker thread (never the main one): the sampled tree top-down (the
 * sample model's one StrobeCostTree) and bottom-up (the same tree inverted, not built
 * twice), the callers and callees of every function, and every function's name from the
 * symbolizer, so the main thread only reads.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-sample-model.h"
#include "strobe-symbolizer.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct
{
  StrobeSampleTree *sampled;     /* top-down: strobe_sample_tree_get_tree () */
  StrobeCostTree   *bottom_up;
  StrobeCostCalls  *calls;       /* of the top-down tree */
  GPtrArray        *names;       /* per function of @calls: the function's name */
  GPtrArray        *places;      /* per function: "function (file:line)" */
  guint64           total;       /* samples in the interval */
  gdouble           cut_share;   /* of those, with cut stacks (strobe_sample_tree_cut_share) */
} StrobeSamplesResult;

/* The samples of @intervals. NULL with G_IO_ERROR_CANCELLED when cancelled. */
StrobeSamplesResult *strobe_samples_compute        (StrobeSampleModel          *model,
                                                    StrobeMemoryModel          *stacks,
                                                    StrobeSymbolizer           *symbolizer,
                                                    const StrobeSampleInterval *intervals,
                                                    guint                       n_intervals,
                                                    GCancellable               *cancellable,
                                                    GError                    **error);
void                 strobe_samples_result_free    (StrobeSamplesResult *result);
/* The name of @key ("All samples" for the root's key). */
const char          *strobe_samples_result_name    (StrobeSamplesResult *result,
                                                    guint64              key);
const char          *strobe_samples_result_place   (StrobeSamplesResult *result,
                                                    guint64              key);

/* A scope instance the chosen function dominates: the share of the scope's samples that
 * had the function on their stack. */
typedef struct
{
  guint32 name_id;
  guint16 thread_id;
  guint16 depth;
  guint64 begin;
  guint64 end;
  guint64 samples;     /* the scope's */
  guint64 with;        /* of those, with the function on the stack */
} StrobeDominatedScope;

/* The scope instances of stream thread @thread_id (0: every thread) overlapping [@begin,
 * @end] (at most @max, outer first) in which at least @min_share of the samples (and at
 * least one) had the function @key on their stack — after finding a hot function, where it
 * made a scope slow. Most such samples first. NULL with G_IO_ERROR_CANCELLED. */
GArray              *strobe_samples_dominated      (StrobeSampleModel          *model,
                                                    StrobeMemoryModel          *stacks,
                                                    StrobeSymbolizer           *symbolizer,
                                                    StrobeTimelineModel        *timeline,
                                                    StrobeThreadsModel         *threads,
                                                    guint16                     thread_id,
                                                    guint64                     begin,
                                                    guint64                     end,
                                                    guint64                     key,
                                                    gdouble                     min_share,
                                                    guint                       max,
                                                    GCancellable               *cancellable,
                                                    GError                    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeSamplesResult, strobe_samples_result_free)

G_END_DECLS
