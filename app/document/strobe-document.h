/* strobe-document.h — one open trace: reads it off the main thread through the decoder and
 * keeps what the analyzers made of it. Views bind to it (one per open trace).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-analysis.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_DOCUMENT_STATUS_NEW,        /* not loaded yet */
  STROBE_DOCUMENT_STATUS_LOADING,
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
GFile                *strobe_document_get_file         (StrobeDocument       *self);
/* The trace's name: the file name without ".strobe". */
const char           *strobe_document_get_title        (StrobeDocument       *self);
StrobeDocumentStatus  strobe_document_get_status       (StrobeDocument       *self);
/* TRUE once loading has stopped, whatever the outcome. */
gboolean              strobe_document_is_loaded        (StrobeDocument       *self);
/* 0..1 while loading (bytes read over the file's size). */
double                strobe_document_get_progress     (StrobeDocument       *self);
guint64               strobe_document_get_bytes_read   (StrobeDocument       *self);
guint64               strobe_document_get_bytes_total  (StrobeDocument       *self);
/* Why loading stopped early (DAMAGED, CANCELLED, FAILED); NULL otherwise. */
const GError         *strobe_document_get_error        (StrobeDocument       *self);

/* What the analysis made of the trace: only once loaded. */
StrobeInfoAnalyzer   *strobe_document_get_info         (StrobeDocument       *self);
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
