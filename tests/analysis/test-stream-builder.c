/* test-stream-builder.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "test-stream-builder.h"

#include <lz4.h>

typedef struct
{
  gboolean   defined;
  guint8     flags;
  guint16    payload_size;
  guint      n_fields;
  guint8     types[STROBE_WIRE_MAX_FIELDS];
  guint16    offsets[STROBE_WIRE_MAX_FIELDS];
  guint16    sizes[STROBE_WIRE_MAX_FIELDS];
} Schema;

struct _Tsb
{
  StrobeWireBuf  out;
  StrobeWireBuf  scratch;
  GByteArray    *pending[65536];
  Schema        *schemas;          /* by uid */
  /* The event being built */
  guint16        cur_tid;
  guint16        cur_uid;
  gsize          cur_start;        /* record start in pending */
  gsize          cur_payload;      /* payload start in pending */
};

Tsb *
tsb_new (void)
{
  Tsb *b = g_new0 (Tsb, 1);

  b->schemas = g_new0 (Schema, 65536);
  return b;
}

void
tsb_free (Tsb *b)
{
  for (guint i = 0; i < 65536; i++)
    if (b->pending[i])
      g_byte_array_unref (b->pending[i]);
  strobe_wire_buf_clear (&b->out);
  strobe_wire_buf_clear (&b->scratch);
  g_free (b->schemas);
  g_free (b);
}

static GByteArray *
pending (Tsb *b, guint16 tid)
{
  if (b->pending[tid] == NULL)
    b->pending[tid] = g_byte_array_new ();
  return b->pending[tid];
}

void
tsb_handshake_meta (Tsb *b, const StrobeWireMetadata *meta)
{
  g_assert_true (strobe_wire_write_handshake (&b->out, meta));
}

void
tsb_handshake (Tsb *b)
{
  static const char cmdline[] = "demo\0--fast\0input file.txt";
  StrobeWireMetadata meta = { 0 };

  meta.program_name = "demo";
  meta.program_name_len = 4;
  meta.process_id = 4242;
  meta.start_time_ns = G_GUINT64_CONSTANT (1700000000000000000);
  meta.clock_frequency = 1000000000;
  meta.clock_origin = 1000;
  meta.pointer_size = 8;
  meta.command_line = cmdline;
  meta.command_line_len = sizeof cmdline - 1;
  meta.clock_source = STROBE_CLOCK_SOURCE_MONOTONIC;
  tsb_handshake_meta (b, &meta);
}

void
tsb_define (Tsb *b, guint16 uid, const char *logger, const char *event,
            guint8 flags, guint n_fields, const TsbField *fields)
{
  g_autofree StrobeWireSchema *s = g_new0 (StrobeWireSchema, 1);
  Schema *sc = &b->schemas[uid];
  StrobeWireBuf rec = { 0 };
  guint16 offset = 0;

  s->uid = uid;
  s->logger = logger;
  s->logger_size = (guint8) strlen (logger);
  s->event = event;
  s->event_size = (guint8) strlen (event);
  s->field_count = (guint8) n_fields;
  for (guint i = 0; i < n_fields; i++)
    {
      StrobeWireField *f = &s->fields[i];
      guint8 t = fields[i].type;

      f->name = fields[i].name;
      f->name_size = (guint8) strlen (fields[i].name);
      f->type = t;
      if (strobe_wire_type_is_aux (t))
        {
          flags |= STROBE_EVENT_FLAG_HAS_AUX;
          f->offset = 0;
          f->size = fields[i].size ? fields[i].size
                    : ((t & 0xc0) == STROBE_TYPE_ARRAY ? (guint16) strobe_wire_scalar_size (t & 0x3f) : 0);
        }
      else
        {
          f->offset = offset;
          f->size = fields[i].size ? fields[i].size : (guint16) strobe_wire_scalar_size (t);
          offset += f->size;
        }
      sc->types[i] = t;
      sc->offsets[i] = f->offset;
      sc->sizes[i] = f->size;
    }
  s->payload_size = offset;
  s->flags = flags;
  sc->defined = TRUE;
  sc->flags = flags;
  sc->payload_size = offset;
  sc->n_fields = n_fields;

  g_assert_true (strobe_wire_write_new_event (&rec, s));
  g_byte_array_append (pending (b, STROBE_TID_IMPORTANTS), rec.data, rec.len);
  strobe_wire_buf_clear (&rec);
}

