/* strobe-event-format.c — one exact, locale-independent text form of an event's fields.
 *
 * Used by `strobe-cli dump` and by the tests to compare decoder runs, so the output must
 * be stable: floats round-trip (%.17g / %.9g through g_ascii_formatd), strings and
 * names are escaped so a line is always one line and splits into its tokens. The
 * grammar is PROTOCOL.md §10; an independent reader reproduces it byte for byte.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-event.h"
#include "strobe-text.h"

#include <math.h>

typedef enum
{
  TEXT_VALUE  = STROBE_TEXT_EXACT,                                         /* a string value, between quotes */
  TEXT_NAME   = STROBE_TEXT_EXACT | STROBE_TEXT_NAME,                      /* no quotes, so no space nor '=' */
  TEXT_LOGGER = STROBE_TEXT_EXACT | STROBE_TEXT_NAME | STROBE_TEXT_LOGGER, /* no '.' either */
} TextKind;

/* PROTOCOL.md §10: the escapes keep a line one line and every token unambiguous. The
 * same function escapes every text the CLI prints (strobe-text.c). */
static void
append_text (GString *out, const char *s, gsize len, TextKind kind)
{
  strobe_text_append_escaped (out, s, (gssize) len, (StrobeTextFlags) kind);
}

static void
append_name (GString *out, const char *name, TextKind kind)
{
  append_text (out, name, strlen (name), kind);
}

static void
append_double (GString *out, gdouble d, const char *format)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* printf spells these as the C library likes ("-nan"); fix one spelling. */
  if (isnan (d))
    g_string_append (out, "nan");
  else if (isinf (d))
    g_string_append (out, d < 0 ? "-inf" : "inf");
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, format, d));
}

static void
append_scalar (GString *out, guint8 kind, gsize size, const guint8 *p)
{
  switch (kind)
    {
    case STROBE_TYPE_BOOL:
      g_string_append (out, strobe_scalar_read_uint (kind, size, p) ? "true" : "false");
      break;
    case STROBE_TYPE_INT8:
    case STROBE_TYPE_INT16:
    case STROBE_TYPE_INT32:
    case STROBE_TYPE_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, strobe_scalar_read_int (kind, size, p));
      break;
    case STROBE_TYPE_UINT8:
    case STROBE_TYPE_UINT16:
    case STROBE_TYPE_UINT32:
    case STROBE_TYPE_UINT64:
      g_string_append_printf (out, "%" G_GUINT64_FORMAT, strobe_scalar_read_uint (kind, size, p));
      break;
    case STROBE_TYPE_FLOAT32:
      append_double (out, strobe_scalar_read_double (kind, size, p), "%.9g");
      break;
    case STROBE_TYPE_FLOAT64:
      append_double (out, strobe_scalar_read_double (kind, size, p), "%.17g");
      break;
    case STROBE_TYPE_POINTER:
      g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x",
                              strobe_scalar_read_uint (kind, size, p));
      break;
    default:
      /* Opaque: the bytes as they are on the wire. */
      g_string_append (out, "0x");
      for (gsize i = 0; i < size; i++)
        g_string_append_printf (out, "%02x", p[i]);
      break;
    }
}

void
strobe_event_format_fields (const StrobeEvent *ev, GString *out)
{
  g_return_if_fail (ev != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < ev->type->n_fields; i++)
    {
      const StrobeEventField *f = &ev->type->fields[i];

      if (i > 0)
        g_string_append_c (out, ' ');
      append_name (out, f->name, TEXT_NAME);
      g_string_append_c (out, '=');

      if (!strobe_wire_type_is_aux (f->type))
        append_scalar (out, f->type, f->size, ev->payload + f->offset);
      else if (f->type == STROBE_TYPE_ANSI || f->type == STROBE_TYPE_WIDE)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          gsize n;
          const guint8 *data = strobe_event_get_aux_at (ev, (gint) i, &n);

          if (data)
            strobe_text_append_utf8 (text, data, n, f->type == STROBE_TYPE_WIDE, 0);
          g_string_append_c (out, '"');
          append_text (out, text->str, text->len, TEXT_VALUE);
          g_string_append_c (out, '"');
        }
      else if ((f->type & 0xc0) == STROBE_TYPE_ARRAY
               && strobe_wire_scalar_size (f->type & 0x3f) != 0)
        {
          guint8 kind;
          gsize n;
          const guint8 *elems = strobe_event_get_array_at (ev, (gint) i, &kind, &n);
          gsize elem = f->size;   /* the schema checked it (PROTOCOL.md §4) */

          g_string_append_c (out, '[');
          for (gsize j = 0; j < n; j++)
            {
              if (j > 0)
                g_string_append (out, ", ");
              append_scalar (out, kind, elem, elems + j * elem);
            }
          g_string_append_c (out, ']');
        }
      else
        {
          gsize n;
          const guint8 *data = strobe_event_get_aux_at (ev, (gint) i, &n);

          g_string_append (out, "x\"");
          for (gsize j = 0; data && j < n; j++)
            g_string_append_printf (out, "%02x", data[j]);
          g_string_append_c (out, '"');
        }
    }
}

void
strobe_event_format (const StrobeEvent *ev, GString *out)
{
  g_return_if_fail (ev != NULL);
  g_return_if_fail (out != NULL);

  g_string_append_printf (out, "%u ", ev->thread_id);
  if (ev->serial == STROBE_EVENT_NO_SERIAL)
    g_string_append (out, "- ");
  else
    g_string_append_printf (out, "%u ", ev->serial);
  append_name (out, ev->type->logger, TEXT_LOGGER);
  g_string_append_c (out, '.');
  append_name (out, ev->type->name, TEXT_NAME);
  if (ev->type->n_fields > 0)
    {
      g_string_append_c (out, ' ');
      strobe_event_format_fields (ev, out);
    }
}
