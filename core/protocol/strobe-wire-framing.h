/* strobe-wire-framing.h — the one reader of a stream's framing (PROTOCOL.md §1, §2, §6,
 * §7): the handshake and its metadata, the packet header, the control packet and End,
 * and what is said when one of them is wrong or cut off.
 *
 * The decoder, the recorder and the store all read a stream's framing through these
 * functions, so they cannot disagree on what is a Strobe stream, where a packet ends or
 * whether a trace is finished. Each function judges only the bytes it is given, so a
 * reader may call it again with more (the decoder is fed in pieces of any size).
 *
 * No GLib: functions return bool and set errno (EBADMSG) on failure, describing what is
 * wrong in a StrobeWireFault; strobe_wire_fault_describe() turns it into the one message
 * every reader shows, translated by the caller's function.
 */
#pragma once

#include "strobe-wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The error classes of PROTOCOL.md §7. */
typedef enum
{
  STROBE_WIRE_FAULT_NONE,
  STROBE_WIRE_FAULT_NOT_STROBE,
  STROBE_WIRE_FAULT_VERSION,
  STROBE_WIRE_FAULT_TRUNCATED,
  STROBE_WIRE_FAULT_UNSUPPORTED,
  STROBE_WIRE_FAULT_CORRUPT,
} StrobeWireFaultClass;

/* Which rule was broken: what the message says. */
typedef enum
{
  STROBE_WIRE_RULE_NONE,
  STROBE_WIRE_RULE_MAGIC,
  STROBE_WIRE_RULE_VERSION_ZERO,        /* values: 0 transport / 1 protocol */
  STROBE_WIRE_RULE_VERSION_NEWER,       /* values: 0 transport / 1 protocol, version */
  STROBE_WIRE_RULE_EMPTY,
  STROBE_WIRE_RULE_CUT_IN_HANDSHAKE,    /* values: bytes present, bytes needed */
  STROBE_WIRE_RULE_CUT_IN_PACKET,       /* values: bytes present, bytes needed */
  STROBE_WIRE_RULE_METADATA,
  STROBE_WIRE_RULE_REQUIRED_FEATURES,   /* values: the unknown bits */
  STROBE_WIRE_RULE_PACKET_SIZE,         /* values: size */
  STROBE_WIRE_RULE_PACKET_FLAGS,        /* values: the unknown required bits */
  STROBE_WIRE_RULE_THREAD_ZERO,
  STROBE_WIRE_RULE_RAW_SIZE_LIMIT,      /* values: raw_size */
  STROBE_WIRE_RULE_RAW_SIZE_MISMATCH,   /* values: size, raw_size */
  STROBE_WIRE_RULE_CONTROL_LZ4,
  STROBE_WIRE_RULE_CONTROL_ZSTD,
  STROBE_WIRE_RULE_TWO_CODECS,
  STROBE_WIRE_RULE_CONTROL_EMPTY,
  STROBE_WIRE_RULE_SYNC_SHORT,
} StrobeWireRule;

typedef struct
{
  StrobeWireFaultClass klass;
  StrobeWireRule       rule;
  uint64_t             offset;     /* the stream offset §7 names */
  uint16_t             thread_id;  /* of the packet at fault, when there is one */
  uint64_t             values[2];
} StrobeWireFault;

/* Returns @msgid translated (or @msgid itself). */
typedef const char *(*StrobeWireTranslateFunc) (const char *msgid);

/* The handshake (§1), judged on the @avail bytes present: the magic on as many of its 4
 * bytes as there are, then each version present. @need receives the size of the whole
 * handshake (8 while metadata_size is not yet present). */
bool strobe_wire_read_handshake (const uint8_t   *data,
                                 size_t           avail,
                                 size_t          *need,
                                 StrobeWireFault *fault);

/* The metadata (the @len bytes after the 8-byte handshake header): its entries, then the
 * required feature bits this reader does not know. Strings of @meta point into @data. */
bool strobe_wire_read_metadata (const uint8_t      *data,
                                size_t              len,
                                StrobeWireMetadata *meta,
                                StrobeWireFault    *fault);

/* The packet header at stream offset @offset (§2), judged on the @avail bytes present.
 * @need receives 12 while the header is incomplete, then the packet's whole size; once
 * complete, @header receives its fields. */
bool strobe_wire_read_packet_header (const uint8_t          *data,
                                     size_t                  avail,
                                     uint64_t                offset,
                                     StrobeWirePacketHeader *header,
                                     size_t                 *need,
                                     StrobeWireFault        *fault);

/* The fields of the complete packet header at @data (12 bytes) as they stand, judged or not:
 * what a reader that steps over a packet it will not judge (the recorder's tracker) needs. */
bool strobe_wire_packet_header_fields (const uint8_t          *data,
                                       StrobeWirePacketHeader *header);

/* Whether the packet whose header was read, starting with the @avail payload bytes at
 * @payload, is End (§6): what a reader needs of a packet to know the stream ended. */
bool strobe_wire_packet_is_end (const StrobeWirePacketHeader *header,
                                const uint8_t                *payload,
                                size_t                        avail);

/* A whole control packet's payload (§6), the packet at stream offset @offset: @kind
 * receives its kind, @serial a Sync's serial (24 bits). Unknown kinds are no error. */
bool strobe_wire_read_control (const uint8_t   *payload,
                               size_t           len,
                               uint64_t         offset,
                               uint8_t         *kind,
                               uint32_t        *serial,
                               StrobeWireFault *fault);

/* The input ended inside a unit (§7, truncated): the handshake when !@in_packets, else
 * the packet at @unit_offset, of which @have of @need bytes are present. */
void strobe_wire_fault_cut_off (StrobeWireFault *fault,
                                bool             in_packets,
                                uint64_t         unit_offset,
                                size_t           have,
                                size_t           need);

/* Writes @fault's message into @buf (always NUL-terminated), its texts passed through
 * @translate (NULL: English). Returns the length snprintf would have written. */
int strobe_wire_fault_describe (const StrobeWireFault   *fault,
                                StrobeWireTranslateFunc  translate,
                                char                    *buf,
                                size_t                   size);

#ifdef __cplusplus
}
#endif
