/* strobe-store-group.h — the traces of a store that belong together: a session group.
 *
 * Processes that work together (a client and its server, the programs one `strobe-cli
 * run` starts) carry one session name in their handshakes (core/protocol/PROTOCOL.md §1);
 * the store groups its traces by that name. A group is worked out from the store's list
 * each time it is asked for, so a member that arrives late (a child started later, a late
 * connect) is in it as soon as the store has seen its handshake.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-store.h"

G_BEGIN_DECLS

typedef struct
{
  char      *name;           /* the session name */
  GPtrArray *members;        /* StrobeTrace, by start time, then pid */
  gboolean   live;           /* a member is still being recorded */
  guint64    start_time_ns;  /* the earliest member's start */
} StrobeStoreGroup;

void               strobe_store_group_free   (StrobeStoreGroup *group);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeStoreGroup, strobe_store_group_free)

/* Every group of @store, by start time (StrobeStoreGroup, freed with the array). Traces
 * without a session name are in none. */
GPtrArray         *strobe_store_dup_groups   (StrobeStore *store);
/* The group named @name; NULL when no trace of @store has that session name. */
StrobeStoreGroup  *strobe_store_dup_group    (StrobeStore *store,
                                              const char  *name);
/* What a client must be told again when it changes: its member ids and live state, as
 * one string. */
char              *strobe_store_group_dup_signature (const StrobeStoreGroup *group);

G_END_DECLS
