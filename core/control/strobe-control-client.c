/* strobe-control-client.c — the control client: blocking calls over a GSocketConnection,
 * async ones queued to a single worker thread so they run in order.
 *
 * Each connection starts with the challenge–response of core/protocol/AUTH.md (its lines
 * are in runtime/CONTROL.md, "Authentication"): the program proves it knows the secret
 * before we prove anything, and the secret itself never crosses the wire. A program on
 * this machine is reached only at the exact address its discovery file names. Replies are
 * read with a limit: a fake server cannot make us buffer a line without end.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-control-client.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "strobe-auth.h"
#include "strobe-control-address.h"
#include "strobe-discovery.h"

G_DEFINE_QUARK (strobe-control-error-quark, strobe_control_error)

/* Busy programs: attempts, and the first pause between them (doubled each time). */
#define CONNECT_ATTEMPTS 5
#define RETRY_BASE_MS    50u

struct _StrobeControlClient
{
  GObject             parent_instance;
  char               *host;
  guint16             port;
  guint               timeout;
  char               *secret;
  char               *discovery_dir;
  GSocketConnection  *connection;
  GBufferedInputStream *input;
  GThreadPool        *pool;       /* async commands, one at a time, in order */
};

G_DEFINE_FINAL_TYPE (StrobeControlClient, strobe_control_client, G_TYPE_OBJECT)

static void
strobe_control_client_finalize (GObject *object)
{
  StrobeControlClient *self = STROBE_CONTROL_CLIENT (object);

  if (self->pool)
    g_thread_pool_free (self->pool, FALSE, TRUE);
  strobe_control_client_close (self);
  g_free (self->host);
  g_free (self->secret);
  g_free (self->discovery_dir);
  G_OBJECT_CLASS (strobe_control_client_parent_class)->finalize (object);
}

static void
strobe_control_client_class_init (StrobeControlClientClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_control_client_finalize;
}

static void
strobe_control_client_init (StrobeControlClient *self)
{
  self->timeout = 10;
}

StrobeControlClient *
strobe_control_client_new (const char *host, guint16 port)
{
  StrobeControlClient *self;

  g_return_val_if_fail (host != NULL, NULL);
  self = g_object_new (STROBE_TYPE_CONTROL_CLIENT, NULL);
  self->host = g_strdup (host);
  self->port = port ? port : STROBE_CONTROL_DEFAULT_PORT;
  return self;
}

const char *
strobe_control_client_get_host (StrobeControlClient *self)
{
  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (self), NULL);
  return self->host;
}

guint16
strobe_control_client_get_port (StrobeControlClient *self)
{
  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (self), 0);
  return self->port;
}

void
strobe_control_client_set_timeout (StrobeControlClient *self, guint seconds)
{
  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  self->timeout = seconds;
  if (self->connection)
    g_socket_set_timeout (g_socket_connection_get_socket (self->connection), seconds);
}

void
strobe_control_client_set_secret (StrobeControlClient *self, const char *secret)
{
  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  g_free (self->secret);
  self->secret = g_strdup (secret);
  /* The secret proves each connection once: the next command connects again with it. */
  strobe_control_client_close (self);
}

void
strobe_control_client_set_discovery_directory (StrobeControlClient *self, const char *directory)
{
  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  g_free (self->discovery_dir);
  self->discovery_dir = g_strdup (directory);
}

static gboolean
host_is_local (const char *host)
{
  g_autoptr (GInetAddress) address = g_inet_address_new_from_string (host);

  if (address)
    return g_inet_address_get_is_loopback (address);
  return g_ascii_strcasecmp (host, "localhost") == 0;
}

/* Where to connect and the key to prove with. A program on this machine is reached at the
 * exact address its discovery file names — not "localhost" as the resolver spells it
 * ([::1] first on Debian) nor another loopback address, where another user may listen and
 * relay — and its secret comes from that file unless one was given (set_secret, else
 * STROBE_CONTROL_SECRET). A remote program is reached as named, with a given secret only:
 * no secret of ours is ever used for another host. *secret may be NULL: no authentication
 * (the program refuses the commands). */
