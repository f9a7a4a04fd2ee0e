/* strobe-compare-memory.h — memory A vs B: heaptrack's costs of each trace over its span
 * (the memory queries' aggregation, the figures `strobe-cli memory --by` prints), in total
 * and per allocation site, sites matched by what people call them — a function's name, a
 * symbolized stack, a tag's or heap's name — since ids and addresses differ between two
 * runs.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-compare-range.h"
#include "strobe-compare-timers.h"
#include "strobe-memory-query.h"

G_BEGIN_DECLS

typedef struct
{
  char              *name;   /* "(no stack)" for allocations without one */
  StrobeCompareIn    in;
  StrobeMemoryCosts  a, b;   /* zero where the site is not in that trace */
} StrobeCompareMemorySite;

typedef enum
{
  STROBE_COMPARE_MEM_PEAK,
  STROBE_COMPARE_MEM_LEAKED,
  STROBE_COMPARE_MEM_ALLOCATIONS,
  STROBE_COMPARE_MEM_TEMPORARY,
  STROBE_COMPARE_MEM_BYTES,
  STROBE_COMPARE_MEM_N_COSTS,
} StrobeCompareMemoryCost;

typedef struct
{
  StrobeMemoryCosts totals_a, totals_b;   /* of everything in each span */
  GArray           *sites;                /* StrobeCompareMemorySite, by name */
} StrobeCompareMemory;

/* "peak", "leaked", "allocations", "temporary", "bytes"; parse: N_COSTS when unknown. */
const char              *strobe_compare_memory_cost_name  (StrobeCompareMemoryCost cost);
StrobeCompareMemoryCost  strobe_compare_memory_cost_parse (const char *name);
/* Peak and leaked in bytes; the rest counts (bytes: bytes allocated). */
gdouble                  strobe_compare_memory_value      (const StrobeMemoryCosts *costs,
                                                           StrobeCompareMemoryCost cost);

/* Both documents need their memory model; @by is FUNCTION, STACK, TAG or HEAP. Symbolizes
 * the frames of each trace with its own module map. NULL with @error when cancelled. */
StrobeCompareMemory *strobe_compare_memory      (StrobeDocument *a, const StrobeCompareSpan *span_a,
                                                 StrobeDocument *b, const StrobeCompareSpan *span_b,
                                                 StrobeMemoryGroupBy by, GCancellable *cancellable,
                                                 GError **error);
void                 strobe_compare_memory_free (StrobeCompareMemory *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCompareMemory, strobe_compare_memory_free)

G_END_DECLS
