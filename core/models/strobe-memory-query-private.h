/* strobe-memory-query-private.h — heaptrack's costs as the columns of a StrobeCostTree,
 * shared by the memory call trees and their callers view.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-cost-tree.h"
#include "strobe-memory-query.h"

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

G_END_DECLS
