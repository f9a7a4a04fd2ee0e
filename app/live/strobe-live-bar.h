/* strobe-live-bar.h — the status bar under a trace that is (or was) live: a "Live" light,
 * events and bytes received per second, the total received, and the events the program's
 * runtime dropped (prominent as soon as there is one).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LIVE_BAR (strobe_live_bar_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLiveBar, strobe_live_bar, STROBE, LIVE_BAR, GtkWidget)

GtkWidget *strobe_live_bar_new (StrobeDocument *document);

G_END_DECLS
