/* strobe-store-maps.h — a trace, a group and a live session as the maps the store protocol
 * sends (STORE-PROTOCOL.md §4): the server's replies and events are built from these.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-store-group.h"

G_BEGIN_DECLS

GVariant *strobe_store_trace_map   (StrobeTrace                *trace);
/* @group NULL: a group that lost its last member (no members, not live), so a subscriber
 * learns it is gone. */
GVariant *strobe_store_group_map   (const char                 *name,
                                    const StrobeStoreGroup     *group);
GVariant *strobe_store_session_map (StrobeLiveConnection       *session);

G_END_DECLS
