/* store-test-util.h — helpers shared by the store and recorder tests.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

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

G_END_DECLS