void
tsb_define_system (Tsb *b)
{
  static const TsbField thread_info[] = {
    { "ThreadId", STROBE_TYPE_UINT16 }, { "SystemId", STROBE_TYPE_UINT64 },
    { "SortHint", STROBE_TYPE_INT32 }, { "Name", STROBE_TYPE_ANSI }, { "Group", STROBE_TYPE_ANSI },
  };
  static const TsbField thread_end[] = {
    { "ThreadId", STROBE_TYPE_UINT16 }, { "Timestamp", STROBE_TYPE_UINT64 },
  };
  static const TsbField channel_announce[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "Enabled", STROBE_TYPE_BOOL }, { "Name", STROBE_TYPE_ANSI },
  };
  static const TsbField channel_toggle[] = {
    { "Id", STROBE_TYPE_UINT32 }, { "Enabled", STROBE_TYPE_BOOL }, { "Timestamp", STROBE_TYPE_UINT64 },
  };
  static const TsbField stats[] = {
    { "Timestamp", STROBE_TYPE_UINT64 }, { "BytesEmitted", STROBE_TYPE_UINT64 },
    { "BytesSent", STROBE_TYPE_UINT64 }, { "EventsEmitted", STROBE_TYPE_UINT64 },
    { "EventsDropped", STROBE_TYPE_UINT64 }, { "BufferMemory", STROBE_TYPE_UINT64 },
  };

  tsb_define (b, TSB_UID_THREAD_INFO, "$Trace", "ThreadInfo", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (thread_info), thread_info);
  tsb_define (b, TSB_UID_THREAD_END, "$Trace", "ThreadEnd", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (thread_end), thread_end);
  tsb_define (b, TSB_UID_CHANNEL_ANNOUNCE, "$Trace", "ChannelAnnounce", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (channel_announce), channel_announce);
  tsb_define (b, TSB_UID_CHANNEL_TOGGLE, "$Trace", "ChannelToggle", STROBE_EVENT_FLAG_IMPORTANT,
              G_N_ELEMENTS (channel_toggle), channel_toggle);
  tsb_define (b, TSB_UID_STATS, "$Trace", "Stats", STROBE_EVENT_FLAG_NOSYNC,
              G_N_ELEMENTS (stats), stats);
}

void
tsb_begin (Tsb *b, guint16 tid, guint16 uid, guint32 serial)
{
  Schema *sc = &b->schemas[uid];
  GByteArray *p = pending (b, tid);
  guint8 head[6];
  gsize head_len;

  g_assert_true (sc->defined);
  b->cur_tid = tid;
  b->cur_uid = uid;
  b->cur_start = p->len;
  strobe_wire_put_u16 (head, uid);
  if (tid == STROBE_TID_IMPORTANTS)
    {
      strobe_wire_put_u32 (head + 2, 0);   /* patched by tsb_end() */
      head_len = 6;
    }
  else if (sc->flags & STROBE_EVENT_FLAG_NOSYNC)
    head_len = 2;
  else
    {
      strobe_wire_put_u24 (head + 2, serial & STROBE_WIRE_SERIAL_MASK);
      head_len = 5;
    }
  g_byte_array_append (p, head, (guint) head_len);
  b->cur_payload = p->len;
  g_byte_array_set_size (p, p->len + sc->payload_size);
  memset (p->data + b->cur_payload, 0, sc->payload_size);
}

void
tsb_set_int (Tsb *b, guint field, guint64 value)
{
  Schema *sc = &b->schemas[b->cur_uid];
  GByteArray *p = pending (b, b->cur_tid);

  g_assert_cmpuint (field, <, sc->n_fields);
  memcpy (p->data + b->cur_payload + sc->offsets[field], &value, MIN (sc->sizes[field], 8));
}

void
tsb_set_f32 (Tsb *b, guint field, gfloat value)
{
  Schema *sc = &b->schemas[b->cur_uid];
  GByteArray *p = pending (b, b->cur_tid);

  memcpy (p->data + b->cur_payload + sc->offsets[field], &value, 4);
}

void
tsb_set_f64 (Tsb *b, guint field, gdouble value)
{
  Schema *sc = &b->schemas[b->cur_uid];
  GByteArray *p = pending (b, b->cur_tid);

  memcpy (p->data + b->cur_payload + sc->offsets[field], &value, 8);
}

void
tsb_aux (Tsb *b, guint field, gconstpointer data, gsize len)
{
  GByteArray *p = pending (b, b->cur_tid);
  StrobeWireAuxHeader h = { STROBE_UID_AUX_DATA, (guint8) field, 0, (guint32) len };

  g_byte_array_append (p, (const guint8 *) &h, sizeof h);
  if (len)
    g_byte_array_append (p, data, (guint) len);
}

