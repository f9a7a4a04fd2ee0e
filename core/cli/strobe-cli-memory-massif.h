/* strobe-cli-memory-massif.h — `strobe-cli memory --massif`: the trace as valgrind's
 * massif would have written it, for ms_print and massif-visualizer
 * (strobe-cli-memory-massif.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analysis.h"
#include "strobe-memory-query.h"

G_BEGIN_DECLS

/* Snapshots of the heap over the trace (times in ms from its start), every tenth and the
 * peak with the tree of what was live then by call stack (allocation sites first, then
 * their callers; nodes under @threshold percent of the snapshot merged, as massif's
 * --threshold). @cmd is the "cmd:" line. A STROBE_CLI_* code. */
int strobe_cli_memory_print_massif (StrobeMemoryModel *model, const StrobeTraceClock *clock, const char *cmd,
                                    gdouble threshold);

G_END_DECLS
