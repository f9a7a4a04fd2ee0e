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
  GDestroyNotify free;     /* set when the row owns a copy */
};

enum
{
  PROP_0,
  PROP_DATA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StrobeInfoRow, strobe_info_row, G_TYPE_OBJECT)

static void
strobe_info_row_finalize (GObject *object)
{
  StrobeInfoRow *self = STROBE_INFO_ROW (object);

  g_clear_object (&self->owner);
  if (self->free != NULL && self->data != NULL)
    self->free ((gpointer) self->data);
  G_OBJECT_CLASS (strobe_info_row_parent_class)->finalize (object);
}

static void
strobe_info_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_DATA: g_value_set_pointer (value, (gpointer) STROBE_INFO_ROW (object)->data); break;
    default:        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_info_row_class_init (StrobeInfoRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strobe_info_row_finalize;
  object_class->get_property = strobe_info_row_get_property;

  properties[PROP_DATA] =
    g_param_spec_pointer ("data", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
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

void
strobe_info_row_list_update (GListStore     *list,
                             GPtrArray      *rows,
                             GBoxedCopyFunc  copy,
                             GDestroyNotify  free)
{
  guint n_old, n_new;
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (G_IS_LIST_STORE (list));
  g_return_if_fail (copy != NULL && free != NULL);

  n_old = g_list_model_get_n_items (G_LIST_MODEL (list));
  n_new = rows ? rows->len : 0;
  for (guint i = 0; i < MIN (n_old, n_new); i++)
    {
      g_autoptr(StrobeInfoRow) row = g_list_model_get_item (G_LIST_MODEL (list), i);

      if (row->free != NULL && row->data != NULL)
        row->free ((gpointer) row->data);
      row->data = copy (g_ptr_array_index (rows, i));
      row->free = free;
      g_object_notify_by_pspec (G_OBJECT (row), properties[PROP_DATA]);
    }
  for (guint i = n_old; i < n_new; i++)
    {
      StrobeInfoRow *row = g_object_new (STROBE_TYPE_INFO_ROW, NULL);

      row->data = copy (g_ptr_array_index (rows, i));
      row->free = free;
      g_ptr_array_add (added, row);
    }
  if (n_new > n_old)
    g_list_store_splice (list, n_old, 0, added->pdata, added->len);
  else if (n_new < n_old)
    g_list_store_splice (list, n_new, n_old - n_new, NULL, 0);
}

gconstpointer
strobe_info_row_get_data (StrobeInfoRow *self)
{
  g_return_val_if_fail (STROBE_IS_INFO_ROW (self), NULL);
  return self->data;
}
