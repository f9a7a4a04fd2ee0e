/* strobe-scope-search.h — find every CPU scope whose name contains a text, over every
 * thread and depth of a timeline (the timeline's Ctrl+F).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 begin;
  guint64 end;
  guint32 name_id;
  guint16 thread_id;
  guint16 depth;
} StrobeScopeMatch;

/* Completed scopes whose name contains @text (case-insensitively), in order of begin time
 * (then thread, then depth): a new array of StrobeScopeMatch holding at most @max of them
 * (the earliest), and in @total how many there are. NULL when cancelled. Runs on any
 * thread; the model's read lock is taken per thread. */
GArray *strobe_scope_search (StrobeTimelineModel *model,
                             const char          *text,
                             guint                max,
                             guint64             *total,
                             GCancellable        *cancellable,
                             GError             **error);

/* The longest completed scope named @name_id that overlaps [t0, t1] (its whole length, not
 * clipped): FALSE when there is none (or on cancel, with @error set). */
gboolean strobe_scope_search_longest (StrobeTimelineModel *model,
                                      guint32              name_id,
                                      guint64              t0,
                                      guint64              t1,
                                      StrobeScopeMatch    *out,
                                      GCancellable        *cancellable,
                                      GError             **error);

G_END_DECLS
