/* summary-compare.h — checks that a summary memory model (strobe_memory_model_new_summary)
 * reads a trace to what a full model gives, and that `strobe-cli memory` prints the same
 * bytes either way (summary-compare.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"

G_BEGIN_DECLS

/* Asserts @full and @summary (both read to the end) agree: summary, heaps, tags, leaks
 * and every leak's record. Returns how many leaks were compared. */
guint summary_compare_models (StrobeMemoryModel *full, StrobeMemoryModel *summary);
/* Reads @trace into both kinds of model and compares them; then, when @cli is not NULL,
 * runs `@cli memory @args… @trace` with a summary and with a full model
 * (STROBE_CLI_MEMORY_FULL=1) and asserts the outputs are the same bytes and not empty.
 * Returns the leaks compared. */
guint summary_compare_trace (const char *trace, const char *cli, const char *const *args);

G_END_DECLS
