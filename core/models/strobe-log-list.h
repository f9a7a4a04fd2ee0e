/* strobe-log-list.h — the log model as a GListModel of StrobeLogItem, in time order,
 * filtered or not, for a view over millions of messages.
 *
 * Items are made on demand (get_item), so a list of 10 M messages costs no object per
 * message. Unfiltered, item i is the model's message i. Filtered, the list is an array of
 * positions (4 bytes per message that passes) filled by a worker thread, cancelled and
 * restarted when the filter changes: results come in progressively (items-changed as they
 * do), and the items shown before a filter change stay until the new filter's first
 * results are in, so typing in a search box does not flash an empty table.
 *
 * The list follows a growing model when told (strobe_log_list_update, on the document's
 * "changed"): messages appended make items-changed at the end; a late message of another
 * thread inserted before the end makes items-changed from its position on. Everything
 * happens on the thread (main context) that made the list.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-log-item.h"
#include "strobe-log-model.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_LIST (strobe_log_list_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogList, strobe_log_list, STROBE, LOG_LIST, GObject)

StrobeLogList  *strobe_log_list_new            (StrobeLogModel        *model);
StrobeLogModel *strobe_log_list_get_model      (StrobeLogList         *self);

/* Copies @filter (NULL, or one that lets everything through: no filter). Filtering runs
 * on a worker thread; "filtering" is TRUE until it is done. */
void            strobe_log_list_set_filter     (StrobeLogList         *self,
                                                const StrobeLogFilter *filter);
/* The filter in use (NULL: none); owned by the list. */
const StrobeLogFilter *strobe_log_list_get_filter (StrobeLogList      *self);
/* Takes in what the model got since the last call (messages, and late ones moving
 * others); the new items of a filtered list come as the worker finds them. */
void            strobe_log_list_update         (StrobeLogList         *self);

/* Messages the list looks at (passing the filter or not). */
guint64         strobe_log_list_get_total      (StrobeLogList         *self);
/* TRUE while the worker has positions left to test. */
gboolean        strobe_log_list_is_filtering   (StrobeLogList         *self);
/* 0..1: the share of the messages tested (1 when not filtering). */
double          strobe_log_list_get_progress   (StrobeLogList         *self);

/* The first item at or after @time (ticks); n_items when none is. */
guint           strobe_log_list_find_time      (StrobeLogList         *self,
                                                guint64                time);
/* The item of the model's message @index (a position in the model's time order now, as
 * StrobeViewState's selected-message holds it): its position, or where it would be when
 * the filter hides it (then @exact is FALSE); G_MAXUINT when @index is not a message. */
guint           strobe_log_list_find_index     (StrobeLogList         *self,
                                                guint64                index,
                                                gboolean              *exact);
/* The item at @position without a GObject: its time (ticks); FALSE out of range. */
gboolean        strobe_log_list_get_time       (StrobeLogList         *self,
                                                guint                  position,
                                                guint64               *time);

G_END_DECLS
