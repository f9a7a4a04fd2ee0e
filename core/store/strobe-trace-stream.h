/* strobe-trace-stream.h — reads a trace's bytes, following it while it grows.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How often a following stream that reached the end looks for new bytes. Readers see new
 * data at most this long after the recorder wrote it. */
#define STROBE_TRACE_STREAM_POLL_MS 20

#define STROBE_TYPE_TRACE_STREAM (strobe_trace_stream_get_type ())
G_DECLARE_FINAL_TYPE (StrobeTraceStream, strobe_trace_stream, STROBE, TRACE_STREAM, GInputStream)

/* Reads @path from @offset. With @follow, reaching the end of a live trace waits for more
 * instead of returning 0; the stream ends (returns 0) once the recorder has finished the
 * trace (or died) and every byte has been read. Without @follow it ends at the current
 * end of the file. Async reads never hold a thread while waiting. */
GInputStream *strobe_trace_stream_new        (const char         *path,
                                              guint64             offset,
                                              gboolean            follow,
                                              GError            **error);
const char   *strobe_trace_stream_get_path   (StrobeTraceStream  *self);
gboolean      strobe_trace_stream_get_follow (StrobeTraceStream  *self);
/* The file offset of the next byte to be read. */
guint64       strobe_trace_stream_get_offset (StrobeTraceStream  *self);

G_END_DECLS
