/* strobe-timeline-model-private.h — the scope storage, shared by the timeline model and
 * the timer statistics (which walk it under the model's read lock).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-change-log.h"
#include "strobe-scope-track.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

#define STROBE_SCOPE_NAME_BITS  24
#define STROBE_SCOPE_NAME_MASK  ((1u << STROBE_SCOPE_NAME_BITS) - 1)

/* The id of NAME in NAMES (which owns the copies) and IDS (name → id + 1), added when new;
 * once the name bits are used up every new name is "(too many names)". The timeline model
 * and the timer stream share it so both give a name the same id. */
static inline guint32
strobe_scope_name_intern (GPtrArray  *names,
                          GHashTable *ids,
                          const char *name)
{
  gpointer v = g_hash_table_lookup (ids, name);
  char *copy;

  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  if (names->len > STROBE_SCOPE_NAME_MASK)
    return strobe_scope_name_intern (names, ids, "(too many names)");
  copy = g_strdup (name);
  g_ptr_array_add (names, copy);
  g_hash_table_insert (ids, copy, GUINT_TO_POINTER (names->len));
  return names->len - 1;
}
typedef struct
{
  guint64 begin;
  guint64 children;   /* time of its direct children kept so far (the timers' summary) */
  guint32 name_id;
} StrobeOpenScope;

/* The kept scope open at @depth of @stack ended, @duration long: its parent's children. */
static inline void
strobe_open_scope_ended (StrobeOpenScope *stack, guint depth, guint64 duration)
{
  if (depth > 0)
    stack[depth - 1].children += duration;
}

/* Which scopes a model keeps, one thread's part: a thread nests at most
 * STROBE_TIMELINE_MAX_DEPTH deep, and each depth level it opens comes out of the
 * whole model's budget (STROBE_TIMELINE_MAX_LEVELS). A begin refused is counted, and
 * so is everything nested inside it, until its end. The timeline model and the
 * streaming timers (strobe-timer-stream.c) both keep scopes by these rules, so their
 * answers agree. */
typedef struct
{
  guint    depth;             /* scopes open now and kept */
  guint    levels;            /* depth levels taken from the budget; never given back */
  guint64  overflow;          /* begins not kept whose ends have not come yet */
  gboolean overflow_budget;   /* those begins were refused by the budget, not the cap */
} StrobeScopeNesting;

/* The whole model's part. */
typedef struct
{
  guint64 levels;             /* taken from STROBE_TIMELINE_MAX_LEVELS, all threads */
  guint64 depth_overflows;    /* begins not kept: past the depth cap (or inside one) */
  guint64 budget_overflows;   /* begins not kept: past the budget (or inside one) */
  guint64 unmatched_ends;     /* ends with no begin (the channel came on mid-scope) */
} StrobeScopeBudget;

/* A begin: TRUE when it is kept (the depth grew by one: the caller pushes it at
 * depth - 1), FALSE when it is counted as not kept. */
static inline gboolean
strobe_scope_nesting_begin (StrobeScopeNesting *n, StrobeScopeBudget *b)
{
  if (G_UNLIKELY (n->overflow > 0))
    {
      n->overflow++;
      if (n->overflow_budget)
        b->budget_overflows++;
      else
        b->depth_overflows++;
      return FALSE;
    }
  if (G_UNLIKELY (n->depth >= STROBE_TIMELINE_MAX_DEPTH))
    {
      n->overflow++;
      n->overflow_budget = FALSE;
      b->depth_overflows++;
      return FALSE;
    }
  if (G_UNLIKELY (n->depth == n->levels))
    {
      /* A level this thread has never used: it comes out of the whole model's budget,
       * so threads × depth stays bounded too. */
      if (b->levels >= STROBE_TIMELINE_MAX_LEVELS)
        {
          n->overflow++;
          n->overflow_budget = TRUE;
          b->budget_overflows++;
          return FALSE;
        }
      n->levels++;
      b->levels++;
    }
  n->depth++;
  return TRUE;
}

/* An end: TRUE when it closes a kept scope (the one now at depth), FALSE when it ends
 * one not kept or none. */
static inline gboolean
strobe_scope_nesting_end (StrobeScopeNesting *n, StrobeScopeBudget *b)
{
  if (G_UNLIKELY (n->overflow > 0))
    {
      n->overflow--;
      return FALSE;
    }
  if (G_UNLIKELY (n->depth == 0))
    {
      b->unmatched_ends++;
      return FALSE;
    }
  n->depth--;
  return TRUE;
}


typedef struct
{
  guint16    thread_id;
  StrobeChangeLog changes;
  GPtrArray *tracks;        /* StrobeScopeTrack *, by depth */
  StrobeOpenScope *stack;   /* the scopes open now (nest.depth of them), outermost first */
  guint      stack_cap;
  StrobeScopeNesting nest;
} StrobeScopeThread;

/* The model's lock and threads, for the timer statistics (the unlock is public). */
void       strobe_timeline_model_read_lock   (StrobeTimelineModel *self);
/* Under the read lock: StrobeScopeThread *, in order of first appearance. */
GPtrArray *strobe_timeline_model_peek_threads (StrobeTimelineModel *self);
/* Under the read lock: the thread of that id, or NULL. */
StrobeScopeThread *strobe_timeline_model_peek_thread (StrobeTimelineModel *self, guint16 thread_id);
/* Under the read lock. */
const char *strobe_timeline_model_peek_name  (StrobeTimelineModel *self, guint32 name_id);
guint       strobe_timeline_model_peek_n_names (StrobeTimelineModel *self);

G_END_DECLS
