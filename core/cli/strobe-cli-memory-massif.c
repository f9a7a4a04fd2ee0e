/* strobe-cli-memory-massif.c — see strobe-cli-memory-massif.h. The format is massif's
 * "massif.out" (valgrind's docs/massif-format): a header, then "snapshot=N" blocks whose
 * heap trees are lines "nK: BYTES DESCRIPTION", each node's K children following it one
 * space deeper, largest first. A detailed snapshot's tree is the bottom-up call tree of
 * what was live at its time (the "leaked" cost of [start, time]).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "strobe-cli.h"
#include "strobe-cli-memory-massif.h"
#include "strobe-memory-symbols.h"

#define N_SNAPSHOTS    50
#define DETAILED_EVERY 10

typedef struct
{
  StrobeMemoryTree *tree;
  StrobeSymbolizer *sym;
  gint64            total;
  gdouble           threshold;
} Massif;

/* ms_print strips from '#' on as a comment. */
static char *
description (Massif *m, const StrobeMemoryTreeNode *n)
{
  g_autofree char *name = NULL;
  char *line;

  if (n->key == 0 && n->frame.address == 0)
    name = g_strdup (_("(no stack)"));
  else
    name = strobe_symbolization_format (strobe_symbolizer_lookup (m->sym, n->frame.module, n->frame.address),
                                        n->inline_depth);
  line = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x: %s", n->frame.address, name);
  g_strdelimit (line, "#\n\r", ' ');
  return line;
}

static gboolean
significant (Massif *m, gint64 v)
{
  return v > 0 && m->total > 0 && 100.0 * (gdouble) v / (gdouble) m->total >= m->threshold;
}

static void
print_node (Massif *m, guint32 node, guint depth)
{
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint32));
  StrobeMemoryTreeNode n;
  guint32 kids[64];
  guint first = 0, got, below = 0;
  gint64 below_bytes = 0;
  g_autofree char *desc = NULL;

  strobe_memory_tree_get_node (m->tree, node, &n);
  do
    {
      got = strobe_memory_tree_get_children (m->tree, node, STROBE_MEMORY_COST_LEAKED, first, G_N_ELEMENTS (kids), kids);
      for (guint i = 0; i < got; i++)
        {
          StrobeMemoryTreeNode c;

          strobe_memory_tree_get_node (m->tree, kids[i], &c);
          if (significant (m, c.inclusive.leaked_bytes))
            g_array_append_val (shown, kids[i]);
          else if (c.inclusive.leaked_bytes > 0)
            {
              below++;
              below_bytes += c.inclusive.leaked_bytes;
            }
        }
      first += got;
    }
  while (got == G_N_ELEMENTS (kids));
  /* The root's own bytes were allocated without a stack: one more place. */
  if (node == 0 && n.self.leaked_bytes > 0)
    {
      below++;
      below_bytes += n.self.leaked_bytes;
    }
  if (node == 0)
    desc = g_strdup ("(heap allocation functions) malloc/new/new[], --alloc-fns, etc.");
  else
    desc = description (m, &n);
  printf ("%*sn%u: %" G_GINT64_FORMAT " %s\n", (int) depth, "", shown->len + (below ? 1 : 0),
          MAX (n.inclusive.leaked_bytes, 0), desc);
  for (guint i = 0; i < shown->len; i++)
    print_node (m, g_array_index (shown, guint32, i), depth + 1);
  if (below)
    printf ("%*sn0: %" G_GINT64_FORMAT " in %u place%s, %s below massif's threshold (%.2f%%)\n", (int) depth + 1, "",
            below_bytes, below, below == 1 ? "" : "s", below == 1 ? "" : "all", m->threshold);
}

static void
print_snapshot (guint number, guint64 ms, gint64 heap_bytes, const char *kind)
{
  printf ("#-----------\nsnapshot=%u\n#-----------\n", number);
  printf ("time=%" G_GUINT64_FORMAT "\nmem_heap_B=%" G_GINT64_FORMAT "\nmem_heap_extra_B=0\nmem_stacks_B=0\n", ms,
          MAX (heap_bytes, 0));
  printf ("heap_tree=%s\n", kind);
}

static gint
by_time (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

int
strobe_cli_memory_print_massif (StrobeMemoryModel *model, const StrobeTraceClock *clock, const char *cmd,
                                gdouble threshold)
{
  g_autoptr (StrobeSymbolizer) sym = strobe_memory_symbolizer_new (model);
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *command = g_strdup (cmd);
  StrobeMemorySummary s;

  strobe_memory_model_get_summary (model, &s);
  g_strdelimit (command, "#\n\r", ' ');
  printf ("desc: (none)\ncmd: %s\ntime_unit: ms\n", command);
  /* Evenly over the trace, and the peak. */
  for (guint k = 0; k < N_SNAPSHOTS && s.allocs; k++)
    {
      guint64 t = s.first_time + (guint64) ((gdouble) (s.last_time - s.first_time) * k / (N_SNAPSHOTS - 1));

      t = MIN (t, s.last_time);
      g_array_append_val (times, t);
    }
  if (s.allocs)
    g_array_append_val (times, s.peak_time);
  g_array_sort (times, by_time);
  if (times->len == 0)
    print_snapshot (0, 0, 0, "empty");
  for (guint k = 0; k < times->len; k++)
    {
      guint64 t = g_array_index (times, guint64, k);
      gboolean peak = t == s.peak_time && (k == 0 || g_array_index (times, guint64, k - 1) != t);
      guint64 ms = (guint64) (strobe_trace_clock_to_seconds (clock, t - s.first_time) * 1000.0);
      gint64 bytes = 0;

      strobe_memory_model_get_totals_at (model, t, &bytes, NULL);
      if (peak || k % DETAILED_EVERY == 0)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (StrobeMemoryTree) tree = NULL;
          StrobeMemoryTreeNode root;
          Massif m = { NULL, sym, 0, threshold };

          tree = strobe_memory_model_build_tree (model, s.first_time, t, STROBE_MEMORY_TREE_BOTTOM_UP,
                                                 strobe_memory_symbolizer_frame_func, sym, NULL, NULL, NULL, &error);
          if (tree == NULL)
            {
              g_printerr ("strobe-cli: %s\n", error->message);
              return STROBE_CLI_FAILED;
            }
          strobe_memory_tree_get_node (tree, 0, &root);
          m.tree = tree;
          /* A node never holds more than its snapshot (ms_print checks). */
          m.total = MAX (bytes, root.inclusive.leaked_bytes);
          print_snapshot (k, ms, m.total, peak ? "peak" : "detailed");
          print_node (&m, 0, 0);
        }
      else
        print_snapshot (k, ms, bytes, "empty");
    }
  return STROBE_CLI_OK;
}
