/* strobe-connect-dialog.h — late connect (user story 2): the instrumented programs running
 * on this machine (discovery) or a typed host[:port], the channels to turn on, and Connect,
 * which tells the program's control server to send its trace to the embedded recorder,
 * turns the channels on, and says which live trace it made once it shows up in the store.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-services.h"

G_BEGIN_DECLS

#define STROBE_TYPE_CONNECT_DIALOG (strobe_connect_dialog_get_type ())
G_DECLARE_FINAL_TYPE (StrobeConnectDialog, strobe_connect_dialog, STROBE, CONNECT_DIALOG, GtkWindow)

/* Modal over @parent; discovery reads strobe_discovery_dup_default_directory(). When the
 * new live trace shows up in the store it emits "connected" with the trace's file, then
 * closes. */
GtkWidget    *strobe_connect_dialog_new              (GtkWindow           *parent,
                                                      StrobeServices      *services);
/* The programs listed (a GListModel of StrobeProcessInfo, as shown). */
GListModel   *strobe_connect_dialog_get_programs     (StrobeConnectDialog *self);
/* Selects the program with @pid; FALSE when it is not listed. */
gboolean      strobe_connect_dialog_select_pid       (StrobeConnectDialog *self,
                                                      guint                pid);
/* The channel check box named @name, once the program's channels are known. */
GtkToggleButton *strobe_connect_dialog_get_channel_check (StrobeConnectDialog *self,
                                                        const char          *name);
/* What the Connect button does. */
void          strobe_connect_dialog_connect          (StrobeConnectDialog *self);

G_END_DECLS
