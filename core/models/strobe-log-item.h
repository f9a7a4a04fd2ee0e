/* strobe-log-item.h — one log message as a GObject, made on demand by StrobeLogList for the
 * rows a view shows. It holds a copy of the message's record and formats its text the
 * first time it is asked.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-log-model.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_ITEM (strobe_log_item_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogItem, strobe_log_item, STROBE, LOG_ITEM, GObject)

StrobeLogModel          *strobe_log_item_get_model         (StrobeLogItem *self);
/* Its position in time order when it was made (in the list's snapshot of the model). */
guint64                  strobe_log_item_get_position      (StrobeLogItem *self);
/* Its position in the model's time order now: late messages of a live trace may have
 * moved it since it was made. O(log n). */
guint64                  strobe_log_item_find_index        (StrobeLogItem *self);
guint64                  strobe_log_item_get_time          (StrobeLogItem *self);
guint16                  strobe_log_item_get_thread_id     (StrobeLogItem *self);
guint8                   strobe_log_item_get_verbosity     (StrobeLogItem *self);
guint32                  strobe_log_item_get_category_id   (StrobeLogItem *self);
guint32                  strobe_log_item_get_spec_id       (StrobeLogItem *self);
/* NULL when the message's site was never announced. */
const StrobeLogSpecInfo *strobe_log_item_get_spec          (StrobeLogItem *self);
/* The category's name; NULL when unknown. */
const char              *strobe_log_item_get_category_name (StrobeLogItem *self);
/* The formatted message, as printf wrote it (it may hold control characters). */
const char              *strobe_log_item_get_text          (StrobeLogItem *self);
/* The text on one line with control characters and terminal escapes made visible
 * (strobe_text_escape), its first KiB at most (then "…"): what a table shows. */
const char              *strobe_log_item_get_display_text  (StrobeLogItem *self);
/* FALSE when the site is unknown or the arguments do not fit its format. */
gboolean                 strobe_log_item_is_well_formed    (StrobeLogItem *self);
/* The encoded arguments (Logging.LogMessage.FormatArgs), valid for the item's life (read
 * from the trace file on first use; none when it cannot be read again). */
const guint8            *strobe_log_item_get_args          (StrobeLogItem *self,
                                                            gsize         *len);

G_END_DECLS
