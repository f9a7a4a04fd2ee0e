/* strobe-cli-log.c — `strobe-cli log FILE`: the Log channel's messages, filtered by
 * verbosity, category, thread, text and time; and `export --format=csv --what=log`.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-log-format.h"
#include "strobe-log-model.h"
#include "strobe-log-tally.h"

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

/* What `log` was asked for, the same for every trace it reads. */
typedef struct
{
  StrobeLogFilter  base;          /* verbosity, threads, text; times and categories per trace */
  char           **categories;
  GPtrArray       *thread_names;  /* --thread values that are no id: names, per trace */
  char           **processes;     /* several traces: pids or program names */
  const char      *from;
  const char      *to;
  gboolean         location;
  gboolean         count_only;
  gint             limit;
} LogQuery;

/* @q for @document: its category ids (an unknown name matches nothing, not everything) in
 * @category_ids, and --from/--to as its ticks — of the trace's own clock, or, for a group
 * (@group_axis), of the group's one axis, where a time outside this trace is no error. */
static gboolean
filter_for (StrobeDocument *document, const LogQuery *q, gboolean group_axis, GArray *category_ids,
            GArray *thread_ids, StrobeLogFilter *filter)
{
  StrobeLogModel *model = strobe_document_get_log (document);
  guint64 t0 = 0, t1 = G_MAXUINT64;

  *filter = q->base;
  if (!group_axis)
    {
      if (!strobe_cli_time_range (document, q->from, q->to, &t0, &t1))
        return FALSE;
    }
  else
    {
      StrobeTraceClock clock;
      gdouble s;

      strobe_document_get_clock (document, &clock);
      if (q->from && strobe_cli_parse_time (q->from, &s))
        t0 = strobe_trace_clock_from_seconds (&clock, s);
      if (q->to && strobe_cli_parse_time (q->to, &s))
        t1 = strobe_trace_clock_from_seconds (&clock, s);
    }
  filter->time_min = t0;
  filter->time_max = t1 == G_MAXUINT64 ? 0 : t1;
  for (guint i = 0; q->categories && q->categories[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (q->categories[i], ",", -1);
      for (guint k = 0; parts[k]; k++)
        {
          const StrobeLogCategoryInfo *c = strobe_log_model_find_category (model, parts[k]);
          guint32 id = c ? c->id : G_MAXUINT32;
          g_array_append_val (category_ids, id);
        }
    }
  if (category_ids->len)
    {
      filter->categories = (const guint32 *) (void *) category_ids->data;
      filter->n_categories = category_ids->len;
    }
  if (q->thread_names->len)
    {
      g_autoptr(GArray) all = strobe_threads_model_get_threads (strobe_document_get_threads (document));
      /* No thread has it: the name matches nothing, not everything. */
      guint16 none = G_MAXUINT16;

      g_array_append_vals (thread_ids, q->base.threads, q->base.n_threads);
      for (guint i = 0; i < q->thread_names->len; i++)
        for (guint t = 0; t < all->len; t++)
          if (g_ascii_strcasecmp (g_array_index (all, StrobeThreadInfo, t).name, g_ptr_array_index (q->thread_names, i)) == 0)
            g_array_append_val (thread_ids, g_array_index (all, StrobeThreadInfo, t).id);
      if (thread_ids->len == 0)
        g_array_append_val (thread_ids, none);
      filter->threads = (const guint16 *) (void *) thread_ids->data;
      filter->n_threads = thread_ids->len;
    }
  return TRUE;
}

/* A --thread name that no thread of the trace has: said, with the trace's thread names and
 * the likely one, as for categories. FALSE when one was unknown. */
static gboolean
threads_known (StrobeDocument *document, const char *file, const LogQuery *q)
{
  g_autoptr(GArray) all = NULL;
  g_autoptr(GString) names = NULL;
  g_autofree const char **list = NULL;
  gboolean ok = TRUE;

  if (q->thread_names->len == 0)
    return TRUE;
  all = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  names = g_string_new (NULL);
  list = g_new (const char *, all->len + 1);
  for (guint t = 0; t < all->len; t++)
    {
      const StrobeThreadInfo *info = &g_array_index (all, StrobeThreadInfo, t);

      list[t] = info->name;
      g_string_append_printf (names, "%s%u %s", t ? ", " : "", info->id, info->name);
    }
  for (guint i = 0; i < q->thread_names->len; i++)
    {
      const char *name = g_ptr_array_index (q->thread_names, i);
      gboolean found = FALSE;
      const char *closest;

      for (guint t = 0; t < all->len && !found; t++)
        found = g_ascii_strcasecmp (list[t], name) == 0;
      if (found)
        continue;
      ok = FALSE;
      /* Translators: a thread name, a file, then the file's threads (id and name each) */
      g_printerr (_("strobe-cli: no thread named “%s” in %s (its threads: %s)\n"), name, file, names->str);
      if ((closest = strobe_cli_closest (name, list, all->len)) != NULL)
        g_printerr (_("Did you mean “%s”?\n"), closest);
    }
  return ok;
}

/* Prints messages of one trace, a line each; @process (NULL: none) names its process,
 * for several traces. The thread's and site's escaped names are kept per thread and per
 * site: a hundred million hits made each of them again (and the model's text cache churn)
 * most of printing. */
typedef struct
{
  StrobeDocument         *document;
  const StrobeTraceClock *clock;
  const char             *process;
  gboolean                location;
  GHashTable             *names;        /* thread id → escaped name */
  GHashTable             *categories;   /* spec (NULL too) → escaped category name */
  GHashTable             *files;        /* spec → escaped file */
  GString                *line;
  GString                *time;
} Printer;

static void
printer_init (Printer *p, StrobeDocument *document, const StrobeTraceClock *clock, const char *process,
              gboolean location)
{
  p->document = document;
  p->clock = clock;
  p->process = process;
  p->location = location;
  p->names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  p->categories = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  p->files = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  p->line = g_string_new (NULL);
  p->time = g_string_new (NULL);
}

static void
printer_clear (Printer *p)
{
  g_clear_pointer (&p->names, g_hash_table_unref);
  g_clear_pointer (&p->categories, g_hash_table_unref);
  g_clear_pointer (&p->files, g_hash_table_unref);
  if (p->line)
    g_string_free (p->line, TRUE);
  if (p->time)
    g_string_free (p->time, TRUE);
  p->line = p->time = NULL;
}

static const char *
thread_name (Printer *p, guint16 thread_id)
{
  char *name = g_hash_table_lookup (p->names, GUINT_TO_POINTER (thread_id));

  if (name == NULL)
    {
      StrobeThreadInfo thread = { 0 };

      strobe_threads_model_lookup (strobe_document_get_threads (p->document), thread_id, &thread);
      /* Everything from the trace is escaped: a message must not drive the terminal. */
      name = strobe_text_escape (thread.name && *thread.name ? thread.name : "-", STROBE_TEXT_PLAIN);
      strobe_thread_info_clear (&thread);
      g_hash_table_insert (p->names, GUINT_TO_POINTER (thread_id), name);
    }
  return name;
}

static const char *
site_text (GHashTable *table, const StrobeLogSpecInfo *spec, const char *raw)
{
  char *text = g_hash_table_lookup (table, spec);

  if (text == NULL)
    g_hash_table_insert (table, (gpointer) spec, text = strobe_text_escape (raw, STROBE_TEXT_PLAIN));
  return text;
}

/* @s then spaces up to @width bytes (printf's "%-Ns"), or spaces first ("%Ns"). */
static void
append_padded (GString *line, const char *s, guint width, gboolean right)
{
  gsize len = strlen (s);

  if (right)
    for (gsize i = len; i < width; i++)
      g_string_append_c (line, ' ');
  g_string_append_len (line, s, (gssize) len);
  if (!right)
    for (gsize i = len; i < width; i++)
      g_string_append_c (line, ' ');
}

/* The line printf ("%12s  [%-24s ]%-5u %-14s %-14s %-12s %s[  (%s:%d)]\n") made, without
 * parsing a format three times a message. */
static void
print_one (Printer *p, const StrobeLogMessage *m)
{
  GString *line = p->line;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char id[16];
  double seconds = strobe_trace_clock_to_seconds (p->clock, m->time);

  g_string_truncate (line, 0);
  /* printf's "%.6f" was a tenth of printing 16.7 M lines. */
  g_string_truncate (p->time, 0);
  if (!strobe_log_format_fixed (p->time, seconds, 6))
    g_string_append (p->time, g_ascii_formatd (buf, sizeof buf, "%.6f", seconds));
  append_padded (line, p->time->str, 12, TRUE);
  g_string_append (line, "  ");
  if (p->process != NULL)
    {
      append_padded (line, p->process, 24, FALSE);
      g_string_append_c (line, ' ');
    }
  g_snprintf (id, sizeof id, "%u", m->thread_id);
  append_padded (line, id, 5, FALSE);
  g_string_append_c (line, ' ');
  append_padded (line, thread_name (p, m->thread_id), 14, FALSE);
  g_string_append_c (line, ' ');
  append_padded (line, site_text (p->categories, m->spec, m->spec && m->spec->category ? m->spec->category->name : "?"),
                 14, FALSE);
  g_string_append_c (line, ' ');
  append_padded (line, strobe_log_verbosity_name (m->verbosity), 12, FALSE);
  g_string_append_c (line, ' ');
  /* Everything from the trace is escaped: a message must not drive the terminal. */
  strobe_text_append_escaped (line, m->text, -1, STROBE_TEXT_PLAIN);
  if (p->location && m->spec)
    g_string_append_printf (line, "  (%s:%d)", site_text (p->files, m->spec, m->spec->file), m->spec->line);
  g_string_append_c (line, '\n');
  fwrite (line->str, 1, line->len, stdout);
}

#define PRINT_BATCH 4096

/* Messages @indexes[0 .. @n), in that order. */
static void
print_messages (Printer *p, const guint64 *indexes, guint n)
{
  g_autofree StrobeLogMessage *batch = g_new (StrobeLogMessage, MIN (n, PRINT_BATCH) + 1);
  StrobeLogModel *model = strobe_document_get_log (p->document);

  for (guint at = 0; at < n; at += PRINT_BATCH)
    {
      guint k = MIN (PRINT_BATCH, n - at);
      guint got = strobe_log_model_get_messages (model, indexes + at, k, batch);

      for (guint i = 0; i < got; i++)
        {
          print_one (p, &batch[i]);
          g_free (batch[i].text);
        }
      if (got < k)
        return;
    }
}

#define LOG_WINDOW (1u << 20)

/* `--count` of every message of one trace (no time, category or limit, which need the
 * whole trace first): counted while the trace is read (formatted on every core), no log model
 * kept — at 100 M messages the model was a 1.2 GB, 9 s load on one thread before a filter
 * that read every packet again. FALSE, having printed nothing, when only the model can
 * answer (a message came before its site: strobe_log_tally_is_exact). STROBE_CLI_LOG_MODEL=1
 * takes the model's way anyway (the tests compare the two). */
static gboolean
log_count_streaming (const char *file, const LogQuery *q, int *status)
{
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrobeLogTally) tally = NULL;

  if (!q->count_only || q->limit >= 0 || q->from != NULL || q->to != NULL || q->categories != NULL
      || q->thread_names->len > 0
      || g_strcmp0 (g_getenv ("STROBE_CLI_LOG_MODEL"), "1") == 0)
    return FALSE;
  tally = strobe_log_tally_new (&q->base);
  *status = strobe_cli_load (file, 0, STROBE_ANALYZER (tally), &document, &error);
  if (!strobe_log_tally_is_exact (tally))
    return FALSE;
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  if (strobe_document_get_status (document) != STROBE_DOCUMENT_STATUS_FAILED)
    printf ("%" G_GUINT64_FORMAT "\n", strobe_log_tally_get_count (tally));
  return TRUE;
}

