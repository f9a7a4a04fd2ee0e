/* strobe-store-server.c — serves a StrobeStore over TCP (STORE-PROTOCOL.md).
 *
 * Everything runs on the main context with async GIO: requests are small and answered
 * from memory, and trace bytes are read by StrobeTraceStream, whose async reads use a
 * worker thread only for the pread itself.
 *
 * Bounded by construction: a request is at most 64 KiB and must arrive within 10 s of its
 * length prefix; each client's outgoing queue is capped — the server stops reading
 * requests and trace bytes for a client whose queue passes the high-water mark, and drops
 * a subscriber that lets notifications pile up past the hard limit. No peer can make the
 * server allocate without bound, and none waits on another.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "strobe-auth.h"
#include "strobe-store-group.h"
#include "strobe-store-maps.h"
#include "strobe-store-server.h"
#include "strobe-store-secret.h"
#include "strobe-listen.h"

#define QUEUE_HIGH_WATER      (1024 * 1024)
#define QUEUE_LOW_WATER       (256 * 1024)
#define QUEUE_HARD_LIMIT      (8 * 1024 * 1024)
#define MAX_READS_PER_CLIENT  4

struct _StrobeStoreServer
{
  GObject      parent_instance;
  StrobeStore *store;
  char        *secret;      /* the store secret (STORE-PROTOCOL.md §1a) */
  char        *listen_address;
  GPtrArray   *services;
  GPtrArray   *clients;     /* Client */
  guint        sweep_id;    /* closes clients past their timeouts */
  GHashTable  *group_signatures;   /* group name → what subscribers were last told */
  guint16      port;
  guint16      bound_port;
  guint16      recorder_port;
};

G_DEFINE_FINAL_TYPE (StrobeStoreServer, strobe_store_server, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STORE,
  PROP_PORT,
  PROP_LISTEN_ADDRESS,
  PROP_RECORDER_PORT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct _Client Client;

typedef struct
{
  Client       *client;
  GInputStream *stream;
  guint8       *buf;
  guint64       tag;
  guint64       offset;
  char         *trace_id;
  gboolean      has_tag;
  gboolean      pending;        /* an async read is in flight */
} ReadOp;

struct _Client
{
  StrobeStoreServer *server;    /* NULL once closed */
  GSocketConnection *connection;
  GInputStream      *in;
  GOutputStream     *out;
  GCancellable      *cancellable;
  char              *peer;
  char              *peer_host;
  gboolean           loopback;
  gint64             accepted;  /* monotonic µs */
  gint64             last_request;
  gboolean           requested; /* a whole request arrived */
  gboolean           authed;    /* proved it knows the secret; nothing else is served before */
  gboolean           challenged;/* sent its nonce and was given the server's proof */
  guint8             server_nonce[STROBE_AUTH_NONCE_BYTES];
  guint8             client_nonce[STROBE_AUTH_NONCE_BYTES];
  guint8             header[4];
  guint8            *body;
  gsize              body_len;
  GSource           *deadline;
  GQueue             queue;     /* GBytes */
  GBytes            *writing;
  gsize              queued;    /* bytes in queue + writing */
  GPtrArray         *reads;     /* ReadOp */
  gboolean           reading_paused;
  gboolean           closing;   /* close once the queue is written */
  gboolean           subscribed;
};

static void client_read_header (Client *client);
static void read_op_next (ReadOp *op);

/* ---- clients -------------------------------------------------------------------------- */

static void
client_free (Client *client)
{
  g_assert (client->server == NULL);
  g_clear_object (&client->connection);
  g_clear_object (&client->cancellable);
  g_clear_pointer (&client->body, g_free);
  g_queue_clear_full (&client->queue, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&client->writing, g_bytes_unref);
  g_ptr_array_unref (client->reads);
  g_free (client->peer);
  g_free (client->peer_host);
}

static Client *
client_ref (Client *client)
{
  return g_rc_box_acquire (client);
}

static void
client_unref (Client *client)
{
  g_rc_box_release_full (client, (GDestroyNotify) client_free);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Client, client_unref)

static void
read_op_free (ReadOp *op)
{
  g_clear_object (&op->stream);
  g_free (op->buf);
  g_free (op->trace_id);
  client_unref (op->client);
  g_free (op);
}

static void
client_close (Client     *client,
              const char *why)
{
  StrobeStoreServer *server = client->server;
  g_autoptr(GPtrArray) idle_reads = g_ptr_array_new ();

  if (server == NULL)
    return;
  if (why != NULL)
    g_debug ("Store server: closing %s: %s", client->peer, why);
  client->server = NULL;
  g_cancellable_cancel (client->cancellable);
  if (client->deadline != NULL)
    {
      g_source_destroy (client->deadline);
      g_clear_pointer (&client->deadline, g_source_unref);
    }
  g_io_stream_close (G_IO_STREAM (client->connection), NULL, NULL);

  /* Reads waiting for the queue to drain have no callback coming: free them here. Reads
   * with an async read in flight free themselves when it reports the cancellation. */
  for (guint i = 0; i < client->reads->len; i++)
    {
      ReadOp *op = g_ptr_array_index (client->reads, i);
      if (!op->pending)
        g_ptr_array_add (idle_reads, op);
    }
  for (guint i = 0; i < idle_reads->len; i++)
    {
      g_ptr_array_remove (client->reads, g_ptr_array_index (idle_reads, i));
      read_op_free (g_ptr_array_index (idle_reads, i));
    }

  g_ptr_array_remove (server->clients, client);   /* drops the server's reference */
}

static void client_flush (Client *client);

static void
client_write_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Client) client = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    {
      client_close (client, error->message);
      return;
    }
  client->queued -= g_bytes_get_size (client->writing);
  g_clear_pointer (&client->writing, g_bytes_unref);
  if (client->server == NULL)
    return;

  if (g_queue_is_empty (&client->queue) && client->closing)
    {
      client_close (client, "closing after the last response");
      return;
    }
  client_flush (client);

  if (client->queued < QUEUE_LOW_WATER)
    {
      g_autoptr(GPtrArray) waiting = g_ptr_array_new ();

      if (client->reading_paused)
        {
          client->reading_paused = FALSE;
          client_read_header (client);
        }
      for (guint i = 0; i < client->reads->len; i++)
        {
          ReadOp *op = g_ptr_array_index (client->reads, i);
          if (!op->pending)
            g_ptr_array_add (waiting, op);
        }
      for (guint i = 0; i < waiting->len && client->server != NULL; i++)
        read_op_next (g_ptr_array_index (waiting, i));
    }
}

