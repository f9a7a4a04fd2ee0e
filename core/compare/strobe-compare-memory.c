/* strobe-compare-memory.c — memory costs of two traces, sites matched by name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-compare-memory.h"
#include "strobe-memory-symbols.h"

#define MAX_FRAMES 256

static const char *const cost_names[STROBE_COMPARE_MEM_N_COSTS] = {
  "peak", "leaked", "allocations", "temporary", "bytes",
};

const char *
strobe_compare_memory_cost_name (StrobeCompareMemoryCost cost)
{
  g_return_val_if_fail (cost < STROBE_COMPARE_MEM_N_COSTS, "?");
  return cost_names[cost];
}

StrobeCompareMemoryCost
strobe_compare_memory_cost_parse (const char *name)
{
  for (guint i = 0; name && i < STROBE_COMPARE_MEM_N_COSTS; i++)
    if (g_str_equal (name, cost_names[i]))
      return i;
  return STROBE_COMPARE_MEM_N_COSTS;
}

gdouble
strobe_compare_memory_value (const StrobeMemoryCosts *c, StrobeCompareMemoryCost cost)
{
  g_return_val_if_fail (c != NULL, 0);
  switch (cost)
    {
    case STROBE_COMPARE_MEM_PEAK: return (gdouble) c->peak_bytes;
    case STROBE_COMPARE_MEM_LEAKED: return (gdouble) c->leaked_bytes;
    case STROBE_COMPARE_MEM_ALLOCATIONS: return (gdouble) c->allocations;
    case STROBE_COMPARE_MEM_TEMPORARY: return (gdouble) c->temporary;
    case STROBE_COMPARE_MEM_BYTES: return (gdouble) c->bytes_allocated;
    case STROBE_COMPARE_MEM_N_COSTS:
    default: g_return_val_if_reached (0);
    }
}

/* A function's name alone, not its file:line, which moves between two builds. */
static void
append_function (GString *out, StrobeSymbolizer *sym, const StrobeMemoryFrame *frame, gboolean all_inlined)
{
  const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frame->module, frame->address);
  guint n = all_inlined ? s->n_frames : 1;

  for (guint j = 0; j < n; j++)
    {
      if (out->len)
        g_string_append (out, " ← ");
      if (j < s->n_frames && s->frames[j].function)
        g_string_append (out, s->frames[j].function);
      else
        {
          g_autofree char *f = strobe_symbolization_format (s, j);
          g_string_append (out, f);
        }
    }
}

static char *
site_name (StrobeMemoryModel *model, StrobeSymbolizer *sym, StrobeMemoryGroupBy by, const StrobeMemoryRow *r)
{
  GString *out;

  switch (by)
    {
    case STROBE_MEMORY_BY_TAG:
      {
        char *name = strobe_memory_model_get_tag_name (model, (guint32) r->key);
        return name ? name : r->key == 0 ? g_strdup (_("(untagged)")) : g_strdup_printf ("%" G_GUINT64_FORMAT, r->key);
      }
    case STROBE_MEMORY_BY_HEAP:
      {
        char *name = strobe_memory_model_get_heap_name (model, (guint32) r->key);
        return name ? name : g_strdup_printf ("%" G_GUINT64_FORMAT, r->key);
      }
    case STROBE_MEMORY_BY_STACK:
      {
        StrobeMemoryFrame frames[MAX_FRAMES];
        guint n;

        if (r->key == 0)
          return g_strdup (_("(no stack)"));
        n = strobe_memory_model_get_frames (model, (guint32) r->key, frames, MAX_FRAMES);
        out = g_string_new (NULL);
        for (guint i = 0; i < n; i++)
          append_function (out, sym, &frames[i], TRUE);
        return g_string_free (out, FALSE);
      }
    case STROBE_MEMORY_BY_FUNCTION:
    default:
      if (r->key == 0 && r->frame.address == 0)
        return g_strdup (_("(no stack)"));
      out = g_string_new (NULL);
      append_function (out, sym, &r->frame, FALSE);
      return g_string_free (out, FALSE);
    }
}

