/* strobe-group-log.h — the messages of every process of a group as one list, in the
 * order of the group's one time axis.
 *
 * A GListModel of StrobeLogItem merged from one StrobeLogList per process (each filtered
 * on its own worker as the single-trace log is): nothing is copied but the merged order,
 * 8 bytes a message shown (which process, which of its list's items). A process can be
 * left out (the Process filter). When a member's list changes (a filter's results coming
 * in, a live trace's new messages), only what follows its last unchanged message is merged
 * again; a change of the clocks (a member joining with an earlier start) merges it all.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-document.h"
#include "strobe-log-list.h"

G_BEGIN_DECLS

#define STROBE_TYPE_GROUP_LOG (strobe_group_log_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupLog, strobe_group_log, STROBE, GROUP_LOG, GObject)

StrobeGroupLog *strobe_group_log_new          (void);
/* Adds a process: @list is its messages (the group log keeps a reference and follows it),
 * @document whose clock puts them on the group's axis. Returns its index. */
guint           strobe_group_log_add          (StrobeGroupLog *self,
                                               StrobeDocument *document,
                                               StrobeLogList  *list);
guint           strobe_group_log_get_n_members (StrobeGroupLog *self);
StrobeLogList  *strobe_group_log_get_list     (StrobeGroupLog *self,
                                               guint           member);
/* Shows or leaves out member @member's messages. */
void            strobe_group_log_set_shown    (StrobeGroupLog *self,
                                               guint           member,
                                               gboolean        shown);
gboolean        strobe_group_log_get_shown    (StrobeGroupLog *self,
                                               guint           member);
/* The documents' clocks were set again (realigned): merged again if they moved. */
void            strobe_group_log_clocks_changed (StrobeGroupLog *self);
/* Which member item @position is, and its position in that member's list; FALSE out of
 * range. */
gboolean        strobe_group_log_locate       (StrobeGroupLog *self,
                                               guint           position,
                                               guint          *member,
                                               guint          *member_position);
/* The member whose log model is @model; G_MAXUINT when none. */
guint           strobe_group_log_find_model   (StrobeGroupLog *self,
                                               StrobeLogModel *model);
/* Seconds on the group's axis of item @position; FALSE out of range. */
gboolean        strobe_group_log_get_seconds  (StrobeGroupLog *self,
                                               guint           position,
                                               gdouble        *seconds);
/* The first item at or after @seconds on the group's axis; n_items when none is. */
guint           strobe_group_log_find_seconds (StrobeGroupLog *self,
                                               gdouble         seconds);
/* The item that is member @member's item @member_position; G_MAXUINT when not shown. */
guint           strobe_group_log_find_item    (StrobeGroupLog *self,
                                               guint           member,
                                               guint           member_position);

G_END_DECLS
