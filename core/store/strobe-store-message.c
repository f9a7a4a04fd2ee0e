/* strobe-store-message.c — framing and CBOR <-> GVariant for the store protocol.
 *
 * Incoming bytes come from the network, so they are checked by a small iterative walker
 * before libcbor sees them: it bounds nesting (libcbor frees nested items recursively)
 * and rejects trailing bytes and truncated items with a precise message.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <cbor.h>
#include <glib/gi18n.h>

#include "strobe-store-error.h"
#include "strobe-store-message.h"

#define INDEFINITE G_MAXUINT64

static gboolean
fail (GError **error, gsize offset, const char *what)
{
  g_set_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_PROTOCOL,
               _("Malformed CBOR at byte %zu: %s"), offset, what);
  return FALSE;
}

/* Checks that @data is exactly one well-formed CBOR item within our limits. */
static gboolean
check_well_formed (const guint8  *data,
                   gsize          len,
                   GError       **error)
{
  guint64 remaining[STROBE_STORE_MAX_DEPTH + 1];
  int depth = 0;
  gsize pos = 0;

  remaining[0] = 1;
  for (;;)
    {
      guint8 ib, major, info;
      guint64 val = 0;
      gboolean indefinite = FALSE;

      if (remaining[depth] == 0)
        {
          if (depth == 0)
            break;
          depth--;
          continue;
        }
      if (pos >= len)
        return fail (error, pos, _("the message ends inside an item"));

      ib = data[pos++];
      major = ib >> 5;
      info = ib & 0x1f;

      if (ib == 0xff)
        {
          if (remaining[depth] != INDEFINITE)
            return fail (error, pos - 1, _("a break outside an indefinite-length item"));
          depth--;
          continue;
        }

      if (info < 24)
        val = info;
      else if (info <= 27)
        {
          gsize n = (gsize) 1 << (info - 24);
          if (len - pos < n)
            return fail (error, pos, _("the message ends inside an item"));
          for (gsize i = 0; i < n; i++)
            val = (val << 8) | data[pos + i];
          pos += n;
        }
      else if (info == 31 && (major == 4 || major == 5))
        indefinite = TRUE;
      else
        return fail (error, pos - 1, _("unsupported additional information"));

      if (remaining[depth] != INDEFINITE)
        remaining[depth]--;

      switch (major)
        {
        case 0: case 1: case 7:
          break;

        case 2: case 3:
          if (val > len - pos)
            return fail (error, pos, _("a string longer than the message"));
          pos += (gsize) val;
          break;

        case 4: case 5:
          if (depth + 1 > STROBE_STORE_MAX_DEPTH)
            return fail (error, pos - 1, _("nested too deeply"));
          /* Every element takes at least one byte: a count beyond the message is a lie. */
          if (!indefinite && (val > len || (major == 5 && val > len / 2)))
            return fail (error, pos - 1, _("more elements than bytes"));
          remaining[++depth] = indefinite ? INDEFINITE : (major == 5 ? val * 2 : val);
          break;

        case 6:
          /* A tag wraps the next item, which fills the same slot. */
          if (remaining[depth] != INDEFINITE)
            remaining[depth]++;
          break;

        default:
          g_assert_not_reached ();
        }
    }

  if (pos != len)
    return fail (error, pos, _("trailing bytes after the message"));
  return TRUE;
}

static GVariant *to_variant (cbor_item_t *item, GError **error);

static GVariant *
map_to_variant (cbor_item_t  *item,
                GError      **error)
{
  GVariantBuilder builder;
  struct cbor_pair *pairs = cbor_map_handle (item);
  gsize n = cbor_map_size (item);
  /* A key given twice is ambiguous: which value the server would act on should not
   * depend on how a dictionary happens to resolve it. */
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *key = NULL;
      GVariant *value;

      if (!cbor_isa_string (pairs[i].key) || !cbor_string_is_definite (pairs[i].key))
        {
          g_variant_builder_clear (&builder);
          fail (error, 0, _("a map key that is not a text string"));
          return NULL;
        }
      key = g_strndup ((const char *) cbor_string_handle (pairs[i].key),
                       cbor_string_length (pairs[i].key));
      if (!g_utf8_validate (key, (gssize) cbor_string_length (pairs[i].key), NULL))
        {
          g_variant_builder_clear (&builder);
          fail (error, 0, _("a map key that is not UTF-8"));
          return NULL;
        }
      if (!g_hash_table_add (seen, g_strdup (key)))
        {
          g_autofree char *msg = g_strdup_printf (_("the key “%s” twice in one map"), key);

          g_variant_builder_clear (&builder);
          fail (error, 0, msg);
          return NULL;
        }
      /* null and undefined mean "absent". libcbor's cbor_is_null/undef/bool assert
       * (abort) on a float item: check that it is a simple value first. */
      if (cbor_isa_float_ctrl (pairs[i].value) && cbor_float_ctrl_is_ctrl (pairs[i].value)
          && (cbor_is_null (pairs[i].value) || cbor_is_undef (pairs[i].value)))
        continue;
      value = to_variant (pairs[i].value, error);
      if (value == NULL)
        {
          g_variant_builder_clear (&builder);
          return NULL;
        }
      g_variant_builder_add (&builder, "{sv}", key, value);
    }
  return g_variant_builder_end (&builder);
}

