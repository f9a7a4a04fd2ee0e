/* strobe-samples-job.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-memory-symbols.h"
#include "strobe-sample-roots.h"
#include "strobe-sample-unwind.h"
#include "strobe-samples-job.h"

#define MAX_FRAMES 128

void
strobe_samples_result_free (StrobeSamplesResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->sampled, strobe_sample_tree_unref);
  g_clear_pointer (&r->bottom_up, strobe_cost_tree_unref);
  g_clear_pointer (&r->calls, strobe_cost_calls_unref);
  g_clear_pointer (&r->names, g_ptr_array_unref);
  g_clear_pointer (&r->places, g_ptr_array_unref);
  g_free (r);
}

StrobeSamplesResult *
strobe_samples_compute (StrobeSampleModel          *model,
                        StrobeMemoryModel          *stacks,
                        StrobeSymbolizer           *symbolizer,
                        const StrobeSampleInterval *intervals,
                        guint                       n_intervals,
                        GCancellable               *cancellable,
                        GError                    **error)
{
  g_autoptr (StrobeSamplesResult) r = g_new0 (StrobeSamplesResult, 1);
  StrobeCostTree *tree;
  guint n;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (model), NULL);
  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (symbolizer), NULL);

  /* Stack copies read since the last job (code without frame pointers) get their stacks. */
  if (stacks)
    strobe_sample_unwind (model, stacks);
  r->sampled = strobe_sample_model_build_tree (model, stacks, intervals, n_intervals, STROBE_COST_TREE_TOP_DOWN,
                                               strobe_memory_symbolizer_frame_func, symbolizer, cancellable, error);
  if (r->sampled == NULL)
    return NULL;
  tree = strobe_sample_tree_get_tree (r->sampled);
  r->total = strobe_sample_tree_get_total (r->sampled);
  r->cut_share = strobe_sample_tree_cut_share (r->sampled, symbolizer);
  r->calls = strobe_cost_calls_new (tree, 0, cancellable, error);
  if (r->calls == NULL)
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  r->bottom_up = strobe_cost_tree_invert (tree);
  n = strobe_cost_calls_get_n_functions (r->calls);
  r->names = g_ptr_array_new_full (n, g_free);
  r->places = g_ptr_array_new_full (n, g_free);
  for (guint f = 0; f < n; f++)
    {
      StrobeMemoryFrame frame;
      guint depth;
      const StrobeSymbolization *s;

      if (!strobe_sample_tree_get_frame (r->sampled, strobe_cost_calls_get_key (r->calls, f), &frame, &depth))
        {
          g_ptr_array_add (r->names, g_strdup (_("All samples")));
          g_ptr_array_add (r->places, g_strdup (_("All samples")));
          continue;
        }
      s = strobe_symbolizer_lookup (symbolizer, frame.module, frame.address);
      g_ptr_array_add (r->places, strobe_symbolization_format (s, depth));
      g_ptr_array_add (r->names, depth < s->n_frames && s->frames[depth].function
                                 ? g_strdup (s->frames[depth].function) : strobe_symbolization_format (s, depth));
    }
  return g_steal_pointer (&r);
}

const char *
strobe_samples_result_name (StrobeSamplesResult *r, guint64 key)
{
  guint f;

  g_return_val_if_fail (r != NULL, NULL);
  f = strobe_cost_calls_find (r->calls, key);
  return f < r->names->len ? g_ptr_array_index (r->names, f) : _("All samples");
}

const char *
strobe_samples_result_place (StrobeSamplesResult *r, guint64 key)
{
  guint f;

  g_return_val_if_fail (r != NULL, NULL);
  f = strobe_cost_calls_find (r->calls, key);
  return f < r->places->len ? g_ptr_array_index (r->places, f) : _("All samples");
}

/* ---- scopes a function dominates ------------------------------------------------------------ */

/* Whether stack @id has @key among its frames' keys (the frame function's, as the tree's). */
static gboolean
stack_has (StrobeMemoryModel *stacks, StrobeSymbolizer *symbolizer, guint32 id, guint64 key)
{
  StrobeMemoryFrame frames[MAX_FRAMES];
  guint n = id && stacks ? strobe_memory_model_get_frames (stacks, id, frames, MAX_FRAMES) : 0;

  for (guint f = 0; f < n; f++)
    {
      guint64 keys[8];
      guint nk = strobe_memory_symbolizer_frame_func (&frames[f], keys, G_N_ELEMENTS (keys), symbolizer);

      if (nk == 0)
        {
          keys[0] = frames[f].address;
          nk = 1;
        }
      for (guint j = 0; j < nk; j++)
        if (keys[j] == key)
          return TRUE;
    }
  return FALSE;
}