static gboolean
choose_peer (StrobeControlClient *self, char **address, char **secret, GError **error)
{
  const char *env = g_getenv ("STROBE_CONTROL_SECRET");
  const char *given = self->secret ? self->secret : env && *env ? env : NULL;
  g_autoptr (StrobeDiscovery) programs = NULL;
  g_autoptr (StrobeProcessInfo) info = NULL;

  if (!host_is_local (self->host))
    {
      *address = g_strdup (self->host);
      *secret = g_strdup (given);
      return TRUE;
    }
  programs = strobe_discovery_new (self->discovery_dir);
  info = strobe_discovery_lookup_port (programs, self->port);
  if (info != NULL)
    {
      const char *announced = strobe_process_info_get_control_address (info);

      *address = g_strdup (announced ? announced : "127.0.0.1");
      *secret = g_strdup (given ? given : strobe_process_info_get_control_secret (info));
      return TRUE;
    }
  if (given == NULL)
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_FOUND,
                   _("No program of yours announces control port %u on this machine (see "
                     "“strobe-cli ps”); for another user's program, give its secret in "
                     "STROBE_CONTROL_SECRET"), self->port);
      return FALSE;
    }
  /* The runtime listens on 127.0.0.1, never on [::1]. */
  *address = g_strdup (g_ascii_strcasecmp (self->host, "localhost") == 0 ? "127.0.0.1" : self->host);
  *secret = g_strdup (given);
  return TRUE;
}

/* One line of at most STROBE_CONTROL_MAX_REPLY bytes (its LF, and a CR before it, cut). */
static char *
read_reply_line (StrobeControlClient *self, GCancellable *cancellable, GError **error)
{
  for (;;)
    {
      gsize available;
      const char *data = g_buffered_input_stream_peek_buffer (self->input, &available);
      const char *nl = memchr (data, '\n', available);
      gssize n;

      if (nl || available > STROBE_CONTROL_MAX_REPLY)
        {
          gsize len = nl ? (gsize) (nl - data) : available;
          char *line;

          if (len > STROBE_CONTROL_MAX_REPLY)
            {
              g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL,
                           "The program's reply is longer than %u bytes", STROBE_CONTROL_MAX_REPLY);
              return NULL;
            }
          line = g_strndup (data, len);
          if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
          g_input_stream_skip (G_INPUT_STREAM (self->input), len + 1, NULL, NULL);
          return line;
        }
      if (g_buffered_input_stream_get_buffer_size (self->input) < available + 4096)
        g_buffered_input_stream_set_buffer_size (self->input, MIN (available * 2 + 4096,
                                                                   STROBE_CONTROL_MAX_REPLY + 2));
      n = g_buffered_input_stream_fill (self->input, -1, cancellable, error);
      if (n < 0)
        return NULL;
      if (n == 0)
        return NULL;   /* closed: the caller says so */
    }
}

/* A reply to a step of the exchange that is not the expected one: the program's own
 * refusal (busy: evicted for a newcomer, too many connections, paused after failures —
 * worth a retry), or the connection closed, or something that is no control server. */
static void
handshake_error (const char *where, const char *line, GError **error)
{
  if (error && *error)
    return;
  if (line == NULL)
    g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL,
                 _("%s closed the control connection during authentication"), where);
  else if (g_str_has_prefix (line, "error busy: "))
    g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_BUSY, "%s", line + 12);
  else if (g_str_has_prefix (line, "error "))
    g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED, "%s", line + 6);
  else
    g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL,
                 _("%s is not a Strobe control server: it said “%.80s”"), where, line);
}

static gboolean
send_line (StrobeControlClient *self, const char *line, GCancellable *cancellable, GError **error)
{
  return g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (self->connection)),
                                    line, strlen (line), NULL, cancellable, error);
}

/* The client's half of runtime/CONTROL.md, "Authentication": the program proves first,
 * so a listener that is not the program gets nothing it could use. */
