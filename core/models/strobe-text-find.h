/* strobe-text-find.h — finding one fixed string in many short texts: the log filters'
 * substring test. The needle is looked at once (which two of its bytes are rarest in log
 * text), then each text is scanned sixteen positions at a time for those two bytes at their
 * distance, and only where both are there is the whole needle compared. strstr() looks at
 * the needle again for every text (a shift table for each call) and stops at a NUL byte.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char  *needle;
  gsize  len;
  gsize  at1, at2;   /* offsets in the needle of the two bytes looked for first */
} StrobeTextFinder;

/* @needle: the bytes to find (copied), @len of them. */
void        strobe_text_finder_init  (StrobeTextFinder *finder,
                                      const char       *needle,
                                      gsize             len);
void        strobe_text_finder_clear (StrobeTextFinder *finder);
/* The first place @finder's needle starts in the @len bytes at @text (which may hold NUL
 * bytes), or NULL; @text itself for an empty needle. */
const char *strobe_text_finder_find  (const StrobeTextFinder *finder,
                                      const char             *text,
                                      gsize                   len);

G_END_DECLS
