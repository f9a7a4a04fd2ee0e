/* strobe-document-view.h — the page of one open trace: loading progress with Cancel, a
 * notice when only part of it could be read, then its views (the overview for now); a live
 * trace also gets its channels panel and a status bar.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"

G_BEGIN_DECLS

#define STROBE_TYPE_DOCUMENT_VIEW (strobe_document_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDocumentView, strobe_document_view, STROBE, DOCUMENT_VIEW, GtkWidget)

/* Starts loading @document (which must be new); errors are shown in a dialog over the
 * window the view is in by then. */
GtkWidget      *strobe_document_view_new           (StrobeDocument     *document);
StrobeDocument *strobe_document_view_get_document  (StrobeDocumentView *self);
void            strobe_document_view_focus_search  (StrobeDocumentView *self);
/* The channels panel of a live trace; NULL for a saved one. */
GtkWidget      *strobe_document_view_get_channels_panel (StrobeDocumentView *self);

G_END_DECLS
