/* strobe-wire-zstd.h — the ZSTD packet codec (PROTOCOL.md §2, "ZSTD payloads"): the
 * payloads of a stream's ZSTD packets, joined in stream order, are one zstd stream, so a
 * packet may refer to the bytes of every packet before it. One encoder per output, one
 * decoder per stream read.
 *
 * No GLib: bool and errno (EBADMSG on a payload that breaks the rule, ENOMEM).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-wire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StrobeWireZstd StrobeWireZstd;

/* The window a writer may use and a reader must accept: 2^23 bytes (8 MiB). */
#define STROBE_WIRE_ZSTD_WINDOW_LOG_MAX 23
/* Payloads shorter than this go raw and stay out of the zstd stream. */
#define STROBE_WIRE_ZSTD_MIN 64u

/* @level: zstd's compression level (1..19; 0 for zstd's default). NULL on ENOMEM. */
StrobeWireZstd *strobe_wire_zstd_new_encoder (int level);
StrobeWireZstd *strobe_wire_zstd_new_decoder (void);
void            strobe_wire_zstd_free (StrobeWireZstd *z);

/* Appends one packet to @out: ZSTD (the payload fed to @z and flushed) when it is at least
 * STROBE_WIRE_ZSTD_MIN bytes, raw otherwise; control packets go through
 * strobe_wire_write_control. @z must see every packet of one output in order. */
bool strobe_wire_write_packet_zstd (StrobeWireBuf *out, StrobeWireZstd *z, uint16_t thread_id,
                                    const uint8_t *payload, size_t len);

/* Decodes a ZSTD packet's @len payload bytes into exactly @raw_size bytes at @dst, with
 * what @z has decoded of the stream before it. EBADMSG when the payload does not decode,
 * or decodes to more or fewer bytes; @why (may be NULL) names which. After a failure @z
 * is spent (the stream is corrupt from there). */
bool strobe_wire_zstd_decode (StrobeWireZstd *z, const uint8_t *src, size_t len, uint8_t *dst,
                              size_t raw_size, const char **why);

#ifdef __cplusplus
}
#endif
