/* strobe-raw.c — see strobe-raw.h. Strict: any malformation fails the load, since a test
 * wants to know the runtime wrote exactly what PROTOCOL.md says. */
#include "strobe-raw.h"

#include <lz4.h>
#include <string.h>

static gboolean
fail (GError **error, const char *what, size_t offset)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s at offset %zu", what, offset);
  return FALSE;
}

static const StrobeWireSchema *
schema_of (RawTrace *t, uint16_t uid)
{
  return g_hash_table_lookup (t->schemas, GUINT_TO_POINTER (uid));
}

/* Parses aux records after a payload; returns bytes used or 0 on error. */
static size_t
parse_aux (const StrobeWireSchema *s, const uint8_t *p, size_t len, GPtrArray *aux)
{
  size_t pos = 0;

  g_ptr_array_set_size (aux, s->field_count);
  for (;;)
    {
      uint16_t uid;
      if (len - pos < 2)
        return 0;
      uid = strobe_wire_get_u16 (p + pos);
      if (uid == STROBE_UID_AUX_END)
        return pos + 2;
      if (uid != STROBE_UID_AUX_DATA || len - pos < 8)
        return 0;
      {
        uint8_t index = p[pos + 2];
        uint32_t size = strobe_wire_get_u32 (p + pos + 4);
        if (index >= s->field_count || !strobe_wire_type_is_aux (s->fields[index].type)
            || len - pos - 8 < size)
          return 0;
        if (aux->pdata[index])
          g_bytes_unref (aux->pdata[index]);
        aux->pdata[index] = g_bytes_new (p + pos + 8, size);
        pos += 8 + size;
      }
    }
}

static gboolean
parse_importants (RawTrace *t, const uint8_t *p, size_t len, GError **error)
{
  size_t pos = 0;

  while (pos < len)
    {
      uint16_t uid;
      uint32_t size;
      RawEvent ev = { 0 };

      if (len - pos < 6)
        return fail (error, "truncated important header", pos);
      uid = strobe_wire_get_u16 (p + pos);
      size = strobe_wire_get_u32 (p + pos + 2);
      if (len - pos - 6 < size)
        return fail (error, "important record overflows packet", pos);
      if (uid == STROBE_UID_NEW_EVENT)
        {
          StrobeWireSchema *s = g_new0 (StrobeWireSchema, 1);
          if (!strobe_wire_parse_new_event (p + pos + 6, size, s, NULL))
            return fail (error, "bad NewEvent", pos);
          if (g_hash_table_contains (t->schemas, GUINT_TO_POINTER (s->uid)))
            return fail (error, "uid defined twice", pos);
          g_hash_table_insert (t->schemas, GUINT_TO_POINTER (s->uid), s);
        }
      else
        {
          const StrobeWireSchema *s = schema_of (t, uid);
          if (s == NULL || !(s->flags & STROBE_EVENT_FLAG_IMPORTANT))
            return fail (error, "important event of unknown or non-important uid", pos);
          ev.uid = uid;
          ev.thread_id = STROBE_TID_IMPORTANTS;
          ev.serial = G_MAXUINT32;
          ev.payload = p + pos + 6;
          ev.payload_size = s->payload_size;
          ev.aux = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
          if (size < s->payload_size)
            return fail (error, "important body shorter than payload", pos);
          if (s->flags & STROBE_EVENT_FLAG_HAS_AUX)
            {
              size_t used = parse_aux (s, p + pos + 6 + s->payload_size, size - s->payload_size, ev.aux);
              if (used == 0 || used != size - s->payload_size)
                return fail (error, "bad aux in important", pos);
            }
          else if (size != s->payload_size)
            return fail (error, "important size mismatch", pos);
          g_array_append_val (t->events, ev);
        }
      pos += 6 + size;
    }
  return TRUE;
}

static gboolean
parse_thread (RawTrace *t, uint16_t tid, const uint8_t *p, size_t len, GError **error)
{
  size_t pos = 0;

  while (pos < len)
    {
      RawEvent ev = { 0 };
      const StrobeWireSchema *s;
      size_t header;

      ev.uid = strobe_wire_get_u16 (p + pos);
      s = schema_of (t, ev.uid);
      if (s == NULL || (s->flags & STROBE_EVENT_FLAG_IMPORTANT))
        return fail (error, "thread event of unknown uid (schema must come first)", pos);
      header = (s->flags & STROBE_EVENT_FLAG_NOSYNC) ? 2 : 5;
      if (len - pos < header + s->payload_size)
        return fail (error, "event split across packets", pos);
      ev.thread_id = tid;
      ev.serial = header == 5 ? strobe_wire_get_u24 (p + pos + 2) : G_MAXUINT32;
      ev.payload = p + pos + header;
      ev.payload_size = s->payload_size;
      ev.aux = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      pos += header + s->payload_size;
      if (s->flags & STROBE_EVENT_FLAG_HAS_AUX)
        {
          size_t used = parse_aux (s, p + pos, len - pos, ev.aux);
          if (used == 0)
            return fail (error, "bad or split aux", pos);
          pos += used;
        }
      g_array_append_val (t->events, ev);
    }
  return TRUE;
}

static void
clear_event (RawEvent *ev)
{
  g_clear_pointer (&ev->aux, g_ptr_array_unref);
}

