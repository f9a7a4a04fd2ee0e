/* strobe-scope-track.h — the scopes of one thread at one depth, packed: what the timeline
 * model keeps of every scope (about 4–6 bytes) and how the timer statistics, the call tree,
 * scope search and the timeline's drawing read it back. Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "strobe-timer-summary.h"

G_BEGIN_DECLS

/* Scopes at one depth of one thread never overlap, and a scope is appended when it ends:
 * a track is sorted by begin and by end at once. It is cut into chunks of
 * STROBE_SCOPE_CHUNK scopes (the last one filling); each chunk's scopes are a byte string
 * of records, three LEB128 varints each — the gap since the previous scope's end
 * (zigzag-signed: a broken clock may go back), the duration, the name id — so the common
 * scope takes 4 or 5 bytes where fixed fields took 12. A chunk's header holds what a
 * binary search needs (its first begin, last begin and last end), so a position is found
 * by a search over the headers and a walk of at most one chunk. The rare flags
 * (STROBE_SCOPE_CLOSED_AT_END) are a side table by index. */
#define STROBE_SCOPE_CHUNK_SHIFT 7
#define STROBE_SCOPE_CHUNK       (1u << STROBE_SCOPE_CHUNK_SHIFT)
/* A record's longest encoding: two 64-bit varints and a 32-bit one. */
#define STROBE_SCOPE_REC_MAX     25

typedef struct
{
  guint64        base;        /* begin of its first scope */
  guint64        last_begin;  /* of its last scope */
  guint64        last_end;
  const guint8  *data;        /* the records; the filling chunk's are the track's buffer */
} StrobeScopeChunk;

typedef struct
{
  guint64 index;              /* of the scope in the track */
  guint8  flags;
} StrobeScopeFlag;

typedef struct
{
  GArray  *chunks;            /* StrobeScopeChunk */
  GArray  *flags;             /* StrobeScopeFlag by index; NULL while none */
  guint64  n;                 /* scopes */
  guint8  *fill;              /* the last chunk's records while it fills (NULL when done) */
  guint32  fill_len;
  guint32  fill_cap;          /* 0 while fill is NULL */
  /* The last of chunks, for the append's fast path: one load instead of three. */
  StrobeScopeChunk *tail;
  /* tail->last_end, read by the next append without waiting for the load of tail. */
  guint64  last_end;
  /* The filling chunk's scopes as the timers' summary takes them when it is full, grown
   * with it up to a chunk. */
  StrobeTimerSummaryScope *side;
  guint32  side_cap;
  StrobeTimerSummary *summary;  /* NULL until a chunk is full */
} StrobeScopeTrack;

/* Where full chunks' records go: large blocks written front to back, freed with the model.
 * bytes counts everything the tracks hold — the blocks' used part, the filling buffers'
 * capacity, chunk headers and flags — for the model's memory budget. */
typedef struct _StrobeScopeArena
{
  GPtrArray *blocks;          /* guint8 *, STROBE_SCOPE_ARENA_BLOCK bytes each (mapped) */
  gsize      used;            /* of the last block */
  gsize      bytes;
  GPtrArray *spill;           /* fill buffers kept as chunks when no block could be mapped */
  gboolean   full;            /* a block could not be mapped: the model keeps no more */
  guint8    *next;            /* the block after the last, mapped ahead */
  GThread   *prefault;        /* faulting @next in, while the last one fills */
  /* The tracks' timer summaries are built on this thread (made when a first chunk fills)
   * when summaries_apart, on the model's thread otherwise; bytes counts theirs too. */
  StrobeTimerSummaryWorker *summaries;
  gboolean   summaries_apart;
  /* Where the worker stores the blocks (its thread alone): mapped as the chunks are. */
  struct _StrobeScopeArena *summary_blocks;
} StrobeScopeArena;

/* A position in a track, with its scope decoded. Valid while ci < the chunks; walking it
 * forward (strobe_scope_pos_next) reads one record. */
typedef struct
{
  guint   ci;                 /* chunk */
  guint   pi;                 /* scope in the chunk */
  guint   off;                /* bytes of the chunk read (the next record starts there) */
  guint   fi;                 /* first flags entry at or after this scope */
  guint64 begin;
  guint64 end;
  guint32 name;
  guint8  flags;
} StrobeScopePos;

/* @summaries_apart: the tracks' timer summaries built on a thread of their own. */
void              strobe_scope_arena_init  (StrobeScopeArena *arena, gboolean summaries_apart);
/* Before the tracks are freed when summaries are built apart (it stops their worker,
 * dropping what was queued); the tracks read nothing of it when freed. */
void              strobe_scope_arena_clear (StrobeScopeArena *arena);
/* Returns once the summaries hold every block queued so far (and bytes counts them); the
 * worker's thread and queue go until more chunks fill. */
void              strobe_scope_arena_sync_summaries (StrobeScopeArena *arena);

StrobeScopeTrack *strobe_scope_track_new    (StrobeScopeArena *arena);
/* Frees the track; its full chunks stay in the arena until that is cleared. */
void              strobe_scope_track_free   (gpointer track);
void              strobe_scope_track_append_slow (StrobeScopeArena *arena, StrobeScopeTrack *t, guint64 begin,
                                                  guint64 end, guint32 name_id, guint8 flags, guint64 children);