static void
client_flush (Client *client)
{
  gsize len;
  const guint8 *data;

  if (client->writing != NULL || g_queue_is_empty (&client->queue) || client->server == NULL)
    return;
  client->writing = g_queue_pop_head (&client->queue);
  data = g_bytes_get_data (client->writing, &len);
  g_output_stream_write_all_async (client->out, data, len, G_PRIORITY_DEFAULT,
                                   client->cancellable, client_write_cb, client_ref (client));
}

/* Queues one whole message. FALSE (and the client closed) if it would pass the hard cap. */
static gboolean
client_send (Client *client,
             GBytes *message)
{
  if (client->server == NULL)
    {
      g_bytes_unref (message);
      return FALSE;
    }
  if (client->queued + g_bytes_get_size (message) > QUEUE_HARD_LIMIT)
    {
      g_bytes_unref (message);
      g_message ("Store server: dropping %s: it does not read what it is sent", client->peer);
      client_close (client, NULL);
      return FALSE;
    }
  client->queued += g_bytes_get_size (message);
  g_queue_push_tail (&client->queue, message);
  client_flush (client);
  return TRUE;
}

/* ---- responses ------------------------------------------------------------------------ */

static GVariantDict *
response_new (guint         status,
              gboolean      has_tag,
              guint64       tag,
              const char   *error_message)
{
  GVariantDict *dict = g_variant_dict_new (NULL);

  g_variant_dict_insert (dict, "status", "u", status);
  if (has_tag)
    g_variant_dict_insert (dict, "tag", "t", tag);
  if (error_message != NULL)
    g_variant_dict_insert (dict, "error", "s", error_message);
  return dict;
}

static void
send_dict (Client       *client,
           GVariantDict *dict)
{
  client_send (client, strobe_store_message_encode (g_variant_dict_end (dict)));
  g_variant_dict_unref (dict);
}

static void
send_error (Client     *client,
            gboolean    has_tag,
            guint64     tag,
            guint       status,
            const char *message)
{
  send_dict (client, response_new (status, has_tag, tag, message));
}

static guint
status_for_error (const GError *error)
{
  if (error->domain == STROBE_STORE_ERROR)
    switch (error->code)
      {
      case STROBE_STORE_ERROR_NOT_FOUND:    return STROBE_STORE_STATUS_NOT_FOUND;
      case STROBE_STORE_ERROR_INVALID_NAME: return STROBE_STORE_STATUS_BAD_REQUEST;
      case STROBE_STORE_ERROR_EXISTS:
      case STROBE_STORE_ERROR_BUSY:         return STROBE_STORE_STATUS_CONFLICT;
      default:                              break;
      }
  return STROBE_STORE_STATUS_INTERNAL_ERROR;
}

/* ---- endpoints ------------------------------------------------------------------------ */

typedef struct
{
  Client       *client;
  GVariantDict *params;
  gboolean      has_tag;
  guint64       tag;
} Request;

/* A text parameter, or NULL after answering 400. */
static const char *
require_string (Request    *req,
                const char *key)
{
  const char *value = NULL;
  g_autofree char *msg = NULL;

  if (g_variant_dict_lookup (req->params, key, "&s", &value))
    return value;
  msg = g_strdup_printf (_("“%s” must be a text string"), key);
  send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_BAD_REQUEST, msg);
  return NULL;
}

static void
handle_status (Request *req)
{
  StrobeStoreServer *server = req->client->server;
  GVariantDict *resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);

  g_variant_dict_insert (resp, "version", "s", PACKAGE_VERSION);
  g_variant_dict_insert (resp, "protocol", "u", STROBE_STORE_PROTOCOL_VERSION);
  g_variant_dict_insert (resp, "store_port", "u", (guint32) strobe_store_server_get_port (server));
  g_variant_dict_insert (resp, "recorder_port", "u", (guint32) server->recorder_port);
  g_variant_dict_insert (resp, "store_dir", "s", strobe_store_get_directory (server->store));
  g_variant_dict_insert (resp, "change_serial", "t", strobe_store_get_change_serial (server->store));
  g_variant_dict_insert (resp, "trace_count", "u",
                         g_list_model_get_n_items (strobe_store_get_traces (server->store)));
  g_variant_dict_insert (resp, "session_count", "u",
                         g_list_model_get_n_items (strobe_store_get_sessions (server->store)));
  send_dict (req->client, resp);
}

static void
handle_trace_list (Request *req)
{
  GListModel *traces = strobe_store_get_traces (req->client->server->store);
  GVariantDict *resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  GVariantBuilder builder;
  guint n = g_list_model_get_n_items (traces);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

      /* The store serves its directory: files a viewer opened from elsewhere stay local. */
      if (!strobe_trace_get_external (trace))
        g_variant_builder_add_value (&builder, strobe_store_trace_map (trace));
    }
  g_variant_dict_insert_value (resp, "traces", g_variant_builder_end (&builder));
  send_dict (req->client, resp);
}

static StrobeTrace *
require_trace (Request *req)
{
  const char *id = require_string (req, "id");
  StrobeTrace *trace;

  if (id == NULL)
    return NULL;
  trace = strobe_store_lookup_trace (req->client->server->store, id);
  if (trace != NULL && strobe_trace_get_external (trace))
    trace = NULL;
  if (trace == NULL)
    send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_NOT_FOUND,
                _("No trace with this id"));
  return trace;
}