/* At most this many messages wait to be printed in a streamed `log` (those that came
 * before earlier ones of other threads); past that the model's way is taken. */
#define STREAM_PENDING_MAX (4u << 20)
/* The survey's step: a chunk's messages are printed (those nothing later precedes) once the
 * next chunk begins. */
#define STREAM_CHUNK 65536

typedef struct
{
  Printer printer;
  gint    limit;
  guint64 printed;
} StreamPrint;

static void
stream_print_cb (const StrobeLogMessage *message, gpointer data)
{
  StreamPrint *sp = data;

  if (sp->limit < 0 || sp->printed < (guint64) sp->limit)
    print_one (&sp->printer, message);
  sp->printed++;
}

/* `log` printing the messages of one trace (no --count, time, category or thread name,
 * which need the whole trace first), streamed: a first pass reads the trace with its
 * threads and learns when its messages' times allow printing in the model's order (time,
 * then arrival) while a second reads it again — the messages tested as --count does and
 * printed as soon as no earlier one can come. No model of every message: at 100 M
 * messages the model was GiBs. FALSE, having printed nothing, when only the model can
 * answer (a message came before its site, or too many would wait: a thread sending its
 * early messages late). STROBE_CLI_LOG_MODEL=1 takes the model's way anyway. */
static gboolean
log_print_streaming (const char *file, const LogQuery *q, int *status)
{
  g_autoptr(StrobeDocument) document = NULL, again = NULL;
  g_autoptr(GError) error = NULL, error_again = NULL;
  g_autoptr(StrobeLogTally) survey = NULL, tally = NULL;
  StrobeTraceClock clock;
  StreamPrint sp = { { 0 }, q->limit, 0 };

  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (file);
  g_autofree char *path = g_file_get_path (gfile);

  /* Read twice: a regular file only (a pipe is read once). */
  if (q->count_only || q->from != NULL || q->to != NULL || q->categories != NULL || q->thread_names->len > 0
      || path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR)
      || g_strcmp0 (g_getenv ("STROBE_CLI_LOG_MODEL"), "1") == 0)
    return FALSE;
  survey = strobe_log_tally_new_survey (STREAM_CHUNK);
  *status = strobe_cli_load (file, STROBE_DOCUMENT_MODEL_THREADS, STROBE_ANALYZER (survey), &document, &error);
  if (!strobe_log_tally_survey_order (survey, STREAM_PENDING_MAX))
    return FALSE;
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return TRUE;
  /* The first pass's threads and clock: the whole trace's, as the model's way prints. */
  strobe_document_get_clock (document, &clock);
  printer_init (&sp.printer, document, &clock, NULL, q->location);
  tally = strobe_log_tally_new (&q->base);
  strobe_log_tally_stream (tally, survey, stream_print_cb, &sp);
  /* The same file again: the same messages, the same error (said once). */
  strobe_cli_load (file, 0, STROBE_ANALYZER (tally), &again, &error_again);
  printer_clear (&sp.printer);
  return TRUE;
}