RawTrace *
raw_trace_load (const char *path, GError **error)
{
  RawTrace *t = g_new0 (RawTrace, 1);
  gchar *data;
  gsize len, pos;
  const uint8_t *d;

  if (!g_file_get_contents (path, &data, &len, error))
    {
      g_free (t);
      return NULL;
    }
  t->file = g_bytes_new_take (data, len);
  t->schemas = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  t->events = g_array_new (FALSE, TRUE, sizeof (RawEvent));
  g_array_set_clear_func (t->events, (GDestroyNotify) clear_event);
  t->controls = g_array_new (FALSE, TRUE, 1);
  t->sync_serials = g_array_new (FALSE, TRUE, sizeof (guint32));
  t->buffers = g_ptr_array_new_with_free_func (g_free);
  t->threads = g_hash_table_new (NULL, NULL);
  d = (const uint8_t *) data;

  if (len < 8 || memcmp (d, STROBE_WIRE_MAGIC, 4) != 0 || d[4] != 1 || d[5] != 1)
    goto bad_handshake;
  pos = 8 + strobe_wire_get_u16 (d + 6);
  if (pos > len || !strobe_wire_parse_metadata (d + 8, pos - 8, &t->meta))
    goto bad_handshake;

  while (pos < len)
    {
      uint32_t size, raw_size;
      uint16_t tid, flags;
      uint8_t *payload;

      if (len - pos < 12)
        {
          fail (error, "truncated packet header", pos);
          goto error;
        }
      size = strobe_wire_get_u32 (d + pos);
      tid = strobe_wire_get_u16 (d + pos + 4);
      flags = strobe_wire_get_u16 (d + pos + 6);
      raw_size = strobe_wire_get_u32 (d + pos + 8);
      if (size < 12 || size > len - pos || raw_size > STROBE_WIRE_MAX_PAYLOAD || (flags & ~1u))
        {
          fail (error, "bad packet header", pos);
          goto error;
        }
      payload = g_malloc (raw_size + 1);
      g_ptr_array_add (t->buffers, payload);
      if (flags & STROBE_PACKET_FLAG_LZ4)
        {
          int n = LZ4_decompress_safe ((const char *) d + pos + 12, (char *) payload,
                                       (int) (size - 12), (int) raw_size);
          if (n != (int) raw_size || raw_size < STROBE_WIRE_COMPRESS_MIN)
            {
              fail (error, "bad LZ4 packet", pos);
              goto error;
            }
          t->lz4_packets++;
        }
      else if (raw_size != size - 12)
        {
          fail (error, "raw size mismatch", pos);
          goto error;
        }
      else
        memcpy (payload, d + pos + 12, raw_size);
      t->packets++;

      if (tid == STROBE_TID_CONTROL)
        {
          g_array_append_val (t->controls, payload[0]);
          if (payload[0] == STROBE_CONTROL_SYNC)
            {
              guint32 s = strobe_wire_get_u32 (payload + 1);
              g_array_append_val (t->sync_serials, s);
            }
        }
      else if (tid == STROBE_TID_IMPORTANTS)
        {
          if (!parse_importants (t, payload, raw_size, error))
            goto error;
        }
      else if (tid >= STROBE_TID_FIRST_USER)
        {
          g_hash_table_add (t->threads, GUINT_TO_POINTER (tid));
          /* Each packet holds whole events: parse it on its own. */
          if (!parse_thread (t, tid, payload, raw_size, error))
            goto error;
        }
      else
        {
          fail (error, "packet on a reserved thread id", pos);
          goto error;
        }
      pos += size;
    }
  return t;

bad_handshake:
  fail (error, "bad handshake", 0);
error:
  raw_trace_free (t);
  return NULL;
}

void
raw_trace_free (RawTrace *t)
{
  if (t == NULL)
    return;
  g_array_unref (t->events);
  g_array_unref (t->controls);
  g_array_unref (t->sync_serials);
  g_hash_table_unref (t->schemas);
  g_ptr_array_unref (t->buffers);
  g_hash_table_unref (t->threads);
  g_bytes_unref (t->file);
  g_free (t);
}

static gboolean
name_is (const char *s, size_t n, const char *want)
{
  return strlen (want) == n && memcmp (s, want, n) == 0;
}

const StrobeWireSchema *
raw_trace_find_schema (RawTrace *t, const char *logger, const char *event)
{
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, t->schemas);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      const StrobeWireSchema *s = v;
      if (name_is (s->logger, s->logger_size, logger) && name_is (s->event, s->event_size, event))
        return s;
    }
  return NULL;
}

GPtrArray *
raw_trace_events_named (RawTrace *t, const char *logger, const char *event)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < t->events->len; i++)
    {
      RawEvent *ev = &g_array_index (t->events, RawEvent, i);
      const StrobeWireSchema *s = schema_of (t, ev->uid);
      if (name_is (s->logger, s->logger_size, logger) && name_is (s->event, s->event_size, event))
        g_ptr_array_add (out, ev);
    }
  return out;
}

static int
field_index (const StrobeWireSchema *s, const char *name)
{
  for (int i = 0; i < s->field_count; i++)
    if (name_is (s->fields[i].name, s->fields[i].name_size, name))
      return i;
  return -1;
}

guint64
raw_event_uint (RawTrace *t, const RawEvent *ev, const char *name)
{
  const StrobeWireSchema *s = schema_of (t, ev->uid);
  int i = field_index (s, name);
  guint64 v = 0;

  if (i < 0 || strobe_wire_type_is_aux (s->fields[i].type) || s->fields[i].size > 8)
    return 0;
  memcpy (&v, ev->payload + s->fields[i].offset, s->fields[i].size);
  return v;
}

GBytes *
raw_event_aux (RawTrace *t, const RawEvent *ev, const char *name)
{
  const StrobeWireSchema *s = schema_of (t, ev->uid);
  int i = field_index (s, name);

  if (i < 0 || ev->aux == NULL || (guint) i >= ev->aux->len)
    return NULL;
  return ev->aux->pdata[i];
}
