/* strobe-track-units.h — the tracks of a timeline (one depth of one thread each) as the
 * units a walk over two cores shares out: the callers' walk, Ctrl+F, a name's longest.
 * Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

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

G_END_DECLS
