/* strobe-timers-panel.h — beside the timeline: per scope name statistics over the selected
 * range (the whole trace without one), computed off the main thread and replaced when the
 * range or the trace changes; the chosen timer's callers and callees (Unreal's butterfly)
 * and an aggregated flame graph of the range. Export as CSV.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_TIMERS_PANEL (strobe_timers_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTimersPanel, strobe_timers_panel, STROBE, TIMERS_PANEL, GtkWidget)

GtkWidget  *strobe_timers_panel_new           (StrobeDocument    *document,
                                               StrobeViewState   *state);
/* The document grew or finished: statistics are recomputed (at most once a second while
 * it grows). */
void        strobe_timers_panel_update        (StrobeTimersPanel *self,
                                               StrobeDocumentChanges changes);
/* The rows (StrobeTimerRow) in the order computed: largest inclusive time first. */
GListModel *strobe_timers_panel_get_rows      (StrobeTimersPanel *self);
/* TRUE while statistics are being computed. */
gboolean    strobe_timers_panel_is_busy       (StrobeTimersPanel *self);
/* The chosen timer's name id, G_MAXUINT32 when none. */
guint32     strobe_timers_panel_get_chosen    (StrobeTimersPanel *self);
void        strobe_timers_panel_choose        (StrobeTimersPanel *self,
                                               guint32            name_id);
/* The callers and callees of the chosen timer (StrobeTimerRow: name, count, inclusive). */
GListModel *strobe_timers_panel_get_callers   (StrobeTimersPanel *self);
GListModel *strobe_timers_panel_get_callees   (StrobeTimersPanel *self);
/* The table as CSV (times in milliseconds, "." decimals): what Export writes. */
char       *strobe_timers_panel_to_csv        (StrobeTimersPanel *self);
/* Focuses the filter entry. */
void        strobe_timers_panel_focus_filter  (StrobeTimersPanel *self);
/* The timers table, for the focus chain. */
GtkWidget  *strobe_timers_panel_get_table     (StrobeTimersPanel *self);

G_END_DECLS
