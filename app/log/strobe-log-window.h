/* strobe-log-window.h — the log table over a list longer than StrobeLogRows' window.
 *
 * StrobeLogRows gives the table a window of the list as long as GTK 4.8 keeps rows for
 * (STROBE_LOG_ROWS_WINDOW); this object keeps it where the user is: a scrollbar of its own
 * in rows over the whole list (GTK's own hidden), following GTK's position inside the
 * window; GTK's scrolling near the window's edge recentres the window on its top row after
 * the frame, GTK scrolled as many rows back in the same turn (nothing on screen moves;
 * GTK's rows show their new messages, and its keyboard cursor is put back on the message
 * it was on); the scrollbar dragged, or a jump, past the window moves it there first. A
 * jump further than GTK's kept rows moves the window so the message lands on a row GTK
 * shows (GTK scrolls nowhere, its rows show new messages) where the list's ends allow.
 * The selection's messages are kept across a move, and are the selection (Copy's) while
 * the window is elsewhere. The scrollbar takes the focus by Tab (not by a click): arrows,
 * Page Up / Down, Home / End scroll without selecting.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-log-rows.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_WINDOW (strobe_log_window_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogWindow, strobe_log_window, STROBE, LOG_WINDOW, GObject)

StrobeLogWindow *strobe_log_window_new           (StrobeLogRows     *rows,
                                                  GtkSelectionModel *selection,
                                                  GtkScrolledWindow *scroller,
                                                  GtkScrollbar      *scrollbar);
/* List position @position in the window (moved there if it is not, or too near its edge);
 * returns its table position, G_MAXUINT past the list. */
guint            strobe_log_window_show          (StrobeLogWindow   *self,
                                                  guint              position);
/* Scrolls list position @position into view (GTK's list.scroll-to-item on @list_view). */
void             strobe_log_window_scroll_to     (StrobeLogWindow   *self,
                                                  GtkWidget         *list_view,
                                                  guint              position);
guint            strobe_log_window_to_list       (StrobeLogWindow   *self,
                                                  guint              table_position);
/* Moves the window to start at list position @start, what is on screen kept (what the
 * edge of the window does; for the bench). */
void             strobe_log_window_move          (StrobeLogWindow   *self,
                                                  guint              start);
/* The window is moving: selection changes told now are the window's, not the user's. */
gboolean         strobe_log_window_is_moving     (StrobeLogWindow   *self);
/* The user changed the selection: the messages kept across moves are forgotten. */
void             strobe_log_window_forget        (StrobeLogWindow   *self);
/* Home / End (Ctrl or not) in a windowed table: the list position they go to (the first or
 * last message: the window is moved there before GTK's own bindings move its cursor, select
 * and scroll), G_MAXUINT for other keys or a list shown whole. */
guint            strobe_log_window_key_target    (StrobeLogWindow   *self,
                                                  guint              keyval,
                                                  GdkModifierType    state);
/* The list positions selected: the table's, and those the user selected before the window
 * moved away from them (the table cannot show them selected). */
GtkBitset       *strobe_log_window_dup_selection (StrobeLogWindow   *self);
/* In rows over the whole list: value is the list position of the top row. */
GtkAdjustment   *strobe_log_window_get_adjustment (StrobeLogWindow  *self);

G_END_DECLS
