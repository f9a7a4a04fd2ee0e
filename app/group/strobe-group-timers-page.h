/* strobe-group-timers-page.h — a group tab's Timers page: per scope name statistics of
 * every process over the group's selected range (each process's own ticks of it; the whole
 * of each without one), computed on a worker (core/models' strobe-timer-stats.h, one pass
 * per process), as a tree: a timer of all processes together with a row per process under
 * it, or — "By Process" — a row per process with its timers under it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

/* One row: a timer (of one process, or of all), or a process. */
#define STROBE_TYPE_GROUP_TIMER_ROW (strobe_group_timer_row_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupTimerRow, strobe_group_timer_row, STROBE, GROUP_TIMER_ROW, GObject)

/* The timer's name, or the process's label for a process row. */
const char *strobe_group_timer_row_get_name      (StrobeGroupTimerRow *self);
/* The member a row is of; G_MAXUINT for a timer of all processes. */
guint       strobe_group_timer_row_get_member    (StrobeGroupTimerRow *self);
guint64     strobe_group_timer_row_get_count     (StrobeGroupTimerRow *self);
/* Seconds; a process row's inclusive is the sum of its timers' exclusive times (the time
 * in any scope), as is its exclusive. */
gdouble     strobe_group_timer_row_get_inclusive (StrobeGroupTimerRow *self);
gdouble     strobe_group_timer_row_get_exclusive (StrobeGroupTimerRow *self);
gdouble     strobe_group_timer_row_get_max       (StrobeGroupTimerRow *self);
/* The rows under it (StrobeGroupTimerRow); NULL for a leaf. */
GListModel *strobe_group_timer_row_get_children  (StrobeGroupTimerRow *self);

#define STROBE_TYPE_GROUP_TIMERS_PAGE (strobe_group_timers_page_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupTimersPage, strobe_group_timers_page, STROBE, GROUP_TIMERS_PAGE, GtkWidget)

GtkWidget  *strobe_group_timers_page_new             (void);
void        strobe_group_timers_page_add_member      (StrobeGroupTimersPage *self,
                                                      StrobeDocument        *document,
                                                      StrobeViewState       *state,
                                                      const char            *label);
void        strobe_group_timers_page_set_label       (StrobeGroupTimersPage *self,
                                                      guint                  member,
                                                      const char            *label);
/* The scopes grew, a clock moved or the selection changed: computed again (at most once a
 * second while a live group grows; only while the page is shown). */
void        strobe_group_timers_page_invalidate      (StrobeGroupTimersPage *self);
void        strobe_group_timers_page_set_by_process  (StrobeGroupTimersPage *self,
                                                      gboolean               by_process);
/* The top rows (StrobeGroupTimerRow), largest inclusive time first. */
GListModel *strobe_group_timers_page_get_rows        (StrobeGroupTimersPage *self);
/* TRUE while statistics are being computed, or due. */
gboolean    strobe_group_timers_page_is_busy         (StrobeGroupTimersPage *self);
GtkColumnView *strobe_group_timers_page_get_column_view (StrobeGroupTimersPage *self);

G_END_DECLS
