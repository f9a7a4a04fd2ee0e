/* strobe-log-checklist.h — a list of check boxes with message counts (the log view's
 * categories and threads), with All and None; what is unticked is hidden. New entries
 * come ticked, so a category that appears while a trace streams in is shown.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  guint32     id;
  const char *label;
  guint64     count;
} StrobeLogChecklistEntry;

#define STROBE_TYPE_LOG_CHECKLIST (strobe_log_checklist_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogChecklist, strobe_log_checklist, STROBE, LOG_CHECKLIST, GtkWidget)

/* @name: what the list is, for screen readers ("Categories"). */
GtkWidget *strobe_log_checklist_new          (const char                    *name);
/* The rows, in this order; rows keep their tick by id. Labels and counts change in place,
 * so the keyboard focus stays where it is while counts grow. */
void       strobe_log_checklist_set_entries  (StrobeLogChecklist            *self,
                                              const StrobeLogChecklistEntry *entries,
                                              guint                          n_entries);
/* The ids unticked (guint32), sorted. */
GArray    *strobe_log_checklist_dup_hidden   (StrobeLogChecklist            *self);
guint      strobe_log_checklist_get_n_hidden (StrobeLogChecklist            *self);
guint      strobe_log_checklist_get_n_entries (StrobeLogChecklist           *self);
void       strobe_log_checklist_set_shown    (StrobeLogChecklist            *self,
                                              guint32                        id,
                                              gboolean                       shown);
/* Ticks every row. */
void       strobe_log_checklist_show_all     (StrobeLogChecklist            *self);

G_END_DECLS