static gboolean
authenticate (StrobeControlClient *self, const char *where, const char *secret,
              GCancellable *cancellable, GError **error)
{
  static const char greeting_prefix[] = "strobe-control challenge ";
  uint8_t server_nonce[STROBE_AUTH_NONCE_BYTES], client_nonce[STROBE_AUTH_NONCE_BYTES];
  char nonce_hex[STROBE_AUTH_HEX_SIZE], proof_hex[STROBE_AUTH_HEX_SIZE];
  g_autofree char *greeting = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *line = NULL;
  gsize secret_len = secret ? strlen (secret) : 0;

  greeting = read_reply_line (self, cancellable, error);
  if (greeting == NULL || !g_str_has_prefix (greeting, greeting_prefix)
      || !strobe_hex_decode (greeting + sizeof greeting_prefix - 1,
                             strlen (greeting + sizeof greeting_prefix - 1), server_nonce,
                             sizeof server_nonce))
    {
      handshake_error (where, greeting, error);
      return FALSE;
    }
  if (secret == NULL)
    return TRUE;   /* the program will say what it wants */
  if (!strobe_auth_nonce (client_nonce))
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   _("No randomness for the control challenge: %s"), g_strerror (errno));
      return FALSE;
    }
  strobe_hex_encode (client_nonce, sizeof client_nonce, nonce_hex, sizeof nonce_hex);
  line = g_strconcat ("auth ", nonce_hex, "\n", NULL);
  if (!send_line (self, line, cancellable, error))
    return FALSE;
  answer = read_reply_line (self, cancellable, error);
  if (answer == NULL || !g_str_has_prefix (answer, "ok auth "))
    {
      handshake_error (where, answer, error);
      return FALSE;
    }
  if (!strobe_auth_check_hex ("control", STROBE_AUTH_SERVER, secret, secret_len, server_nonce,
                              client_nonce, answer + 8, strlen (answer + 8)))
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_NOT_AUTHENTIC,
                   _("The control server at %s could not prove it knows the program's control "
                     "secret: it is not the program (or the secret is not this program's). "
                     "It was told nothing about the secret."), where);
      return FALSE;
    }
  g_clear_pointer (&line, g_free);
  strobe_auth_proof_hex ("control", STROBE_AUTH_CLIENT, secret, secret_len, server_nonce,
                         client_nonce, proof_hex);
  line = g_strconcat ("auth-proof ", proof_hex, "\n", NULL);
  strobe_auth_wipe (proof_hex, sizeof proof_hex);
  if (!send_line (self, line, cancellable, error))
    return FALSE;
  verdict = read_reply_line (self, cancellable, error);
  if (verdict == NULL || !g_str_equal (verdict, "ok authenticated"))
    {
      handshake_error (where, verdict, error);
      return FALSE;
    }
  return TRUE;
}

/* One connection and its exchange; the caller retries when the program was busy. */
static gboolean
connect_once (StrobeControlClient *self, const char *address, const char *where,
              const char *secret, GCancellable *cancellable, GError **error)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();

  g_socket_client_set_timeout (client, self->timeout);
  self->connection = g_socket_client_connect_to_host (client, address, self->port, cancellable, error);
  if (self->connection == NULL)
    return FALSE;
  g_socket_set_timeout (g_socket_connection_get_socket (self->connection), self->timeout);
  self->input = G_BUFFERED_INPUT_STREAM (
    g_buffered_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (self->connection))));
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (self->input), FALSE);
  /* An empty line at once (a keep-alive, ignored): a program flooded with connections that
   * say nothing sees that this one talks, and never evicts it for a newcomer. */
  if (!send_line (self, "\n", cancellable, error) || !authenticate (self, where, secret, cancellable, error))
    {
      strobe_control_client_close (self);
      return FALSE;
    }
  return TRUE;
}

