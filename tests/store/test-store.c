/* test-store.c — the store on its own: listing, files copied in, rename, delete, follow.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "store-test-util.h"
#include "strobe-store.h"

typedef struct
{
  char        *dir;
  StrobeStore *store;
  GPtrArray   *added;
  GPtrArray   *removed;
  guint        n_changed;
  guint        n_items_changed;
} Fixture;

static void
on_items_changed (GListModel *list, guint position, guint removed, guint added, Fixture *f)
{
  /* The row stays where it is in the store's own list: one out, the same one in. */
  g_assert_cmpuint (removed, ==, 1);
  g_assert_cmpuint (added, ==, 1);
  f->n_items_changed++;
}

static void
on_added (StrobeStore *store, StrobeTrace *trace, Fixture *f)
{
  g_ptr_array_add (f->added, g_object_ref (trace));
}

static void
on_removed (StrobeStore *store, StrobeTrace *trace, Fixture *f)
{
  g_ptr_array_add (f->removed, g_object_ref (trace));
}

static void
on_changed (StrobeStore *store, StrobeTrace *trace, Fixture *f)
{
  f->n_changed++;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = test_dir_new ();
  f->store = strobe_store_new (f->dir, &error);
  g_assert_no_error (error);
  f->added = g_ptr_array_new_with_free_func (g_object_unref);
  f->removed = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (f->store, "trace-added", G_CALLBACK (on_added), f);
  g_signal_connect (f->store, "trace-removed", G_CALLBACK (on_removed), f);
  g_signal_connect (f->store, "trace-changed", G_CALLBACK (on_changed), f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->store);
  g_ptr_array_unref (f->added);
  g_ptr_array_unref (f->removed);
  test_dir_remove_all (f->dir);
  g_free (f->dir);
}

static gboolean
array_nonempty (gpointer data)
{
  return ((GPtrArray *) data)->len > 0;
}

static void
test_default_directory (void)
{
  g_autofree char *dir = strobe_store_dup_default_directory ();
  g_autofree char *want = g_build_filename (g_get_user_data_dir (), "strobe", NULL);

  g_assert_cmpstr (dir, ==, want);
}

static void
test_copy_in (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) finished = test_build_stream ("copied", 1, 20000, TRUE, NULL);
  g_autoptr(GBytes) cut = test_build_stream ("copied-cut", 2, 20000, FALSE, NULL);
  g_autofree char *path = g_build_filename (f->dir, "copied.strobe", NULL);
  g_autofree char *cut_path = g_build_filename (f->dir, "cut.strobe", NULL);
  g_autofree char *junk_path = g_build_filename (f->dir, "junk.strobe", NULL);
  g_autofree char *other_path = g_build_filename (f->dir, "notes.txt", NULL);
  StrobeTrace *trace;
  gint64 start;

  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 0);

  start = g_get_monotonic_time ();
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (finished, NULL),
                                      (gssize) g_bytes_get_size (finished), NULL));
  g_assert_true (test_wait_until (array_nonempty, f->added, 2000));
  g_test_message ("copied file noticed after %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);

  trace = g_ptr_array_index (f->added, 0);
  g_assert_cmpstr (strobe_trace_get_name (trace), ==, "copied");
  g_assert_cmpstr (strobe_trace_get_program (trace), ==, "copied");
  g_assert_cmpuint (strobe_trace_get_pid (trace), ==, 4243);
  g_assert_cmpuint (strobe_trace_get_start_time_ns (trace), ==, G_GUINT64_CONSTANT (1700000000000000001));
  g_assert_cmpuint (strobe_trace_get_size (trace), ==, g_bytes_get_size (finished));
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_cmpuint (strlen (strobe_trace_get_id (trace)), ==, 16);
  g_assert_true (strobe_store_lookup_trace (f->store, strobe_trace_get_id (trace)) == trace);

  /* Other files: a cut-off one, a non-trace, and something that is not ours at all. */
  g_assert_true (g_file_set_contents (cut_path, g_bytes_get_data (cut, NULL),
                                      (gssize) g_bytes_get_size (cut), NULL));
  g_assert_true (g_file_set_contents (junk_path, "PK\x03\x04 not a trace", -1, NULL));
  g_assert_true (g_file_set_contents (other_path, "hello", -1, NULL));
  strobe_store_rescan (f->store);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(StrobeTrace) t = g_list_model_get_item (strobe_store_get_traces (f->store), i);
      if (g_str_equal (strobe_trace_get_name (t), "cut"))
        g_assert_cmpint (strobe_trace_get_status (t), ==, STROBE_TRACE_STATUS_CUT_OFF);
      else if (g_str_equal (strobe_trace_get_name (t), "junk"))
        {
          g_assert_cmpint (strobe_trace_get_status (t), ==, STROBE_TRACE_STATUS_INVALID);
          g_assert_nonnull (strstr (strobe_trace_get_reason (t), "not a Strobe trace"));
        }
    }

  /* Ids survive a restart: they live in the .info sidecar. */
  {
    g_autofree char *id = g_strdup (strobe_trace_get_id (trace));
    g_autoptr(StrobeStore) again = strobe_store_new (f->dir, NULL);
    StrobeTrace *t = strobe_store_lookup_trace (again, id);
    g_assert_nonnull (t);
    g_assert_cmpstr (strobe_trace_get_name (t), ==, "copied");
  }

  /* Removed behind our back: noticed too. */
  g_unlink (path);
  g_assert_true (test_wait_until (array_nonempty, f->removed, 2000));
}

