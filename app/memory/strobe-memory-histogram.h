/* strobe-memory-histogram.h — allocations by size (power-of-two buckets) over the whole
 * trace or the selected range: bars of how many allocations, and of how many bytes, each
 * bucket holds; hover names a bucket's figures. A table beside it (the view's) gives the
 * same figures to read and to sort.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-query.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_HISTOGRAM (strobe_memory_histogram_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryHistogram, strobe_memory_histogram, STROBE, MEMORY_HISTOGRAM, GtkWidget)

GtkWidget  *strobe_memory_histogram_new           (void);
/* An aggregation by STROBE_MEMORY_BY_SIZE (NULL: empty). */
void        strobe_memory_histogram_set_aggregate (StrobeMemoryHistogram *self,
                                                   StrobeMemoryAggregate *sizes);
/* What the hover shows (NULL when not over a bar). */
const char *strobe_memory_histogram_get_hover_text (StrobeMemoryHistogram *self);

G_END_DECLS
