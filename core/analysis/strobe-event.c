/* strobe-event.c — reading fields of decoded events.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-event.h"

#include <math.h>

gint
strobe_event_type_find_field (const StrobeEventType *type,
                              const char            *name)
{
  g_return_val_if_fail (type != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < type->n_fields; i++)
    if (strcmp (type->fields[i].name, name) == 0)
      return (gint) i;
  return -1;
}

static inline guint64
read_le (const guint8 *p, gsize size)
{
  guint64 v = 0;

  if (size > 8)
    size = 8;
  memcpy (&v, p, size);   /* little-endian host (checked in strobe-wire.h) */
  return v;
}

static gboolean
kind_is_signed (guint8 kind)
{
  return kind == STROBE_TYPE_INT8 || kind == STROBE_TYPE_INT16
         || kind == STROBE_TYPE_INT32 || kind == STROBE_TYPE_INT64;
}

static gboolean
kind_is_float (guint8 kind)
{
  return kind == STROBE_TYPE_FLOAT32 || kind == STROBE_TYPE_FLOAT64;
}

/* A float of the wrong size is opaque: reading it as a float would invent a value. */
static gdouble
read_float (guint8 kind, gsize size, const guint8 *p)
{
  if (kind == STROBE_TYPE_FLOAT32 && size == 4)
    {
      gfloat f;
      memcpy (&f, p, 4);
      return f;
    }
  if (kind == STROBE_TYPE_FLOAT64 && size == 8)
    {
      gdouble d;
      memcpy (&d, p, 8);
      return d;
    }
  return 0.0;
}

/* Casting an out-of-range double to an integer is undefined behaviour in C. */
static gint64
double_to_int (gdouble d)
{
  if (isnan (d))
    return 0;
  if (d >= 9223372036854775807.0)
    return G_MAXINT64;
  if (d <= -9223372036854775808.0)
    return G_MININT64;
  return (gint64) d;
}

static guint64
double_to_uint (gdouble d)
{
  if (isnan (d) || d <= 0.0)
    return 0;
  if (d >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) d;
}

gint64
strobe_scalar_read_int (guint8 kind, gsize size, const guint8 *p)
{
  guint64 v;

  if (kind_is_float (kind))
    return double_to_int (read_float (kind, size, p));
  if (size == 0)
    return 0;
  v = read_le (p, size);
  if (kind_is_signed (kind) && size < 8 && (v >> (size * 8 - 1)) & 1)
    v |= ~G_GUINT64_CONSTANT (0) << (size * 8);
  return (gint64) v;
}

guint64
strobe_scalar_read_uint (guint8 kind, gsize size, const guint8 *p)
{
  if (kind_is_float (kind))
    return double_to_uint (read_float (kind, size, p));
  return (guint64) strobe_scalar_read_int (kind, size, p);
}

gdouble
strobe_scalar_read_double (guint8 kind, gsize size, const guint8 *p)
{
  if (kind_is_float (kind))
    return read_float (kind, size, p);
  if (kind_is_signed (kind))
    return (gdouble) strobe_scalar_read_int (kind, size, p);
  return (gdouble) strobe_scalar_read_uint (kind, size, p);
}

static inline const StrobeEventField *
scalar_field (const StrobeEvent *ev, gint index)
{
  const StrobeEventField *f;

  if (index < 0 || (guint) index >= ev->type->n_fields)
    return NULL;
  f = &ev->type->fields[index];
  if (strobe_wire_type_is_aux (f->type))
    return NULL;
  return f;
}

gint64
strobe_event_get_int_at (const StrobeEvent *ev, gint index)
{
  const StrobeEventField *f = scalar_field (ev, index);

  return f ? strobe_scalar_read_int (f->type, f->size, ev->payload + f->offset) : 0;
}

guint64
strobe_event_get_uint_at (const StrobeEvent *ev, gint index)
{
  const StrobeEventField *f = scalar_field (ev, index);

  return f ? strobe_scalar_read_uint (f->type, f->size, ev->payload + f->offset) : 0;
}

gdouble
strobe_event_get_double_at (const StrobeEvent *ev, gint index)
{
  const StrobeEventField *f = scalar_field (ev, index);

  return f ? strobe_scalar_read_double (f->type, f->size, ev->payload + f->offset) : 0.0;
}

/* The decoder validated the aux records when it framed the event, so this walk only has
 * to find the ones for @index. A value split over several records is joined into memory
 * that lives until the event's delivery ends. */
