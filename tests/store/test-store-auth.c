/* test-store-auth.c — the store protocol's authentication (STORE-PROTOCOL.md §1a): nothing
 * is served before the challenge–response, wrong and replayed proofs are refused, a
 * listener that is not the store learns nothing from a client, the secret file is trusted
 * only when it is the user's and private, and another local user (setpriv as nobody)
 * can neither read the secret nor list, read, rename or delete a trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store-test-util.h"
#include "strobe-auth.h"
#include "strobe-store-client.h"
#include "strobe-store-message.h"
#include "strobe-store-secret.h"
#include "strobe-store-server.h"

typedef struct
{
  char              *dir;
  StrobeStore       *store;
  StrobeStoreServer *server;
  guint16            port;
  char              *secret;
  char              *trace_id;
  GBytes            *trace;
} Fixture;

static char *
add_trace (Fixture *f, const char *name)
{
  g_autofree char *file = g_strconcat (name, ".strobe", NULL);
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  GListModel *traces = strobe_store_get_traces (f->store);

  f->trace = test_build_stream (name, 7, 4000, TRUE, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (f->trace, NULL),
                                      (gssize) g_bytes_get_size (f->trace), NULL));
  strobe_store_rescan (f->store);
  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);
      if (g_str_equal (strobe_trace_get_name (trace), name))
        return g_strdup (strobe_trace_get_id (trace));
    }
  g_assert_not_reached ();
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
  g_assert_true (strobe_store_server_start (f->server, &error));
  g_assert_no_error (error);
  f->port = strobe_store_server_get_port (f->server);
  f->secret = test_store_secret (f->dir);
  f->trace_id = add_trace (f, "victim");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->server);
  g_clear_object (&f->store);
  test_spin (10);
  test_dir_remove_all (f->dir);
  g_free (f->dir);
  g_free (f->secret);
  g_free (f->trace_id);
  g_clear_pointer (&f->trace, g_bytes_unref);
}

/* The trace is there, named as before, with its bytes. */
static void
assert_trace_untouched (Fixture *f)
{
  g_autofree char *path = g_build_filename (f->dir, "victim.strobe", NULL);
  StrobeTrace *trace;

  strobe_store_rescan (f->store);
  trace = strobe_store_lookup_trace (f->store, f->trace_id);
  g_assert_nonnull (trace);
  g_assert_cmpstr (strobe_trace_get_name (trace), ==, "victim");
  g_assert_true (test_file_equals (path, g_bytes_get_data (f->trace, NULL), g_bytes_get_size (f->trace)));
}

/* The server answers 401 and hangs up. */
static void
assert_refused_and_closed (int fd)
{
  g_autoptr(GVariant) r = test_store_read_message (fd, 5000);
  g_autoptr(GVariant) eof = NULL;

  g_assert_nonnull (r);
  g_assert_cmpuint (test_store_status (r), ==, STROBE_STORE_STATUS_UNAUTHORIZED);
  g_assert_false (g_variant_lookup_value (r, "traces", NULL) != NULL);
  eof = test_store_read_message (fd, 5000);
  g_assert_null (eof);
}

