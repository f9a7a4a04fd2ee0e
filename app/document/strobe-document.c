/* strobe-document.c
 *
 * The worker thread owns the decoder and the analyzers while it reads; the main thread
 * looks at them only once the task has returned. Progress crosses over as a byte count
 * under a mutex, polled a few times a second, so a fast read does not flood the main loop.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-document.h"

#define READ_CHUNK_SIZE   (1024 * 1024)
#define PROGRESS_POLL_MS  100
#define UPDATE_MS         500

struct _StrobeDocument
{
  GObject               parent_instance;

  GFile                *file;
  char                 *title;
  StrobeStore          *store;          /* live documents: where to follow the trace */
  char                 *trace_id;
  gboolean              live;           /* main thread: following now */
  StrobeDocumentStatus  status;
  GError               *error;

  StrobeDecoder        *decoder;
  StrobeInfoAnalyzer   *info;
  StrobeDecoderStats    decoder_stats;

  GCancellable         *cancellable;
  guint                 progress_source;

  GMutex                mutex;          /* guards the two counters below */
  guint64               bytes_read;
  guint64               bytes_total;
  guint64               notified_bytes; /* main thread only */

  /* Live: the worker feeds the decoder holding analysis_lock, so the main thread can look
   * at the analyzer in between. */
  GMutex                analysis_lock;
  GInputStream         *live_stream;
  gint64                last_update_us; /* main thread: rates */
  guint64               last_update_events;
  guint64               last_update_bytes;
  double                events_per_second;
  double                bytes_per_second;
  guint64               dropped_events;
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

enum
{
  PROP_0,
  PROP_FILE,
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
  UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
strobe_document_finalize (GObject *object)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);

  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->file);
  g_clear_pointer (&self->title, g_free);
  g_clear_error (&self->error);
  g_clear_object (&self->decoder);
  g_clear_object (&self->info);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->trace_id, g_free);
  g_clear_object (&self->live_stream);
  g_mutex_clear (&self->mutex);
  g_mutex_clear (&self->analysis_lock);

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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_document_class_init (StrobeDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = strobe_document_finalize;
  object_class->get_property = strobe_document_get_property;
  object_class->set_property = strobe_document_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
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
   * StrobeDocument::updated:
   *
   * The analysis has more to show: emitted about twice a second while a live trace
   * grows, and once more when loading stops.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strobe_document_init (StrobeDocument *self)
{
  g_mutex_init (&self->mutex);
  g_mutex_init (&self->analysis_lock);
  self->decoder = strobe_decoder_new ();
  self->info = strobe_info_analyzer_new ();
  strobe_decoder_add_analyzer (self->decoder, STROBE_ANALYZER (self->info));
}

StrobeDocument *
strobe_document_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (STROBE_TYPE_DOCUMENT, "file", file, NULL);
}

StrobeDocument *
strobe_document_new_for_trace (StrobeStore *store,
                               StrobeTrace *trace)
{
  g_autoptr(GFile) file = NULL;
  StrobeDocument *self;

  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  g_return_val_if_fail (STROBE_IS_TRACE (trace), NULL);

  file = g_file_new_for_path (strobe_trace_get_path (trace));
  self = strobe_document_new (file);
  self->store = g_object_ref (store);
  self->trace_id = g_strdup (strobe_trace_get_id (trace));
  return self;
}

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

gboolean
strobe_document_is_live (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), FALSE);
  return self->status == STROBE_DOCUMENT_STATUS_LIVE;
}

StrobeInfoAnalyzer *
strobe_document_lock_info (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), NULL);

  if (self->status == STROBE_DOCUMENT_STATUS_LIVE)
    {
      g_mutex_lock (&self->analysis_lock);
      if (strobe_info_analyzer_get_metadata (self->info) != NULL)
        return self->info;
      g_mutex_unlock (&self->analysis_lock);
      return NULL;
    }
  if (!strobe_document_is_loaded (self))
    return NULL;
  g_mutex_lock (&self->analysis_lock);
  return self->info;
}

void
strobe_document_unlock_info (StrobeDocument *self)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  g_mutex_unlock (&self->analysis_lock);
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

