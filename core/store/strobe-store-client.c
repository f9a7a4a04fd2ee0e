/* strobe-store-client.c — talks to a StrobeStoreServer with async GIO.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <glib/gi18n.h>

#include "strobe-auth.h"
#include "strobe-store-client.h"
#include "strobe-store-secret.h"
#include "strobe-store.h"

/* The server closes a client that has not authenticated within 10 s; the client does not
 * wait longer than that on a listener that never answers. */
#define AUTH_TIMEOUT_S 10

static void flush (StrobeStoreClient *self);

static void
secret_free (gpointer secret)
{
  strobe_auth_wipe (secret, strlen (secret));
  g_free (secret);
}

typedef enum
{
  AUTH_WAIT_HELLO,       /* step 1 */
  AUTH_WAIT_PROOF,       /* sent step 2, waiting for step 3 */
  AUTH_WAIT_ACCEPTED,    /* sent step 4 */
  AUTH_DONE,
} AuthStep;

struct _StrobeStoreClient
{
  GObject            parent_instance;
  GSocketConnection *connection;
  GInputStream      *in;
  GOutputStream     *out;
  GCancellable      *cancellable;
  GMainContext      *context;
  guint8             header[4];
  guint8            *body;
  gsize              body_len;
  GHashTable        *ops;        /* tag -> Op */
  guint64            next_tag;
  GQueue             queue;      /* GBytes to write */
  GBytes            *writing;
  gboolean           closed;
  /* The challenge–response (STORE-PROTOCOL.md §1a), until connect returns. */
  GTask             *connect_task;
  char              *secret;
  char              *peer;
  AuthStep           auth_step;
  guint              auth_timeout_id;
  guint8             server_nonce[STROBE_AUTH_NONCE_BYTES];
  guint8             client_nonce[STROBE_AUTH_NONCE_BYTES];
};

G_DEFINE_FINAL_TYPE (StrobeStoreClient, strobe_store_client, G_TYPE_OBJECT)

enum {
  EVENT,
  CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum
{
  OP_REQUEST,
  OP_READ,
} OpKind;

typedef struct
{
  StrobeStoreClient         *client;   /* unowned: the client owns its ops */
  GTask                     *task;
  guint64                    tag;
  OpKind                     kind;
  gboolean                   started;  /* read: the first response arrived */
  StrobeStoreClientDataFunc  func;
  gpointer                   func_data;
  gulong                     cancel_id;
} Op;

static void read_header (StrobeStoreClient *self);

static void
op_free (Op *op)
{
  if (op->cancel_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (op->task), op->cancel_id);
  g_clear_object (&op->task);
  g_free (op);
}

/* Completes and forgets an op. Takes @error. */
static void
op_fail (Op     *op,
         GError *error)
{
  GTask *task = g_object_ref (op->task);

  g_hash_table_remove (op->client->ops, &op->tag);
  g_task_return_error (task, error);
  g_object_unref (task);
}

static void
fail_all (StrobeStoreClient *self,
          const GError      *error)
{
  g_autoptr(GList) ops = g_hash_table_get_values (self->ops);

  for (GList *l = ops; l != NULL; l = l->next)
    op_fail (l->data, g_error_copy (error));
}

void
strobe_store_client_close (StrobeStoreClient *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (STROBE_IS_STORE_CLIENT (self));

  if (self->closed)
    return;
  self->closed = TRUE;
  g_clear_handle_id (&self->auth_timeout_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  if (self->connection != NULL)
    g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
  error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                               _("The connection to the store closed"));
  fail_all (self, error);
  if (self->connect_task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                               _("The store at %s closed the connection before authentication finished"),
                               self->peer);
    }
  g_signal_emit (self, signals[CLOSED], 0);
}

gboolean
strobe_store_client_is_closed (StrobeStoreClient *self)
{
  g_return_val_if_fail (STROBE_IS_STORE_CLIENT (self), TRUE);
  return self->closed;
}

static GError *
error_for_response (GVariant *response)
{
  guint64 status = 0;
  const char *message = NULL;
  int code;

  /* CBOR integers always decode as uint64. */
  g_variant_lookup (response, "status", "t", &status);
  g_variant_lookup (response, "error", "&s", &message);
  code = status == STROBE_STORE_STATUS_NOT_FOUND ? STROBE_STORE_ERROR_NOT_FOUND
       : status == STROBE_STORE_STATUS_CONFLICT ? STROBE_STORE_ERROR_BUSY
       : STROBE_STORE_ERROR_REMOTE;
  return g_error_new (STROBE_STORE_ERROR, code, "%" G_GUINT64_FORMAT ": %s", status,
                      message ? message : "");
}

