/* strobe-log-filter-private.h — a StrobeLogFilter made ready to test the log model's
 * records (strobe-log-filter.c), for the model's filter workers: one each, as the
 * verdicts fill in while it runs.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <stdlib.h>

#include "strobe-log-model.h"
#include "strobe-log-model-private.h"

G_BEGIN_DECLS

typedef struct
{
  const StrobeLogFilter *f;
  guint32               *categories;   /* sorted for a binary search when they are many */
  guint                  n_categories;
  guint16               *threads;
  guint                  n_threads;
  StrobeLogSearch       *literal;      /* from f->text */
  gboolean               text;         /* some text test */
  guint8                *verdicts;     /* by spec id below VERDICTS_DENSE: verdict + 1, 0 unknown */
  guint64               *barriers;     /* by spec id, set with its verdict: the conversions
                                        * neither text test can overlap */
  guint                  n_dense;      /* ids below it have a slot in both (grown on demand) */
  GHashTable            *sparse;       /* spec id → verdict + 1, for larger ids */
} StrobeLogFilterPrep;

#define VERDICTS_DENSE 65536

void                   strobe_log_filter_prepare      (StrobeLogFilterPrep   *p,
                                                       const StrobeLogFilter *f);
void                   strobe_log_filter_prep_clear   (StrobeLogFilterPrep   *p);
/* Both text tests' verdict for @e's site, from its format alone (and its barriers, for
 * strobe_log_filter_barriers). */
StrobeLogSearchVerdict strobe_log_filter_site_verdict (StrobeLogFilterPrep   *p,
                                                       const StrobeLogEntry  *e);
gint                   strobe_log_cmp_u32             (gconstpointer a,
                                                       gconstpointer b);
gint                   strobe_log_cmp_u16             (gconstpointer a,
                                                       gconstpointer b);

/* The barriers of a site whose verdict was MAYBE (0: none known). */
static inline guint64
strobe_log_filter_barriers (const StrobeLogFilterPrep *p, guint32 spec_id)
{
  return spec_id < p->n_dense ? p->barriers[spec_id] : 0;
}

static inline gboolean
strobe_log_in_u32 (const guint32 *v, guint n, guint32 x)
{
  if (n <= 8)
    {
      for (guint i = 0; i < n; i++)
        if (v[i] == x)
          return TRUE;
      return FALSE;
    }
  return bsearch (&x, v, n, sizeof x, strobe_log_cmp_u32) != NULL;
}

static inline gboolean
strobe_log_in_u16 (const guint16 *v, guint n, guint16 x)
{
  if (n <= 8)
    {
      for (guint i = 0; i < n; i++)
        if (v[i] == x)
          return TRUE;
      return FALSE;
    }
  return bsearch (&x, v, n, sizeof x, strobe_log_cmp_u16) != NULL;
}

/* The tests a message's site answers: verbosity and category. The filter's loop asks
 * them first, since they need no lookup of the message's packet. */
static inline gboolean
strobe_log_filter_site_pass (const StrobeLogFilterPrep *p, guint8 verbosity, guint32 category_id)
{
  const StrobeLogFilter *f = p->f;

  if (f == NULL)
    return TRUE;
  if (f->max_verbosity && verbosity > f->max_verbosity)
    return FALSE;
  if (p->categories && strobe_log_in_u32 (p->categories, p->n_categories, category_id) == f->categories_excluded)
    return FALSE;
  return TRUE;
}

static inline gboolean
strobe_log_filter_thread_pass (const StrobeLogFilterPrep *p, guint16 thread_id)
{
  return p->threads == NULL || strobe_log_in_u16 (p->threads, p->n_threads, thread_id) != p->f->threads_excluded;
}

G_END_DECLS