static void
test_rename_delete (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("renamed", 3, 5000, TRUE, NULL);
  g_autofree char *path = g_build_filename (f->dir, "before.strobe", NULL);
  g_autofree char *after = g_build_filename (f->dir, "after.strobe", NULL);
  g_autofree char *after_info = g_build_filename (f->dir, "after.strobe.info", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  StrobeTrace *trace;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL),
                                      (gssize) g_bytes_get_size (stream), NULL));
  strobe_store_rescan (f->store);
  g_assert_cmpuint (f->added->len, ==, 1);
  trace = g_ptr_array_index (f->added, 0);
  id = g_strdup (strobe_trace_get_id (trace));

  g_assert_false (strobe_store_rename_trace (f->store, id, "../escape", &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_INVALID_NAME);
  g_clear_error (&error);
  g_assert_false (strobe_store_rename_trace (f->store, "nope", "x", &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* A changed trace is a changed row too, so sorted views of the list re-place it. */
  f->n_items_changed = 0;
  g_signal_connect (strobe_store_get_traces (f->store), "items-changed", G_CALLBACK (on_items_changed), f);
  g_assert_true (strobe_store_rename_trace (f->store, id, "after", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_items_changed, >=, 1);
  g_signal_handlers_disconnect_by_func (strobe_store_get_traces (f->store), on_items_changed, f);
  g_assert_cmpstr (strobe_trace_get_name (trace), ==, "after");
  g_assert_cmpstr (strobe_trace_get_id (trace), ==, id);
  g_assert_cmpstr (strobe_trace_get_path (trace), ==, after);
  g_assert_true (g_file_test (after, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (after_info, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* The monitor's late events about the rename must not duplicate or drop it. */
  test_spin (150);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 1);
  g_assert_cmpuint (f->removed->len, ==, 0);

  g_assert_true (strobe_store_delete_trace (f->store, id, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->removed->len, ==, 1);
  g_assert_false (g_file_test (after, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (after_info, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 0);
  g_assert_null (strobe_store_lookup_trace (f->store, id));
}

typedef struct
{
  guint8   buf[4096];
  gssize   n;
  gboolean done;
  gint64   at;
} ReadWait;

static void
read_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ReadWait *w = user_data;
  g_autoptr(GError) error = NULL;

  w->n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);
  g_assert_no_error (error);
  w->at = g_get_monotonic_time ();
  w->done = TRUE;
}

static gboolean
read_done (gpointer data)
{
  return ((ReadWait *) data)->done;
}

/* A reader at the end of a live trace sees appended bytes within 100 ms, and sees the end
 * once the writer finishes. */
static void
test_follow (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeTraceWriter) writer = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) bytes = test_build_stream ("follow", 4, 3000, TRUE, NULL);
  const guint8 *data_ptr = g_bytes_get_data (bytes, NULL);
  gsize len = g_bytes_get_size (bytes);
  gsize half = len / 2;
  ReadWait w = { 0 };
  StrobeTrace *trace;
  gint64 wrote_at;
  GByteArray *got = g_byte_array_new ();

  writer = strobe_store_create_writer (f->store, "follow", "127.0.0.1:1", &error);
  g_assert_no_error (error);
  g_assert_true (strobe_trace_writer_write (writer, data_ptr, half, &error));
  g_assert_true (test_wait_until (array_nonempty, f->added, 2000));
  trace = g_ptr_array_index (f->added, 0);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_LIVE);
  g_assert_cmpstr (strobe_trace_get_peer_address (trace), ==, "127.0.0.1:1");

  stream = strobe_store_open_trace (f->store, strobe_trace_get_id (trace), 0, TRUE, &error);
  g_assert_no_error (error);

  /* Drain what is there, then wait at the end. */
  while (got->len < half)
    {
      w.done = FALSE;
      g_input_stream_read_async (stream, w.buf, sizeof w.buf, G_PRIORITY_DEFAULT, NULL, read_cb, &w);
      g_assert_true (test_wait_until (read_done, &w, 2000));
      g_assert_cmpint (w.n, >, 0);
      g_byte_array_append (got, w.buf, (guint) w.n);
    }
  w.done = FALSE;
  g_input_stream_read_async (stream, w.buf, sizeof w.buf, G_PRIORITY_DEFAULT, NULL, read_cb, &w);
  test_spin (60);
  g_assert_false (w.done);   /* live: it waits rather than ending */

  wrote_at = g_get_monotonic_time ();
  g_assert_true (strobe_trace_writer_write (writer, data_ptr + half, len - half, &error));
  g_assert_true (test_wait_until (read_done, &w, 2000));
  g_test_message ("appended bytes seen after %" G_GINT64_FORMAT " µs", w.at - wrote_at);
  g_assert_cmpint (w.at - wrote_at, <, 100 * 1000);
  g_byte_array_append (got, w.buf, (guint) w.n);

  while (got->len < len)
    {
      w.done = FALSE;
      g_input_stream_read_async (stream, w.buf, sizeof w.buf, G_PRIORITY_DEFAULT, NULL, read_cb, &w);
      g_assert_true (test_wait_until (read_done, &w, 2000));
      g_byte_array_append (got, w.buf, (guint) w.n);
    }

  /* Finishing ends the stream. */
  w.done = FALSE;
  g_input_stream_read_async (stream, w.buf, sizeof w.buf, G_PRIORITY_DEFAULT, NULL, read_cb, &w);
  g_assert_true (strobe_trace_writer_finish (writer, STROBE_TRACE_STATUS_FINISHED, NULL, &error));
  g_assert_true (test_wait_until (read_done, &w, 2000));
  g_assert_cmpint (w.n, ==, 0);
  g_assert_cmpmem (got->data, got->len, data_ptr, len);
  g_byte_array_unref (got);

  strobe_store_rescan (f->store);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);

  /* A blocking reader of a finished trace just reads to the end. */
  {
    g_autoptr(GInputStream) again = strobe_store_open_trace (f->store, strobe_trace_get_id (trace),
                                                             0, TRUE, &error);
    g_autofree guint8 *all = g_malloc (len + 16);
    gsize n = 0;
    g_assert_true (g_input_stream_read_all (again, all, len + 16, &n, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpmem (all, n, data_ptr, len);
  }
}

/* As read_cb, for a read that must fail: the error's message in @user_data's buf. */
static void
read_fail_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ReadWait *w = user_data;
  g_autoptr(GError) error = NULL;

  w->n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);
  g_assert_nonnull (error);
  g_strlcpy ((char *) w->buf, error->message, sizeof w->buf);
  w->done = TRUE;
}

static gboolean
trace_cut_off (gpointer data)
{
  return strobe_trace_get_status (data) == STROBE_TRACE_STATUS_CUT_OFF;
}

/* Issue 25 item 8: a live trace whose file shrinks (truncated by someone other than the
 * recorder) does not stay live with a stale size: it is cut off and says why, and a
 * reader following it past the new end gets an error instead of waiting forever. */
static void
test_live_shrinks (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeTraceWriter) writer = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) bytes = test_build_stream ("shrinks", 5, 20000, FALSE, NULL);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *all = g_malloc (len);
  ReadWait w = { 0 };
  StrobeTrace *trace;
  gsize n = 0;

  writer = strobe_store_create_writer (f->store, "shrinks", "127.0.0.1:1", &error);
  g_assert_no_error (error);
  g_assert_true (strobe_trace_writer_write (writer, g_bytes_get_data (bytes, NULL), len, &error));
  g_assert_true (test_wait_until (array_nonempty, f->added, 2000));
  trace = g_ptr_array_index (f->added, 0);
  strobe_store_rescan (f->store);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_LIVE);
  g_assert_cmpuint (strobe_trace_get_size (trace), ==, len);

  stream = strobe_store_open_trace (f->store, strobe_trace_get_id (trace), 0, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (g_input_stream_read_all (stream, all, len, &n, NULL, &error));
  g_assert_cmpuint (n, ==, len);

  g_assert_cmpint (truncate (strobe_trace_get_path (trace), (off_t) (len / 2)), ==, 0);
  g_assert_true (test_wait_until (trace_cut_off, trace, 3000));
  g_assert_nonnull (strstr (strobe_trace_get_reason (trace), "shrank"));
  g_assert_cmpuint (strobe_trace_get_size (trace), ==, len / 2);
  /* Still the recorder's: not renamed or deleted under it. */
  g_assert_false (strobe_store_delete_trace (f->store, strobe_trace_get_id (trace), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_BUSY);
  g_clear_error (&error);
  /* It stays cut off on the next checks, even though its size no longer changes. */
  test_spin (600);
  strobe_store_rescan (f->store);
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_CUT_OFF);

  /* The reader at the old end: an error, not a wait. */
  g_input_stream_read_async (stream, w.buf, sizeof w.buf, G_PRIORITY_DEFAULT, NULL, read_fail_cb, &w);
  g_assert_true (test_wait_until (read_done, &w, 2000));
  g_assert_cmpint (w.n, ==, -1);
  g_assert_nonnull (strstr ((char *) w.buf, "shrank"));

  g_assert_true (strobe_trace_writer_finish (writer, STROBE_TRACE_STATUS_CUT_OFF, "test", &error));
}

