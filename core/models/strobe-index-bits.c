/* strobe-index-bits.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-index-bits.h"

#include <string.h>

void
strobe_index_bits_add (StrobeIndexBits *bits, guint32 index)
{
  gsize w = index / 64;

  g_return_if_fail (bits != NULL);
  if (w >= bits->n_words)
    {
      /* Doubling: indexes mostly come in rising order. */
      gsize n = MAX (w + 1, MAX (bits->n_words * 2, 1024));

      bits->words = g_renew (guint64, bits->words, n);
      memset (bits->words + bits->n_words, 0, (n - bits->n_words) * sizeof (guint64));
      bits->n_words = n;
    }
  bits->words[w] |= G_GUINT64_CONSTANT (1) << (index % 64);
}

void
strobe_index_bits_clear (StrobeIndexBits *bits)
{
  g_return_if_fail (bits != NULL);
  g_clear_pointer (&bits->words, g_free);
  bits->n_words = 0;
}