void
tsb_aux_str (Tsb *b, guint field, const char *s)
{
  tsb_aux (b, field, s, strlen (s));
}

void
tsb_end (Tsb *b)
{
  Schema *sc = &b->schemas[b->cur_uid];
  GByteArray *p = pending (b, b->cur_tid);

  if (sc->flags & STROBE_EVENT_FLAG_HAS_AUX)
    {
      guint8 end[2];
      strobe_wire_put_u16 (end, STROBE_UID_AUX_END);
      g_byte_array_append (p, end, 2);
    }
  if (b->cur_tid == STROBE_TID_IMPORTANTS)
    strobe_wire_put_u32 (p->data + b->cur_start + 2, (guint32) (p->len - b->cur_start - 6));
}

void
tsb_event (Tsb *b, guint16 tid, guint16 uid, guint32 serial, guint n_values, const guint64 *values)
{
  tsb_begin (b, tid, uid, serial);
  for (guint i = 0; i < n_values; i++)
    tsb_set_int (b, i, values[i]);
  tsb_end (b);
}

void
tsb_thread_info (Tsb *b, guint16 tid, guint64 system_id, gint32 sort_hint,
                 const char *name, const char *group)
{
  tsb_begin (b, STROBE_TID_IMPORTANTS, TSB_UID_THREAD_INFO, 0);
  tsb_set_int (b, 0, tid);
  tsb_set_int (b, 1, system_id);
  tsb_set_int (b, 2, (guint64) (gint64) sort_hint);
  if (name)
    tsb_aux_str (b, 3, name);
  if (group)
    tsb_aux_str (b, 4, group);
  tsb_end (b);
}

void
tsb_pending_raw (Tsb *b, guint16 tid, gconstpointer data, gsize len)
{
  g_byte_array_append (pending (b, tid), data, (guint) len);
}

void
tsb_packet (Tsb *b, guint16 tid, guint16 flags, gconstpointer payload, gsize len)
{
  StrobeWirePacketHeader h;

  h.size = (guint32) (sizeof h + len);
  h.thread_id = tid;
  h.flags = flags;
  h.raw_size = (guint32) len;
  tsb_append (b, &h, sizeof h);
  tsb_append (b, payload, len);
}

void
tsb_flush (Tsb *b, guint16 tid, TsbMode mode)
{
  GByteArray *p = b->pending[tid];

  if (p == NULL || p->len == 0)
    return;
  switch (mode)
    {
    case TSB_AUTO:
      g_assert_true (strobe_wire_write_packet (&b->out, &b->scratch, tid, p->data, p->len));
      break;
    case TSB_RAW:
      tsb_packet (b, tid, 0, p->data, p->len);
      break;
    case TSB_LZ4:
      {
        int bound = LZ4_compressBound ((int) p->len);
        g_autofree char *z = g_malloc (bound);
        int n = LZ4_compress_default ((const char *) p->data, z, (int) p->len, bound);
        StrobeWirePacketHeader h;

        g_assert_cmpint (n, >, 0);
        h.size = (guint32) (sizeof h + (gsize) n);
        h.thread_id = tid;
        h.flags = STROBE_PACKET_FLAG_LZ4;
        h.raw_size = p->len;
        tsb_append (b, &h, sizeof h);
        tsb_append (b, z, (gsize) n);
      }
      break;
    default:
      g_assert_not_reached ();
    }
  g_byte_array_set_size (p, 0);
}

void
tsb_flush_all (Tsb *b, TsbMode mode)
{
  for (guint tid = 1; tid < 65536; tid++)
    tsb_flush (b, (guint16) tid, mode);
}

void
tsb_sync (Tsb *b, guint32 next_serial)
{
  guint8 body[4];

  strobe_wire_put_u32 (body, next_serial);
  g_assert_true (strobe_wire_write_control (&b->out, STROBE_CONTROL_SYNC, body, 4));
}

void
tsb_end_stream (Tsb *b)
{
  g_assert_true (strobe_wire_write_control (&b->out, STROBE_CONTROL_END, NULL, 0));
}

void
tsb_append (Tsb *b, gconstpointer data, gsize len)
{
  g_assert_true (strobe_wire_buf_append (&b->out, data, len));
}

gsize
tsb_offset (Tsb *b)
{
  return b->out.len;
}

const guint8 *
tsb_data (Tsb *b, gsize *len)
{
  *len = b->out.len;
  return b->out.data;
}

GBytes *
tsb_bytes (Tsb *b)
{
  return g_bytes_new (b->out.data, b->out.len);
}