gboolean
strobe_event_get_origin (const StrobeEvent *ev,
                         const guint8      *at,
                         const char       **file,
                         guint64           *packet_offset,
                         guint64           *payload_offset)
{
  const guint8 *end;

  g_return_val_if_fail (ev != NULL, FALSE);
  if (ev->_packet_data == NULL || ev->_source_file == NULL || at < ev->payload)
    return FALSE;
  end = ev->aux ? ev->aux + ev->aux_len : ev->payload + ev->type->payload_size;
  if (at > end || at < ev->_packet_data)
    return FALSE;
  if (file)
    *file = ev->_source_file;
  if (packet_offset)
    *packet_offset = ev->_packet_offset;
  if (payload_offset)
    *payload_offset = ev->_payload_base + (guint64) (at - ev->_packet_data);
  return TRUE;
}

const guint8 *
strobe_event_get_aux_at (const StrobeEvent *ev, gint index, gsize *size)
{
  const guint8 *found = NULL;
  gsize found_size = 0;
  guint n_found = 0;
  gsize pos;

  if (size)
    *size = 0;
  if (index < 0 || (guint) index >= ev->type->n_fields || ev->aux == NULL)
    return NULL;
  if (!strobe_wire_type_is_aux (ev->type->fields[index].type))
    return NULL;

  for (pos = 0; pos + sizeof (StrobeWireAuxHeader) <= ev->aux_len;)
    {
      const guint8 *rec = ev->aux + pos;
      guint32 len;

      if (strobe_wire_get_u16 (rec) != STROBE_UID_AUX_DATA)
        break;
      len = strobe_wire_get_u32 (rec + 4);
      if (rec[2] == index)
        {
          if (n_found == 0)
            {
              found = rec + sizeof (StrobeWireAuxHeader);
              found_size = len;
            }
          n_found++;
        }
      pos += sizeof (StrobeWireAuxHeader) + len;
    }

  /* Without the decoder's join list (a hand-made StrobeEvent) only the first record can
   * be returned without leaking. */
  if (n_found > 1 && ev->_joins != NULL)
    {
      GByteArray *joined = g_byte_array_new ();

      for (pos = 0; pos + sizeof (StrobeWireAuxHeader) <= ev->aux_len;)
        {
          const guint8 *rec = ev->aux + pos;
          guint32 len;

          if (strobe_wire_get_u16 (rec) != STROBE_UID_AUX_DATA)
            break;
          len = strobe_wire_get_u32 (rec + 4);
          if (rec[2] == index)
            g_byte_array_append (joined, rec + sizeof (StrobeWireAuxHeader), len);
          pos += sizeof (StrobeWireAuxHeader) + len;
        }
      found_size = joined->len;
      found = joined->data;
      g_ptr_array_add (ev->_joins, joined);
    }

  if (found && size)
    *size = found_size;
  return found;
}

/* PROTOCOL.md §9. g_utf8_validate_len() stops at NUL, which is a valid character here,
 * so the pieces between NULs are validated one by one. */
static gboolean
is_utf8 (const guint8 *p, gsize len)
{
  while (len > 0)
    {
      const guint8 *nul = memchr (p, 0, len);
      gsize n = nul ? (gsize) (nul - p) : len;

      if (!g_utf8_validate_len ((const char *) p, n, NULL))
        return FALSE;
      if (nul == NULL)
        break;
      p += n + 1;
      len -= n + 1;
    }
  return TRUE;
}

static inline void
append_char (GString *out, gunichar c, gunichar nul)
{
  if (c == 0)
    c = nul;
  if (c == 0)
    g_string_append_c (out, '\0');
  else
    g_string_append_unichar (out, c);
}

void
strobe_text_append_utf8 (GString      *out,
                         const guint8 *data,
                         gsize         len,
                         gboolean      wide,
                         gunichar      nul)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (data != NULL || len == 0);

  if (wide)
    {
      /* UTF-16LE from the wire is unaligned and may hold lone surrogates (it is
       * whatever the program had): decode by hand, U+FFFD for each lone one. */
      gsize n = len / 2;

      for (gsize i = 0; i < n; i++)
        {
          gunichar c = strobe_wire_get_u16 (data + 2 * i);

          if (c >= 0xd800 && c < 0xdc00 && i + 1 < n)
            {
              gunichar lo = strobe_wire_get_u16 (data + 2 * (i + 1));
              if (lo >= 0xdc00 && lo < 0xe000)
                {
                  c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
                  i++;
                }
              else
                c = 0xfffd;
            }
          else if (c >= 0xd800 && c < 0xe000)
            c = 0xfffd;
          append_char (out, c, nul);
        }
    }
  else if (is_utf8 (data, len))
    {
      if (nul == 0)
        g_string_append_len (out, (const char *) data, (gssize) len);
      else
        for (gsize i = 0; i < len; i++)
          {
            if (data[i] == 0)
              append_char (out, 0, nul);
            else
              g_string_append_c (out, (char) data[i]);
          }
    }
  else
    for (gsize i = 0; i < len; i++)
      append_char (out, data[i], nul);   /* Latin-1: each byte is its code point */
}

