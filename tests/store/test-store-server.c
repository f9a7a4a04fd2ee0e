/* test-store-server.c — the store protocol over real loopback TCP: server and client.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>

#include "store-test-util.h"
#include "strobe-store-client.h"
#include "strobe-store-group.h"
#include "strobe-store-server.h"

typedef struct
{
  char              *dir;
  StrobeStore       *store;
  StrobeStoreServer *server;
  StrobeStoreClient *client;
  guint16            port;
} Fixture;

typedef struct
{
  GAsyncResult *result;
} Wait;

/* The running server's secret (store.secret in the fixture's directory). */
static char *store_secret;

static void
store_result (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return ((Wait *) data)->result != NULL;
}

static StrobeStoreClient *
connect_client (guint16 port)
{
  g_autoptr(GError) error = NULL;
  StrobeStoreClient *client = test_store_client_connect (port, store_secret, &error);

  g_assert_no_error (error);
  return client;
}

static GVariant *
request (Fixture *f, const char *verb, const char *path, GVariant *params, GError **error)
{
  Wait w = { NULL };
  GVariant *response;

  strobe_store_client_request_async (f->client, verb, path, params, NULL, store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  response = strobe_store_client_request_finish (f->client, w.result, error);
  g_object_unref (w.result);
  return response;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = test_dir_new ();
  f->store = strobe_store_new (f->dir, &error);
  g_assert_no_error (error);
  f->server = strobe_store_server_new (f->store);
  strobe_store_server_set_port (f->server, 0);
  strobe_store_server_set_recorder_port (f->server, 1980);
  strobe_store_server_start (f->server, &error);
  g_assert_no_error (error);
  f->port = strobe_store_server_get_port (f->server);
  g_assert_cmpuint (f->port, !=, 0);
  store_secret = test_store_secret (f->dir);
  f->client = connect_client (f->port);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->client);
  g_clear_object (&f->server);
  g_clear_object (&f->store);
  g_clear_pointer (&store_secret, g_free);
  test_spin (10);
  test_dir_remove_all (f->dir);
  g_free (f->dir);
}

static char *
add_trace_file (Fixture *f, const char *name, guint32 seed, gsize size, gboolean end, GBytes **out)
{
  g_autoptr(GBytes) stream = test_build_stream (name, seed, size, end, NULL);
  g_autofree char *file = g_strconcat (name, ".strobe", NULL);
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  GListModel *traces = strobe_store_get_traces (f->store);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL),
                                      (gssize) g_bytes_get_size (stream), NULL));
  strobe_store_rescan (f->store);
  if (out != NULL)
    *out = g_bytes_ref (stream);
  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);
      if (g_str_equal (strobe_trace_get_name (trace), name))
        return g_strdup (strobe_trace_get_id (trace));
    }
  g_assert_not_reached ();
}

static GVariant *
params_id (const char *id)
{
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "id", "s", id);
  return g_variant_dict_end (&d);
}

