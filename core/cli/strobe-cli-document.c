/* strobe-cli-document.c — what every subcommand that reads a trace shares: opening it as a
 * StrobeDocument (the same analysis session the viewer uses), and time options, which are
 * seconds from the trace's start (its first event) as everywhere else.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "strobe-cli.h"
#include "strobe-text.h"
#include "strobe-timer-stream.h"

int
strobe_cli_load (const char            *file,
                 StrobeDocumentModels   models,
                 StrobeAnalyzer        *extra,
                 StrobeDocument       **out,
                 GError               **error)
{
  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (file);
  StrobeDocument *document = strobe_document_new (gfile, models);

  if (extra != NULL)
    strobe_document_add_analyzer (document, extra);
  *out = document;
  /* The models keep everything before an error; the caller still prints them. */
  if (!strobe_document_load (document, NULL, error))
    return STROBE_CLI_DECODE_ERROR;
  return STROBE_CLI_OK;
}

/* The batches are walked on worker lanes, a trace thread each at a time, while the
 * reading thread decompresses: on two cores the walk was all on one. */
static guint
stream_lanes (void)
{
  const char *env = g_getenv ("STROBE_STATS_LANES");
  guint cores = g_get_num_processors ();

  if (env != NULL)
    return (guint) g_ascii_strtoull (env, NULL, 10);
  return cores > 1 ? MIN (cores, 4) : 0;
}

static int
load_streamed_once (const char *file, StrobeDocumentModels models, StrobeTimerStream *stream,
                    StrobeDocument **out, GError **error)
{
  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (file);
  StrobeDocument *document = strobe_document_new (gfile, models);

  if (strobe_document_get_timeline (document))
    strobe_timeline_model_set_markers_only (strobe_document_get_timeline (document), TRUE);
  if (stream)
    strobe_document_add_analyzer (document, STROBE_ANALYZER (stream));
  *out = document;
  if (!strobe_document_load (document, NULL, error))
    return STROBE_CLI_DECODE_ERROR;
  return STROBE_CLI_OK;
}

int
strobe_cli_load_streamed (const char            *file,
                          StrobeDocumentModels   models,
                          guint64                t0,
                          guint64                t1,
                          gint                   thread,
                          GArray               **stats,
                          guint64               *depth_overflows,
                          guint64               *budget_overflows,
                          StrobeDocument       **out,
                          GError               **error)
{
  g_autoptr(StrobeTimerStream) stream = NULL;
  int status;

  g_return_val_if_fail (file != NULL && out != NULL, STROBE_CLI_USAGE_ERROR);
  g_return_val_if_fail (error == NULL || *error == NULL, STROBE_CLI_USAGE_ERROR);

  if (stats == NULL)
    return load_streamed_once (file, models, NULL, out, error);
  stream = strobe_timer_stream_new (t0, t1, thread);
  strobe_timer_stream_set_lanes (stream, stream_lanes ());
  status = load_streamed_once (file, models, stream, out, error);
  if (status == STROBE_CLI_OK && strobe_timer_stream_is_contested (stream))
    {
      /* A limit shared by all threads was reached: only one walk in the trace's order
       * gives its answer. */
      g_clear_object (&stream);
      g_clear_object (out);
      stream = strobe_timer_stream_new (t0, t1, thread);
      status = load_streamed_once (file, models, stream, out, error);
    }
  *stats = strobe_timer_stream_get_stats (stream);
  if (*stats == NULL)
    *stats = g_array_new (FALSE, FALSE, sizeof (StrobeTimerStat));
  strobe_timer_stream_get_overflows (stream, depth_overflows, budget_overflows);
  return status;
}

