/* strobe-cli-memory-report.h — the memory subcommand's reports of where memory went
 * (strobe-cli-memory-report.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-query.h"
#include "strobe-symbolizer.h"

G_BEGIN_DECLS

/* "stack", "function", "tag", "heap", "size", "thread". */
gboolean strobe_cli_memory_parse_by     (const char *s, StrobeMemoryGroupBy *by);
/* "live-at", "allocated", "allocated-live", "freed", "leaks", "short-lived", "long-lived". */
gboolean strobe_cli_memory_parse_query  (const char *s, StrobeMemorySelect *kind);
/* What a late or damaged trace does not know, if anything. */
void     strobe_cli_memory_print_notice (const StrobeMemorySummary *s);
void     strobe_cli_memory_print_stack  (StrobeMemoryModel *model, StrobeSymbolizer *sym, guint32 id,
                                         const char *indent);
/* The groups by peak contribution, with heaptrack's four costs; a STROBE_CLI_* code. */
int      strobe_cli_memory_print_by     (StrobeMemoryModel *model, StrobeMemoryGroupBy by, guint64 t0,
                                         guint64 t1, gint top, gboolean stacks);
/* The viewer's query @sel: its totals and its groups by each of @by_names (checked with
 * strobe_cli_memory_parse_by; NULL: none), as the viewer's groups table; a STROBE_CLI_* code. */
int      strobe_cli_memory_print_query  (StrobeMemoryModel *model, const StrobeMemorySelection *sel,
                                         const char *const *by_names, gint top);

G_END_DECLS
