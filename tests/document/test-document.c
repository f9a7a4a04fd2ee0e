/* test-document.c — StrobeDocument, the one analysis session per trace, and
 * StrobeTraceClock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <utime.h>

#include "strobe-document.h"
#include "strobe-store.h"
#include "strobe-timer-stats.h"

static char *golden_dir;

static char *
golden (const char *name)
{
  return g_build_filename (golden_dir, name, NULL);
}

static StrobeDocument *
load_sync (const char *name, StrobeDocumentModels models)
{
  g_autofree char *path = golden (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  StrobeDocument *document = strobe_document_new (file, models);

  g_assert_true (strobe_document_load (document, NULL, &error));
  g_assert_no_error (error);
  return document;
}

/* ---- the clock ------------------------------------------------------------------------ */

static void
test_clock (void)
{
  StrobeWireMetadata meta = { 0 };
  StrobeTraceClock clock;

  /* No metadata: a 1 GHz clock from 0. */
  strobe_trace_clock_init (&clock, NULL);
  g_assert_cmpuint (clock.frequency, ==, 1000000000u);
  g_assert_false (clock.frequency_valid);
  g_assert_cmpfloat (strobe_trace_clock_to_seconds (&clock, 1500000000u), ==, 1.5);

  /* A zero and an absurd frequency are both replaced, and said to be. */
  meta.clock_frequency = 0;
  strobe_trace_clock_init (&clock, &meta);
  g_assert_false (clock.frequency_valid);
  g_assert_cmpuint (clock.frequency, ==, 1000000000u);
  meta.clock_frequency = G_GUINT64_CONSTANT (1) << 60;
  strobe_trace_clock_init (&clock, &meta);
  g_assert_false (clock.frequency_valid);

  meta.clock_frequency = 2000;
  meta.clock_origin = 10000;
  meta.start_time_ns = G_GUINT64_CONSTANT (1700000000000000000);
  strobe_trace_clock_init (&clock, &meta);
  g_assert_true (clock.frequency_valid);
  g_assert_cmpuint (clock.base, ==, 10000);
  strobe_trace_clock_set_base (&clock, 12000);
  /* Seconds from the base, negative before it. */
  g_assert_cmpfloat (strobe_trace_clock_to_seconds (&clock, 14000), ==, 1.0);
  g_assert_cmpfloat (strobe_trace_clock_to_seconds (&clock, 11000), ==, -0.5);
  g_assert_cmpuint (strobe_trace_clock_from_seconds (&clock, 1.0), ==, 14000);
  g_assert_cmpuint (strobe_trace_clock_from_seconds (&clock, -0.5), ==, 11000);
  /* Saturated, not wrapped. */
  g_assert_cmpuint (strobe_trace_clock_from_seconds (&clock, -1e9), ==, 0);
  g_assert_cmpuint (strobe_trace_clock_from_seconds (&clock, 1e300), ==, G_MAXUINT64);
  g_assert_cmpuint (strobe_trace_clock_from_seconds (&clock, NAN), ==, 12000);
  g_assert_cmpuint (strobe_trace_clock_ticks (&clock, 0.25), ==, 500);
  g_assert_cmpfloat (strobe_trace_clock_duration (&clock, 500), ==, 0.25);
  /* Wall time: the origin's, plus exact nanoseconds. */
  g_assert_cmpuint (strobe_trace_clock_to_wall_ns (&clock, 10001), ==, meta.start_time_ns + 500000);
  g_assert_cmpuint (strobe_trace_clock_to_wall_ns (&clock, 10000 - 2000), ==, meta.start_time_ns - 1000000000u);
  g_assert_cmpuint (strobe_trace_clock_to_wall_ns (&clock, G_MAXUINT64), ==, G_MAXUINT64);
  meta.start_time_ns = 0;
  strobe_trace_clock_init (&clock, &meta);
  g_assert_cmpuint (strobe_trace_clock_to_wall_ns (&clock, 10001), ==, 0);
}

/* ---- golden traces --------------------------------------------------------------------- */