int
strobe_cli_load_timers (const char *file, const char *from, const char *to, gint thread, guint64 *t0,
                        guint64 *t1, GArray **stats, guint64 *depth_overflows, guint64 *budget_overflows,
                        StrobeDocument **out)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_return_val_if_fail (t0 != NULL && t1 != NULL && stats != NULL && out != NULL, STROBE_CLI_USAGE_ERROR);

  *t0 = 0;
  *t1 = G_MAXUINT64;
  if (from != NULL || to != NULL)
    {
      g_autoptr(StrobeDocument) first = NULL;

      /* The range's times are the trace's own (seconds from its start), known once it has
       * been read; its timers come from a second reading. A model of every scope would
       * take gigabytes for a billion, or stop at its memory budget. */
      status = strobe_cli_load_streamed (file, 0, 0, 0, thread, NULL, NULL, NULL, &first, &error);
      if (strobe_document_get_status (first) == STROBE_DOCUMENT_STATUS_FAILED)
        {
          if (error != NULL)
            strobe_cli_print_load_error (file, error);
          *out = g_steal_pointer (&first);
          return status;
        }
      /* Read again below: an error there is said once. */
      g_clear_error (&error);
      if (!strobe_cli_time_range (first, from, to, t0, t1))
        return STROBE_CLI_USAGE_ERROR;
    }
  status = strobe_cli_load_streamed (file, 0, *t0, *t1, thread, stats, depth_overflows, budget_overflows, out,
                                     &error);
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  return status;
}

void
strobe_cli_print_overflows (const char *file, guint64 depth_overflows, guint64 budget_overflows)
{
  if (depth_overflows)
    g_printerr (g_dngettext (GETTEXT_PACKAGE,
                             "strobe-cli: %s: %" PRIu64 " scope nested deeper than %d levels was not kept\n",
                             "strobe-cli: %s: %" PRIu64 " scopes nested deeper than %d levels were not kept\n",
                             depth_overflows),
                file, depth_overflows, STROBE_TIMELINE_MAX_DEPTH);
  if (budget_overflows)
    g_printerr (g_dngettext (GETTEXT_PACKAGE,
                             "strobe-cli: %s: %" PRIu64 " scope was not kept: the trace nests more "
                             "than %d levels on all its threads together\n",
                             "strobe-cli: %s: %" PRIu64 " scopes were not kept: the trace nests more "
                             "than %d levels on all its threads together\n",
                             budget_overflows),
                file, budget_overflows, STROBE_TIMELINE_MAX_LEVELS);
}

void
strobe_cli_print_memory_budget (const char *file, StrobeDocument *document)
{
  StrobeMemoryModel *memory = strobe_document_get_memory (document);
  StrobeMemorySummary s;
  StrobeTraceClock clock;

  if (memory == NULL)
    return;
  strobe_memory_model_get_summary (memory, &s);
  if (s.not_analysed == 0)
    return;
  strobe_document_get_clock (document, &clock);
  g_printerr (_("strobe-cli: %s: memory is analysed up to %.3f s only: the model reached its memory budget of "
                "%" PRIu64 " MiB, %" PRIu64 " memory events after it were not read\n"),
              file, strobe_trace_clock_to_seconds (&clock, s.not_analysed_from), s.memory_budget >> 20, s.not_analysed);
}

void
strobe_cli_print_load_error (const char   *file,
                             const GError *error)
{
  g_printerr ("strobe-cli: %s: %s\n", file, error->message);
}

gboolean
strobe_cli_parse_time (const char *s, gdouble *seconds)
{
  static const struct { const char *suffix; gdouble scale; } units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 }, { "", 1.0 },
  };
  char *end;
  gdouble v;

  if (s == NULL || *s == '\0')
    return FALSE;
  v = g_ascii_strtod (s, &end);
  if (end == s || v != v)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (end, units[i].suffix))
      {
        *seconds = v * units[i].scale;
        return TRUE;
      }
  return FALSE;
}

char *
strobe_cli_format_seconds (gdouble seconds)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6f", seconds));
}

gboolean
strobe_cli_parse_trace_time (StrobeDocument *document,
                             const char     *option,
                             const char     *value,
                             guint64        *ticks)
{
  StrobeTraceClock clock;
  guint64 first, last;
  gdouble s;

  if (!strobe_cli_parse_time (value, &s))
    {
      /* Translators: %s is an option such as --from, then its value */
      g_printerr (_("strobe-cli: %s takes a time (seconds from the start of the trace, or with ns, us, ms, s), not “%s”\n"),
                  option, value);
      return FALSE;
    }
  strobe_document_get_clock (document, &clock);
  *ticks = strobe_trace_clock_from_seconds (&clock, s);
  if (strobe_document_get_extent (document, &first, &last) && (*ticks < first || *ticks > last))
    {
      g_autofree char *end = strobe_cli_format_seconds (strobe_trace_clock_to_seconds (&clock, last));

      /* Translators: an option, its value, then the trace's length in seconds */
      g_printerr (_("strobe-cli: %s=%s is outside the trace, which runs from 0 to %s s\n"),
                  option, value, end);
      return FALSE;
    }
  return TRUE;
}

