/* strobe-index-bits.h — a set of small indexes (a store's blocks, say) as one bit each,
 * grown as higher ones are added: 12.5 M members in 1.5 MiB, where a hash set of boxed
 * keys took half a GiB and most of the time of filling it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 *words;
  gsize    n_words;
} StrobeIndexBits;

void strobe_index_bits_add   (StrobeIndexBits *bits,
                              guint32          index);
/* Empties the set and frees its room. */
void strobe_index_bits_clear (StrobeIndexBits *bits);

static inline gboolean
strobe_index_bits_has (const StrobeIndexBits *bits, guint32 index)
{
  gsize w = index / 64;

  return w < bits->n_words && (bits->words[w] >> (index % 64)) & 1;
}

G_END_DECLS
