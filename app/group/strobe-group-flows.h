/* strobe-group-flows.h — the flows of a group drawn over its processes' timelines: an
 * arrow from each hop of a flow to the next (a request from the client's scope to the
 * server's, the reply back), where those moments are on each process's thread track.
 * It takes no input (clicks pass through to the timelines); the tab asks it which arrow
 * lies under a click (strobe_group_flows_hit) to follow it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STROBE_TYPE_GROUP_FLOWS (strobe_group_flows_get_type ())
G_DECLARE_FINAL_TYPE (StrobeGroupFlows, strobe_group_flows, STROBE, GROUP_FLOWS, GtkWidget)

GtkWidget *strobe_group_flows_new (void);
/* @members: StrobeGroupMember; @flows: StrobeFlow (hops' trace = index in @members). Both
 * stay the caller's, valid until set again; call when either changed. */
void       strobe_group_flows_set (StrobeGroupFlows *self,
                                   GPtrArray        *members,
                                   GPtrArray        *flows);
/* The arrow within a few pixels of (@x, @y): its flow and the hop it leads from; the end
 * of it farther from the point is where following it goes. FALSE when none is. */
gboolean   strobe_group_flows_hit (StrobeGroupFlows *self,
                                   gdouble           x,
                                   gdouble           y,
                                   guint            *flow,
                                   guint            *hop);

G_END_DECLS