static void
handle_trace_info (Request *req)
{
  StrobeTrace *trace = require_trace (req);
  GVariantDict *resp;

  if (trace == NULL)
    return;
  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "trace", strobe_store_trace_map (trace));
  send_dict (req->client, resp);
}

static void
handle_trace_rename (Request *req)
{
  StrobeStore *store = req->client->server->store;
  const char *id = require_string (req, "id");
  const char *name = id ? require_string (req, "name") : NULL;
  g_autoptr(GError) error = NULL;
  GVariantDict *resp;

  if (name == NULL)
    return;
  if (!strobe_store_rename_trace (store, id, name, &error))
    {
      send_error (req->client, req->has_tag, req->tag, status_for_error (error), error->message);
      return;
    }
  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "trace", strobe_store_trace_map (strobe_store_lookup_trace (store, id)));
  send_dict (req->client, resp);
}

static void
handle_trace_delete (Request *req)
{
  const char *id = require_string (req, "id");
  g_autoptr(GError) error = NULL;

  if (id == NULL)
    return;
  if (!strobe_store_delete_trace (req->client->server->store, id, &error))
    send_error (req->client, req->has_tag, req->tag, status_for_error (error), error->message);
  else
    send_dict (req->client, response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL));
}

static void
read_op_finish (ReadOp     *op,
                guint       status,
                const char *message)
{
  Client *client = op->client;

  if (client->server != NULL)
    {
      GVariantDict *end = response_new (status, op->has_tag, op->tag, message);
      StrobeTrace *trace = strobe_store_lookup_trace (client->server->store, op->trace_id);

      g_variant_dict_insert (end, "end", "b", TRUE);
      g_variant_dict_insert (end, "offset", "t", op->offset);
      if (trace != NULL)
        g_variant_dict_insert (end, "trace_status", "s",
                               strobe_trace_status_to_string (strobe_trace_get_status (trace)));
      send_dict (client, end);
    }
  g_ptr_array_remove (client->reads, op);
  read_op_free (op);
}

static void
read_op_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  ReadOp *op = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);

  op->pending = FALSE;
  if (op->client->server == NULL)
    {
      /* The client went away while we read. */
      g_ptr_array_remove (op->client->reads, op);
      read_op_free (op);
      return;
    }
  if (n < 0)
    {
      read_op_finish (op, STROBE_STORE_STATUS_INTERNAL_ERROR, error->message);
      return;
    }
  if (n == 0)
    {
      read_op_finish (op, STROBE_STORE_STATUS_OK, NULL);
      return;
    }
  if (!client_send (op->client, strobe_store_message_encode_data (op->has_tag, op->tag, op->offset,
                                                                  op->buf, (gsize) n)))
    return;   /* the client was closed, which freed this op */
  op->offset += (guint64) n;
  read_op_next (op);
}

static void
read_op_next (ReadOp *op)
{
  /* Backpressure: read more of the trace only once the client has taken what we sent. */
  if (op->client->queued >= QUEUE_HIGH_WATER)
    return;   /* resumed from client_write_cb */
  op->pending = TRUE;
  g_input_stream_read_async (op->stream, op->buf, STROBE_STORE_DATA_CHUNK, G_PRIORITY_DEFAULT,
                             op->client->cancellable, read_op_cb, op);
}

static void
handle_trace_read (Request *req)
{
  StrobeStore *store = req->client->server->store;
  StrobeTrace *trace = require_trace (req);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = NULL;
  guint64 offset = 0;
  gboolean follow = TRUE;
  GVariantDict *resp;
  ReadOp *op;

  if (trace == NULL)
    return;
  if (req->client->reads->len >= MAX_READS_PER_CLIENT)
    {
      send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_UNAVAILABLE,
                  _("Too many reads on this connection"));
      return;
    }
  g_variant_dict_lookup (req->params, "offset", "t", &offset);
  g_variant_dict_lookup (req->params, "follow", "b", &follow);
  stream = strobe_store_open_trace (store, strobe_trace_get_id (trace), offset, follow, &error);
  if (stream == NULL)
    {
      send_error (req->client, req->has_tag, req->tag, status_for_error (error), error->message);
      return;
    }

  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "trace", strobe_store_trace_map (trace));
  g_variant_dict_insert (resp, "offset", "t", offset);
  send_dict (req->client, resp);

  op = g_new0 (ReadOp, 1);
  op->client = client_ref (req->client);
  op->stream = g_steal_pointer (&stream);
  op->buf = g_malloc (STROBE_STORE_DATA_CHUNK);
  op->has_tag = req->has_tag;
  op->tag = req->tag;
  op->offset = offset;
  op->trace_id = g_strdup (strobe_trace_get_id (trace));
  g_ptr_array_add (req->client->reads, op);
  read_op_next (op);
}

static void
handle_session_list (Request *req)
{
  GListModel *sessions = strobe_store_get_sessions (req->client->server->store);
  GVariantDict *resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  GVariantBuilder builder;
  guint n = g_list_model_get_n_items (sessions);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeLiveConnection) session = g_list_model_get_item (sessions, i);
      g_variant_builder_add_value (&builder, strobe_store_session_map (session));
    }
  g_variant_dict_insert_value (resp, "sessions", g_variant_builder_end (&builder));
  send_dict (req->client, resp);
}

static void
handle_session_info (Request *req)
{
  StrobeStore *store = req->client->server->store;
  StrobeLiveConnection *session = NULL;
  const char *trace_id = NULL;
  guint64 id;
  GVariantDict *resp;

  if (g_variant_dict_lookup (req->params, "id", "t", &id))
    session = strobe_store_lookup_session (store, id);
  else if (g_variant_dict_lookup (req->params, "trace_id", "&s", &trace_id))
    {
      GListModel *sessions = strobe_store_get_sessions (store);
      for (guint i = 0; session == NULL && i < g_list_model_get_n_items (sessions); i++)
        {
          g_autoptr(StrobeLiveConnection) s = g_list_model_get_item (sessions, i);
          if (g_strcmp0 (strobe_live_connection_get_trace_id (s), trace_id) == 0)
            session = s;
        }
    }
  else
    {
      send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_BAD_REQUEST,
                  _("“id” (unsigned) or “trace_id” (text) is required"));
      return;
    }
  if (session == NULL)
    {
      send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_NOT_FOUND,
                  _("No such session"));
      return;
    }
  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "session", strobe_store_session_map (session));
  send_dict (req->client, resp);
}

