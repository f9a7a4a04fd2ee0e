/* store-test-util.h — helpers shared by the store and recorder tests.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-store-client.h"
#include "strobe-wire.h"
#include "test-dirs.h"

G_BEGIN_DECLS

/* A fresh temporary directory; removed (with its files) by test_dir_remove_all(). */
char    *test_dir_new       (void);

/* A valid Strobe stream: handshake for @program, packets of pseudo-random bytes (seeded
 * by @seed) on a few threads until about @payload_bytes, then an End packet if @with_end.
 * @handshake_len receives where the packets start. */
GBytes  *test_build_stream  (const char *program,
                             guint32     seed,
                             gsize       payload_bytes,
                             gboolean    with_end,
                             gsize      *handshake_len);

/* The same, its handshake naming the session group @session (NULL: none) and parent pid
 * 4242. */
GBytes  *test_build_session_stream (const char *program,
                                    const char *session,
                                    guint32     seed,
                                    gsize       payload_bytes,
                                    gboolean    with_end,
                                    gsize      *handshake_len);

/* Iterates the default main context until @cond (checked after each iteration) is true
 * or @timeout_ms passed; returns @cond's last value. */
gboolean test_wait_until    (gboolean  (*cond) (gpointer data),
                             gpointer    data,
                             guint       timeout_ms);
/* Iterates the default main context for @ms. */
void     test_spin          (guint       ms);

/* Connects to 127.0.0.1:@port, sends @data (in chunks of @chunk bytes, 0 = all at once)
 * and closes — from a new thread, so the main context stays free to run the recorder. */
GThread *test_send_in_thread (guint16    port,
                              GBytes    *data,
                              gsize      chunk);

gboolean test_file_equals   (const char *path,
                             const guint8 *data,
                             gsize       len);

/* Raw store peers over blocking sockets (STORE-PROTOCOL.md), for tests that must say
 * exactly what goes over the wire. */
int       test_store_connect_fd     (guint16     port);
/* TRUE when the server runs on the calling thread's default main context: reads on this
 * thread then run it while they wait (other threads just wait). */
void      test_store_set_pump       (gboolean    pump);
/* The next message within @timeout_ms (fails the test on a timeout); NULL on EOF. */
GVariant *test_store_read_message   (int         fd,
                                     int         timeout_ms);
guint64   test_store_status         (GVariant   *message);
void      test_store_send           (int         fd,
                                     GVariant   *dict);
GVariant *test_store_request_dict   (const char *verb,
                                     const char *path,
                                     const char *id,
                                     const char *name);
/* Step 1 of the exchange: reads and checks the server's hello. */
void      test_store_read_hello     (int         fd,
                                     guint8      server_nonce[32]);
void      test_store_send_challenge (int         fd,
                                     const guint8 client_nonce[32]);
void      test_store_send_proof     (int         fd,
                                     const guint8 proof[32]);
/* A connection that has done the whole exchange with @secret. */
int       test_store_connect_authed (guint16     port,
                                     const char *secret);
/* A StrobeStoreClient on 127.0.0.1:@port after the exchange with @secret (NULL: the
 * default), running the default main context until connect completes. */
StrobeStoreClient *test_store_client_connect (guint16     port,
                                              const char *secret,
                                              GError    **error);
/* The secret a server on the store in @dir uses (after it started). */
char     *test_store_secret         (const char *dir);

G_END_DECLS
