/* strobe-memory-figures.h — the memory view's summary of the whole trace: the peak and
 * when it was (a button goes there), allocations, frees, bytes, temporary allocations,
 * what is still live (leaked, once the trace is over), each heap's figures, and what a
 * damaged or partial trace could not account for (frees of unknown addresses,
 * allocations of live addresses, absurd sizes, lost records). Labels are made once and
 * updated in place.
 *
 * Signal "go-to" (guint64 time): the peak's button was clicked.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-memory-names.h"

G_BEGIN_DECLS

#define STROBE_TYPE_MEMORY_FIGURES (strobe_memory_figures_get_type ())
G_DECLARE_FINAL_TYPE (StrobeMemoryFigures, strobe_memory_figures, STROBE, MEMORY_FIGURES, GtkWidget)

GtkWidget  *strobe_memory_figures_new      (void);
/* @finished: the trace is over (what is live is leaked). */
void        strobe_memory_figures_update   (StrobeMemoryFigures    *self,
                                            StrobeMemoryNames      *names,
                                            const StrobeTraceClock *clock,
                                            gboolean                finished);
/* The text shown for figure @key ("peak", "allocations", "frees", "bytes", "temporary",
 * "live", "unmatched-frees", "replaced", "absurd", "lost"); NULL when not shown (tests). */
const char *strobe_memory_figures_get_text (StrobeMemoryFigures    *self,
                                            const char             *key);

G_END_DECLS
