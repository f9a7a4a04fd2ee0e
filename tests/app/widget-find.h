/* widget-find.h — finding widgets in a window's tree, as the viewer's tests look for
 * what a user would see.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

/* The first widget at or under @widget, depth first, that @match accepts, or NULL. */
GtkWidget *find_where     (GtkWidget  *widget,
                           gboolean  (*match) (GtkWidget *widget, gconstpointer data),
                           gconstpointer data);
/* The first widget named @name (gtk_widget_set_name(), a template's name) at or under
 * @widget, or NULL: a page's own control where the first of its type may be another's. */
GtkWidget *find_named     (GtkWidget  *widget,
                           const char *name);
/* The first widget of @type at or under @widget, depth first, or NULL. */
GtkWidget *find_type      (GtkWidget  *widget,
                           GType       type);
/* A label or inscription showing @text (with @prefix: starting with it), mapped (on
 * screen), at or under @widget, or NULL. */
GtkWidget *find_text_full (GtkWidget  *widget,
                           const char *text,
                           gboolean    prefix);
/* How many mapped labels or inscriptions at or under @widget show @text. */
guint      count_text     (GtkWidget  *widget,
                           const char *text);

/* The text on @widget's clipboard, read in the main loop (20 s at most); "" when it holds
 * none. Free with g_free(). */
char      *clipboard_text (GtkWidget  *widget);

/* For an async call's callback: keeps its result in the GAsyncResult ** given as its data.
 * async_result_wait() runs the main loop until it comes (20 s at most) and returns it;
 * unref it when done. */
void          async_result_keep (GObject      *source,
                                 GAsyncResult *result,
                                 gpointer      data);
GAsyncResult *async_result_wait (GAsyncResult **slot);

#define find_text(widget, text)        find_text_full (widget, text, FALSE)
#define find_text_prefix(widget, text) find_text_full (widget, text, TRUE)