gboolean
strobe_cli_time_range (StrobeDocument *document, const char *from, const char *to,
                       guint64 *t0, guint64 *t1)
{
  *t0 = 0;
  *t1 = G_MAXUINT64;
  if (from && !strobe_cli_parse_trace_time (document, "--from", from, t0))
    return FALSE;
  if (to && !strobe_cli_parse_trace_time (document, "--to", to, t1))
    return FALSE;
  if (*t1 < *t0)
    {
      g_printerr ("%s\n", _("strobe-cli: --to is before --from"));
      return FALSE;
    }
  return TRUE;
}

gboolean
strobe_cli_parse_file_args (GOptionContext *context, int *argc, char ***argv, const char **file)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return FALSE;
    }
  if (*argc != 2)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
      g_printerr ("strobe-cli: %s\n\n%s", *argc < 2 ? _("missing FILE") : _("too many arguments"), help);
      return FALSE;
    }
  *file = (*argv)[1];
  return TRUE;
}

/* Valid UTF-8 quoted by strobe_text_append_escaped() is a JSON string: \" \\ \n \r \t
 * and \uXXXX, with terminal controls escaped as well for whoever cats the file. */
void
strobe_cli_append_json_string (GString *out, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s ? s : "", -1);

  strobe_text_append_escaped (out, valid, -1, STROBE_TEXT_EXACT | STROBE_TEXT_QUOTES);
}

void
strobe_cli_append_csv_field (GString *out, const char *s)
{
  if (s[strcspn (s, ",\"\n\r")] == '\0')
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

gboolean
strobe_cli_write (FILE *out, const char *data, gsize len)
{
  g_autoptr(GString) safe = NULL;

  /* A file named with -o gets the bytes as they are. Standard output is escaped line by
   * line even into a pipe: what reads a pipe may be a terminal (less -R, tee, ssh), and a
   * trace's strings must not drive it. */
  if (out != stdout && !isatty (fileno (out)))
    return fwrite (data, 1, len, out) == len;
  safe = g_string_sized_new (len);
  for (const char *p = data, *end = data + len; p < end;)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *stop = nl ? nl : end;

      strobe_text_append_escaped (safe, p, stop - p, STROBE_TEXT_PLAIN);
      if (nl)
        g_string_append_c (safe, '\n');
      p = nl ? nl + 1 : end;
    }
  return fwrite (safe->str, 1, safe->len, out) == safe->len;
}

/* The edit distance of @a and @b (insertions, deletions, substitutions, any case), at
 * most 64 bytes of @b looked at: names typed on a command line are short. */
static guint
edit_distance (const char *a,
               const char *b)
{
  guint row[65], lb = MIN (strlen (b), 64);

  for (guint j = 0; j <= lb; j++)
    row[j] = j;
  for (guint i = 1; a[i - 1] != '\0'; i++)
    {
      guint diag = row[0];

      row[0] = i;
      for (guint j = 1; j <= lb; j++)
        {
          guint up = row[j];

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1),
                        diag + (g_ascii_tolower (a[i - 1]) != g_ascii_tolower (b[j - 1])));
          diag = up;
        }
    }
  return row[lb];
}

const char *
strobe_cli_closest (const char        *word,
                    const char *const *names,
                    guint              n_names)
{
  const char *best = NULL, *prefixed = NULL, *within = NULL;
  guint best_d = 3, n_prefixed = 0, n_within = 0;

  g_return_val_if_fail (word != NULL, NULL);

  for (guint i = 0; i < n_names; i++)
    {
      guint d;

      if (names[i] == NULL)
        continue;
      d = edit_distance (word, names[i]);

      if (d < best_d)
        best_d = d, best = names[i];
      if (*word != '\0' && g_ascii_strncasecmp (names[i], word, strlen (word)) == 0)
        prefixed = names[i], n_prefixed++;
      if (strlen (word) >= 3 && strstr (names[i], word) != NULL)
        within = names[i], n_within++;
    }
  return best ? best : n_prefixed == 1 ? prefixed : n_within == 1 ? within : NULL;
}