/* No more scopes for now (the trace ended): the filling chunk moves into the arena. More
 * may still be appended after. */
void              strobe_scope_track_finish (StrobeScopeArena *arena, StrobeScopeTrack *t);

/* First scope whose end is >= @time (an invalid position when none). */
StrobeScopePos strobe_scope_track_lower_bound_end   (const StrobeScopeTrack *t, guint64 time);
/* First scope whose begin is >= @time. */
StrobeScopePos strobe_scope_track_lower_bound_begin (const StrobeScopeTrack *t, guint64 time);
/* The scope of that index (< t->n). */
StrobeScopePos strobe_scope_track_seek (const StrobeScopeTrack *t, guint64 index);
/* The level of detail at [@t0, @t1] for a resolution of @r ticks: scopes at least @r long
 * as they are, runs of narrower ones as one StrobeTimelineBlock each, appended to @out
 * (what strobe_timeline_model_get_blocks() returns for a depth). */
void           strobe_scope_track_blocks (const StrobeScopeTrack *t, guint depth, guint64 t0, guint64 t1,
                                          guint64 r, GArray *out);

static inline guint
strobe_scope_chunk_count (const StrobeScopeTrack *t, guint ci)
{
  return ci + 1 < t->chunks->len ? STROBE_SCOPE_CHUNK
                                 : (guint) (t->n - ((guint64) ci << STROBE_SCOPE_CHUNK_SHIFT));
}

static inline const StrobeScopeChunk *
strobe_scope_chunk (const StrobeScopeTrack *t, guint ci)
{
  return &g_array_index (t->chunks, StrobeScopeChunk, ci);
}

/* Writes @v as a LEB128 varint at @p; returns the end. Up to 3 bytes are written
 * whatever @v's length (a value below 2^21: every record and block field but the rare
 * long one), without a branch on the length: gaps, durations and names of 1 or 2 bytes
 * alternate unpredictably, and the loop's exit mispredicted about once a record. The
 * caller has room for that much past any value. */
