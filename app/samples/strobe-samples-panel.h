/* strobe-samples-panel.h — the Samples panel: for exactly one interval of one thread (a
 * selected scope) or of every thread (a selected range), what the CPU was doing — the
 * sampled call tree top-down and bottom-up, app/chart's flame graph of it, the chosen
 * function's callers and callees (app/chart's callers panel) and the scope instances that
 * function dominates. Computed on a worker thread, the previous computation cancelled.
 * When the trace has no samples, or sampling was refused, the heading says so and why
 * (which kernel setting, what to do) instead of showing empty tables.
 *
 * Activating a dominated scope emits "show-scope" (a StrobeScopeRef) for the timeline.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"

G_BEGIN_DECLS

#define STROBE_TYPE_SAMPLES_PANEL (strobe_samples_panel_get_type ())
G_DECLARE_FINAL_TYPE (StrobeSamplesPanel, strobe_samples_panel, STROBE, SAMPLES_PANEL, GtkWidget)

/* Names the document's StrobeSampleModel: make it before the document loads. */
GtkWidget     *strobe_samples_panel_new           (StrobeDocument     *document);
/* The samples of stream thread @thread_id (0: every thread) in [@begin, @end], under a
 * heading that starts with @what (what was selected, in the user's words). */
void           strobe_samples_panel_show          (StrobeSamplesPanel *self,
                                                   guint16             thread_id,
                                                   guint64             begin,
                                                   guint64             end,
                                                   const char         *what);
/* Chooses the function of @key for the callers and scopes pages (G_MAXUINT64: none). */
void           strobe_samples_panel_choose        (StrobeSamplesPanel *self,
                                                   guint64             key);
gboolean       strobe_samples_panel_is_busy       (StrobeSamplesPanel *self);
const char    *strobe_samples_panel_get_heading   (StrobeSamplesPanel *self);
/* The short line about cut stacks above the trees, and the note its Why? button shows;
 * NULL while the stacks are whole. */
const char    *strobe_samples_panel_get_cut_line  (StrobeSamplesPanel *self);
const char    *strobe_samples_panel_get_cut_note  (StrobeSamplesPanel *self);
/* Tests: samples in the interval shown; the tables and the flame graph. */
guint64        strobe_samples_panel_get_total     (StrobeSamplesPanel *self);
GtkColumnView *strobe_samples_panel_get_tree_view (StrobeSamplesPanel *self,
                                                   gboolean            bottom_up);
GtkWidget     *strobe_samples_panel_get_flame     (StrobeSamplesPanel *self);
GtkWidget     *strobe_samples_panel_get_callers   (StrobeSamplesPanel *self);
GListModel    *strobe_samples_panel_get_scopes    (StrobeSamplesPanel *self);
GtkStack      *strobe_samples_panel_get_pages     (StrobeSamplesPanel *self);

G_END_DECLS
