/* strobe-cli-memory.c — `strobe-cli memory FILE`: allocation totals, peak, heaps, top
 * tags, the size histogram and the leaks of a trace's Memory channel; with --by, where
 * memory went (strobe-cli-memory-report.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-cli-memory-massif.h"
#include "strobe-cli-memory-report.h"
#include "strobe-cli-memory-suppress.h"
#include "strobe-cli-memory-tree.h"
#include "strobe-memory-model.h"
#include "strobe-memory-query.h"
#include "strobe-memory-symbols.h"

static const char *
fmt_s (char *buf, gdouble v)
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.6f", v);
}

static gint
by_live_bytes (gconstpointer a, gconstpointer b)
{
  const StrobeMemoryGroup *x = *(const StrobeMemoryGroup *const *) a;
  const StrobeMemoryGroup *y = *(const StrobeMemoryGroup *const *) b;

  if (x->peak_live_bytes != y->peak_live_bytes)
    return x->peak_live_bytes > y->peak_live_bytes ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static void
print_groups (const char *title, GPtrArray *groups, gboolean heaps, gint top)
{
  printf ("\n%s (%u)\n", title, groups->len);
  printf ("  %-5s %-20s %10s %10s %14s %14s %14s%s\n", _("id"), _("name"), _("allocs"), _("frees"),
          _("live bytes"), _("peak bytes"), _("total bytes"), heaps ? _("  reserved") : "");
  for (guint i = 0; i < groups->len && (top < 0 || i < (guint) top); i++)
    {
      const StrobeMemoryGroup *g = g_ptr_array_index (groups, i);
      g_autofree char *name = strobe_text_escape (g->name ? g->name : (!heaps && g->id == 0) ? _("(untagged)") : "?",
                                                  STROBE_TEXT_PLAIN);

      printf ("  %-5u %-20s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT
              " %14" G_GINT64_FORMAT " %14" G_GUINT64_FORMAT, g->id, name, g->allocs, g->frees,
              g->live_bytes, g->peak_live_bytes, g->bytes_allocated);
      if (heaps)
        printf ("  %" G_GINT64_FORMAT, g->reserved_bytes);
      putchar ('\n');
    }
}

/* The totals, heaps, top tags and (@histogram) the sizes. */
static void
print_summary (StrobeMemoryModel *model, const StrobeMemorySummary *s, const StrobeTraceClock *clock, gint top,
               gboolean histogram)
{
  g_autoptr(GPtrArray) heaps = strobe_memory_model_get_heaps (model);
  g_autoptr(GPtrArray) tags = strobe_memory_model_get_tags (model);
  char b1[G_ASCII_DTOSTR_BUF_SIZE];

  printf ("%-18s %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " %s, %" G_GUINT64_FORMAT " %s)\n", _("Allocations:"),
          s->allocs, s->reallocs, _("by realloc"), s->temporary, _("temporary"));
  printf ("%-18s %" G_GUINT64_FORMAT "\n", _("Frees:"), s->frees);
  printf ("%-18s %" G_GUINT64_FORMAT "\n", _("Bytes allocated:"), s->bytes_allocated);
  printf ("%-18s %" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT " %s\n", _("Live at end:"), s->live_bytes,
          _("bytes in"), s->live_count, _("allocations"));
  printf ("%-18s %" G_GINT64_FORMAT " %s %s s\n", _("Peak:"), s->peak_bytes, _("bytes at"),
          fmt_s (b1, strobe_trace_clock_to_seconds (clock, s->peak_time)));
  if ((s->unmatched_frees && !s->partial) || s->replaced_allocs)
    printf ("%-18s %" G_GUINT64_FORMAT " %s, %" G_GUINT64_FORMAT " %s\n", _("Inconsistencies:"),
            s->unmatched_frees, _("frees of unknown addresses"), s->replaced_allocs,
            _("allocations of live addresses"));
  strobe_cli_memory_print_notice (s);

  print_groups (_("Heaps"), heaps, TRUE, -1);
  g_ptr_array_sort (tags, by_live_bytes);
  print_groups (_("Top tags by peak"), tags, FALSE, top);

  if (histogram)
    {
      printf ("\n%s\n", _("Sizes"));
      for (guint k = 0; k < G_N_ELEMENTS (s->histogram_count); k++)
        if (s->histogram_count[k])
          printf ("  %s %-22" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %s %14" G_GUINT64_FORMAT " %s\n",
                  k == 0 ? "=" : "<", k == 0 ? 0 : k >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << k),
                  s->histogram_count[k], _("allocations"), s->histogram_bytes[k], _("bytes"));
    }
}

