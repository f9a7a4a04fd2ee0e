/* strobe-document.c
 *
 * Threads: the worker (or the CLI's thread) owns the decoder and feeds the models; the
 * models lock internally, so the main thread queries them whenever it likes. What crosses
 * over otherwise is a byte count and the decoder's statistics under a small mutex, and a
 * poll on the main context (every 100 ms) compares the models' generation counters to
 * say which ones grew — one coalesced "changed" at most ten times a second, however fast
 * the data comes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-document.h"
#include "strobe-async-analyzer.h"
#include "strobe-give-way.h"

#define POLL_MS   100
#define RATE_MS   1000

struct _StrobeDocument
{
  GObject               parent_instance;

  GFile                *file;
  char                 *title;
  StrobeStore          *store;          /* store documents: where to follow a live trace */
  char                 *trace_id;
  StrobeDocumentModels  models;
  StrobeDocumentStatus  status;
  GError               *error;

  StrobeDecoder        *decoder;        /* the reading thread's; freed once loaded */
  StrobeInfoAnalyzer   *info;
  StrobeThreadsModel   *threads;
  StrobeTimelineModel  *timeline;
  StrobeLogModel       *log;
  StrobeMemoryModel    *memory;
  GPtrArray            *extra;          /* more analyzers, before loading */
  GHashTable           *models_by_type; /* GType -> its model (a ref): strobe_document_get_model() */

  GCancellable         *cancellable;
  GInputStream         *live_stream;
  GInputStream         *stream;         /* new_for_stream(): what to read */
  guint                 poll_source;

  GMutex                mutex;          /* guards the five below */
  gboolean              has_clock;      /* set_clock(): a session's axis instead of the trace's own */
  StrobeTraceClock      clock;
  guint64               bytes_read;
  guint64               bytes_total;
  StrobeDecoderStats    decoder_stats;

  /* Main thread only: what "changed" last reported. */
  guint64               seen_generation[5];
  guint64               seen_first, seen_last;
  gboolean              seen_extent;
  guint64               notified_bytes;
  gint64                rate_time_us;
  guint64               rate_events;
  guint64               rate_bytes;
  double                events_per_second;
  double                bytes_per_second;
};

G_DEFINE_FINAL_TYPE (StrobeDocument, strobe_document, G_TYPE_OBJECT)
G_DEFINE_ENUM_TYPE (StrobeDocumentStatus, strobe_document_status,
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_NEW, "new"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_LIVE, "live"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_FINISHED, "finished"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_CUT_OFF, "cut-off"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_DAMAGED, "damaged"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_CANCELLED, "cancelled"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_STATUS_FAILED, "failed"))
G_DEFINE_FLAGS_TYPE (StrobeDocumentModels, strobe_document_models,
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_MODEL_INFO, "info"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_MODEL_THREADS, "threads"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_MODEL_TIMELINE, "timeline"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_MODEL_LOG, "log"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_MODEL_MEMORY, "memory"))
G_DEFINE_FLAGS_TYPE (StrobeDocumentChanges, strobe_document_changes,
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_INFO, "info"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_THREADS, "threads"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_TIMELINE, "timeline"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_LOG, "log"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_MEMORY, "memory"),
  G_DEFINE_ENUM_VALUE (STROBE_DOCUMENT_CHANGED_EXTENT, "extent"))

enum
{
  PROP_0,
  PROP_FILE,
  PROP_MODELS,
  PROP_TITLE,
  PROP_STATUS,
  PROP_PROGRESS,
  PROP_BYTES_READ,
  PROP_BYTES_TOTAL,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
strobe_document_finalize (GObject *object)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);

  g_clear_handle_id (&self->poll_source, g_source_remove);
  g_clear_object (&self->file);
  g_clear_pointer (&self->title, g_free);
  g_clear_error (&self->error);
  g_clear_object (&self->decoder);
  g_clear_object (&self->info);
  g_clear_object (&self->threads);
  g_clear_object (&self->timeline);
  g_clear_object (&self->log);
  g_clear_object (&self->memory);
  g_clear_pointer (&self->extra, g_ptr_array_unref);
  g_clear_pointer (&self->models_by_type, g_hash_table_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->trace_id, g_free);
  g_clear_object (&self->live_stream);
  g_clear_object (&self->stream);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (strobe_document_parent_class)->finalize (object);
}

