/* strobe-trace-writer-private.h — how the store creates writers.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-trace-writer.h"

G_BEGIN_DECLS

/* Called (from the writer's thread) with the trace's file name whenever the store should
 * look at it again: created, finished. Must be thread-safe. */
typedef void (*StrobeTraceWriterNotify) (const char *name,
                                         gpointer    user_data);

StrobeTraceWriter *_strobe_trace_writer_new (const char               *directory,
                                             const char               *program,
                                             const char               *peer_address,
                                             StrobeTraceWriterNotify   notify,
                                             gpointer                  notify_data,
                                             GDestroyNotify            notify_destroy,
                                             GError                  **error);

G_END_DECLS