static gint
by_with (gconstpointer a, gconstpointer b)
{
  const StrobeDominatedScope *x = a, *y = b;

  if (x->with != y->with)
    return x->with < y->with ? 1 : -1;
  return (x->begin > y->begin) - (x->begin < y->begin);
}

/* The first sample at or after @t. */
static guint
lower_bound (GArray *samples, guint64 t)
{
  guint lo = 0, hi = samples->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (samples, StrobeSample, mid).time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
dominated_on (StrobeSampleModel *model, StrobeMemoryModel *stacks, StrobeSymbolizer *symbolizer,
              StrobeTimelineModel *timeline, StrobeThreadsModel *threads, guint16 thread_id, guint64 begin, guint64 end, guint64 key,
              gdouble min_share, guint max, GArray *out, GCancellable *cancellable, GError **error)
{
  guint32 system_id = (guint32) strobe_threads_model_get_system_id (threads, thread_id);
  g_autoptr (GArray) samples = NULL;
  g_autoptr (GHashTable) has = NULL;
  g_autofree guint32 *with = NULL;   /* with[i]: samples before i with the key */
  g_autoptr (GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  guint depths;

  if (system_id == 0)
    return TRUE;
  samples = strobe_sample_model_get_samples (model, system_id, begin, end);
  has = g_hash_table_new (NULL, NULL);
  with = g_new (guint32, samples->len + 1);
  with[0] = 0;
  for (guint i = 0; i < samples->len; i++)
    {
      guint32 stack = g_array_index (samples, StrobeSample, i).stack;
      gpointer v;

      if ((i & 4095) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!g_hash_table_lookup_extended (has, GUINT_TO_POINTER (stack), NULL, &v))
        {
          v = GINT_TO_POINTER (stack_has (stacks, symbolizer, stack, key));
          g_hash_table_insert (has, GUINT_TO_POINTER (stack), v);
        }
      with[i + 1] = with[i] + (v != NULL);
    }
  depths = strobe_timeline_model_get_depth_count (timeline, thread_id);
  for (guint d = 0; d < depths && out->len < max; d++)
    {
      g_array_set_size (scopes, 0);
      strobe_timeline_model_get_scopes (timeline, thread_id, d, begin, end, scopes);
      for (guint i = 0; i < scopes->len && out->len < max; i++)
        {
          const StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, i);
          guint a = lower_bound (samples, s->begin), b = lower_bound (samples, s->end + 1);
          StrobeDominatedScope ds = { s->name_id, thread_id, s->depth, s->begin, s->end, b - a, with[b] - with[a] };

          if (ds.with > 0 && (gdouble) ds.with >= min_share * (gdouble) ds.samples)
            g_array_append_val (out, ds);
        }
    }
  return TRUE;
}

GArray *
strobe_samples_dominated (StrobeSampleModel   *model,
                          StrobeMemoryModel   *stacks,
                          StrobeSymbolizer    *symbolizer,
                          StrobeTimelineModel *timeline,
                          StrobeThreadsModel  *threads,
                          guint16              thread_id,
                          guint64              begin,
                          guint64              end,
                          guint64              key,
                          gdouble              min_share,
                          guint                max,
                          GCancellable        *cancellable,
                          GError             **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (StrobeDominatedScope));
  g_autoptr (GArray) ids = NULL;

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (model), NULL);
  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (timeline), NULL);
  g_return_val_if_fail (STROBE_IS_THREADS_MODEL (threads), NULL);

  if (thread_id != 0)
    {
      if (!dominated_on (model, stacks, symbolizer, timeline, threads, thread_id, begin, end, key, min_share, max, out,
                         cancellable, error))
        return NULL;
    }
  else
    {
      ids = strobe_timeline_model_get_threads (timeline);
      for (guint i = 0; i < ids->len; i++)
        if (!dominated_on (model, stacks, symbolizer, timeline, threads, g_array_index (ids, guint16, i), begin, end, key,
                           min_share, max, out, cancellable, error))
          return NULL;
    }
  g_array_sort (out, by_with);
  return g_steal_pointer (&out);
}
