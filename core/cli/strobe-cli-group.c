/* strobe-cli-group.c — what the subcommands that take several traces share: FILE… or
 * --group NAME (a session group of the trace store), each trace opened as a document,
 * all of them aligned on one time axis (strobe-clock-align.h) and named per process.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-cli.h"
#include "strobe-clock-align.h"
#include "strobe-store-group.h"
#include "strobe-text.h"

static char *group_name;
static char *store_dir;

void
strobe_cli_add_group_options (GOptionContext *context)
{
  static GOptionEntry entries[] = {
    { "group", 0, 0, G_OPTION_ARG_STRING, &group_name, N_("Every trace of the session group NAME in the trace store, instead of FILEs"), N_("NAME") },
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store_dir, N_("The trace store for --group (default: the user's)"), N_("DIR") },
    { NULL },
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

/* The members' paths, oldest first, as the store lists them. */
static GPtrArray *
group_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeStore) store = strobe_store_new (store_dir, &error);
  g_autoptr(StrobeStoreGroup) group = NULL;
  GPtrArray *files;

  if (store == NULL)
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return NULL;
    }
  group = strobe_store_dup_group (store, group_name);
  if (group == NULL)
    {
      g_autofree char *name = strobe_text_escape (group_name, STROBE_TEXT_PLAIN);
      /* Translators: %s is a session name, then the store's directory */
      g_printerr (_("strobe-cli: no trace of the session “%s” in the store %s\n"), name,
                  strobe_store_get_directory (store));
      return NULL;
    }
  files = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < group->members->len; i++)
    g_ptr_array_add (files, g_strdup (strobe_trace_get_path (g_ptr_array_index (group->members, i))));
  return files;
}

gboolean
strobe_cli_parse_files_args (GOptionContext *context, int *argc, char ***argv, GPtrArray **files)
{
  g_autoptr(GError) error = NULL;

  strobe_cli_add_group_options (context);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return FALSE;
    }
  if (group_name != NULL)
    {
      if (*argc > 1)
        {
          g_printerr ("%s\n", _("strobe-cli: give FILEs or --group, not both"));
          return FALSE;
        }
      return (*files = group_files ()) != NULL;
    }
  if (*argc < 2)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
      g_printerr ("strobe-cli: %s\n\n%s", _("missing FILE"), help);
      return FALSE;
    }
  *files = g_ptr_array_new_with_free_func (g_free);
  for (int i = 1; i < *argc; i++)
    g_ptr_array_add (*files, g_strdup ((*argv)[i]));
  return TRUE;
}

void
strobe_cli_member_free (StrobeCliMember *m)
{
  if (m == NULL)
    return;
  g_free (m->file);
  g_free (m->label);
  g_free (m->alignment_text);
  g_clear_object (&m->measures);
  g_clear_object (&m->document);
  g_clear_object (&m->flows);
  g_clear_object (&m->nesting);
  g_free (m);
}

/* strobe_cli_load() with the analyzers asked for (the flow points, the nesting) and the
 * clock measures a trace of another machine is aligned by. */
static int
load_member (StrobeCliMember *m, StrobeDocumentModels models, GError **error)
{
  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (m->file);

  m->document = strobe_document_new (gfile, models);
  if (m->flows != NULL)
    strobe_document_add_analyzer (m->document, STROBE_ANALYZER (m->flows));
  if (m->nesting != NULL)
    strobe_document_add_analyzer (m->document, STROBE_ANALYZER (m->nesting));
  strobe_document_add_analyzer (m->document, STROBE_ANALYZER (m->measures));
  return strobe_document_load (m->document, NULL, error) ? STROBE_CLI_OK : STROBE_CLI_DECODE_ERROR;
}

