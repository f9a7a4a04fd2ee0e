/* strobe-a11y.h — what screen readers are told. GTK 4.8 names a button with a mnemonic
 * label "_Open Open" (the raw label and its text); these helpers give it its plain name.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Names @widget @name alone. GTK 4.8 joins a widget's label property and the widgets it
 * is labelled by (a mnemonic label adds itself), which reads "Cancel Cancel". */
void       strobe_a11y_set_name                 (GtkWidget  *widget,
                                                 const char *name);
/* The same for a button with a mnemonic label: its label without the underscore. */
void       strobe_a11y_fix_mnemonic_button      (GtkButton  *button);
/* The same for every button of a stack switcher whose pages have mnemonic titles; again
 * after a title changes. */
void       strobe_a11y_fix_stack_switcher       (GtkStackSwitcher *switcher);
/* Names a drop-down @name, and the toggle button inside it that takes the focus (GTK 4.8
 * reads that one as "GtkToggleButton"). */
void       strobe_a11y_name_drop_down           (GtkDropDown *drop_down,
                                                 const char  *name);
/* Makes @label selectable with the mouse (and copyable from its menu) without making it a
 * Tab stop. GTK 4.8's label claims a Tab that reaches it even when it cannot take the
 * focus, so a selectable, non-focusable label kept Tab on the widget before it for good;
 * without can-focus, Tab passes it by. */
void       strobe_a11y_make_copyable            (GtkLabel   *label);
/* gtk_button_new_with_mnemonic(), named @text without its underscore. */
GtkWidget *strobe_a11y_button_new_with_mnemonic (const char *text);
/* @text without mnemonic underscores ("__" stays "_"). Free with g_free. */
char      *strobe_a11y_strip_mnemonic          (const char *text);
/* Shows or hides an info bar. Hidden, it is not only folded: GTK 4.8 keeps a folded info
 * bar and its message in the accessible tree, and a screen reader read a message no
 * longer shown (issue 24 item 18). */
void       strobe_a11y_show_info_bar            (GtkInfoBar *bar,
                                                 gboolean    shown);

G_END_DECLS