guint64
strobe_document_get_dropped_events (StrobeDocument *self)
{
  g_return_val_if_fail (STROBE_IS_DOCUMENT (self), 0);
  return self->dropped_events;
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
  g_return_val_if_fail (strobe_document_is_loaded (self), NULL);
  return self->info;
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

void
strobe_document_cancel (StrobeDocument *self)
{
  g_return_if_fail (STROBE_IS_DOCUMENT (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
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

/* Main thread: rates and the dropped count, then "updated" when there is news. */
static void
update_live (StrobeDocument *self,
             gboolean        force)
{
  gint64 now = g_get_monotonic_time ();
  guint64 bytes = strobe_document_get_bytes_read (self);
  guint64 events = 0;
  guint64 dropped = self->dropped_events;
  double dt;
  gboolean news;

  if (!force && now - self->last_update_us < UPDATE_MS * 1000)
    return;

  g_mutex_lock (&self->analysis_lock);
  events = strobe_info_analyzer_get_event_count (self->info);
  if (strobe_info_analyzer_get_stats (self->info)->valid)
    dropped = strobe_info_analyzer_get_stats (self->info)->events_dropped;
  g_mutex_unlock (&self->analysis_lock);

  news = force || bytes != self->last_update_bytes || self->events_per_second > 0.0 ||
         self->bytes_per_second > 0.0 || dropped != self->dropped_events;
  dt = self->last_update_us ? (double) (now - self->last_update_us) / G_USEC_PER_SEC : 0.0;
  if (dt > 0.0 && self->status == STROBE_DOCUMENT_STATUS_LIVE)
    {
      self->events_per_second = (double) (events - self->last_update_events) / dt;
      self->bytes_per_second = (double) (bytes - self->last_update_bytes) / dt;
    }
  else
    {
      self->events_per_second = 0.0;
      self->bytes_per_second = 0.0;
    }
  self->last_update_us = now;
  self->last_update_events = events;
  self->last_update_bytes = bytes;
  self->dropped_events = dropped;
  if (news)
    g_signal_emit (self, signals[UPDATED], 0);
}

static gboolean
progress_poll_cb (gpointer user_data)
{
  StrobeDocument *self = user_data;
  guint64 read = strobe_document_get_bytes_read (self);

  if (read != self->notified_bytes)
    {
      self->notified_bytes = read;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  if (self->status == STROBE_DOCUMENT_STATUS_LIVE)
    update_live (self, FALSE);
  return G_SOURCE_CONTINUE;
}

/* Worker thread: only the decoder (under analysis_lock), the stream and the counters. */
static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  StrobeDocument *self = source_object;
  g_autoptr(GInputStream) stream = task_data ? g_object_ref (task_data) : NULL;
  g_autofree guint8 *buffer = NULL;
  GError *error = NULL;
  gboolean ok;

  if (stream == NULL)
    {
      g_autoptr(GFileInfo) info = NULL;

      stream = G_INPUT_STREAM (g_file_read (self->file, cancellable, &error));
      if (stream == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      info = g_file_input_stream_query_info (G_FILE_INPUT_STREAM (stream),
                                             G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
      if (info != NULL)
        {
          g_mutex_lock (&self->mutex);
          self->bytes_total = (guint64) g_file_info_get_size (info);
          g_mutex_unlock (&self->mutex);
        }
    }

  buffer = g_malloc (READ_CHUNK_SIZE);
  for (;;)
    {
      /* A following stream blocks here until the trace grows or ends. */
      gssize n = g_input_stream_read (stream, buffer, READ_CHUNK_SIZE, cancellable, &error);
      StrobeDecoderStats stats;

      if (n < 0)
        {
          g_task_return_error (task, error);
          return;
        }
      if (n == 0)
        break;
      g_mutex_lock (&self->analysis_lock);
      ok = strobe_decoder_feed (self->decoder, buffer, (gsize) n, &error);
      strobe_decoder_get_stats (self->decoder, &stats);
      g_mutex_unlock (&self->analysis_lock);
      g_mutex_lock (&self->mutex);
      self->bytes_read += (guint64) n;
      self->decoder_stats = stats;
      g_mutex_unlock (&self->mutex);
      if (!ok)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_mutex_lock (&self->analysis_lock);
  ok = strobe_decoder_finish (self->decoder, &error);
  g_mutex_unlock (&self->analysis_lock);
  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  StrobeDocument *self = STROBE_DOCUMENT (object);
  g_autoptr(GTask) outer = user_data;
  g_autoptr(GError) error = NULL;
  StrobeDocumentStatus status;
  gboolean readable;

  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->live_stream);
  g_mutex_lock (&self->mutex);
  strobe_decoder_get_stats (self->decoder, &self->decoder_stats);
  g_mutex_unlock (&self->mutex);
  readable = strobe_info_analyzer_get_metadata (self->info) != NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    status = strobe_decoder_get_ended_cleanly (self->decoder)
             ? STROBE_DOCUMENT_STATUS_FINISHED : STROBE_DOCUMENT_STATUS_CUT_OFF;
  else if (!readable)
    status = STROBE_DOCUMENT_STATUS_FAILED;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    status = STROBE_DOCUMENT_STATUS_CANCELLED;
  else
    status = STROBE_DOCUMENT_STATUS_DAMAGED;

  /* The decoder's memory (schemas, reorder buffers) is not needed any more. */
  g_clear_object (&self->decoder);

  g_object_freeze_notify (G_OBJECT (self));
  if (error != NULL)
    {
      self->error = g_error_copy (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
    }
  set_status (self, status);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_READ]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_thaw_notify (G_OBJECT (self));
  update_live (self, TRUE);

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

  /* A live trace of the store is followed; anything else is read to its current end. */
  if (self->store != NULL)
    {
      StrobeTrace *trace = strobe_store_lookup_trace (self->store, self->trace_id);

      if (trace != NULL && strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE)
        {
          g_autoptr(GError) error = NULL;

          self->live_stream = strobe_store_open_trace (self->store, self->trace_id, 0, TRUE, &error);
          if (self->live_stream == NULL)
            g_message ("Could not follow trace %s, reading what it has: %s", self->trace_id, error->message);
        }
    }
  set_status (self, self->live_stream ? STROBE_DOCUMENT_STATUS_LIVE : STROBE_DOCUMENT_STATUS_LOADING);
  self->progress_source = g_timeout_add (PROGRESS_POLL_MS, progress_poll_cb, self);

  /* The inner task reports to load_done_cb, which settles the document's state before the
   * caller's callback runs. */
  task = g_task_new (self, self->cancellable, load_done_cb, g_steal_pointer (&outer));
  g_task_set_return_on_cancel (task, FALSE);
  if (self->live_stream != NULL)
    g_task_set_task_data (task, g_object_ref (self->live_stream), g_object_unref);
  g_task_run_in_thread (task, load_thread);
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
