/* strobe-wire-framing.c — the one reader of a stream's framing (see the header).
 *
 * The messages are the decoder's, word for word: `strobe-cli dump`, the store's list and
 * the recorder's log say the same thing about the same bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "strobe-wire-framing.h"

static bool
fault_set (StrobeWireFault *fault,
           StrobeWireFaultClass klass,
           StrobeWireRule rule,
           uint64_t offset,
           uint16_t thread_id,
           uint64_t a,
           uint64_t b)
{
  if (fault != NULL)
    {
      fault->klass = klass;
      fault->rule = rule;
      fault->offset = offset;
      fault->thread_id = thread_id;
      fault->values[0] = a;
      fault->values[1] = b;
    }
  errno = EBADMSG;
  return false;
}

bool
strobe_wire_read_handshake (const uint8_t   *data,
                            size_t           avail,
                            size_t          *need,
                            StrobeWireFault *fault)
{
  if (data == NULL && avail > 0)
    {
      errno = EINVAL;
      return false;
    }
  /* The magic is judged on the bytes present: two wrong bytes are enough (§1). */
  if (memcmp (data, STROBE_WIRE_MAGIC, avail < 4 ? avail : 4) != 0)
    return fault_set (fault, STROBE_WIRE_FAULT_NOT_STROBE, STROBE_WIRE_RULE_MAGIC, 0, 0, 0, 0);
  for (size_t i = 4; i < 6 && i < avail; i++)
    {
      unsigned known = i == 4 ? STROBE_WIRE_TRANSPORT_VERSION : STROBE_WIRE_PROTOCOL_VERSION;

      if (data[i] == 0)
        return fault_set (fault, STROBE_WIRE_FAULT_VERSION, STROBE_WIRE_RULE_VERSION_ZERO,
                          i, 0, i - 4, 0);
      if (data[i] > known)
        return fault_set (fault, STROBE_WIRE_FAULT_VERSION, STROBE_WIRE_RULE_VERSION_NEWER,
                          i, 0, i - 4, data[i]);
    }
  if (need != NULL)
    *need = avail < sizeof (StrobeWireHandshake)
            ? sizeof (StrobeWireHandshake)
            : sizeof (StrobeWireHandshake) + strobe_wire_get_u16 (data + 6);
  return true;
}

bool
strobe_wire_read_metadata (const uint8_t      *data,
                           size_t              len,
                           StrobeWireMetadata *meta,
                           StrobeWireFault    *fault)
{
  const uint64_t at = sizeof (StrobeWireHandshake);
  uint32_t unknown;

  if (!strobe_wire_parse_metadata (data, len, meta))
    return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_METADATA, at, 0, 0, 0);
  unknown = meta->features & STROBE_FEATURES_REQUIRED & ~STROBE_FEATURES_KNOWN;
  if (unknown != 0)
    return fault_set (fault, STROBE_WIRE_FAULT_UNSUPPORTED, STROBE_WIRE_RULE_REQUIRED_FEATURES,
                      at, 0, unknown, 0);
  return true;
}

bool
strobe_wire_read_packet_header (const uint8_t          *data,
                                size_t                  avail,
                                uint64_t                offset,
                                StrobeWirePacketHeader *header,
                                size_t                 *need,
                                StrobeWireFault        *fault)
{
  StrobeWirePacketHeader h;

  if (avail < sizeof h)
    {
      if (need != NULL)
        *need = sizeof h;
      return true;
    }
  memcpy (&h, data, sizeof h);
  switch (strobe_wire_check_packet_header (data))
    {
    case STROBE_WIRE_HEADER_OK:
      break;
    case STROBE_WIRE_HEADER_BAD_SIZE:
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_PACKET_SIZE,
                        offset, h.thread_id, h.size, 0);
    case STROBE_WIRE_HEADER_UNKNOWN_FLAGS:
      return fault_set (fault, STROBE_WIRE_FAULT_UNSUPPORTED, STROBE_WIRE_RULE_PACKET_FLAGS,
                        offset, h.thread_id, h.flags & STROBE_PACKET_FLAGS_REQUIRED, 0);
    case STROBE_WIRE_HEADER_BAD_THREAD:
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_THREAD_ZERO,
                        offset, h.thread_id, 0, 0);
    case STROBE_WIRE_HEADER_BAD_RAW_SIZE:
      if (h.raw_size > STROBE_WIRE_MAX_PAYLOAD)
        return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_RAW_SIZE_LIMIT,
                          offset, h.thread_id, h.raw_size, 0);
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_RAW_SIZE_MISMATCH,
                        offset, h.thread_id, h.size, h.raw_size);
    case STROBE_WIRE_HEADER_ZSTD_CONTROL:
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_CONTROL_ZSTD,
                        offset, h.thread_id, 0, 0);
    case STROBE_WIRE_HEADER_TWO_CODECS:
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_TWO_CODECS,
                        offset, h.thread_id, 0, 0);
    case STROBE_WIRE_HEADER_LZ4_CONTROL:
    default:
      return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_CONTROL_LZ4,
                        offset, h.thread_id, 0, 0);
    }
  if (header != NULL)
    *header = h;
  if (need != NULL)
    *need = h.size;
  return true;
}