static void
handle_group_list (Request *req)
{
  g_autoptr(GPtrArray) groups = strobe_store_dup_groups (req->client->server->store);
  GVariantDict *resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < groups->len; i++)
    {
      StrobeStoreGroup *group = g_ptr_array_index (groups, i);
      g_variant_builder_add_value (&builder, strobe_store_group_map (group->name, group));
    }
  g_variant_dict_insert_value (resp, "groups", g_variant_builder_end (&builder));
  send_dict (req->client, resp);
}

/* `members`: an array of text ids (CBOR arrays arrive as av). */
static void
handle_group_create (Request *req)
{
  StrobeStore *store = req->client->server->store;
  const char *name = require_string (req, "name");
  g_autoptr(GVariant) members = name ? g_variant_dict_lookup_value (req->params, "members", G_VARIANT_TYPE ("av")) : NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StrobeStoreGroup) group = NULL;
  g_autoptr(GError) error = NULL;
  GVariantDict *resp;

  if (name == NULL)
    return;
  for (gsize i = 0; members != NULL && i < g_variant_n_children (members); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (members, i);
      g_autoptr(GVariant) id = g_variant_get_variant (boxed);

      if (!g_variant_is_of_type (id, G_VARIANT_TYPE_STRING))
        g_clear_pointer (&members, g_variant_unref);
      else
        g_ptr_array_add (ids, g_variant_dup_string (id, NULL));
    }
  g_ptr_array_add (ids, NULL);
  if (members == NULL)
    send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_BAD_REQUEST,
                _("“members” must be an array of trace ids"));
  else if (!strobe_store_create_group (store, name, (const char * const *) ids->pdata, &error))
    send_error (req->client, req->has_tag, req->tag, status_for_error (error), error->message);
  else
    {
      group = strobe_store_dup_group (store, name);
      resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
      g_variant_dict_insert_value (resp, "group", strobe_store_group_map (name, group));
      send_dict (req->client, resp);
    }
}

static void
handle_group_delete (Request *req)
{
  const char *name = require_string (req, "name");
  g_autoptr(GError) error = NULL;

  if (name == NULL)
    return;
  if (!strobe_store_delete_group (req->client->server->store, name, &error))
    send_error (req->client, req->has_tag, req->tag, status_for_error (error), error->message);
  else
    send_dict (req->client, response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL));
}

static void
handle_group_info (Request *req)
{
  const char *name = require_string (req, "name");
  g_autoptr(StrobeStoreGroup) group = NULL;
  GVariantDict *resp;

  if (name == NULL)
    return;
  group = strobe_store_dup_group (req->client->server->store, name);
  if (group == NULL)
    {
      send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_NOT_FOUND,
                  _("No trace belongs to a session of this name"));
      return;
    }
  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "group", strobe_store_group_map (name, group));
  send_dict (req->client, resp);
}

static void
handle_subscribe (Request *req)
{
  GVariantDict *resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);

  req->client->subscribed = TRUE;
  g_variant_dict_insert (resp, "change_serial", "t",
                         strobe_store_get_change_serial (req->client->server->store));
  send_dict (req->client, resp);
}

/* ---- authentication (STORE-PROTOCOL.md §1a, core/protocol/AUTH.md) ------------------- */

/* Refuses and hangs up: a peer that does not follow the exchange gets no second try on
 * this connection, so each guess costs a connection (which the client limits bound). */
static void
refuse_auth (Request *req, const char *message)
{
  g_message ("Store server: %s failed authentication: %s", req->client->peer, message);
  send_error (req->client, req->has_tag, req->tag, STROBE_STORE_STATUS_UNAUTHORIZED, message);
  req->client->closing = TRUE;
}

static gboolean
lookup_nonce_or_proof (Request *req, const char *key, guint8 out[32])
{
  g_autoptr(GVariant) v = g_variant_dict_lookup_value (req->params, key, NULL);

  return strobe_store_message_get_fixed_bytes (v, out, 32);
}

/* Step 2 → 3: the client's nonce in, the server's proof out. Once per connection. */
static void
handle_auth_challenge (Request *req)
{
  Client *client = req->client;
  StrobeStoreServer *server = client->server;
  guint8 proof[STROBE_AUTH_PROOF_BYTES];
  GVariantDict *resp;

  if (client->authed || client->challenged)
    {
      refuse_auth (req, _("Authentication was already started on this connection"));
      return;
    }
  if (!lookup_nonce_or_proof (req, "nonce", client->client_nonce))
    {
      refuse_auth (req, _("“nonce” must be 32 bytes"));
      return;
    }
  if (!strobe_auth_proof ("store", STROBE_AUTH_SERVER, server->secret, strlen (server->secret),
                          client->server_nonce, client->client_nonce, proof))
    {
      refuse_auth (req, g_strerror (errno));
      return;
    }
  client->challenged = TRUE;
  resp = response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL);
  g_variant_dict_insert_value (resp, "proof",
                               g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, proof, sizeof proof, 1));
  strobe_auth_wipe (proof, sizeof proof);
  send_dict (client, resp);
}

