/* strobe-compare-chart.h — two duration histograms over each other (A and B of one timer
 * or of the frame times) with each median marked, as Tracy's "compare traces" draws them.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-compare-histogram.h"

G_BEGIN_DECLS

#define STROBE_TYPE_COMPARE_CHART (strobe_compare_chart_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCompareChart, strobe_compare_chart, STROBE, COMPARE_CHART, GtkWidget)

GtkWidget *strobe_compare_chart_new           (void);
/* Takes @histogram (NULL: nothing to show); @title names what it is of. */
void       strobe_compare_chart_set_histogram (StrobeCompareChart *self, StrobeCompareHistogram *histogram,
                                               const char *title);
const StrobeCompareHistogram *strobe_compare_chart_get_histogram (StrobeCompareChart *self);
/* A line at @seconds (the frame time to meet), labelled; NaN or ≤ 0: none. */
void       strobe_compare_chart_set_target    (StrobeCompareChart *self, gdouble seconds);
gdouble    strobe_compare_chart_get_target    (StrobeCompareChart *self);

G_END_DECLS
