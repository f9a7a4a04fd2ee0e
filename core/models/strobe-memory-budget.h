/* strobe-memory-budget.h — how much a model may keep before it counts instead of keeping.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64  bytes;   /* what the model may hold now: compare before calling _exceeded() */
  guint64  cap;     /* never more than this (half of MemAvailable, or what was set) */
  gboolean final;   /* looked again and nothing more fits */
} StrobeMemoryBudget;

void     strobe_memory_budget_init     (StrobeMemoryBudget *budget,
                                        guint64             cap);
gboolean strobe_memory_budget_exceeded (StrobeMemoryBudget *budget,
                                        guint64             used);
guint64  strobe_memory_budget_room     (void);
/* Whether @bytes more fit now — in half of what the hard limits leave (the models stop
 * short of it) and in what the machine has left (MemAvailable less its reserve): for a
 * query's answer, asked before it is made. */
gboolean strobe_memory_budget_fits     (guint64             bytes);
/* Tests: read the machine's memory from @path instead of /proc/meminfo (NULL: back). */
void     strobe_memory_budget_set_test_meminfo (const char *path);

/* The check a model makes for each thing it would keep: /proc is read only at the budget. */
static inline gboolean
strobe_memory_budget_over (StrobeMemoryBudget *budget,
                           guint64             used)
{
  return G_UNLIKELY (used >= budget->bytes) && strobe_memory_budget_exceeded (budget, used);
}

G_END_DECLS
