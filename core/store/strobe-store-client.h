/* strobe-store-client.h — talks to a StrobeStoreServer (STORE-PROTOCOL.md) with async GIO.
 *
 * One connection carries any number of requests at once; responses are matched by tag.
 * A live v1/trace/read keeps streaming until the trace ends, so give a long live read a
 * client of its own: cancelling it stops delivery here, but the server keeps sending until
 * the connection closes.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-store-error.h"
#include "strobe-store-message.h"

G_BEGIN_DECLS

#define STROBE_TYPE_STORE_CLIENT (strobe_store_client_get_type ())
G_DECLARE_FINAL_TYPE (StrobeStoreClient, strobe_store_client, STROBE, STORE_CLIENT, GObject)

/* Called for each chunk of a trace, in order. */
typedef void (*StrobeStoreClientDataFunc) (const guint8 *data,
                                           gsize         len,
                                           guint64       offset,
                                           gpointer      user_data);

/* Connects and runs the challenge–response of STORE-PROTOCOL.md §1a with @secret (NULL:
 * STROBE_STORE_SECRET, else the user's own store's store.secret); completes once the
 * server has proved it knows the secret and accepted the client's proof. Fails with
 * STROBE_STORE_ERROR_AUTH when either side's proof is wrong, _SECRET when there is no
 * usable secret here. */
void               strobe_store_client_connect_async     (const char                *host,
                                                          guint16                    port,
                                                          const char                *secret,
                                                          GCancellable              *cancellable,
                                                          GAsyncReadyCallback        callback,
                                                          gpointer                   user_data);
StrobeStoreClient *strobe_store_client_connect_finish    (GAsyncResult              *result,
                                                          GError                   **error);

/* Sends {request: @verb, path: @path, ...@params (a{sv}, may be NULL or floating)}. */
void               strobe_store_client_request_async     (StrobeStoreClient         *self,
                                                          const char                *verb,
                                                          const char                *path,
                                                          GVariant                  *params,
                                                          GCancellable              *cancellable,
                                                          GAsyncReadyCallback        callback,
                                                          gpointer                   user_data);
/* The whole response (a{sv}) when its status is 200; otherwise an error in
 * STROBE_STORE_ERROR (NOT_FOUND for 404, BUSY for 409, REMOTE for the rest) whose message
 * starts with the status. */
GVariant          *strobe_store_client_request_finish    (StrobeStoreClient         *self,
                                                          GAsyncResult              *result,
                                                          GError                   **error);

/* Streams trace @id from @offset into @func; with @follow, keeps going while it is live.
 * Completes when the trace ends; finish returns its final status ("finished", …). */
void               strobe_store_client_read_trace_async  (StrobeStoreClient         *self,
                                                          const char                *id,
                                                          guint64                    offset,
                                                          gboolean                   follow,
                                                          StrobeStoreClientDataFunc  func,
                                                          gpointer                   func_data,
                                                          GCancellable              *cancellable,
                                                          GAsyncReadyCallback        callback,
                                                          gpointer                   user_data);
char              *strobe_store_client_read_trace_finish (StrobeStoreClient         *self,
                                                          GAsyncResult              *result,
                                                          GError                   **error);

/* After this succeeds the client emits ::event (name, payload a{sv}) for every change the
 * server pushes: "trace-added", "trace-changed", "trace-removed", "session-added",
 * "session-removed". */
void               strobe_store_client_subscribe_async   (StrobeStoreClient         *self,
                                                          GCancellable              *cancellable,
                                                          GAsyncReadyCallback        callback,
                                                          gpointer                   user_data);
gboolean           strobe_store_client_subscribe_finish  (StrobeStoreClient         *self,
                                                          GAsyncResult              *result,
                                                          GError                   **error);

void               strobe_store_client_close             (StrobeStoreClient         *self);
gboolean           strobe_store_client_is_closed         (StrobeStoreClient         *self);

G_END_DECLS