static void
test_refused_before_auth (Fixture *f, gconstpointer data)
{
  const struct { const char *verb, *path; gboolean id, name; } requests[] = {
    { "GET", "v1/status" },
    { "GET", "v1/trace/list" },
    { "GET", "v1/trace/info", TRUE },
    { "GET", "v1/trace/read", TRUE },
    { "POST", "v1/trace/rename", TRUE, TRUE },
    { "DELETE", "v1/trace/delete", TRUE },
    { "POST", "v1/trace/delete", TRUE },
    { "GET", "v1/session/list" },
    { "POST", "v1/subscribe" },
    { "POST", "v1/auth/proof" },          /* a proof with no challenge before it */
  };

  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      int fd = test_store_connect_fd (f->port);

      test_store_read_hello (fd, NULL);
      test_store_send (fd, test_store_request_dict (requests[i].verb, requests[i].path,
                                                    requests[i].id ? f->trace_id : NULL,
                                                    requests[i].name ? "stolen" : NULL));
      assert_refused_and_closed (fd);
      close (fd);
    }

  /* Half way through the exchange is not through it. */
  {
    int fd = test_store_connect_fd (f->port);
    guint8 ns[32], nc[32];
    g_autoptr(GVariant) r = NULL;

    test_store_read_hello (fd, ns);
    g_assert_true (strobe_auth_nonce (nc));
    test_store_send_challenge (fd, nc);
    r = test_store_read_message (fd, 5000);
    g_assert_cmpuint (test_store_status (r), ==, 200);
    test_store_send (fd, test_store_request_dict ("DELETE", "v1/trace/delete", f->trace_id, NULL));
    assert_refused_and_closed (fd);
    close (fd);
  }
  /* A malformed body before authentication: 400 and closed. */
  {
    int fd = test_store_connect_fd (f->port);
    g_autoptr(GVariant) r = NULL;
    g_autoptr(GVariant) eof = NULL;

    test_store_read_hello (fd, NULL);
    g_assert_cmpint (send (fd, "\x03\x00\x00\x00\xff\x00\x13", 7, MSG_NOSIGNAL), ==, 7);
    r = test_store_read_message (fd, 5000);
    g_assert_cmpuint (test_store_status (r), ==, 400);
    eof = test_store_read_message (fd, 5000);
    g_assert_null (eof);
    close (fd);
  }
  assert_trace_untouched (f);

  /* With the secret, the same connection-level exchange works. */
  {
    int fd = test_store_connect_authed (f->port, f->secret);
    g_autoptr(GVariant) r = NULL;

    test_store_send (fd, test_store_request_dict ("GET", "v1/trace/list", NULL, NULL));
    r = test_store_read_message (fd, 5000);
    g_assert_cmpuint (test_store_status (r), ==, 200);
    close (fd);
  }
}

/* Wrong proofs: garbage, the server's own proof sent back, a proof made with another
 * secret, a second challenge on one connection. */
static void
test_wrong_proof (Fixture *f, gconstpointer data)
{
  for (int kind = 0; kind < 4; kind++)
    {
      int fd = test_store_connect_fd (f->port);
      guint8 ns[32], nc[32], proof[32];
      g_autoptr(GVariant) r = NULL;
      g_autoptr(GVariant) ps = NULL;
      gsize n = 0;

      test_store_read_hello (fd, ns);
      g_assert_true (strobe_auth_nonce (nc));
      test_store_send_challenge (fd, nc);
      r = test_store_read_message (fd, 5000);
      g_assert_cmpuint (test_store_status (r), ==, 200);
      ps = g_variant_lookup_value (r, "proof", G_VARIANT_TYPE_BYTESTRING);
      memcpy (proof, g_variant_get_fixed_array (ps, &n, 1), 32);
      switch (kind)
        {
        case 0:
          memset (proof, 0x5a, sizeof proof);
          break;
        case 1:
          break;   /* reflection: the server's proof as the client's */
        case 2:
          g_assert_true (strobe_auth_proof ("store", STROBE_AUTH_CLIENT, "not-the-secret", 14, ns, nc, proof));
          break;
        case 3:
          test_store_send_challenge (fd, nc);
          assert_refused_and_closed (fd);
          close (fd);
          continue;
        }
      test_store_send_proof (fd, proof);
      assert_refused_and_closed (fd);
      close (fd);
    }
  assert_trace_untouched (f);
}

/* A recorded exchange is worth nothing on a new connection: the server's nonce is new. */
static void
test_replay (Fixture *f, gconstpointer data)
{
  guint8 ns1[32], ns2[32], nc[32], pc[32];
  int fd;

  fd = test_store_connect_fd (f->port);
  test_store_read_hello (fd, ns1);
  close (fd);
  g_assert_true (strobe_auth_nonce (nc));
  /* What a successful client sent on the first connection, as an eavesdropper saw it. */
  g_assert_true (strobe_auth_proof ("store", STROBE_AUTH_CLIENT, f->secret, strlen (f->secret), ns1, nc, pc));

  fd = test_store_connect_fd (f->port);
  test_store_read_hello (fd, ns2);
  g_assert_false (strobe_auth_equal (ns1, ns2, 32));
  test_store_send_challenge (fd, nc);
  {
    g_autoptr(GVariant) r = test_store_read_message (fd, 5000);
    g_assert_cmpuint (test_store_status (r), ==, 200);
  }
  test_store_send_proof (fd, pc);
  assert_refused_and_closed (fd);
  close (fd);
}


static gboolean
no_clients (gpointer data)
{
  return strobe_store_server_get_n_clients (data) == 0;
}

