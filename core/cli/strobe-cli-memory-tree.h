/* strobe-cli-memory-tree.h — the memory subcommand's call trees, on the one cost tree
 * (strobe-cli-memory-tree.c): heaptrack_print's top-down and bottom-up trees, a
 * function's callers and callees, and folded stacks for flamegraph.pl or speedscope.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-query.h"

G_BEGIN_DECLS

/* "top-down", "bottom-up". */
gboolean strobe_cli_memory_parse_tree   (const char *s, StrobeMemoryTreeKind *kind);
/* "peak", "leaked", "allocations", "temporary", "bytes". */
gboolean strobe_cli_memory_parse_cost   (const char *s, StrobeMemoryCost *cost);
/* Each returns a STROBE_CLI_* code. */
int      strobe_cli_memory_print_tree   (StrobeMemoryModel *model, guint64 t0, guint64 t1,
                                         StrobeMemoryTreeKind kind, StrobeMemoryCost cost,
                                         gdouble min_percent);
/* Every function whose name contains @function. */
int      strobe_cli_memory_print_callers (StrobeMemoryModel *model, guint64 t0, guint64 t1,
                                          StrobeMemoryCost cost, const char *function);
/* One line per call path that allocated: "outer;…;inner value". */
int      strobe_cli_memory_print_flame  (StrobeMemoryModel *model, guint64 t0, guint64 t1,
                                         StrobeMemoryCost cost);

G_END_DECLS
