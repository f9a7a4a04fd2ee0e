/* strobe-cli-control.c — `strobe-cli control TARGET COMMAND…`: sends one command to the
 * control server of a running program (runtime/CONTROL.md).
 *
 * TARGET is a pid or a program name (found through discovery, see `strobe-cli ps`) or
 * HOST:PORT. A relative write-to path is made absolute against the current directory when
 * the program runs on this machine (found by pid or name), and left alone for HOST:PORT.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-cli.h"
#include "strobe-clock-offset.h"
#include "strobe-control-address.h"
#include "strobe-text.h"
#include "strobe-control-client.h"
#include "strobe-discovery.h"

static int
compare_strings (const void *a, const void *b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* A reply is the peer's text: printed escaped (what a program's name holds, or a fake
 * server sends, must not drive the terminal). */
static void
print_pairs (const char *reply, gboolean sort)
{
  g_auto (GStrv) words = g_strsplit_set (reply, " \t", -1);
  guint n = g_strv_length (words);

  if (sort)
    qsort (words, n, sizeof *words, compare_strings);
  for (guint i = 0; i < n; i++)
    if (*words[i])
      {
        char *eq = strchr (words[i], '=');
        g_autofree char *text = NULL;

        if (eq)
          *eq = ' ';
        text = strobe_text_escape (words[i], STROBE_TEXT_PLAIN);
        printf ("%s\n", text);
      }
}

static int
usage (GOptionContext *context, const char *problem)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("strobe-cli: %s\n\n%s", problem, help);
  return STROBE_CLI_USAGE_ERROR;
}

static void
print_failure (const char *host, guint16 port, const GError *error)
{
  g_autofree char *message = strobe_text_escape (error->message, STROBE_TEXT_PLAIN);

  g_printerr (strchr (host, ':') ? "strobe-cli: [%s]:%u: %s\n" : "strobe-cli: %s:%u: %s\n", host, port, message);
}

/* `clock`: the offset as strobe_clock_align would use it, and whether it went into the
 * program's trace (only when the program is on another machine or boot). */
static int
print_clock (StrobeControlClient *client, const char *host, guint16 port)
{
  g_autoptr (GError) error = NULL;
  StrobeClockOffset offset;
  gboolean recorded = FALSE;

  if (!strobe_control_client_sync_clock (client, 8, FALSE, &offset, &recorded, &error))
    {
      print_failure (host, port, error);
      return STROBE_CLI_FAILED;
    }
  /* Translators: strobe-cli control TARGET clock: the program's clock minus ours, in ns,
   * the uncertainty, and how many round trips the best was chosen from */
  printf (_("offset %+lld ns ± %llu ns (the best of %u round trips)\n"), (long long) offset.offset_ns,
          (unsigned long long) offset.uncertainty_ns, offset.samples);
  printf ("%s\n", recorded ? _("recorded in its trace (it does not read this machine's CLOCK_MONOTONIC)")
                           : _("not recorded: it reads this machine's CLOCK_MONOTONIC, as its trace says"));
  return STROBE_CLI_OK;
}

