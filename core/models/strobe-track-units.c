/* strobe-track-units.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-track-units.h"

#include "strobe-timeline-model-private.h"

static gint
by_size (gconstpointer a, gconstpointer b)
{
  const StrobeTrackUnit *x = a, *y = b;

  if (x->scopes != y->scopes)
    return x->scopes > y->scopes ? -1 : 1;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return (x->depth > y->depth) - (x->depth < y->depth);
}

GArray *
strobe_track_units (StrobeTimelineModel *model, gint thread_id)
{
  g_autoptr(GArray) ids = NULL;
  GArray *units;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);

  ids = strobe_timeline_model_get_threads (model);
  units = g_array_new (FALSE, FALSE, sizeof (StrobeTrackUnit));
  strobe_timeline_model_read_lock (model);
  for (guint i = 0; i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th = thread_id >= 0 && id != thread_id ? NULL : strobe_timeline_model_peek_thread (model, id);

      for (guint d = 0; th != NULL && d < th->tracks->len; d++)
        {
          StrobeTrackUnit u = { id, d, ((StrobeScopeTrack *) th->tracks->pdata[d])->n };

          g_array_append_val (units, u);
        }
    }
  strobe_timeline_model_read_unlock (model);
  g_array_sort (units, by_size);
  return units;
}

const StrobeScopeTrack *
strobe_track_unit_lock (StrobeTimelineModel *model, const StrobeTrackUnit *unit)
{
  StrobeScopeThread *th;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (unit != NULL, NULL);

  strobe_timeline_model_read_lock (model);
  th = strobe_timeline_model_peek_thread (model, unit->id);
  if (th != NULL && unit->depth < th->tracks->len)
    return th->tracks->pdata[unit->depth];
  strobe_timeline_model_read_unlock (model);
  return NULL;
}

void
strobe_track_units_run (const char *name, GThreadFunc func, gpointer workers, gsize size, guint n)
{
  GThread *helpers[STROBE_TRACK_UNITS_MAX_WORKERS] = { NULL };

  g_return_if_fail (func != NULL);
  g_return_if_fail (n >= 1 && n <= STROBE_TRACK_UNITS_MAX_WORKERS);

  for (guint i = 1; i < n; i++)
    helpers[i] = g_thread_new (name, func, (guint8 *) workers + i * size);
  func (workers);
  for (guint i = 1; i < n; i++)
    g_thread_join (helpers[i]);
}
