/* strobe-cli.h — the subcommands of strobe-cli.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes shared by every subcommand. */
enum
{
  STROBE_CLI_OK = 0,
  STROBE_CLI_DECODE_ERROR = 1,
  STROBE_CLI_USAGE_ERROR = 2,
  STROBE_CLI_FAILED = 1,         /* a command that talks to a program or server failed */
};

typedef struct
{
  const char *name;
  const char *summary;   /* untranslated; translated when shown */
  int       (*run) (int argc, char **argv);
} StrobeCliCommand;

int  strobe_cli_info (int argc, char **argv);
int  strobe_cli_dump (int argc, char **argv);
int  strobe_cli_ps (int argc, char **argv);
int  strobe_cli_control (int argc, char **argv);

/* Parses the subcommand's options and its single FILE argument; prints the problem and
 * returns FALSE on a usage error. */
gboolean strobe_cli_parse_file_args (GOptionContext *context, int *argc, char ***argv,
                                     const char **file);

G_END_DECLS