char *
strobe_text_to_utf8 (const guint8 *data,
                     gsize         len)
{
  GString *s = g_string_sized_new (len + 1);

  strobe_text_append_utf8 (s, data, len, FALSE, 0xfffd);
  return g_string_free (s, FALSE);
}

char *
strobe_event_get_string_at (const StrobeEvent *ev, gint index)
{
  const guint8 *data;
  gsize len;
  guint8 type;

  if (index < 0 || (guint) index >= ev->type->n_fields)
    return NULL;
  type = ev->type->fields[index].type;
  if (!strobe_wire_type_is_aux (type))
    return NULL;
  data = strobe_event_get_aux_at (ev, index, &len);
  if (data == NULL)
    return g_strdup ("");
  {
    GString *s = g_string_sized_new (len + 1);

    /* A C string cannot carry U+0000. */
    strobe_text_append_utf8 (s, data, len, type == STROBE_TYPE_WIDE, 0xfffd);
    return g_string_free (s, FALSE);
  }
}

const guint8 *
strobe_event_get_array_at (const StrobeEvent *ev, gint index,
                           guint8 *elem_type, gsize *n_elems)
{
  const StrobeEventField *f;
  const guint8 *data;
  gsize len, elem;

  if (elem_type)
    *elem_type = 0;
  if (n_elems)
    *n_elems = 0;
  if (index < 0 || (guint) index >= ev->type->n_fields)
    return NULL;
  f = &ev->type->fields[index];
  if ((f->type & 0xc0) != STROBE_TYPE_ARRAY)
    return NULL;
  if (elem_type)
    *elem_type = f->type & 0x3f;
  data = strobe_event_get_aux_at (ev, index, &len);
  if (data == NULL)
    return NULL;
  /* The schema guarantees a known kind's element size; unknown kinds are bytes. */
  elem = strobe_wire_scalar_size (f->type & 0x3f) != 0 && f->size ? f->size : 1;
  if (n_elems)
    *n_elems = len / elem;
  return data;
}

gboolean
strobe_event_has_field (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  g_return_val_if_fail (ev != NULL && acc != NULL, FALSE);
  return strobe_field_accessor_resolve (acc, ev) >= 0;
}

gint64
strobe_event_get_int (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  return strobe_event_get_int_at (ev, strobe_field_accessor_resolve (acc, ev));
}

guint64
strobe_event_get_uint (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  return strobe_event_get_uint_at (ev, strobe_field_accessor_resolve (acc, ev));
}

gdouble
strobe_event_get_double (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  return strobe_event_get_double_at (ev, strobe_field_accessor_resolve (acc, ev));
}

gboolean
strobe_event_get_bool (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  gint index = strobe_field_accessor_resolve (acc, ev);
  const StrobeEventField *f = scalar_field (ev, index);

  if (f == NULL)
    return FALSE;
  if (kind_is_float (f->type))
    return strobe_event_get_double_at (ev, index) != 0.0;
  return strobe_event_get_uint_at (ev, index) != 0;
}

guint64
strobe_event_get_pointer (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  return strobe_event_get_uint_at (ev, strobe_field_accessor_resolve (acc, ev));
}

char *
strobe_event_get_string (const StrobeEvent *ev, StrobeFieldAccessor *acc)
{
  return strobe_event_get_string_at (ev, strobe_field_accessor_resolve (acc, ev));
}

const guint8 *
strobe_event_get_aux (const StrobeEvent *ev, StrobeFieldAccessor *acc, gsize *size)
{
  return strobe_event_get_aux_at (ev, strobe_field_accessor_resolve (acc, ev), size);
}

const guint8 *
strobe_event_get_array (const StrobeEvent *ev, StrobeFieldAccessor *acc,
                        guint8 *elem_type, gsize *n_elems)
{
  return strobe_event_get_array_at (ev, strobe_field_accessor_resolve (acc, ev),
                                    elem_type, n_elems);
}
