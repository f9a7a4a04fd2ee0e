/* log-stream.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "log-stream.h"

#include <stdarg.h>
#include <string.h>

#include "strobe-printf.h"

enum { UID_CATEGORY = TSB_UID_USER + 40, UID_SPEC, UID_MESSAGE };

Tsb *
log_stream_new (void)
{
  const TsbField category[] = { { "Id", STROBE_TYPE_UINT32 }, { "DefaultVerbosity", STROBE_TYPE_UINT8 },
                                { "Name", STROBE_TYPE_ANSI } };
  const TsbField spec[] = { { "Id", STROBE_TYPE_UINT32 }, { "CategoryId", STROBE_TYPE_UINT32 },
                            { "Line", STROBE_TYPE_INT32 }, { "Verbosity", STROBE_TYPE_UINT8 },
                            { "File", STROBE_TYPE_ANSI }, { "FormatString", STROBE_TYPE_ANSI } };
  const TsbField message[] = { { "Cycle", STROBE_TYPE_UINT64 }, { "SpecId", STROBE_TYPE_UINT32 },
                               { "FormatArgs", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 } };
  Tsb *b = tsb_new ();

  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_CATEGORY, "Logging", "LogCategory", STROBE_EVENT_FLAG_IMPORTANT, 3, category);
  tsb_define (b, UID_SPEC, "Logging", "LogMessageSpec", STROBE_EVENT_FLAG_IMPORTANT, 6, spec);
  tsb_define (b, UID_MESSAGE, "Logging", "LogMessage", STROBE_EVENT_FLAG_NOSYNC, 3, message);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
  return b;
}

void
log_stream_category (Tsb *b, guint32 id, const char *name, guint8 default_verbosity)
{
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_CATEGORY, 0);
  tsb_set_int (b, 0, id);
  tsb_set_int (b, 1, default_verbosity);
  tsb_aux_str (b, 2, name);
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
}

void
log_stream_spec (Tsb *b, guint32 id, guint32 category_id, const char *file, gint32 line,
                 guint8 verbosity, const char *format)
{
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_SPEC, 0);
  tsb_set_int (b, 0, id);
  tsb_set_int (b, 1, category_id);
  tsb_set_int (b, 2, (guint64) (gint64) line);
  tsb_set_int (b, 3, verbosity);
  tsb_aux_str (b, 4, file);
  tsb_aux_str (b, 5, format);
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);
}

void
log_stream_message (Tsb *b, guint16 tid, guint64 time, guint32 spec_id, GBytes *args)
{
  gsize len = 0;
  const guint8 *data = args ? g_bytes_get_data (args, &len) : NULL;

  tsb_begin (b, tid, UID_MESSAGE, 0);
  tsb_set_int (b, 0, time);
  tsb_set_int (b, 1, spec_id);
  if (len)
    tsb_aux (b, 2, data, len);
  tsb_end (b);
}

void
log_stream_message_split (Tsb *b, guint16 tid, guint64 time, guint32 spec_id, GBytes *args,
                          gsize cut)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (args, &len);

  g_assert_cmpuint (cut, <=, len);
  tsb_begin (b, tid, UID_MESSAGE, 0);
  tsb_set_int (b, 0, time);
  tsb_set_int (b, 1, spec_id);
  tsb_aux (b, 2, data, cut);
  tsb_aux (b, 2, data + cut, len - cut);
  tsb_end (b);
}

GBytes *
log_args (const char *types, ...)
{
  g_autoptr(GByteArray) values = g_byte_array_new ();
  GByteArray *out = g_byte_array_new ();
  guint8 n = (guint8) strlen (types);
  va_list ap;

  g_byte_array_append (out, &n, 1);
  va_start (ap, types);
  for (const char *t = types; *t; t++)
    {
      guint8 type;

      switch (*t)
        {
        case 'i':
          {
            guint32 v = GUINT32_TO_LE ((guint32) va_arg (ap, int));
            type = STROBE_LOG_ARG_INT32;
            g_byte_array_append (values, (guint8 *) &v, 4);
          }
          break;
        case 'l':
          {
            guint64 v = GUINT64_TO_LE ((guint64) va_arg (ap, gint64));
            type = STROBE_LOG_ARG_INT64;
            g_byte_array_append (values, (guint8 *) &v, 8);
          }
          break;
        case 'p':
          {
            guint64 v = GUINT64_TO_LE ((guint64) va_arg (ap, guint64));
            type = STROBE_LOG_ARG_POINTER64;
            g_byte_array_append (values, (guint8 *) &v, 8);
          }
          break;
        case 'd':
          {
            double v = va_arg (ap, double);
            type = STROBE_LOG_ARG_DOUBLE;
            g_byte_array_append (values, (guint8 *) &v, 8);
          }
          break;
        case 's':
          {
            const char *s = va_arg (ap, const char *);
            type = STROBE_LOG_ARG_STRING;
            g_byte_array_append (values, (const guint8 *) s, (guint) strlen (s) + 1);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      g_byte_array_append (out, &type, 1);
    }
  va_end (ap);
  g_byte_array_append (out, values->data, values->len);
  return g_byte_array_free_to_bytes (out);
}
