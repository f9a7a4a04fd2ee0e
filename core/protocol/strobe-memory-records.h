/* strobe-memory-records.h — the record grammar inside the Memory channel's array fields
 * (Memory.Batch, Memory.Live, Memory.StackNodes; runtime/INSTRUMENTATION.md, Memory),
 * shared by the runtime that writes them and the analysis that reads them. Header-only
 * and dependency-free: the runtime and the GLib side both include it, and C++ compiles it.
 *
 * Varints are LEB128 (7 bits a byte, low first, at most 10 bytes); "zigzag" maps a signed
 * value to (v << 1) ^ (v >> 63). The decoders never read past @end and reject a varint
 * longer than 10 bytes or one that overflows 64 bits.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Memory.Batch: one thread's allocation records -------------------------------- */

/* The low 3 bits of a record's first byte. */
enum
{
  STROBE_MEMREC_ALLOC = 0,          /* a new allocation: id = ++alloc counter */
  STROBE_MEMREC_FREE = 1,           /* frees id (alloc counter - d) of this thread: d < 31
                                     * in the first byte's high 5 bits as d + 1; 0 there:
                                     * varint (d << 1 | freed-by-realloc) follows */
  STROBE_MEMREC_FREE_REMOTE = 2,    /* frees (thread, id) of another thread */
  STROBE_MEMREC_REALLOC = 3,        /* frees (counter - d), then an allocation as ALLOC */
  STROBE_MEMREC_REALLOC_REMOTE = 4, /* frees (thread, id), then an allocation as ALLOC */
  STROBE_MEMREC_TIME = 5,           /* time += varint units */
  STROBE_MEMREC_UNTRACKED = 6,      /* a free of a block the runtime never saw allocated */
  STROBE_MEMREC_EXT = 7,            /* the next byte says which (STROBE_MEMREC_EXT_*) */
};

/* Flags of the records that allocate (ALLOC, REALLOC, REALLOC_REMOTE). The heap, tag and
 * stack are sticky: a record without the flag has the previous record's value. */
#define STROBE_MEMREC_F_STACK  0x08u   /* zigzag varint: stack id - the previous one */
#define STROBE_MEMREC_F_TAG    0x10u   /* varint tag follows */
#define STROBE_MEMREC_F_HEAP   0x20u   /* varint heap id follows */
#define STROBE_MEMREC_F_ALIGN  0x40u   /* one byte follows: log2 of the alignment */
#define STROBE_MEMREC_F_ADDR   0x80u   /* varint address follows */
/* UNTRACKED: the free half of a realloc (its new block follows as an ALLOC).
 * FREE_REMOTE: freed by realloc (size 0); FREE says it in its varint. */
#define STROBE_MEMREC_F_REALLOC 0x08u
/* FREE's short form: distances 0..30 in the first byte. */
#define STROBE_MEMREC_FREE_SHORT_MAX 30u

enum
{
  STROBE_MEMREC_EXT_MARK = 1,       /* varint thread (0: this one), varint id, varint heap */
  STROBE_MEMREC_EXT_UNMARK = 2,     /* varint thread, varint id */
  STROBE_MEMREC_EXT_FREE_ALL = 3,   /* varint heap */
  STROBE_MEMREC_EXT_REPLACED = 4,   /* varint thread, varint id: ended unseen (its address
                                     * was allocated again) */
  STROBE_MEMREC_EXT_SYNC = 5,       /* varint: the thread's alloc counter is this (ids were
                                     * handed out while no records were written) */
};

/* Kinds as decoded: the EXT ones after the 8 basic kinds. */
enum
{
  STROBE_MEMREC_MARK = 8 + STROBE_MEMREC_EXT_MARK,
  STROBE_MEMREC_UNMARK = 8 + STROBE_MEMREC_EXT_UNMARK,
  STROBE_MEMREC_FREE_ALL = 8 + STROBE_MEMREC_EXT_FREE_ALL,
  STROBE_MEMREC_REPLACED = 8 + STROBE_MEMREC_EXT_REPLACED,
  STROBE_MEMREC_SYNC = 8 + STROBE_MEMREC_EXT_SYNC,
};