static void
test_status (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) r = request (f, "GET", "v1/status", NULL, &error);
  guint64 v;
  const char *s;

  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (r, "status", "t", &v));
  g_assert_cmpuint (v, ==, 200);
  g_assert_true (g_variant_lookup (r, "protocol", "t", &v));
  g_assert_cmpuint (v, ==, STROBE_STORE_PROTOCOL_VERSION);
  g_assert_true (g_variant_lookup (r, "store_port", "t", &v));
  g_assert_cmpuint (v, ==, f->port);
  g_assert_true (g_variant_lookup (r, "recorder_port", "t", &v));
  g_assert_cmpuint (v, ==, 1980);
  g_assert_true (g_variant_lookup (r, "version", "&s", &s));
  g_assert_cmpstr (s, ==, PACKAGE_VERSION);
  g_assert_true (g_variant_lookup (r, "store_dir", "&s", &s));
  g_assert_cmpstr (s, ==, f->dir);

  /* Errors: unknown path, wrong verb. */
  g_assert_null (request (f, "GET", "v1/nope", NULL, &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (request (f, "DELETE", "v1/status", NULL, &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_REMOTE);
  g_assert_true (g_str_has_prefix (error->message, "405"));
}

static void
test_list_info (Fixture *f, gconstpointer data)
{
  g_autofree char *a = add_trace_file (f, "alpha", 1, 1000, TRUE, NULL);
  g_autofree char *b = add_trace_file (f, "beta", 2, 1000, FALSE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) list = request (f, "GET", "v1/trace/list", NULL, &error);
  g_autoptr(GVariant) traces = NULL;
  g_autoptr(GVariant) info = NULL;
  g_autoptr(GVariant) trace = NULL;
  const char *s;
  guint64 v;

  g_assert_no_error (error);
  traces = g_variant_lookup_value (list, "traces", G_VARIANT_TYPE ("av"));
  g_assert_nonnull (traces);
  g_assert_cmpuint (g_variant_n_children (traces), ==, 2);

  info = request (f, "GET", "v1/trace/info", params_id (b), &error);
  g_assert_no_error (error);
  trace = g_variant_lookup_value (info, "trace", G_VARIANT_TYPE_VARDICT);
  g_assert_true (g_variant_lookup (trace, "name", "&s", &s));
  g_assert_cmpstr (s, ==, "beta");
  g_assert_true (g_variant_lookup (trace, "program", "&s", &s));
  g_assert_cmpstr (s, ==, "beta");
  g_assert_true (g_variant_lookup (trace, "status", "&s", &s));
  g_assert_cmpstr (s, ==, "cut-off");
  g_assert_true (g_variant_lookup (trace, "pid", "t", &v));
  g_assert_cmpuint (v, ==, 4244);

  g_assert_null (request (f, "GET", "v1/trace/info", params_id ("0000000000000000"), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (request (f, "GET", "v1/trace/info", NULL, &error));
  g_assert_true (g_str_has_prefix (error->message, "400"));
}

static void
test_rename_delete (Fixture *f, gconstpointer data)
{
  g_autofree char *id = add_trace_file (f, "gamma", 3, 1000, TRUE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) r = NULL;
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "id", "s", id);
  g_variant_dict_insert (&d, "name", "s", "delta");
  r = request (f, "POST", "v1/trace/rename", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (strobe_trace_get_name (strobe_store_lookup_trace (f->store, id)), ==, "delta");
  g_clear_pointer (&r, g_variant_unref);

  r = request (f, "DELETE", "v1/trace/delete", params_id (id), &error);
  g_assert_no_error (error);
  g_assert_null (strobe_store_lookup_trace (f->store, id));
}

typedef struct
{
  GByteArray *bytes;
  guint64     next_offset;
} Sink;

static void
sink_data (const guint8 *data, gsize len, guint64 offset, gpointer user_data)
{
  Sink *sink = user_data;

  g_assert_cmpuint (offset, ==, sink->next_offset);
  g_byte_array_append (sink->bytes, data, (guint) len);
  sink->next_offset += len;
}

static void
test_read (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = NULL;
  g_autofree char *id = add_trace_file (f, "epsilon", 4, 700 * 1024, TRUE, &stream);
  Sink sink = { g_byte_array_new (), 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;
  Wait w = { NULL };

  strobe_store_client_read_trace_async (f->client, id, 0, TRUE, sink_data, &sink, NULL,
                                        store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  status = strobe_store_client_read_trace_finish (f->client, w.result, &error);
  g_object_unref (w.result);
  g_assert_no_error (error);
  g_assert_cmpstr (status, ==, "finished");
  g_assert_cmpmem (sink.bytes->data, sink.bytes->len,
                   g_bytes_get_data (stream, NULL), g_bytes_get_size (stream));
  g_byte_array_unref (sink.bytes);

  /* From an offset. */
  sink.bytes = g_byte_array_new ();
  sink.next_offset = 1000;
  w.result = NULL;
  strobe_store_client_read_trace_async (f->client, id, 1000, FALSE, sink_data, &sink, NULL,
                                        store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  g_free (strobe_store_client_read_trace_finish (f->client, w.result, &error));
  g_object_unref (w.result);
  g_assert_no_error (error);
  g_assert_cmpmem (sink.bytes->data, sink.bytes->len,
                   (const guint8 *) g_bytes_get_data (stream, NULL) + 1000, g_bytes_get_size (stream) - 1000);
  g_byte_array_unref (sink.bytes);
}

static gboolean
sink_has (gpointer data)
{
  gpointer *args = data;
  return ((Sink *) args[0])->bytes->len >= GPOINTER_TO_SIZE (args[1]);
}

static void
test_read_live (Fixture *f, gconstpointer data)
{
  g_autoptr(GBytes) stream = test_build_stream ("zeta", 5, 100 * 1024, TRUE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeTraceWriter) writer = strobe_store_create_writer (f->store, "zeta", NULL, &error);
  g_autofree char *status = NULL;
  const guint8 *bytes = g_bytes_get_data (stream, NULL);
  gsize len = g_bytes_get_size (stream);
  Sink sink = { g_byte_array_new (), 0 };
  Wait w = { NULL };
  gpointer args[2] = { &sink, GSIZE_TO_POINTER (len / 2) };
  gint64 wrote_at;

  g_assert_no_error (error);
  g_assert_true (strobe_trace_writer_write (writer, bytes, len / 2, NULL));
  test_spin (50);   /* let the store learn about it */
  g_assert_nonnull (strobe_store_lookup_trace (f->store, strobe_trace_writer_get_id (writer)));

  strobe_store_client_read_trace_async (f->client, strobe_trace_writer_get_id (writer), 0, TRUE,
                                        sink_data, &sink, NULL, store_result, &w);
  g_assert_true (test_wait_until (sink_has, args, 5000));
  test_spin (50);
  g_assert_null (w.result);   /* still following */

  wrote_at = g_get_monotonic_time ();
  g_assert_true (strobe_trace_writer_write (writer, bytes + len / 2, len - len / 2, NULL));
  args[1] = GSIZE_TO_POINTER (len);
  g_assert_true (test_wait_until (sink_has, args, 5000));
  g_test_message ("live bytes over the store protocol after %" G_GINT64_FORMAT " µs",
                  g_get_monotonic_time () - wrote_at);
  g_assert_cmpint (g_get_monotonic_time () - wrote_at, <, 100 * 1000);

  g_assert_true (strobe_trace_writer_finish (writer, STROBE_TRACE_STATUS_FINISHED, NULL, NULL));
  g_assert_true (test_wait_until (has_result, &w, 5000));
  status = strobe_store_client_read_trace_finish (f->client, w.result, &error);
  g_object_unref (w.result);
  g_assert_no_error (error);
  g_assert_cmpmem (sink.bytes->data, sink.bytes->len, bytes, len);
  g_byte_array_unref (sink.bytes);
}

typedef struct
{
  GPtrArray *events;
} Events;

static void
on_event (StrobeStoreClient *client, const char *name, GVariant *payload, Events *e)
{
  g_ptr_array_add (e->events, g_strdup (name));
}

static gboolean
has_event (gpointer data)
{
  gpointer *args = data;
  GPtrArray *events = args[0];

  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (g_ptr_array_index (events, i), args[1]))
      return TRUE;
  return FALSE;
}

static void
test_subscribe_sessions (Fixture *f, gconstpointer data)
{
  Events e = { g_ptr_array_new_with_free_func (g_free) };
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeLiveConnection) session = NULL;
  g_autoptr(GVariant) r = NULL;
  g_autoptr(GVariant) s = NULL;
  g_autofree char *path = g_build_filename (f->dir, "copied.strobe", NULL);
  g_autoptr(GBytes) stream = test_build_stream ("copied", 9, 1000, TRUE, NULL);
  gpointer args[2] = { e.events, (gpointer) "trace-added" };
  GVariantDict d;
  const char *str;
  guint64 v;
  Wait w = { NULL };

  g_signal_connect (f->client, "event", G_CALLBACK (on_event), &e);
  strobe_store_client_subscribe_async (f->client, NULL, store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  g_assert_true (strobe_store_client_subscribe_finish (f->client, w.result, &error));
  g_object_unref (w.result);

  /* A file copied into the directory: noticed by the monitor, pushed to us. */
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL),
                                      (gssize) g_bytes_get_size (stream), NULL));
  g_assert_true (test_wait_until (has_event, args, 3000));

  session = strobe_live_connection_new (7, "abcd", "live-trace", "prog", 99, "127.0.0.1:5555", 1985, 42);
  strobe_store_add_session (f->store, session);
  args[1] = (gpointer) "session-added";
  g_assert_true (test_wait_until (has_event, args, 3000));

  r = request (f, "GET", "v1/session/list", NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&r, g_variant_unref);

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "id", "t", (guint64) 7);
  r = request (f, "GET", "v1/session/info", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  s = g_variant_lookup_value (r, "session", G_VARIANT_TYPE_VARDICT);
  g_assert_true (g_variant_lookup (s, "program", "&s", &str));
  g_assert_cmpstr (str, ==, "prog");
  g_assert_true (g_variant_lookup (s, "peer_address", "&s", &str));
  g_assert_cmpstr (str, ==, "127.0.0.1:5555");
  g_assert_true (g_variant_lookup (s, "control_port", "t", &v));
  g_assert_cmpuint (v, ==, 1985);
  g_assert_true (g_variant_lookup (s, "pid", "t", &v));
  g_assert_cmpuint (v, ==, 99);

  strobe_store_remove_session (f->store, session);
  args[1] = (gpointer) "session-removed";
  g_assert_true (test_wait_until (has_event, args, 3000));
  g_ptr_array_unref (e.events);
}

/* ---- session groups ------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *groups;   /* the payloads of group-changed events, in order */
  guint      want_members;
  gboolean   want_live;
} GroupEvents;

static void
on_group_event (StrobeStoreClient *client, const char *name, GVariant *payload, GroupEvents *e)
{
  if (g_str_equal (name, "group-changed"))
    g_ptr_array_add (e->groups, g_variant_ref (payload));
}

static gboolean
has_group_event (gpointer data)
{
  GroupEvents *e = data;

  for (guint i = 0; i < e->groups->len; i++)
    {
      g_autoptr(GVariant) group = g_variant_lookup_value (g_ptr_array_index (e->groups, i), "group",
                                                         G_VARIANT_TYPE_VARDICT);
      g_autoptr(GVariant) members = group ? g_variant_lookup_value (group, "members", NULL) : NULL;
      gboolean live = FALSE;

      if (members && g_variant_lookup (group, "live", "b", &live)
          && g_variant_n_children (members) == e->want_members && live == e->want_live)
        return TRUE;
    }
  return FALSE;
}

static char *
add_session_trace (Fixture *f, const char *name, const char *session, guint32 seed)
{
  g_autoptr(GBytes) stream = test_build_session_stream (name, session, seed, 2000, TRUE, NULL);
  g_autofree char *file = g_strconcat (name, ".strobe", NULL);
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  GListModel *traces = strobe_store_get_traces (f->store);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (stream, NULL),
                                      (gssize) g_bytes_get_size (stream), NULL));
  strobe_store_rescan (f->store);
  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);
      if (g_str_equal (strobe_trace_get_name (trace), name))
        return g_strdup (strobe_trace_get_id (trace));
    }
  g_assert_not_reached ();
}