/* Step 4: the client's proof; only now is the client served. */
static void
handle_auth_proof (Request *req)
{
  Client *client = req->client;
  StrobeStoreServer *server = client->server;
  guint8 proof[STROBE_AUTH_PROOF_BYTES];

  if (client->authed || !client->challenged)
    {
      refuse_auth (req, _("Send v1/auth/challenge first, once"));
      return;
    }
  if (!lookup_nonce_or_proof (req, "proof", proof)
      || !strobe_auth_check ("store", STROBE_AUTH_CLIENT, server->secret, strlen (server->secret),
                             client->server_nonce, client->client_nonce, proof))
    {
      refuse_auth (req, _("Authentication failed: wrong store secret"));
      return;
    }
  client->authed = TRUE;
  send_dict (client, response_new (STROBE_STORE_STATUS_OK, req->has_tag, req->tag, NULL));
}

/* Step 1, sent as soon as a client connects. */
static void
send_hello (Client *client)
{
  GVariantDict *hello = g_variant_dict_new (NULL);

  g_variant_dict_insert (hello, "hello", "s", "strobe-store");
  g_variant_dict_insert (hello, "protocol", "u", STROBE_STORE_PROTOCOL_VERSION);
  g_variant_dict_insert (hello, "auth", "s", "hmac-sha256");
  g_variant_dict_insert_value (hello, "nonce",
                               g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, client->server_nonce,
                                                          sizeof client->server_nonce, 1));
  send_dict (client, hello);
}

typedef struct
{
  const char *path;
  const char *verbs[3];
  void      (*handler) (Request *req);
} Endpoint;

static const Endpoint endpoints[] = {
  { "v1/status",        { "GET" },                  handle_status },
  { "v1/trace/list",    { "GET" },                  handle_trace_list },
  { "v1/trace/info",    { "GET" },                  handle_trace_info },
  { "v1/trace/read",    { "GET" },                  handle_trace_read },
  { "v1/trace/rename",  { "POST" },                 handle_trace_rename },
  { "v1/trace/delete",  { "DELETE", "POST" },       handle_trace_delete },
  { "v1/session/list",  { "GET" },                  handle_session_list },
  { "v1/session/info",  { "GET" },                  handle_session_info },
  { "v1/group/list",    { "GET" },                  handle_group_list },
  { "v1/group/info",    { "GET" },                  handle_group_info },
  { "v1/group/create",  { "POST" },                 handle_group_create },
  { "v1/group/delete",  { "DELETE", "POST" },       handle_group_delete },
  { "v1/subscribe",     { "POST", "GET" },          handle_subscribe },
  { "v1/auth/challenge", { "POST" },                handle_auth_challenge },
  { "v1/auth/proof",    { "POST" },                 handle_auth_proof },
};

static void
handle_request (Client       *client,
                const guint8 *body,
                gsize         len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) message = strobe_store_message_decode (body, len, &error);
  g_autoptr(GVariantDict) params = NULL;
  const char *verb = NULL;
  const char *path = NULL;
  Request req = { client };

  if (message == NULL)
    {
      send_error (client, FALSE, 0, STROBE_STORE_STATUS_BAD_REQUEST, error->message);
      if (!client->authed)
        client->closing = TRUE;   /* nothing but the exchange is accepted before it ends */
      return;
    }
  params = g_variant_dict_new (message);
  req.params = params;
  req.has_tag = g_variant_dict_lookup (params, "tag", "t", &req.tag);
  if (!req.has_tag && g_variant_dict_contains (params, "tag"))
    {
      send_error (client, FALSE, 0, STROBE_STORE_STATUS_BAD_REQUEST,
                  _("“tag” must be an unsigned integer"));
      return;
    }
  if (!g_variant_dict_lookup (params, "request", "&s", &verb)
      || !g_variant_dict_lookup (params, "path", "&s", &path))
    {
      send_error (client, req.has_tag, req.tag, STROBE_STORE_STATUS_BAD_REQUEST,
                  _("“request” and “path” must be text strings"));
      return;
    }

  if (!client->authed && !g_str_has_prefix (path, "v1/auth/"))
    {
      refuse_auth (&req, _("Authenticate first (v1/auth/challenge, then v1/auth/proof)"));
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (endpoints); i++)
    {
      if (!g_str_equal (endpoints[i].path, path))
        continue;
      for (guint v = 0; v < G_N_ELEMENTS (endpoints[i].verbs) && endpoints[i].verbs[v]; v++)
        if (g_str_equal (endpoints[i].verbs[v], verb))
          {
            endpoints[i].handler (&req);
            return;
          }
      send_error (client, req.has_tag, req.tag, STROBE_STORE_STATUS_METHOD_NOT_ALLOWED,
                  _("Method not allowed on this path"));
      return;
    }
  send_error (client, req.has_tag, req.tag, STROBE_STORE_STATUS_NOT_FOUND, _("No such path"));
}

/* ---- reading requests ----------------------------------------------------------------- */

static gboolean
deadline_cb (gpointer user_data)
{
  Client *client = user_data;

  g_message ("Store server: dropping %s: its request did not arrive within %d s",
             client->peer, STROBE_STORE_SERVER_REQUEST_TIMEOUT_S);
  g_clear_pointer (&client->deadline, g_source_unref);
  client_close (client, NULL);
  return G_SOURCE_REMOVE;
}

static void
client_body_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Client) client = user_data;
  g_autoptr(GError) error = NULL;
  gsize n = 0;

  if (client->deadline != NULL)
    {
      g_source_destroy (client->deadline);
      g_clear_pointer (&client->deadline, g_source_unref);
    }
  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &n, &error)
      || n < client->body_len)
    {
      client_close (client, error ? error->message : "closed inside a request");
      return;
    }
  if (client->server == NULL)
    return;

  client->requested = TRUE;
  client->last_request = g_get_monotonic_time ();
  handle_request (client, client->body, client->body_len);
  g_clear_pointer (&client->body, g_free);
  if (client->server == NULL || client->closing)
    return;

  /* A client that sends requests without reading the answers stops being read. */
  if (client->queued >= QUEUE_HIGH_WATER)
    client->reading_paused = TRUE;
  else
    client_read_header (client);
}

