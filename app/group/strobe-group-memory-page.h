/* strobe-group-memory-page.h — a group tab's Memory page: a selector of "Total" or one
 * process. Total is a table of each process's allocations, frees, live, peak and total
 * bytes and the group's — its peak found on the one time axis (core/models'
 * strobe-memory-group.h, as `strobe-cli memory` of a group prints it), with a button that
 * puts the cursor at that moment in every process; a process is its own full memory view
 * (app/memory), on its state, which the tab keeps in step with the others'.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-document.h"
#include "strobe-memory-group.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

#define STROBE_TYPE_GROUP_MEMORY_PAGE (strobe_group_memory_page_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupMemoryPage, strobe_group_memory_page, STROBE, GROUP_MEMORY_PAGE, GtkWidget)

GtkWidget *strobe_group_memory_page_new              (void);
void       strobe_group_memory_page_add_member       (StrobeGroupMemoryPage *self,
                                                      StrobeDocument        *document,
                                                      StrobeViewState       *state,
                                                      const char            *label);
void       strobe_group_memory_page_set_label        (StrobeGroupMemoryPage *self,
                                                      guint                  member,
                                                      const char            *label);
/* A member's memory grew or a clock moved: the Total again (at most every half second). */
void       strobe_group_memory_page_document_changed (StrobeGroupMemoryPage *self);
/* G_MAXUINT: the Total; else member @member's memory view. */
void       strobe_group_memory_page_select           (StrobeGroupMemoryPage *self,
                                                      guint                  member);
/* The Total as shown now (worked out again first if it was due). */
void       strobe_group_memory_page_get_total        (StrobeGroupMemoryPage *self,
                                                      StrobeMemoryGroupTotal *total);
/* Member @member's memory view, made when it was first selected; NULL before. */
GtkWidget *strobe_group_memory_page_get_view         (StrobeGroupMemoryPage *self,
                                                      guint                  member);

G_END_DECLS