/* CBOR integers decode as uint64; status 200 is the success test everywhere. */
static gboolean
response_ok (GVariant *response)
{
  guint64 status = 0;

  return g_variant_lookup (response, "status", "t", &status) && status == STROBE_STORE_STATUS_OK;
}

static void
send_message (StrobeStoreClient *self, GVariantDict *dict)
{
  g_queue_push_tail (&self->queue, strobe_store_message_encode (g_variant_dict_end (dict)));
  flush (self);
}

/* Ends the exchange: hands the client to connect's caller, or closes it with @error. */
static void
auth_finish (StrobeStoreClient *self, GError *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  g_clear_handle_id (&self->auth_timeout_id, g_source_remove);
  if (self->secret != NULL)
    secret_free (g_steal_pointer (&self->secret));
  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }
  if (error == NULL)
    {
      self->auth_step = AUTH_DONE;
      g_task_return_pointer (task, g_object_ref (self), g_object_unref);
      return;
    }
  g_task_return_error (task, error);
  strobe_store_client_close (self);
}

static gboolean
auth_timeout_cb (gpointer user_data)
{
  StrobeStoreClient *self = user_data;

  self->auth_timeout_id = 0;
  auth_finish (self, g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                  _("%s did not complete authentication within %d s"),
                                  self->peer, AUTH_TIMEOUT_S));
  return G_SOURCE_REMOVE;
}

static gboolean
lookup_32 (GVariant *message, const char *key, guint8 out[32])
{
  g_autoptr(GVariant) v = g_variant_lookup_value (message, key, NULL);

  return strobe_store_message_get_fixed_bytes (v, out, 32);
}

/* The client's side of core/protocol/AUTH.md: the server proves itself before the client
 * sends anything that depends on the secret. */
static void
auth_dispatch (StrobeStoreClient *self, GVariant *message)
{
  const char *hello = NULL;
  guint64 status = 0;
  GVariantDict dict;

  if (g_variant_lookup (message, "status", "t", &status) && status != STROBE_STORE_STATUS_OK)
    {
      g_autoptr(GError) remote = error_for_response (message);

      auth_finish (self, g_error_new (STROBE_STORE_ERROR,
                                      status == STROBE_STORE_STATUS_UNAUTHORIZED
                                      ? STROBE_STORE_ERROR_AUTH : STROBE_STORE_ERROR_REMOTE,
                                      _("The store at %s refused the connection: %s"),
                                      self->peer, remote->message));
      return;
    }
  switch (self->auth_step)
    {
    case AUTH_WAIT_HELLO:
      if (!g_variant_lookup (message, "hello", "&s", &hello) || !g_str_equal (hello, "strobe-store")
          || !lookup_32 (message, "nonce", self->server_nonce))
        {
          auth_finish (self, g_error_new (STROBE_STORE_ERROR, STROBE_STORE_ERROR_PROTOCOL,
                                          _("%s is not a Strobe store of protocol version %d or later"),
                                          self->peer, STROBE_STORE_PROTOCOL_VERSION));
          return;
        }
      if (!strobe_auth_nonce (self->client_nonce))
        {
          int saved = errno;
          auth_finish (self, g_error_new (STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                                          _("No randomness for authentication: %s"), g_strerror (saved)));
          return;
        }
      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "request", "s", "POST");
      g_variant_dict_insert (&dict, "path", "s", "v1/auth/challenge");
      g_variant_dict_insert_value (&dict, "nonce",
                                   g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, self->client_nonce,
                                                              sizeof self->client_nonce, 1));
      self->auth_step = AUTH_WAIT_PROOF;
      send_message (self, &dict);
      return;

    case AUTH_WAIT_PROOF:
      {
        guint8 proof[STROBE_AUTH_PROOF_BYTES];

        /* Whoever answered must prove it knows the secret before we do: a listener that
         * is not our store (another user's, on another loopback address) learns nothing. */
        if (!lookup_32 (message, "proof", proof)
            || !strobe_auth_check ("store", STROBE_AUTH_SERVER, self->secret, strlen (self->secret),
                                   self->server_nonce, self->client_nonce, proof))
          {
            auth_finish (self, g_error_new (STROBE_STORE_ERROR, STROBE_STORE_ERROR_AUTH,
                                            _("The server at %s could not prove it knows the store secret: it is not your store, or its secret differs"),
                                            self->peer));
            return;
          }
        if (!strobe_auth_proof ("store", STROBE_AUTH_CLIENT, self->secret, strlen (self->secret),
                                self->server_nonce, self->client_nonce, proof))
          {
            auth_finish (self, g_error_new_literal (STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET,
                                                    g_strerror (errno)));
            return;
          }
        g_variant_dict_init (&dict, NULL);
        g_variant_dict_insert (&dict, "request", "s", "POST");
        g_variant_dict_insert (&dict, "path", "s", "v1/auth/proof");
        g_variant_dict_insert_value (&dict, "proof",
                                     g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, proof, sizeof proof, 1));
        strobe_auth_wipe (proof, sizeof proof);
        self->auth_step = AUTH_WAIT_ACCEPTED;
        send_message (self, &dict);
        return;
      }

    case AUTH_WAIT_ACCEPTED:
      auth_finish (self, NULL);
      return;

    case AUTH_DONE:
    default:
      g_assert_not_reached ();
    }
}

