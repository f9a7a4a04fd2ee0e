/* strobe-sample-row.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-sample-row.h"

struct _StrobeSampleRow
{
  GObject  parent_instance;
  char    *name;
  guint64  key;
  guint32  node;
  guint    n_children;
  guint64  inclusive;
  guint64  self;
  guint64  total;
};

G_DEFINE_FINAL_TYPE (StrobeSampleRow, strobe_sample_row, G_TYPE_OBJECT)

static void
strobe_sample_row_finalize (GObject *object)
{
  g_free (STROBE_SAMPLE_ROW (object)->name);
  G_OBJECT_CLASS (strobe_sample_row_parent_class)->finalize (object);
}

static void
strobe_sample_row_class_init (StrobeSampleRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_sample_row_finalize;
}

static void
strobe_sample_row_init (StrobeSampleRow *self)
{
}

StrobeSampleRow *
strobe_sample_row_new (const char *name, guint64 key, guint32 node, guint n_children, guint64 inclusive,
                       guint64 self_samples, guint64 total)
{
  StrobeSampleRow *self = g_object_new (STROBE_TYPE_SAMPLE_ROW, NULL);

  self->name = g_strdup (name ? name : "");
  self->key = key;
  self->node = node;
  self->n_children = n_children;
  self->inclusive = inclusive;
  self->self = self_samples;
  self->total = total;
  return self;
}

const char *
strobe_sample_row_get_name (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), NULL);
  return row->name;
}

guint64
strobe_sample_row_get_key (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), 0);
  return row->key;
}

guint32
strobe_sample_row_get_node (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), G_MAXUINT32);
  return row->node;
}

guint
strobe_sample_row_get_n_children (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), 0);
  return row->n_children;
}

guint64
strobe_sample_row_get_inclusive (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), 0);
  return row->inclusive;
}

guint64
strobe_sample_row_get_self (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), 0);
  return row->self;
}

gdouble
strobe_sample_row_get_share (StrobeSampleRow *row)
{
  g_return_val_if_fail (STROBE_IS_SAMPLE_ROW (row), 0);
  return row->total ? (gdouble) row->inclusive / (gdouble) row->total : 0;
}
