/* strobe-cli-log.c — `strobe-cli log FILE`: the Log channel's messages, filtered by
 * verbosity, category, thread, text and time; and `export --format=csv --what=log`.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-log-model.h"

int
strobe_cli_export_log_csv (StrobeCliExportArgs *a)
{
  StrobeLogModel *model = strobe_document_get_log (a->document);
  guint64 n;
  GString *out = g_string_new ("time_s,thread,category,verbosity,file,line,message\n");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean ok = TRUE;

  n = strobe_log_model_get_count (model);
  for (guint64 i = 0; i < n && ok; i++)
    {
      StrobeLogMessage m;

      if (!strobe_log_model_get_message (model, i, &m))
        break;
      if (m.time < a->t0 || m.time > a->t1)
        {
          g_free (m.text);
          continue;
        }
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9f",
                                             strobe_trace_clock_to_seconds (&a->clock, m.time)));
      g_string_append_printf (out, ",%u,", m.thread_id);
      strobe_cli_append_csv_field (out, m.spec && m.spec->category ? m.spec->category->name : "");
      g_string_append_printf (out, ",%s,", strobe_log_verbosity_name (m.verbosity));
      strobe_cli_append_csv_field (out, m.spec && m.spec->file ? m.spec->file : "");
      g_string_append_printf (out, ",%d,", m.spec ? m.spec->line : 0);
      strobe_cli_append_csv_field (out, m.text);
      g_string_append_c (out, '\n');
      g_free (m.text);
      if (out->len > (1 << 20))
        {
          ok = strobe_cli_write (a->out, out->str, out->len);
          g_string_truncate (out, 0);
        }
    }
  ok = ok && strobe_cli_write (a->out, out->str, out->len);
  g_string_free (out, TRUE);
  return ok ? STROBE_CLI_OK : STROBE_CLI_DECODE_ERROR;
}

int
strobe_cli_log (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(GStrv) original = g_strdupv (argv);   /* for several FILEs: each again */
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) hits = NULL;
  StrobeLogModel *model;
  StrobeThreadsModel *thread_table;
  StrobeTraceClock clock;
  g_autoptr(GArray) category_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) thread_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autofree char *verbosity = NULL, *grep = NULL, *from = NULL, *to = NULL;
  g_auto(GStrv) categories = NULL, threads = NULL;
  gboolean ignore_case = FALSE, location = FALSE, count_only = FALSE;
  gint limit = -1;
  StrobeLogFilter filter = { 0 };
  const char *file;
  int status;
  GOptionEntry entries[] = {
    { "verbosity", 'v', 0, G_OPTION_ARG_STRING, &verbosity, N_("Only messages at LEVEL or more severe (fatal, error, warning, display, log, verbose, very-verbose)"), N_("LEVEL") },
    { "category", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &categories, N_("Only this category (repeat, or separate with commas)"), N_("NAME") },
    { "thread", 't', 0, G_OPTION_ARG_STRING_ARRAY, &threads, N_("Only this thread id (repeat, or separate with commas)"), N_("ID") },
    { "grep", 'g', 0, G_OPTION_ARG_STRING, &grep, N_("Only messages whose text contains TEXT"), N_("TEXT") },
    { "ignore-case", 'i', 0, G_OPTION_ARG_NONE, &ignore_case, N_("Match --grep without regard to ASCII case"), NULL },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Only messages after TIME (seconds from the trace's start; or 250ms, 10us…)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("Only messages before TIME"), N_("TIME") },
    { "location", 'l', 0, G_OPTION_ARG_NONE, &location, N_("Show the file and line of each message"), NULL },
    { "count", 0, 0, G_OPTION_ARG_NONE, &count_only, N_("Print only the number of matching messages"), NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Print at most N messages"), N_("N") },
    { NULL },
  };

  context = g_option_context_new (_("FILE — print the log messages of a trace"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  if (files->len > 1)
    return strobe_cli_run_per_file (original, files, strobe_cli_log);
  file = g_ptr_array_index (files, 0);
  if (verbosity && (filter.max_verbosity = strobe_log_verbosity_parse (verbosity)) == 0)
    {
      g_printerr (_("strobe-cli: unknown verbosity “%s”\n"), verbosity);
      return STROBE_CLI_USAGE_ERROR;
    }
  for (guint i = 0; threads && threads[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (threads[i], ",", -1);
      for (guint k = 0; parts[k]; k++)
        {
          guint64 v;
          guint16 id;
          if (!g_ascii_string_to_unsigned (parts[k], 10, 1, G_MAXUINT16, &v, NULL))
            {
              g_printerr (_("strobe-cli: --thread takes thread ids, not “%s”\n"), parts[k]);
              return STROBE_CLI_USAGE_ERROR;
            }
          id = (guint16) v;
          g_array_append_val (thread_ids, id);
        }
    }
  status = strobe_cli_load (file, STROBE_DOCUMENT_MODEL_LOG, NULL, &document, &error);
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return status;
  model = strobe_document_get_log (document);
  thread_table = strobe_document_get_threads (document);
  strobe_document_get_clock (document, &clock);
  {
    guint64 t0, t1;

    if (!strobe_cli_time_range (document, from, to, &t0, &t1))
      return STROBE_CLI_USAGE_ERROR;
    filter.time_min = t0;
    filter.time_max = t1 == G_MAXUINT64 ? 0 : t1;
  }
  for (guint i = 0; categories && categories[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (categories[i], ",", -1);
      for (guint k = 0; parts[k]; k++)
        {
          const StrobeLogCategoryInfo *c = strobe_log_model_find_category (model, parts[k]);
          /* An unknown category matches nothing, not everything. */
          guint32 id = c ? c->id : G_MAXUINT32;
          g_array_append_val (category_ids, id);
        }
    }
  if (category_ids->len)
    {
      filter.categories = (const guint32 *) (void *) category_ids->data;
      filter.n_categories = category_ids->len;
    }
  if (thread_ids->len)
    {
      filter.threads = (const guint16 *) (void *) thread_ids->data;
      filter.n_threads = thread_ids->len;
    }
  filter.text = grep;
  filter.ignore_case = ignore_case;

  hits = strobe_log_model_filter (model, &filter, 0, G_MAXUINT64);
  if (count_only)
    {
      printf ("%u\n", hits->len);
      return status;
    }
  for (guint i = 0; i < hits->len && (limit < 0 || i < (guint) limit); i++)
    {
      StrobeLogMessage m;
      StrobeThreadInfo thread = { 0 };
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *name = NULL, *category = NULL, *text = NULL, *where = NULL;

      if (!strobe_log_model_get_message (model, g_array_index (hits, guint64, i), &m))
        continue;
      strobe_threads_model_lookup (thread_table, m.thread_id, &thread);
      /* Everything from the trace is escaped: a message must not drive the terminal. */
      name = strobe_text_escape (thread.name && *thread.name ? thread.name : "-", STROBE_TEXT_PLAIN);
      category = strobe_text_escape (m.spec && m.spec->category ? m.spec->category->name : "?",
                                     STROBE_TEXT_PLAIN);
      text = strobe_text_escape (m.text, STROBE_TEXT_PLAIN);
      printf ("%12s  %-5u %-14s %-14s %-12s %s",
              g_ascii_formatd (buf, sizeof buf, "%.6f", strobe_trace_clock_to_seconds (&clock, m.time)),
              m.thread_id, name, category, strobe_log_verbosity_name (m.verbosity), text);
      if (location && m.spec)
        {
          where = strobe_text_escape (m.spec->file, STROBE_TEXT_PLAIN);
          printf ("  (%s:%d)", where, m.spec->line);
        }
      putchar ('\n');
      g_free (m.text);
      strobe_thread_info_clear (&thread);
    }
  return status;
}
