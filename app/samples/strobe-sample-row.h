/* strobe-sample-row.h — one row of the Samples panel's tables: a function (a node of the
 * sampled tree, or a caller or callee of the chosen function) with its samples inclusive
 * and self and its share of the interval's samples.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define STROBE_TYPE_SAMPLE_ROW (strobe_sample_row_get_type ())
G_DECLARE_FINAL_TYPE (StrobeSampleRow, strobe_sample_row, STROBE, SAMPLE_ROW, GObject)

/* @node: the tree node (G_MAXUINT32 for a caller/callee row); @total: the interval's
 * samples, for the share. */
StrobeSampleRow *strobe_sample_row_new          (const char *name,
                                                 guint64     key,
                                                 guint32     node,
                                                 guint       n_children,
                                                 guint64     inclusive,
                                                 guint64     self,
                                                 guint64     total);
const char      *strobe_sample_row_get_name     (StrobeSampleRow *row);
guint64          strobe_sample_row_get_key      (StrobeSampleRow *row);
guint32          strobe_sample_row_get_node     (StrobeSampleRow *row);
guint            strobe_sample_row_get_n_children (StrobeSampleRow *row);
guint64          strobe_sample_row_get_inclusive (StrobeSampleRow *row);
guint64          strobe_sample_row_get_self     (StrobeSampleRow *row);
/* inclusive / total, 0..1. */
gdouble          strobe_sample_row_get_share    (StrobeSampleRow *row);

G_END_DECLS
