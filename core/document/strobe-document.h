/* strobe-document.h — one open trace: the analysis session that every view of it and every
 * strobe-cli subcommand shares. It owns the decoder and the standard models, reads a file,
 * a store trace or a growing live trace (on a worker thread, with progress and cancel, or
 * synchronously for the CLI), and tells its main context what grew, at most ten times a
 * second.
 *
 * Every model it hands out locks internally and returns copies, so a view may query it
 * from the main thread at any time: nothing holds a lock across a decoder feed.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-analysis.h"
#include "strobe-log-model.h"
#include "strobe-memory-model.h"
#include "strobe-store.h"
#include "strobe-threads-model.h"
#include "strobe-timeline-model.h"
#include "strobe-trace-clock.h"

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

/* Which models a document builds. The info analyzer and the threads model are always
 * built (the overview, the clock, the extent and the thread table need them). */
typedef enum /*< flags >*/
{
  STROBE_DOCUMENT_MODEL_INFO     = 1 << 0,
  STROBE_DOCUMENT_MODEL_THREADS  = 1 << 1,
  STROBE_DOCUMENT_MODEL_TIMELINE = 1 << 2,
  STROBE_DOCUMENT_MODEL_LOG      = 1 << 3,
  STROBE_DOCUMENT_MODEL_MEMORY   = 1 << 4,
  STROBE_DOCUMENT_MODEL_ALL      = 0x1f,
} StrobeDocumentModels;

/* What "changed" reports: the models that grew, and whether the extent moved. */
typedef enum /*< flags >*/
{
  STROBE_DOCUMENT_CHANGED_INFO     = STROBE_DOCUMENT_MODEL_INFO,
  STROBE_DOCUMENT_CHANGED_THREADS  = STROBE_DOCUMENT_MODEL_THREADS,
  STROBE_DOCUMENT_CHANGED_TIMELINE = STROBE_DOCUMENT_MODEL_TIMELINE,
  STROBE_DOCUMENT_CHANGED_LOG      = STROBE_DOCUMENT_MODEL_LOG,
  STROBE_DOCUMENT_CHANGED_MEMORY   = STROBE_DOCUMENT_MODEL_MEMORY,
  STROBE_DOCUMENT_CHANGED_EXTENT   = 1 << 5,
} StrobeDocumentChanges;

#define STROBE_TYPE_DOCUMENT_STATUS (strobe_document_status_get_type ())
GType strobe_document_status_get_type (void);
#define STROBE_TYPE_DOCUMENT_MODELS (strobe_document_models_get_type ())
GType strobe_document_models_get_type (void);
#define STROBE_TYPE_DOCUMENT_CHANGES (strobe_document_changes_get_type ())
GType strobe_document_changes_get_type (void);

#define STROBE_TYPE_DOCUMENT (strobe_document_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDocument, strobe_document, STROBE, DOCUMENT, GObject)

StrobeDocument       *strobe_document_new              (GFile                *file,
                                                        StrobeDocumentModels  models);
/* A trace of @store: a live one is followed as it grows (status LIVE until the program
 * ends it), a saved one is read like a file. */
StrobeDocument       *strobe_document_new_for_trace    (StrobeStore          *store,
                                                        StrobeTrace          *trace,
                                                        StrobeDocumentModels  models);
/* Any byte stream (a pipe, a socket): read to its end, growing meanwhile like a live trace.
 * @title names it. */
StrobeDocument       *strobe_document_new_for_stream   (GInputStream         *stream,
                                                        const char           *title,
                                                        StrobeDocumentModels  models);
/* One more analyzer fed with the standard models (e.g. `strobe-cli dump`'s printer).
 * Only before loading. */
void                  strobe_document_add_analyzer     (StrobeDocument       *self,
                                                        StrobeAnalyzer       *analyzer);

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

/* ---- the analysis: valid at any time, growing while loading or live ------------------ */
/* The model registry: the document's one instance of @model_type (a StrobeAnalyzer with a
 * constructor that takes no arguments), shared by every view and command that names it.
 * Named before loading starts, a type the document does not build yet is made and fed from
 * the first event, so a new view brings its own model without an edit here; named later,
 * it is NULL unless someone named it (or it is a standard model) in time. The standard
 * models are in the registry too (STROBE_TYPE_TIMELINE_MODEL…); their typed getters below
 * are shorthands. "changed" names the standard models that grew; any other model grows
 * with CHANGED_EXTENT and is final at the last "changed" (every flag). Main thread. */
gpointer              strobe_document_get_model        (StrobeDocument       *self,
                                                        GType                 model_type);
StrobeInfoAnalyzer   *strobe_document_get_info         (StrobeDocument       *self);
StrobeThreadsModel   *strobe_document_get_threads      (StrobeDocument       *self);
/* NULL when the document was made without that model. */
StrobeTimelineModel  *strobe_document_get_timeline     (StrobeDocument       *self);
StrobeLogModel       *strobe_document_get_log          (StrobeDocument       *self);
StrobeMemoryModel    *strobe_document_get_memory       (StrobeDocument       *self);
/* The handshake's metadata (valid for the document's life); NULL before it was read. */
const StrobeWireMetadata *strobe_document_get_metadata (StrobeDocument       *self);
/* The trace's extent: first and last timestamp of any event; FALSE while it has none. */
gboolean              strobe_document_get_extent       (StrobeDocument       *self,
                                                        guint64              *first,
                                                        guint64              *last);
/* The clock, with its base at the first event (times are shown from there). */
void                  strobe_document_get_clock        (StrobeDocument       *self,
                                                        StrobeTraceClock     *clock);
/* A session's processes on one axis (strobe-clock-align.h): @clock (NULL: the trace's own
 * again) is what get_clock() gives from now on, so every view of this trace shows the
 * session's seconds. Any thread. */
void                  strobe_document_set_clock        (StrobeDocument         *self,
                                                        const StrobeTraceClock *clock);
void                  strobe_document_get_decoder_stats (StrobeDocument      *self,
                                                        StrobeDecoderStats   *stats);
/* The runtime's dropped-event count from its last $Trace.Stats. */
guint64               strobe_document_get_dropped_events (StrobeDocument     *self);

/* Live figures, recomputed about once a second while loading or live: events and bytes
 * received per second. */
double                strobe_document_get_events_per_second (StrobeDocument  *self);
double                strobe_document_get_bytes_per_second  (StrobeDocument  *self);

/* ---- loading ------------------------------------------------------------------------- */
/* Reads in the calling thread (strobe-cli). The document's state is settled on return; the
 * error is the same as strobe_document_get_error(). */
gboolean              strobe_document_load             (StrobeDocument       *self,
                                                        GCancellable         *cancellable,
                                                        GError              **error);
/* Reads in a worker thread; "changed", progress and status are notified on the calling
 * thread's main context. */
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
