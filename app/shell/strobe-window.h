/* strobe-window.h — a viewer window: the trace browser as its start page and one tab
 * per open trace.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-services.h"

G_BEGIN_DECLS

#define STROBE_TYPE_WINDOW (strobe_window_get_type ())
G_DECLARE_FINAL_TYPE (StrobeWindow, strobe_window, STROBE, WINDOW, GtkApplicationWindow)

/* A window of @application over @services' store, recorder and settings. */
StrobeWindow   *strobe_window_new                  (GtkApplication    *application,
                                                    StrobeServices    *services);
/* Opens @file in a new tab and starts loading it, or switches to its tab when it is
 * open already. Returns the document (owned by the window). */
StrobeDocument *strobe_window_open_file            (StrobeWindow      *self,
                                                    GFile             *file);
/* @files as one group tab (StrobeGroupView): their processes on one time axis. */
GtkWidget      *strobe_window_open_group_files     (StrobeWindow      *self,
                                                    GFile            **files,
                                                    guint              n_files);
/* The store's session group @session as one tab (its tab when open already), joined by
 * each process that joins the session; NULL without a store. */
GtkWidget      *strobe_window_open_group           (StrobeWindow      *self,
                                                    const char        *session);
/* The current tab's StrobeGroupView, or NULL. */
GtkWidget      *strobe_window_get_current_group    (StrobeWindow      *self);
/* The current tab's page: a StrobeDocumentView, or NULL on the start page. */
GtkWidget      *strobe_window_get_current_page     (StrobeWindow      *self);
/* The trace of the current tab; NULL on the start page. */
StrobeDocument *strobe_window_get_current_document (StrobeWindow      *self);
guint           strobe_window_get_n_documents      (StrobeWindow      *self);
/* Closes the current trace's tab (cancelling its load); nothing on the start page. */
void            strobe_window_close_current        (StrobeWindow      *self);
/* win.stop-recording (Shift+F5): the current tab's program ends its tracing (the tab's
 * Stop Recording); nothing when the current trace is not live. */
void            strobe_window_stop_recording       (StrobeWindow      *self);
/* F6 / Shift+F6: the focus to the next pane (tab strip, view switcher, view, panels). */
gboolean        strobe_window_cycle_panes          (StrobeWindow      *self,
                                                    gboolean           backward);
/* Late connect without the dialog (`strobe --connect`): @target is a pid, a program name
 * or HOST[:PORT]; @channels a comma-separated list (NULL: the default-channels setting).
 * The live trace opens in a new tab; a failure is shown in a dialog. FALSE (and @error)
 * when @target names no running program. */
gboolean        strobe_window_connect_to           (StrobeWindow      *self,
                                                    const char        *target,
                                                    const char        *channels,
                                                    GError           **error);
/* Ctrl+K: the connect dialog; the trace it connects to opens in a new tab. */
void            strobe_window_connect              (StrobeWindow      *self);
/* @file's tab (opened if need be) on view @page, [@begin, @end] (ticks) selected and
 * shown with @pad either side (nothing selected when @end <= @begin); win.show-trace
 * (s uri, s page, t begin, t end, t pad) — how the comparison page shows a row in B. */
void            strobe_window_show_trace           (StrobeWindow      *self,
                                                    GFile             *file,
                                                    const char        *page,
                                                    guint64            begin,
                                                    guint64            end,
                                                    guint64            pad);
/* @file's tab (opened if need be) on view @page with @function selected there
 * (strobe_view_state_set_selected_function); win.show-function (s uri, s page, s function)
 * — how the comparison page shows an allocation site in B's memory view. */
void            strobe_window_show_function        (StrobeWindow      *self,
                                                    GFile             *file,
                                                    const char        *page,
                                                    const char        *function);
/* @a's tab on its comparison page with @b (opened in a tab of its own too) as B: the
 * browser's Compare. */
void            strobe_window_compare              (StrobeWindow      *self,
                                                    GFile             *a,
                                                    GFile             *b);

G_END_DECLS
