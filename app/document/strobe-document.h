/* strobe-document.h — one open trace: reads it off the main thread through the decoder and
 * keeps what the analyzers made of it. Views bind to it (one per open trace).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-analysis.h"
#include "strobe-store.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_DOCUMENT_STATUS_NEW,        /* not loaded yet */
  STROBE_DOCUMENT_STATUS_LOADING,
  STROBE_DOCUMENT_STATUS_LIVE,       /* following a trace a program is still sending */
  STROBE_DOCUMENT_STATUS_FINISHED,   /* read to its end marker */
  STROBE_DOCUMENT_STATUS_CUT_OFF,    /* read to the end of the file, no end marker */
  STROBE_DOCUMENT_STATUS_DAMAGED,    /* decoding stopped at an error; the part before is kept */
  STROBE_DOCUMENT_STATUS_CANCELLED,  /* loading was cancelled; the part read is kept */
  STROBE_DOCUMENT_STATUS_FAILED,     /* nothing could be read */
} StrobeDocumentStatus;

#define STROBE_TYPE_DOCUMENT_STATUS (strobe_document_status_get_type ())
GType strobe_document_status_get_type (void);

#define STROBE_TYPE_DOCUMENT (strobe_document_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDocument, strobe_document, STROBE, DOCUMENT, GObject)

StrobeDocument       *strobe_document_new              (GFile                *file);
/* A trace of @store: a live one is followed as it grows (status LIVE until the program
 * ends it), a saved one is read like a file. */
StrobeDocument       *strobe_document_new_for_trace    (StrobeStore          *store,
                                                        StrobeTrace          *trace);
/* The store and the trace's id, for documents made by new_for_trace(); NULL otherwise. */
StrobeStore          *strobe_document_get_store        (StrobeDocument       *self);
const char           *strobe_document_get_trace_id     (StrobeDocument       *self);
GFile                *strobe_document_get_file         (StrobeDocument       *self);
/* The trace's name: the file name without ".strobe". */
const char           *strobe_document_get_title        (StrobeDocument       *self);
StrobeDocumentStatus  strobe_document_get_status       (StrobeDocument       *self);
/* TRUE once loading has stopped, whatever the outcome. */
gboolean              strobe_document_is_loaded        (StrobeDocument       *self);
/* TRUE while a live trace is followed. */
gboolean              strobe_document_is_live          (StrobeDocument       *self);
/* 0..1 while loading (bytes read over the file's size). */
double                strobe_document_get_progress     (StrobeDocument       *self);
guint64               strobe_document_get_bytes_read   (StrobeDocument       *self);
guint64               strobe_document_get_bytes_total  (StrobeDocument       *self);
/* Why loading stopped early (DAMAGED, CANCELLED, FAILED); NULL otherwise. */
const GError         *strobe_document_get_error        (StrobeDocument       *self);

/* What the analysis made of the trace: only once loaded. */
StrobeInfoAnalyzer   *strobe_document_get_info         (StrobeDocument       *self);
/* The analysis so far, loaded or live: the worker thread stops feeding the decoder until
 * unlock(). Copy what you need and unlock quickly. NULL (and not locked) while nothing
 * can be shown yet (before the handshake of a live trace, or while a file loads). */
StrobeInfoAnalyzer   *strobe_document_lock_info        (StrobeDocument       *self);
void                  strobe_document_unlock_info      (StrobeDocument       *self);

/* Live figures, recomputed with each "updated" signal (about twice a second while new data
 * arrives, and once when loading stops): events and bytes received per second, and the
 * runtime's dropped-event count from its last $Trace.Stats. */
double                strobe_document_get_events_per_second (StrobeDocument  *self);
double                strobe_document_get_bytes_per_second  (StrobeDocument  *self);
guint64               strobe_document_get_dropped_events    (StrobeDocument  *self);
void                  strobe_document_get_decoder_stats (StrobeDocument      *self,
                                                        StrobeDecoderStats   *stats);

/* Starts reading in a worker thread; progress is notified on the calling thread's main
 * context. The result is the same error as strobe_document_get_error(). */
void                  strobe_document_load_async       (StrobeDocument       *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean              strobe_document_load_finish      (StrobeDocument       *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
/* Stops a running load; the part read so far stays (status CANCELLED). */
void                  strobe_document_cancel           (StrobeDocument       *self);

G_END_DECLS
