/* strobe-track-units.h — the tracks of a timeline (one depth of one thread each) as the
 * units a walk over two cores shares out (the callers' walk, Ctrl+F, a name's longest),
 * and the running of such a walk's workers (those, the call tree's, the timers').
 * Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-scope-track.h"
#include "strobe-timeline-model.h"

G_BEGIN_DECLS

typedef struct
{
  guint16 id;       /* thread */
  guint   depth;
  guint64 scopes;   /* the track's, when listed */
} StrobeTrackUnit;

/* The tracks of @thread_id (every thread when it is below 0), the most scopes first (ties
 * by thread, then depth): taken in that order, the workers end together — a game's main
 * thread holds a third of the scopes, one track of it far fewer. Under the model's read
 * lock, once; a unit's track may be gone when a worker reaches it. */
GArray *strobe_track_units (StrobeTimelineModel *model, gint thread_id);
/* @unit's track, under the model's read lock (taken per unit: the writer may move a
 * thread's tracks between two); NULL, and no lock held, when it is gone. */
const StrobeScopeTrack *strobe_track_unit_lock (StrobeTimelineModel   *model,
                                                const StrobeTrackUnit *unit);

#define STROBE_TRACK_UNITS_MAX_WORKERS 4

/* @func on the calling thread and on @n − 1 helper threads named @name (at most
 * STROBE_TRACK_UNITS_MAX_WORKERS in all; the helpers inherit the caller's priority, which
 * a viewer lowers), each given its element of @workers (@size bytes apart; 0: the same
 * for all). Returns when every one has. */
void strobe_track_units_run (const char *name,
                             GThreadFunc func,
                             gpointer    workers,
                             gsize       size,
                             guint       n);

G_END_DECLS
