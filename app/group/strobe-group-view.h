/* strobe-group-view.h — a session group as one tab: every process of it on one time axis
 * (its clock aligned with the others', strobe-clock-align.h), a collapsible section of
 * tracks per process with its lifetime, the flows between them as arrows (a click on one
 * follows it to its other end) and in a list, one visible range and one selection for
 * all. A group of the trace store that is still being recorded takes in each process that
 * joins it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-group-log-page.h"
#include "strobe-group-memory-page.h"
#include "strobe-group-timers-page.h"
#include "strobe-store.h"
#include "strobe-timeline-widget.h"

G_BEGIN_DECLS

#define STROBE_TYPE_GROUP_VIEW (strobe_group_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupView, strobe_group_view, STROBE, GROUP_VIEW, GtkWidget)

/* The traces of @files, grouped by hand (a file of @store is opened through it, so a live
 * one is followed; @store may be NULL). */
GtkWidget            *strobe_group_view_new_for_files   (StrobeStore     *store,
                                                         GFile          **files,
                                                         guint            n_files);
/* The session group @session of @store, and whoever joins it later. */
GtkWidget            *strobe_group_view_new_for_session (StrobeStore     *store,
                                                         const char      *session);
const char           *strobe_group_view_get_title       (StrobeGroupView *self);
/* The session's name; NULL for files grouped by hand. */
const char           *strobe_group_view_get_session     (StrobeGroupView *self);
/* Stops reading every member (closing the tab). */
void                  strobe_group_view_cancel          (StrobeGroupView *self);

/* Its processes, in the order they joined, and the flows found between them. */
guint                 strobe_group_view_get_n_members   (StrobeGroupView *self);
StrobeDocument       *strobe_group_view_get_document    (StrobeGroupView *self,
                                                         guint            index);
StrobeTimelineWidget *strobe_group_view_get_timeline    (StrobeGroupView *self,
                                                         guint            index);
StrobeViewState      *strobe_group_view_get_state       (StrobeGroupView *self,
                                                         guint            index);
/* The button that moves process @index by hand (ms; insensitive for the reference). */
GtkSpinButton        *strobe_group_view_get_adjust_button (StrobeGroupView *self,
                                                           guint            index);
gboolean              strobe_group_view_is_loaded       (StrobeGroupView *self);
/* The Log page (every process's messages), the Memory page (per process and in total),
 * the Timers page (grouped by timer or by process); the pages are "timeline", "log",
 * "memory", "timers". */
StrobeGroupLogPage   *strobe_group_view_get_log_page    (StrobeGroupView *self);
StrobeGroupMemoryPage *strobe_group_view_get_memory_page (StrobeGroupView *self);
StrobeGroupTimersPage *strobe_group_view_get_timers_page (StrobeGroupView *self);
void                  strobe_group_view_show_page       (StrobeGroupView *self,
                                                         const char      *name);
guint                 strobe_group_view_get_n_flows     (StrobeGroupView *self);
/* What a click on the arrow leading from hop @hop of flow @flow does: shows and selects
 * the scope at its other end (@hop + 1), in whichever process it is. */
void                  strobe_group_view_follow_flow     (StrobeGroupView *self,
                                                         guint            flow,
                                                         guint            hop);

G_END_DECLS
