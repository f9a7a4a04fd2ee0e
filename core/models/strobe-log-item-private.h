/* strobe-log-item-private.h — how StrobeLogList makes items.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-log-item.h"
#include "strobe-log-model-private.h"

G_BEGIN_DECLS

StrobeLogItem        *strobe_log_item_new       (StrobeLogModel       *model,
                                                 const StrobeLogEntry *entry);
const StrobeLogEntry *strobe_log_item_get_entry (StrobeLogItem        *self);

G_END_DECLS
