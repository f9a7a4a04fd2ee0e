/* strobe-scope-search.c — the names that match are found once; then one pass over every
 * track compares a name id per scope against that set.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "strobe-scope-search.h"
#include "strobe-timeline-model-private.h"

static gint
match_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeScopeMatch *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->thread_id != y->thread_id)
    return x->thread_id < y->thread_id ? -1 : 1;
  return (x->depth > y->depth) - (x->depth < y->depth);
}

GArray *
strobe_scope_search (StrobeTimelineModel *model, const char *text, guint max, guint64 *total,
                     GCancellable *cancellable, GError **error)
{
  g_autofree char *needle = NULL;
  g_autofree guint8 *set = NULL;
  g_autoptr(GArray) ids = NULL;
  GArray *out;
  guint n_names, tick = 0;
  guint64 count = 0;
  gboolean any = FALSE, cancelled = FALSE;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  out = g_array_new (FALSE, FALSE, sizeof (StrobeScopeMatch));
  if (total)
    *total = 0;
  needle = g_utf8_casefold (text, -1);
  n_names = strobe_timeline_model_get_n_names (model);
  set = g_new0 (guint8, MAX (n_names, 1));
  for (guint i = 0; i < n_names && *needle; i++)
    {
      const char *name = strobe_timeline_model_get_name (model, i);
      g_autofree char *folded = name ? g_utf8_casefold (name, -1) : NULL;

      if (folded && strstr (folded, needle))
        set[i] = any = TRUE;
    }
  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; any && !cancelled && i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th != NULL && !cancelled)
        {
          for (guint d = 0; d < th->tracks->len && !cancelled; d++)
            {
              StrobeScopeTrack *t = th->tracks->pdata[d];
              StrobeScopePos p = strobe_scope_track_lower_bound_end (t, 0);

              for (; strobe_scope_pos_valid (t, p) && !cancelled; strobe_scope_pos_next (t, &p))
                {
                  guint32 name = strobe_scope_name_at (t, p);
                  StrobeScopeMatch m;

                  if (G_UNLIKELY (++tick % 8192 == 0) && g_cancellable_is_cancelled (cancellable))
                    cancelled = TRUE;
                  if (name >= n_names || !set[name])
                    continue;
                  count++;
                  m.begin = strobe_scope_begin_at (t, p);
                  m.end = strobe_scope_end_at (t, p);
                  m.name_id = name;
                  m.thread_id = id;
                  m.depth = (guint16) MIN (d, G_MAXUINT16);
                  g_array_append_val (out, m);
                  /* Over the cap: keep the earliest, trimmed now and then. */
                  if (out->len >= 2 * (gsize) MAX (max, 1))
                    {
                      g_array_sort (out, match_cmp);
                      g_array_set_size (out, max);
                    }
                }
            }
        }
      strobe_timeline_model_read_unlock (model);
    }
  if (cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (out);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  g_array_sort (out, match_cmp);
  if (out->len > max)
    g_array_set_size (out, max);
  if (total)
    *total = count;
  return out;
}

gboolean
strobe_scope_search_longest (StrobeTimelineModel *model, guint32 name_id, guint64 t0, guint64 t1,
                             StrobeScopeMatch *out, GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) ids = NULL;
  gboolean found = FALSE;
  guint64 best = 0;
  guint tick = 0;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  ids = strobe_timeline_model_get_threads (model);
  for (guint i = 0; i < ids->len; i++)
    {
      guint16 id = g_array_index (ids, guint16, i);
      StrobeScopeThread *th;

      strobe_timeline_model_read_lock (model);
      th = strobe_timeline_model_peek_thread (model, id);
      if (th != NULL)
        {
          for (guint d = 0; d < th->tracks->len; d++)
            {
              StrobeScopeTrack *t = th->tracks->pdata[d];
              StrobeScopePos p = strobe_scope_track_lower_bound_end (t, t0);

              for (; strobe_scope_pos_valid (t, p); strobe_scope_pos_next (t, &p))
                {
                  guint64 b = strobe_scope_begin_at (t, p), e;

                  if (b > t1)
                    break;
                  if (strobe_scope_name_at (t, p) != name_id)
                    continue;
                  e = strobe_scope_end_at (t, p);
                  if (!found || e - b > best)
                    {
                      found = TRUE;
                      best = e - b;
                      out->begin = b;
                      out->end = e;
                      out->name_id = name_id;
                      out->thread_id = id;
                      out->depth = (guint16) MIN (d, G_MAXUINT16);
                    }
                  if (++tick % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
                    {
                      strobe_timeline_model_read_unlock (model);
                      g_cancellable_set_error_if_cancelled (cancellable, error);
                      return FALSE;
                    }
                }
            }
        }
      strobe_timeline_model_read_unlock (model);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return found;
}
