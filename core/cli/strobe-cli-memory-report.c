/* strobe-cli-memory-report.c — what `strobe-cli memory` prints about where memory went:
 * heaptrack's four costs grouped by stack, function, tag, heap or size (--by), the
 * viewer's allocation queries and their groups (--query), symbolized call stacks
 * (--stacks), and what a late trace cannot know.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-cli-memory-report.h"
#include "strobe-memory-query.h"
#include "strobe-memory-symbols.h"
#include "strobe-text.h"

#define MAX_FRAMES 256

gboolean
strobe_cli_memory_parse_by (const char *s, StrobeMemoryGroupBy *by)
{
  static const struct { const char *name; StrobeMemoryGroupBy by; } names[] = {
    { "stack", STROBE_MEMORY_BY_STACK },
    { "function", STROBE_MEMORY_BY_FUNCTION },
    { "tag", STROBE_MEMORY_BY_TAG },
    { "heap", STROBE_MEMORY_BY_HEAP },
    { "size", STROBE_MEMORY_BY_SIZE },
    { "thread", STROBE_MEMORY_BY_THREAD },
  };

  for (guint i = 0; s && i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (s, names[i].name))
      {
        *by = names[i].by;
        return TRUE;
      }
  return FALSE;
}

gboolean
strobe_cli_memory_parse_query (const char *s, StrobeMemorySelect *kind)
{
  static const struct { const char *name; StrobeMemorySelect kind; } names[] = {
    { "live-at", STROBE_MEMORY_SELECT_LIVE_AT },
    { "allocated", STROBE_MEMORY_SELECT_ALLOCATED },
    { "allocated-live", STROBE_MEMORY_SELECT_ALLOCATED_LIVE },
    { "freed", STROBE_MEMORY_SELECT_FREED },
    { "leaks", STROBE_MEMORY_SELECT_LEAKS },
    { "short-lived", STROBE_MEMORY_SELECT_SHORT_LIVED },
    { "long-lived", STROBE_MEMORY_SELECT_LONG_LIVED },
  };

  for (guint i = 0; s && i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (s, names[i].name))
      {
        *kind = names[i].kind;
        return TRUE;
      }
  return FALSE;
}

void
strobe_cli_memory_print_notice (const StrobeMemorySummary *s)
{
  if (s->partial)
    printf ("%-18s %" G_GUINT64_FORMAT " %s\n", _("Partial trace:"), s->unmatched_frees,
            _("frees of allocations made before the trace began; memory live before the connect is unknown"));
  else if (s->has_snapshot && s->snapshot_allocs)
    printf ("%-18s %" G_GUINT64_FORMAT " %s\n", _("Late trace:"), s->snapshot_allocs,
            _("allocations were live when it began (from the program's live-allocation table)"));
  if (s->dropped || s->lost_records)
    printf ("%-18s %" G_GUINT64_FORMAT " %s, %" G_GUINT64_FORMAT " %s\n", _("Lost:"), s->dropped,
            _("reports the program could not record"), s->lost_records, _("records missing from the trace"));
  if (s->absurd_sizes)
    printf ("%-18s %" G_GUINT64_FORMAT " %s\n", _("Absurd sizes:"), s->absurd_sizes,
            _("allocations of 2^48 bytes or more (counted as 2^48)"));
  if (s->not_analysed)
    printf ("%-18s %" G_GUINT64_FORMAT " %s %" G_GUINT64_FORMAT " MiB\n", _("Not analysed:"), s->not_analysed,
            _("memory events after the model reached its memory budget of"), s->memory_budget >> 20);
}

/* Tag and heap names come from the trace, function names from binaries it names. */
static char *
escaped (char *s)
{
  char *e = strobe_text_escape (s, STROBE_TEXT_PLAIN);

  g_free (s);
  return e;
}

/* Frames of stack @id, symbolized, one per line (inlined ones each on their own). */
void
strobe_cli_memory_print_stack (StrobeMemoryModel *model, StrobeSymbolizer *sym, guint32 id, const char *indent)
{
  StrobeMemoryFrame frames[MAX_FRAMES];
  guint n = strobe_memory_model_get_frames (model, id, frames, MAX_FRAMES);
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frames[i].module, frames[i].address);

      for (guint j = 0; j < s->n_frames; j++)
        {
          g_autofree char *line = escaped (strobe_symbolization_format (s, j));
          printf ("%s#%-2u 0x%-12" G_GINT64_MODIFIER "x %s%s\n", indent, k++, frames[i].address, line,
                  j + 1 < s->n_frames ? _(" [inlined]") : "");
        }
    }
}

