/* strobe-cli-memory-tree.c — `strobe-cli memory --tree`, `--callers`, `--flame`: the
 * memory call trees (StrobeMemoryTree, a StrobeCostTree) and their callers view printed
 * as heaptrack_print does, functions named by the symbolizer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "strobe-cli.h"
#include "strobe-cli-memory-tree.h"
#include "strobe-memory-callers.h"
#include "strobe-memory-symbols.h"
#include "strobe-text.h"

static const char *const tree_names[] = { "top-down", "bottom-up" };
static const char *const cost_names[] = { "peak", "leaked", "allocations", "temporary", "bytes" };

gboolean
strobe_cli_memory_parse_tree (const char *s, StrobeMemoryTreeKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (tree_names); i++)
    if (g_str_equal (s, tree_names[i]))
      {
        *kind = i == 0 ? STROBE_MEMORY_TREE_TOP_DOWN : STROBE_MEMORY_TREE_BOTTOM_UP;
        return TRUE;
      }
  return FALSE;
}

gboolean
strobe_cli_memory_parse_cost (const char *s, StrobeMemoryCost *cost)
{
  static const StrobeMemoryCost costs[] = {
    STROBE_MEMORY_COST_PEAK, STROBE_MEMORY_COST_LEAKED, STROBE_MEMORY_COST_ALLOCATIONS,
    STROBE_MEMORY_COST_TEMPORARY, STROBE_MEMORY_COST_BYTES,
  };

  for (guint i = 0; i < G_N_ELEMENTS (cost_names); i++)
    if (g_str_equal (s, cost_names[i]))
      {
        *cost = costs[i];
        return TRUE;
      }
  return FALSE;
}

static const char *
cost_label (StrobeMemoryCost cost)
{
  switch (cost)
    {
    case STROBE_MEMORY_COST_PEAK: return _("peak bytes");
    case STROBE_MEMORY_COST_LEAKED: return _("leaked bytes");
    case STROBE_MEMORY_COST_ALLOCATIONS: return _("allocations");
    case STROBE_MEMORY_COST_TEMPORARY: return _("temporary allocations");
    case STROBE_MEMORY_COST_BYTES:
    case STROBE_MEMORY_COST_KEY:
    default: return _("bytes allocated");
    }
}

static gint64
cost_value (const StrobeMemoryCosts *c, StrobeMemoryCost cost)
{
  switch (cost)
    {
    case STROBE_MEMORY_COST_PEAK: return c->peak_bytes;
    case STROBE_MEMORY_COST_LEAKED: return c->leaked_bytes;
    case STROBE_MEMORY_COST_ALLOCATIONS: return (gint64) MIN (c->allocations, (guint64) G_MAXINT64);
    case STROBE_MEMORY_COST_TEMPORARY: return (gint64) MIN (c->temporary, (guint64) G_MAXINT64);
    case STROBE_MEMORY_COST_BYTES:
    case STROBE_MEMORY_COST_KEY:
    default: return (gint64) MIN (c->bytes_allocated, (guint64) G_MAXINT64);
    }
}

/* A function's name (from a frame and its inline depth), escaped for a terminal. */
static char *
function_name (StrobeSymbolizer *sym, guint64 key, const StrobeMemoryFrame *frame, guint inline_depth)
{
  const StrobeSymbolization *s;
  g_autofree char *name = NULL;

  if (key == 0 && frame->address == 0)
    return g_strdup (_("(no stack)"));
  s = strobe_symbolizer_lookup (sym, frame->module, frame->address);
  name = strobe_symbolization_format (s, inline_depth);
  return strobe_text_escape (name, STROBE_TEXT_PLAIN);
}

static StrobeMemoryTree *
build (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryTreeKind kind, StrobeSymbolizer *sym)
{
  g_autoptr (GError) error = NULL;
  StrobeMemoryTree *tree = strobe_memory_model_build_tree (model, t0, t1, kind, strobe_memory_symbolizer_frame_func,
                                                           sym, NULL, NULL, NULL, &error);

  if (tree == NULL)
    g_printerr ("strobe-cli: %s\n", error->message);
  return tree;
}

