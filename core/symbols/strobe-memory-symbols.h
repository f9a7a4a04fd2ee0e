/* strobe-memory-symbols.h — a StrobeSymbolizer for a StrobeMemoryModel's module map, and
 * the frame function its queries take to merge frames by function.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-model.h"
#include "strobe-symbolizer.h"

G_BEGIN_DECLS

/* A symbolizer with every module @model knows (key = module index + 1, as in
 * StrobeMemoryFrame.module). Modules the model learns later: call it again. */
StrobeSymbolizer *strobe_memory_symbolizer_new (StrobeMemoryModel *model);

/* A StrobeMemoryFrameFunc: @user_data is the StrobeSymbolizer. */
guint strobe_memory_symbolizer_frame_func (const StrobeMemoryFrame *frame, guint64 *keys, guint max,
                                           gpointer user_data);

/* Frame @frame symbolized, one line per inlined frame ("function (file:line)"), joined by
 * @separator. */
char *strobe_memory_symbolizer_describe (StrobeSymbolizer *symbolizer, const StrobeMemoryFrame *frame,
                                         const char *separator);

G_END_DECLS
