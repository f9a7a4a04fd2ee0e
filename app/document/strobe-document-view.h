/* strobe-document-view.h — the page of one open trace: while it loads, progress with
 * Cancel; then every registered view (strobe-view.h) in a stack sharing one view state, a
 * notice when only part of the trace could be read, and for a live trace its channels
 * panel and status bar.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-view.h"

G_BEGIN_DECLS

#define STROBE_TYPE_DOCUMENT_VIEW (strobe_document_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDocumentView, strobe_document_view, STROBE, DOCUMENT_VIEW, GtkWidget)

/* Starts loading @document. */
GtkWidget       *strobe_document_view_new                (StrobeDocument     *document);
StrobeDocument  *strobe_document_view_get_document       (StrobeDocumentView *self);
StrobeViewState *strobe_document_view_get_state          (StrobeDocumentView *self);
/* The view whose page is named @page_name ("overview", "timeline"…), or NULL. */
StrobeView      *strobe_document_view_get_view           (StrobeDocumentView *self,
                                                          const char         *page_name);
/* Shows the view named @page_name and moves the focus into it; FALSE when there is none. */
gboolean         strobe_document_view_show_view          (StrobeDocumentView *self,
                                                          const char         *page_name);
/* The live trace's channels panel; NULL for a saved trace. */
GtkWidget       *strobe_document_view_get_channels_panel (StrobeDocumentView *self);
/* `document.stop-recording` (the header's Stop Recording, enabled while live) asks the
 * program to end its tracing. Says why a stop failed, over @parent. */
void             strobe_document_view_show_stop_error    (GtkWindow          *parent,
                                                          const GError       *error);

G_END_DECLS
