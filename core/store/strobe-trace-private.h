/* strobe-trace-private.h — how the store creates and updates StrobeTrace objects.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-trace.h"
#include "strobe-trace-file.h"

G_BEGIN_DECLS

StrobeTrace *_strobe_trace_new    (const char             *name,
                                   const char             *path,
                                   const StrobeTraceProbe *probe);
/* Copies what changed and notifies each changed property; TRUE if anything did. */
gboolean     _strobe_trace_update (StrobeTrace            *self,
                                   const char             *name,
                                   const char             *path,
                                   const StrobeTraceProbe *probe);
/* The end learnt by reading the trace (strobe_store_note_trace_end); TRUE if it changed. */
gboolean     _strobe_trace_set_end_time_ns (StrobeTrace       *self,
                                            guint64            end_time_ns);

G_END_DECLS