static void
test_client_wrong_secret (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStoreClient) good = NULL;
  g_autoptr(StrobeStoreClient) bad = test_store_client_connect (f->port, "a-wrong-secret-of-some-length", &error);

  /* The client finds out first: the server could not prove it knows *this* secret. */
  g_assert_null (bad);
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_AUTH);
  g_assert_true (test_wait_until (no_clients, f->server, 5000));
  g_clear_error (&error);

  good = test_store_client_connect (f->port, f->secret, &error);
  g_assert_no_error (error);
  g_assert_nonnull (good);
}

/* ---- a listener that is not the store ----------------------------------------------- */

typedef struct
{
  int      listen_fd;
  gboolean got_challenge;
  gboolean got_anything_after;
} Fake;

static gpointer
fake_server (gpointer data)
{
  Fake *fake = data;
  int fd = accept (fake->listen_fd, NULL, NULL);
  guint8 nonce[32], proof[32];
  GVariantDict d;
  g_autoptr(GVariant) challenge = NULL;
  g_autoptr(GVariant) after = NULL;
  const char *path = NULL;

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (strobe_auth_nonce (nonce));
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "hello", "s", "strobe-store");
  g_variant_dict_insert (&d, "protocol", "u", 2);
  g_variant_dict_insert (&d, "auth", "s", "hmac-sha256");
  g_variant_dict_insert_value (&d, "nonce", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, nonce, 32, 1));
  test_store_send (fd, g_variant_dict_end (&d));
  challenge = test_store_read_message (fd, 5000);
  fake->got_challenge = challenge != NULL && g_variant_lookup (challenge, "path", "&s", &path)
                        && g_str_equal (path, "v1/auth/challenge");
  /* It does not know the secret, so its proof is a guess. */
  g_assert_true (strobe_auth_nonce (proof));
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "status", "u", 200);
  g_variant_dict_insert_value (&d, "proof", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, proof, 32, 1));
  test_store_send (fd, g_variant_dict_end (&d));
  after = test_store_read_message (fd, 5000);
  fake->got_anything_after = after != NULL;
  close (fd);
  return NULL;
}

static void
test_fake_server (void)
{
  struct sockaddr_in sa = { 0 };
  socklen_t len = sizeof sa;
  Fake fake = { socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) };
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStoreClient) client = NULL;
  GThread *thread;

  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fake.listen_fd, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  g_assert_cmpint (listen (fake.listen_fd, 1), ==, 0);
  g_assert_cmpint (getsockname (fake.listen_fd, (struct sockaddr *) &sa, &len), ==, 0);
  thread = g_thread_new ("fake-store", fake_server, &fake);

  client = test_store_client_connect (ntohs (sa.sin_port), "the-real-secret-0123456789", &error);
  g_assert_null (client);
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_AUTH);
  g_thread_join (thread);
  close (fake.listen_fd);
  g_assert_true (fake.got_challenge);
  /* The client hung up without sending its proof (or anything else). */
  g_assert_false (fake.got_anything_after);
}

/* Hostile servers: whatever they send during the exchange, the client fails with an
 * error (no crash, no hang) and never sends its proof. */
typedef enum
{
  HOSTILE_GARBAGE_HELLO,     /* not CBOR */
  HOSTILE_NO_NONCE,          /* a hello without a nonce */
  HOSTILE_SHORT_NONCE,       /* 31 bytes */
  HOSTILE_TEXT_NONCE,        /* a text string where bytes belong */
  HOSTILE_HUGE_LENGTH,       /* a length prefix past the client's limit */
  HOSTILE_STATUS_200,        /* answers the challenge with 200 and no proof */
  HOSTILE_STATUS_503,        /* refuses at once */
  HOSTILE_CLOSE,             /* hangs up after the hello */
  HOSTILE_N
} Hostile;

typedef struct
{
  int      listen_fd;
  Hostile  kind;
  gboolean got_proof;
} HostileServer;

static void
send_raw_message (int fd, const void *body, guint32 len)
{
  guint32 le = GUINT32_TO_LE (len);

  send (fd, &le, 4, MSG_NOSIGNAL);
  send (fd, body, len, MSG_NOSIGNAL);
}