/* A --category that names none of the trace's categories is most likely a typo: said,
 * with the trace's categories and the one it most likely meant, rather than printing
 * nothing as if no message matched. FALSE when one was unknown. */
static gboolean
categories_known (StrobeDocument *document, const char *file, const LogQuery *q)
{
  StrobeLogModel *model = strobe_document_get_log (document);
  gboolean ok = TRUE;

  for (guint i = 0; q->categories && q->categories[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (q->categories[i], ",", -1);

      for (guint k = 0; parts[k]; k++)
        {
          g_autoptr(GPtrArray) all = NULL;
          g_autoptr(GString) names = NULL;
          g_autofree const char **list = NULL;
          const char *closest;

          if (strobe_log_model_find_category (model, parts[k]) != NULL)
            continue;
          ok = FALSE;
          all = strobe_log_model_get_categories (model);
          names = g_string_new (NULL);
          list = g_new (const char *, all->len + 1);
          for (guint c = 0; c < all->len; c++)
            {
              list[c] = ((const StrobeLogCategoryInfo *) g_ptr_array_index (all, c))->name;
              g_string_append_printf (names, "%s%s", c ? ", " : "", list[c]);
            }
          if (all->len == 0)
            /* Translators: %s is a category name, then a file */
            g_printerr (_("strobe-cli: no category “%s” in %s: it has no log categories\n"), parts[k], file);
          else
            /* Translators: a category name, a file, then the file's categories */
            g_printerr (_("strobe-cli: no category “%s” in %s (its categories: %s)\n"), parts[k], file, names->str);
          if ((closest = strobe_cli_closest (parts[k], list, all->len)) != NULL)
            g_printerr (_("Did you mean “%s”?\n"), closest);
        }
    }
  return ok;
}

static int
log_one (const char *file, const LogQuery *q)
{
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) category_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) thread_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) hits = NULL;
  StrobeTraceClock clock;
  StrobeLogFilter filter;
  StrobeLogModel *model;
  guint64 n, shown = 0;
  int status;
  Printer printer = { 0 };

  if (log_count_streaming (file, q, &status) || log_print_streaming (file, q, &status))
    return status;
  status = strobe_cli_load (file, STROBE_DOCUMENT_MODEL_LOG, NULL, &document, &error);
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return status;
  strobe_document_get_clock (document, &clock);
  if (!categories_known (document, file, q) || !threads_known (document, file, q)
      || !filter_for (document, q, FALSE, category_ids, thread_ids, &filter))
    return STROBE_CLI_USAGE_ERROR;
  /* A window of positions at a time: the hits of a hundred million messages would take
   * more memory than the model itself, and the first lines print at once. */
  model = strobe_document_get_log (document);
  n = strobe_log_model_get_count (model);
  printer_init (&printer, document, &clock, NULL, q->location);
  for (guint64 from = 0; from < n && (q->limit < 0 || shown < (guint64) q->limit); from += LOG_WINDOW)
    {
      hits = strobe_log_model_filter (model, &filter, from, MIN (n, from + LOG_WINDOW));
      if (q->count_only)
        shown += hits->len;
      else
        {
          guint k = q->limit < 0 ? hits->len : (guint) MIN ((guint64) hits->len, (guint64) q->limit - shown);

          print_messages (&printer, (const guint64 *) (void *) hits->data, k);
          shown += k;
        }
      g_clear_pointer (&hits, g_array_unref);
    }
  printer_clear (&printer);
  if (q->count_only)
    printf ("%" G_GUINT64_FORMAT "\n", shown);
  return status;
}

