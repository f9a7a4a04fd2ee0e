/* strobe-cli.c — command-line tools for Strobe traces: a table of subcommands.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"


#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "strobe-build-tree.h"
#include "strobe-cli.h"

static const StrobeCliCommand commands[] = {
  { "info", N_("Print an overview of a trace: process, threads, event types, channels"), strobe_cli_info },
  { "dump", N_("Print every event of a trace as one line of text"), strobe_cli_dump },
  { "stats", N_("Timer statistics per CPU scope name, for the whole trace or a time range"), strobe_cli_stats },
  { "export", N_("Convert a trace: Chrome trace JSON (Perfetto), CSV of timers or scopes"), strobe_cli_export },
  { "ps", N_("List the traced programs running on this machine"), strobe_cli_ps },
  { "control", N_("Send a command to a running traced program (send-to, channels, stop…)"), strobe_cli_control },
  { "serve", N_("Run the recorder and the store server without a window"), strobe_cli_serve },
  { "log", N_("Print the log messages of a trace, filtered by verbosity, category, thread, text"), strobe_cli_log },
  { "memory", N_("Summarise the memory allocations of a trace: totals, peak, heaps, tags, leaks"), strobe_cli_memory },
  { "samples", N_("Sampled CPU call stacks and thread states: call trees, flame graph, per scope"), strobe_cli_samples },
  { "compare", N_("Compare two traces: timers, frame times, memory, log; a regression gate for CI"), strobe_cli_compare },
  { "run", N_("Run a program with its allocations traced (LD_PRELOAD), no code change"), strobe_cli_run },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n  strobe-cli %s\n\n%s\n", _("Usage:"), _("COMMAND [OPTION…] FILE"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run “strobe-cli COMMAND --help” for the options of a command."));
}

/* The command a typo most likely meant ("stat", "sample", "mem"). */
static const char *
closest_command (const char *name)
{
  const char *names[G_N_ELEMENTS (commands)];

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    names[i] = commands[i].name;
  return strobe_cli_closest (name, names, G_N_ELEMENTS (commands));
}

int
main (int argc, char *argv[])
{
  const char *name;

  strobe_build_tree_init_i18n ();
  g_set_prgname ("strobe-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return STROBE_CLI_USAGE_ERROR;
    }
  name = argv[1];
  if (g_str_equal (name, "--help") || g_str_equal (name, "-h") || g_str_equal (name, "help"))
    {
      print_usage (stdout);
      return STROBE_CLI_OK;
    }
  if (g_str_equal (name, "--version"))
    {
      printf ("strobe-cli %s\n", PACKAGE_VERSION);
      return STROBE_CLI_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (name, commands[i].name))
      {
        /* GOptionContext names the program from this in the subcommand's --help. */
        g_autofree char *prgname = g_strconcat ("strobe-cli ", name, NULL);
        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }

  g_printerr (_("strobe-cli: unknown command “%s”\n"), name);
  {
    const char *closest = closest_command (name);

    if (closest != NULL)
      g_printerr (_("Did you mean “%s”?\n"), closest);
  }
  g_printerr ("\n");
  print_usage (stderr);
  return STROBE_CLI_USAGE_ERROR;
}
