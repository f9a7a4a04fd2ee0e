/* strobe-trace.h — one trace file in a store, as the store last saw it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Where a recording stands. See README.md beside this file for how the store decides. */
typedef enum
{
  STROBE_TRACE_STATUS_LIVE,       /* a recorder is still writing it */
  STROBE_TRACE_STATUS_FINISHED,   /* ends with the runtime's End packet */
  STROBE_TRACE_STATUS_CUT_OFF,    /* no End packet and nobody writing: program or recorder died */
  STROBE_TRACE_STATUS_INVALID,    /* not a Strobe trace (or from a newer Strobe) */
} StrobeTraceStatus;

#define STROBE_TYPE_TRACE_STATUS (strobe_trace_status_get_type ())
GType       strobe_trace_status_get_type  (void);
/* "live", "finished", "cut-off", "invalid": the names the store protocol uses too. */
const char *strobe_trace_status_to_string (StrobeTraceStatus status);

#define STROBE_TYPE_TRACE (strobe_trace_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTrace, strobe_trace, STROBE, TRACE, GObject)

const char        *strobe_trace_get_id            (StrobeTrace *self);
const char        *strobe_trace_get_name          (StrobeTrace *self);
const char        *strobe_trace_get_path          (StrobeTrace *self);
const char        *strobe_trace_get_program       (StrobeTrace *self);
guint32            strobe_trace_get_pid           (StrobeTrace *self);
guint64            strobe_trace_get_start_time_ns (StrobeTrace *self);
/* Wall-clock time the recorder finished the trace; 0 when unknown (copied in, cut off). */
guint64            strobe_trace_get_end_time_ns   (StrobeTrace *self);
guint64            strobe_trace_get_size          (StrobeTrace *self);
StrobeTraceStatus  strobe_trace_get_status        (StrobeTrace *self);
const char        *strobe_trace_get_reason        (StrobeTrace *self);
const char        *strobe_trace_get_peer_address  (StrobeTrace *self);
/* The session group the trace belongs to (its handshake's session name); NULL: none. */
const char        *strobe_trace_get_session       (StrobeTrace *self);
/* The traced process's parent, from the handshake; 0 when unknown. */
guint32            strobe_trace_get_parent_pid    (StrobeTrace *self);
/* TRUE when the recording was ended on purpose: the user stopped it from a viewer (the
 * program then wrote End: status FINISHED) or closed the recorder while it ran (CUT_OFF
 * at a packet boundary). A viewer says "Stopped" rather than "Finished" or "Cut off". */
gboolean           strobe_trace_get_stopped       (StrobeTrace *self);
/* A file opened from outside the store's directory that the store remembers
 * (strobe_store_add_external): its path is wherever it is, deleting it from the store only
 * forgets it. */
gboolean           strobe_trace_get_external      (StrobeTrace *self);

G_END_DECLS
