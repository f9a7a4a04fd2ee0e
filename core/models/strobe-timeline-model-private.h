/* strobe-timeline-model-private.h — the scope storage, shared by the timeline model and
 * the timer statistics (which walk it under the model's read lock).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

/* One completed scope: 12 bytes. Its depth is the track it is in, so it is not stored.
 * begin is relative to the chunk's base; a duration of 0xffffffff means "long": the end is
 * in the track's long_ends table. */
typedef struct
{
  guint32 begin;
  guint32 duration;
  guint32 name_flags;   /* name id in the low 24 bits, flags in the high 8 */
} StrobeScopeRec;

#define STROBE_SCOPE_NAME_BITS  24
#define STROBE_SCOPE_NAME_MASK  ((1u << STROBE_SCOPE_NAME_BITS) - 1)
#define STROBE_SCOPE_LONG       0xffffffffu

typedef struct
{
  guint64         base;     /* ticks: begin of the first scope */
  guint64         first;    /* index of the first scope in the track */
  StrobeScopeRec *items;
  guint32         count;
  guint32         cap;
} StrobeScopeChunk;

typedef struct
{
  guint64 index;            /* of the scope in the track */
  guint64 end;
} StrobeLongEnd;

/* The scopes of one thread at one depth: disjoint, so sorted by begin and by end alike. */
typedef struct
{
  GArray  *chunks;          /* StrobeScopeChunk */
  GArray  *long_ends;       /* StrobeLongEnd by index; NULL while none */
  guint64  n;
  StrobeScopeChunk *cur;    /* writer only: the last chunk (into chunks->data) */
} StrobeScopeTrack;

typedef struct
{
  guint64 begin;
  guint32 name_id;
} StrobeOpenScope;

/* Where a series changed, per generation, for views that redraw only that: a few marks,
 * the oldest merged into the next when full (so an answer may be earlier than needed,
 * never later). */
#define STROBE_CHANGE_MARKS 8

typedef struct
{
  guint64 generation;       /* the model's generation once the change was made */
  guint64 from;             /* the earliest time it touched */
} StrobeChangeMark;

typedef struct
{
  StrobeChangeMark marks[STROBE_CHANGE_MARKS];
  guint            n;
} StrobeChangeLog;

typedef struct
{
  guint16    thread_id;
  StrobeChangeLog changes;
  GPtrArray *tracks;        /* StrobeScopeTrack *, by depth */
  StrobeOpenScope *stack;   /* the scopes open now, outermost first */
  guint      depth;         /* scopes open now, at most STROBE_TIMELINE_MAX_DEPTH */
  guint      stack_cap;
  guint64    overflow;      /* begins not kept (depth cap or nesting budget) whose ends
                             * have not come yet */
  gboolean   overflow_budget; /* those begins were refused by the budget, not the cap */
  guint      levels;        /* depth levels this thread has taken from the model's nesting
                             * budget (STROBE_TIMELINE_MAX_LEVELS); never given back */
} StrobeScopeThread;

/* Position in a track. */
typedef struct
{
  guint ci;
  guint pi;
} StrobeScopePos;

static inline gboolean
strobe_scope_pos_valid (const StrobeScopeTrack *t, StrobeScopePos p)
{
  return p.ci < t->chunks->len;
}

static inline const StrobeScopeChunk *
strobe_scope_chunk (const StrobeScopeTrack *t, guint ci)
{
  return &g_array_index (t->chunks, StrobeScopeChunk, ci);
}

static inline void
strobe_scope_pos_next (const StrobeScopeTrack *t, StrobeScopePos *p)
{
  if (++p->pi >= strobe_scope_chunk (t, p->ci)->count)
    {
      p->ci++;
      p->pi = 0;
    }
}

guint64 strobe_scope_track_end_slow (const StrobeScopeTrack *t, guint64 index);

static inline guint64
strobe_scope_begin_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  const StrobeScopeChunk *c = strobe_scope_chunk (t, p.ci);
  return c->base + c->items[p.pi].begin;
}

static inline guint64
strobe_scope_end_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  const StrobeScopeChunk *c = strobe_scope_chunk (t, p.ci);
  const StrobeScopeRec *r = &c->items[p.pi];

  if (G_UNLIKELY (r->duration == STROBE_SCOPE_LONG))
    return strobe_scope_track_end_slow (t, c->first + p.pi);
  return c->base + r->begin + r->duration;
}

static inline guint32
strobe_scope_name_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  return strobe_scope_chunk (t, p.ci)->items[p.pi].name_flags & STROBE_SCOPE_NAME_MASK;
}

static inline guint8
strobe_scope_flags_at (const StrobeScopeTrack *t, StrobeScopePos p)
{
  return (guint8) (strobe_scope_chunk (t, p.ci)->items[p.pi].name_flags >> STROBE_SCOPE_NAME_BITS);
}

/* First scope whose end is >= @t (invalid position when none). */
StrobeScopePos strobe_scope_track_lower_bound_end   (const StrobeScopeTrack *t, guint64 time);
/* First scope whose begin is >= @t. */
StrobeScopePos strobe_scope_track_lower_bound_begin (const StrobeScopeTrack *t, guint64 time);

/* The model's lock and threads, for the timer statistics. */
void       strobe_timeline_model_read_lock   (StrobeTimelineModel *self);
void       strobe_timeline_model_read_unlock (StrobeTimelineModel *self);
/* Under the read lock: StrobeScopeThread *, in order of first appearance. */
GPtrArray *strobe_timeline_model_peek_threads (StrobeTimelineModel *self);
/* Under the read lock: the thread of that id, or NULL. */
StrobeScopeThread *strobe_timeline_model_peek_thread (StrobeTimelineModel *self, guint16 thread_id);
/* Under the read lock. */
const char *strobe_timeline_model_peek_name  (StrobeTimelineModel *self, guint32 name_id);
guint       strobe_timeline_model_peek_n_names (StrobeTimelineModel *self);

G_END_DECLS