bool
strobe_wire_packet_header_fields (const uint8_t          *data,
                                  StrobeWirePacketHeader *header)
{
  if (data == NULL || header == NULL)
    {
      errno = EINVAL;
      return false;
    }
  memcpy (header, data, sizeof *header);
  return true;
}

bool
strobe_wire_packet_is_end (const StrobeWirePacketHeader *header,
                           const uint8_t                *payload,
                           size_t                        avail)
{
  /* A header that reads well never flags a control packet LZ4, so its first byte is
   * the kind; an End with bytes after its kind is still End (§6). */
  return header != NULL && header->thread_id == STROBE_TID_CONTROL
         && (header->flags & (STROBE_PACKET_FLAG_LZ4 | STROBE_PACKET_FLAG_ZSTD)) == 0
         && header->size > sizeof (StrobeWirePacketHeader)
         && avail > 0 && payload[0] == STROBE_CONTROL_END;
}

bool
strobe_wire_read_control (const uint8_t   *payload,
                          size_t           len,
                          uint64_t         offset,
                          uint8_t         *kind,
                          uint32_t        *serial,
                          StrobeWireFault *fault)
{
  if (len == 0)
    return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_CONTROL_EMPTY,
                      offset, STROBE_TID_CONTROL, 0, 0);
  if (payload[0] == STROBE_CONTROL_SYNC)
    {
      if (len < 5)
        return fault_set (fault, STROBE_WIRE_FAULT_CORRUPT, STROBE_WIRE_RULE_SYNC_SHORT,
                          offset, STROBE_TID_CONTROL, 0, 0);
      if (serial != NULL)
        *serial = strobe_wire_get_u32 (payload + 1) & STROBE_WIRE_SERIAL_MASK;
    }
  if (kind != NULL)
    *kind = payload[0];
  return true;
}

void
strobe_wire_fault_cut_off (StrobeWireFault *fault,
                           bool             in_packets,
                           uint64_t         unit_offset,
                           size_t           have,
                           size_t           need)
{
  if (!in_packets && have == 0)
    fault_set (fault, STROBE_WIRE_FAULT_TRUNCATED, STROBE_WIRE_RULE_EMPTY, 0, 0, 0, 0);
  else
    fault_set (fault, STROBE_WIRE_FAULT_TRUNCATED,
               in_packets ? STROBE_WIRE_RULE_CUT_IN_PACKET : STROBE_WIRE_RULE_CUT_IN_HANDSHAKE,
               in_packets ? unit_offset : 0, 0, have, need);
}

/* Lets the compiler check each translated format against its arguments. */
__attribute__ ((format_arg (2)))
static const char *
tr (StrobeWireTranslateFunc translate, const char *msgid)
{
  return translate != NULL ? translate (msgid) : msgid;
}

/* The detail of a corrupt packet, after "corrupt packet at offset … (thread …): ". */
static int
describe_packet_detail (const StrobeWireFault *f, StrobeWireTranslateFunc t, char *buf, size_t size)
{
  switch (f->rule)
    {
    case STROBE_WIRE_RULE_PACKET_SIZE:
      return snprintf (buf, size, tr (t, STROBE_N_("packet size %u is out of range")),
                       (unsigned) f->values[0]);
    case STROBE_WIRE_RULE_THREAD_ZERO:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("thread id 0 is invalid")));
    case STROBE_WIRE_RULE_RAW_SIZE_LIMIT:
      return snprintf (buf, size, tr (t, STROBE_N_("decoded size %u is over the limit")),
                       (unsigned) f->values[0]);
    case STROBE_WIRE_RULE_RAW_SIZE_MISMATCH:
      return snprintf (buf, size, tr (t, STROBE_N_("raw packet of %u bytes claims a decoded size of %u")),
                       (unsigned) f->values[0], (unsigned) f->values[1]);
    case STROBE_WIRE_RULE_CONTROL_LZ4:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("control packets are never LZ4-compressed")));
    case STROBE_WIRE_RULE_CONTROL_ZSTD:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("control packets are never zstd-compressed")));
    case STROBE_WIRE_RULE_TWO_CODECS:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("a packet is flagged both LZ4 and ZSTD")));
    case STROBE_WIRE_RULE_CONTROL_EMPTY:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("empty control packet")));
    case STROBE_WIRE_RULE_SYNC_SHORT:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("short Sync packet")));
    default:
      return snprintf (buf, size, "?");
    }
}

