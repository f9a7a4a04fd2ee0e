/* strobe-log-list-private.h — what the exporter reads of a list.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-log-list.h"
#include "strobe-log-model-private.h"

G_BEGIN_DECLS

/* A reference on the snapshot the items are positions of, and a copy of those positions
 * (guint32; NULL when the list has every message of the snapshot). */
void strobe_log_list_dup_state (StrobeLogList   *self,
                                StrobeLogOrder **order,
                                GArray         **positions);

G_END_DECLS
