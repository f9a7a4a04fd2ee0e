/* strobe-compare-items.h — the rows of the comparison page's tables as GObjects (a timer,
 * an allocation site, a log site), and each table's columns: A, B, the change and the
 * change in percent of every figure, sortable.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-compare-gate.h"
#include "strobe-table.h"

G_BEGIN_DECLS

/* What a timer row's figures are read with: the spans, clocks and normalisation. Shared
 * by the rows of one comparison (refcounted). */
typedef struct
{
  gint                 ref_count;
  StrobeCompareTables  tables;
  StrobeCompareSpan    span_a, span_b;
  StrobeCompareSketches *sketches;   /* the timers' durations, for their histograms; may be NULL */
} StrobeCompareContext;

StrobeCompareContext *strobe_compare_context_new   (void);
StrobeCompareContext *strobe_compare_context_ref   (StrobeCompareContext *context);
void                  strobe_compare_context_unref (StrobeCompareContext *context);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCompareContext, strobe_compare_context_unref)

#define STROBE_TYPE_COMPARE_ITEM (strobe_compare_item_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCompareItem, strobe_compare_item, STROBE, COMPARE_ITEM, GObject)

StrobeCompareItem *strobe_compare_item_new_timer   (const StrobeCompareTimer *timer, StrobeCompareContext *context);
StrobeCompareItem *strobe_compare_item_new_site    (const StrobeCompareMemorySite *site);
StrobeCompareItem *strobe_compare_item_new_message (const StrobeCompareLogProblem *problem);
StrobeCompareItem *strobe_compare_item_new_count   (const StrobeCompareLogCount *count);
/* The row's name (a scope, "frame.game", a function, "category: text"). */
const char        *strobe_compare_item_get_name    (StrobeCompareItem *self);
StrobeCompareIn    strobe_compare_item_get_in      (StrobeCompareItem *self);
/* Timer rows: the figures under the context's normalisation (seconds or counts). */
const StrobeCompareTimer *strobe_compare_item_get_timer (StrobeCompareItem *self);
void               strobe_compare_item_get_metric  (StrobeCompareItem *self, StrobeCompareMetric metric,
                                                    gdouble *a, gdouble *b);

/* The tables' columns (static arrays). */
const StrobeTableColumn *strobe_compare_timer_columns   (guint *n);
const StrobeTableColumn *strobe_compare_site_columns    (guint *n);
const StrobeTableColumn *strobe_compare_message_columns (guint *n);
const StrobeTableColumn *strobe_compare_count_columns   (guint *n);

G_END_DECLS
