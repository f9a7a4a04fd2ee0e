/* strobe-text-find.c — see the header. Looking for two bytes at once, at their distance
 * in the needle, makes a false candidate rare; looking for the needle's rarest two (by how
 * often a byte shows in log text) makes it rarer still.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-text-find.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* How often a byte shows in log text, roughly: blanks, lower-case letters by English
 * frequency, digits, then punctuation, upper case, the rest. Higher is commoner. */
static guint
commonness (guchar c)
{
  static const char letters[] = "etaoinsrhldcumfpgwybvkxjqz";
  const char *l;

  if (c == ' ')
    return 255;
  if (c >= 'a' && c <= 'z')
    return 250 - 6 * (guint) ((l = strchr (letters, c)) - letters);
  if (c >= '0' && c <= '9')
    return 200;
  if (c >= 'A' && c <= 'Z')
    return commonness ((guchar) (c + ('a' - 'A'))) / 3;
  if (strchr (".,:;=-_/()[]'\"", c) != NULL && c != '\0')
    return 120;
  return c < 0x20 || c >= 0x80 ? 10 : 40;
}

void
strobe_text_finder_init (StrobeTextFinder *finder,
                         const char       *needle,
                         gsize             len)
{
  g_return_if_fail (finder != NULL);
  g_return_if_fail (needle != NULL || len == 0);

  finder->needle = g_malloc (len + 1);
  if (len)
    memcpy (finder->needle, needle, len);
  finder->needle[len] = '\0';
  finder->len = len;
  finder->at1 = finder->at2 = 0;
  for (gsize i = 1; i < len; i++)
    if (commonness ((guchar) needle[i]) < commonness ((guchar) needle[finder->at1]))
      finder->at1 = i;
  /* The second: the rarest of the other places, a byte unlike the first where there is one. */
  if (len > 1)
    {
      guint best = G_MAXUINT;

      for (gsize i = 0; i < len; i++)
        {
          guint score;

          if (i == finder->at1)
            continue;
          score = commonness ((guchar) needle[i]) + (needle[i] == needle[finder->at1] ? 256 : 0);
          if (score < best)
            {
              best = score;
              finder->at2 = i;
            }
        }
    }
}

void
strobe_text_finder_clear (StrobeTextFinder *finder)
{
  g_return_if_fail (finder != NULL);
  g_clear_pointer (&finder->needle, g_free);
  finder->len = 0;
}

/* The starts from @from to @last (inclusive), one at a time. */
static const char *
find_scalar (const StrobeTextFinder *f, const char *from, const char *last)
{
  const char c1 = f->needle[f->at1], c2 = f->needle[f->at2];

  while (from <= last)
    {
      const char *hit = memchr (from + f->at1, c1, (gsize) (last - from) + 1);
      const char *start;

      if (hit == NULL)
        return NULL;
      start = hit - f->at1;
      if (start[f->at2] == c2 && memcmp (start, f->needle, f->len) == 0)
        return start;
      from = start + 1;
    }
  return NULL;
}

const char *
strobe_text_finder_find (const StrobeTextFinder *finder,
                         const char             *text,
                         gsize                   len)
{
  const StrobeTextFinder *f = finder;
  gsize i = 0;

  g_return_val_if_fail (finder != NULL && finder->needle != NULL, NULL);
  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (f->len == 0)
    return text;
  if (len < f->len)
    return NULL;
  if (f->len == 1)
    return memchr (text, f->needle[0], len);
#ifdef __SSE2__
  {
    const __m128i b1 = _mm_set1_epi8 (f->needle[f->at1]), b2 = _mm_set1_epi8 (f->needle[f->at2]);

    /* Sixteen starts at once, while both loads stay inside the text. */
    for (; i + 15 + f->len <= len; i += 16)
      {
        __m128i x1 = _mm_loadu_si128 ((const __m128i *) (const void *) (text + i + f->at1));
        __m128i x2 = _mm_loadu_si128 ((const __m128i *) (const void *) (text + i + f->at2));
        guint mask = (guint) _mm_movemask_epi8 (_mm_and_si128 (_mm_cmpeq_epi8 (x1, b1), _mm_cmpeq_epi8 (x2, b2)));

        while (mask != 0)
          {
            const char *start = text + i + (guint) __builtin_ctz (mask);

            if (memcmp (start, f->needle, f->len) == 0)
              return start;
            mask &= mask - 1;
          }
      }
  }
#endif
  return find_scalar (f, text + i, text + len - f->len);
}
