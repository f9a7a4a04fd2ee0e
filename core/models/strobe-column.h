/* strobe-column.h — a column of cells of one size that only grows
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What GArray is to its readers (`data`, `len`, g_array_index), without a library call
 * and its checks per cell appended — that was a fifth of reading a trace, for ten cells
 * an allocation and its free — and grown so that its first read after growing is not a
 * fault a page (strobe-column.c). Made with g_new0 and its `elt` set. */
typedef struct
{
  gchar *data;
  guint  len;
  guint  cap;
  guint  elt;
} StrobeColumn;

StrobeColumn *strobe_column_new  (guint elt);
void          strobe_column_grow (StrobeColumn *c);
/* Frees @c and its cells. */
void          strobe_column_free (StrobeColumn *c);

#define STROBE_COLUMN_PUSH(c, type, v)                                        \
  G_STMT_START {                                                              \
    if (G_UNLIKELY ((c)->len == (c)->cap))                                    \
      strobe_column_grow (c);                                                 \
    ((type *) (void *) (c)->data)[(c)->len++] = (v);                          \
  } G_STMT_END

G_END_DECLS
