/* strobe-store-group.h — the traces of a store that belong together: a session group.
 *
 * Processes that work together (a client and its server, the programs one `strobe-cli
 * run` starts) carry one session name in their handshakes (core/protocol/PROTOCOL.md §1);
 * the store groups its traces by that name. A group is worked out from the store's list
 * each time it is asked for, so a member that arrives late (a child started later, a late
 * connect) is in it as soon as the store has seen its handshake.
 *
 * A user can also group traces by hand (the viewer's Traces browser, the store protocol's
 * v1/group/create): such a *user group* lists the traces chosen, by id, and is kept in the
 * directory's .user-groups (a key file, written atomically), so it outlives the viewer and
 * the store server. A member deleted later leaves it; the group stays until deleted.
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
  gboolean   user;           /* made by a user, not by a session name */
} StrobeStoreGroup;

void               strobe_store_group_free   (StrobeStoreGroup *group);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeStoreGroup, strobe_store_group_free)

/* Every group of @store, session and user groups, by start time (StrobeStoreGroup, freed
 * with the array). Traces without a session name are in no session group. */
GPtrArray         *strobe_store_dup_groups   (StrobeStore *store);
/* The group named @name (a session group before a user group of the same name); NULL when
 * there is none. */
StrobeStoreGroup  *strobe_store_dup_group    (StrobeStore *store,
                                              const char  *name);
/* What a client must be told again when it changes: its member ids and live state, as
 * one string. */
char              *strobe_store_group_dup_signature (const StrobeStoreGroup *group);

/* A user group of the traces @ids (at least one; repeats count once): refused when @name
 * is not 1–200 bytes of UTF-8 without control or formatting characters
 * (STROBE_STORE_ERROR_INVALID_NAME), a session or user group has it already (_EXISTS), or
 * an id is no trace of @store (_NOT_FOUND). Emits @store's "group-changed". */
gboolean           strobe_store_create_group (StrobeStore        *store,
                                              const char         *name,
                                              const char * const *ids,
                                              GError            **error);
/* Deletes the user group @name (its traces stay); a session group cannot be deleted
 * (_NOT_FOUND: no user group has that name). Emits @store's "group-changed". */
gboolean           strobe_store_delete_group (StrobeStore        *store,
                                              const char         *name,
                                              GError            **error);
/* The names of the user groups @trace_id is in (NULL-terminated, possibly empty). */
char             **strobe_store_dup_user_groups_of (StrobeStore  *store,
                                                    const char   *trace_id);

G_END_DECLS
