/* strobe-event-format.c — one exact, locale-independent text form of an event's fields.
 *
 * Used by `strobe-cli dump` and by the tests to compare decoder runs, so the output must
 * be stable: floats round-trip (%.17g / %.9g through g_ascii_formatd), strings are
 * escaped so a line is always one line.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-event.h"

static void
append_escaped (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_unichar (out, c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_scalar (GString *out, guint8 kind, gsize size, const guint8 *p)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

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
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9g",
                                             strobe_scalar_read_double (kind, size, p)));
      break;
    case STROBE_TYPE_FLOAT64:
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g",
                                             strobe_scalar_read_double (kind, size, p)));
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
      g_string_append (out, f->name);
      g_string_append_c (out, '=');

      if (!strobe_wire_type_is_aux (f->type))
        append_scalar (out, f->type, f->size, ev->payload + f->offset);
      else if (f->type == STROBE_TYPE_ANSI || f->type == STROBE_TYPE_WIDE)
        {
          g_autofree char *s = strobe_event_get_string_at (ev, (gint) i);
          append_escaped (out, s);
        }
      else if ((f->type & 0xc0) == STROBE_TYPE_ARRAY
               && strobe_wire_scalar_size (f->type & 0x3f) != 0)
        {
          guint8 kind;
          gsize n;
          const guint8 *elems = strobe_event_get_array_at (ev, (gint) i, &kind, &n);
          gsize elem = f->size ? f->size : strobe_wire_scalar_size (kind);

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
  g_string_append (out, ev->type->full_name);
  if (ev->type->n_fields > 0)
    {
      g_string_append_c (out, ' ');
      strobe_event_format_fields (ev, out);
    }
}