typedef struct
{
  StrobeMemoryTree *tree;
  StrobeSymbolizer *sym;
  StrobeMemoryCost  cost;
  gdouble           total;
  gdouble           min_percent;
} TreePrint;

static void
print_subtree (TreePrint *p, guint32 node)
{
  StrobeMemoryTreeNode n;
  guint32 kids[64];
  guint first = 0, got, hidden = 0;

  strobe_memory_tree_get_node (p->tree, node, &n);
  do
    {
      got = strobe_memory_tree_get_children (p->tree, node, p->cost, first, G_N_ELEMENTS (kids), kids);
      for (guint i = 0; i < got; i++)
        {
          StrobeMemoryTreeNode c;
          gint64 v;
          g_autofree char *name = NULL;

          strobe_memory_tree_get_node (p->tree, kids[i], &c);
          v = cost_value (&c.inclusive, p->cost);
          /* Children come largest first: the rest are below the threshold too. */
          if (p->total <= 0 || 100.0 * (gdouble) v / p->total < p->min_percent)
            {
              hidden += n.n_children - (first + i);
              got = 0;
              break;
            }
          name = function_name (p->sym, c.key, &c.frame, c.inline_depth);
          printf ("%*s%6.2f %%  %" G_GINT64_FORMAT "  %s\n", 2 * (int) c.depth, "",
                  100.0 * (gdouble) v / p->total, v, name);
          print_subtree (p, kids[i]);
        }
      first += got;
    }
  while (got == G_N_ELEMENTS (kids));
  /* What the root holds itself was allocated without a stack. */
  if (node == 0 && cost_value (&n.self, p->cost) != 0)
    {
      gint64 v = cost_value (&n.self, p->cost);
      if (p->total > 0 && 100.0 * (gdouble) v / p->total >= p->min_percent)
        printf ("  %6.2f %%  %" G_GINT64_FORMAT "  %s\n", 100.0 * (gdouble) v / p->total, v, _("(no stack)"));
      else
        hidden++;
    }
  if (hidden)
    printf ("%*s… %u %s\n", 2 * (int) n.depth + 2, "", hidden, _("below the threshold"));
}

int
strobe_cli_memory_print_tree (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryTreeKind kind,
                              StrobeMemoryCost cost, gdouble min_percent)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (StrobeMemoryTree) tree = build (model, t0, t1, kind, sym);
  StrobeMemoryTreeNode root;
  TreePrint p;
  char percent[G_ASCII_DTOSTR_BUF_SIZE];

  if (tree == NULL)
    return STROBE_CLI_FAILED;
  strobe_memory_tree_get_node (tree, 0, &root);
  p.tree = tree;
  p.sym = sym;
  p.cost = cost;
  p.total = (gdouble) cost_value (&root.inclusive, cost);
  p.min_percent = min_percent;
  printf ("\n%s, %s (%s %s %%)\n", kind == STROBE_MEMORY_TREE_TOP_DOWN ? _("Top-down call tree") : _("Bottom-up call tree"),
          cost_label (cost), _("nodes of at least"), g_ascii_formatd (percent, sizeof percent, "%g", min_percent));
  printf ("%6.2f %%  %" G_GINT64_FORMAT "  %s\n", 100.0, cost_value (&root.inclusive, cost), _("(total)"));
  print_subtree (&p, 0);
  return STROBE_CLI_OK;
}

static void
print_calls (StrobeMemoryCallers *callers, StrobeSymbolizer *sym, guint f, gboolean to_callers, guint n,
             StrobeMemoryCost cost)
{
  for (guint i = 0; i < n; i++)
    {
      StrobeMemoryCall call;
      g_autofree char *name = NULL;

      if (to_callers)
        strobe_memory_callers_get_callers (callers, f, i, 1, &call);
      else
        strobe_memory_callers_get_callees (callers, f, i, 1, &call);
      name = function_name (sym, call.key, &call.frame, call.inline_depth);
      printf ("    %16" G_GINT64_FORMAT "  %s\n", cost_value (&call.costs, cost), name);
    }
}