static void
strobe_document_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:        g_value_set_object (value, self->file); break;
    case PROP_MODELS:      g_value_set_flags (value, self->models); break;
    case PROP_TITLE:       g_value_set_string (value, self->title); break;
    case PROP_STATUS:      g_value_set_enum (value, self->status); break;
    case PROP_PROGRESS:    g_value_set_double (value, strobe_document_get_progress (self)); break;
    case PROP_BYTES_READ:  g_value_set_uint64 (value, strobe_document_get_bytes_read (self)); break;
    case PROP_BYTES_TOTAL: g_value_set_uint64 (value, strobe_document_get_bytes_total (self)); break;
    case PROP_ERROR:       g_value_set_boxed (value, self->error); break;
    default:               G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_document_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:
      {
        g_autofree char *basename = NULL;

        self->file = g_value_dup_object (value);
        basename = g_file_get_basename (self->file);
        if (g_str_has_suffix (basename, ".strobe") && strlen (basename) > strlen (".strobe"))
          basename[strlen (basename) - strlen (".strobe")] = '\0';
        self->title = g_filename_display_name (basename);
      }
      break;
    case PROP_MODELS:
      self->models = g_value_get_flags (value) | STROBE_DOCUMENT_MODEL_INFO | STROBE_DOCUMENT_MODEL_THREADS;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Feeds @analyzer from the first byte and lists it under its type, so whoever names the
 * type (strobe_document_get_model) gets this one instance; the first of a type wins. */
static void
add_model (StrobeDocument *self, gpointer analyzer)
{
  GType type = G_OBJECT_TYPE (analyzer);

  strobe_decoder_add_analyzer (self->decoder, STROBE_ANALYZER (analyzer));
  if (!g_hash_table_contains (self->models_by_type, GSIZE_TO_POINTER (type)))
    g_hash_table_insert (self->models_by_type, GSIZE_TO_POINTER (type), g_object_ref (analyzer));
}

/* The timeline model, most of a scope trace's reading time, on a thread of its own while
 * this one reads, decompresses and feeds the other models: on two cores the reading
 * thread did both. It holds what it would directly after every chunk fed (the wrapper's
 * flush waits for it). The other models stay direct: the log model reads packets again
 * from the file (strobe_event_get_origin), which copied events cannot give. */
static void
add_model_async (StrobeDocument *self, gpointer model)
{
  const char *env = g_getenv ("STROBE_DOCUMENT_ASYNC");
  gboolean async = env != NULL ? g_ascii_strtoull (env, NULL, 10) != 0 : g_get_num_processors () > 1;
  g_autoptr(StrobeAsyncAnalyzer) wrapper = NULL;

  if (!async)
    {
      add_model (self, model);
      return;
    }
  wrapper = strobe_async_analyzer_new (STROBE_ANALYZER (model));
  strobe_decoder_add_analyzer (self->decoder, STROBE_ANALYZER (wrapper));
  g_hash_table_insert (self->models_by_type, GSIZE_TO_POINTER (G_OBJECT_TYPE (model)), g_object_ref (model));
}

static void
strobe_document_constructed (GObject *object)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);

  G_OBJECT_CLASS (strobe_document_parent_class)->constructed (object);

  self->decoder = strobe_decoder_new ();
  self->models_by_type = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->info = strobe_info_analyzer_new ();
  self->threads = strobe_threads_model_new ();
  add_model (self, self->info);
  add_model (self, self->threads);
  if (self->models & STROBE_DOCUMENT_MODEL_TIMELINE)
    {
      self->timeline = strobe_timeline_model_new ();
      add_model_async (self, self->timeline);
    }
  if (self->models & STROBE_DOCUMENT_MODEL_LOG)
    add_model (self, self->log = strobe_log_model_new ());
  if (self->models & STROBE_DOCUMENT_MODEL_MEMORY)
    add_model (self, self->memory = strobe_memory_model_new ());
}

static void
strobe_document_class_init (StrobeDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = strobe_document_constructed;
  object_class->finalize = strobe_document_finalize;
  object_class->get_property = strobe_document_get_property;
  object_class->set_property = strobe_document_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODELS] =
    g_param_spec_flags ("models", NULL, NULL, STROBE_TYPE_DOCUMENT_MODELS, STROBE_DOCUMENT_MODEL_ALL,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, STROBE_TYPE_DOCUMENT_STATUS,
                       STROBE_DOCUMENT_STATUS_NEW, ro);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0, ro);
  properties[PROP_BYTES_READ] = g_param_spec_uint64 ("bytes-read", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_BYTES_TOTAL] = g_param_spec_uint64 ("bytes-total", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_ERROR] = g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StrobeDocument::changed:
   * @changes: a #StrobeDocumentChanges: the models that grew, and whether the extent moved
   *
   * The analysis has more to show: emitted at most ten times a second while a trace
   * loads or a live trace grows, and once more when loading stops (with every flag).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                   STROBE_TYPE_DOCUMENT_CHANGES);
}

