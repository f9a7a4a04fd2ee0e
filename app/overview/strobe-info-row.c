/* strobe-info-row.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-info-row.h"

struct _StrobeInfoRow
{
  GObject        parent_instance;
  GObject       *owner;
  gconstpointer  data;
};

G_DEFINE_FINAL_TYPE (StrobeInfoRow, strobe_info_row, G_TYPE_OBJECT)

static void
strobe_info_row_finalize (GObject *object)
{
  StrobeInfoRow *self = STROBE_INFO_ROW (object);

  g_clear_object (&self->owner);
  G_OBJECT_CLASS (strobe_info_row_parent_class)->finalize (object);
}

static void
strobe_info_row_class_init (StrobeInfoRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_info_row_finalize;
}

static void
strobe_info_row_init (StrobeInfoRow *self)
{
}

GListModel *
strobe_info_row_list_new (GObject   *owner,
                          GPtrArray *rows)
{
  GListStore *store = g_list_store_new (STROBE_TYPE_INFO_ROW);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (G_IS_OBJECT (owner), NULL);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      StrobeInfoRow *row = g_object_new (STROBE_TYPE_INFO_ROW, NULL);

      row->owner = g_object_ref (owner);
      row->data = g_ptr_array_index (rows, i);
      g_ptr_array_add (items, row);
    }
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}

gconstpointer
strobe_info_row_get_data (StrobeInfoRow *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ROW (self), NULL);
  return self->data;
}
