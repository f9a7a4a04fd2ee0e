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
 * Positions are the list's: after each of the list's items-changed the rows match it.
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

G_END_DECLS