static void
dispatch (StrobeStoreClient *self,
          GVariant          *message)
{
  const char *event = NULL;
  guint64 tag;
  Op *op;

  if (self->auth_step != AUTH_DONE)
    {
      auth_dispatch (self, message);
      return;
    }

  if (g_variant_lookup (message, "event", "&s", &event))
    {
      g_signal_emit (self, signals[EVENT], 0, event, message);
      return;
    }
  if (!g_variant_lookup (message, "tag", "t", &tag)
      || (op = g_hash_table_lookup (self->ops, &tag)) == NULL)
    return;   /* a late answer to something cancelled */

  if (op->kind == OP_REQUEST)
    {
      GTask *task = g_object_ref (op->task);

      g_hash_table_remove (self->ops, &tag);
      if (response_ok (message))
        g_task_return_pointer (task, g_variant_ref (message), (GDestroyNotify) g_variant_unref);
      else
        g_task_return_error (task, error_for_response (message));
      g_object_unref (task);
      return;
    }

  /* A read: first a response, then data messages, then one with end = true. */
  if (!op->started)
    {
      if (!response_ok (message))
        {
          op_fail (op, error_for_response (message));
          return;
        }
      op->started = TRUE;
      return;
    }
  {
    g_autoptr(GVariant) data = g_variant_lookup_value (message, "data", G_VARIANT_TYPE_BYTESTRING);
    gboolean end = FALSE;

    if (data != NULL && op->func != NULL)
      {
        guint64 offset = 0;
        gsize len;
        const guint8 *bytes = g_variant_get_fixed_array (data, &len, 1);

        g_variant_lookup (message, "offset", "t", &offset);
        op->func (bytes, len, offset, op->func_data);
      }
    if (g_variant_lookup (message, "end", "b", &end) && end)
      {
        GTask *task = g_object_ref (op->task);
        const char *status = "unknown";

        g_hash_table_remove (self->ops, &tag);
        if (response_ok (message))
          {
            g_variant_lookup (message, "trace_status", "&s", &status);
            g_task_return_pointer (task, g_strdup (status), g_free);
          }
        else
          g_task_return_error (task, error_for_response (message));
        g_object_unref (task);
      }
  }
}

static void
body_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StrobeStoreClient) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) message = NULL;
  gsize n = 0;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &n, &error)
      || n < self->body_len)
    {
      strobe_store_client_close (self);
      return;
    }
  message = strobe_store_message_decode (self->body, self->body_len, &error);
  g_clear_pointer (&self->body, g_free);
  if (message == NULL)
    {
      /* A message, not a warning: a peer that is not a store is not our bug. */
      g_message ("Store client: the server sent a malformed message: %s", error->message);
      if (self->connect_task != NULL)
        auth_finish (self, g_error_new (STROBE_STORE_ERROR, STROBE_STORE_ERROR_PROTOCOL,
                                        _("%s sent a malformed message: %s"), self->peer,
                                        error->message));
      strobe_store_client_close (self);
      return;
    }
  dispatch (self, message);
  if (!self->closed)
    read_header (self);
}

static void
header_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StrobeStoreClient) self = user_data;
  g_autoptr(GError) error = NULL;
  gsize n = 0;
  guint32 len;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &n, &error) || n < 4)
    {
      strobe_store_client_close (self);
      return;
    }
  memcpy (&len, self->header, 4);
  len = GUINT32_FROM_LE (len);
  if (len == 0 || len > STROBE_STORE_MAX_MESSAGE)
    {
      g_message ("Store client: the server sent a message of %u bytes", len);
      if (self->connect_task != NULL)
        auth_finish (self, g_error_new (STROBE_STORE_ERROR, STROBE_STORE_ERROR_PROTOCOL,
                                        _("%s sent a message of %u bytes"), self->peer, len));
      strobe_store_client_close (self);
      return;
    }
  self->body_len = len;
  self->body = g_malloc (len);
  g_input_stream_read_all_async (self->in, self->body, len, G_PRIORITY_DEFAULT,
                                 self->cancellable, body_cb, g_object_ref (self));
}

