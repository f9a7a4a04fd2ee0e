/* strobe-region-index.h — regions laid out in lanes once, queried by time range.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct _StrobeRegionIndex StrobeRegionIndex;

/* Takes @regions (StrobeTimelineRegion, any order; their lanes are ignored): sorts them by
 * begin time (longest first on a tie) and gives each the lowest lane free at its begin.
 * Immutable afterwards, so any thread may query it. */
StrobeRegionIndex *strobe_region_index_new       (GArray                  *regions);
StrobeRegionIndex *strobe_region_index_ref       (StrobeRegionIndex       *self);
void               strobe_region_index_unref     (StrobeRegionIndex       *self);
guint              strobe_region_index_get_n     (const StrobeRegionIndex *self);
guint              strobe_region_index_get_lanes (const StrobeRegionIndex *self);
/* Appends the regions overlapping [t0, t1] (begin <= t1, end >= t0) to @out by begin time;
 * returns how many. */
guint              strobe_region_index_query     (const StrobeRegionIndex *self,
                                                  guint64                  t0,
                                                  guint64                  t1,
                                                  GArray                  *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeRegionIndex, strobe_region_index_unref)

G_END_DECLS
