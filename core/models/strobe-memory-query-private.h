/* strobe-memory-query-private.h — heaptrack's costs as the columns of a StrobeCostTree,
 * shared by the memory call trees and their callers view.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-cost-tree.h"
#include "strobe-memory-query.h"
#include "strobe-memory-store.h"

G_BEGIN_DECLS

enum
{
  STROBE_MEMORY_COL_ALLOCATIONS,
  STROBE_MEMORY_COL_TEMPORARY,
  STROBE_MEMORY_COL_BYTES,
  STROBE_MEMORY_COL_PEAK_BYTES,
  STROBE_MEMORY_COL_PEAK_COUNT,
  STROBE_MEMORY_COL_LEAKED_BYTES,
  STROBE_MEMORY_COL_LEAKED_COUNT,
  STROBE_MEMORY_N_COLS
};

static const StrobeCostColumnFlags strobe_memory_cost_columns[STROBE_MEMORY_N_COLS] = {
  [STROBE_MEMORY_COL_PEAK_BYTES] = STROBE_COST_COLUMN_SIGNED,
  [STROBE_MEMORY_COL_LEAKED_BYTES] = STROBE_COST_COLUMN_SIGNED,
};

static inline void
strobe_memory_costs_to_values (const StrobeMemoryCosts *c, guint64 *v)
{
  v[STROBE_MEMORY_COL_ALLOCATIONS] = c->allocations;
  v[STROBE_MEMORY_COL_TEMPORARY] = c->temporary;
  v[STROBE_MEMORY_COL_BYTES] = c->bytes_allocated;
  v[STROBE_MEMORY_COL_PEAK_BYTES] = (guint64) c->peak_bytes;
  v[STROBE_MEMORY_COL_PEAK_COUNT] = c->peak_count;
  v[STROBE_MEMORY_COL_LEAKED_BYTES] = (guint64) c->leaked_bytes;
  v[STROBE_MEMORY_COL_LEAKED_COUNT] = c->leaked_count;
}

static inline void
strobe_memory_costs_from_values (const guint64 *v, StrobeMemoryCosts *c)
{
  c->allocations = v[STROBE_MEMORY_COL_ALLOCATIONS];
  c->temporary = v[STROBE_MEMORY_COL_TEMPORARY];
  c->bytes_allocated = v[STROBE_MEMORY_COL_BYTES];
  c->peak_bytes = (gint64) v[STROBE_MEMORY_COL_PEAK_BYTES];
  c->peak_count = v[STROBE_MEMORY_COL_PEAK_COUNT];
  c->leaked_bytes = (gint64) v[STROBE_MEMORY_COL_LEAKED_BYTES];
  c->leaked_count = v[STROBE_MEMORY_COL_LEAKED_COUNT];
}

/* A node's (or a function's) inclusive and self costs. */
static inline void
strobe_memory_tree_costs (StrobeCostTree *tree, guint32 node, StrobeMemoryCosts *inclusive,
                          StrobeMemoryCosts *self)
{
  guint64 v[STROBE_MEMORY_N_COLS], s[STROBE_MEMORY_N_COLS];

  for (guint c = 0; c < STROBE_MEMORY_N_COLS; c++)
    {
      v[c] = strobe_cost_tree_get_inclusive (tree, node, c);
      s[c] = strobe_cost_tree_get_self (tree, node, c);
    }
  strobe_memory_costs_from_values (v, inclusive);
  strobe_memory_costs_from_values (s, self);
}

/* The frame kept for @node. */
void            strobe_memory_tree_get_frame     (StrobeMemoryTree  *self,
                                                  guint32            node,
                                                  StrobeMemoryFrame *frame,
                                                  guint32           *inline_depth);

/* Between two chunks of a query: FALSE (and @error) when it was cancelled; progress said. */
static inline gboolean
strobe_memory_query_check (GCancellable *cancellable, GError **error, StrobeMemoryProgressFunc progress,
                           gpointer data, gdouble done)
{
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (progress)
    progress (CLAMP (done, 0.0, 1.0), data);
  return TRUE;
}

/* The bytes an allocation counts for: none for a block that backs another heap (its bytes
 * are the allocations made in it). */
static inline gint64
strobe_memory_alloc_counted (const StrobeMemoryAlloc *r)
{
  return (r->flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? 0 : strobe_memory_signed_size (r->size);
}

/* A new empty list of the same model and moment as @self; @r (read from @self) appended
 * to it as record @index. */
StrobeMemoryAllocList *_strobe_memory_alloc_list_new_like (StrobeMemoryAllocList   *self);
/* Items [@first, @first + @n) with only what groups need, read faster: size, heap, tag,
 * callstack, thread_id and flags as listed; free_time STROBE_MEMORY_LIVE or 0 (freed);
 * alloc_time and address 0. */
guint           _strobe_memory_alloc_list_get_keys (StrobeMemoryAllocList *self,
                                                    guint64                first,
                                                    guint                  n,
                                                    StrobeMemoryAlloc     *out,
                                                    guint64               *indexes);
/* @self (a new reference), or a copy of it in allocation order when it fits. */
StrobeMemoryAllocList *_strobe_memory_alloc_list_in_allocation_order (StrobeMemoryAllocList *self);
void            _strobe_memory_alloc_list_append (StrobeMemoryAllocList   *self,
                                                  guint64                  index,
                                                  const StrobeMemoryAlloc *r);

G_END_DECLS