/* What a reader carries from one record to the next; Memory.Batch's scalar fields hold
 * it at the batch's first record. */
typedef struct
{
  uint64_t seq;     /* records of this thread before this one */
  uint64_t alloc;   /* the thread's last allocation id (ids start at 1) */
  uint64_t time;    /* in units of 2^Shift ticks */
  uint32_t heap;
  uint32_t tag;
  uint32_t stack;
} StrobeMemrecState;

typedef struct
{
  uint8_t  kind;        /* STROBE_MEMREC_*, EXT ones decoded */
  uint8_t  align_log2;  /* allocating records; 0 = the allocator's default */
  bool     realloc;     /* UNTRACKED: realloc's free half */
  bool     has_address;
  uint16_t ref_thread;  /* thread of ref_id; 0 = the batch's */
  uint64_t ref_id;      /* the allocation freed, marked, unmarked or replaced */
  uint64_t id;          /* the allocation started (allocating records) */
  uint64_t size;
  uint64_t address;
  uint32_t heap;        /* allocating records and FREE_ALL/MARK: the heap */
  uint32_t tag;
  uint32_t stack;
  uint64_t time;        /* units, after this record */
} StrobeMemrec;

static inline uint8_t *
strobe_memrec_put_varint (uint8_t *p, uint64_t v)
{
  while (v >= 0x80)
    {
      *p++ = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  *p++ = (uint8_t) v;
  return p;
}

static inline uint64_t
strobe_memrec_zigzag (int64_t v)
{
  return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static inline int64_t
strobe_memrec_unzigzag (uint64_t v)
{
  return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

/* Reads a varint at *p; false (and *p unchanged) when it runs past @end or is malformed. */
static inline bool
strobe_memrec_get_varint (const uint8_t **p, const uint8_t *end, uint64_t *out)
{
  const uint8_t *q = *p;
  uint64_t v = 0;

  for (unsigned shift = 0; q < end && shift < 64; shift += 7)
    {
      uint8_t b = *q++;

      if (shift == 63 && b > 1)
        return false;
      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *p = q;
          *out = v;
          return true;
        }
    }
  return false;
}

static inline bool
strobe_memrec_get_u32 (const uint8_t **p, const uint8_t *end, uint32_t *out)
{
  uint64_t v;

  if (!strobe_memrec_get_varint (p, end, &v) || v > UINT32_MAX)
    return false;
  *out = (uint32_t) v;
  return true;
}

/* The sticky stack after a flagged record: the previous one plus a zigzag delta, which
 * must stay a 32-bit id. */
static inline bool
strobe_memrec_get_stack (const uint8_t **p, const uint8_t *end, uint32_t *stack)
{
  uint64_t v;
  int64_t next;

  if (!strobe_memrec_get_varint (p, end, &v) || v > 0x1ffffffffull)
    return false;
  next = (int64_t) *stack + strobe_memrec_unzigzag (v);
  if (next < 0 || next > (int64_t) UINT32_MAX)
    return false;
  *stack = (uint32_t) next;
  return true;
}

static inline bool
strobe_memrec_get_thread (const uint8_t **p, const uint8_t *end, uint16_t *out)
{
  uint64_t v;

  if (!strobe_memrec_get_varint (p, end, &v) || v > UINT16_MAX)
    return false;
  *out = (uint16_t) v;
  return true;
}

/* The allocating tail of ALLOC/REALLOC*: flags' fields, then the size. */
static inline bool
strobe_memrec_get_alloc (const uint8_t **p, const uint8_t *end, uint8_t h, StrobeMemrecState *s,
                         StrobeMemrec *r)
{
  if ((h & STROBE_MEMREC_F_STACK) && !strobe_memrec_get_stack (p, end, &s->stack))
    return false;
  if ((h & STROBE_MEMREC_F_TAG) && !strobe_memrec_get_u32 (p, end, &s->tag))
    return false;
  if ((h & STROBE_MEMREC_F_HEAP) && !strobe_memrec_get_u32 (p, end, &s->heap))
    return false;
  if (h & STROBE_MEMREC_F_ALIGN)
    {
      if (*p >= end || **p > 63)
        return false;
      r->align_log2 = *(*p)++;
    }
  if ((h & STROBE_MEMREC_F_ADDR) && !strobe_memrec_get_varint (p, end, &r->address))
    return false;
  r->has_address = (h & STROBE_MEMREC_F_ADDR) != 0;
  if (!strobe_memrec_get_varint (p, end, &r->size))
    return false;
  if (s->alloc == UINT64_MAX)
    return false;
  r->id = ++s->alloc;
  r->heap = s->heap;
  r->tag = s->tag;
  r->stack = s->stack;
  return true;
}

/* Decodes one record at @p; returns the bytes it took, 0 when it is malformed or cut
 * (then @s is unspecified: stop reading this batch). */
static inline size_t
strobe_memrec_decode (const uint8_t *p, const uint8_t *end, StrobeMemrecState *s, StrobeMemrec *r)
{
  const uint8_t *q = p;
  uint64_t d;
  uint8_t h;

  if (q >= end)
    return 0;
  memset (r, 0, sizeof *r);
  h = *q++;
  r->kind = h & 7u;
  switch (r->kind)
    {
    case STROBE_MEMREC_ALLOC:
      if (!strobe_memrec_get_alloc (&q, end, h, s, r))
        return 0;
      break;

    case STROBE_MEMREC_FREE:
      if (h >> 3)
        d = (h >> 3) - 1u;
      else
        {
          if (!strobe_memrec_get_varint (&q, end, &d))
            return 0;
          r->realloc = (d & 1u) != 0;
          d >>= 1;
        }
      if (d >= s->alloc)
        return 0;
      r->ref_id = s->alloc - d;
      break;

    case STROBE_MEMREC_REALLOC:
      if (!strobe_memrec_get_varint (&q, end, &d) || d >= s->alloc)
        return 0;
      r->ref_id = s->alloc - d;
      if (!strobe_memrec_get_alloc (&q, end, h, s, r))
        return 0;
      break;

    case STROBE_MEMREC_FREE_REMOTE:
    case STROBE_MEMREC_REALLOC_REMOTE:
      if (!strobe_memrec_get_thread (&q, end, &r->ref_thread)
          || !strobe_memrec_get_varint (&q, end, &r->ref_id))
        return 0;
      r->realloc = r->kind == STROBE_MEMREC_FREE_REMOTE && (h & STROBE_MEMREC_F_REALLOC);
      if (r->kind == STROBE_MEMREC_REALLOC_REMOTE && !strobe_memrec_get_alloc (&q, end, h, s, r))
        return 0;
      break;

    case STROBE_MEMREC_TIME:
      if (!strobe_memrec_get_varint (&q, end, &d) || s->time + d < s->time)
        return 0;
      s->time += d;
      break;

    case STROBE_MEMREC_UNTRACKED:
      r->realloc = (h & STROBE_MEMREC_F_REALLOC) != 0;
      break;

    default:   /* EXT */
      if (q >= end)
        return 0;
      r->kind = (uint8_t) (8 + *q++);
      switch (r->kind)
        {
        case STROBE_MEMREC_MARK:
        case STROBE_MEMREC_UNMARK:
        case STROBE_MEMREC_REPLACED:
          if (!strobe_memrec_get_thread (&q, end, &r->ref_thread)
              || !strobe_memrec_get_varint (&q, end, &r->ref_id))
            return 0;
          if (r->kind == STROBE_MEMREC_MARK && !strobe_memrec_get_u32 (&q, end, &r->heap))
            return 0;
          break;
        case STROBE_MEMREC_FREE_ALL:
          if (!strobe_memrec_get_u32 (&q, end, &r->heap))
            return 0;
          break;
        case STROBE_MEMREC_SYNC:
          if (!strobe_memrec_get_varint (&q, end, &s->alloc))
            return 0;
          break;
        default:
          return 0;
        }
      break;
    }
  r->time = s->time;
  s->seq++;
  return (size_t) (q - p);
}

/* FREE of the allocation @d back from the counter, at @p (at most 11 bytes). */
static inline uint8_t *
strobe_memrec_put_free (uint8_t *p, uint64_t d, bool realloc)
{
  if (d <= STROBE_MEMREC_FREE_SHORT_MAX && !realloc)
    {
      *p++ = (uint8_t) (STROBE_MEMREC_FREE | ((d + 1u) << 3));
      return p;
    }
  *p++ = STROBE_MEMREC_FREE;
  return strobe_memrec_put_varint (p, d << 1 | (realloc ? 1u : 0u));
}

/* ---- Memory.Batch: records and their times ------------------------------------------ *
 *
 * The runtime writes TIME records inline; the updater moves them out of Data into the
 * batch's Times array, pairs (varint n, varint d): "after n more records of Data, a TIME
 * record of d" — so a loop's records repeat byte for byte whatever the clock did, and LZ4
 * finds them. A reader puts them back where they were (each counts in Seq as the TIME
 * record it was). Data may still hold TIME records. */

typedef struct
{
  const uint8_t *p, *end;      /* Data */
  const uint8_t *tp, *tend;    /* Times */
  uint64_t       left;         /* records of Data before the pending mark */
  uint64_t       delta;        /* the pending mark's time */
  bool           mark;         /* a mark is pending */
} StrobeMemrecBatch;

static inline bool
strobe_memrec_batch_next_mark (StrobeMemrecBatch *b)
{
  b->mark = false;
  if (b->tp >= b->tend)
    return true;
  if (!strobe_memrec_get_varint (&b->tp, b->tend, &b->left)
      || !strobe_memrec_get_varint (&b->tp, b->tend, &b->delta))
    return false;
  b->mark = true;
  return true;
}

/* False when Times is malformed. */
static inline bool
strobe_memrec_batch_init (StrobeMemrecBatch *b, const uint8_t *data, size_t len,
                          const uint8_t *times, size_t times_len)
{
  b->left = 0;
  b->delta = 0;
  b->p = data;
  b->end = data + len;
  b->tp = times;
  b->tend = times + times_len;
  return strobe_memrec_batch_next_mark (b);
}

/* The next record, a Times mark coming back as a TIME record: 1 and *r, 0 at the end,
 * -1 when Data or Times is malformed (a mark past the last record is one). */
static inline int
strobe_memrec_batch_next (StrobeMemrecBatch *b, StrobeMemrecState *s, StrobeMemrec *r)
{
  size_t n;

  if (b->mark && b->left == 0)
    {
      if (s->time + b->delta < s->time)
        return -1;
      memset (r, 0, sizeof *r);
      r->kind = STROBE_MEMREC_TIME;
      s->time += b->delta;
      r->time = s->time;
      s->seq++;
      return strobe_memrec_batch_next_mark (b) ? 1 : -1;
    }
  if (b->p >= b->end)
    return b->mark || b->tp < b->tend ? -1 : 0;
  if ((n = strobe_memrec_decode (b->p, b->end, s, r)) == 0)
    return -1;
  b->p += n;
  if (b->mark)
    b->left--;
  return 1;
}

/* The time of a Memory.Batch's first and last record, in units: @time is its Time field,
 * @times its Times array. The first is @time unless that is 0 (no time yet: the first
 * TIME pair gives it). False when no time is known or the array is malformed. */
static inline bool
strobe_memrec_batch_time_range (uint64_t time, const uint8_t *times, size_t len,
                                uint64_t *first, uint64_t *last)
{
  const uint8_t *p = times, *end = times + len;
  uint64_t t = time, n, d;

  *first = *last = time;
  while (p < end)
    {
      if (!strobe_memrec_get_varint (&p, end, &n) || !strobe_memrec_get_varint (&p, end, &d)
          || t + d < t)
        return false;
      t += d;
      if (*first == 0)
        *first = t;
    }
  *last = t;
  return *first != 0;
}

/* ---- Memory.Live: the live allocations at a moment (a late connect) --------------- */

enum
{
  STROBE_MEMLIVE_THREAD = 1,   /* varint thread, varint alloc counter at the snapshot */
  STROBE_MEMLIVE_ENTRY = 2,    /* varint thread, id, size, heap, tag, stack, time (units),
                                * one byte log2 alignment, varint address */
};

/* Memory.Live Flags */
#define STROBE_MEMLIVE_COMPLETE 0x1u   /* the table saw every allocation since tracing could start */
#define STROBE_MEMLIVE_FIRST    0x2u
#define STROBE_MEMLIVE_LAST     0x4u

typedef struct
{
  uint8_t  type;        /* STROBE_MEMLIVE_* */
  uint8_t  align_log2;
  uint16_t thread;
  uint64_t id;          /* ENTRY: its id; THREAD: the thread's alloc counter */
  uint64_t size;
  uint64_t time;
  uint64_t address;
  uint32_t heap;
  uint32_t tag;
  uint32_t stack;
} StrobeMemliveItem;

static inline size_t
strobe_memlive_decode (const uint8_t *p, const uint8_t *end, StrobeMemliveItem *it)
{
  const uint8_t *q = p;

  if (q >= end)
    return 0;
  memset (it, 0, sizeof *it);
  it->type = *q++;
  if (!strobe_memrec_get_thread (&q, end, &it->thread) || !strobe_memrec_get_varint (&q, end, &it->id))
    return 0;
  if (it->type == STROBE_MEMLIVE_THREAD)
    return (size_t) (q - p);
  if (it->type != STROBE_MEMLIVE_ENTRY
      || !strobe_memrec_get_varint (&q, end, &it->size)
      || !strobe_memrec_get_u32 (&q, end, &it->heap)
      || !strobe_memrec_get_u32 (&q, end, &it->tag)
      || !strobe_memrec_get_u32 (&q, end, &it->stack)
      || !strobe_memrec_get_varint (&q, end, &it->time)
      || q >= end || *q > 63)
    return 0;
  it->align_log2 = *q++;
  if (!strobe_memrec_get_varint (&q, end, &it->address))
    return 0;
  return (size_t) (q - p);
}

/* ---- Memory.StackNodes: the call-stack trie -------------------------------------- *
 * Node ids from First on, one per node: varint (id - parent) (>= 1; parent 0 is the
 * root), varint zigzag (address - parent's address) (the root's address is 0). A stack id
 * is its innermost frame's node; following parents gives the callers. */

/* The outermost "frame" of a stack cut at the runtime's depth limit (strobe-memory.h,
 * strobe_memory_set_stack_depth): not an address. Every cut stack hangs under this one
 * root node, which viewers name "[truncated]" instead of taking the cut stack's outermost
 * caller for a root. */
#define STROBE_MEMNODE_TRUNCATED 1u

static inline size_t
strobe_memnode_decode (const uint8_t *p, const uint8_t *end, uint32_t id, uint32_t *parent,
                       int64_t *address_delta)
{
  const uint8_t *q = p;
  uint64_t d, a;

  if (!strobe_memrec_get_varint (&q, end, &d) || d == 0 || d > id
      || !strobe_memrec_get_varint (&q, end, &a))
    return 0;
  *parent = (uint32_t) (id - d);
  *address_delta = strobe_memrec_unzigzag (a);
  return (size_t) (q - p);
}

#ifdef __cplusplus
}
#endif