static gpointer
hostile_server (gpointer data)
{
  HostileServer *h = data;
  int fd = accept (h->listen_fd, NULL, NULL);
  guint8 nonce[32] = { 0 };
  GVariantDict d;

  g_assert_cmpint (fd, >=, 0);
  g_variant_dict_init (&d, NULL);
  g_variant_dict_insert (&d, "hello", "s", "strobe-store");
  switch (h->kind)
    {
    case HOSTILE_GARBAGE_HELLO:
      send_raw_message (fd, "\xff\x00\x13", 3);
      break;
    case HOSTILE_NO_NONCE:
      test_store_send (fd, g_variant_dict_end (&d));
      break;
    case HOSTILE_SHORT_NONCE:
      g_variant_dict_insert_value (&d, "nonce", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, nonce, 31, 1));
      test_store_send (fd, g_variant_dict_end (&d));
      break;
    case HOSTILE_TEXT_NONCE:
      g_variant_dict_insert (&d, "nonce", "s", "0123456789abcdef0123456789abcdef");
      test_store_send (fd, g_variant_dict_end (&d));
      break;
    case HOSTILE_HUGE_LENGTH:
      g_variant_dict_clear (&d);
      send (fd, "\xff\xff\xff\x7f", 4, MSG_NOSIGNAL);
      break;
    case HOSTILE_STATUS_503:
      g_variant_dict_clear (&d);
      g_variant_dict_init (&d, NULL);
      g_variant_dict_insert (&d, "status", "u", 503);
      g_variant_dict_insert (&d, "error", "s", "Too many clients");
      test_store_send (fd, g_variant_dict_end (&d));
      break;
    case HOSTILE_STATUS_200:
    case HOSTILE_CLOSE:
    default:
      g_variant_dict_insert_value (&d, "nonce", g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, nonce, 32, 1));
      test_store_send (fd, g_variant_dict_end (&d));
      if (h->kind == HOSTILE_CLOSE)
        {
          close (fd);
          return NULL;
        }
      {
        g_autoptr(GVariant) challenge = test_store_read_message (fd, 5000);

        g_variant_dict_init (&d, NULL);
        g_variant_dict_insert (&d, "status", "u", 200);
        test_store_send (fd, g_variant_dict_end (&d));
      }
      break;
    }
  /* Read what the client still sends until it hangs up: never its proof. */
  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      g_autoptr(GVariant) m = NULL;
      const char *path = NULL;

      if (poll (&p, 1, 12000) != 1)
        break;
      m = test_store_read_message (fd, 1000);
      if (m == NULL)
        break;
      if (g_variant_lookup (m, "path", "&s", &path) && g_str_equal (path, "v1/auth/proof"))
        h->got_proof = TRUE;
    }
  close (fd);
  return NULL;
}

static void
test_hostile_servers (void)
{
  for (Hostile kind = 0; kind < HOSTILE_N; kind++)
    {
      struct sockaddr_in sa = { 0 };
      socklen_t len = sizeof sa;
      HostileServer h = { socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), kind };
      g_autoptr(GError) error = NULL;
      g_autoptr(StrobeStoreClient) client = NULL;
      GThread *thread;

      sa.sin_family = AF_INET;
      sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
      g_assert_cmpint (bind (h.listen_fd, (struct sockaddr *) &sa, sizeof sa), ==, 0);
      g_assert_cmpint (listen (h.listen_fd, 1), ==, 0);
      g_assert_cmpint (getsockname (h.listen_fd, (struct sockaddr *) &sa, &len), ==, 0);
      thread = g_thread_new ("hostile-store", hostile_server, &h);
      client = test_store_client_connect (ntohs (sa.sin_port), "the-real-secret-0123456789", &error);
      g_assert_null (client);
      g_assert_nonnull (error);
      g_test_message ("hostile server %d: %s", kind, error->message);
      g_thread_join (thread);
      close (h.listen_fd);
      g_assert_false (h.got_proof);
    }
}

/* ---- the secret file ------------------------------------------------------------------- */

static gboolean
server_starts (const char *dir, GError **error)
{
  g_autoptr(StrobeStore) store = strobe_store_new (dir, NULL);
  g_autoptr(StrobeStoreServer) server = strobe_store_server_new (store);
  gboolean ok;

  strobe_store_server_set_port (server, 0);
  ok = strobe_store_server_start (server, error);
  if (ok)
    strobe_store_server_stop (server);
  return ok;
}

