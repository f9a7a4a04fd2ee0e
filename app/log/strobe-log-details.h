/* strobe-log-details.h — the log view's details pane: the selected message whole (its
 * text on several lines with control characters made visible), when and where it was
 * logged, its source location, its format and each of its arguments, and its raw argument
 * bytes when they do not decode.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-log-item.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_DETAILS (strobe_log_details_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogDetails, strobe_log_details, STROBE, LOG_DETAILS, GtkWidget)

GtkWidget     *strobe_log_details_new      (void);
/* @item NULL: nothing selected. @thread_name may be NULL. */
void           strobe_log_details_show     (StrobeLogDetails       *self,
                                            StrobeLogItem          *item,
                                            const StrobeTraceClock *clock,
                                            const char             *thread_name);
StrobeLogItem *strobe_log_details_get_item (StrobeLogDetails       *self);

G_END_DECLS