gboolean
strobe_control_client_connect (StrobeControlClient *self, GCancellable *cancellable, GError **error)
{
  g_autofree char *address = NULL;
  g_autofree char *secret = NULL;
  g_autofree char *where = NULL;

  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (self), FALSE);
  if (self->connection)
    return TRUE;
  if (!choose_peer (self, &address, &secret, error))
    return FALSE;
  where = strchr (address, ':') ? g_strdup_printf ("[%s]:%u", address, self->port)
                                : g_strdup_printf ("%s:%u", address, self->port);
  /* A program flooded with connections evicts silent ones and says so ("busy"): try again
   * a few times, a little later each time. */
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr (GError) local = NULL;

      if (connect_once (self, address, where, secret, cancellable, &local))
        break;
      if (attempt + 1 >= CONNECT_ATTEMPTS
          || !g_error_matches (local, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_BUSY)
          || g_cancellable_is_cancelled (cancellable))
        {
          if (g_error_matches (local, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_BUSY))
            /* Translators: the program's own reason follows (in English) */
            g_prefix_error (&local, _("The program at %s is busy (tried %u times): "), where, attempt + 1);
          g_propagate_error (error, g_steal_pointer (&local));
          if (secret)
            strobe_auth_wipe (secret, strlen (secret));
          return FALSE;
        }
      g_usleep ((gulong) (RETRY_BASE_MS << attempt) * 1000);
    }
  if (secret)
    strobe_auth_wipe (secret, strlen (secret));
  return TRUE;
}

void
strobe_control_client_close (StrobeControlClient *self)
{
  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  g_clear_object (&self->input);
  if (self->connection)
    g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
  g_clear_object (&self->connection);
}

char *
strobe_control_client_send (StrobeControlClient *self, const char *command,
                            GCancellable *cancellable, GError **error)
{
  g_autofree char *line = NULL;
  g_autofree char *reply = NULL;
  GOutputStream *out;

  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (self), NULL);
  g_return_val_if_fail (command != NULL, NULL);
  if (strpbrk (command, "\r\n") || *command == '\0')
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID,
                   "A control command is one non-empty line");
      return NULL;
    }
  if (!strobe_control_client_connect (self, cancellable, error))
    return NULL;
  line = g_strconcat (command, "\n", NULL);
  out = g_io_stream_get_output_stream (G_IO_STREAM (self->connection));
  if (!g_output_stream_write_all (out, line, strlen (line), NULL, cancellable, error))
    {
      strobe_control_client_close (self);
      return NULL;
    }
  reply = read_reply_line (self, cancellable, error);
  if (reply == NULL)
    {
      if (error && *error == NULL)
        g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL,
                     "The program closed the control connection without a reply");
      strobe_control_client_close (self);
      return NULL;
    }
  if (g_str_equal (reply, "ok"))
    return g_strdup ("");
  if (g_str_has_prefix (reply, "ok "))
    return g_strdup (reply + 3);
  if (g_str_has_prefix (reply, "error"))
    {
      const char *text = reply + 5;
      while (*text == ' ')
        text++;
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_REFUSED, "%s",
                   *text ? text : "refused");
      return NULL;
    }
  g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_PROTOCOL,
               "Unexpected control reply: %s", reply);
  strobe_control_client_close (self);
  return NULL;
}

/* ---- async: a queue served by one thread ------------------------------------------ */

static void
run_job (gpointer data, gpointer user_data)
{
  GTask *task = data;
  StrobeControlClient *self = g_task_get_source_object (task);
  StrobeControlJobFunc job = g_object_get_data (G_OBJECT (task), "strobe-control-job");
  GError *error = NULL;
  char *reply;

  if (job != NULL)
    {
      job (task, self);
      g_object_unref (task);
      return;
    }
  reply = strobe_control_client_send (self, g_task_get_task_data (task),
                                      g_task_get_cancellable (task), &error);
  if (reply)
    g_task_return_pointer (task, reply, g_free);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
strobe_control_client_send_async (StrobeControlClient *self, const char *command,
                                  GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  GTask *task;

  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  g_return_if_fail (command != NULL);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, strobe_control_client_send_async);
  g_task_set_task_data (task, g_strdup (command), g_free);
  if (self->pool == NULL)
    self->pool = g_thread_pool_new (run_job, NULL, 1, FALSE, NULL);
  g_thread_pool_push (self->pool, task, NULL);
}

void
strobe_control_client_queue_job (StrobeControlClient  *self,
                                 GTask                *task,
                                 StrobeControlJobFunc  job)
{
  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (self));
  g_object_set_data (G_OBJECT (task), "strobe-control-job", job);
  if (self->pool == NULL)
    self->pool = g_thread_pool_new (run_job, NULL, 1, FALSE, NULL);
  g_thread_pool_push (self->pool, task, NULL);
}