static void
strobe_document_init (StrobeDocument *self)
{
  g_mutex_init (&self->mutex);
  self->models = STROBE_DOCUMENT_MODEL_ALL;
}

StrobeDocument *
strobe_document_new (GFile                *file,
                     StrobeDocumentModels  models)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (STROBE_TYPE_DOCUMENT, "file", file, "models", models, NULL);
}

StrobeDocument *
strobe_document_new_for_trace (StrobeStore          *store,
                               StrobeTrace          *trace,
                               StrobeDocumentModels  models)
{
  g_autoptr(GFile) file = NULL;
  StrobeDocument *self;

  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  g_return_val_if_fail (STROBE_IS_TRACE (trace), NULL);

  file = g_file_new_for_path (strobe_trace_get_path (trace));
  self = strobe_document_new (file, models);
  self->store = g_object_ref (store);
  self->trace_id = g_strdup (strobe_trace_get_id (trace));
  return self;
}

StrobeDocument *
strobe_document_new_for_stream (GInputStream         *stream,
                                const char           *title,
                                StrobeDocumentModels  models)
{
  g_autoptr(GFile) file = NULL;
  StrobeDocument *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  /* A file named after the stream, so every document has one (it is never opened). */
  file = g_file_new_for_path (title);
  self = strobe_document_new (file, models);
  g_free (self->title);
  self->title = g_strdup (title);
  self->stream = g_object_ref (stream);
  return self;
}

void
strobe_document_add_analyzer (StrobeDocument *self,
                              StrobeAnalyzer *analyzer)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  g_return_if_fail (STROBE_IS_ANALYZER (analyzer));
  g_return_if_fail (self->status == STROBE_DOCUMENT_STATUS_NEW);

  if (self->extra == NULL)
    self->extra = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->extra, g_object_ref (analyzer));
  add_model (self, analyzer);
}

gpointer
strobe_document_get_model (StrobeDocument *self,
                           GType           model_type)
{
  StrobeAnalyzer *model;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (g_type_is_a (model_type, STROBE_TYPE_ANALYZER), NULL);
  g_return_val_if_fail (G_TYPE_IS_INSTANTIATABLE (model_type) && !G_TYPE_IS_ABSTRACT (model_type), NULL);

  model = g_hash_table_lookup (self->models_by_type, GSIZE_TO_POINTER (model_type));
  if (model != NULL || self->status != STROBE_DOCUMENT_STATUS_NEW)
    return model;

  /* Named before loading: fed from the first event like the standard ones. A standard
   * model left out of @models at construction is taken into its place, so its typed
   * getter and the change flags know it too. */
  model = g_object_new (model_type, NULL);
  add_model (self, model);
  if (model_type == STROBE_TYPE_TIMELINE_MODEL)
    g_set_object (&self->timeline, STROBE_TIMELINE_MODEL (model));
  else if (model_type == STROBE_TYPE_LOG_MODEL)
    g_set_object (&self->log, STROBE_LOG_MODEL (model));
  else if (model_type == STROBE_TYPE_MEMORY_MODEL)
    g_set_object (&self->memory, STROBE_MEMORY_MODEL (model));
  g_object_unref (model);   /* models_by_type holds it */
  return model;
}

/* ---- getters --------------------------------------------------------------------------- */

StrobeStore *
strobe_document_get_store (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->store;
}

const char *
strobe_document_get_trace_id (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->trace_id;
}

GFile *
strobe_document_get_file (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->file;
}

const char *
strobe_document_get_title (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->title;
}

StrobeDocumentStatus
strobe_document_get_status (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), STROBE_DOCUMENT_STATUS_FAILED);
  return self->status;
}

gboolean
strobe_document_is_loaded (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  return self->status > STROBE_DOCUMENT_STATUS_LIVE;
}

gboolean
strobe_document_is_live (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  return self->status == STROBE_DOCUMENT_STATUS_LIVE;
}