static char *
row_name (StrobeMemoryModel *model, StrobeSymbolizer *sym, StrobeMemoryGroupBy by, const StrobeMemoryRow *r)
{
  switch (by)
    {
    case STROBE_MEMORY_BY_TAG:
      {
        char *name = strobe_memory_model_get_tag_name (model, (guint32) r->key);
        return name ? escaped (name) : r->key == 0 ? g_strdup (_("(untagged)")) : g_strdup_printf ("%" G_GUINT64_FORMAT, r->key);
      }
    case STROBE_MEMORY_BY_HEAP:
      {
        char *name = strobe_memory_model_get_heap_name (model, (guint32) r->key);
        return name ? escaped (name) : g_strdup_printf ("%" G_GUINT64_FORMAT, r->key);
      }
    case STROBE_MEMORY_BY_SIZE:
      if (r->key == 0)
        return g_strdup ("= 0");
      return g_strdup_printf ("< %" G_GUINT64_FORMAT, r->key >= 64 ? G_MAXUINT64 : G_GUINT64_CONSTANT (1) << r->key);
    case STROBE_MEMORY_BY_THREAD:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, r->key);
    case STROBE_MEMORY_BY_STACK:
      if (r->key == 0)
        return g_strdup (_("(no stack)"));
      {
        g_autofree char *top = escaped (strobe_memory_symbolizer_describe (sym, &r->frame, " ← "));
        return g_strdup_printf ("%s %" G_GUINT64_FORMAT ": %s", _("stack"), r->key, top);
      }
    case STROBE_MEMORY_BY_FUNCTION:
    default:
      if (r->key == 0 && r->frame.address == 0)
        return g_strdup (_("(no stack)"));
      {
        const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, r->frame.module, r->frame.address);
        return escaped (strobe_symbolization_format (s, 0));
      }
    }
}

int
strobe_cli_memory_print_by (StrobeMemoryModel *model, StrobeMemoryGroupBy by, guint64 t0, guint64 t1, gint top,
                            gboolean stacks)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (StrobeMemoryAggregate) agg = NULL;
  g_autoptr (GError) error = NULL;
  StrobeMemoryCosts totals;
  guint n;

  agg = strobe_memory_model_aggregate (model, t0, t1, by, strobe_memory_symbolizer_frame_func, sym,
                                       NULL, NULL, NULL, &error);
  if (agg == NULL)
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return 1;
    }
  strobe_memory_aggregate_get_totals (agg, &totals);
  n = strobe_memory_aggregate_get_n_rows (agg);
  printf ("\n%s (%u)\n", _("By peak contribution"), n);
  printf ("  %14s %14s %12s %12s %16s  %s\n", _("peak bytes"), _("leaked bytes"), _("allocations"),
          _("temporary"), _("bytes allocated"), _("where"));
  printf ("  %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT
          " %16" G_GUINT64_FORMAT "  %s\n", totals.peak_bytes, totals.leaked_bytes, totals.allocations,
          totals.temporary, totals.bytes_allocated, _("(total)"));
  for (guint i = 0; i < n && (top < 0 || i < (guint) top); i++)
    {
      StrobeMemoryRow r;
      g_autofree char *name = NULL;

      strobe_memory_aggregate_get_rows (agg, i, 1, &r);
      name = row_name (model, sym, by, &r);
      printf ("  %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT
              " %16" G_GUINT64_FORMAT "  %s\n", r.costs.peak_bytes, r.costs.leaked_bytes, r.costs.allocations,
              r.costs.temporary, r.costs.bytes_allocated, name);
      if (stacks && by == STROBE_MEMORY_BY_STACK && r.key)
        strobe_cli_memory_print_stack (model, sym, (guint32) r.key, "      ");
    }
  if (top >= 0 && n > (guint) top)
    printf ("  … %u %s\n", n - (guint) top, _("more (--top=-1 lists all)"));
  return 0;
}

int
strobe_cli_memory_print_query (StrobeMemoryModel *model, const StrobeMemorySelection *sel,
                               const char *const *by_names, gint top)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (StrobeMemoryAllocList) list = NULL;
  g_autoptr (GError) error = NULL;
  guint64 count = 0, bytes = 0;

  list = strobe_memory_model_select (model, sel, NULL, NULL, NULL, &error);
  if (list == NULL)
    {
      g_printerr ("strobe-cli: --query: %s\n", error->message);
      return 1;
    }
  strobe_memory_alloc_list_get_totals (list, &count, &bytes);
  printf ("\n%s: %" G_GUINT64_FORMAT " %s, %" G_GUINT64_FORMAT " %s\n", _("Query"), count, _("allocations"),
          bytes, _("bytes"));
  for (guint b = 0; by_names && by_names[b]; b++)
    {
      g_autoptr (StrobeMemoryAggregate) agg = NULL;
      StrobeMemoryGroupBy by = STROBE_MEMORY_BY_STACK;
      guint n;

      strobe_cli_memory_parse_by (by_names[b], &by);
      agg = strobe_memory_alloc_list_group (list, model, by, strobe_memory_symbolizer_frame_func, sym, NULL, &error);
      if (agg == NULL)
        {
          g_printerr ("strobe-cli: --query: %s\n", error->message);
          return 1;
        }
      n = strobe_memory_aggregate_get_n_rows (agg);
      /* The viewer's groups table: its columns, by bytes. */
      printf ("\n%s %s (%u)\n", _("Groups by"), by_names[b], n);
      printf ("  %12s %16s %12s %16s  %s\n", _("allocations"), _("bytes"), _("never freed"), _("never freed bytes"),
              _("group"));
      for (guint i = 0; i < n && (top < 0 || i < (guint) top); i++)
        {
          StrobeMemoryRow r;
          g_autofree char *name = NULL;

          strobe_memory_aggregate_get_rows (agg, i, 1, &r);
          name = row_name (model, sym, by, &r);
          printf ("  %12" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %16" G_GINT64_FORMAT "  %s\n",
                  r.costs.allocations, r.costs.bytes_allocated, r.costs.leaked_count, MAX (r.costs.leaked_bytes, 0),
                  name);
        }
      if (top >= 0 && n > (guint) top)
        printf ("  … %u %s\n", n - (guint) top, _("more (--top=-1 lists all)"));
    }
  return 0;
}