/* What the document's timeline holds is what a decoder with a timeline model makes. */
static void
test_golden_timeline (void)
{
  g_autoptr(StrobeDocument) document = load_sync ("golden-cpu-synthetic.strobe", STROBE_DOCUMENT_MODEL_TIMELINE);
  g_autofree char *path = golden ("golden-cpu-synthetic.strobe");
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  g_autoptr(StrobeTimelineModel) timeline = strobe_timeline_model_new ();
  g_autoptr(GArray) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  StrobeTraceClock clock;
  guint64 first, last, tfirst, tlast;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (timeline));
  g_assert_true (strobe_decoder_read_file (decoder, path, NULL, &error));

  g_assert_cmpint (strobe_document_get_status (document), ==, STROBE_DOCUMENT_STATUS_FINISHED);
  g_assert_null (strobe_document_get_log (document));
  g_assert_null (strobe_document_get_memory (document));
  a = strobe_timer_stats_compute (strobe_document_get_timeline (document), 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  b = strobe_timer_stats_compute (timeline, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS);
  g_assert_cmpuint (a->len, ==, b->len);
  g_assert_cmpuint (a->len, >, 0);
  for (guint i = 0; i < a->len; i++)
    {
      StrobeTimerStat *x = &g_array_index (a, StrobeTimerStat, i);
      StrobeTimerStat *y = &g_array_index (b, StrobeTimerStat, i);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->count, ==, y->count);
      g_assert_cmpuint (x->inclusive, ==, y->inclusive);
      g_assert_cmpuint (x->exclusive, ==, y->exclusive);
    }

  /* One extent: every scope lies in it, and the clock counts from its start. */
  g_assert_true (strobe_document_get_extent (document, &first, &last));
  g_assert_true (strobe_timeline_model_get_time_range (timeline, &tfirst, &tlast));
  g_assert_cmpuint (first, <=, tfirst);
  g_assert_cmpuint (last, >=, tlast);
  strobe_document_get_clock (document, &clock);
  g_assert_cmpuint (clock.base, ==, first);
  g_assert_cmpfloat (strobe_trace_clock_to_seconds (&clock, first), ==, 0.0);
}

/* The model registry: a model named before loading is made and fed like the standard
 * ones (here a log model the document was not asked for gets every message of the trace,
 * and its typed getter sees it); named after loading began, a model nobody asked for is
 * NULL; every caller gets the one instance. */
static void
test_model_registry (void)
{
  g_autofree char *path = golden ("golden-logmem.strobe");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_TIMELINE);
  g_autoptr(StrobeDocument) all = load_sync ("golden-logmem.strobe", STROBE_DOCUMENT_MODEL_ALL);
  StrobeLogModel *log;

  g_assert_null (strobe_document_get_log (document));
  log = strobe_document_get_model (document, STROBE_TYPE_LOG_MODEL);
  g_assert_nonnull (log);
  g_assert_true (strobe_document_get_model (document, STROBE_TYPE_LOG_MODEL) == (gpointer) log);
  g_assert_true (strobe_document_get_log (document) == log);
  g_assert_true (strobe_document_get_model (document, STROBE_TYPE_TIMELINE_MODEL) ==
                 (gpointer) strobe_document_get_timeline (document));
  g_assert_true (strobe_document_load (document, NULL, NULL));
  g_assert_cmpuint (strobe_log_model_get_count (log), >, 0);
  g_assert_cmpuint (strobe_log_model_get_count (log), ==,
                    strobe_log_model_get_count (strobe_document_get_log (all)));

  /* Too late: loading has begun and nobody asked for it. */
  g_assert_null (strobe_document_get_model (document, STROBE_TYPE_MEMORY_MODEL));
  g_assert_null (strobe_document_get_memory (document));
}

/* The overview's figures: the same as strobe-cli info's golden (tests/data/golden-types.info). */
static void
test_golden_overview (void)
{
  g_autoptr(StrobeDocument) document = load_sync ("golden-types.strobe", 0);
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  g_autoptr(GPtrArray) types = strobe_info_analyzer_dup_event_types (strobe_document_get_info (document));
  StrobeTraceClock clock;
  StrobeDecoderStats stats;
  guint64 first, last;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_assert_cmpstr (strobe_document_get_metadata (document)->program_name, ==, "rt-emitter");
  g_assert_cmpuint (strobe_info_analyzer_get_event_count (strobe_document_get_info (document)), ==, 19);
  g_assert_cmpuint (types->len, ==, 12);
  strobe_document_get_decoder_stats (document, &stats);
  g_assert_cmpuint (stats.packets, ==, 7);
  g_assert_cmpuint (strobe_document_get_bytes_read (document), ==, 1888);
  g_assert_true (strobe_document_get_extent (document, &first, &last));
  strobe_document_get_clock (document, &clock);
  g_assert_cmpstr (g_ascii_formatd (buf, sizeof buf, "%.6f", strobe_trace_clock_duration (&clock, last - first)),
                   ==, "0.000303");

  /* One thread table, and no thread of a finished trace is still "running". */
  g_assert_cmpuint (threads->len, ==, 2);
  for (guint i = 0; i < threads->len; i++)
    {
      StrobeThreadInfo *t = &g_array_index (threads, StrobeThreadInfo, i);

      g_assert_cmpuint (t->state, !=, STROBE_THREAD_RUNNING);
      g_assert_cmpuint (t->end_time, <=, last);
    }
  g_assert_cmpuint (strobe_info_analyzer_get_thread_events (strobe_document_get_info (document), 16), ==, 9);
}

