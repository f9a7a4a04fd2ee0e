/* strobe-decoder.h — turns a Strobe byte stream into events for analyzers.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-analyzer.h"

G_BEGIN_DECLS

#define STROBE_DECODER_ERROR (strobe_decoder_error_quark ())

typedef enum
{
  STROBE_DECODER_ERROR_NOT_STROBE,   /* wrong magic */
  STROBE_DECODER_ERROR_VERSION,      /* written by a newer (or unknown) Strobe */
  STROBE_DECODER_ERROR_CORRUPT,      /* inconsistent data; the message names the offset */
  STROBE_DECODER_ERROR_TRUNCATED,    /* the input ended inside the handshake or a packet */
  STROBE_DECODER_ERROR_UNSUPPORTED,  /* a required feature this reader does not know */
  STROBE_DECODER_ERROR_FINISHED,     /* fed after finish() */
} StrobeDecoderError;

GQuark strobe_decoder_error_quark (void);

/* Counters of one run, for `strobe-cli info` and benchmarks. */
typedef struct
{
  guint64 packets;            /* every packet read, skipped ones included */
  guint64 packets_lz4;
  guint64 packets_skipped;    /* reserved thread ids, unknown control kinds */
  guint64 payload_bytes;      /* payload bytes as they are on the wire */
  guint64 raw_bytes;          /* payload bytes once decoded */
  guint64 lz4_bytes;          /* wire bytes of the LZ4 payloads */
  guint64 events;             /* events decoded, subscribed or not, importants included */
  guint64 important_events;
  guint64 records_skipped;    /* sized records and important records of unknown uids */
  guint64 gaps;               /* serials skipped for good */
  guint64 late_events;        /* synchronised events that came after their serial was skipped */
  guint64 peak_pending_bytes; /* most payload bytes held for reordering */
  guint64 bytes_after_end;    /* input after the End packet, ignored (PROTOCOL.md §6) */
  guint64 packets_zstd;
  guint64 zstd_bytes;         /* wire bytes of the ZSTD payloads */
} StrobeDecoderStats;

#define STROBE_DECODER_DEFAULT_MAX_PENDING (64u * 1024u * 1024u)

#define STROBE_TYPE_DECODER (strobe_decoder_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDecoder, strobe_decoder, STROBE, DECODER, GObject)

StrobeDecoder            *strobe_decoder_new               (void);
void                      strobe_decoder_add_analyzer      (StrobeDecoder  *self,
                                                            StrobeAnalyzer *analyzer);
void                      strobe_decoder_set_max_pending   (StrobeDecoder  *self,
                                                            gsize           max_bytes);

gboolean                  strobe_decoder_feed              (StrobeDecoder  *self,
                                                            const guint8   *data,
                                                            gsize           len,
                                                            GError        **error);
gboolean                  strobe_decoder_finish            (StrobeDecoder  *self,
                                                            GError        **error);
gboolean                  strobe_decoder_read_file         (StrobeDecoder  *self,
                                                            const char     *path,
                                                            GCancellable   *cancellable,
                                                            GError        **error);
gboolean                  strobe_decoder_read_stream       (StrobeDecoder  *self,
                                                            GInputStream   *stream,
                                                            GCancellable   *cancellable,
                                                            GError        **error);

/* Called on the reading thread after each chunk: bytes fed so far, and the size of the
 * input (0 when unknown, e.g. a trace that is still growing). */
typedef void (*StrobeDecoderProgressFunc) (guint64  done,
                                           guint64  total,
                                           gpointer user_data);

gboolean                  strobe_decoder_read_file_full    (StrobeDecoder              *self,
                                                            const char                 *path,
                                                            GCancellable               *cancellable,
                                                            StrobeDecoderProgressFunc   progress,
                                                            gpointer                    user_data,
                                                            GError                    **error);
gboolean                  strobe_decoder_read_stream_full  (StrobeDecoder              *self,
                                                            GInputStream               *stream,
                                                            guint64                     total,
                                                            GCancellable               *cancellable,
                                                            StrobeDecoderProgressFunc   progress,
                                                            gpointer                    user_data,
                                                            GError                    **error);

const StrobeWireMetadata *strobe_decoder_get_metadata      (StrobeDecoder  *self);
guint64                   strobe_decoder_get_offset        (StrobeDecoder  *self);
/* The stream is @path from its first byte (set before the first feed; read_file does):
 * analyzers may then leave event bytes in the file and read them again later
 * (strobe_event_get_origin). NULL: no file. */
void                      strobe_decoder_set_source_file   (StrobeDecoder  *self,
                                                            const char     *path);
gboolean                  strobe_decoder_get_ended_cleanly (StrobeDecoder  *self);
/* The stream offset an error of STROBE_DECODER_ERROR names (PROTOCOL.md §7); it travels
 * with the error and its copies. 0 for other errors. */
guint64                   strobe_decoder_error_get_offset  (const GError   *error);
/* The last line of `strobe-cli dump --status` (PROTOCOL.md §10) for a run that ended with
 * @error (NULL: none) after reading End or not: "# end", "# no-end" or
 * "# error CLASS OFFSET". */
char                     *strobe_decoder_format_status     (gboolean        ended_cleanly,
                                                            const GError   *error);
void                      strobe_decoder_get_stats         (StrobeDecoder      *self,
                                                            StrobeDecoderStats *stats);
const StrobeEventType    *strobe_decoder_get_event_type    (StrobeDecoder  *self,
                                                            guint16         uid);

G_END_DECLS