char *
strobe_control_client_send_finish (StrobeControlClient *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- helpers ----------------------------------------------------------------------- */

static gboolean
send_simple (StrobeControlClient *self, const char *command, GError **error)
{
  g_autofree char *reply = strobe_control_client_send (self, command, NULL, error);
  return reply != NULL;
}

static gboolean
check_address (const char *host_port, GError **error)
{
  g_autofree char *host = NULL;
  guint16 port;

  return host_port != NULL && strobe_control_parse_address (host_port, 1980, &host, &port, error);
}

static gboolean
check_word (const char *what, const char *value, GError **error)
{
  if (value == NULL || *value == '\0' || strpbrk (value, " \t\r\n"))
    {
      g_set_error (error, STROBE_CONTROL_ERROR, STROBE_CONTROL_ERROR_INVALID,
                   "Not a valid %s: “%s”", what, value ? value : "");
      return FALSE;
    }
  return TRUE;
}

gboolean
strobe_control_client_send_to (StrobeControlClient *self, const char *host_port, GError **error)
{
  return strobe_control_client_send_to_tail (self, host_port, -1, error);
}

/* The command text; also what the viewer's connect dialog sends asynchronously. */
char *
strobe_control_format_send_to (const char *host_port, gint64 tail_bytes)
{
  if (tail_bytes < 0)
    return g_strconcat ("send-to ", host_port, NULL);
  return g_strdup_printf ("send-to %s tail=%" G_GINT64_FORMAT, host_port, tail_bytes);
}

gboolean
strobe_control_client_send_to_tail (StrobeControlClient *self, const char *host_port,
                                    gint64 tail_bytes, GError **error)
{
  g_autofree char *cmd = NULL;

  if (!check_address (host_port, error))
    return FALSE;
  cmd = strobe_control_format_send_to (host_port, tail_bytes);
  return send_simple (self, cmd, error);
}

gboolean
strobe_control_client_write_to (StrobeControlClient *self, const char *path, GError **error)
{
  g_autofree char *cmd = g_strconcat ("write-to ", path, NULL);
  return send_simple (self, cmd, error);
}

gboolean
strobe_control_client_set_channels (StrobeControlClient *self, const char *list, gboolean enabled,
                                    GError **error)
{
  g_autofree char *cmd = NULL;

  if (!check_word ("channel list", list, error))
    return FALSE;
  cmd = g_strdup_printf ("channels %s %s", list, enabled ? "on" : "off");
  return send_simple (self, cmd, error);
}

GHashTable *
strobe_control_client_list_channels (StrobeControlClient *self, GError **error)
{
  g_autofree char *reply = strobe_control_client_send (self, "channels", NULL, error);
  return reply ? strobe_control_parse_pairs (reply) : NULL;
}

gboolean
strobe_control_client_stop (StrobeControlClient *self, GError **error)
{
  return send_simple (self, "stop", error);
}

gboolean
strobe_control_client_snapshot_send_to (StrobeControlClient *self, const char *host_port,
                                        GError **error)
{
  g_autofree char *cmd = NULL;

  if (!check_address (host_port, error))
    return FALSE;
  cmd = g_strconcat ("snapshot send-to ", host_port, NULL);
  return send_simple (self, cmd, error);
}

gboolean
strobe_control_client_snapshot_write_to (StrobeControlClient *self, const char *path, GError **error)
{
  g_autofree char *cmd = g_strconcat ("snapshot write-to ", path, NULL);
  return send_simple (self, cmd, error);
}

GHashTable *
strobe_control_client_status (StrobeControlClient *self, GError **error)
{
  g_autofree char *reply = strobe_control_client_send (self, "status", NULL, error);
  return reply ? strobe_control_parse_pairs (reply) : NULL;
}

GHashTable *
strobe_control_parse_pairs (const char *reply)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) words = g_strsplit_set (reply, " \t", -1);

  for (guint i = 0; words[i]; i++)
    {
      char *eq = strchr (words[i], '=');
      if (words[i][0] == '\0' || eq == NULL)
        continue;
      g_hash_table_replace (table, g_strndup (words[i], (gsize) (eq - words[i])), g_strdup (eq + 1));
    }
  return table;
}
