/* strobe-store-server.h — serves a StrobeStore over TCP (STORE-PROTOCOL.md).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-store.h"
#include "strobe-store-message.h"

G_BEGIN_DECLS

/* At most this many clients at once. When all are taken, a new one takes the place of
 * the oldest that has not authenticated yet, else of the one idle the longest
 * (subscribers last), so peers that connect and say nothing cannot lock clients out. */
#define STROBE_STORE_SERVER_MAX_CLIENTS 64
/* At most this many clients from one address that is not loopback; more get status 503. */
#define STROBE_STORE_SERVER_MAX_PER_PEER 16
/* A request must arrive whole within this long of its length prefix. */
#define STROBE_STORE_SERVER_REQUEST_TIMEOUT_S 10
/* A client must finish the challenge–response within this long of connecting. */
#define STROBE_STORE_SERVER_FIRST_REQUEST_TIMEOUT_S 10
/* A client that is neither subscribed nor reading a trace is closed after this long
 * without a request. */
#define STROBE_STORE_SERVER_IDLE_TIMEOUT_S 60

#define STROBE_TYPE_STORE_SERVER (strobe_store_server_get_type ())
G_DECLARE_FINAL_TYPE (StrobeStoreServer, strobe_store_server, STROBE, STORE_SERVER, GObject)

StrobeStoreServer *strobe_store_server_new                (StrobeStore        *store);
StrobeStore       *strobe_store_server_get_store          (StrobeStoreServer  *self);
/* Before start: 0 picks a free port; default 1989. */
void               strobe_store_server_set_port           (StrobeStoreServer  *self,
                                                           guint16             port);
/* Before start: NULL (default) = loopback only; "0.0.0.0" / "::" = every interface. */
void               strobe_store_server_set_listen_address (StrobeStoreServer  *self,
                                                           const char         *address);
/* Before start: the secret clients must prove they know (STORE-PROTOCOL.md §1a). NULL
 * (default): STROBE_STORE_SECRET, else the store directory's store.secret, created when
 * missing; start fails when that file is unsafe. */
void               strobe_store_server_set_secret         (StrobeStoreServer  *self,
                                                           const char         *secret);
/* The recorder port reported by v1/status (0 = no recorder). */
void               strobe_store_server_set_recorder_port  (StrobeStoreServer  *self,
                                                           guint16             port);
gboolean           strobe_store_server_start              (StrobeStoreServer  *self,
                                                           GError            **error);
void               strobe_store_server_stop               (StrobeStoreServer  *self);
guint16            strobe_store_server_get_port           (StrobeStoreServer  *self);
guint              strobe_store_server_get_n_clients      (StrobeStoreServer  *self);

G_END_DECLS
