/* strobe-sample-roots.h — whether sampled call stacks look whole: the kernel walks frame
 * pointers, and through code built without them (most distributions' programs and
 * libraries) the walk reads stack data as return addresses, so the stacks end in
 * addresses that are no function. The views say so, with what to do (stack copies).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-sample-model.h"
#include "strobe-symbolizer.h"

G_BEGIN_DECLS

/* From this share on, the views say the stacks are cut and what to do. */
#define STROBE_SAMPLE_CUT_SHARE_NOTE 0.2

/* The share (0 to 1) of @tree's samples with a cut stack: of one frame, or whose
 * outermost frame is no function — outside every module, or in a module with symbols but
 * at no function of it (a module without symbols names none of its functions: those
 * count as whole) — or "[truncated]", a stack deeper than its copy reached
 * (strobe-sample-unwind.c). @tree: top-down or bottom-up, keyed by @symbolizer's frame
 * function. */
gdouble strobe_sample_tree_cut_share (StrobeSampleTree *tree,
                                      StrobeSymbolizer *symbolizer);
/* What the user is told about @share of cut stacks (translated), with what to do: record
 * stack copies, or bigger ones when @samples has copies already. */
char   *strobe_sample_cut_note       (StrobeSampleModel *samples,
                                      gdouble            share);
/* The same in a few words (translated), for a line beside the trees; the note is told
 * when asked for. */
char   *strobe_sample_cut_headline   (gdouble            share);

G_END_DECLS
