/* strobe-decoder-error.c — StrobeDecoderError: the class of a broken stream and the byte
 * offset it names, through every copy of the error; the one-line status a decode ends with.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-decoder-error-private.h"

/* Errors carry the offset they name (PROTOCOL.md §7) with them, through every copy, so
 * whoever ends up holding one can say where the stream went wrong. */
typedef struct
{
  guint64 offset;
} StrobeDecoderErrorPrivate;

/* GLib's lookup of the private part may return NULL (a foreign error), hence the checks. */
static void
strobe_decoder_error_private_init (StrobeDecoderErrorPrivate *priv)
{
  if (priv)
    priv->offset = 0;
}

static void
strobe_decoder_error_private_copy (const StrobeDecoderErrorPrivate *src,
                                   StrobeDecoderErrorPrivate       *dest)
{
  if (src && dest)
    dest->offset = src->offset;
}

static void
strobe_decoder_error_private_clear (StrobeDecoderErrorPrivate *priv)
{
}

G_DEFINE_EXTENDED_ERROR (StrobeDecoderError, strobe_decoder_error)

void
strobe_decoder_error_set_offset (GError *error, guint64 offset)
{
  if (error->domain == STROBE_DECODER_ERROR)
    {
      StrobeDecoderErrorPrivate *priv = strobe_decoder_error_get_private (error);
      if (priv)
        priv->offset = offset;
    }
}

char *
strobe_decoder_format_status (gboolean      ended_cleanly,
                              const GError *error)
{
  /* In StrobeDecoderError order; the names of PROTOCOL.md §7. */
  static const char *const classes[] = {
    "not-strobe", "version", "corrupt", "truncated", "unsupported", "finished",
  };

  if (error == NULL)
    return g_strdup (ended_cleanly ? "# end" : "# no-end");
  if (error->domain == STROBE_DECODER_ERROR && error->code >= 0
      && (gsize) error->code < G_N_ELEMENTS (classes))
    return g_strdup_printf ("# error %s %" G_GUINT64_FORMAT, classes[error->code],
                            strobe_decoder_error_get_offset (error));
  return g_strdup ("# error other");
}

guint64
strobe_decoder_error_get_offset (const GError *error)
{
  g_return_val_if_fail (error != NULL, 0);

  if (error->domain == STROBE_DECODER_ERROR)
    {
      const StrobeDecoderErrorPrivate *priv = strobe_decoder_error_get_private (error);
      if (priv)
        return priv->offset;
    }
  return 0;
}