static void
read_header (StrobeStoreClient *self)
{
  g_input_stream_read_all_async (self->in, self->header, 4, G_PRIORITY_DEFAULT,
                                 self->cancellable, header_cb, g_object_ref (self));
}

static void
write_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StrobeStoreClient) self = user_data;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->writing, g_bytes_unref);
  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    {
      strobe_store_client_close (self);
      return;
    }
  flush (self);
}

static void
flush (StrobeStoreClient *self)
{
  gsize len;
  const guint8 *data;

  if (self->closed || self->writing != NULL || g_queue_is_empty (&self->queue))
    return;
  self->writing = g_queue_pop_head (&self->queue);
  data = g_bytes_get_data (self->writing, &len);
  g_output_stream_write_all_async (self->out, data, len, G_PRIORITY_DEFAULT, self->cancellable,
                                   write_cb, g_object_ref (self));
}

typedef struct
{
  GWeakRef client;
  guint64  tag;
} CancelData;

static gboolean
cancel_idle_cb (gpointer user_data)
{
  CancelData *data = user_data;
  g_autoptr(StrobeStoreClient) self = g_weak_ref_get (&data->client);
  Op *op;

  if (self != NULL && (op = g_hash_table_lookup (self->ops, &data->tag)) != NULL)
    {
      op_fail (op, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled")));
    }
  return G_SOURCE_REMOVE;
}

static void
cancel_data_free (gpointer user_data)
{
  CancelData *data = user_data;

  g_weak_ref_clear (&data->client);
  g_free (data);
}

static void
cancelled_cb (GCancellable *cancellable,
              Op           *op)
{
  /* Possibly another thread: finish the op on the client's own context. */
  CancelData *data = g_new0 (CancelData, 1);
  GSource *source = g_idle_source_new ();

  g_weak_ref_init (&data->client, op->client);
  data->tag = op->tag;
  g_source_set_callback (source, cancel_idle_cb, data, cancel_data_free);
  g_source_attach (source, op->client->context);
  g_source_unref (source);
}

static Op *
start_op (StrobeStoreClient   *self,
          OpKind               kind,
          const char          *verb,
          const char          *path,
          GVariant            *params,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data,
          gpointer             source_tag)
{
  g_autoptr(GVariant) sunk = params ? g_variant_ref_sink (params) : NULL;
  GVariantDict dict;
  Op *op = g_new0 (Op, 1);

  op->client = self;
  op->kind = kind;
  op->tag = ++self->next_tag;
  op->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (op->task, source_tag);

  if (self->closed)
    {
      g_task_return_new_error (op->task, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                               _("The connection to the store closed"));
      op_free (op);
      return NULL;
    }

  g_variant_dict_init (&dict, sunk);
  g_variant_dict_insert (&dict, "request", "s", verb);
  g_variant_dict_insert (&dict, "path", "s", path);
  g_variant_dict_insert (&dict, "tag", "t", op->tag);
  g_queue_push_tail (&self->queue, strobe_store_message_encode (g_variant_dict_end (&dict)));
  g_hash_table_insert (self->ops, &op->tag, op);
  if (cancellable != NULL)
    op->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), op, NULL);
  flush (self);
  return op;
}

void
strobe_store_client_request_async (StrobeStoreClient   *self,
                                   const char          *verb,
                                   const char          *path,
                                   GVariant            *params,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (STROBE_IS_STORE_CLIENT (self));
  start_op (self, OP_REQUEST, verb, path, params, cancellable, callback, user_data,
            strobe_store_client_request_async);
}

