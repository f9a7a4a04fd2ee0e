/* strobe-packet-tracker.c — follows packet boundaries in a chunked byte stream.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-packet-tracker.h"

void
strobe_packet_tracker_init (StrobePacketTracker *self,
                            guint64              offset)
{
  memset (self, 0, sizeof *self);
  self->offset = offset;
  self->packet_start = offset;
}

StrobePacketTrackerResult
strobe_packet_tracker_feed (StrobePacketTracker *self,
                            const guint8        *data,
                            gsize                len,
                            gsize               *consumed)
{
  const gsize header_size = sizeof (StrobeWirePacketHeader);
  gsize i = 0;

  while (i < len)
    {
      if (self->have < header_size)
        {
          gsize take = MIN (header_size - self->have, len - i);
          StrobeWirePacketHeader header;
          StrobeWireFault fault;

          memcpy (self->header + self->have, data + i, take);
          self->have += (guint) take;
          i += take;
          self->offset += take;
          if (self->have < header_size)
            break;

          /* A bad size leaves no way to find the next packet; other faults are the
           * decoder's to report, but such a packet is never End. */
          self->header_ok = strobe_wire_read_packet_header (self->header, header_size,
                                                            self->packet_start, &header,
                                                            NULL, &fault);
          if (!self->header_ok && fault.rule == STROBE_WIRE_RULE_PACKET_SIZE)
            {
              /* Nothing of this header is kept: hand back only what came before it. */
              gsize before = i - MIN (i, (gsize) (self->offset - self->packet_start));
              *consumed = before;
              return STROBE_PACKET_TRACKER_BAD;
            }
          strobe_wire_packet_header_fields (self->header, &header);
          self->thread_id = header.thread_id;
          self->flags = header.flags;
          self->payload_size = header.size - (guint32) header_size;
          self->remaining = self->payload_size;
          self->is_end = FALSE;
        }
      else
        {
          gsize take = MIN ((gsize) self->remaining, len - i);
          /* The kind is the first payload byte; remember it until the packet completes
           * (an End with more bytes after the kind still ends at its packet end). Only a
           * header the decoder accepts makes an End, so both agree on where it is. */
          if (self->remaining == self->payload_size && self->header_ok)
            {
              StrobeWirePacketHeader header;

              strobe_wire_packet_header_fields (self->header, &header);
              self->is_end = strobe_wire_packet_is_end (&header, data + i, take);
            }
          i += take;
          self->offset += take;
          self->remaining -= (guint32) take;
        }

      if (self->have == header_size && self->remaining == 0)
        {
          gboolean ended = self->is_end;
          self->have = 0;
          self->packet_start = self->offset;
          if (ended)
            {
              *consumed = i;
              return STROBE_PACKET_TRACKER_END;
            }
        }
    }

  *consumed = i;
  return STROBE_PACKET_TRACKER_MORE;
}