static void
client_header_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Client) client = user_data;
  g_autoptr(GError) error = NULL;
  gsize n = 0;
  guint32 len;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &n, &error) || n < 4)
    {
      client_close (client, error ? error->message : "end of stream");
      return;
    }
  if (client->server == NULL)
    return;

  memcpy (&len, client->header, 4);
  len = GUINT32_FROM_LE (len);
  if (len > STROBE_STORE_MAX_REQUEST)
    {
      g_autofree char *msg = g_strdup_printf (_("Requests are limited to %u bytes"),
                                              STROBE_STORE_MAX_REQUEST);
      /* The rest of the stream cannot be trusted to be framed: answer and hang up. */
      send_error (client, FALSE, 0, STROBE_STORE_STATUS_TOO_LARGE, msg);
      client->closing = TRUE;
      return;
    }
  if (len == 0)
    {
      send_error (client, FALSE, 0, STROBE_STORE_STATUS_BAD_REQUEST, _("Empty request"));
      if (!client->authed)
        client->closing = TRUE;
      else
        client_read_header (client);
      return;
    }

  client->body_len = len;
  client->body = g_malloc (len);
  client->deadline = g_timeout_source_new_seconds (STROBE_STORE_SERVER_REQUEST_TIMEOUT_S);
  g_source_set_callback (client->deadline, deadline_cb, client, NULL);
  g_source_set_static_name (client->deadline, "[strobe] store request deadline");
  g_source_attach (client->deadline, NULL);
  g_input_stream_read_all_async (client->in, client->body, len, G_PRIORITY_DEFAULT,
                                 client->cancellable, client_body_cb, client_ref (client));
}

static void
client_read_header (Client *client)
{
  g_input_stream_read_all_async (client->in, client->header, 4, G_PRIORITY_DEFAULT,
                                 client->cancellable, client_header_cb, client_ref (client));
}

static char *
format_peer (GSocketConnection *connection, char **peer_host, gboolean *loopback)
{
  g_autoptr(GSocketAddress) address = g_socket_connection_get_remote_address (connection, NULL);

  *loopback = FALSE;
  if (G_IS_INET_SOCKET_ADDRESS (address))
    {
      GInetAddress *ia = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address));
      g_autofree char *host = g_inet_address_to_string (ia);

      *loopback = g_inet_address_get_is_loopback (ia);
      *peer_host = g_strdup (host);
      return g_strdup_printf ("%s:%u", host,
                              g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address)));
    }
  *peer_host = g_strdup ("unknown");
  return g_strdup ("unknown");
}

/* How far a client is from being worth keeping: the larger, the sooner it goes. Not
 * authenticated yet: oldest first; then idle clients, longest idle first, those
 * reading a trace or subscribed to notifications after the others. */
static gint64
eviction_rank (Client *client, gint64 now)
{
  if (!client->authed)
    return G_MAXINT64 / 2 + (now - client->accepted);
  if (client->subscribed || client->reads->len > 0)
    return now - client->last_request;
  return G_MAXINT64 / 4 + (now - client->last_request);
}

/* Makes room for one more client, or says why not. */
static const char *
make_room (StrobeStoreServer *self, Client *newcomer)
{
  gint64 now = g_get_monotonic_time ();
  Client *victim = NULL;
  guint from_peer = 0;

  for (guint i = 0; i < self->clients->len; i++)
    {
      Client *c = g_ptr_array_index (self->clients, i);
      if (c != newcomer && !newcomer->loopback && g_str_equal (c->peer_host, newcomer->peer_host))
        from_peer++;
    }
  if (from_peer >= STROBE_STORE_SERVER_MAX_PER_PEER)
    return _("Too many clients from this address");
  if (self->clients->len <= STROBE_STORE_SERVER_MAX_CLIENTS)
    return NULL;
  for (guint i = 0; i < self->clients->len; i++)
    {
      Client *c = g_ptr_array_index (self->clients, i);
      if (c != newcomer && !c->closing && (victim == NULL || eviction_rank (c, now) > eviction_rank (victim, now)))
        victim = c;
    }
  if (victim == NULL)
    return _("Too many clients");
  g_message ("Store server: full; closing %s to make room", victim->peer);
  client_close (victim, "evicted to make room");
  return NULL;
}