/* The bytes of @leaks, after removing those the patterns of @path (NULL: none) suppress;
 * says how many were. */
static gboolean
leak_bytes_and_suppressions (StrobeMemoryModel *model, const char *path, GArray *leaks, guint64 *leak_bytes)
{
  g_autoptr (StrobeLeakSuppressions) sup = NULL;
  g_autoptr (GError) error = NULL;

  *leak_bytes = 0;
  if (path)
    {
      g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
      guint64 bytes = 0;
      guint n;

      if ((sup = strobe_leak_suppressions_load (path, &error)) == NULL)
        {
          g_printerr (_("strobe-cli: --suppressions: %s\n"), error->message);
          return FALSE;
        }
      n = strobe_leak_suppressions_apply (sup, model, sym, leaks, &bytes);
      printf ("%-18s %u %s, %" G_GUINT64_FORMAT " %s (%u %s)\n", _("Suppressed:"), n, _("leaks"), bytes, _("bytes"),
              strobe_leak_suppressions_get_n_patterns (sup), _("patterns"));
    }
  for (guint i = 0; i < leaks->len; i++)
    {
      StrobeMemoryAlloc r;
      strobe_memory_model_get_alloc (model, g_array_index (leaks, guint64, i), &r);
      if (!(r.flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK))
        *leak_bytes += r.size;
    }
  return TRUE;
}

/* The leaks (at most @max_leaks; -1: all), with their stacks when @stacks. */
static void
print_leaks (StrobeMemoryModel *model, GArray *leaks, guint64 leak_bytes, const StrobeTraceClock *clock,
             gint max_leaks, gboolean stacks)
{
  g_autoptr (StrobeSymbolizer) sym = NULL;
  char b1[G_ASCII_DTOSTR_BUF_SIZE];

  printf ("%s (%u, %" G_GUINT64_FORMAT " %s)\n", _("Leaks"), leaks->len, leak_bytes, _("bytes"));
  for (guint i = 0; i < leaks->len && (max_leaks < 0 || i < (guint) max_leaks); i++)
    {
      StrobeMemoryAlloc r;
      char address[24] = "-";   /* records carry addresses only when asked (run --addresses) */

      strobe_memory_model_get_alloc (model, g_array_index (leaks, guint64, i), &r);
      if (r.address != 0)
        g_snprintf (address, sizeof address, "0x%" G_GINT64_MODIFIER "x", r.address);
      printf ("  %12s  %-5u %-16s %10" G_GUINT64_FORMAT " %s %-4u %s %-4u%s%s\n",
              fmt_s (b1, strobe_trace_clock_to_seconds (clock, r.alloc_time)), r.thread_id, address, r.size,
              _("heap"), r.heap, _("tag"), r.tag,
              r.alignment_log2 ? " aligned" : "",
              (r.flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK) ? _(" (heap block)") : "");
      if (stacks && r.callstack)
        {
          if (sym == NULL)
            sym = strobe_memory_symbolizer_new (model);
          strobe_cli_memory_print_stack (model, sym, r.callstack, "        ");
        }
    }
  if (max_leaks >= 0 && leaks->len > (guint) max_leaks)
    printf ("  … %u %s\n", leaks->len - (guint) max_leaks, _("more (--max-leaks=-1 lists all)"));
}

