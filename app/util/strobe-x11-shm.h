/* strobe-x11-shm.h — cairo's X11 shared memory kept between the viewer's frames.
 *
 * GSK's cairo renderer on X11 draws each frame into an image and cairo hands it to the X
 * server through a shared memory segment. cairo destroys a segment as soon as nothing is
 * in it, so the next frame creates another and faults every page of it in afresh: for a
 * window-sized frame ~2 000 faults, 10–25 ms of the main thread under a hypervisor, in the
 * frames a big trace's loading and a whole-trace selection repaint whole. Holding a small
 * image in a segment made for the largest monitor keeps that segment, and the pages frames
 * wrote in it, for the display's life (that much more resident: 9.6 MB at 2000 × 1200).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Once @window is realized: when it renders with cairo on X11, the segment is made (once
 * per display) and kept. Elsewhere (GL, Wayland) nothing is done. */
void strobe_x11_shm_keep (GtkWindow *window);

G_END_DECLS
