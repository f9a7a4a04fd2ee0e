/* strobe-timer-row.h — one row of the timers panel's tables: a timer's statistics over the
 * selected range (or, in the callers and callees tables, a name with a count and an
 * inclusive time).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

#include "strobe-time-axis.h"
#include "strobe-timer-stats.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMER_ROW (strobe_timer_row_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimerRow, strobe_timer_row, STROBE, TIMER_ROW, GObject)

/* Copies @stat (and its name); @share is of the range's exclusive time, 0..1; @axis (a
 * reference is kept: the document's clock, never a copy) converts its times. */
StrobeTimerRow        *strobe_timer_row_new       (const StrobeTimerStat  *stat,
                                                   gdouble                 share,
                                                   StrobeTimeAxis         *axis);
/* A length of time of the row's trace as the tables print it ("12.3 ms"). */
char                  *strobe_timer_row_format_ticks (StrobeTimerRow      *self,
                                                      guint64              ticks);
/* New figures for the same name (notifies "stat"); FALSE when they are the same. */
gboolean               strobe_timer_row_update    (StrobeTimerRow        *self,
                                                   const StrobeTimerStat *stat,
                                                   gdouble                share);
const StrobeTimerStat *strobe_timer_row_get_stat  (StrobeTimerRow        *self);
gdouble                strobe_timer_row_get_share (StrobeTimerRow        *self);

G_END_DECLS
