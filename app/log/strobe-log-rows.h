/* strobe-log-rows.h — the log table's model: a StrobeLogList as GTK 4.8's column view can
 * take it without stalling the main thread.
 *
 * A filter's first answer replaces every row at once (items-changed 0, −2 000 000,
 * +2 949). GTK 4.8's list item manager then destroys the widgets of every row it keeps
 * (about 200 around its anchor, 7 cells each) and makes as many anew — 100 ms of the main
 * thread — and, because a row it tracks was removed, calls get_item on every added item
 * looking for the removed rows' items by identity: clearing a filter over 2 M messages
 * made 2 M items, 1.8 s.
 *
 * So the items are StrobeLogRow objects that live as long as GTK holds them (its row
 * widgets do). Where the list replaces messages under rows GTK holds, those places are
 * kept ("slots") and show new messages; GTK is told only of the positions around them —
 * removed before and after, added away from the rows it holds — where it has no widget:
 * it destroys, makes and searches nothing. Each kept row is told ("changed") to show its
 * new message, a few milliseconds' worth per main-loop turn, ahead of the next frame.
 * Selection bits stay with the places: the view unselects what the list replaced.
 *
 * Positions are the list's while it has at most STROBE_LOG_ROWS_WINDOW messages: after each
 * of the list's items-changed the rows match it. A longer list is shown through a window of
 * that many rows, [start, start + window), no longer than GTK 4.8's list view keeps rows
 * for (below; it also adds its rows' heights in an int: past ~61 M rows of 35 px its
 * adjustment could not move, issue 20). The view moves the window (StrobeLogWindow) and
 * maps positions with to_list / from_list.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-log-list.h"

G_BEGIN_DECLS

#define STROBE_TYPE_LOG_ROW (strobe_log_row_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogRow, strobe_log_row, STROBE, LOG_ROW, GObject)

/* The message the row shows (owned by the row; read on first use); NULL once the row is
 * no longer in its list. Signal "changed": the row shows another message now. */
StrobeLogItem *strobe_log_row_get_item     (StrobeLogRow  *self);
/* Never the same for two rows made by any StrobeLogRows (a row's address may be reused
 * once it is freed): whoever keeps a row's identity past its life compares these. */
guint64        strobe_log_row_get_serial   (StrobeLogRow  *self);

#define STROBE_TYPE_LOG_ROWS (strobe_log_rows_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogRows, strobe_log_rows, STROBE, LOG_ROWS, GObject)

StrobeLogRows *strobe_log_rows_new         (StrobeLogList *list);
StrobeLogList *strobe_log_rows_get_list    (StrobeLogRows *self);
/* Rows that show another message and were not told yet. */
guint          strobe_log_rows_get_pending (StrobeLogRows *self);
/* Tells them all now. */
void           strobe_log_rows_flush       (StrobeLogRows *self);
/* Rows handed out that stood for replaced messages and were given new ones (since the
 * start): what GTK did not have to destroy and make again. */
guint64        strobe_log_rows_get_reused  (StrobeLogRows *self);

/* Rows the table is given at most: as many as GTK 4.8's list view keeps row widgets for
 * (200 around its anchor). Every place of the window then holds a row GTK keeps, so moving
 * the window tells GTK nothing at all (each row shows its new message) and GTK's own
 * scrolling inside it never makes or destroys a row. With a window of 1 M rows, a move
 * told GTK of the ~1 M places around the rows it held, and a scroll of GTK's across more
 * than 200 rows made them all anew: GTK's frames after a scrollbar jump took 11–12 ms
 * (median) and a far jump's frames 21–24 ms in all, against 9 and 17 ms at this size
 * (tests/bench/README.md, session 52). */
#define STROBE_LOG_ROWS_WINDOW 200u

/* The list has more messages than the window: the table shows a part of it. */
gboolean       strobe_log_rows_is_windowed      (StrobeLogRows *self);
guint          strobe_log_rows_get_window_start (StrobeLogRows *self);
guint          strobe_log_rows_get_window       (StrobeLogRows *self);
/* For tests: a smaller window (the rows shown are replaced). */
void           strobe_log_rows_set_window       (StrobeLogRows *self,
                                                 guint          window);
/* The list position of table row @position, G_MAXUINT past the table; and back, G_MAXUINT
 * outside the window. */
guint          strobe_log_rows_to_list          (StrobeLogRows *self,
                                                 guint          position);
guint          strobe_log_rows_from_list        (StrobeLogRows *self,
                                                 guint          position);
/* Moves the window to start at list position @start (clamped): the places GTK holds show
 * the new window's messages and GTK is told nothing — the caller scrolls it (by the same
 * rows the other way to keep what is on screen). FALSE: it did not move. */
gboolean       strobe_log_rows_move_window      (StrobeLogRows *self,
                                                 guint          start);

G_END_DECLS
