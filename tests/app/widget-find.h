/* widget-find.h — finding widgets in a window's tree, as the viewer's tests look for
 * what a user would see.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

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

#define find_text(widget, text)        find_text_full (widget, text, FALSE)
#define find_text_prefix(widget, text) find_text_full (widget, text, TRUE)