/* The names of --by, --query, --tree and --cost, and --min-percent, checked. */
static gboolean
parse_choices (const char *by_name, const char *query_name, const char *tree_name, const char *cost_name,
               gdouble min_percent, GStrv *by_names, StrobeMemoryGroupBy *by, StrobeMemorySelect *query,
               StrobeMemoryTreeKind *tree_kind, StrobeMemoryCost *cost)
{
  if (by_name && query_name)
    {
      *by_names = g_strsplit (by_name, ",", -1);
      for (guint i = 0; (*by_names)[i]; i++)
        if (!strobe_cli_memory_parse_by ((*by_names)[i], by))
          {
            g_printerr (_("strobe-cli: --by takes stack, function, tag, heap, size or thread, not “%s”\n"), (*by_names)[i]);
            return FALSE;
          }
    }
  else if (by_name && !strobe_cli_memory_parse_by (by_name, by))
    {
      g_printerr (_("strobe-cli: --by takes stack, function, tag, heap, size or thread, not “%s”\n"), by_name);
      return FALSE;
    }
  if (query_name && !strobe_cli_memory_parse_query (query_name, query))
    {
      g_printerr (_("strobe-cli: --query takes live-at, allocated, allocated-live, freed, leaks, short-lived or long-lived, not “%s”\n"),
                  query_name);
      return FALSE;
    }
  if (tree_name && !strobe_cli_memory_parse_tree (tree_name, tree_kind))
    {
      g_printerr (_("strobe-cli: --tree takes top-down or bottom-up, not “%s”\n"), tree_name);
      return FALSE;
    }
  if (cost_name && !strobe_cli_memory_parse_cost (cost_name, cost))
    {
      g_printerr (_("strobe-cli: --cost takes peak, leaked, allocations, temporary or bytes, not “%s”\n"), cost_name);
      return FALSE;
    }
  if (min_percent < 0 || min_percent > 100)
    {
      g_printerr (_("strobe-cli: --min-percent takes a number from 0 to 100\n"));
      return FALSE;
    }
  return TRUE;
}

/* Reads @file into a memory model: a summary one (strobe_memory_model_new_summary: only
 * what is live is kept, not every allocation's past) when @summary — the report of the
 * whole trace needs no more, and its memory is then in proportion to the live set, not
 * to the trace. STROBE_CLI_MEMORY_FULL=1 reads into a full model anyway (tests compare
 * the two). */
static int
load_model (const char *file, gboolean summary, StrobeDocument **document, StrobeMemoryModel **model)
{
  g_autoptr(GError) error = NULL;
  int status;

  if (summary && g_strcmp0 (g_getenv ("STROBE_CLI_MEMORY_FULL"), "1") == 0)
    summary = FALSE;
  if (summary)
    {
      *model = strobe_memory_model_new_summary ();
      status = strobe_cli_load (file, 0, STROBE_ANALYZER (*model), document, &error);
    }
  else
    {
      status = strobe_cli_load (file, STROBE_DOCUMENT_MODEL_MEMORY, NULL, document, &error);
      *model = g_object_ref (strobe_document_get_memory (*document));
    }
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  return status;
}

