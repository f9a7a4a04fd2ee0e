/* strobe-cli-run.c — `strobe-cli run [OPTION…] -- PROGRAM ARGS`: runs any dynamically
 * linked program with libstrobe-preload.so and the Memory channel on, no code change.
 * The program replaces strobe-cli (exec), so its exit status is the command's.
 *
 * Where the interposer is: $STROBE_PRELOAD, else the build tree's when this strobe-cli is
 * the build tree's, else the installed one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "strobe-cli.h"
#include "strobe-control-address.h"

#ifndef STROBE_PRELOAD_BUILD_PATH
#define STROBE_PRELOAD_BUILD_PATH ""
#endif
#ifndef STROBE_PRELOAD_INSTALL_PATH
#define STROBE_PRELOAD_INSTALL_PATH ""
#endif
#ifndef STROBE_CLI_BUILD_PATH
#define STROBE_CLI_BUILD_PATH ""
#endif

static char *
find_preload (void)
{
  const char *env = g_getenv ("STROBE_PRELOAD");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (env && *env)
    return g_strdup (env);
  if (self && g_str_equal (self, STROBE_CLI_BUILD_PATH)
      && g_file_test (STROBE_PRELOAD_BUILD_PATH, G_FILE_TEST_EXISTS))
    return g_strdup (STROBE_PRELOAD_BUILD_PATH);
  return g_strdup (STROBE_PRELOAD_INSTALL_PATH);
}

/* --sample[=HZ]: 0 when not given, else the frequency (the default when no HZ). */
static guint sample_hz;

static gboolean
parse_sample (const char *name, const char *value, gpointer data, GError **error)
{
  guint64 hz = 1000;

  if (value && (!g_ascii_string_to_unsigned (value, 10, 1, 10000, &hz, NULL)))
    {
      /* Translators: %s is what was given after --sample= */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--sample takes a frequency from 1 to 10000 (samples per second per thread), not “%s”"), value);
      return FALSE;
    }
  sample_hz = (guint) hz;
  return TRUE;
}

/* --sample-stack[=BYTES]: 0 when not given, else the bytes of stack each sample copies. */
static guint sample_stack;

static gboolean
parse_sample_stack (const char *name, const char *value, gpointer data, GError **error)
{
  guint64 bytes = 8192;

  if (value && (!g_ascii_string_to_unsigned (value, 10, 64, 61440, &bytes, NULL)))
    {
      /* Translators: %s is what was given after --sample-stack= */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--sample-stack takes a size from 64 to 61440 bytes, not “%s”"), value);
      return FALSE;
    }
  sample_stack = (guint) bytes;
  if (sample_hz == 0)
    sample_hz = 1000;   /* copies are of samples: it implies --sample */
  return TRUE;
}

static void
setenv_uint (const char *name,
             guint       value)
{
  char text[16];

  g_snprintf (text, sizeof text, "%u", value);
  g_setenv (name, text, TRUE);
}

/* One session for everything this run starts, so a recorder files the traces as one
 * group; a session the caller chose (STROBE_SESSION) is kept. */
static void
set_session (const char *program)
{
  g_autofree char *base = NULL;
  g_autofree char *session = NULL;

  if (g_getenv ("STROBE_SESSION") && *g_getenv ("STROBE_SESSION"))
    return;
  base = g_path_get_basename (program);
  session = g_strdup_printf ("%.200s-%d", base, (int) getpid ());
  g_setenv ("STROBE_SESSION", session, TRUE);
}