GVariant *
strobe_store_client_request_finish (StrobeStoreClient  *self,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
strobe_store_client_read_trace_async (StrobeStoreClient         *self,
                                      const char                *id,
                                      guint64                    offset,
                                      gboolean                   follow,
                                      StrobeStoreClientDataFunc  func,
                                      gpointer                   func_data,
                                      GCancellable              *cancellable,
                                      GAsyncReadyCallback        callback,
                                      gpointer                   user_data)
{
  GVariantDict params;
  Op *op;

  g_return_if_fail (STROBE_IS_STORE_CLIENT (self));

  g_variant_dict_init (&params, NULL);
  g_variant_dict_insert (&params, "id", "s", id);
  g_variant_dict_insert (&params, "offset", "t", offset);
  g_variant_dict_insert (&params, "follow", "b", follow);
  op = start_op (self, OP_READ, "GET", "v1/trace/read", g_variant_dict_end (&params),
                 cancellable, callback, user_data, strobe_store_client_read_trace_async);
  if (op != NULL)
    {
      op->func = func;
      op->func_data = func_data;
    }
}

char *
strobe_store_client_read_trace_finish (StrobeStoreClient  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
subscribe_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) response = strobe_store_client_request_finish (STROBE_STORE_CLIENT (source),
                                                                     result, &error);

  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
strobe_store_client_subscribe_async (StrobeStoreClient   *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STROBE_IS_STORE_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, strobe_store_client_subscribe_async);
  strobe_store_client_request_async (self, "POST", "v1/subscribe", NULL, cancellable,
                                     subscribe_cb, task);
}

gboolean
strobe_store_client_subscribe_finish (StrobeStoreClient  *self,
                                      GAsyncResult       *result,
                                      GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
connect_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) connection =
    g_socket_client_connect_to_host_finish (G_SOCKET_CLIENT (source), result, &error);
  g_autoptr(StrobeStoreClient) self = NULL;
  char *secret = g_task_get_task_data (task);

  if (connection == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  self = g_object_new (STROBE_TYPE_STORE_CLIENT, NULL);
  self->connection = g_steal_pointer (&connection);
  self->in = g_io_stream_get_input_stream (G_IO_STREAM (self->connection));
  self->out = g_io_stream_get_output_stream (G_IO_STREAM (self->connection));
  {
    g_autoptr(GSocketAddress) address =
      g_socket_connection_get_remote_address (self->connection, NULL);

    self->peer = address != NULL && G_IS_INET_SOCKET_ADDRESS (address)
                 ? g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address)))
                 : g_strdup ("?");
  }
  self->secret = g_strdup (secret);
  self->connect_task = g_steal_pointer (&task);
  self->auth_step = AUTH_WAIT_HELLO;
  self->auth_timeout_id = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, AUTH_TIMEOUT_S,
                                                      auth_timeout_cb, g_object_ref (self),
                                                      g_object_unref);
  read_header (self);
}

void
strobe_store_client_connect_async (const char          *host,
                                   guint16              port,
                                   const char          *secret,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GSocketClient) socket_client = NULL;
  g_autoptr(GError) error = NULL;
  GTask *task;
  char *own = NULL;

  g_return_if_fail (host != NULL);
  g_return_if_fail (secret == NULL || *secret != '\0');

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, strobe_store_client_connect_async);
  if (secret != NULL)
    own = g_strdup (secret);
  else
    {
      g_autofree char *dir = strobe_store_dup_default_directory ();

      own = strobe_store_secret_load (dir, FALSE, &error);
      if (own == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
    }
  g_task_set_task_data (task, own, secret_free);
  socket_client = g_socket_client_new ();
  g_socket_client_connect_to_host_async (socket_client, host, port, cancellable, connect_cb, task);
}

StrobeStoreClient *
strobe_store_client_connect_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
strobe_store_client_dispose (GObject *object)
{
  StrobeStoreClient *self = STROBE_STORE_CLIENT (object);

  strobe_store_client_close (self);

  G_OBJECT_CLASS (strobe_store_client_parent_class)->dispose (object);
}

static void
strobe_store_client_finalize (GObject *object)
{
  StrobeStoreClient *self = STROBE_STORE_CLIENT (object);

  g_hash_table_unref (self->ops);
  g_queue_clear_full (&self->queue, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&self->writing, g_bytes_unref);
  g_clear_pointer (&self->body, g_free);
  g_clear_object (&self->connection);
  g_clear_object (&self->cancellable);
  if (self->secret != NULL)
    secret_free (g_steal_pointer (&self->secret));
  g_free (self->peer);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (strobe_store_client_parent_class)->finalize (object);
}

static void
strobe_store_client_class_init (StrobeStoreClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_store_client_dispose;
  object_class->finalize = strobe_store_client_finalize;

  /* (name, message a{sv}): a change the server pushed after subscribe. */
  signals[EVENT] = g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                 G_TYPE_STRING, G_TYPE_VARIANT);
  signals[CLOSED] = g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strobe_store_client_init (StrobeStoreClient *self)
{
  self->cancellable = g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  self->ops = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, (GDestroyNotify) op_free);
  g_queue_init (&self->queue);
}