static GVariant *
to_variant (cbor_item_t  *item,
            GError      **error)
{
  switch (cbor_typeof (item))
    {
    case CBOR_TYPE_UINT:
      return g_variant_new_uint64 (cbor_get_int (item));

    case CBOR_TYPE_NEGINT:
      if (cbor_get_int (item) > G_MAXINT64)
        {
          fail (error, 0, _("an integer out of range"));
          return NULL;
        }
      return g_variant_new_int64 (-1 - (gint64) cbor_get_int (item));

    case CBOR_TYPE_BYTESTRING:
      if (!cbor_bytestring_is_definite (item))
        {
          fail (error, 0, _("an indefinite-length string"));
          return NULL;
        }
      return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, cbor_bytestring_handle (item),
                                        cbor_bytestring_length (item), 1);

    case CBOR_TYPE_STRING:
      {
        const char *s = (const char *) cbor_string_handle (item);
        gsize n = cbor_string_length (item);
        g_autofree char *copy = NULL;

        if (!cbor_string_is_definite (item))
          {
            fail (error, 0, _("an indefinite-length string"));
            return NULL;
          }
        if (!g_utf8_validate (s, (gssize) n, NULL) || memchr (s, 0, n) != NULL)
          {
            fail (error, 0, _("a text string that is not UTF-8"));
            return NULL;
          }
        copy = g_strndup (s, n);
        return g_variant_new_string (copy);
      }

    case CBOR_TYPE_ARRAY:
      {
        GVariantBuilder builder;
        cbor_item_t **items = cbor_array_handle (item);
        gsize n = cbor_array_size (item);

        g_variant_builder_init (&builder, G_VARIANT_TYPE ("av"));
        for (gsize i = 0; i < n; i++)
          {
            GVariant *v = to_variant (items[i], error);
            if (v == NULL)
              {
                g_variant_builder_clear (&builder);
                return NULL;
              }
            g_variant_builder_add (&builder, "v", v);
          }
        return g_variant_builder_end (&builder);
      }

    case CBOR_TYPE_MAP:
      return map_to_variant (item, error);

    case CBOR_TYPE_TAG:
      {
        /* cbor_tag_item() returns a new reference. */
        cbor_item_t *tagged = cbor_tag_item (item);
        GVariant *v = to_variant (tagged, error);

        cbor_decref (&tagged);
        return v;
      }

    case CBOR_TYPE_FLOAT_CTRL:
      if (cbor_float_ctrl_is_ctrl (item))
        {
          if (cbor_is_bool (item))
            return g_variant_new_boolean (cbor_get_bool (item));
          fail (error, 0, _("an unsupported simple value"));
          return NULL;
        }
      return g_variant_new_double (cbor_float_get_float (item));

    default:
      fail (error, 0, _("an unsupported item"));
      return NULL;
    }
}

GVariant *
strobe_store_message_decode (const guint8  *data,
                             gsize          len,
                             GError       **error)
{
  struct cbor_load_result result;
  cbor_item_t *item;
  GVariant *variant;

  if (len == 0)
    {
      fail (error, 0, _("an empty message"));
      return NULL;
    }
  if (!check_well_formed (data, len, error))
    return NULL;
  if ((data[0] >> 5) != 5)
    {
      fail (error, 0, _("the message is not a map"));
      return NULL;
    }

  item = cbor_load (data, len, &result);
  if (item == NULL || result.error.code != CBOR_ERR_NONE)
    {
      if (item != NULL)
        cbor_decref (&item);
      fail (error, result.error.position, _("libcbor cannot decode it"));
      return NULL;
    }
  variant = to_variant (item, error);
  cbor_decref (&item);
  return variant ? g_variant_ref_sink (variant) : NULL;
}

/* The smallest encoding of @v, as RFC 8949's preferred serialization asks. */
static cbor_item_t *
build_uint (guint64 v)
{
  if (v <= G_MAXUINT8)
    return cbor_build_uint8 ((guint8) v);
  if (v <= G_MAXUINT16)
    return cbor_build_uint16 ((guint16) v);
  if (v <= G_MAXUINT32)
    return cbor_build_uint32 ((guint32) v);
  return cbor_build_uint64 (v);
}

static cbor_item_t *
build_negint (guint64 v)
{
  if (v <= G_MAXUINT8)
    return cbor_build_negint8 ((guint8) v);
  if (v <= G_MAXUINT16)
    return cbor_build_negint16 ((guint16) v);
  if (v <= G_MAXUINT32)
    return cbor_build_negint32 ((guint32) v);
  return cbor_build_negint64 (v);
}

