/* strobe-sample-roots.c — see strobe-sample-roots.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-sample-roots.h"

#include <glib/gi18n.h>

#include "strobe-memory-records.h"

static gboolean
is_cut (StrobeSampleTree *tree, StrobeSymbolizer *symbolizer, guint64 key)
{
  StrobeMemoryFrame frame;
  const StrobeSymbolization *s;
  guint depth;

  if (!strobe_sample_tree_get_frame (tree, key, &frame, &depth))
    return FALSE;   /* the root: samples without a stack, said apart */
  if (frame.module == 0 && frame.address == STROBE_MEMNODE_TRUNCATED)
    return TRUE;    /* deeper than the runtime's limit, or than the stack copy reached */
  s = strobe_symbolizer_lookup (symbolizer, frame.module, frame.address);
  if (depth < s->n_frames && s->frames[depth].function)
    return FALSE;
  return frame.module == 0 || strobe_symbolizer_module_has_symbols (symbolizer, frame.module);
}

gdouble
strobe_sample_tree_cut_share (StrobeSampleTree *tree, StrobeSymbolizer *symbolizer)
{
  StrobeCostTree *cost;
  gboolean top_down;
  guint64 total, cut = 0;
  guint n;

  g_return_val_if_fail (tree != NULL, 0);
  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (symbolizer), 0);

  cost = strobe_sample_tree_get_tree (tree);
  total = strobe_sample_tree_get_total (tree);
  top_down = strobe_cost_tree_get_kind (cost) == STROBE_COST_TREE_TOP_DOWN;
  n = strobe_cost_tree_get_n_nodes (cost);
  /* The stacks whose outermost frame a node is: top-down, a child of the root (all of
   * its inclusive value); bottom-up, where paths end (its inclusive value less its
   * children's). Of those, the stacks of one frame: top-down, the root's child's self;
   * bottom-up, the ends at depth 1. One frame is cut too: sampled code always has a
   * caller (the kernel stops its walk at once when the frame-pointer register holds no
   * stack address). */
  for (guint32 node = 1; node < n; node++)
    {
      gboolean first = strobe_cost_tree_get_depth (cost, node) == 1;
      guint64 ends, alone;

      if (top_down && !first)
        continue;
      ends = strobe_cost_tree_get_inclusive (cost, node, 0);
      if (!top_down)
        for (guint32 c = strobe_cost_tree_get_first_child (cost, node); c != STROBE_COST_NODE_NONE;
             c = strobe_cost_tree_get_next_sibling (cost, c))
          ends -= MIN (ends, strobe_cost_tree_get_inclusive (cost, c, 0));
      if (ends == 0)
        continue;
      alone = !first ? 0 : top_down ? strobe_cost_tree_get_self (cost, node, 0) : ends;
      cut += is_cut (tree, symbolizer, strobe_cost_tree_get_key (cost, node)) ? ends : alone;
    }
  return total ? (gdouble) cut / (gdouble) total : 0;
}

char *
strobe_sample_cut_note (StrobeSampleModel *samples, gdouble share)
{
  StrobeSampleSummary summary = { 0 };

  g_return_val_if_fail (STROBE_IS_SAMPLE_MODEL (samples), NULL);
  strobe_sample_model_get_summary (samples, &summary);
  if (summary.copies > 0)
    return g_strdup_printf (_("%.0f %% of the sampled call stacks were deeper than the copy of the stack each sample "
                              "took (%" G_GUINT64_FORMAT " bytes on average): their outer frames are unknown "
                              "(“[truncated]”). Record with a bigger copy (--sample-stack=32768 or "
                              "STROBE_SAMPLING_STACK=32768) for whole stacks. The kernel also shortens the copies "
                              "when a thread’s ring is nearly full, as it is under a small locked-memory limit "
                              "(kernel.perf_event_mlock_kb)."),
                            100.0 * share, summary.copy_bytes / summary.copies);
  return g_strdup_printf (_("%.0f %% of the sampled call stacks are cut short: the kernel’s frame-pointer walk "
                            "went through code built without frame pointers, so they end after one frame or in an "
                            "address that is no function, and the top-down tree and the callers are incomplete "
                            "(the innermost frames, bottom-up, are right). Record with --sample-stack "
                            "(STROBE_SAMPLING_STACK=8192) for whole stacks."),
                          100.0 * share);
}

char *
strobe_sample_cut_headline (gdouble share)
{
  g_return_val_if_fail (share >= 0 && share <= 1, NULL);
  /* Translators: a short line above the sampled call trees; a Why? button beside it tells
   * the rest */
  return g_strdup_printf (_("%.0f %% of the sampled call stacks are incomplete"), 100.0 * share);
}
