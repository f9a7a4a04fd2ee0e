/* strobe-store.h — a directory of traces: lists, describes, renames, deletes, serves and
 * follows them, and notices files copied in.
 *
 * A StrobeStore lives on the main context it was created on (its signals are emitted
 * there); only strobe_store_create_writer() may be called from other threads.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-live-connection.h"
#include "strobe-store-error.h"
#include "strobe-trace.h"
#include "strobe-trace-stream.h"
#include "strobe-trace-writer.h"

G_BEGIN_DECLS

#define STROBE_TYPE_STORE (strobe_store_get_type ())
G_DECLARE_FINAL_TYPE (StrobeStore, strobe_store, STROBE, STORE, GObject)

/* g_get_user_data_dir()/strobe */
char          *strobe_store_dup_default_directory (void);

/* @directory NULL means the default; it is created if missing. */
StrobeStore   *strobe_store_new                   (const char    *directory,
                                                   GError       **error);
const char    *strobe_store_get_directory         (StrobeStore   *self);
/* Bumped on every change to the trace or session lists; lets remote clients that poll
 * tell whether anything happened. */
guint64        strobe_store_get_change_serial     (StrobeStore   *self);

/* A GListModel of StrobeTrace. */
GListModel    *strobe_store_get_traces            (StrobeStore   *self);
StrobeTrace   *strobe_store_lookup_trace          (StrobeStore   *self,
                                                   const char    *id);
/* Looks at every file again (the monitor may miss changes on network file systems). */
void           strobe_store_rescan                (StrobeStore   *self);
gboolean       strobe_store_rename_trace          (StrobeStore   *self,
                                                   const char    *id,
                                                   const char    *new_name,
                                                   GError       **error);
/* Deletes the trace's file and sidecars; an external trace is only forgotten (its file
 * stays where it is). Renaming an external trace is refused. */
gboolean       strobe_store_delete_trace          (StrobeStore   *self,
                                                   const char    *id,
                                                   GError       **error);
/* A reader read the trace @id to its end and learnt when it ended (@end_time_ns, ns since
 * the Unix epoch): kept, for a finished trace whose file does not say (copied in, opened
 * from elsewhere, written by the program itself), while the file stays as it is — so the
 * trace's duration is known from now on. Ignored when the end is known already. */
void           strobe_store_note_trace_end        (StrobeStore   *self,
                                                   const char    *id,
                                                   guint64        end_time_ns);
/* Remembers a trace file opened from outside the directory: listed from then on (across
 * restarts, in the directory's .external-traces) with its path, as an external trace whose
 * id is made from the path. Returns the store's trace for @path — its own when @path is in
 * the directory —, or NULL with @error when the file cannot be opened or is not a trace. */
StrobeTrace   *strobe_store_add_external          (StrobeStore   *self,
                                                   const char    *path,
                                                   GError       **error);
/* The trace's bytes from @offset; see strobe_trace_stream_new() for @follow. */
GInputStream  *strobe_store_open_trace            (StrobeStore   *self,
                                                   const char    *id,
                                                   guint64        offset,
                                                   gboolean       follow,
                                                   GError       **error);

/* Starts a new live trace named after @program. Thread-safe. */
StrobeTraceWriter *strobe_store_create_writer     (StrobeStore   *self,
                                                   const char    *program,
                                                   const char    *peer_address,
                                                   GError       **error);

/* Live sessions (a GListModel of StrobeLiveConnection), registered by the recorder. */
GListModel    *strobe_store_get_sessions          (StrobeStore   *self);
StrobeLiveConnection *strobe_store_lookup_session        (StrobeStore   *self,
                                                   guint64        id);
void           strobe_store_add_session           (StrobeStore   *self,
                                                   StrobeLiveConnection *session);
void           strobe_store_remove_session        (StrobeStore   *self,
                                                   StrobeLiveConnection *session);

G_END_DECLS
