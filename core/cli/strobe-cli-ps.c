/* strobe-cli-ps.c — `strobe-cli ps`: the traced programs running on this machine, from
 * their discovery files (runtime/CONTROL.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-cli.h"
#include "strobe-discovery.h"
#include "strobe-text.h"

int
strobe_cli_ps (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (StrobeDiscovery) discovery = NULL;
  g_autofree char *dir = NULL;
  gboolean quiet = FALSE;
  const GOptionEntry entries[] = {
    { "directory", 'd', 0, G_OPTION_ARG_FILENAME, &dir, N_("Read discovery files from DIR"), N_("DIR") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print pids only"), NULL },
    { NULL }
  };
  guint n;

  g_option_context_set_summary (context, _("List the traced programs running on this machine."));
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
  discovery = strobe_discovery_new (dir);
  if (strobe_discovery_get_problem (discovery))
    {
      g_autofree char *problem = strobe_text_escape (strobe_discovery_get_problem (discovery), STROBE_TEXT_PLAIN);
      g_printerr ("strobe-cli: %s\n", problem);
    }
  n = g_list_model_get_n_items (G_LIST_MODEL (discovery));
  if (!quiet)
    printf ("%-8s %-20s %-22s %-8s %s\n", _("PID"), _("PROGRAM"), _("CONTROL"), _("TRACING"), _("OUTPUT"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (StrobeProcessInfo) info = g_list_model_get_item (G_LIST_MODEL (discovery), i);
      g_autofree char *control = g_strdup_printf ("%s:%u", strobe_process_info_get_control_address (info),
                                                  strobe_process_info_get_control_port (info));
      g_autofree char *program = strobe_text_escape (strobe_process_info_get_program (info), STROBE_TEXT_PLAIN);
      g_autofree char *output = strobe_text_escape (strobe_process_info_get_output (info), STROBE_TEXT_PLAIN);

      if (quiet)
        printf ("%u\n", strobe_process_info_get_pid (info));
      else
        printf ("%-8u %-20s %-22s %-8s %s\n", strobe_process_info_get_pid (info), program, control,
                strobe_process_info_get_tracing (info) ? _("yes") : _("no"), output);
    }
  return STROBE_CLI_OK;
}
