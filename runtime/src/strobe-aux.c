/* strobe-aux.c — values of aux fields: arrays copied, strings converted to the field's
 * wire encoding (ANSI: 8-bit units; wide: UTF-16LE) while being written in place. */
#include "strobe-buffers-private.h"

#include <wchar.h>

static void
aux_bytes (StrobeAux *a, unsigned index, const void *data, size_t size)
{
  uint8_t *rec;

  if (data == NULL && size)
    return;
  rec = strobe__aux_record_begin (a, size);
  if (rec == NULL)
    return;
  if (size)
    memcpy (rec + sizeof (StrobeWireAuxHeader), data, size);
  strobe__aux_record_end (a, rec, index, size);
}

static size_t
put_utf16 (uint8_t *out, uint32_t c)
{
  if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    c = 0xfffd;
  if (c < 0x10000)
    {
      strobe_wire_put_u16 (out, (uint16_t) c);
      return 2;
    }
  c -= 0x10000;
  strobe_wire_put_u16 (out, (uint16_t) (0xd800 | (c >> 10)));
  strobe_wire_put_u16 (out + 2, (uint16_t) (0xdc00 | (c & 0x3ff)));
  return 4;
}

/* Lenient UTF-8: a malformed sequence becomes U+FFFD and decoding resumes at the next
 * byte, so each input byte yields at most one UTF-16 unit (2 bytes). */
static uint32_t
next_utf8 (const unsigned char *s, size_t len, size_t *i)
{
  unsigned char c = s[*i];
  uint32_t v, min;
  size_t n;

  if (c < 0x80)
    {
      *i += 1;
      return c;
    }
  if ((c & 0xe0) == 0xc0)
    n = 1, v = c & 0x1f, min = 0x80;
  else if ((c & 0xf0) == 0xe0)
    n = 2, v = c & 0x0f, min = 0x800;
  else if ((c & 0xf8) == 0xf0)
    n = 3, v = c & 0x07, min = 0x10000;
  else
    goto bad;
  if (len - *i <= n)
    goto bad;
  for (size_t k = 1; k <= n; k++)
    {
      if ((s[*i + k] & 0xc0) != 0x80)
        goto bad;
      v = (v << 6) | (s[*i + k] & 0x3f);
    }
  if (v < min)
    goto bad;
  *i += n + 1;
  return v;

bad:
  *i += 1;
  return 0xfffd;
}

void
strobe__aux_bytes (StrobeEventDef *def, StrobeAux *a, unsigned index, const void *data, size_t size)
{
  a->type = def;
  aux_bytes (a, index, data, size);
}

void
strobe__aux_string (StrobeEventDef *def, StrobeAux *a, unsigned index, unsigned type,
                    const char *s, size_t len)
{
  uint8_t *rec, *out;
  size_t n = 0;

  a->type = def;
  if (s == NULL)
    return;
  if (len == (size_t) -1)
    len = strlen (s);
  if (type != STROBE_TYPE_WIDE)
    {
      aux_bytes (a, index, s, len);
      return;
    }
  rec = strobe__aux_record_begin (a, 2 * len);
  if (rec == NULL)
    return;
  out = rec + sizeof (StrobeWireAuxHeader);
  for (size_t i = 0; i < len;)
    n += put_utf16 (out + n, next_utf8 ((const unsigned char *) s, len, &i));
  strobe__aux_record_end (a, rec, index, n);
}

void
strobe__aux_wstring (StrobeEventDef *def, StrobeAux *a, unsigned index, unsigned type,
                     const wchar_t *s, size_t len)
{
  uint8_t *rec, *out;
  size_t n = 0;

  a->type = def;
  if (s == NULL)
    return;
  if (len == (size_t) -1)
    len = wcslen (s);
  rec = strobe__aux_record_begin (a, type == STROBE_TYPE_WIDE ? 4 * len : len);
  if (rec == NULL)
    return;
  out = rec + sizeof (StrobeWireAuxHeader);
  for (size_t i = 0; i < len; i++)
    {
      uint32_t c = (uint32_t) s[i];
      if (type != STROBE_TYPE_WIDE)
        out[n++] = (uint8_t) (c & 0x7f);
      else if (sizeof (wchar_t) == 2 && c >= 0xd800 && c <= 0xdfff)
        n += (strobe_wire_put_u16 (out + n, (uint16_t) c), 2);   /* already UTF-16 */
      else
        n += put_utf16 (out + n, c);
    }
  strobe__aux_record_end (a, rec, index, n);
}
