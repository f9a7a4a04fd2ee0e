/* strobe-log-level-icon.h — a level's symbolic icon in a colour, as a tiny widget.
 *
 * The log table's verbosity cell shows its level's icon in the level's colour. As a CSS
 * background chosen by a class per level, every row that showed another level was
 * restyled (selector matching), 45 of them in a far jump's frame; a GtkImage given
 * another icon asks the whole row to be measured again. This widget has one size, so a
 * new icon only redraws it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_LEVEL_ICON (strobe_log_level_icon_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogLevelIcon, strobe_log_level_icon, STROBE, LOG_LEVEL_ICON, GtkWidget)

/* @size pixels square, showing nothing. Hidden from screen readers: the level's word
 * beside it says the same. */
GtkWidget *strobe_log_level_icon_new (int size);
/* Shows @icon (a symbolic one; NULL: nothing) in @color (NULL: the widget's own text
 * colour). Redraws only when it changed. */
void       strobe_log_level_icon_set (StrobeLogLevelIcon *self,
                                      GtkIconPaintable   *icon,
                                      const GdkRGBA      *color);

G_END_DECLS
