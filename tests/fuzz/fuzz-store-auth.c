/* fuzz-store-auth.c — libFuzzer target for the store server before authentication
 * (STORE-PROTOCOL.md §1a): a real StrobeStoreServer on loopback, a peer that reads the
 * hello and then sends the input's bytes as they are (any framing, any messages).
 *
 * Checks, besides the sanitizers: the first message is the hello; nothing after it is
 * anything but a 400, 401 or 413, or the 200 carrying the server's proof that answers
 * v1/auth/challenge — no trace, session, status or subscription ever reaches a peer that
 * has not proved it knows the secret (which an input cannot: the server's nonce is new
 * on every connection).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "strobe-store-server.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static StrobeStoreServer *server;
static guint16 port;

static void
start_server (void)
{
  GError *error = NULL;
  char *dir;
  StrobeStore *store;

  if (server != NULL)
    return;
  dir = g_dir_make_tmp ("strobe-fuzz-store-auth-XXXXXX", &error);
  if (dir == NULL)
    abort ();
  store = strobe_store_new (dir, &error);
  if (store == NULL)
    abort ();
  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, 0);
  strobe_store_server_set_secret (server, "fuzz-store-secret-0123456789");
  if (!strobe_store_server_start (server, &error))
    abort ();
  port = strobe_store_server_get_port (server);
  g_object_unref (store);
  g_free (dir);   /* left behind: it holds only the server's nothing */
}

static void
check_message (GVariant *m, gboolean first)
{
  static const char *const forbidden[] = { "traces", "trace", "sessions", "session",
                                           "version", "change_serial", "data", "event" };
  guint64 status = 0;
  const char *hello = NULL;

  if (first)
    {
      if (!g_variant_lookup (m, "hello", "&s", &hello) || strcmp (hello, "strobe-store") != 0)
        abort ();
      return;
    }
  for (size_t i = 0; i < G_N_ELEMENTS (forbidden); i++)
    if (g_variant_lookup_value (m, forbidden[i], NULL) != NULL)
      {
        fprintf (stderr, "fuzz-store-auth: \"%s\" sent before authentication\n", forbidden[i]);
        abort ();
      }
  if (!g_variant_lookup (m, "status", "t", &status))
    abort ();
  if (status == 200 && g_variant_lookup_value (m, "proof", NULL) == NULL)
    {
      fprintf (stderr, "fuzz-store-auth: a 200 that is not the server's proof\n");
      abort ();
    }
  if (status != 200 && status != 400 && status != 401 && status != 413)
    {
      fprintf (stderr, "fuzz-store-auth: status %" G_GUINT64_FORMAT " before authentication\n", status);
      abort ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct sockaddr_in sa = { 0 };
  GByteArray *in = g_byte_array_new ();
  gint64 deadline;
  size_t sent = 0, at = 0;
  gboolean eof = FALSE, shut = FALSE, first = TRUE;
  int fd;

  start_server ();
  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd < 0 || (connect (fd, (struct sockaddr *) &sa, sizeof sa) != 0 && errno != EINPROGRESS))
    abort ();

  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!eof && g_get_monotonic_time () < deadline)
    {
      guint8 buf[4096];
      struct pollfd p = { fd, POLLIN, 0 };
      ssize_t n;

      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (sent < size)
        {
          n = send (fd, data + sent, size - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
          if (n > 0)
            sent += (size_t) n;
        }
      if (sent == size && !shut)
        {
          shutdown (fd, SHUT_WR);
          shut = TRUE;
        }
      n = recv (fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0)
        g_byte_array_append (in, buf, (guint) n);
      else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN))
        eof = TRUE;
      poll (&p, 1, 1);
    }
  close (fd);

  while (in->len - at >= 4)
    {
      guint32 len;
      GVariant *m;

      memcpy (&len, in->data + at, 4);
      len = GUINT32_FROM_LE (len);
      if (in->len - at - 4 < len)
        break;   /* cut off by the close */
      m = strobe_store_message_decode (in->data + at + 4, len, NULL);
      if (m == NULL)
        abort ();   /* the server sent something it cannot decode itself */
      g_variant_ref_sink (m);
      check_message (m, first);
      g_variant_unref (m);
      first = FALSE;
      at += 4 + len;
    }
  g_byte_array_unref (in);

  /* The server lets go of the peer before the next input. */
  deadline = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (strobe_store_server_get_n_clients (server) > 0 && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (500);
  return 0;
}