/* A message of one of several traces, for merging them in time. */
typedef struct
{
  gdouble seconds;
  guint   member;
  guint64 index;
} Hit;

static int
by_time (gconstpointer a, gconstpointer b)
{
  const Hit *x = a, *y = b;

  if (x->seconds != y->seconds)
    return x->seconds < y->seconds ? -1 : 1;
  if (x->member != y->member)
    return x->member < y->member ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static gboolean
process_wanted (const StrobeCliMember *m, char **processes)
{
  const StrobeWireMetadata *meta = strobe_document_get_metadata (m->document);

  if (processes == NULL)
    return TRUE;
  for (guint i = 0; processes[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (processes[i], ",", -1);
      for (guint k = 0; parts[k]; k++)
        {
          guint64 pid;

          if (g_ascii_string_to_unsigned (parts[k], 10, 0, G_MAXUINT32, &pid, NULL) && pid == m->pid)
            return TRUE;
          if (meta && meta->program_name_len == strlen (parts[k])
              && memcmp (meta->program_name, parts[k], meta->program_name_len) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

/* Several traces (a group): every process's messages in one list, in time on the group's
 * one axis, each with its process; --process keeps some of them. */
static int
log_merged (GPtrArray *files, const LogQuery *q)
{
  int status;
  g_autoptr(GPtrArray) members = strobe_cli_load_members (files, STROBE_DOCUMENT_MODEL_LOG, 0, &status);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (Hit));
  g_autofree Printer *printers = NULL;
  g_autofree char **labels = NULL;   /* by member, NULL until it prints */
  gdouble from_s = -G_MAXDOUBLE, to_s = G_MAXDOUBLE;

  for (guint i = 0; i < 2; i++)
    {
      const char *value = i == 0 ? q->from : q->to;

      if (value != NULL && !strobe_cli_parse_time (value, i == 0 ? &from_s : &to_s))
        {
          /* Translators: %s is an option such as --from, then its value */
          g_printerr (_("strobe-cli: %s takes a time (seconds from the start of the trace, or with ns, us, ms, s), not “%s”\n"),
                      i == 0 ? "--from" : "--to", value);
          return STROBE_CLI_USAGE_ERROR;
        }
    }
  if (to_s < from_s)
    {
      g_printerr ("%s\n", _("strobe-cli: --to is before --from"));
      return STROBE_CLI_USAGE_ERROR;
    }
  /* A --thread name none of the traces has is a typo, as in one trace. */
  for (guint n = 0; n < q->thread_names->len; n++)
    {
      const char *name = g_ptr_array_index (q->thread_names, n);
      gboolean found = FALSE;

      for (guint i = 0; i < members->len && !found; i++)
        {
          StrobeCliMember *m = g_ptr_array_index (members, i);
          g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (m->document));

          for (guint t = 0; t < threads->len && !found; t++)
            found = g_ascii_strcasecmp (g_array_index (threads, StrobeThreadInfo, t).name, name) == 0;
        }
      if (!found)
        {
          /* Translators: %s is a thread name */
          g_printerr (_("strobe-cli: no thread named “%s” in any of the traces\n"), name);
          return STROBE_CLI_USAGE_ERROR;
        }
    }
  for (guint i = 0; i < members->len; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (members, i);
      g_autoptr(GArray) category_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) thread_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
      g_autoptr(GArray) hits = NULL;
      StrobeLogFilter filter;

      if (strobe_document_get_status (m->document) == STROBE_DOCUMENT_STATUS_FAILED || !process_wanted (m, q->processes))
        continue;
      /* The group's seconds are this document's from now on: --from/--to mean the same in
       * every process. */
      strobe_document_set_clock (m->document, &m->clock);
      filter_for (m->document, q, TRUE, category_ids, thread_ids, &filter);
      hits = strobe_log_model_filter (strobe_document_get_log (m->document), &filter, 0, G_MAXUINT64);
      for (guint k = 0; k < hits->len; k++)
        {
          StrobeLogMessage msg;
          Hit h = { .member = i, .index = g_array_index (hits, guint64, k) };

          if (!strobe_log_model_get_message (strobe_document_get_log (m->document), h.index, &msg))
            continue;
          h.seconds = strobe_trace_clock_to_seconds (&m->clock, msg.time);
          g_free (msg.text);
          g_array_append_val (all, h);
        }
    }
  if (q->count_only)
    {
      printf ("%u\n", all->len);
      return status;
    }
  g_array_sort (all, by_time);
  printers = g_new0 (Printer, members->len);
  labels = g_new0 (char *, members->len);
  for (guint i = 0; i < all->len && (q->limit < 0 || i < (guint) q->limit); i++)
    {
      const Hit *h = &g_array_index (all, Hit, i);
      StrobeCliMember *m = g_ptr_array_index (members, h->member);

      if (printers[h->member].line == NULL)
        {
          labels[h->member] = strobe_text_escape (m->label, STROBE_TEXT_PLAIN);
          printer_init (&printers[h->member], m->document, &m->clock, labels[h->member], q->location);
        }
      print_messages (&printers[h->member], &h->index, 1);
    }
  for (guint i = 0; i < members->len; i++)
    {
      printer_clear (&printers[i]);
      g_free (labels[i]);
    }
  return status;
}

int
strobe_cli_log (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GArray) thread_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GPtrArray) thread_names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *verbosity = NULL, *grep = NULL, *from = NULL, *to = NULL;
  g_auto(GStrv) categories = NULL, threads = NULL, processes = NULL;
  gboolean ignore_case = FALSE, location = FALSE, count_only = FALSE;
  gint limit = -1;
  LogQuery q = { { 0 } };
  GOptionEntry entries[] = {
    { "verbosity", 'v', 0, G_OPTION_ARG_STRING, &verbosity, N_("Only messages at LEVEL or more severe (fatal, error, warning, display, log, verbose, very-verbose)"), N_("LEVEL") },
    { "category", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &categories, N_("Only this category (repeat, or separate with commas)"), N_("NAME") },
    { "thread", 't', 0, G_OPTION_ARG_STRING_ARRAY, &threads, N_("Only this thread, by id or name (repeat, or separate with commas)"), N_("THREAD") },
    { "process", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &processes, N_("Several traces: only this process, by pid or program name (repeat, or separate with commas)"), N_("PID") },
    { "grep", 'g', 0, G_OPTION_ARG_STRING, &grep, N_("Only messages whose text contains TEXT"), N_("TEXT") },
    { "ignore-case", 'i', 0, G_OPTION_ARG_NONE, &ignore_case, N_("Match --grep without regard to ASCII case"), NULL },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Only messages after TIME (seconds from the trace's start; or 250ms, 10us…)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("Only messages before TIME"), N_("TIME") },
    { "location", 'l', 0, G_OPTION_ARG_NONE, &location, N_("Show the file and line of each message"), NULL },
    { "count", 0, 0, G_OPTION_ARG_NONE, &count_only, N_("Print only the number of matching messages"), NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Print at most N messages"), N_("N") },
    { NULL },
  };

  context = g_option_context_new (_("FILE… — print the log messages of a trace (of several: merged in time, with their process)"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  if (verbosity && (q.base.max_verbosity = strobe_log_verbosity_parse (verbosity)) == 0)
    {
      g_printerr (_("strobe-cli: unknown verbosity “%s” (fatal, error, warning, display, log, verbose, "
                    "very-verbose, or 1 to 7)\n"), verbosity);
      return STROBE_CLI_USAGE_ERROR;
    }
  for (guint i = 0; threads && threads[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (threads[i], ",", -1);
      for (guint k = 0; parts[k]; k++)
        {
          guint64 v;
          guint16 id;
          /* Not a number: a thread's name, as the listing shows it ("Game"). */
          if (!g_ascii_string_to_unsigned (parts[k], 10, 1, G_MAXUINT16, &v, NULL))
            {
              if (*parts[k] != '\0')
                g_ptr_array_add (thread_names, g_strdup (parts[k]));
              continue;
            }
          id = (guint16) v;
          g_array_append_val (thread_ids, id);
        }
    }
  if (thread_ids->len)
    {
      q.base.threads = (const guint16 *) (void *) thread_ids->data;
      q.base.n_threads = thread_ids->len;
    }
  q.base.text = grep;
  q.base.ignore_case = ignore_case;
  q.categories = categories;
  q.thread_names = thread_names;
  q.processes = processes;
  q.from = from;
  q.to = to;
  q.location = location;
  q.count_only = count_only;
  q.limit = limit;
  if (files->len > 1)
    return log_merged (files, &q);
  return log_one (g_ptr_array_index (files, 0), &q);
}
