/* strobe-timeline-layouts.h — the timeline's track layout remembered per program, in the
 * GSettings key org.strobe.Viewer timeline-layouts (program name → the string of
 * strobe_track_list_save()). Without the installed schema nothing is remembered.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NULL when nothing is remembered for @program. */
char *strobe_timeline_layouts_load  (const char *program);
/* @layout NULL forgets it. */
void  strobe_timeline_layouts_store (const char *program,
                                     const char *layout);

G_END_DECLS