guint64
strobe_document_get_bytes_read (StrobeDocument *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0);
  g_mutex_lock (&self->mutex);
  n = self->bytes_read;
  g_mutex_unlock (&self->mutex);
  return n;
}

guint64
strobe_document_get_bytes_total (StrobeDocument *self)
{
  guint64 n;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0);
  g_mutex_lock (&self->mutex);
  n = self->bytes_total;
  g_mutex_unlock (&self->mutex);
  return n;
}

double
strobe_document_get_progress (StrobeDocument *self)
{
  guint64 read, total;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0.0);
  if (strobe_document_is_loaded (self))
    return 1.0;
  g_mutex_lock (&self->mutex);
  read = self->bytes_read;
  total = self->bytes_total;
  g_mutex_unlock (&self->mutex);
  return total ? CLAMP ((double) read / (double) total, 0.0, 1.0) : 0.0;
}

const GError *
strobe_document_get_error (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->error;
}

StrobeInfoAnalyzer *
strobe_document_get_info (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->info;
}

StrobeThreadsModel *
strobe_document_get_threads (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->threads;
}

StrobeTimelineModel *
strobe_document_get_timeline (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->timeline;
}

StrobeLogModel *
strobe_document_get_log (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->log;
}

StrobeMemoryModel *
strobe_document_get_memory (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return self->memory;
}

const StrobeWireMetadata *
strobe_document_get_metadata (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);
  return strobe_info_analyzer_get_metadata (self->info);
}

gboolean
strobe_document_get_extent (StrobeDocument *self,
                            guint64        *first,
                            guint64        *last)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  return strobe_info_analyzer_get_time_range (self->info, first, last);
}

void
strobe_document_get_clock (StrobeDocument   *self,
                           StrobeTraceClock *clock)
{
  guint64 first;

  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  g_return_if_fail (clock != NULL);

  g_mutex_lock (&self->mutex);
  if (self->has_clock)
    {
      *clock = self->clock;
      g_mutex_unlock (&self->mutex);
      return;
    }
  g_mutex_unlock (&self->mutex);
  strobe_trace_clock_init (clock, strobe_document_get_metadata (self));
  if (strobe_document_get_extent (self, &first, NULL))
    strobe_trace_clock_set_base (clock, first);
}

void
strobe_document_set_clock (StrobeDocument         *self,
                           const StrobeTraceClock *clock)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));

  g_mutex_lock (&self->mutex);
  self->has_clock = clock != NULL;
  if (clock != NULL)
    self->clock = *clock;
  g_mutex_unlock (&self->mutex);
}

void
strobe_document_get_decoder_stats (StrobeDocument     *self,
                                   StrobeDecoderStats *stats)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  g_return_if_fail (stats != NULL);
  g_mutex_lock (&self->mutex);
  *stats = self->decoder_stats;
  g_mutex_unlock (&self->mutex);
}

guint64
strobe_document_get_dropped_events (StrobeDocument *self)
{
  StrobeInfoStats stats;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0);
  strobe_info_analyzer_get_stats (self->info, &stats);
  return stats.valid ? stats.events_dropped : 0;
}

double
strobe_document_get_events_per_second (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0.0);
  return self->events_per_second;
}

double
strobe_document_get_bytes_per_second (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0.0);
  return self->bytes_per_second;
}

void
strobe_document_cancel (StrobeDocument *self)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* ---- reading (worker thread, or the CLI's) --------------------------------------------- */

static void
progress_cb (guint64  done,
             guint64  total,
             gpointer user_data)
{
  StrobeDocument *self = user_data;
  StrobeDecoderStats stats;

  /* Same thread as the feed: the decoder may be read here. */
  strobe_decoder_get_stats (self->decoder, &stats);
  g_mutex_lock (&self->mutex);
  self->bytes_read = done;
  if (total)
    self->bytes_total = total;
  self->decoder_stats = stats;
  g_mutex_unlock (&self->mutex);
}

/* Reads everything, then marks the threads still running when the trace stopped. */
static gboolean
read_trace (StrobeDocument *self,
            GInputStream   *stream,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autofree char *path = NULL;
  guint64 last = 0;
  gboolean ok;

  if (stream != NULL)
    ok = strobe_decoder_read_stream_full (self->decoder, stream, 0, cancellable, progress_cb, self, error);
  else if ((path = g_file_get_path (self->file)) != NULL)
    ok = strobe_decoder_read_file_full (self->decoder, path, cancellable, progress_cb, self, error);
  else
    {
      g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (self->file, cancellable, error));

      ok = in != NULL &&
           strobe_decoder_read_stream_full (self->decoder, in, 0, cancellable, progress_cb, self, error);
    }
  strobe_info_analyzer_get_time_range (self->info, NULL, &last);
  strobe_threads_model_set_trace_end (self->threads, last);
  return ok;
}

