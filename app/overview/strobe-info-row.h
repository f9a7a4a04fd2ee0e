/* strobe-info-row.h — a GObject around one row of StrobeInfoAnalyzer's tables (a thread,
 * an event type, a channel), so the tables can be GListModels. The row keeps the analyzer
 * alive; the struct it points to belongs to the analyzer (or is the row's own copy).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STROBE_TYPE_INFO_ROW (strobe_info_row_get_type ())
G_DECLARE_FINAL_TYPE (StrobeInfoRow, strobe_info_row, STROBE, INFO_ROW, GObject)

/* A GListStore of StrobeInfoRow, one per element of @rows (owned by @owner). */
GListModel    *strobe_info_row_list_new    (GObject        *owner,
                                            GPtrArray      *rows);
/* Brings @list (made by list_new, or empty) in line with @rows, copying each element
 * with @copy (freed with @free): rows already there keep their place and notify "data",
 * so a table that shows them refreshes without losing its scroll position or selection.
 * For tables of an analysis that is still running. */
void           strobe_info_row_list_update (GListStore     *list,
                                            GPtrArray      *rows,
                                            GBoxedCopyFunc  copy,
                                            GDestroyNotify  free);
gconstpointer  strobe_info_row_get_data    (StrobeInfoRow  *self);

G_END_DECLS