int
strobe_cli_control (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (_("TARGET COMMAND [ARGUMENT…]"));
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeDiscovery) discovery = NULL;
  g_autoptr (StrobeControlClient) client = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *host = NULL;
  g_autofree char *line = NULL;
  g_autofree char *reply = NULL;
  const char *target, *verb;
  gboolean local;
  int timeout = 10;
  guint16 port = 0;
  const GOptionEntry entries[] = {
    { "directory", 'd', 0, G_OPTION_ARG_FILENAME, &dir, N_("Read discovery files from DIR"), N_("DIR") },
    { "timeout", 't', 0, G_OPTION_ARG_INT, &timeout, N_("Seconds to wait for the program (default 10)"), N_("SECONDS") },
    { NULL }
  };

  g_option_context_set_summary (context,
    _("Send a command to a running traced program.\n"
      "\n"
      "TARGET: a pid, a program name (see “strobe-cli ps”) or HOST:PORT.\n"
      "Commands:\n"
      "  send-to HOST[:PORT] [tail=N]   trace to a recorder (port 1980 by default)\n"
      "  write-to PATH [tail=N]         trace to a file\n"
      "  channels                       list the channels\n"
      "  channels LIST on|off           switch channels (comma-separated, or all)\n"
      "  stop                           stop tracing\n"
      "  snapshot send-to HOST[:PORT]   send recent history without stopping\n"
      "  snapshot write-to PATH         write recent history without stopping\n"
      "  status                         print the program's control status\n"
      "  clock                          measure the program's clock against ours"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, TRUE);   /* options stop at TARGET */
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_USAGE_ERROR;
    }
  if (argc < 3)
    return usage (context, argc < 2 ? _("missing TARGET") : _("missing COMMAND"));
  target = argv[1];
  verb = argv[2];

  if ((g_str_equal (verb, "send-to") || g_str_equal (verb, "write-to"))
      && (argc < 4 || argc > 5 || (argc == 5 && !g_str_has_prefix (argv[4], "tail="))
          || g_str_has_prefix (argv[3], "tail=")))
    return usage (context, _("send-to and write-to take a target, then optionally tail=BYTES"));
  if (g_str_equal (verb, "channels") && argc != 3 && argc != 5)
    return usage (context, _("channels takes no argument, or LIST on|off"));
  if ((g_str_equal (verb, "stop") || g_str_equal (verb, "status") || g_str_equal (verb, "clock")) && argc != 3)
    return usage (context, _("too many arguments"));
  if (g_str_equal (verb, "snapshot")
      && (argc != 5 || (!g_str_equal (argv[3], "send-to") && !g_str_equal (argv[3], "write-to"))))
    return usage (context, _("snapshot takes send-to HOST[:PORT] or write-to PATH"));
  if (!g_str_equal (verb, "send-to") && !g_str_equal (verb, "write-to") && !g_str_equal (verb, "channels")
      && !g_str_equal (verb, "stop") && !g_str_equal (verb, "status") && !g_str_equal (verb, "snapshot")
      && !g_str_equal (verb, "clock"))
    return usage (context, _("unknown command"));

  if (g_str_equal (verb, "send-to") || (g_str_equal (verb, "snapshot") && g_str_equal (argv[3], "send-to")))
    {
      g_autofree char *recorder = NULL;
      guint16 recorder_port;

      if (!strobe_control_parse_address (g_str_equal (verb, "snapshot") ? argv[4] : argv[3], 1980,
                                         &recorder, &recorder_port, &error))
        return usage (context, error->message);
    }

  discovery = strobe_discovery_new (dir);
  if (!strobe_discovery_resolve (discovery, target, &host, &port, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_FAILED;
    }
  local = strchr (target, ':') == NULL;

  if (g_str_equal (verb, "write-to") || (g_str_equal (verb, "snapshot") && g_str_equal (argv[3], "write-to")))
    {
      gboolean snapshot = g_str_equal (verb, "snapshot");
      const char *path = snapshot ? argv[4] : argv[3];
      const char *tail = !snapshot && argc == 5 ? argv[4] : NULL;
      g_autofree char *abs = local && !g_path_is_absolute (path)
                             ? g_canonicalize_filename (path, NULL) : g_strdup (path);
      line = g_strconcat (snapshot ? "snapshot write-to " : "write-to ", abs, tail ? " " : "", tail, NULL);
    }
  else
    line = g_strjoinv (" ", argv + 2);

  client = strobe_control_client_new (host, port);
  strobe_control_client_set_discovery_directory (client, dir);
  strobe_control_client_set_timeout (client, (guint) MAX (timeout, 1));
  if (g_str_equal (verb, "clock"))
    return print_clock (client, host, port);
  if (g_str_equal (verb, "send-to"))
    {
      g_autoptr (GError) unmeasured = NULL;
      StrobeClockOffset offset;

      /* First: a program of another machine then sends a trace that carries its offset
       * (PROTOCOL.md §1); one whose clock cannot be measured is sent all the same. */
      strobe_control_client_sync_clock (client, 8, FALSE, &offset, NULL, &unmeasured);
    }
  reply = strobe_control_client_send (client, line, NULL, &error);
  if (reply == NULL)
    {
      print_failure (host, port, error);
      return STROBE_CLI_FAILED;
    }
  if (g_str_equal (verb, "status"))
    print_pairs (reply, FALSE);
  else if (g_str_equal (verb, "channels") && argc == 3)
    print_pairs (reply, TRUE);
  else if (*reply)
    {
      g_autofree char *text = strobe_text_escape (reply, STROBE_TEXT_PLAIN);
      printf ("%s\n", text);
    }
  return STROBE_CLI_OK;
}