int
strobe_cli_run (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *trace = NULL, *tracefile = NULL, *tracehost = NULL, *preload = NULL;
  g_autofree char *channels = NULL, *ld_preload = NULL;
  g_auto(GStrv) rest = NULL;
  gboolean callstacks = FALSE, follow = FALSE, live_table = FALSE, addresses = FALSE, late = FALSE;
  gint stack_depth = 0;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_STRING, &trace, N_("More channels to enable (memory is always on)"), N_("A,B") },
    { "tracefile", 0, 0, G_OPTION_ARG_FILENAME, &tracefile, N_("Write the trace to PATH (default: PROGRAM-PID.strobe here)"), N_("PATH") },
    { "tracehost", 0, 0, G_OPTION_ARG_STRING, &tracehost, N_("Send the trace to a recorder"), N_("HOST[:PORT]") },
    { "sample", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_sample, N_("Sample the CPU call stacks and thread states too, HZ times a second per thread (default 1000)"), N_("HZ") },
    { "sample-stack", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_sample_stack, N_("With each sample, copy BYTES of the thread's stack (default 8192), unwound in the analysis: whole call stacks in code built without frame pointers"), N_("BYTES") },
    { "callstacks", 0, 0, G_OPTION_ARG_NONE, &callstacks, N_("Record the call stack of every allocation"), NULL },
    { "stack-depth", 0, 0, G_OPTION_ARG_INT, &stack_depth, N_("Keep N frames of each call stack (2 to 512, default 64; a deeper stack is marked [truncated])"), N_("N") },
    { "follow-children", 0, 0, G_OPTION_ARG_NONE, &follow, N_("Trace the programs it starts too, each to a trace of its own"), NULL },
    { "addresses", 0, 0, G_OPTION_ARG_NONE, &addresses, N_("Record the address of every allocation (a bigger trace)"), NULL },
    { "live-table", 0, 0, G_OPTION_ARG_NONE, &live_table, N_("Keep the table of live allocations even while tracing is off (for later connects)"), NULL },
    { "late", 0, 0, G_OPTION_ARG_NONE, &late, N_("Start with tracing off, keeping the table of live allocations, for a later connect"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("-- PROGRAM [ARG…]") },
    { NULL },
  };

  context = g_option_context_new (_("— run a program with its allocations traced"));
  g_option_context_set_description (context,
    _("The program must be dynamically linked. Its allocations (malloc, calloc, realloc, free,\n"
      "posix_memalign, aligned_alloc, memalign, valloc, pvalloc) go to heap 0 on the Memory\n"
      "channel. Programs it starts are not traced (nothing of Strobe is left in their\n"
      "environment) unless --follow-children: then each one it execs or forks writes its own\n"
      "trace, PROGRAM-PID.strobe next to --tracefile (or connects to --tracehost on its own).\n"
      "Every trace of one run names one session (STROBE_SESSION, default PROGRAM-PID), so a\n"
      "recorder keeps them as one group.\n"
      "A program that links libstrobe itself keeps one runtime: the allocations go into its\n"
      "trace, with its own events. The exit status is the program's."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  /* Everything from PROGRAM on is the program's, "--" or not. */
  g_option_context_set_strict_posix (context, TRUE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return STROBE_CLI_USAGE_ERROR;
    }
  if (rest == NULL || rest[0] == NULL)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
      g_printerr ("strobe-cli: %s\n\n%s", _("missing PROGRAM"), help);
      return STROBE_CLI_USAGE_ERROR;
    }
  if (late && (tracefile || tracehost || trace || follow))
    {
      g_printerr ("%s\n", _("strobe-cli: --late starts with tracing off: it takes no --tracefile, --tracehost, --trace or --follow-children"));
      return STROBE_CLI_USAGE_ERROR;
    }
  if (stack_depth != 0 && (stack_depth < 2 || stack_depth > 512))
    {
      g_printerr (_("strobe-cli: --stack-depth takes 2 to 512 frames, not %d\n"), stack_depth);
      return STROBE_CLI_USAGE_ERROR;
    }
  if (tracefile && tracehost)
    {
      g_printerr ("%s\n", _("strobe-cli: give --tracefile or --tracehost, not both"));
      return STROBE_CLI_USAGE_ERROR;
    }
  if (tracehost)
    {
      g_autofree char *host = NULL;
      guint16 port;

      if (!strobe_control_parse_address (tracehost, 1980, &host, &port, &error))
        {
          g_printerr ("strobe-cli: --tracehost: %s\n", error->message);
          return STROBE_CLI_USAGE_ERROR;
        }
    }

  preload = find_preload ();
  if (!g_file_test (preload, G_FILE_TEST_IS_REGULAR))
    {
      g_printerr (_("strobe-cli: the interposer %s is missing (set STROBE_PRELOAD)\n"), preload);
      return STROBE_CLI_FAILED;
    }
  if (late)
    {
      /* execvp keeps this process: the program's pid is ours. */
      g_printerr (_("strobe-cli: %s runs as pid %d with tracing off; connect with the viewer or "
                    "strobe-cli control %d write-to FILE, then channels memory on\n"),
                  rest[0], (int) getpid (), (int) getpid ());
    }
  else if (tracefile == NULL && tracehost == NULL)
    {
      g_autofree char *base = g_path_get_basename (rest[0]);
      tracefile = g_strdup_printf ("%s-%d.strobe", base, (int) getpid ());
      g_printerr (_("strobe-cli: tracing to %s\n"), tracefile);
    }
  channels = g_strconcat ("memory", trace && *trace ? "," : "", trace ? trace : "",
                          sample_hz ? ",sampling" : "", NULL);
  ld_preload = g_getenv ("LD_PRELOAD") && *g_getenv ("LD_PRELOAD")
                 ? g_strconcat (preload, ":", g_getenv ("LD_PRELOAD"), NULL) : g_strdup (preload);

  g_unsetenv ("STROBE_TRACEFILE");
  g_unsetenv ("STROBE_TRACEHOST");
  if (late)
    g_unsetenv ("STROBE_TRACE");
  else
    g_setenv ("STROBE_TRACE", channels, TRUE);
  if (tracefile)
    g_setenv ("STROBE_TRACEFILE", tracefile, TRUE);
  else if (tracehost)
    g_setenv ("STROBE_TRACEHOST", tracehost, TRUE);
  if (callstacks)
    g_setenv ("STROBE_CALLSTACKS", "1", TRUE);
  if (stack_depth)
    setenv_uint ("STROBE_STACK_DEPTH", (guint) stack_depth);
  if (sample_hz)
    setenv_uint ("STROBE_SAMPLING_HZ", sample_hz);
  if (sample_stack)
    setenv_uint ("STROBE_SAMPLING_STACK", sample_stack);
  if (addresses)
    g_setenv ("STROBE_MEMORY_ADDRESSES", "1", TRUE);
  if (live_table || late)
    g_setenv ("STROBE_MEMORY_LIVE_TABLE", "1", TRUE);
  set_session (rest[0]);
  if (follow)
    {
      /* A child that forks without exec traces too, to a trace of its own. */
      g_setenv ("STROBE_FOLLOW_FORK", "1", TRUE);
      /* Children's traces go where the first one does. */
      g_autofree char *dir = tracefile ? g_path_get_dirname (tracefile) : g_strdup (".");
      g_autofree char *abs = g_path_is_absolute (dir) ? g_strdup (dir) : g_canonicalize_filename (dir, NULL);
      g_setenv ("STROBE_FOLLOW_CHILDREN", abs, TRUE);
    }
  else
    g_unsetenv ("STROBE_FOLLOW_CHILDREN");
  g_setenv ("LD_PRELOAD", ld_preload, TRUE);
  fflush (NULL);
  execvp (rest[0], rest);
  g_printerr ("strobe-cli: %s: %s\n", rest[0], g_strerror (errno));
  return errno == ENOENT ? 127 : 126;
}