int
strobe_cli_memory (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(GStrv) original = g_strdupv (argv);   /* for several FILEs: each again */
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeMemoryModel) model = NULL;
  StrobeTraceClock clock;
  g_autoptr(GArray) leaks = NULL;
  g_autofree char *at = NULL, *by_name = NULL, *from = NULL, *to = NULL;
  g_autofree char *tree_name = NULL, *cost_name = NULL, *callers_of = NULL;
  g_autofree char *query_name = NULL, *lifetime = NULL;
  StrobeMemorySelect query = STROBE_MEMORY_SELECT_LEAKS;
  g_auto (GStrv) by_names = NULL;
  StrobeMemoryTreeKind tree_kind = STROBE_MEMORY_TREE_TOP_DOWN;
  StrobeMemoryCost cost = STROBE_MEMORY_COST_PEAK;
  gdouble min_percent = 1.0;
  gboolean flame = FALSE, massif = FALSE, summary;
  g_autofree char *suppressions = NULL;
  StrobeMemoryGroupBy by = STROBE_MEMORY_BY_STACK;
  guint64 t0 = 0, t1 = G_MAXUINT64;
  gboolean only_leaks = FALSE, histogram = FALSE, stacks = FALSE;
  gint top = 10, max_leaks = 50;
  StrobeMemorySummary s;
  guint64 leak_bytes = 0, at_time = 0;
  char b1[G_ASCII_DTOSTR_BUF_SIZE];
  const char *file;
  int status = STROBE_CLI_OK;
  GOptionEntry entries[] = {
    { "leaks", 0, 0, G_OPTION_ARG_NONE, &only_leaks, N_("Print only the allocations never freed"), NULL },
    { "max-leaks", 0, 0, G_OPTION_ARG_INT, &max_leaks, N_("List at most N leaks (default 50; -1: all)"), N_("N") },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Show the N tags (and --by groups) with the highest peak (default 10; -1: all)"), N_("N") },
    { "histogram", 0, 0, G_OPTION_ARG_NONE, &histogram, N_("Print the allocation size histogram"), NULL },
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &stacks, N_("Print the call stack of each leak (and of each --by=stack row), symbolized"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by_name, N_("Group the costs by stack, function, tag, heap, size or thread"), N_("WHAT") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("--by: only the part from TIME on (seconds from the start)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("--by: only the part up to TIME"), N_("TIME") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at, N_("Also print what was live at TIME (seconds from the start; or 250ms…)"), N_("TIME") },
    { "query", 0, 0, G_OPTION_ARG_STRING, &query_name, N_("Run the viewer's query: live-at (--at), allocated, freed (--from, --to), allocated-live (--from, --to, live at --at), leaks, short-lived, long-lived (--from, --to, --lifetime); --by groups its answer (by each of a comma-separated list)"), N_("KIND") },
    { "lifetime", 0, 0, G_OPTION_ARG_STRING, &lifetime, N_("--query=short-lived or long-lived: the lifetime (default 1ms)"), N_("DURATION") },
    { "tree", 0, 0, G_OPTION_ARG_STRING, &tree_name, N_("Print the call tree, top-down or bottom-up"), N_("WHICH") },
    { "min-percent", 0, 0, G_OPTION_ARG_DOUBLE, &min_percent, N_("--tree: leave out nodes under P % of the total (default 1)"), N_("P") },
    { "callers", 0, 0, G_OPTION_ARG_STRING, &callers_of, N_("Print the callers and callees of the functions whose name contains FUNCTION"), N_("FUNCTION") },
    { "flame", 0, 0, G_OPTION_ARG_NONE, &flame, N_("Print only folded stacks, for flamegraph.pl or speedscope"), NULL },
    { "massif", 0, 0, G_OPTION_ARG_NONE, &massif, N_("Print only a massif file of the heap over time, for ms_print or massif-visualizer (--min-percent: its threshold)"), NULL },
    { "suppressions", 0, 0, G_OPTION_ARG_FILENAME, &suppressions, N_("Leave out the leaks whose call stack matches a pattern of FILE (one a line, “leak:” optional; * and ? as wildcards)"), N_("FILE") },
    { "cost", 0, 0, G_OPTION_ARG_STRING, &cost_name, N_("--tree, --callers, --flame: by peak, leaked, allocations, temporary or bytes (default peak)"), N_("COST") },
    { NULL },
  };

  context = g_option_context_new (_("FILE — summarise the memory allocations of a trace"));
  g_option_context_set_description (context,
    _("Temporary allocations (heaptrack's definition): freed, or reallocated, by the thread that\n"
      "allocated them before that thread allocated anything else.\n"
      "--by prints heaptrack's four costs of each group: peak (what the group held when live\n"
      "memory was highest), leaked (allocated and never freed, or still live at --to),\n"
      "allocations and temporary allocations (allocated in the range), and bytes allocated."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  if (files->len > 1)
    {
      int worst = strobe_cli_run_per_file (original, files, strobe_cli_memory);

      /* The summaries, not the reports (machine-readable ones among them), get a total. */
      if (!flame && !tree_name && !callers_of && !query_name && !by_name && !only_leaks)
        strobe_cli_memory_print_total (files);
      return worst;
    }
  file = g_ptr_array_index (files, 0);
  if (!parse_choices (by_name, query_name, tree_name, cost_name, min_percent, &by_names, &by, &query, &tree_kind,
                      &cost))
    return STROBE_CLI_USAGE_ERROR;
  summary = !flame && !massif && !at && !query_name && !by_name && !tree_name && !callers_of;
  status = load_model (file, summary, &document, &model);
  if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return status;
  if (at && !strobe_cli_parse_trace_time (document, "--at", at, &at_time))
    return STROBE_CLI_USAGE_ERROR;
  if (!strobe_cli_time_range (document, from, to, &t0, &t1))
    return STROBE_CLI_USAGE_ERROR;
  strobe_document_get_clock (document, &clock);
  /* Folded stacks alone, to pipe into flamegraph.pl. */
  if (flame)
    return strobe_cli_memory_print_flame (model, t0, t1, cost) != STROBE_CLI_OK ? STROBE_CLI_FAILED : status;
  if (massif)
    {
      g_autofree char *name = g_path_get_basename (file);
      return strobe_cli_memory_print_massif (model, &clock, name, min_percent) != STROBE_CLI_OK ? STROBE_CLI_FAILED : status;
    }
  strobe_memory_model_get_summary (model, &s);
  leaks = strobe_memory_model_leaks (model);
  if (!leak_bytes_and_suppressions (model, suppressions, leaks, &leak_bytes))
    return STROBE_CLI_FAILED;
  if (!only_leaks)
    {
      print_summary (model, &s, &clock, top, histogram);
      if (at)
        {
          /* The viewer's "Live at A" query: the same selection and totals. */
          StrobeMemorySelection sel = { STROBE_MEMORY_SELECT_LIVE_AT, at_time, 0, 0 };
          g_autoptr(StrobeMemoryAllocList) live = NULL;
          guint64 bytes = 0, count = 0;

          live = strobe_memory_model_select (model, &sel, NULL, NULL, NULL, &error);
          if (live == NULL)
            {
              g_printerr ("strobe-cli: --at: %s\n", error->message);
              return STROBE_CLI_FAILED;
            }
          strobe_memory_alloc_list_get_totals (live, &count, &bytes);
          printf ("\n%s %s s: %" G_GUINT64_FORMAT " %s %" G_GUINT64_FORMAT " %s\n", _("Live at"),
                  fmt_s (b1, strobe_trace_clock_to_seconds (&clock, at_time)), bytes, _("bytes in"),
                  count, _("allocations"));
        }
      if (query_name)
        {
          StrobeMemorySelection sel = { query, MIN (t0, t1), t1, at ? at_time : G_MAXUINT64 };
          gdouble life = 1e-3;

          if (lifetime && !strobe_cli_parse_time (lifetime, &life))
            {
              g_printerr (_("strobe-cli: --lifetime takes a duration (seconds, or with ns, us, ms, s), not “%s”\n"), lifetime);
              return STROBE_CLI_USAGE_ERROR;
            }
          /* As the viewer: "live at" is at A, the lifetimes are ticks. */
          if (query == STROBE_MEMORY_SELECT_LIVE_AT)
            sel.a = at ? at_time : G_MAXUINT64;
          if (query == STROBE_MEMORY_SELECT_SHORT_LIVED || query == STROBE_MEMORY_SELECT_LONG_LIVED)
            sel.c = strobe_trace_clock_ticks (&clock, life);
          if (strobe_cli_memory_print_query (model, &sel, (const char *const *) by_names, top) != 0)
            status = STROBE_CLI_FAILED;
        }
      else if (by_name && strobe_cli_memory_print_by (model, by, t0, t1, top, stacks) != 0)
        status = STROBE_CLI_FAILED;
      if (tree_name && strobe_cli_memory_print_tree (model, t0, t1, tree_kind, cost, min_percent) != STROBE_CLI_OK)
        status = STROBE_CLI_FAILED;
      if (callers_of && strobe_cli_memory_print_callers (model, t0, t1, cost, callers_of) != STROBE_CLI_OK)
        status = STROBE_CLI_FAILED;
      printf ("\n");
    }

  print_leaks (model, leaks, leak_bytes, &clock, max_leaks, stacks);
  return status;
}
