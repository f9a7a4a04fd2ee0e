/* strobe-cli-serve.c — `strobe-cli serve`: the recorder and the store server without a
 * window, for a team machine: programs send their traces to the recorder, viewers list and
 * read them through the store server. Runs until SIGINT or SIGTERM.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-cli.h"
#include "strobe-recorder.h"
#include "strobe-store-secret.h"
#include "strobe-store-server.h"
#include "strobe-text.h"

static gboolean
on_quit_signal (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_CONTINUE;
}

static void
on_session_started (StrobeRecorder *recorder, StrobeLiveConnection *session, gpointer data)
{
  g_autofree char *program = strobe_text_escape (strobe_live_connection_get_program (session), STROBE_TEXT_PLAIN);
  g_autofree char *name = strobe_text_escape (strobe_live_connection_get_trace_name (session), STROBE_TEXT_PLAIN);

  printf (_("recording %s (pid %u) from %s into %s\n"), program, strobe_live_connection_get_pid (session),
          strobe_live_connection_get_peer_address (session), name);
  fflush (stdout);
}

static void
on_session_ended (StrobeRecorder *recorder, StrobeLiveConnection *session, gpointer data)
{
  g_autofree char *name = strobe_text_escape (strobe_live_connection_get_trace_name (session), STROBE_TEXT_PLAIN);

  printf (_("finished %s (pid %u): %" PRIu64 " bytes\n"), name, strobe_live_connection_get_pid (session),
          strobe_live_connection_get_bytes_received (session));
  fflush (stdout);
}

static gboolean
listen_is_loopback (const char *listen)
{
  g_autoptr (GInetAddress) address = listen ? g_inet_address_new_from_string (listen) : NULL;

  return listen == NULL || g_str_equal (listen, "localhost")
         || (address != NULL && g_inet_address_get_is_loopback (address));
}

int
strobe_cli_serve (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeStore) store = NULL;
  g_autoptr (StrobeRecorder) recorder = NULL;
  g_autoptr (StrobeStoreServer) server = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *listen = NULL;
  int recorder_port = STROBE_RECORDER_DEFAULT_PORT;
  int store_port = STROBE_STORE_DEFAULT_PORT;
  const GOptionEntry entries[] = {
    { "store-dir", 'd', 0, G_OPTION_ARG_FILENAME, &dir, N_("Keep traces in DIR (default: the user's store)"), N_("DIR") },
    { "recorder-port", 'r', 0, G_OPTION_ARG_INT, &recorder_port, N_("Record on PORT (default 1980; 0: any)"), N_("PORT") },
    { "store-port", 's', 0, G_OPTION_ARG_INT, &store_port, N_("Serve the store on PORT (default 1989; 0: any)"), N_("PORT") },
    { "listen", 'l', 0, G_OPTION_ARG_STRING, &listen, N_("Listen on ADDR (default: loopback only; 0.0.0.0 or :: for every interface)"), N_("ADDR") },
    { NULL }
  };

  g_option_context_set_summary (context, _("Run the recorder and the store server without a window."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_USAGE_ERROR;
    }
  if (argc > 1)
    {
      g_printerr ("strobe-cli: %s\n", _("too many arguments"));
      return STROBE_CLI_USAGE_ERROR;
    }
  if (recorder_port < 0 || recorder_port > 65535 || store_port < 0 || store_port > 65535)
    {
      g_printerr ("strobe-cli: %s\n", _("a port is a number from 0 to 65535"));
      return STROBE_CLI_USAGE_ERROR;
    }

  store = strobe_store_new (dir, &error);
  if (store == NULL)
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_FAILED;
    }
  recorder = strobe_recorder_new (store);
  strobe_recorder_set_port (recorder, (guint16) recorder_port);
  strobe_recorder_set_listen_address (recorder, listen);
  g_signal_connect (recorder, "session-started", G_CALLBACK (on_session_started), NULL);
  g_signal_connect (recorder, "session-ended", G_CALLBACK (on_session_ended), NULL);
  if (!strobe_recorder_start (recorder, &error))
    {
      g_printerr ("strobe-cli: %s: %s\n", _("cannot start the recorder"), error->message);
      return STROBE_CLI_FAILED;
    }
  server = strobe_store_server_new (store);
  strobe_store_server_set_port (server, (guint16) store_port);
  strobe_store_server_set_listen_address (server, listen);
  strobe_store_server_set_recorder_port (server, strobe_recorder_get_port (recorder));
  if (!strobe_store_server_start (server, &error))
    {
      g_printerr ("strobe-cli: %s: %s\n", _("cannot start the store server"), error->message);
      strobe_recorder_stop (recorder);
      return STROBE_CLI_FAILED;
    }

  printf (_("recorder on port %u, store on port %u (%s), traces in %s\n"),
          strobe_recorder_get_port (recorder), strobe_store_server_get_port (server),
          listen ? listen : _("loopback only"), strobe_store_get_directory (store));
  fflush (stdout);
  /* On stderr: stdout's lines are what scripts read (recorder and store ports first). */
  if (g_getenv (STROBE_STORE_SECRET_ENV) == NULL || *g_getenv (STROBE_STORE_SECRET_ENV) == '\0')
    {
      g_autofree char *secret = g_build_filename (strobe_store_get_directory (store),
                                                  STROBE_STORE_SECRET_FILE, NULL);
      g_printerr (_("strobe-cli: store clients must prove they know the secret in %s (mode 0600; or set %s on both ends)\n"),
                  secret, STROBE_STORE_SECRET_ENV);
    }
  if (!listen_is_loopback (listen))
    g_printerr ("strobe-cli: %s\n",
                _("warning: the store and the recorder are reachable from other machines, without TLS: "
                  "traces and requests cross the network in clear. Prefer a loopback store and an SSH "
                  "tunnel (ssh -L 1989:localhost:1989 HOST)."));

  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, on_quit_signal, loop);
  g_unix_signal_add (SIGTERM, on_quit_signal, loop);
  g_main_loop_run (loop);

  strobe_store_server_stop (server);
  strobe_recorder_stop (recorder);
  return STROBE_CLI_OK;
}
