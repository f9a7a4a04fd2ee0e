/* strobe-group-member.h — one process of a group tab: its trace (a document of its own,
 * with its own view state, kept in step with the others' by the tab), and what the tab
 * shows of it: a header (expand/collapse, program and pid, how its clock was aligned, its
 * lifetime on the group's axis) over its timeline (threads, frames, counters).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-clock-align.h"
#include "strobe-clock-measures.h"
#include "strobe-document.h"
#include "strobe-flow-points.h"
#include "strobe-timeline-widget.h"
#include "strobe-view-state.h"

G_BEGIN_DECLS

typedef struct
{
  StrobeDocument       *document;
  StrobeViewState      *state;
  StrobeFlowPoints     *flows;       /* the document's, fed from its first event */
  char                 *trace_id;    /* a store trace's id; NULL for a file */
  GtkWidget            *section;     /* header over timeline: what the tab packs */
  GtkToggleButton      *expander;
  GtkLabel             *title;
  GtkWidget            *lifetime;    /* the process's lifetime on the shown range */
  StrobeTimelineWidget *timeline;
  StrobeClockAlignment  alignment;
  gboolean              aligned;     /* alignment was worked out (the handshake was read) */
  char                 *alignment_text;  /* how, for people: "offset … ± …", "same clock" */
  StrobeClockMeasures  *measures;    /* the document's: peers' measures of its clock */
  GtkSpinButton        *adjust;      /* ms the user moved it by (the reference: not movable) */
} StrobeGroupMember;

/* Takes a reference on @document (not loaded yet: the flow points are added to it). */
StrobeGroupMember *strobe_group_member_new          (StrobeDocument    *document,
                                                     const char        *trace_id);
void               strobe_group_member_free         (StrobeGroupMember *member);
/* "program (pid N)", or the document's title before the handshake. */
char              *strobe_group_member_dup_label    (StrobeGroupMember *member);
/* The header's text again (the label, how the clock was aligned) and the lifetime. */
void               strobe_group_member_update_header (StrobeGroupMember *member);
/* How far the user moved it, in ns (the adjust button's value). */
gint64             strobe_group_member_get_adjust_ns (StrobeGroupMember *member);
/* The timeline as tall as its tracks (up to a limit: beyond, it scrolls). */
void               strobe_group_member_fit_height   (StrobeGroupMember *member);
/* Ticks of this trace ↔ seconds on the group's axis (the document's clock is the group's). */
gdouble            strobe_group_member_to_seconds   (StrobeGroupMember *member,
                                                     guint64            ticks);
guint64            strobe_group_member_from_seconds (StrobeGroupMember *member,
                                                     gdouble            seconds);
/* Where @time of thread @thread_id lies in @target's coordinates; FALSE when it cannot be
 * said (no such thread yet). A collapsed member's points are on its header. */
gboolean           strobe_group_member_locate       (StrobeGroupMember *member,
                                                     guint16            thread_id,
                                                     guint64            time,
                                                     GtkWidget         *target,
                                                     graphene_point_t  *point);

G_END_DECLS