int
strobe_cli_memory_print_callers (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryCost cost,
                                 const char *function)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (StrobeMemoryTree) tree = build (model, t0, t1, STROBE_MEMORY_TREE_TOP_DOWN, sym);
  g_autoptr (StrobeMemoryCallers) callers = NULL;
  g_autoptr (GError) error = NULL;
  guint found = 0;

  if (tree == NULL)
    return STROBE_CLI_FAILED;
  callers = strobe_memory_callers_new (tree, NULL, &error);
  if (callers == NULL)
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_FAILED;
    }
  strobe_memory_callers_sort (callers, cost, TRUE);
  for (guint f = 0; f < strobe_memory_callers_get_n_functions (callers); f++)
    {
      StrobeMemoryFunction fn;
      g_autofree char *name = NULL;

      strobe_memory_callers_get_function (callers, f, &fn);
      name = function_name (sym, fn.key, &fn.frame, fn.inline_depth);
      if (strstr (name, function) == NULL)
        continue;
      found++;
      printf ("\n%s  (%s: %" G_GINT64_FORMAT " %s, %" G_GINT64_FORMAT " %s)\n", name, cost_label (cost),
              cost_value (&fn.inclusive, cost), _("inclusive"), cost_value (&fn.self, cost), _("self"));
      printf ("  %s (%u)\n", _("Callers"), fn.n_callers);
      print_calls (callers, sym, f, TRUE, fn.n_callers, cost);
      printf ("  %s (%u)\n", _("Callees"), fn.n_callees);
      print_calls (callers, sym, f, FALSE, fn.n_callees, cost);
    }
  if (found == 0)
    {
      g_autofree char *shown = strobe_text_escape (function, STROBE_TEXT_PLAIN);
      g_printerr (_("strobe-cli: no function's name contains “%s”\n"), shown);
      return STROBE_CLI_FAILED;
    }
  return STROBE_CLI_OK;
}

/* flamegraph.pl splits frames at ';' and the value at the last space. */
static void
append_frame (GString *path, const char *name)
{
  if (path->len)
    g_string_append_c (path, ';');
  for (const char *c = name; *c; c++)
    g_string_append_c (path, *c == ';' ? ',' : *c);
}

static void
print_folded (StrobeMemoryTree *tree, StrobeSymbolizer *sym, StrobeMemoryCost cost, guint32 node, GString *path)
{
  StrobeMemoryTreeNode n;
  guint32 kids[64];
  guint first = 0, got;
  gsize len = path->len;

  strobe_memory_tree_get_node (tree, node, &n);
  if (node != 0)
    {
      g_autofree char *name = function_name (sym, n.key, &n.frame, n.inline_depth);
      append_frame (path, name);
    }
  if (cost_value (&n.self, cost) > 0)
    printf ("%s %" G_GINT64_FORMAT "\n", node == 0 ? _("(no stack)") : path->str, cost_value (&n.self, cost));
  do
    {
      got = strobe_memory_tree_get_children (tree, node, cost, first, G_N_ELEMENTS (kids), kids);
      for (guint i = 0; i < got; i++)
        print_folded (tree, sym, cost, kids[i], path);
      first += got;
    }
  while (got == G_N_ELEMENTS (kids));
  g_string_truncate (path, len);
}

int
strobe_cli_memory_print_flame (StrobeMemoryModel *model, guint64 t0, guint64 t1, StrobeMemoryCost cost)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (StrobeMemoryTree) tree = build (model, t0, t1, STROBE_MEMORY_TREE_TOP_DOWN, sym);
  g_autoptr (GString) path = g_string_new (NULL);

  if (tree == NULL)
    return STROBE_CLI_FAILED;
  print_folded (tree, sym, cost, 0, path);
  return STROBE_CLI_OK;
}