static cbor_item_t *
from_variant (GVariant *value)
{
  const GVariantType *type = g_variant_get_type (value);

  if (g_variant_type_equal (type, G_VARIANT_TYPE_BOOLEAN))
    return cbor_build_bool (g_variant_get_boolean (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_BYTE))
    return build_uint (g_variant_get_byte (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT16))
    return build_uint (g_variant_get_uint16 (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT32))
    return build_uint (g_variant_get_uint32 (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT64))
    return build_uint (g_variant_get_uint64 (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_INT16)
      || g_variant_type_equal (type, G_VARIANT_TYPE_INT32)
      || g_variant_type_equal (type, G_VARIANT_TYPE_INT64))
    {
      gint64 v = g_variant_type_equal (type, G_VARIANT_TYPE_INT16) ? g_variant_get_int16 (value)
               : g_variant_type_equal (type, G_VARIANT_TYPE_INT32) ? g_variant_get_int32 (value)
               : g_variant_get_int64 (value);
      if (v >= 0)
        return build_uint ((guint64) v);
      return build_negint ((guint64) (-1 - v));
    }
  if (g_variant_type_equal (type, G_VARIANT_TYPE_DOUBLE))
    return cbor_build_float8 (g_variant_get_double (value));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_STRING))
    return cbor_build_string (g_variant_get_string (value, NULL));
  if (g_variant_type_equal (type, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (value, &n, 1);
      return cbor_build_bytestring (p, n);
    }
  if (g_variant_type_equal (type, G_VARIANT_TYPE_VARIANT))
    {
      g_autoptr(GVariant) inner = g_variant_get_variant (value);
      return from_variant (inner);
    }
  if (g_variant_type_is_subtype_of (type, G_VARIANT_TYPE ("a{s*}")))
    {
      gsize n = g_variant_n_children (value);
      cbor_item_t *map = cbor_new_definite_map (n);

      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) entry = g_variant_get_child_value (value, i);
          g_autoptr(GVariant) k = g_variant_get_child_value (entry, 0);
          g_autoptr(GVariant) v = g_variant_get_child_value (entry, 1);

          cbor_map_add (map, (struct cbor_pair) {
            .key = cbor_move (cbor_build_string (g_variant_get_string (k, NULL))),
            .value = cbor_move (from_variant (v)),
          });
        }
      return map;
    }
  if (g_variant_type_is_array (type))
    {
      gsize n = g_variant_n_children (value);
      cbor_item_t *array = cbor_new_definite_array (n);

      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) v = g_variant_get_child_value (value, i);
          cbor_array_push (array, cbor_move (from_variant (v)));
        }
      return array;
    }

  g_critical ("Store protocol: cannot encode a GVariant of type %s", g_variant_get_type_string (value));
  return cbor_new_null ();
}

static GBytes *
frame (const guint8 *body,
       gsize         len)
{
  guint8 *buf = g_malloc (4 + len);
  guint32 le = GUINT32_TO_LE ((guint32) len);

  memcpy (buf, &le, 4);
  memcpy (buf + 4, body, len);
  return g_bytes_new_take (buf, 4 + len);
}

GBytes *
strobe_store_message_encode (GVariant *dict)
{
  g_autoptr(GVariant) sunk = g_variant_ref_sink (dict);
  cbor_item_t *item = from_variant (sunk);
  unsigned char *buf = NULL;
  size_t cap = 0;
  size_t len = cbor_serialize_alloc (item, &buf, &cap);
  GBytes *bytes;

  cbor_decref (&item);
  g_assert (len > 0);
  bytes = frame (buf, len);
  free (buf);
  return bytes;
}

GBytes *
strobe_store_message_encode_data (gboolean      has_tag,
                                  guint64       tag,
                                  guint64       offset,
                                  const guint8 *data,
                                  gsize         len)
{
  /* map header + "tag" u64 + "offset" u64 + "data" bytes header: 64 bytes is plenty. */
  gsize cap = 4 + 64 + len;
  guint8 *buf = g_malloc (cap);
  gsize pos = 4;
  guint32 le;

  pos += cbor_encode_map_start (has_tag ? 3 : 2, buf + pos, cap - pos);
  if (has_tag)
    {
      pos += cbor_encode_string_start (3, buf + pos, cap - pos);
      memcpy (buf + pos, "tag", 3), pos += 3;
      pos += cbor_encode_uint (tag, buf + pos, cap - pos);
    }
  pos += cbor_encode_string_start (6, buf + pos, cap - pos);
  memcpy (buf + pos, "offset", 6), pos += 6;
  pos += cbor_encode_uint (offset, buf + pos, cap - pos);
  pos += cbor_encode_string_start (4, buf + pos, cap - pos);
  memcpy (buf + pos, "data", 4), pos += 4;
  pos += cbor_encode_bytestring_start (len, buf + pos, cap - pos);
  memcpy (buf + pos, data, len), pos += len;

  le = GUINT32_TO_LE ((guint32) (pos - 4));
  memcpy (buf, &le, 4);
  return g_bytes_new_take (buf, pos);
}

gboolean
strobe_store_message_get_fixed_bytes (GVariant *value,
                                      guint8   *out,
                                      gsize     n)
{
  gsize len = 0;
  const guint8 *p;

  g_return_val_if_fail (out != NULL, FALSE);

  if (value == NULL || !g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return FALSE;
  p = g_variant_get_fixed_array (value, &len, 1);
  if (len != n)
    return FALSE;
  memcpy (out, p, n);
  return TRUE;
}