static StrobeDocumentStatus
settle (StrobeDocument *self,
        gboolean        ok,
        const GError   *error)
{
  StrobeDocumentStatus status;

  g_mutex_lock (&self->mutex);
  strobe_decoder_get_stats (self->decoder, &self->decoder_stats);
  g_mutex_unlock (&self->mutex);

  if (ok)
    status = strobe_decoder_get_ended_cleanly (self->decoder)
             ? STROBE_DOCUMENT_STATUS_FINISHED : STROBE_DOCUMENT_STATUS_CUT_OFF;
  else if (strobe_info_analyzer_get_metadata (self->info) == NULL)
    status = STROBE_DOCUMENT_STATUS_FAILED;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    status = STROBE_DOCUMENT_STATUS_CANCELLED;
  else
    status = STROBE_DOCUMENT_STATUS_DAMAGED;

  /* The decoder's memory (schemas, reorder buffers) is not needed any more. */
  g_clear_object (&self->decoder);
  if (error != NULL)
    self->error = g_error_copy (error);
  return status;
}

/* A live trace of the store is followed; anything else is read to its current end. */
static void
open_live_stream (StrobeDocument *self)
{
  StrobeTrace *trace;
  g_autoptr(GError) error = NULL;

  if (self->stream != NULL)
    {
      self->live_stream = g_object_ref (self->stream);
      return;
    }
  if (self->store == NULL)
    return;
  trace = strobe_store_lookup_trace (self->store, self->trace_id);
  if (trace == NULL || strobe_trace_get_status (trace) != STROBE_TRACE_STATUS_LIVE)
    return;
  self->live_stream = strobe_store_open_trace (self->store, self->trace_id, 0, TRUE, &error);
  if (self->live_stream == NULL)
    g_message ("Could not follow trace %s, reading what it has: %s", self->trace_id, error->message);
}

gboolean
strobe_document_load (StrobeDocument  *self,
                      GCancellable    *cancellable,
                      GError         **error)
{
  g_autoptr(GError) local = NULL;
  gboolean ok;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->status == STROBE_DOCUMENT_STATUS_NEW, FALSE);

  open_live_stream (self);
  self->status = self->live_stream ? STROBE_DOCUMENT_STATUS_LIVE : STROBE_DOCUMENT_STATUS_LOADING;
  ok = read_trace (self, self->live_stream, cancellable, &local);
  self->status = settle (self, ok, local);
  g_clear_object (&self->live_stream);
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/* The viewer's reading thread runs below the main thread's priority (strobe_give_way_lower):
 * on two cores, reading at full speed beside the tile painters left the main thread waiting
 * tens of milliseconds for a CPU between frames. A thread of its own, as an unprivileged
 * process cannot raise a pool thread's priority back. */

