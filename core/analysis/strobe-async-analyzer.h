/* strobe-async-analyzer.h — an analyzer run on a thread of its own: the decoder's thread
 * copies the events it subscribed to into blocks, and a worker delivers them to it in the
 * same order, so a model's work overlaps the reading and decompressing of the trace
 * (on two cores the document's reading thread did both, one core idle).
 *
 * Whatever is not an event — begin, metadata, schemas, flush, end — waits until the
 * worker has delivered everything before it and runs on the calling thread: after each
 * chunk the decoder is fed (flush) the model holds what a direct analyzer would, so a
 * reader sees the same model at the same points. Between flushes the worker is at most
 * a few MiB of copies behind. The events it delivers have no origin in the file
 * (strobe_event_get_origin answers FALSE): an analyzer that reads packets again must not
 * be wrapped. A batch a wrapped model walks leaves its extent in a StrobeCpuExtentSink
 * for the info analyzer, as a direct walk leaves it on the event.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

#define STROBE_TYPE_ASYNC_ANALYZER (strobe_async_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (StrobeAsyncAnalyzer, strobe_async_analyzer, STROBE, ASYNC_ANALYZER, GObject)

/* Wraps @inner (a new reference is kept); add the result to the decoder instead. */
StrobeAsyncAnalyzer *strobe_async_analyzer_new (StrobeAnalyzer *inner);

G_END_DECLS