static inline guint8 *
strobe_scope_put_varint (guint8 *p, guint64 v)
{
  if (G_LIKELY (v < ((guint64) 1 << 21)))
    {
      guint32 x = (guint32) v;
      guint more1 = x >= 0x80, more2 = x >= 0x4000;

      p[0] = (guint8) (x | more1 << 7);
      p[1] = (guint8) ((x >> 7) | more2 << 7);
      p[2] = (guint8) (x >> 14);
      return p + 1 + more1 + more2;
    }
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

static inline guint64
strobe_scope_get_varint (const guint8 **pp)
{
  const guint8 *p = *pp;
  guint64 v = *p++, b;
  guint shift = 7;

  if (G_LIKELY (v < 0x80))
    {
      *pp = p;
      return v;
    }
  v &= 0x7f;
  do
    {
      b = *p++;
      v |= (b & 0x7f) << shift;
      shift += 7;
    }
  while (b >= 0x80 && shift < 64);
  *pp = p;
  return v;
}

/* A scope's record (the zigzagged gap, the duration, the name: STROBE_SCOPE_REC_MAX bytes
 * of room) at @p; returns its end. When all three are below 2^14 (nearly every scope) the
 * record is assembled in a register and written with one 8-byte store: nine byte stores
 * whose addresses hung on the lengths before them were a third of the model's append. */
static inline __attribute__ ((always_inline)) guint8 *
strobe_scope_put_record (guint8 *p, guint64 zgap, guint64 duration, guint32 name)
{
  if (G_LIKELY ((zgap | duration | name) < (1u << 14)))
    {
      guint64 m1 = zgap >= 0x80, m2 = duration >= 0x80, m3 = name >= 0x80;
      guint64 c1 = (zgap & 0x7f) | m1 << 7 | (zgap >> 7) << 8;
      guint64 c2 = (duration & 0x7f) | m2 << 7 | (duration >> 7) << 8;
      guint64 c3 = (name & 0x7f) | m3 << 7 | (guint64) (name >> 7) << 8;
      guint64 rec = GUINT64_TO_LE (c1 | c2 << (8 * (1 + m1)) | c3 << (8 * (2 + m1 + m2)));

      memcpy (p, &rec, sizeof rec);
      return p + 3 + m1 + m2 + m3;
    }
  p = strobe_scope_put_varint (p, zgap);
  p = strobe_scope_put_varint (p, duration);
  return strobe_scope_put_varint (p, name);
}

/* Reads the record at *@rec (moved past it): the scope's name returned, its begin and
 * end in @begin and @end — @end holding the previous scope's end (the chunk's base for
 * its first) on the way in. The common record (each field below 2^14, as
 * strobe_scope_put_record writes in one store) is read from one 8-byte load, its lengths
 * from the continuation bits: a branch on each varint's length mispredicted about twice a
 * scope. The records are followed by at least 8 bytes of their buffer (the arena keeps
 * that much at a block's end). */
static inline __attribute__ ((always_inline)) guint32
strobe_scope_record_next (const guint8 **rec, guint64 *begin, guint64 *end)
{
  guint64 x, m1, m2, m3, x2, x3, gap, duration;
  guint32 name;

  memcpy (&x, *rec, sizeof x);
  x = GUINT64_FROM_LE (x);
  m1 = (x >> 7) & 1;
  x2 = x >> (8 + 8 * m1);
  m2 = (x2 >> 7) & 1;
  x3 = x2 >> (8 + 8 * m2);
  m3 = (x3 >> 7) & 1;
  if (G_LIKELY ((((m1 & (x >> 15)) | (m2 & (x2 >> 15)) | (m3 & (x3 >> 15))) & 1) == 0))
    {
      gap = (x & 0x7f) | (((x >> 8) & 0x7f & (0 - m1)) << 7);
      duration = (x2 & 0x7f) | (((x2 >> 8) & 0x7f & (0 - m2)) << 7);
      name = (guint32) ((x3 & 0x7f) | (((x3 >> 8) & 0x7f & (0 - m3)) << 7));
      *rec += 3 + m1 + m2 + m3;
    }
  else
    {
      gap = strobe_scope_get_varint (rec);
      duration = strobe_scope_get_varint (rec);
      name = (guint32) strobe_scope_get_varint (rec);
    }
  *begin = *end + ((gap >> 1) ^ (0 - (gap & 1)));
  *end = *begin + duration;
  return name;
}

/* Reads the record at p->off of chunk p->ci; @prev_end: the previous scope's end (the
 * chunk's base for its first). */
static inline void
strobe_scope_pos_decode (const StrobeScopeTrack *t, StrobeScopePos *p, guint64 prev_end)
{
  const guint8 *start = strobe_scope_chunk (t, p->ci)->data + p->off, *d = start;

  p->end = prev_end;
  p->name = strobe_scope_record_next (&d, &p->begin, &p->end);
  p->off += (guint) (d - start);
  p->flags = 0;
  if (G_UNLIKELY (t->flags != NULL) && p->fi < t->flags->len)
    {
      const StrobeScopeFlag *f = &g_array_index (t->flags, StrobeScopeFlag, p->fi);
      if (f->index == ((guint64) p->ci << STROBE_SCOPE_CHUNK_SHIFT) + p->pi)
        {
          p->flags = f->flags;
          p->fi++;
        }
    }
}

static inline gboolean
strobe_scope_pos_valid (const StrobeScopeTrack *t, StrobeScopePos p)
{
  return p.ci < t->chunks->len;
}

static inline guint64
strobe_scope_pos_index (const StrobeScopeTrack *t, StrobeScopePos p)
{
  return strobe_scope_pos_valid (t, p) ? ((guint64) p.ci << STROBE_SCOPE_CHUNK_SHIFT) + p.pi : t->n;
}

static inline void
strobe_scope_pos_next (const StrobeScopeTrack *t, StrobeScopePos *p)
{
  if (++p->pi < strobe_scope_chunk_count (t, p->ci))
    {
      strobe_scope_pos_decode (t, p, p->end);
      return;
    }
  p->ci++;
  p->pi = 0;
  p->off = 0;
  if (p->ci < t->chunks->len)
    strobe_scope_pos_decode (t, p, strobe_scope_chunk (t, p->ci)->base);
}

static inline guint64
strobe_scope_begin_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  (void) t;
  return p.begin;
}

static inline guint64
strobe_scope_end_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  (void) t;
  return p.end;
}

static inline guint32
strobe_scope_name_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  (void) t;
  return p.name;
}

static inline guint8
strobe_scope_flags_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  (void) t;
  return p.flags;
}

/* Appends a scope that ended, whose direct children took @children ticks (the common
 * case inline — always: the model's walk calls it once a scope — room in the filling
 * chunk). */
static inline __attribute__ ((always_inline)) void
strobe_scope_track_append (StrobeScopeArena *arena, StrobeScopeTrack *t, guint64 begin, guint64 end,
                           guint32 name_id, guint8 flags, guint64 children)
{
  guint in_chunk = (guint) (t->n & (STROBE_SCOPE_CHUNK - 1));

  if (G_LIKELY (in_chunk != 0 && flags == 0 && t->fill_len + STROBE_SCOPE_REC_MAX <= t->fill_cap
                && in_chunk < t->side_cap))
    {
      StrobeScopeChunk *c = t->tail;
      gint64 gap = (gint64) (begin - t->last_end);
      guint64 duration = end >= begin ? end - begin : 0;
      guint8 *p = t->fill + t->fill_len;

      p = strobe_scope_put_record (p, ((guint64) gap << 1) ^ (guint64) (gap >> 63), duration, name_id);
      t->fill_len = (guint32) (p - t->fill);
      c->last_begin = begin;
      c->last_end = t->last_end = begin + duration;
      t->side[in_chunk] = (StrobeTimerSummaryScope) { duration, duration > children ? duration - children : 0, name_id };
      t->n++;
      return;
    }
  strobe_scope_track_append_slow (arena, t, begin, end, name_id, flags, children);
}

G_END_DECLS