static gpointer
load_thread (gpointer data)
{
  GTask *task = data;
  StrobeDocument *self = g_task_get_source_object (task);
  GError *error = NULL;

  strobe_give_way_lower ();
  if (read_trace (self, g_task_get_task_data (task), g_task_get_cancellable (task), &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
  return NULL;
}

/* ---- notifications (main thread) ------------------------------------------------------- */

static guint64
model_generation (StrobeDocument *self, guint bit)
{
  switch (bit)
    {
    case 0: return strobe_info_analyzer_get_generation (self->info);
    case 1: return strobe_threads_model_get_generation (self->threads);
    case 2: return self->timeline ? strobe_timeline_model_get_generation (self->timeline) : 0;
    case 3: return self->log ? strobe_log_model_get_generation (self->log) : 0;
    case 4: return self->memory ? strobe_memory_model_get_generation (self->memory) : 0;
    default: g_assert_not_reached ();
    }
}

static void
update_rates (StrobeDocument *self,
              gboolean        stopped)
{
  gint64 now = g_get_monotonic_time ();
  guint64 events = strobe_info_analyzer_get_event_count (self->info);
  guint64 bytes = strobe_document_get_bytes_read (self);
  double dt = (double) (now - self->rate_time_us) / G_USEC_PER_SEC;

  if (stopped)
    self->events_per_second = self->bytes_per_second = 0.0;
  else if (self->rate_time_us != 0 && dt * 1000 >= RATE_MS)
    {
      self->events_per_second = (double) (events - self->rate_events) / dt;
      self->bytes_per_second = (double) (bytes - self->rate_bytes) / dt;
    }
  else if (self->rate_time_us != 0)
    return;
  self->rate_time_us = now;
  self->rate_events = events;
  self->rate_bytes = bytes;
}

static void
emit_changes (StrobeDocument *self,
              gboolean        force)
{
  StrobeDocumentChanges changes = 0;
  guint64 first = 0, last = 0;
  gboolean extent;
  guint64 bytes = strobe_document_get_bytes_read (self);

  if (bytes != self->notified_bytes)
    {
      self->notified_bytes = bytes;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  update_rates (self, force);

  for (guint bit = 0; bit < G_N_ELEMENTS (self->seen_generation); bit++)
    {
      guint64 g = model_generation (self, bit);

      if (g != self->seen_generation[bit])
        {
          self->seen_generation[bit] = g;
          changes |= 1u << bit;
        }
    }
  extent = strobe_document_get_extent (self, &first, &last);
  if (extent != self->seen_extent || first != self->seen_first || last != self->seen_last)
    {
      self->seen_extent = extent;
      self->seen_first = first;
      self->seen_last = last;
      changes |= STROBE_DOCUMENT_CHANGED_EXTENT;
    }
  if (force)
    changes |= STROBE_DOCUMENT_MODEL_ALL | STROBE_DOCUMENT_CHANGED_EXTENT;
  if (changes)
    g_signal_emit (self, signals[CHANGED], 0, changes);
}

static gboolean
poll_cb (gpointer user_data)
{
  emit_changes (user_data, FALSE);
  return G_SOURCE_CONTINUE;
}

static void
set_status (StrobeDocument       *self,
            StrobeDocumentStatus  status)
{
  if (self->status == status)
    return;
  self->status = status;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

/* A trace of the store read to its end tells the store when it ended (by its own clock,
 * not a session's axis), so one whose file does not say gets its duration in the list. */
static void
note_end (StrobeDocument *self)
{
  StrobeTraceClock clock;
  guint64 first, last;

  if (self->store == NULL || self->trace_id == NULL
      || (self->status != STROBE_DOCUMENT_STATUS_FINISHED && self->status != STROBE_DOCUMENT_STATUS_CUT_OFF)
      || !strobe_document_get_extent (self, &first, &last))
    return;
  strobe_trace_clock_init (&clock, strobe_document_get_metadata (self));
  if (clock.start_time_ns != 0 && clock.frequency_valid)
    strobe_store_note_trace_end (self->store, self->trace_id, strobe_trace_clock_to_wall_ns (&clock, last));
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);
  g_autoptr(GTask) outer = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok;
  StrobeDocumentStatus status;

  g_clear_handle_id (&self->poll_source, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->live_stream);
  ok = g_task_propagate_boolean (G_TASK (result), &error);
  status = settle (self, ok, error);

  g_object_freeze_notify (G_OBJECT (self));
  if (error != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  set_status (self, status);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_thaw_notify (G_OBJECT (self));
  emit_changes (self, TRUE);
  note_end (self);

  if (error != NULL)
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, TRUE);
}

void
strobe_document_load_async (StrobeDocument      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  g_return_if_fail (self->status == STROBE_DOCUMENT_STATUS_NEW);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, strobe_document_load_async);

  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  open_live_stream (self);
  set_status (self, self->live_stream ? STROBE_DOCUMENT_STATUS_LIVE : STROBE_DOCUMENT_STATUS_LOADING);
  self->poll_source = g_timeout_add (POLL_MS, poll_cb, self);

  /* The inner task reports to load_done_cb, which settles the document's state before the
   * caller's callback runs. */
  task = g_task_new (self, self->cancellable, load_done_cb, g_steal_pointer (&outer));
  if (self->live_stream != NULL)
    g_task_set_task_data (task, g_object_ref (self->live_stream), g_object_unref);
  g_thread_unref (g_thread_new ("strobe-load", load_thread, g_steal_pointer (&task)));
}

gboolean
strobe_document_load_finish (StrobeDocument  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