GPtrArray *
strobe_cli_load_members (GPtrArray *files, StrobeDocumentModels models, StrobeCliMemberReads reads, int *status)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_cli_member_free);
  g_autofree StrobeClockAlignMember *align = g_new0 (StrobeClockAlignMember, files->len);
  g_autoptr(GHashTable) pids = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) measures = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  *status = STROBE_CLI_OK;
  for (guint i = 0; i < files->len; i++)
    {
      StrobeCliMember *m = g_new0 (StrobeCliMember, 1);
      g_autoptr(GError) error = NULL;
      const StrobeWireMetadata *meta;
      g_autofree char *program = NULL;

      m->file = g_strdup (g_ptr_array_index (files, i));
      m->flows = reads & STROBE_CLI_MEMBER_FLOWS ? strobe_flow_points_new () : NULL;
      m->nesting = reads & STROBE_CLI_MEMBER_NESTING ? strobe_timer_stream_new_nesting_only () : NULL;
      m->measures = strobe_clock_measures_new ();
      m->status = load_member (m, models, &error);
      if (error != NULL)
        strobe_cli_print_load_error (m->file, error);
      if (m->status != STROBE_CLI_OK)
        *status = m->status;
      meta = strobe_document_get_metadata (m->document);
      m->pid = meta ? meta->process_id : 0;
      program = meta && meta->program_name_len
                  ? g_utf8_make_valid (meta->program_name, (gssize) meta->program_name_len)
                  : g_path_get_basename (m->file);
      m->label = g_strdup_printf ("%s (pid %u)", program, m->pid);
      /* Chrome's format keys processes by pid: two traces of one pid (two machines, a
       * recycled pid) must not become one process. */
      m->export_pid = m->pid;
      while (m->export_pid == 0 || g_hash_table_contains (pids, GUINT_TO_POINTER (m->export_pid)))
        m->export_pid += 1000000;
      g_hash_table_add (pids, GUINT_TO_POINTER (m->export_pid));

      align[i].metadata = meta;
      strobe_document_get_clock (m->document, &align[i].clock);
      align[i].has_extent = strobe_document_get_extent (m->document, &align[i].first, &align[i].last);
      g_ptr_array_add (measures, strobe_clock_measures_dup (m->measures));
      align[i].measures = (const StrobeClockMeasure *) ((GArray *) measures->pdata[i])->data;
      align[i].n_measures = ((GArray *) measures->pdata[i])->len;
      g_ptr_array_add (members, m);
    }
  strobe_clock_align (align, files->len);
  for (guint i = 0; i < members->len; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (members, i);
      m->clock = align[i].clock;
      m->alignment = align[i].alignment;
      m->alignment_text = strobe_clock_align_describe (&align[i]);
    }
  return members;
}

void
strobe_cli_print_member_header (StrobeCliMember *m, guint index, guint n)
{
  g_autofree char *label = strobe_text_escape (m->label, STROBE_TEXT_PLAIN);
  g_autofree char *file = strobe_text_escape (m->file, STROBE_TEXT_PLAIN);

  if (index > 0)
    printf ("\n");
  /* Translators: a header before each process's part of the output: its number of all,
   * the program and pid, the file, and how its clock was aligned with the others' */
  printf (_("== Process %u of %u: %s — %s (%s)\n"), index + 1, n, label, file,
          m->alignment_text ? m->alignment_text : strobe_clock_alignment_name (m->alignment));
}

gboolean
strobe_cli_is_group_option (const char *arg, gboolean *takes_value)
{
  static const char *const names[] = { "--group", "--store" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gsize n = strlen (names[i]);
      if (strncmp (arg, names[i], n) == 0 && (arg[n] == '\0' || arg[n] == '='))
        {
          *takes_value = arg[n] == '\0';
          return TRUE;
        }
    }
  return FALSE;
}

int
strobe_cli_run_per_file (char **original, GPtrArray *files, int (*run) (int argc, char **argv))
{
  int worst = STROBE_CLI_OK;

  /* The files are named again one at a time, with the options as given. */
  g_clear_pointer (&group_name, g_free);
  g_clear_pointer (&store_dir, g_free);
  for (guint f = 0; f < files->len; f++)
    {
      const char *file = g_ptr_array_index (files, f);
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *shown = strobe_text_escape (file, STROBE_TEXT_PLAIN);
      gboolean dashdash = FALSE;
      int status;

      g_ptr_array_add (argv, original[0]);
      for (guint i = 1; original[i]; i++)
        {
          gboolean takes_value = FALSE;
          gboolean is_file = FALSE;

          if (!dashdash && strobe_cli_is_group_option (original[i], &takes_value))
            {
              i += takes_value && original[i + 1];
              continue;
            }
          if (g_str_equal (original[i], "--"))
            dashdash = TRUE;
          for (guint k = 0; k < files->len && !is_file; k++)
            is_file = g_str_equal (original[i], g_ptr_array_index (files, k));
          if (!is_file)
            g_ptr_array_add (argv, original[i]);
        }
      g_ptr_array_add (argv, (char *) file);
      g_ptr_array_add (argv, NULL);
      if (f > 0)
        printf ("\n");
      /* Translators: a header before each trace's part of the output: its number of all,
       * and its file */
      printf (_("== Process %u of %u: %s\n"), f + 1, files->len, shown);
      fflush (stdout);
      status = run ((int) argv->len - 1, (char **) argv->pdata);
      fflush (stdout);
      if (status > worst)
        worst = status;
    }
  return worst;
}
