/* strobe-channels-panel.h — the channels a live program declared, each with a switch that
 * shows the state the program reported in its stream ($Trace.ChannelAnnounce and
 * $Trace.ChannelToggle). Flipping a switch asks the program through its control server
 * (`channels NAME on|off`); the switch stays pending until the program's toggle arrives in
 * the stream, or goes back with an error after a timeout. Disabled, with a notice, once
 * the program has gone or refuses the connection.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"

G_BEGIN_DECLS

/* How long a switch waits for the program's confirmation before it goes back. */
#define STROBE_CHANNELS_CONFIRM_TIMEOUT_MS 3000

#define STROBE_TYPE_CHANNELS_PANEL (strobe_channels_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeChannelsPanel, strobe_channels_panel, STROBE, CHANNELS_PANEL, GtkWidget)

GtkWidget *strobe_channels_panel_new            (StrobeDocument      *document);
/* The switch of channel @name (case-insensitive), NULL when the program has not declared
 * it (for tests). */
GtkSwitch *strobe_channels_panel_get_switch     (StrobeChannelsPanel *self,
                                                 const char          *name);
/* TRUE while @name waits for the program's confirmation. */
gboolean   strobe_channels_panel_is_pending     (StrobeChannelsPanel *self,
                                                 const char          *name);
/* Where the commands go, "HOST:PORT"; NULL when unknown. */
const char *strobe_channels_panel_get_target    (StrobeChannelsPanel *self);

G_END_DECLS
