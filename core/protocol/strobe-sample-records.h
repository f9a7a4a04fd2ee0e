/* strobe-sample-records.h — the record grammar inside Sampling.Batch's Data array
 * (PROTOCOL.md §5, "Sampling events"), shared by the runtime that writes it and the
 * analysis that reads it. Header-only and dependency-free, like strobe-memory-records.h,
 * whose varints it uses.
 *
 * A record is one varint (delta << 2 | kind): the time since the previous record of the
 * batch (the first: since the batch's Base), in trace clock ticks, and what happened
 * then. A SAMPLE record is followed by a varint: the call stack's id in the stack trie
 * (Memory.StackNodes; 0: no stack). So a sample of a loop costs 3 to 6 bytes before LZ4.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-records.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  STROBE_SAMPLEREC_SAMPLE      = 0,   /* the thread was on a CPU: a varint stack id follows */
  STROBE_SAMPLEREC_SWITCH_IN   = 1,   /* the thread was put on a CPU */
  STROBE_SAMPLEREC_PREEMPTED   = 2,   /* taken off a CPU while it could still run */
  STROBE_SAMPLEREC_WAITING     = 3,   /* left the CPU to wait (sleep, lock, I/O) */
} StrobeSamplerecKind;

/* At most 20 bytes: two varints. */
#define STROBE_SAMPLEREC_MAX 20u

static inline uint8_t *
strobe_samplerec_put (uint8_t *p, uint64_t delta, StrobeSamplerecKind kind, uint32_t stack)
{
  /* A delta of 2^62 ticks or more cannot be written: it is years of any clock. */
  if (delta >= (UINT64_C (1) << 62))
    delta = (UINT64_C (1) << 62) - 1;
  p = strobe_memrec_put_varint (p, delta << 2 | (uint64_t) kind);
  if (kind == STROBE_SAMPLEREC_SAMPLE)
    p = strobe_memrec_put_varint (p, stack);
  return p;
}

/* Reads the record at *@p: its time (*@time advanced by its delta), kind and stack (0 for
 * the other kinds). False, *@p unchanged, when it runs past @end or is malformed (a stack
 * id beyond 32 bits): the rest of the batch is then unreadable. */
static inline bool
strobe_samplerec_next (const uint8_t **p, const uint8_t *end, uint64_t *time,
                       StrobeSamplerecKind *kind, uint32_t *stack)
{
  const uint8_t *q = *p;
  uint64_t v;

  if (!strobe_memrec_get_varint (&q, end, &v))
    return false;
  *kind = (StrobeSamplerecKind) (v & 3u);
  *stack = 0;
  if (*kind == STROBE_SAMPLEREC_SAMPLE && !strobe_memrec_get_u32 (&q, end, stack))
    return false;
  *time += v >> 2;
  *p = q;
  return true;
}

#ifdef __cplusplus
}
#endif
