/* fuzz-store-message.c — libFuzzer target for the store protocol's message decoder
 * (core/store, strobe_store_message_decode): a body as a peer sends it, after the
 * length prefix (which the server caps at STROBE_STORE_MAX_REQUEST before reading).
 *
 * Checks, besides the sanitizers: whatever decodes is an a{sv}, encodes again, and
 * decodes back to an equal value (the two ends agree on every value they accept).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strobe-store-message.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  GVariant *v;

  if (size > STROBE_STORE_MAX_REQUEST)
    return 0;   /* the server never decodes more */
  v = strobe_store_message_decode (data, size, &error);
  if (v == NULL)
    {
      if (error == NULL)
        abort ();   /* failure without a reason */
      g_error_free (error);
      return 0;
    }
  if (error != NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_VARDICT))
    abort ();
  g_variant_ref_sink (v);
  {
    GBytes *encoded = strobe_store_message_encode (v);
    gsize len;
    const guint8 *p = g_bytes_get_data (encoded, &len);
    GVariant *again;

    if (len < 4 || GUINT32_FROM_LE (*(const guint32 *) (const void *) p) != len - 4)
      abort ();   /* the length prefix */
    again = strobe_store_message_decode (p + 4, len - 4, &error);
    if (again == NULL || !g_variant_equal (v, again))
      {
        char *a = g_variant_print (v, TRUE);
        char *b = again ? g_variant_print (again, TRUE) : g_strdup (error->message);
        fprintf (stderr, "fuzz-store-message: round trip differs\n  %s\n  %s\n", a, b);
        abort ();
      }
    g_variant_unref (g_variant_ref_sink (again));
    g_bytes_unref (encoded);
  }
  g_variant_unref (v);
  return 0;
}
