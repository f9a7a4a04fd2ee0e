/* strobe-packet-tracker.h — follows packet boundaries in a byte stream that arrives in
 * arbitrary chunks, without buffering or decoding payloads.
 *
 * The recorder copies bytes unchanged; this is all it needs to understand of them: where
 * each packet starts (so a corrupt stream is cut back to its last whole packet) and
 * whether the writer sent End (PROTOCOL.md §6), which makes the trace "finished". The
 * recorder stores nothing after End, as no reader reads past it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-wire-framing.h"

G_BEGIN_DECLS

typedef struct
{
  guint8   header[sizeof (StrobeWirePacketHeader)];
  guint    have;            /* header bytes collected for the current packet */
  guint32  remaining;       /* payload bytes of the current packet still to come */
  guint32  payload_size;
  guint16  thread_id;
  guint16  flags;
  gboolean header_ok;       /* the header passes strobe_wire_read_packet_header() */
  gboolean is_end;          /* the current packet is a control packet of kind End */
  guint64  packet_start;    /* stream offset of the current packet's first byte */
  guint64  offset;          /* stream offset of the next byte */
} StrobePacketTracker;

typedef enum
{
  STROBE_PACKET_TRACKER_MORE,   /* every byte consumed; send more */
  STROBE_PACKET_TRACKER_END,    /* an End packet completed: nothing after it belongs */
  STROBE_PACKET_TRACKER_BAD,    /* a packet header is invalid: the stream is corrupt */
} StrobePacketTrackerResult;

/* @offset is the stream offset of the first packet (just after the handshake). */
void                      strobe_packet_tracker_init (StrobePacketTracker  *self,
                                                      guint64               offset);
/* Scans @len bytes. @consumed receives how many belong to the stream: all of them for
 * MORE, up to the end of the End packet for END, up to the bad header for BAD (see
 * packet_start for where the bad packet began). */
StrobePacketTrackerResult strobe_packet_tracker_feed (StrobePacketTracker  *self,
                                                      const guint8         *data,
                                                      gsize                 len,
                                                      gsize                *consumed);

G_END_DECLS
