/* strobe-compare-log.c — the messages of two traces counted side by side.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-compare-log.h"
#include "strobe-log-model.h"

static void
count_clear (gpointer data)
{
  g_free (((StrobeCompareLogCount *) data)->category);
}

static void
problem_clear (gpointer data)
{
  StrobeCompareLogProblem *p = data;

  g_free (p->category);
  g_free (p->format);
  g_free (p->text);
}

static gint
count_cmp (gconstpointer x, gconstpointer y)
{
  const StrobeCompareLogCount *a = x, *b = y;
  int c = strcmp (a->category, b->category);

  return c ? c : (a->verbosity > b->verbosity) - (a->verbosity < b->verbosity);
}

static gint
problem_cmp (gconstpointer x, gconstpointer y)
{
  const StrobeCompareLogProblem *a = x, *b = y;
  int c;

  if (a->verbosity != b->verbosity)
    return a->verbosity < b->verbosity ? -1 : 1;
  c = strcmp (a->category, b->category);
  return c ? c : strcmp (a->format, b->format);
}

/* Rows are found by a key string (category, verbosity, and for problems the format). */
static guint
row_for (GHashTable *index, GArray *rows, const char *key, gconstpointer fresh)
{
  gpointer at;

  if (g_hash_table_lookup_extended (index, key, NULL, &at))
    return GPOINTER_TO_UINT (at);
  g_array_append_vals (rows, fresh, 1);
  g_hash_table_insert (index, g_strdup (key), GUINT_TO_POINTER (rows->len - 1));
  return rows->len - 1;
}

static gboolean
collect (StrobeCompareLog *self, GHashTable *counts, GHashTable *problems, StrobeDocument *document,
         const StrobeCompareSpan *span, gboolean is_b, GCancellable *cancellable, GError **error)
{
  StrobeLogModel *model = strobe_document_get_log (document);
  StrobeLogFilter filter = { 0 };
  g_autoptr(GArray) indexes = NULL;
  guint8 warning = strobe_log_verbosity_parse ("warning");

  filter.time_min = span->t0;
  filter.time_max = span->t1 == G_MAXUINT64 ? 0 : span->t1;
  indexes = strobe_log_model_filter (model, &filter, 0, G_MAXUINT64);
  for (guint i = 0; i < indexes->len; i++)
    {
      StrobeLogMessage m;
      const char *category;
      g_autofree char *key = NULL;
      guint at;

      if ((i & 4095) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!strobe_log_model_get_message (model, g_array_index (indexes, guint64, i), &m))
        continue;
      category = m.spec && m.spec->category ? m.spec->category->name : _("(unknown)");
      key = g_strdup_printf ("%s\x1f%u", category, m.verbosity);
      {
        StrobeCompareLogCount fresh = { NULL, m.verbosity, 0, 0, 0 };
        StrobeCompareLogCount *c;

        at = row_for (counts, self->counts, key, &fresh);
        c = &g_array_index (self->counts, StrobeCompareLogCount, at);
        if (c->category == NULL)
          c->category = g_strdup (category);
        c->in |= is_b ? STROBE_COMPARE_IN_B : STROBE_COMPARE_IN_A;
        *(is_b ? &c->b : &c->a) += 1;
      }
      if (m.verbosity >= 1 && m.verbosity <= warning)
        {
          const char *format = m.spec && m.spec->format ? m.spec->format : "";
          StrobeCompareLogProblem fresh = { NULL, m.verbosity, NULL, 0, 0, 0, NULL };
          StrobeCompareLogProblem *p;
          g_autofree char *pkey = g_strdup_printf ("%s\x1f%s", key, format);

          at = row_for (problems, self->problems, pkey, &fresh);
          p = &g_array_index (self->problems, StrobeCompareLogProblem, at);
          if (p->category == NULL)
            {
              p->category = g_strdup (category);
              p->format = g_strdup (format);
            }
          if (p->text == NULL)
            p->text = g_strdup (m.text);
          p->in |= is_b ? STROBE_COMPARE_IN_B : STROBE_COMPARE_IN_A;
          *(is_b ? &p->b : &p->a) += 1;
        }
      g_free (m.text);
    }
  return TRUE;
}

StrobeCompareLog *
strobe_compare_log (StrobeDocument *a, const StrobeCompareSpan *span_a,
                    StrobeDocument *b, const StrobeCompareSpan *span_b,
                    GCancellable *cancellable, GError **error)
{
  g_autoptr(StrobeCompareLog) self = NULL;
  g_autoptr(GHashTable) counts = NULL, problems = NULL;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (a) && STROBE_IS_DOCUMENT (b), NULL);
  g_return_val_if_fail (span_a != NULL && span_b != NULL, NULL);
  g_return_val_if_fail (strobe_document_get_log (a) && strobe_document_get_log (b), NULL);

  self = g_new0 (StrobeCompareLog, 1);
  self->counts = g_array_new (FALSE, TRUE, sizeof (StrobeCompareLogCount));
  g_array_set_clear_func (self->counts, count_clear);
  self->problems = g_array_new (FALSE, TRUE, sizeof (StrobeCompareLogProblem));
  g_array_set_clear_func (self->problems, problem_clear);
  counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!collect (self, counts, problems, a, span_a, FALSE, cancellable, error) ||
      !collect (self, counts, problems, b, span_b, TRUE, cancellable, error))
    return NULL;
  g_array_sort (self->counts, count_cmp);
  g_array_sort (self->problems, problem_cmp);
  return g_steal_pointer (&self);
}

void
strobe_compare_log_free (StrobeCompareLog *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->counts);
  g_array_unref (self->problems);
  g_free (self);
}