static void
test_empty_and_missing (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("strobe-doc-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (tmp, "empty.strobe", NULL);
  g_autofree char *missing = g_build_filename (tmp, "missing.strobe", NULL);
  g_autoptr(GFile) f1 = g_file_new_for_path (empty);
  g_autoptr(GFile) f2 = g_file_new_for_path (missing);
  g_autoptr(StrobeDocument) d1 = strobe_document_new (f1, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr(StrobeDocument) d2 = strobe_document_new (f2, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr(GError) e1 = NULL, e2 = NULL;

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_false (strobe_document_load (d1, NULL, &e1));
  g_assert_cmpint (strobe_document_get_status (d1), ==, STROBE_DOCUMENT_STATUS_FAILED);
  g_assert_nonnull (strstr (e1->message, "empty"));
  g_assert_false (strobe_document_load (d2, NULL, &e2));
  g_assert_cmpint (strobe_document_get_status (d2), ==, STROBE_DOCUMENT_STATUS_FAILED);
  g_assert_nonnull (strobe_document_get_error (d2));
  g_unlink (empty);

  /* A folder says so (mmap() said "No such device"). */
  {
    g_autoptr(GFile) folder = g_file_new_for_path (tmp);
    g_autoptr(StrobeDocument) d3 = strobe_document_new (folder, STROBE_DOCUMENT_MODEL_ALL);
    g_autoptr(GError) e3 = NULL;

    g_assert_false (strobe_document_load (d3, NULL, &e3));
    g_assert_error (e3, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
    g_assert_cmpint (strobe_document_get_status (d3), ==, STROBE_DOCUMENT_STATUS_FAILED);
  }
  g_rmdir (tmp);
}

static GBytes *read_golden (const char *name);

static gpointer
write_fifo (gpointer data)
{
  g_autoptr(GBytes) bytes = read_golden ("golden-types.strobe");
  int fd = g_open (data, O_WRONLY, 0);
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, p, len), ==, (gssize) len);
  close (fd);
  return NULL;
}

/* A path that is a pipe (a shell's <(…), /dev/stdin) is read as a stream, to the same
 * figures as the file. */
static void
test_fifo (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("strobe-doc-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (tmp, "pipe", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fifo);
  g_autoptr(StrobeDocument) piped = strobe_document_new (file, 0);
  g_autoptr(StrobeDocument) plain = load_sync ("golden-types.strobe", 0);
  g_autoptr(GError) error = NULL;
  GThread *writer;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  writer = g_thread_new ("fifo", write_fifo, fifo);
  g_assert_true (strobe_document_load (piped, NULL, &error));
  g_assert_no_error (error);
  g_thread_join (writer);
  g_assert_cmpint (strobe_document_get_status (piped), ==, STROBE_DOCUMENT_STATUS_FINISHED);
  g_assert_cmpuint (strobe_info_analyzer_get_event_count (strobe_document_get_info (piped)), ==,
                    strobe_info_analyzer_get_event_count (strobe_document_get_info (plain)));
  g_assert_cmpuint (strobe_document_get_bytes_read (piped), ==, strobe_document_get_bytes_read (plain));
  g_unlink (fifo);
  g_rmdir (tmp);
}

/* ---- growing streams ------------------------------------------------------------------- */

typedef struct
{
  guint                 emissions;
  StrobeDocumentChanges seen;
  StrobeDocumentChanges last;
  gboolean              done;
  GError               *error;
} Watch;

static void
changed_cb (StrobeDocument        *document,
            StrobeDocumentChanges  changes,
            Watch                 *w)
{
  w->emissions++;
  w->seen |= changes;
  w->last = changes;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  Watch *w = data;

  strobe_document_load_finish (STROBE_DOCUMENT (object), result, &w->error);
  w->done = TRUE;
}

static void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

typedef gboolean (*Cond) (StrobeDocument *document, Watch *w);

static void
iterate_until (StrobeDocument *document, Watch *w, Cond cond)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!cond (document, w))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

static gboolean
has_events (StrobeDocument *document, Watch *w)
{
  return strobe_info_analyzer_get_event_count (strobe_document_get_info (document)) > 0 &&
         (w->seen & STROBE_DOCUMENT_CHANGED_INFO);
}

static gboolean
is_done (StrobeDocument *document, Watch *w)
{
  return w->done;
}

static GBytes *
read_golden (const char *name)
{
  g_autofree char *path = golden (name);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

/* A stream that grows: what arrived shows at once (the models answer while the worker
 * reads), "changed" names what grew, and the end settles the status. */
static void
test_growing_stream (void)
{
  g_autoptr(GBytes) bytes = read_golden ("golden-logmem.strobe");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  int fds[2];
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  Watch w = { 0 };
  gsize half = len / 2;

  g_assert_cmpint (pipe (fds), ==, 0);
  in = g_unix_input_stream_new (fds[0], TRUE);
  document = strobe_document_new_for_stream (in, "pipe", STROBE_DOCUMENT_MODEL_ALL);
  g_signal_connect (document, "changed", G_CALLBACK (changed_cb), &w);
  strobe_document_load_async (document, NULL, loaded_cb, &w);
  g_assert_true (strobe_document_is_live (document));

  /* The first half: the handshake and some messages. */
  g_assert_cmpint (write (fds[1], data, half), ==, (gssize) half);
  iterate_until (document, &w, has_events);
  g_assert_false (w.done);
  g_assert_nonnull (strobe_document_get_metadata (document));
  g_assert_cmpuint (strobe_log_model_get_count (strobe_document_get_log (document)), <, 6);

  /* The rest, then the end of the stream. */
  g_assert_cmpint (write (fds[1], data + half, len - half), ==, (gssize) (len - half));
  close (fds[1]);
  iterate_until (document, &w, is_done);
  g_assert_no_error (w.error);
  g_assert_cmpint (strobe_document_get_status (document), ==, STROBE_DOCUMENT_STATUS_FINISHED);
  g_assert_cmpuint (strobe_log_model_get_count (strobe_document_get_log (document)), ==, 6);
  g_assert_cmpuint (strobe_memory_model_get_count (strobe_document_get_memory (document)), >, 0);
  /* The last "changed" of a load names everything. */
  g_assert_cmpuint (w.last & STROBE_DOCUMENT_MODEL_ALL, ==, STROBE_DOCUMENT_MODEL_ALL);
  g_assert_true (w.seen & STROBE_DOCUMENT_CHANGED_EXTENT);
  g_assert_true (w.seen & STROBE_DOCUMENT_CHANGED_LOG);
}

/* However fast the data comes, "changed" comes at most about ten times a second. */
static void
test_coalesced (void)
{
  g_autoptr(GBytes) bytes = read_golden ("golden-cpu-threads.strobe");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  int fds[2];
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  Watch w = { 0 };
  gint64 start, elapsed_ms;

  g_assert_cmpint (pipe (fds), ==, 0);
  in = g_unix_input_stream_new (fds[0], TRUE);
  document = strobe_document_new_for_stream (in, "pipe", STROBE_DOCUMENT_MODEL_ALL);
  g_signal_connect (document, "changed", G_CALLBACK (changed_cb), &w);
  strobe_document_load_async (document, NULL, loaded_cb, &w);

  start = g_get_monotonic_time ();
  /* A byte every millisecond or so: a change (nearly) every time the worker reads. */
  for (gsize i = 0; i < len && i < 1000; i++)
    {
      g_assert_cmpint (write (fds[1], data + i, 1), ==, 1);
      iterate_for (1);
    }
  elapsed_ms = (g_get_monotonic_time () - start) / 1000;
  g_assert_cmpuint (w.emissions, <=, elapsed_ms / 100 + 2);
  g_assert_cmpuint (w.emissions, >, 0);
  close (fds[1]);
  iterate_until (document, &w, is_done);
}

/* Cancelled while waiting for more: what was read stays, the status says so. */
static void
test_cancel (void)
{
  g_autoptr(GBytes) bytes = read_golden ("golden-logmem.strobe");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  int fds[2];
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  Watch w = { 0 };

  g_assert_cmpint (pipe (fds), ==, 0);
  in = g_unix_input_stream_new (fds[0], TRUE);
  document = strobe_document_new_for_stream (in, "pipe", STROBE_DOCUMENT_MODEL_ALL);
  g_signal_connect (document, "changed", G_CALLBACK (changed_cb), &w);
  strobe_document_load_async (document, NULL, loaded_cb, &w);
  g_assert_cmpint (write (fds[1], data, len / 2), ==, (gssize) (len / 2));
  iterate_until (document, &w, has_events);

  strobe_document_cancel (document);
  iterate_until (document, &w, is_done);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (strobe_document_get_status (document), ==, STROBE_DOCUMENT_STATUS_CANCELLED);
  g_assert_cmpuint (strobe_info_analyzer_get_event_count (strobe_document_get_info (document)), >, 0);
  close (fds[1]);
  g_clear_error (&w.error);
}

/* A trace whose file does not say when it ended (opened from elsewhere): read to its end
 * through the store, its end is its last event on its own clock's wall time — the Traces
 * list's duration —, kept across restarts while the file stays as it is, forgotten when
 * the file changes. */
static void
test_store_learns_end (void)
{
  g_autoptr(GBytes) bytes = read_golden ("golden-cpu-threads.strobe");
  g_autofree char *store_dir = g_dir_make_tmp ("strobe-doc-store-XXXXXX", NULL);
  g_autofree char *elsewhere = g_dir_make_tmp ("strobe-doc-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (elsewhere, "colleague.strobe", NULL);
  g_autofree char *ends = g_build_filename (store_dir, ".trace-ends", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autofree char *id = NULL;
  StrobeTrace *trace;
  StrobeTraceClock clock;
  guint64 first, last, want;
  Watch w = { 0 };

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  store = strobe_store_new (store_dir, &error);
  g_assert_no_error (error);
  trace = strobe_store_add_external (store, path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, 0);
  id = g_strdup (strobe_trace_get_id (trace));

  document = strobe_document_new_for_trace (store, trace, 0);
  strobe_document_load_async (document, NULL, loaded_cb, &w);
  iterate_until (document, &w, is_done);
  g_assert_no_error (w.error);
  g_assert_true (strobe_document_get_extent (document, &first, &last));
  strobe_trace_clock_init (&clock, strobe_document_get_metadata (document));
  want = strobe_trace_clock_to_wall_ns (&clock, last);
  g_assert_cmpuint (want, >, strobe_trace_get_start_time_ns (trace));
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, want);
  /* Nothing written beside the user's file: the store keeps it in its own directory. */
  g_assert_true (g_file_test (ends, G_FILE_TEST_EXISTS));
  {
    g_autofree char *sidecar = g_strconcat (path, ".info", NULL);
    g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  }

  /* Known after a restart. */
  g_clear_object (&document);
  g_clear_object (&store);
  store = strobe_store_new (store_dir, &error);
  g_assert_no_error (error);
  trace = strobe_store_lookup_trace (store, id);
  g_assert_nonnull (trace);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, want);

  /* The file rewritten (here: only its time) is another trace as far as anyone knows. */
  g_assert_cmpint (g_utime (path, &(struct utimbuf) { .actime = 1000000000, .modtime = 1000000000 }), ==, 0);
  g_clear_object (&store);
  store = strobe_store_new (store_dir, &error);
  g_assert_no_error (error);
  trace = strobe_store_lookup_trace (store, id);
  g_assert_nonnull (trace);
  g_assert_cmpuint (strobe_trace_get_end_time_ns (trace), ==, 0);

  g_clear_object (&store);
  g_unlink (path);
  g_unlink (ends);
  {
    g_autofree char *list = g_build_filename (store_dir, ".external-traces", NULL);
    g_unlink (list);
  }
  g_rmdir (elsewhere);
  g_rmdir (store_dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  g_assert_nonnull (golden_dir);

  g_test_add_func ("/document/clock", test_clock);
  g_test_add_func ("/document/golden-timeline", test_golden_timeline);
  g_test_add_func ("/document/golden-overview", test_golden_overview);
  g_test_add_func ("/document/model-registry", test_model_registry);
  g_test_add_func ("/document/empty-and-missing", test_empty_and_missing);
  g_test_add_func ("/document/fifo", test_fifo);
  g_test_add_func ("/document/growing-stream", test_growing_stream);
  g_test_add_func ("/document/coalesced", test_coalesced);
  g_test_add_func ("/document/cancel", test_cancel);
  g_test_add_func ("/document/store-learns-end", test_store_learns_end);
  return g_test_run ();
}