int
strobe_wire_fault_describe (const StrobeWireFault   *f,
                            StrobeWireTranslateFunc  t,
                            char                    *buf,
                            size_t                   size)
{
  static const char *const streams[] = { "transport", "protocol" };

  if (f == NULL || buf == NULL || size == 0)
    {
      errno = EINVAL;
      return -1;
    }
  switch (f->rule)
    {
    case STROBE_WIRE_RULE_MAGIC:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("not a Strobe trace (wrong magic at offset 0)")));
    case STROBE_WIRE_RULE_VERSION_ZERO:
      return snprintf (buf, size, tr (t, STROBE_N_("unknown %s version 0 at offset %u")),
                       streams[f->values[0] & 1], (unsigned) f->offset);
    case STROBE_WIRE_RULE_VERSION_NEWER:
      return snprintf (buf, size, tr (t, STROBE_N_("written by a newer Strobe: %s version %u at offset %u "
                                                   "(this reader knows version 1)")),
                       streams[f->values[0] & 1], (unsigned) f->values[1], (unsigned) f->offset);
    case STROBE_WIRE_RULE_EMPTY:
      return snprintf (buf, size, "%s", tr (t, STROBE_N_("the stream is empty: it ends at offset 0 "
                                                         "(no data was recorded)")));
    case STROBE_WIRE_RULE_CUT_IN_HANDSHAKE:
      return snprintf (buf, size, tr (t, STROBE_N_("stream cut off at offset %zu inside the handshake "
                                                   "(%zu of %zu bytes)")),
                       (size_t) f->values[0], (size_t) f->values[0], (size_t) f->values[1]);
    case STROBE_WIRE_RULE_CUT_IN_PACKET:
      return snprintf (buf, size, tr (t, STROBE_N_("stream cut off at offset %" PRIu64 " inside the packet "
                                                   "at offset %" PRIu64 " (%zu of %zu bytes)")),
                       f->offset + f->values[0], f->offset, (size_t) f->values[0],
                       (size_t) f->values[1]);
    case STROBE_WIRE_RULE_METADATA:
      return snprintf (buf, size, tr (t, STROBE_N_("corrupt metadata at offset %u")),
                       (unsigned) f->offset);
    case STROBE_WIRE_RULE_REQUIRED_FEATURES:
      return snprintf (buf, size, tr (t, STROBE_N_("the metadata at offset %u names unknown required "
                                                   "features 0x%08x")),
                       (unsigned) f->offset, (unsigned) f->values[0]);
    case STROBE_WIRE_RULE_PACKET_FLAGS:
      return snprintf (buf, size, tr (t, STROBE_N_("packet at offset %" PRIu64 " uses unknown required "
                                                   "flags 0x%04x")),
                       f->offset, (unsigned) f->values[0]);
    case STROBE_WIRE_RULE_PACKET_SIZE:
    case STROBE_WIRE_RULE_THREAD_ZERO:
    case STROBE_WIRE_RULE_RAW_SIZE_LIMIT:
    case STROBE_WIRE_RULE_RAW_SIZE_MISMATCH:
    case STROBE_WIRE_RULE_CONTROL_LZ4:
    case STROBE_WIRE_RULE_CONTROL_ZSTD:
    case STROBE_WIRE_RULE_TWO_CODECS:
    case STROBE_WIRE_RULE_CONTROL_EMPTY:
    case STROBE_WIRE_RULE_SYNC_SHORT:
      {
        char detail[160];

        describe_packet_detail (f, t, detail, sizeof detail);
        return snprintf (buf, size, tr (t, STROBE_N_("corrupt packet at offset %" PRIu64 " (thread %u): %s")),
                         f->offset, (unsigned) f->thread_id, detail);
      }
    case STROBE_WIRE_RULE_NONE:
    default:
      return snprintf (buf, size, "%s", "");
    }
}
