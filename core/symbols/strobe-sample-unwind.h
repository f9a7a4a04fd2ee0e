/* strobe-sample-unwind.h — sampled stacks of code without frame pointers: each sample's
 * copy of the top of its thread's stack (Sampling.UserStack) unwound with the modules'
 * DWARF call frame information (libdw's dwfl_thread unwinder over the copy), after the
 * program is gone — never in it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"
#include "strobe-sample-model.h"

G_BEGIN_DECLS

typedef struct _StrobeSampleUnwinder StrobeSampleUnwinder;

/* An unwinder over @stacks' module map (the modules loaded at the end of what was read;
 * files found as the symbolizer finds them). Its stacks are added to @stacks. */
StrobeSampleUnwinder *strobe_sample_unwinder_new  (StrobeMemoryModel *stacks);
void                  strobe_sample_unwinder_free (StrobeSampleUnwinder *self);
/* A StrobeSampleUnwindFunc (@data: the unwinder): the stack unwound from @copy, added to
 * the memory model; 0 (the sample keeps its chain) when not even its first frame could be
 * had, or the walk stopped there while the kernel's chain (@copy->chain) has callers. */
guint32               strobe_sample_unwinder_unwind (const StrobeSampleCopy *copy, gpointer data);
/* Frames unwound so far, and copies whose unwinding stopped at their first frame. */
void                  strobe_sample_unwinder_get_stats (StrobeSampleUnwinder *self, guint64 *frames,
                                                        guint64 *shallow);

/* Unwinds every stack copy @samples holds that is not unwound yet (strobe_sample_model_unwind),
 * with an unwinder made for it when there are any; how many samples got their stack. */
guint                 strobe_sample_unwind (StrobeSampleModel *samples, StrobeMemoryModel *stacks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeSampleUnwinder, strobe_sample_unwinder_free)

G_END_DECLS