static gboolean
sweep_cb (gpointer user_data)
{
  StrobeStoreServer *self = user_data;
  gint64 now = g_get_monotonic_time ();
  g_autoptr(GPtrArray) expired = g_ptr_array_new_with_free_func ((GDestroyNotify) client_unref);

  for (guint i = 0; i < self->clients->len; i++)
    {
      Client *c = g_ptr_array_index (self->clients, i);

      if ((!c->authed && now - c->accepted > STROBE_STORE_SERVER_FIRST_REQUEST_TIMEOUT_S * G_TIME_SPAN_SECOND)
          || (c->requested && !c->subscribed && c->reads->len == 0 && c->body == NULL
              && now - c->last_request > STROBE_STORE_SERVER_IDLE_TIMEOUT_S * G_TIME_SPAN_SECOND))
        g_ptr_array_add (expired, client_ref (c));
    }
  for (guint i = 0; i < expired->len; i++)
    {
      Client *c = g_ptr_array_index (expired, i);
      g_message ("Store server: dropping %s: %s", c->peer,
                 c->authed ? "idle" : "not authenticated in time");
      client_close (c, "timed out");
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             StrobeStoreServer *self)
{
  Client *client = g_rc_box_new0 (Client);

  client->server = self;
  client->connection = g_object_ref (connection);
  client->in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  client->out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  client->cancellable = g_cancellable_new ();
  client->peer = format_peer (connection, &client->peer_host, &client->loopback);
  client->reads = g_ptr_array_new ();
  client->accepted = g_get_monotonic_time ();
  g_queue_init (&client->queue);
  g_ptr_array_add (self->clients, client);

  {
    const char *refused = make_room (self, client);

    if (refused != NULL)
      {
        send_error (client, FALSE, 0, STROBE_STORE_STATUS_UNAVAILABLE, refused);
        client->closing = TRUE;
        return TRUE;
      }
  }
  if (!strobe_auth_nonce (client->server_nonce))
    {
      send_error (client, FALSE, 0, STROBE_STORE_STATUS_INTERNAL_ERROR, g_strerror (errno));
      client->closing = TRUE;
      return TRUE;
    }
  send_hello (client);
  client_read_header (client);
  return TRUE;
}

/* ---- notifications -------------------------------------------------------------------- */

static void
broadcast (StrobeStoreServer *self,
           const char        *event,
           const char        *key,
           GVariant          *payload)
{
  g_autoptr(GVariant) sunk = g_variant_ref_sink (payload);
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func ((GDestroyNotify) client_unref);

  for (guint i = 0; i < self->clients->len; i++)
    {
      Client *client = g_ptr_array_index (self->clients, i);
      if (client->subscribed)
        g_ptr_array_add (targets, client_ref (client));
    }
  for (guint i = 0; i < targets->len; i++)
    {
      GVariantDict *dict = g_variant_dict_new (NULL);

      g_variant_dict_insert (dict, "event", "s", event);
      g_variant_dict_insert_value (dict, key, sunk);
      g_variant_dict_insert (dict, "change_serial", "t", strobe_store_get_change_serial (self->store));
      send_dict (g_ptr_array_index (targets, i), dict);
    }
}

/* After a change to a trace of a session: group-changed, when the group's members or its
 * live state differ from what subscribers were last told (a live member grows four times a
 * second; that alone is no news for the group). */
static void
group_maybe_changed (StrobeStoreServer *self, const char *name)
{
  g_autoptr(StrobeStoreGroup) group = NULL;
  g_autofree char *signature = NULL;
  const char *told;

  if (name == NULL)
    return;
  group = strobe_store_dup_group (self->store, name);
  signature = group ? strobe_store_group_dup_signature (group) : g_strdup ("");
  told = g_hash_table_lookup (self->group_signatures, name);
  if (g_strcmp0 (told, signature) == 0 || (told == NULL && group == NULL))
    return;
  broadcast (self, "group-changed", "group", strobe_store_group_map (name, group));
  if (group != NULL)
    g_hash_table_insert (self->group_signatures, g_strdup (name), g_steal_pointer (&signature));
  else
    g_hash_table_remove (self->group_signatures, name);
}

/* The session group of @trace and every user group it is in. */
static void
groups_of_trace_maybe_changed (StrobeStoreServer *self, StrobeTrace *trace)
{
  g_auto(GStrv) user = strobe_store_dup_user_groups_of (self->store, strobe_trace_get_id (trace));

  group_maybe_changed (self, strobe_trace_get_session (trace));
  for (guint i = 0; user[i] != NULL; i++)
    group_maybe_changed (self, user[i]);
}

static void
trace_added_cb (StrobeStore *store, StrobeTrace *trace, StrobeStoreServer *self)
{
  broadcast (self, "trace-added", "trace", strobe_store_trace_map (trace));
  groups_of_trace_maybe_changed (self, trace);
}

static void
trace_changed_cb (StrobeStore *store, StrobeTrace *trace, StrobeStoreServer *self)
{
  broadcast (self, "trace-changed", "trace", strobe_store_trace_map (trace));
  groups_of_trace_maybe_changed (self, trace);
}

static void
trace_removed_cb (StrobeStore *store, StrobeTrace *trace, StrobeStoreServer *self)
{
  broadcast (self, "trace-removed", "trace", strobe_store_trace_map (trace));
  groups_of_trace_maybe_changed (self, trace);
}

static void
store_group_changed_cb (StrobeStore *store, const char *name, StrobeStoreServer *self)
{
  group_maybe_changed (self, name);
}

static void
session_added_cb (StrobeStore *store, StrobeLiveConnection *session, StrobeStoreServer *self)
{
  broadcast (self, "session-added", "session", strobe_store_session_map (session));
}

static void
session_removed_cb (StrobeStore *store, StrobeLiveConnection *session, StrobeStoreServer *self)
{
  broadcast (self, "session-removed", "session", strobe_store_session_map (session));
}

/* ---- the object ----------------------------------------------------------------------- */

gboolean
strobe_store_server_start (StrobeStoreServer  *self,
                           GError            **error)
{
  g_return_val_if_fail (STROBE_IS_STORE_SERVER (self), FALSE);
  g_return_val_if_fail (self->services->len == 0, FALSE);

  if (self->secret == NULL)
    {
      self->secret = strobe_store_secret_load (strobe_store_get_directory (self->store), TRUE, error);
      if (self->secret == NULL)
        return FALSE;
    }
  if (!strobe_listen_tcp (self->listen_address, self->port, G_CALLBACK (incoming_cb), self,
                          self->services, &self->bound_port, error))
    return FALSE;
  self->sweep_id = g_timeout_add_seconds (1, sweep_cb, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PORT]);
  return TRUE;
}

void
strobe_store_server_stop (StrobeStoreServer *self)
{
  g_return_if_fail (STROBE_IS_STORE_SERVER (self));

  for (guint i = 0; i < self->services->len; i++)
    {
      GSocketService *service = g_ptr_array_index (self->services, i);
      g_socket_service_stop (service);
      g_socket_listener_close (G_SOCKET_LISTENER (service));
    }
  g_ptr_array_set_size (self->services, 0);
  g_clear_handle_id (&self->sweep_id, g_source_remove);
  while (self->clients->len > 0)
    client_close (g_ptr_array_index (self->clients, self->clients->len - 1), "server stopped");
}