/* Issue 24 item 20: a trace opened from elsewhere is remembered — listed with its path,
 * across restarts, with a stable id —, not copied or touched; deleting it from the store
 * only forgets it; renaming is refused; the store's own files are not listed twice. */
static void
test_external (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) bytes = test_build_stream ("outside", 3, 20000, TRUE, NULL);
  g_autofree char *elsewhere = test_dir_new ();
  g_autofree char *path = g_build_filename (elsewhere, "from-a-colleague.strobe", NULL);
  g_autofree char *sidecar = g_build_filename (elsewhere, "from-a-colleague.strobe.info", NULL);
  g_autofree char *junk = g_build_filename (elsewhere, "junk.strobe", NULL);
  g_autofree char *inside = g_build_filename (f->dir, "inside.strobe", NULL);
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;
  StrobeTrace *trace, *again;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  trace = strobe_store_add_external (f->store, path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_true (strobe_trace_get_external (trace));
  g_assert_cmpstr (strobe_trace_get_path (trace), ==, path);
  g_assert_cmpstr (strobe_trace_get_name (trace), ==, "from-a-colleague");
  g_assert_cmpint (strobe_trace_get_status (trace), ==, STROBE_TRACE_STATUS_FINISHED);
  g_assert_cmpuint (f->added->len, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 1);
  g_assert_true (strobe_store_lookup_trace (f->store, strobe_trace_get_id (trace)) == trace);
  /* Nothing written beside the user's file. */
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  /* Twice is once. */
  g_assert_true (strobe_store_add_external (f->store, path, NULL) == trace);
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 1);
  /* Not a trace: refused, not listed. */
  g_assert_true (g_file_set_contents (junk, "PK\x03\x04 not a trace", -1, NULL));
  g_assert_null (strobe_store_add_external (f->store, junk, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* A file of the store's own directory is the store's trace, not an external one. */
  g_assert_true (g_file_set_contents (inside, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  again = strobe_store_add_external (f->store, inside, &error);
  g_assert_no_error (error);
  g_assert_false (strobe_trace_get_external (again));
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 2);
  /* Renaming it is the user's business, in its own folder. */
  g_assert_false (strobe_store_rename_trace (f->store, strobe_trace_get_id (trace), "other", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* Remembered across a restart, under the same id. */
  id = g_strdup (strobe_trace_get_id (trace));
  {
    g_autoptr(StrobeStore) restarted = strobe_store_new (f->dir, &error);
    StrobeTrace *t;

    g_assert_no_error (error);
    t = strobe_store_lookup_trace (restarted, id);
    g_assert_nonnull (t);
    g_assert_true (strobe_trace_get_external (t));
    g_assert_cmpstr (strobe_trace_get_path (t), ==, path);
    g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (restarted)), ==, 2);
  }

  /* Deleting it from the store forgets it; the file stays. */
  g_assert_true (strobe_store_delete_trace (f->store, id, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_null (strobe_store_lookup_trace (f->store, id));
  g_assert_cmpuint (g_list_model_get_n_items (strobe_store_get_traces (f->store)), ==, 1);
  {
    g_autoptr(StrobeStore) restarted = strobe_store_new (f->dir, &error);

    g_assert_no_error (error);
    g_assert_null (strobe_store_lookup_trace (restarted, id));
  }
  test_dir_remove_all (elsewhere);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/default-directory", test_default_directory);
#define ADD(name, func) g_test_add ("/store/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("copy-in", test_copy_in);
  ADD ("rename-delete", test_rename_delete);
  ADD ("live-shrinks", test_live_shrinks);
  ADD ("follow", test_follow);
  ADD ("external", test_external);
#undef ADD

  return g_test_run ();
}
