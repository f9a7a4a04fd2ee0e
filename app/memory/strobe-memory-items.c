/* strobe-memory-items.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-items.h"

#include "strobe-table.h"

struct _StrobeMemoryAllocItem
{
  GObject           parent_instance;
  StrobeMemoryAlloc record;
  guint64           index;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryAllocItem, strobe_memory_alloc_item, G_TYPE_OBJECT)

static void
strobe_memory_alloc_item_class_init (StrobeMemoryAllocItemClass *klass)
{
}

static void
strobe_memory_alloc_item_init (StrobeMemoryAllocItem *self)
{
}

StrobeMemoryAllocItem *
strobe_memory_alloc_item_new (const StrobeMemoryAlloc *record,
                              guint64                  index)
{
  StrobeMemoryAllocItem *self;

  g_return_val_if_fail (record != NULL, NULL);
  self = g_object_new (STROBE_TYPE_MEMORY_ALLOC_ITEM, NULL);
  self->record = *record;
  self->index = index;
  return self;
}

const StrobeMemoryAlloc *
strobe_memory_alloc_item_get_record (StrobeMemoryAllocItem *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_ITEM (self), NULL);
  return &self->record;
}

guint64
strobe_memory_alloc_item_get_index (StrobeMemoryAllocItem *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_ALLOC_ITEM (self), 0);
  return self->index;
}

/* ---- a group with costs --------------------------------------------------------------- */

struct _StrobeMemoryCostItem
{
  GObject              parent_instance;
  StrobeMemoryCostData data;
  StrobeMemoryNames   *names;   /* until the name is made */
  char                *name;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryCostItem, strobe_memory_cost_item, G_TYPE_OBJECT)

static void
strobe_memory_cost_item_finalize (GObject *object)
{
  StrobeMemoryCostItem *self = STROBE_MEMORY_COST_ITEM (object);

  g_clear_object (&self->names);
  g_free (self->name);
  G_OBJECT_CLASS (strobe_memory_cost_item_parent_class)->finalize (object);
}

static void
strobe_memory_cost_item_class_init (StrobeMemoryCostItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_cost_item_finalize;
}

static void
strobe_memory_cost_item_init (StrobeMemoryCostItem *self)
{
}

StrobeMemoryCostItem *
strobe_memory_cost_item_new (const StrobeMemoryCostData *data,
                             StrobeMemoryNames          *names,
                             const char                 *name)
{
  StrobeMemoryCostItem *self;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (names != NULL || name != NULL, NULL);
  self = g_object_new (STROBE_TYPE_MEMORY_COST_ITEM, NULL);
  self->data = *data;
  self->names = names ? g_object_ref (names) : NULL;
  self->name = g_strdup (name);
  return self;
}

const StrobeMemoryCostData *
strobe_memory_cost_item_get_data (StrobeMemoryCostItem *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_COST_ITEM (self), NULL);
  return &self->data;
}

const char *
strobe_memory_cost_item_get_name (StrobeMemoryCostItem *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_COST_ITEM (self), NULL);
  if (self->name == NULL)
    {
      if (self->data.node != G_MAXUINT32)
        self->name = strobe_memory_names_function (self->names, &self->data.frame, self->data.inline_depth);
      else if (self->data.by == STROBE_MEMORY_BY_FUNCTION)
        self->name = strobe_memory_names_function (self->names, self->data.key == 0 && self->data.frame.address == 0
                                                                ? NULL : &self->data.frame, self->data.inline_depth);
      else
        self->name = strobe_memory_names_group (self->names, self->data.by, self->data.key, &self->data.frame);
      g_clear_object (&self->names);
    }
  return self->name;
}

guint64
strobe_memory_cost_item_get_cost (StrobeMemoryCostItem *self,
                                  StrobeMemoryCost      cost,
                                  gboolean              self_cost)
{
  const StrobeMemoryCosts *c;

  g_return_val_if_fail (STROBE_IS_MEMORY_COST_ITEM (self), 0);
  c = self_cost ? &self->data.self : &self->data.inclusive;
  switch (cost)
    {
    case STROBE_MEMORY_COST_PEAK: return (guint64) MAX (c->peak_bytes, 0);
    case STROBE_MEMORY_COST_LEAKED: return (guint64) MAX (c->leaked_bytes, 0);
    case STROBE_MEMORY_COST_ALLOCATIONS: return c->allocations;
    case STROBE_MEMORY_COST_TEMPORARY: return c->temporary;
    case STROBE_MEMORY_COST_BYTES: return c->bytes_allocated;
    case STROBE_MEMORY_COST_KEY:
    default: return self->data.key;
    }
}

char *
strobe_memory_cost_item_name_text (gpointer item)
{
  return g_strdup (strobe_memory_cost_item_get_name (item));
}

int
strobe_memory_cost_item_compare_name (gpointer a,
                                      gpointer b)
{
  return strobe_table_compare_str (strobe_memory_cost_item_get_name (a), strobe_memory_cost_item_get_name (b));
}

int
strobe_memory_cost_item_compare_leaked_count (gpointer a,
                                              gpointer b)
{
  return strobe_table_compare_u64 (strobe_memory_cost_item_get_data (a)->inclusive.leaked_count,
                                   strobe_memory_cost_item_get_data (b)->inclusive.leaked_count);
}