static void
strobe_store_server_constructed (GObject *object)
{
  StrobeStoreServer *self = STROBE_STORE_SERVER (object);

  G_OBJECT_CLASS (strobe_store_server_parent_class)->constructed (object);

  g_signal_connect_object (self->store, "trace-added", G_CALLBACK (trace_added_cb), self, 0);
  g_signal_connect_object (self->store, "trace-changed", G_CALLBACK (trace_changed_cb), self, 0);
  g_signal_connect_object (self->store, "trace-removed", G_CALLBACK (trace_removed_cb), self, 0);
  g_signal_connect_object (self->store, "session-added", G_CALLBACK (session_added_cb), self, 0);
  g_signal_connect_object (self->store, "session-removed", G_CALLBACK (session_removed_cb), self, 0);
  g_signal_connect_object (self->store, "group-changed", G_CALLBACK (store_group_changed_cb), self, 0);
}

static void
strobe_store_server_dispose (GObject *object)
{
  StrobeStoreServer *self = STROBE_STORE_SERVER (object);

  if (self->services != NULL)
    strobe_store_server_stop (self);

  G_OBJECT_CLASS (strobe_store_server_parent_class)->dispose (object);
}

static void
strobe_store_server_finalize (GObject *object)
{
  StrobeStoreServer *self = STROBE_STORE_SERVER (object);

  g_clear_pointer (&self->services, g_ptr_array_unref);
  g_clear_pointer (&self->clients, g_ptr_array_unref);
  g_clear_pointer (&self->group_signatures, g_hash_table_unref);
  g_clear_object (&self->store);
  g_free (self->listen_address);
  if (self->secret != NULL)
    strobe_auth_wipe (self->secret, strlen (self->secret));
  g_free (self->secret);

  G_OBJECT_CLASS (strobe_store_server_parent_class)->finalize (object);
}

static void
strobe_store_server_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StrobeStoreServer *self = STROBE_STORE_SERVER (object);

  switch (prop_id)
    {
    case PROP_STORE:          g_value_set_object (value, self->store); break;
    case PROP_PORT:           g_value_set_uint (value, strobe_store_server_get_port (self)); break;
    case PROP_LISTEN_ADDRESS: g_value_set_string (value, self->listen_address); break;
    case PROP_RECORDER_PORT:  g_value_set_uint (value, self->recorder_port); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_store_server_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StrobeStoreServer *self = STROBE_STORE_SERVER (object);

  switch (prop_id)
    {
    case PROP_STORE:          self->store = g_value_dup_object (value); break;
    case PROP_PORT:           strobe_store_server_set_port (self, (guint16) g_value_get_uint (value)); break;
    case PROP_LISTEN_ADDRESS: strobe_store_server_set_listen_address (self, g_value_get_string (value)); break;
    case PROP_RECORDER_PORT:  strobe_store_server_set_recorder_port (self, (guint16) g_value_get_uint (value)); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_store_server_class_init (StrobeStoreServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = strobe_store_server_constructed;
  object_class->dispose = strobe_store_server_dispose;
  object_class->finalize = strobe_store_server_finalize;
  object_class->get_property = strobe_store_server_get_property;
  object_class->set_property = strobe_store_server_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, STROBE_TYPE_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PORT] =
    g_param_spec_uint ("port", NULL, NULL, 0, G_MAXUINT16, STROBE_STORE_DEFAULT_PORT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LISTEN_ADDRESS] =
    g_param_spec_string ("listen-address", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RECORDER_PORT] =
    g_param_spec_uint ("recorder-port", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_store_server_init (StrobeStoreServer *self)
{
  self->port = STROBE_STORE_DEFAULT_PORT;
  self->services = g_ptr_array_new_with_free_func (g_object_unref);
  self->clients = g_ptr_array_new_with_free_func ((GDestroyNotify) client_unref);
  self->group_signatures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

StrobeStoreServer *
strobe_store_server_new (StrobeStore *store)
{
  g_return_val_if_fail (STROBE_IS_STORE (store), NULL);
  return g_object_new (STROBE_TYPE_STORE_SERVER, "store", store, NULL);
}

StrobeStore *
strobe_store_server_get_store (StrobeStoreServer *self)
{
  g_return_val_if_fail (STROBE_IS_STORE_SERVER (self), NULL);
  return self->store;
}

void
strobe_store_server_set_port (StrobeStoreServer *self,
                              guint16            port)
{
  g_return_if_fail (STROBE_IS_STORE_SERVER (self));
  g_return_if_fail (self->services->len == 0);

  if (self->port != port)
    {
      self->port = port;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PORT]);
    }
}

void
strobe_store_server_set_listen_address (StrobeStoreServer *self,
                                        const char        *address)
{
  g_return_if_fail (STROBE_IS_STORE_SERVER (self));
  g_return_if_fail (self->services->len == 0);

  if (address != NULL && *address == '\0')
    address = NULL;
  if (g_strcmp0 (self->listen_address, address) != 0)
    {
      g_free (self->listen_address);
      self->listen_address = g_strdup (address);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LISTEN_ADDRESS]);
    }
}

void
strobe_store_server_set_secret (StrobeStoreServer *self,
                                const char        *secret)
{
  g_return_if_fail (STROBE_IS_STORE_SERVER (self));
  g_return_if_fail (self->services->len == 0);
  g_return_if_fail (secret == NULL || *secret != '\0');

  if (self->secret != NULL)
    strobe_auth_wipe (self->secret, strlen (self->secret));
  g_free (self->secret);
  self->secret = g_strdup (secret);
}

void
strobe_store_server_set_recorder_port (StrobeStoreServer *self,
                                       guint16            port)
{
  g_return_if_fail (STROBE_IS_STORE_SERVER (self));

  if (self->recorder_port != port)
    {
      self->recorder_port = port;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDER_PORT]);
    }
}

guint16
strobe_store_server_get_port (StrobeStoreServer *self)
{
  g_return_val_if_fail (STROBE_IS_STORE_SERVER (self), 0);
  return self->services->len > 0 ? self->bound_port : self->port;
}

guint
strobe_store_server_get_n_clients (StrobeStoreServer *self)
{
  g_return_val_if_fail (STROBE_IS_STORE_SERVER (self), 0);
  return self->clients->len;
}
