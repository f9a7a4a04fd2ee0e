/* strobe-browser-view.h — the start page: the traces of the store (saved and live), with
 * sorting, a text filter, open, rename, delete and show in folder, and the recorder's state.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-store.h"
#include "strobe-store-group.h"

G_BEGIN_DECLS

#define STROBE_TYPE_BROWSER_VIEW (strobe_browser_view_get_type ())
G_DECLARE_FINAL_TYPE (StrobeBrowserView, strobe_browser_view, STROBE, BROWSER_VIEW, GtkWidget)

GtkWidget   *strobe_browser_view_new                (void);
/* @store may be NULL when it could not be opened; @error then says why (shown). Both NULL:
 * no store given yet, nothing shown. */
void         strobe_browser_view_set_store          (StrobeBrowserView *self,
                                                     StrobeStore       *store,
                                                     const GError      *error);
/* The embedded recorder's port (0: not listening) for the hints, and why it is not
 * listening (NULL hides it), with a button that activates app.recorder-other-port. */
void         strobe_browser_view_set_recorder       (StrobeBrowserView *self,
                                                     guint16            port,
                                                     const GError      *error);
/* The traces as shown (filtered and sorted): a GListModel of StrobeTrace. */
GListModel  *strobe_browser_view_get_model          (StrobeBrowserView *self);

/* Keeps the selected traces as a group of the store named @name (Group…, without its
 * dialog); see strobe_store_create_group() for what is refused. */
gboolean     strobe_browser_view_group_selected     (StrobeBrowserView *self,
                                                     const char        *name,
                                                     GError           **error);

G_END_DECLS
