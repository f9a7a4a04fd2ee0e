/* test-stream-builder.h — hand-made Strobe streams for the analysis tests, written with
 * the shared wire writers of core/protocol.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-wire.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  guint8      type;   /* StrobeWireType */
  guint16     size;   /* 0: the natural size (element size for arrays) */
} TsbField;

typedef enum
{
  TSB_AUTO,   /* as a writer does: LZ4 when it gains */
  TSB_RAW,
  TSB_LZ4,    /* always LZ4, even tiny payloads */
} TsbMode;

typedef struct _Tsb Tsb;

/* Uids of the $Trace events tsb_define_system() defines. */
enum
{
  TSB_UID_THREAD_INFO = 16,
  TSB_UID_THREAD_END,
  TSB_UID_CHANNEL_ANNOUNCE,
  TSB_UID_CHANNEL_TOGGLE,
  TSB_UID_STATS,
  TSB_UID_USER,   /* first free uid for tests */
};

Tsb          *tsb_new            (void);
void          tsb_free           (Tsb *b);
void          tsb_handshake      (Tsb *b);
void          tsb_handshake_meta (Tsb *b, const StrobeWireMetadata *meta);
/* Appends a schema record to the importants pending payload. HAS_AUX is added when a
 * field is an aux field; scalar offsets are packed in order. */
void          tsb_define         (Tsb *b, guint16 uid, const char *logger, const char *event,
                                  guint8 flags, guint n_fields, const TsbField *fields);
void          tsb_define_system  (Tsb *b);
/* Starts an event in @tid's pending payload (tid 1: an important record). @serial is
 * ignored for NoSync and Important types. */
void          tsb_begin          (Tsb *b, guint16 tid, guint16 uid, guint32 serial);
void          tsb_set_int        (Tsb *b, guint field, guint64 value);
void          tsb_set_f32        (Tsb *b, guint field, gfloat value);
void          tsb_set_f64        (Tsb *b, guint field, gdouble value);
void          tsb_aux            (Tsb *b, guint field, gconstpointer data, gsize len);
void          tsb_aux_str        (Tsb *b, guint field, const char *s);
void          tsb_end            (Tsb *b);
/* An event whose fields are all integers set from @values in order. */
void          tsb_event          (Tsb *b, guint16 tid, guint16 uid, guint32 serial,
                                  guint n_values, const guint64 *values);
void          tsb_thread_info    (Tsb *b, guint16 tid, guint64 system_id, gint32 sort_hint,
                                  const char *name, const char *group);
/* Bytes straight into @tid's pending payload (sized records, garbage). */
void          tsb_pending_raw    (Tsb *b, guint16 tid, gconstpointer data, gsize len);
/* Emits @tid's pending payload as one packet; nothing when it is empty. */
void          tsb_flush          (Tsb *b, guint16 tid, TsbMode mode);
/* Importants first, then every thread in id order. */
void          tsb_flush_all      (Tsb *b, TsbMode mode);
void          tsb_packet         (Tsb *b, guint16 tid, guint16 flags, gconstpointer payload,
                                  gsize len);
void          tsb_sync           (Tsb *b, guint32 next_serial);
void          tsb_end_stream     (Tsb *b);
void          tsb_append         (Tsb *b, gconstpointer data, gsize len);
gsize         tsb_offset         (Tsb *b);
const guint8 *tsb_data           (Tsb *b, gsize *len);
GBytes       *tsb_bytes          (Tsb *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Tsb, tsb_free)

G_END_DECLS
