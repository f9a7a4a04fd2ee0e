/* bench-widget.h — a view benchmark's widget drawn offscreen as GTK would draw it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Runs the main loop until it has nothing ready. */
void           bench_iterate         (void);
/* @widget's render node, snapshotted again (a queued draw: GTK keeps a widget's last node
 * until then), at its place in its parent. */
GskRenderNode *bench_widget_snapshot (GtkWidget *widget);

G_END_DECLS