static void
add_costs (StrobeMemoryCosts *into, const StrobeMemoryCosts *c)
{
  into->allocations += c->allocations;
  into->temporary += c->temporary;
  into->bytes_allocated += c->bytes_allocated;
  into->peak_bytes += c->peak_bytes;
  into->peak_count += c->peak_count;
  into->leaked_bytes += c->leaked_bytes;
  into->leaked_count += c->leaked_count;
}

static void
site_clear (gpointer data)
{
  g_free (((StrobeCompareMemorySite *) data)->name);
}

static gint
site_cmp (gconstpointer x, gconstpointer y)
{
  return strcmp (((const StrobeCompareMemorySite *) x)->name, ((const StrobeCompareMemorySite *) y)->name);
}

/* One side's rows into @sites; two rows of one name (a function in two modules, stacks
 * that differ only in addresses) add up. */
static gboolean
collect (StrobeCompareMemory *self, GHashTable *index, StrobeDocument *document, const StrobeCompareSpan *span,
         StrobeMemoryGroupBy by, gboolean is_b, GCancellable *cancellable, GError **error)
{
  StrobeMemoryModel *model = strobe_document_get_memory (document);
  g_autoptr(StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr(StrobeMemoryAggregate) agg = NULL;
  guint n;

  agg = strobe_memory_model_aggregate (model, span->t0, span->t1, by, strobe_memory_symbolizer_frame_func, sym,
                                       cancellable, NULL, NULL, error);
  if (agg == NULL)
    return FALSE;
  strobe_memory_aggregate_get_totals (agg, is_b ? &self->totals_b : &self->totals_a);
  n = strobe_memory_aggregate_get_n_rows (agg);
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryRow r;
      g_autofree char *name = NULL;
      StrobeCompareMemorySite *site;
      gpointer at;

      strobe_memory_aggregate_get_rows (agg, i, 1, &r);
      name = site_name (model, sym, by, &r);
      if (g_hash_table_lookup_extended (index, name, NULL, &at))
        site = &g_array_index (self->sites, StrobeCompareMemorySite, GPOINTER_TO_UINT (at));
      else
        {
          StrobeCompareMemorySite s = { g_strdup (name), 0, { 0 }, { 0 } };

          g_array_append_val (self->sites, s);
          g_hash_table_insert (index, g_strdup (name), GUINT_TO_POINTER (self->sites->len - 1));
          site = &g_array_index (self->sites, StrobeCompareMemorySite, self->sites->len - 1);
        }
      site->in |= is_b ? STROBE_COMPARE_IN_B : STROBE_COMPARE_IN_A;
      add_costs (is_b ? &site->b : &site->a, &r.costs);
    }
  return TRUE;
}

StrobeCompareMemory *
strobe_compare_memory (StrobeDocument *a, const StrobeCompareSpan *span_a,
                       StrobeDocument *b, const StrobeCompareSpan *span_b,
                       StrobeMemoryGroupBy by, GCancellable *cancellable, GError **error)
{
  g_autoptr(StrobeCompareMemory) self = NULL;
  g_autoptr(GHashTable) index = NULL;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (a) && STROBE_IS_DOCUMENT (b), NULL);
  g_return_val_if_fail (span_a != NULL && span_b != NULL, NULL);
  g_return_val_if_fail (strobe_document_get_memory (a) && strobe_document_get_memory (b), NULL);
  g_return_val_if_fail (by == STROBE_MEMORY_BY_FUNCTION || by == STROBE_MEMORY_BY_STACK ||
                        by == STROBE_MEMORY_BY_TAG || by == STROBE_MEMORY_BY_HEAP, NULL);

  self = g_new0 (StrobeCompareMemory, 1);
  self->sites = g_array_new (FALSE, TRUE, sizeof (StrobeCompareMemorySite));
  g_array_set_clear_func (self->sites, site_clear);
  index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!collect (self, index, a, span_a, by, FALSE, cancellable, error) ||
      !collect (self, index, b, span_b, by, TRUE, cancellable, error))
    return NULL;
  g_array_sort (self->sites, site_cmp);
  return g_steal_pointer (&self);
}

void
strobe_compare_memory_free (StrobeCompareMemory *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->sites);
  g_free (self);
}
