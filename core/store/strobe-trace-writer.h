/* strobe-trace-writer.h — writes one recording into a store, durably.
 *
 * Created by strobe_store_create_writer(). A writer belongs to one thread at a time (the
 * recorder gives each connection its own thread); it never touches the StrobeStore
 * object itself, only files, and tells the store about changes through its main context.
 *
 * Durability policy: every write() goes to the file as soon as the bytes arrive, so a
 * killed recorder loses nothing the kernel has; fdatasync() runs at most 250 ms after the
 * first unsynced byte (the caller waits no longer than strobe_trace_writer_get_sync_deadline()),
 * so a machine crash loses at most that interval.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-trace.h"

G_BEGIN_DECLS

#define STROBE_TRACE_WRITER_SYNC_INTERVAL_US (250 * G_TIME_SPAN_MILLISECOND)

typedef struct _StrobeTraceWriter StrobeTraceWriter;

const char *strobe_trace_writer_get_id            (StrobeTraceWriter  *self);
const char *strobe_trace_writer_get_name          (StrobeTraceWriter  *self);
const char *strobe_trace_writer_get_path          (StrobeTraceWriter  *self);
guint64     strobe_trace_writer_get_size          (StrobeTraceWriter  *self);

gboolean    strobe_trace_writer_write             (StrobeTraceWriter  *self,
                                                   const void         *data,
                                                   gsize               len,
                                                   GError            **error);
/* Drops bytes past @size (the recorder cuts a stream back to its last good packet). */
gboolean    strobe_trace_writer_truncate          (StrobeTraceWriter  *self,
                                                   guint64             size,
                                                   GError            **error);
/* Monotonic time (µs) by which unsynced data must be synced; G_MAXINT64 when clean. */
gint64      strobe_trace_writer_get_sync_deadline (StrobeTraceWriter  *self);
gboolean    strobe_trace_writer_sync              (StrobeTraceWriter  *self,
                                                   GError            **error);
/* The recording is being ended on purpose by a user (a viewer's Stop, the recorder shut
 * down): the record says so (strobe_trace_get_stopped). Any thread, before finish(). */
void        strobe_trace_writer_set_stopped       (StrobeTraceWriter  *self);
/* Syncs, records @status (FINISHED or CUT_OFF) and @reason in the .info sidecar and
 * removes the .live marker. Further writes fail. */
gboolean    strobe_trace_writer_finish            (StrobeTraceWriter  *self,
                                                   StrobeTraceStatus   status,
                                                   const char         *reason,
                                                   GError            **error);
/* Finishes as cut off if strobe_trace_writer_finish() was not called. */
void        strobe_trace_writer_free              (StrobeTraceWriter  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeTraceWriter, strobe_trace_writer_free)

G_END_DECLS
