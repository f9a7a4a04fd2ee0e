/* strobe-memory-alloc-rows.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-alloc-rows.h"

#define PAGE 256u

struct _StrobeMemoryAllocRows
{
  GObject                parent_instance;
  StrobeMemoryAllocList *list;
  guint                  n_items;
  guint                  page_first;   /* G_MAXUINT: none cached */
  guint                  page_len;
  StrobeMemoryAlloc      records[PAGE];
  guint64                indexes[PAGE];
};

static GType
get_item_type (GListModel *model)
{
  return STROBE_TYPE_MEMORY_ALLOC_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  return STROBE_MEMORY_ALLOC_ROWS (model)->n_items;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrobeMemoryAllocRows *self = STROBE_MEMORY_ALLOC_ROWS (model);

  if (position >= self->n_items)
    return NULL;
  if (self->page_first == G_MAXUINT || position < self->page_first || position >= self->page_first + self->page_len)
    {
      self->page_first = position - position % PAGE;
      self->page_len = strobe_memory_alloc_list_get_items (self->list, self->page_first, PAGE, self->records,
                                                           self->indexes);
      if (position >= self->page_first + self->page_len)
        {
          self->page_first = G_MAXUINT;
          return NULL;
        }
    }
  return strobe_memory_alloc_item_new (&self->records[position - self->page_first],
                                       self->indexes[position - self->page_first]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeMemoryAllocRows, strobe_memory_alloc_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
strobe_memory_alloc_rows_finalize (GObject *object)
{
  StrobeMemoryAllocRows *self = STROBE_MEMORY_ALLOC_ROWS (object);

  g_clear_object (&self->list);
  G_OBJECT_CLASS (strobe_memory_alloc_rows_parent_class)->finalize (object);
}

static void
strobe_memory_alloc_rows_class_init (StrobeMemoryAllocRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_alloc_rows_finalize;
}

static void
strobe_memory_alloc_rows_init (StrobeMemoryAllocRows *self)
{
  self->page_first = G_MAXUINT;
}

StrobeMemoryAllocRows *
strobe_memory_alloc_rows_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_ALLOC_ROWS, NULL);
}

void
strobe_memory_alloc_rows_set_list (StrobeMemoryAllocRows *self,
                                   StrobeMemoryAllocList *list)
{
  guint removed, added;

  g_return_if_fail (STROBE_IS_MEMORY_ALLOC_ROWS (self));
  g_return_if_fail (list == NULL || STROBE_IS_MEMORY_ALLOC_LIST (list));

  removed = self->n_items;
  /* Told as a removal, then an addition: told of one replacement whose removed rows held
   * one it shows, GTK's list view looks for that row's item among every added row, an
   * item made for each — a new answer of 12.5 M allocations kept the main thread for
   * seconds. */
  self->n_items = 0;
  self->page_first = G_MAXUINT;
  if (removed)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
  g_set_object (&self->list, list);
  /* GListModel positions are guint: a bigger answer shows its first 4 G rows. */
  added = list ? (guint) MIN (strobe_memory_alloc_list_get_n_items (list), (guint64) G_MAXUINT) : 0;
  self->n_items = added;
  if (added)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, added);
}

StrobeMemoryAllocList *
strobe_memory_alloc_rows_get_list (StrobeMemoryAllocRows *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_ROWS (self), NULL);
  return self->list;
}