/* The ids of a group map's members, in order, space-separated. */
static char *
member_ids (GVariant *group)
{
  g_autoptr(GVariant) members = g_variant_lookup_value (group, "members", G_VARIANT_TYPE ("av"));
  GString *ids = g_string_new (NULL);

  g_assert_nonnull (members);
  for (gsize i = 0; i < g_variant_n_children (members); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (members, i);
      g_autoptr(GVariant) m = g_variant_get_variant (boxed);
      const char *id, *session;
      guint64 ppid;

      g_assert_true (g_variant_lookup (m, "id", "&s", &id));
      g_assert_true (g_variant_lookup (m, "session", "&s", &session));
      g_assert_true (g_variant_lookup (m, "parent_pid", "t", &ppid));
      g_assert_cmpuint (ppid, ==, 4242);
      g_string_append_printf (ids, "%s%s", i ? " " : "", id);
    }
  return g_string_free (ids, FALSE);
}

/* Traces with one session name are one group, listed with their members; a trace without
 * one is in none; a member recorded later joins the live group, and subscribers hear of
 * it (group-changed) — over the real protocol on loopback TCP. */
static void
test_groups (Fixture *f, gconstpointer data)
{
  GroupEvents e = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref), 3, TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) r = NULL;
  g_autoptr(GVariant) groups = NULL;
  g_autoptr(GVariant) group = NULL;
  g_autoptr(StrobeTraceWriter) writer = NULL;
  g_autoptr(GBytes) late = NULL;
  g_autofree char *client_id = add_session_trace (f, "client", "shop", 1);
  g_autofree char *server_id = add_session_trace (f, "server", "shop", 2);
  g_autofree char *other_id = add_session_trace (f, "other", "elsewhere", 3);
  g_autofree char *plain_id = add_trace_file (f, "plain", 4, 2000, TRUE, NULL);
  g_autofree char *ids = NULL;
  g_autofree char *want = NULL;
  const char *name;
  gboolean live = TRUE;
  GVariantDict d;
  gint64 t0;
  Wait w = { NULL };

  r = request (f, "GET", "v1/group/list", NULL, &error);
  g_assert_no_error (error);
  groups = g_variant_lookup_value (r, "groups", G_VARIANT_TYPE ("av"));
  g_assert_nonnull (groups);
  g_assert_cmpuint (g_variant_n_children (groups), ==, 2);   /* shop, elsewhere; not plain */
  {
    g_autoptr(GVariant) boxed = g_variant_get_child_value (groups, 0);
    group = g_variant_get_variant (boxed);                   /* by start time: seeds 1, 2 < 3 */
  }
  g_assert_true (g_variant_lookup (group, "name", "&s", &name));
  g_assert_cmpstr (name, ==, "shop");
  g_assert_true (g_variant_lookup (group, "live", "b", &live));
  g_assert_false (live);
  ids = member_ids (group);
  want = g_strdup_printf ("%s %s", client_id, server_id);   /* by start time */
  g_assert_cmpstr (ids, ==, want);
  g_clear_pointer (&group, g_variant_unref);
  g_clear_pointer (&r, g_variant_unref);

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "elsewhere");
  r = request (f, "GET", "v1/group/info", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  group = g_variant_lookup_value (r, "group", G_VARIANT_TYPE_VARDICT);
  g_clear_pointer (&ids, g_free);
  ids = member_ids (group);
  g_assert_cmpstr (ids, ==, other_id);
  g_clear_pointer (&group, g_variant_unref);
  g_clear_pointer (&r, g_variant_unref);

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "no-such-session");
  g_assert_null (request (f, "GET", "v1/group/info", g_variant_dict_end (&d), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (request (f, "GET", "v1/group/info", NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* A late member: a recorder starts writing a third program of the session. */
  g_signal_connect (f->client, "event", G_CALLBACK (on_group_event), &e);
  strobe_store_client_subscribe_async (f->client, NULL, store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  g_assert_true (strobe_store_client_subscribe_finish (f->client, w.result, &error));
  g_object_unref (w.result);

  late = test_build_session_stream ("worker", "shop", 5, 3000, FALSE, NULL);
  t0 = g_get_monotonic_time ();
  writer = strobe_store_create_writer (f->store, "worker", "127.0.0.1:4000", &error);
  g_assert_no_error (error);
  g_assert_true (strobe_trace_writer_write (writer, g_bytes_get_data (late, NULL),
                                            g_bytes_get_size (late), &error));
  g_assert_true (test_wait_until (has_group_event, &e, 5000));
  g_test_message ("group.late_member_notice %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);

  r = request (f, "GET", "v1/group/info", NULL, &error);   /* still a 400: no name */
  g_assert_null (r);
  g_clear_error (&error);
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "shop");
  r = request (f, "GET", "v1/group/info", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  group = g_variant_lookup_value (r, "group", G_VARIANT_TYPE_VARDICT);
  g_assert_true (g_variant_lookup (group, "live", "b", &live));
  g_assert_true (live);
  g_clear_pointer (&ids, g_free);
  ids = member_ids (group);
  g_assert_true (strstr (ids, strobe_trace_writer_get_id (writer)) != NULL);
  g_clear_pointer (&group, g_variant_unref);
  g_clear_pointer (&r, g_variant_unref);

  /* Its end is news for the group too: no longer live. */
  e.want_live = FALSE;
  g_ptr_array_set_size (e.groups, 0);
  g_assert_true (strobe_trace_writer_finish (writer, STROBE_TRACE_STATUS_FINISHED, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (test_wait_until (has_group_event, &e, 5000));

  g_assert_nonnull (plain_id);
  g_ptr_array_unref (e.groups);
}

/* The ids of a group map's members, in order, space-separated; whether it says it is a
 * user group. */
static char *
plain_member_ids (GVariant *group, gboolean *user)
{
  g_autoptr(GVariant) members = g_variant_lookup_value (group, "members", G_VARIANT_TYPE ("av"));
  GString *ids = g_string_new (NULL);

  g_assert_nonnull (members);
  *user = FALSE;
  g_variant_lookup (group, "user", "b", user);
  for (gsize i = 0; i < g_variant_n_children (members); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (members, i);
      g_autoptr(GVariant) m = g_variant_get_variant (boxed);
      const char *id;

      g_assert_true (g_variant_lookup (m, "id", "&s", &id));
      g_string_append_printf (ids, "%s%s", i ? " " : "", id);
    }
  return g_string_free (ids, FALSE);
}

static GVariant *
create_group (Fixture *f, const char *name, GVariant *members, GError **error)
{
  GVariantDict d;

  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", name);
  if (members != NULL)
    g_variant_dict_insert_value (&d, "members", members);
  return request (f, "POST", "v1/group/create", g_variant_dict_end (&d), error);
}

static gboolean
has_user_group_event (gpointer data)
{
  GroupEvents *e = data;

  for (guint i = 0; i < e->groups->len; i++)
    {
      g_autoptr(GVariant) group = g_variant_lookup_value (g_ptr_array_index (e->groups, i), "group",
                                                         G_VARIANT_TYPE_VARDICT);
      g_autoptr(GVariant) members = group ? g_variant_lookup_value (group, "members", NULL) : NULL;
      const char *name = NULL;

      if (members && g_variant_lookup (group, "name", "&s", &name) && g_str_equal (name, "debug pair")
          && g_variant_n_children (members) == e->want_members)
        return TRUE;
    }
  return FALSE;
}

/* Traces grouped by hand: made over the protocol (a client and a trace of no session),
 * listed and described as a user group with its members by start time, told to
 * subscribers, kept in the directory across a new store, followed when a member is
 * deleted, refused with the right status when wrong, and deleted — while a session group
 * cannot be. */
static void
test_user_groups (Fixture *f, gconstpointer data)
{
  GroupEvents e = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref), 2, FALSE };
  g_autofree char *client_id = add_session_trace (f, "client", "shop", 1);
  g_autofree char *server_id = add_session_trace (f, "server", "shop", 2);
  g_autofree char *plain_id = add_trace_file (f, "plain", 4, 2000, TRUE, NULL);
  const char *pair[] = { plain_id, client_id, plain_id };   /* a repeat counts once */
  const char *unknown[] = { client_id, "0123456789abcdef" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) r = NULL;
  g_autoptr(GVariant) group = NULL;
  g_autoptr(GVariant) groups = NULL;
  g_autoptr(StrobeStore) again = NULL;
  g_autoptr(StrobeStoreGroup) kept = NULL;
  g_autofree char *ids = NULL;
  g_autofree char *want = g_strdup_printf ("%s %s", client_id, plain_id);   /* by start time */
  gboolean user = FALSE;
  guint n_user = 0;
  GVariantDict d;
  Wait w = { NULL };

  g_signal_connect (f->client, "event", G_CALLBACK (on_group_event), &e);
  strobe_store_client_subscribe_async (f->client, NULL, store_result, &w);
  g_assert_true (test_wait_until (has_result, &w, 5000));
  g_assert_true (strobe_store_client_subscribe_finish (f->client, w.result, &error));
  g_object_unref (w.result);

  r = create_group (f, "debug pair", g_variant_new_strv (pair, 3), &error);
  g_assert_no_error (error);
  group = g_variant_lookup_value (r, "group", G_VARIANT_TYPE_VARDICT);
  ids = plain_member_ids (group, &user);
  g_assert_cmpstr (ids, ==, want);
  g_assert_true (user);
  g_assert_true (test_wait_until (has_user_group_event, &e, 5000));
  g_clear_pointer (&group, g_variant_unref);
  g_clear_pointer (&r, g_variant_unref);

  r = request (f, "GET", "v1/group/list", NULL, &error);
  g_assert_no_error (error);
  groups = g_variant_lookup_value (r, "groups", G_VARIANT_TYPE ("av"));
  g_assert_cmpuint (g_variant_n_children (groups), ==, 2);   /* shop, debug pair */
  for (gsize i = 0; i < g_variant_n_children (groups); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (groups, i);
      g_autoptr(GVariant) g = g_variant_get_variant (boxed);
      g_autofree char *member_list = plain_member_ids (g, &user);
      n_user += user;
      if (user)
        g_assert_cmpstr (member_list, ==, want);
    }
  g_assert_cmpuint (n_user, ==, 1);
  g_clear_pointer (&r, g_variant_unref);

  /* Kept in the directory: another store of it knows the group. */
  again = strobe_store_new (f->dir, &error);
  g_assert_no_error (error);
  kept = strobe_store_dup_group (again, "debug pair");
  g_assert_nonnull (kept);
  g_assert_true (kept->user);
  g_assert_cmpuint (kept->members->len, ==, 2);

  /* Refused: a taken name (a session's, a user group's), an unknown trace, no members, a
   * members that is not a list of ids, a name with a control character. */
  g_assert_null (create_group (f, "shop", g_variant_new_strv (pair, 1), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_BUSY);   /* 409 */
  g_clear_error (&error);
  g_assert_null (create_group (f, "debug pair", g_variant_new_strv (pair, 1), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_BUSY);   /* 409 */
  g_clear_error (&error);
  g_assert_null (create_group (f, "ghosts", g_variant_new_strv (unknown, 2), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (create_group (f, "empty", g_variant_new_strv (NULL, 0), &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (create_group (f, "numbers", g_variant_new_uint32 (7), &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (create_group (f, "bad\nname", g_variant_new_strv (pair, 1), &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* A member deleted leaves the group, and subscribers hear it. */
  e.want_members = 1;
  g_ptr_array_set_size (e.groups, 0);
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "id", "s", plain_id);
  r = request (f, "POST", "v1/trace/delete", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  g_clear_pointer (&r, g_variant_unref);
  g_assert_true (test_wait_until (has_user_group_event, &e, 5000));

  /* A session group is not the user's to delete; the user group is. */
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "shop");
  g_assert_null (request (f, "POST", "v1/group/delete", g_variant_dict_end (&d), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  e.want_members = 0;
  g_ptr_array_set_size (e.groups, 0);
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "debug pair");
  r = request (f, "POST", "v1/group/delete", g_variant_dict_end (&d), &error);
  g_assert_no_error (error);
  g_clear_pointer (&r, g_variant_unref);
  g_assert_true (test_wait_until (has_user_group_event, &e, 5000));
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "name", "s", "debug pair");
  g_assert_null (request (f, "GET", "v1/group/info", g_variant_dict_end (&d), &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (server_id);
  g_ptr_array_unref (e.groups);
}

/* ---- raw peers ------------------------------------------------------------------------- */

typedef struct
{
  GSocketConnection *connection;
  GByteArray        *in;
  gboolean           eof;
} Raw;

/* A peer that has authenticated: what it sends next is judged as a request. */
static Raw *
raw_connect (guint16 port)
{
  g_autoptr(GSocket) socket = g_socket_new_from_fd (test_store_connect_authed (port, store_secret), NULL);
  Raw *raw = g_new0 (Raw, 1);

  g_assert_nonnull (socket);
  raw->connection = g_socket_connection_factory_create_connection (socket);
  g_assert_nonnull (raw->connection);
  raw->in = g_byte_array_new ();
  return raw;
}

static void
raw_free (Raw *raw)
{
  g_io_stream_close (G_IO_STREAM (raw->connection), NULL, NULL);
  g_object_unref (raw->connection);
  g_byte_array_unref (raw->in);
  g_free (raw);
}

static void
raw_send (Raw *raw, const void *data, gsize len)
{
  g_autoptr(GError) error = NULL;
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (raw->connection));

  g_output_stream_write_all (out, data, len, NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
raw_send_message (Raw *raw, const void *body, guint32 len)
{
  guint32 le = GUINT32_TO_LE (len);

  raw_send (raw, &le, 4);
  raw_send (raw, body, len);
}

static gboolean
raw_poll (gpointer data)
{
  Raw *raw = data;
  GSocket *socket = g_socket_connection_get_socket (raw->connection);
  guint8 buf[4096];
  gssize n = g_socket_receive_with_blocking (socket, (char *) buf, sizeof buf, FALSE, NULL, NULL);
  guint32 len;

  if (n == 0)
    raw->eof = TRUE;
  if (n > 0)
    g_byte_array_append (raw->in, buf, (guint) n);
  if (raw->in->len >= 4)
    {
      memcpy (&len, raw->in->data, 4);
      if (raw->in->len >= 4 + GUINT32_FROM_LE (len))
        return TRUE;
    }
  return raw->eof;
}

/* The next response's status, or 0 at EOF. */
static guint64
raw_status (Raw *raw)
{
  g_autoptr(GVariant) message = NULL;
  guint32 len;
  guint64 status = 0;

  g_assert_true (test_wait_until (raw_poll, raw, 5000));
  if (raw->in->len < 4)
    return 0;
  memcpy (&len, raw->in->data, 4);
  len = GUINT32_FROM_LE (len);
  message = strobe_store_message_decode (raw->in->data + 4, len, NULL);
  g_assert_nonnull (message);
  g_byte_array_remove_range (raw->in, 0, 4 + len);
  g_assert_true (g_variant_lookup (message, "status", "t", &status));
  return status;
}

static gboolean
raw_eof (gpointer data)
{
  raw_poll (data);
  return ((Raw *) data)->eof;
}

static void
test_malformed (Fixture *f, gconstpointer data)
{
  Raw *raw = raw_connect (f->port);
  static const guint8 garbage[] = { 0xff, 0x00, 0x13 };
  static const guint8 not_a_map[] = { 0x83, 0x01, 0x02, 0x03 };
  static const guint8 truncated[] = { 0xa2, 0x63, 'a', 'b' };
  static const guint8 trailing[] = { 0xa0, 0x00 };
  static const guint8 no_path[] = { 0xa1, 0x67, 'r', 'e', 'q', 'u', 'e', 's', 't', 0x63, 'G', 'E', 'T' };
  guint8 deep[64];
  g_autoptr(GBytes) status = NULL;
  GVariantDict d;

  raw_send_message (raw, garbage, sizeof garbage);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  raw_send_message (raw, not_a_map, sizeof not_a_map);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  raw_send_message (raw, truncated, sizeof truncated);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  raw_send_message (raw, trailing, sizeof trailing);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  raw_send_message (raw, no_path, sizeof no_path);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  /* {"a": [[[[...]]]]} nested far past the limit */
  deep[0] = 0xa1;
  deep[1] = 0x61;
  deep[2] = 'a';
  memset (deep + 3, 0x81, sizeof deep - 4);
  deep[sizeof deep - 1] = 0x00;
  raw_send_message (raw, deep, sizeof deep);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  raw_send_message (raw, "", 0);
  g_assert_cmpuint (raw_status (raw), ==, 400);

  /* The connection survives all of that: framing was intact. */
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "request", "s", "GET");
  g_variant_dict_insert (&d, "path", "s", "v1/status");
  status = strobe_store_message_encode (g_variant_dict_end (&d));
  raw_send (raw, g_bytes_get_data (status, NULL), g_bytes_get_size (status));
  g_assert_cmpuint (raw_status (raw), ==, 200);
  raw_free (raw);
}

static void
test_oversize (Fixture *f, gconstpointer data)
{
  Raw *raw = raw_connect (f->port);
  guint32 le = GUINT32_TO_LE (STROBE_STORE_MAX_REQUEST + 1);

  raw_send (raw, &le, 4);
  g_assert_cmpuint (raw_status (raw), ==, 413);
  g_assert_true (test_wait_until (raw_eof, raw, 5000));
  raw_free (raw);
}

/* A peer that sends half a request and stalls holds up nobody else. */
static void
test_slow_peer (Fixture *f, gconstpointer data)
{
  Raw *raw = raw_connect (f->port);
  guint32 le = GUINT32_TO_LE (1000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) r = NULL;

  raw_send (raw, &le, 4);
  raw_send (raw, "\xa1\x61", 2);
  r = request (f, "GET", "v1/status", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strobe_store_server_get_n_clients (f->server), ==, 2);
  raw_free (raw);
}

/* The byte-level examples of STORE-PROTOCOL.md, so the document cannot drift. */
/* ---- validation: what a request may not say ------------------------------------------ */

static void
cbor_text (GByteArray *b, const char *s)
{
  guint8 head[2] = { 0x78, (guint8) strlen (s) };

  if (strlen (s) < 24)
    {
      head[0] = (guint8) (0x60 | strlen (s));
      g_byte_array_append (b, head, 1);
    }
  else
    g_byte_array_append (b, head, 2);
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

/* {"request": "GET", "path": "v1/status", EXTRA…} with @n_extra more pairs in @extra. */
static GByteArray *
status_request (guint n_extra, const guint8 *extra, gsize extra_len)
{
  GByteArray *b = g_byte_array_new ();
  guint8 head = (guint8) (0xa0 | (2 + n_extra));

  g_byte_array_append (b, &head, 1);
  cbor_text (b, "request");
  cbor_text (b, "GET");
  cbor_text (b, "path");
  cbor_text (b, "v1/status");
  g_byte_array_append (b, extra, (guint) extra_len);
  return b;
}

static void
test_validation (Fixture *f, gconstpointer data)
{
  Raw *raw = raw_connect (f->port);
  static const guint8 negative_tag[] = { 0x63, 't', 'a', 'g', 0x20 };             /* tag: -1 */
  static const guint8 string_tag[] = { 0x63, 't', 'a', 'g', 0x61, '5' };          /* tag: "5" */
  static const guint8 dup_path[] = { 0x64, 'p', 'a', 't', 'h', 0x63, 'x', 'y', 'z' };
  static const guint8 good_tag[] = { 0x63, 't', 'a', 'g', 0x05 };
  static const char *bad_names[] = { "a\xc2\x85" "b", "evil\xe2\x80\xae" "exe", "x\xe2\x81\xa6y",
                                     "tab\there", "line\xe2\x80\xa8sep" };
  g_autofree char *id = add_trace_file (f, "epsilon", 5, 1000, TRUE, NULL);
  GByteArray *msg;

  msg = status_request (1, negative_tag, sizeof negative_tag);
  raw_send_message (raw, msg->data, msg->len);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  g_byte_array_unref (msg);
  msg = status_request (1, string_tag, sizeof string_tag);
  raw_send_message (raw, msg->data, msg->len);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  g_byte_array_unref (msg);
  msg = status_request (1, dup_path, sizeof dup_path);
  raw_send_message (raw, msg->data, msg->len);
  g_assert_cmpuint (raw_status (raw), ==, 400);
  g_byte_array_unref (msg);
  msg = status_request (1, good_tag, sizeof good_tag);
  raw_send_message (raw, msg->data, msg->len);
  g_assert_cmpuint (raw_status (raw), ==, 200);
  g_byte_array_unref (msg);
  raw_free (raw);

  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) r = NULL;
      GVariantDict d;

      g_variant_dict_init (&d, NULL);
      g_variant_dict_insert (&d, "id", "s", id);
      g_variant_dict_insert (&d, "name", "s", bad_names[i]);
      r = request (f, "POST", "v1/trace/rename", g_variant_dict_end (&d), &error);
      g_assert_null (r);
      g_assert_nonnull (error);
      g_assert_cmpstr (strobe_trace_get_name (strobe_store_lookup_trace (f->store, id)), ==, "epsilon");
    }
}

static void
test_message_bytes (void)
{
  static const guint8 want_request[] = {
    0x1c, 0x00, 0x00, 0x00, 0xa2,
    0x67, 'r', 'e', 'q', 'u', 'e', 's', 't', 0x63, 'G', 'E', 'T',
    0x64, 'p', 'a', 't', 'h', 0x69, 'v', '1', '/', 's', 't', 'a', 't', 'u', 's',
  };
  static const guint8 want_data[] = {
    0x17, 0x00, 0x00, 0x00, 0xa3,
    0x63, 't', 'a', 'g', 0x05,
    0x66, 'o', 'f', 'f', 's', 'e', 't', 0x00,
    0x64, 'd', 'a', 't', 'a', 0x43, 'S', 'T', 'R',
  };
  g_autoptr(GVariantBuilder) b = g_variant_builder_new (G_VARIANT_TYPE_VARDICT);
  g_autoptr(GBytes) request = NULL;
  g_autoptr(GBytes) data = strobe_store_message_encode_data (TRUE, 5, 0, (const guint8 *) "STR", 3);
  g_autoptr(GVariant) decoded = NULL;
  g_autoptr(GVariant) bytes = NULL;
  guint64 v;

  /* GVariantBuilder keeps insertion order, which the encoder keeps too. */
  g_variant_builder_add (b, "{sv}", "request", g_variant_new_string ("GET"));
  g_variant_builder_add (b, "{sv}", "path", g_variant_new_string ("v1/status"));
  request = strobe_store_message_encode (g_variant_builder_end (b));
  g_assert_cmpmem (g_bytes_get_data (request, NULL), g_bytes_get_size (request),
                   want_request, sizeof want_request);
  g_assert_cmpmem (g_bytes_get_data (data, NULL), g_bytes_get_size (data),
                   want_data, sizeof want_data);

  decoded = strobe_store_message_decode (want_data + 4, sizeof want_data - 4, NULL);
  g_assert_nonnull (decoded);
  g_assert_true (g_variant_lookup (decoded, "tag", "t", &v));
  g_assert_cmpuint (v, ==, 5);
  bytes = g_variant_lookup_value (decoded, "data", G_VARIANT_TYPE_BYTESTRING);
  g_assert_cmpuint (g_variant_n_children (bytes), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("STROBE_STORE_SECRET");
  test_store_set_pump (TRUE);

  g_test_add_func ("/store-server/message-bytes", test_message_bytes);
#define ADD(name, func) g_test_add ("/store-server/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("status", test_status);
  ADD ("list-info", test_list_info);
  ADD ("rename-delete", test_rename_delete);
  ADD ("read", test_read);
  ADD ("read-live", test_read_live);
  ADD ("subscribe-sessions", test_subscribe_sessions);
  ADD ("groups", test_groups);
  ADD ("user-groups", test_user_groups);
  ADD ("malformed", test_malformed);
  ADD ("oversize", test_oversize);
  ADD ("slow-peer", test_slow_peer);
  ADD ("validation", test_validation);
#undef ADD

  return g_test_run ();
}
