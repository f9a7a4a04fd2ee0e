/* bench-widget.h — a view benchmark's widget drawn offscreen as GTK would draw it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Before GTK starts: the process as the viewer's main() sets it up (its heap reserve,
 * app/util/strobe-heap-reserve.c), drawing with GSK's cairo renderer unless GSK_RENDERER
 * says otherwise — left to itself GTK picks GL, which on Xvfb is Mesa's software
 * rasteriser, its shader compiler and its copies into a new 8 MB texture each frame
 * most of what a view's benchmark would time. */
void           bench_view_process    (void);
/* gtk_init_check(), and the viewer's own styles over the theme's as its application adds
 * them (app/style.css): what a view costs to draw depends on them. */
gboolean       bench_view_gtk_init   (void);
/* Runs the main loop until it has nothing ready. */
void           bench_iterate         (void);
/* @widget's render node, snapshotted again (a queued draw: GTK keeps a widget's last node
 * until then), at its place in its parent. */
GskRenderNode *bench_widget_snapshot (GtkWidget *widget);

G_END_DECLS
