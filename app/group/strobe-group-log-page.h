/* strobe-group-log-page.h — a group tab's Log page: the messages of every process in one
 * table on the group's time axis (StrobeGroupLog), with a Process column, and filters —
 * text, one process or all, verbosity, the selected range (set in every process). A row
 * selected moves the cursor of its process (and so of every process: the tab keeps them in
 * step) to its moment; a message selected in another view of a process (a log tick of its
 * timeline) is selected and scrolled to here.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-group-log.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_GROUP_LOG_PAGE (strobe_group_log_page_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupLogPage, strobe_group_log_page, STROBE, GROUP_LOG_PAGE, GtkWidget)

GtkWidget      *strobe_group_log_page_new              (void);
/* A process joins: @document (with a log model), the state the tab keeps in step, and its
 * label ("program (pid N)"). */
void            strobe_group_log_page_add_member       (StrobeGroupLogPage   *self,
                                                        StrobeDocument       *document,
                                                        StrobeViewState      *state,
                                                        const char           *label);
void            strobe_group_log_page_set_label        (StrobeGroupLogPage   *self,
                                                        guint                 member,
                                                        const char           *label);
/* Member @member's document changed (@changes), or any clock moved. */
void            strobe_group_log_page_document_changed (StrobeGroupLogPage   *self,
                                                        guint                 member,
                                                        StrobeDocumentChanges changes);
/* The group's selected range changed: the range filter follows it. */
void            strobe_group_log_page_selection_changed (StrobeGroupLogPage  *self);
/* G_MAXUINT: every process; else only member @member's messages (the Process filter). */
void            strobe_group_log_page_set_process      (StrobeGroupLogPage   *self,
                                                        guint                 member);
/* Selects and scrolls to member @member's message @index (a position in its model's time
 * order, as StrobeViewState's selected-message holds it) — what a message selected in
 * another view of that process does. Returns the row, G_MAXUINT when the filters hide it. */
guint           strobe_group_log_page_show_message     (StrobeGroupLogPage   *self,
                                                        guint                 member,
                                                        guint64               index);
StrobeGroupLog *strobe_group_log_page_get_log          (StrobeGroupLogPage   *self);
GtkColumnView  *strobe_group_log_page_get_column_view  (StrobeGroupLogPage   *self);
/* TRUE while a member's list is still filtering. */
gboolean        strobe_group_log_page_is_filtering     (StrobeGroupLogPage   *self);

G_END_DECLS