static void
test_secret_file (void)
{
  g_autofree char *dir = test_dir_new ();
  g_autofree char *path = g_build_filename (dir, STROBE_STORE_SECRET_FILE, NULL);
  g_autofree char *elsewhere = g_build_filename (dir, "elsewhere", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  g_autoptr(GError) error = NULL;
  struct stat st;
  gsize len = 0;

  /* Created on the first start: 0600, the user's, 64 hex digits. */
  g_assert_true (server_starts (dir, &error));
  g_assert_no_error (error);
  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpuint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpuint (st.st_uid, ==, geteuid ());
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, ==, 65);
  first = test_store_secret (dir);
  g_assert_cmpuint (strlen (first), ==, 64);
  /* Kept across restarts. */
  g_assert_true (server_starts (dir, NULL));
  again = test_store_secret (dir);
  g_assert_cmpstr (first, ==, again);

  /* Readable by the group or others: refused, saying how to fix it. */
  for (guint mode = 0; mode < 3; mode++)
    {
      g_assert_cmpint (chmod (path, (guint[]) { 0640, 0604, 0620 }[mode]), ==, 0);
      g_assert_false (server_starts (dir, &error));
      g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET);
      g_assert_nonnull (strstr (error->message, "chmod 600"));
      g_clear_error (&error);
      g_assert_null (strobe_store_secret_load (dir, FALSE, &error));
      g_clear_error (&error);
    }
  g_assert_cmpint (chmod (path, 0600), ==, 0);

  /* Owned by someone else (only root can make such a file). */
  if (geteuid () == 0)
    {
      g_assert_cmpint (chown (path, 65534, 65534), ==, 0);
      g_assert_false (server_starts (dir, &error));
      g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET);
      g_clear_error (&error);
      g_assert_cmpint (chown (path, 0, 0), ==, 0);
    }
  else
    g_test_message ("not root: the file-owned-by-another-user case is skipped");

  /* A symbolic link is not followed, even to a good file. */
  g_assert_cmpint (rename (path, elsewhere), ==, 0);
  g_assert_cmpint (symlink (elsewhere, path), ==, 0);
  g_assert_false (server_starts (dir, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpint (unlink (path), ==, 0);
  g_assert_cmpint (rename (elsewhere, path), ==, 0);

  /* Damaged. */
  g_assert_true (g_file_set_contents (path, "not hex at all", -1, NULL));
  g_assert_cmpint (chmod (path, 0600), ==, 0);
  g_assert_false (server_starts (dir, &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET);
  g_clear_error (&error);
  g_assert_cmpint (unlink (path), ==, 0);

  /* STROBE_STORE_SECRET: too short or with blanks is refused; a good one is used by both
   * ends and no file is made. */
  g_setenv (STROBE_STORE_SECRET_ENV, "short", TRUE);
  g_assert_false (server_starts (dir, &error));
  g_assert_error (error, STROBE_STORE_ERROR, STROBE_STORE_ERROR_SECRET);
  g_clear_error (&error);
  g_setenv (STROBE_STORE_SECRET_ENV, "long enough but blank", TRUE);
  g_assert_false (server_starts (dir, &error));
  g_clear_error (&error);
  g_setenv (STROBE_STORE_SECRET_ENV, "a-chosen-secret-of-32-characters", TRUE);
  {
    g_autoptr(StrobeStore) store = strobe_store_new (dir, NULL);
    g_autoptr(StrobeStoreServer) server = strobe_store_server_new (store);
    g_autoptr(StrobeStoreClient) client = NULL;

    strobe_store_server_set_port (server, 0);
    g_assert_true (strobe_store_server_start (server, &error));
    client = test_store_client_connect (strobe_store_server_get_port (server), NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (client);
  }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_unsetenv (STROBE_STORE_SECRET_ENV);
  test_dir_remove_all (dir);
}

/* ---- another local user ------------------------------------------------------------- */

/* Run as the other user (`--other-user PORT DIR TRACE_ID`): every way in must fail.
 * Exit 0 when all were refused; 1 names the one that was not. */
static int
other_user_main (guint16 port, const char *dir, const char *trace_id)
{
  g_autofree char *path = g_build_filename (dir, STROBE_STORE_SECRET_FILE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStoreClient) client = NULL;
  const char *paths[][2] = { { "GET", "v1/trace/list" }, { "GET", "v1/trace/read" },
                             { "POST", "v1/trace/rename" }, { "POST", "v1/trace/delete" } };
  int fd = open (path, O_RDONLY);

  if (fd >= 0)
    {
      g_printerr ("other user: could open %s\n", path);
      return 1;
    }
  /* Its own default store is the victim's (XDG_DATA_HOME points there). */
  client = test_store_client_connect (port, NULL, &error);
  if (client != NULL)
    {
      g_printerr ("other user: connected with the default secret\n");
      return 1;
    }
  g_printerr ("other user: default connect refused: %s\n", error->message);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GVariant) r = NULL;

      fd = test_store_connect_fd (port);
      test_store_read_hello (fd, NULL);
      test_store_send (fd, test_store_request_dict (paths[i][0], paths[i][1], trace_id, "stolen"));
      r = test_store_read_message (fd, 5000);
      if (r == NULL || test_store_status (r) != STROBE_STORE_STATUS_UNAUTHORIZED)
        {
          g_printerr ("other user: %s was not refused\n", paths[i][1]);
          return 1;
        }
      close (fd);
    }
  return 0;
}

static void
child_exited (GObject *source, GAsyncResult *result, gpointer data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_other_user (Fixture *f, gconstpointer data)
{
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *port = g_strdup_printf ("%u", f->port);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *store_dir = NULL;
  gboolean exited = FALSE;

  if (geteuid () != 0 || setpriv == NULL)
    {
      g_test_skip ("needs root and setpriv to run a client as another user (nobody)");
      return;
    }
  /* The store directory readable by everyone, so the only thing that keeps the other
   * user out is the secret file's own mode (and, through it, the protocol). The default
   * store of the other user is this one: XDG_DATA_HOME/strobe. */
  data_home = g_strdup (f->dir);
  store_dir = g_build_filename (data_home, "strobe", NULL);
  g_assert_cmpint (g_mkdir (store_dir, 0755), ==, 0);
  g_assert_cmpint (chmod (f->dir, 0755), ==, 0);
  {
    g_autofree char *from = g_build_filename (f->dir, STROBE_STORE_SECRET_FILE, NULL);
    g_autofree char *to = g_build_filename (store_dir, STROBE_STORE_SECRET_FILE, NULL);
    g_autofree char *contents = NULL;
    int fd;

    g_assert_true (g_file_get_contents (from, &contents, NULL, NULL));
    fd = open (to, O_WRONLY | O_CREAT | O_EXCL, 0600);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (write (fd, contents, strlen (contents)), ==, (gssize) strlen (contents));
    close (fd);
  }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data_home, TRUE);
  g_subprocess_launcher_unsetenv (launcher, STROBE_STORE_SECRET_ENV);
  child = g_subprocess_launcher_spawn (launcher, &error, setpriv, "--reuid=65534", "--regid=65534",
                                       "--clear-groups", "--", self, "--other-user", port,
                                       store_dir, f->trace_id, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (child, NULL, child_exited, &exited);
  g_assert_true (test_wait_until (flag_set, &exited, 30000));
  if (g_subprocess_get_if_exited (child) && g_subprocess_get_exit_status (child) == 77)
    {
      g_test_skip ("the other user cannot run this test program here");
      return;
    }
  g_assert_true (g_subprocess_get_if_exited (child));
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
  assert_trace_untouched (f);
}

int
main (int argc, char **argv)
{
  if (argc == 5 && g_str_equal (argv[1], "--other-user"))
    {
      if (getuid () == 0)
        return 77;
      return other_user_main ((guint16) atoi (argv[2]), argv[3], argv[4]);
    }

  g_test_init (&argc, &argv, NULL);
  g_unsetenv (STROBE_STORE_SECRET_ENV);
  test_store_set_pump (TRUE);
#define ADD(name, func) g_test_add ("/store-auth/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("refused-before-auth", test_refused_before_auth);
  ADD ("wrong-proof", test_wrong_proof);
  ADD ("replay", test_replay);
  ADD ("client-wrong-secret", test_client_wrong_secret);
  ADD ("other-user", test_other_user);
#undef ADD
  g_test_add_func ("/store-auth/fake-server", test_fake_server);
  g_test_add_func ("/store-auth/hostile-servers", test_hostile_servers);
  g_test_add_func ("/store-auth/secret-file", test_secret_file);
  return g_test_run ();
}
