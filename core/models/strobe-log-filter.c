/* strobe-log-filter.c — StrobeLogFilter itself, and a filter made ready to test records:
 * its sets sorted, its text tests' verdict and barriers per site, worked out once per
 * site rather than once per message.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-filter-private.h"

#include <stdlib.h>
#include <string.h>

/* Never NULL, even for none: NULL means "any" in a filter. */
static guint32 *
dup_u32 (const guint32 *v, guint n)
{
  guint32 *copy = g_new (guint32, n + 1);

  if (n)
    memcpy (copy, v, n * sizeof *v);
  return copy;
}

static guint16 *
dup_u16 (const guint16 *v, guint n)
{
  guint16 *copy = g_new (guint16, n + 1);

  if (n)
    memcpy (copy, v, n * sizeof *v);
  return copy;
}

StrobeLogFilter *
strobe_log_filter_copy (const StrobeLogFilter *filter)
{
  StrobeLogFilter *copy;

  if (filter == NULL)
    return NULL;
  copy = g_memdup2 (filter, sizeof *filter);
  copy->categories = filter->categories ? dup_u32 (filter->categories, filter->n_categories) : NULL;
  copy->threads = filter->threads ? dup_u16 (filter->threads, filter->n_threads) : NULL;
  copy->text = g_strdup (filter->text);
  copy->search = filter->search ? strobe_log_search_ref (filter->search) : NULL;
  return copy;
}

void
strobe_log_filter_free (StrobeLogFilter *filter)
{
  if (filter == NULL)
    return;
  g_free ((gpointer) filter->categories);
  g_free ((gpointer) filter->threads);
  g_free ((char *) filter->text);
  g_clear_pointer (&filter->search, strobe_log_search_unref);
  g_free (filter);
}

gboolean
strobe_log_filter_is_empty (const StrobeLogFilter *f)
{
  if (f == NULL)
    return TRUE;
  return f->max_verbosity == 0 &&
         (f->categories == NULL || (f->categories_excluded && f->n_categories == 0)) &&
         (f->threads == NULL || (f->threads_excluded && f->n_threads == 0)) &&
         (f->text == NULL || *f->text == '\0') &&
         f->time_min == 0 && f->time_max == 0 &&
         (f->search == NULL || strobe_log_search_is_empty (f->search));
}


gint
strobe_log_cmp_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}

gint
strobe_log_cmp_u16 (gconstpointer a, gconstpointer b)
{
  guint16 x = *(const guint16 *) a, y = *(const guint16 *) b;
  return (x > y) - (x < y);
}

void
strobe_log_filter_prepare (StrobeLogFilterPrep *p, const StrobeLogFilter *f)
{
  memset (p, 0, sizeof *p);
  p->f = f;
  if (f == NULL)
    return;
  if (f->categories)
    {
      p->n_categories = f->n_categories;
      p->categories = dup_u32 (f->categories, f->n_categories);
      qsort (p->categories, p->n_categories, sizeof (guint32), strobe_log_cmp_u32);
    }
  if (f->threads)
    {
      p->n_threads = f->n_threads;
      p->threads = dup_u16 (f->threads, f->n_threads);
      qsort (p->threads, p->n_threads, sizeof (guint16), strobe_log_cmp_u16);
    }
  if (f->text && *f->text)
    p->literal = strobe_log_search_new (f->text, STROBE_LOG_SEARCH_LITERAL |
                                        (f->ignore_case ? 0 : STROBE_LOG_SEARCH_CASE_SENSITIVE), NULL);
  p->text = p->literal != NULL || (f->search != NULL && !strobe_log_search_is_empty (f->search));
  if (p->text)
    p->sparse = g_hash_table_new (NULL, NULL);
}

/* Both text tests' verdict for a site, from its format alone, and its barriers; computed
 * once per site. */
StrobeLogSearchVerdict
strobe_log_filter_site_verdict (StrobeLogFilterPrep *p, const StrobeLogEntry *e)
{
  StrobeLogSearchVerdict v = STROBE_LOG_SEARCH_ALWAYS, one;
  guint8 *slot = NULL;

  if (e->spec == NULL)
    return STROBE_LOG_SEARCH_MAYBE;
  if (e->spec_id < VERDICTS_DENSE)
    {
      if (e->spec_id >= p->n_dense)
        {
          guint n = MAX (64, p->n_dense);

          while (n <= e->spec_id)
            n *= 2;
          p->verdicts = g_realloc (p->verdicts, n);
          p->barriers = g_realloc_n (p->barriers, n, sizeof (guint64));
          memset (p->verdicts + p->n_dense, 0, n - p->n_dense);
          memset (p->barriers + p->n_dense, 0, (n - p->n_dense) * sizeof (guint64));
          p->n_dense = n;
        }
      slot = &p->verdicts[e->spec_id];
      if (*slot)
        return *slot - 1;
    }
  else
    {
      gpointer known = g_hash_table_lookup (p->sparse, GUINT_TO_POINTER (e->spec_id));

      if (known)
        return GPOINTER_TO_UINT (known) - 1;
    }
  for (guint i = 0; i < 2; i++)
    {
      StrobeLogSearch *search = i == 0 ? p->literal : p->f->search;

      if (search == NULL)
        continue;
      one = strobe_log_search_predict (search, e->spec->format);
      if (one == STROBE_LOG_SEARCH_NEVER)
        v = STROBE_LOG_SEARCH_NEVER;
      else if (one == STROBE_LOG_SEARCH_MAYBE && v == STROBE_LOG_SEARCH_ALWAYS)
        v = STROBE_LOG_SEARCH_MAYBE;
    }
  if (slot && v == STROBE_LOG_SEARCH_MAYBE)
    {
      guint64 mask = G_MAXUINT64;

      for (guint i = 0; i < 2; i++)
        {
          StrobeLogSearch *search = i == 0 ? p->literal : p->f->search;

          if (search != NULL)
            mask &= strobe_log_search_barriers (search, e->spec->format);
        }
      p->barriers[e->spec_id] = mask;
    }
  if (slot)
    *slot = (guint8) (v + 1);
  else
    g_hash_table_insert (p->sparse, GUINT_TO_POINTER (e->spec_id), GUINT_TO_POINTER (v + 1));
  return v;
}

void
strobe_log_filter_prep_clear (StrobeLogFilterPrep *p)
{
  g_free (p->categories);
  g_free (p->threads);
  g_free (p->verdicts);
  g_free (p->barriers);
  g_clear_pointer (&p->sparse, g_hash_table_unref);
  g_clear_pointer (&p->literal, strobe_log_search_unref);
}
