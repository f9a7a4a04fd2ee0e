/* strobe-store-message.h — framing and CBOR <-> GVariant for the store protocol.
 *
 * A message is a u32 little-endian length followed by that many bytes holding exactly one
 * CBOR map with text keys (STORE-PROTOCOL.md). Both ends represent a decoded map as a
 * GVariant of type a{sv}, which keeps libcbor out of every other file and gives callers
 * GLib's usual lookup helpers.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STROBE_STORE_PROTOCOL_VERSION   2
#define STROBE_STORE_DEFAULT_PORT       1989
/* Largest request a server accepts; bigger ones get status 413 and the connection closes. */
#define STROBE_STORE_MAX_REQUEST        (64 * 1024)
/* Largest message a client accepts (data messages carry at most 256 KiB). */
#define STROBE_STORE_MAX_MESSAGE        (16 * 1024 * 1024)
/* Deepest nesting of arrays and maps accepted in a message. */
#define STROBE_STORE_MAX_DEPTH          8
/* Bytes of trace data per data message. */
#define STROBE_STORE_DATA_CHUNK         (256 * 1024)

enum
{
  STROBE_STORE_STATUS_OK                 = 200,
  STROBE_STORE_STATUS_BAD_REQUEST        = 400,
  STROBE_STORE_STATUS_UNAUTHORIZED       = 401,
  STROBE_STORE_STATUS_NOT_FOUND          = 404,
  STROBE_STORE_STATUS_METHOD_NOT_ALLOWED = 405,
  STROBE_STORE_STATUS_CONFLICT           = 409,
  STROBE_STORE_STATUS_TOO_LARGE          = 413,
  STROBE_STORE_STATUS_INTERNAL_ERROR     = 500,
  STROBE_STORE_STATUS_UNAVAILABLE        = 503,
};

/* Decodes one message body (without its length prefix) into an a{sv}. Fails on anything
 * but exactly one well-formed CBOR map with text keys, nested at most
 * STROBE_STORE_MAX_DEPTH deep; indefinite-length maps and arrays are fine, indefinite-length
 * strings are not. */
GVariant *strobe_store_message_decode      (const guint8  *data,
                                            gsize          len,
                                            GError       **error);
/* Encodes an a{sv} (values: b, y, q, u, t, n, i, x, d, s, ay, a{sv}, av, as, v) into a
 * whole message, length prefix included. */
GBytes   *strobe_store_message_encode      (GVariant      *dict);
/* Copies @value into @out when it is a byte string of exactly @n bytes (a nonce or a proof
 * of the authentication exchange); FALSE otherwise, @value NULL included. */
gboolean  strobe_store_message_get_fixed_bytes (GVariant     *value,
                                                guint8       *out,
                                                gsize         n);
/* A data message of the v1/trace/read stream, encoded without copying through GVariant. */
GBytes   *strobe_store_message_encode_data (gboolean       has_tag,
                                            guint64        tag,
                                            guint64        offset,
                                            const guint8  *data,
                                            gsize          len);

G_END_DECLS
