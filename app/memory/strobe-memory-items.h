/* strobe-memory-items.h — the rows of the memory view's tables as GObjects, made for the
 * rows on screen: an allocation (a copy of its record and its model index), and a group
 * of allocations with costs (an aggregation's row, a call-tree node, a function or a
 * call of the caller/callee view).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_ALLOC_ITEM (strobe_memory_alloc_item_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryAllocItem, strobe_memory_alloc_item, STROBE, MEMORY_ALLOC_ITEM, GObject)

StrobeMemoryAllocItem   *strobe_memory_alloc_item_new        (const StrobeMemoryAlloc *record,
                                                              guint64                  index);
const StrobeMemoryAlloc *strobe_memory_alloc_item_get_record (StrobeMemoryAllocItem   *self);
/* The allocation's index in the model. */
guint64                  strobe_memory_alloc_item_get_index  (StrobeMemoryAllocItem   *self);

#define STROBE_TYPE_MEMORY_COST_ITEM (strobe_memory_cost_item_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryCostItem, strobe_memory_cost_item, STROBE, MEMORY_COST_ITEM, GObject)

typedef struct
{
  StrobeMemoryGroupBy by;            /* what @key is */
  guint64             key;
  StrobeMemoryFrame   frame;         /* stacks, functions, nodes: a frame to name it by */
  guint32             inline_depth;
  guint32             node;          /* tree nodes: the node; G_MAXUINT32 otherwise */
  guint32             n_children;
  StrobeMemoryCosts   inclusive;     /* a group's costs */
  StrobeMemoryCosts   self;          /* nodes and functions */
} StrobeMemoryCostData;

/* @names names the item when it is first shown (NULL: @name is its name). */
StrobeMemoryCostItem       *strobe_memory_cost_item_new      (const StrobeMemoryCostData *data,
                                                              StrobeMemoryNames          *names,
                                                              const char                 *name);
const StrobeMemoryCostData *strobe_memory_cost_item_get_data (StrobeMemoryCostItem       *self);
/* Its name (escaped). */
const char                 *strobe_memory_cost_item_get_name (StrobeMemoryCostItem       *self);
/* A cost of the item (STROBE_MEMORY_COST_KEY: the key), for sorting. */
guint64                     strobe_memory_cost_item_get_cost (StrobeMemoryCostItem       *self,
                                                              StrobeMemoryCost            cost,
                                                              gboolean                    self_cost);

/* Columns of cost items for strobe_table_add_columns(): the name, and text and sort
 * functions for one cost, inclusive or the item's own. */
char *strobe_memory_cost_item_name_text    (gpointer item);
int   strobe_memory_cost_item_compare_name (gpointer a,
                                            gpointer b);
/* By the count of allocations still live (leaked_count, which is no StrobeMemoryCost). */
int   strobe_memory_cost_item_compare_leaked_count (gpointer a,
                                                    gpointer b);

#define STROBE_MEMORY_SIZE_TEXT(fn, field, self_cost)                                                    \
  static char *fn (gpointer item)                                                                        \
  {                                                                                                      \
    const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);                             \
    return strobe_format_size ((guint64) MAX ((self_cost ? d->self : d->inclusive).field, 0));            \
  }
#define STROBE_MEMORY_COUNT_TEXT(fn, field, self_cost)                                                   \
  static char *fn (gpointer item)                                                                        \
  {                                                                                                      \
    const StrobeMemoryCostData *d = strobe_memory_cost_item_get_data (item);                             \
    return strobe_format_count ((guint64) MAX ((self_cost ? d->self : d->inclusive).field, 0));           \
  }
#define STROBE_MEMORY_COST_COMPARE(fn, cost, self_cost)                                                  \
  static int fn (gpointer a, gpointer b)                                                                 \
  {                                                                                                      \
    return strobe_table_compare_u64 (strobe_memory_cost_item_get_cost (a, cost, self_cost),               \
                                     strobe_memory_cost_item_get_cost (b, cost, self_cost));              \
  }

G_END_DECLS
