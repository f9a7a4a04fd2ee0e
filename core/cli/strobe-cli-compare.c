/* strobe-cli-compare.c — `strobe-cli compare A B`: what changed between two traces —
 * timers, frame times, memory, log — for the whole traces or the same segment of each,
 * and a regression gate for CI (--fail-if: exit status 1 when a threshold is crossed).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "strobe-cli.h"
#include "strobe-cli-compare.h"
#include "strobe-cli-memory-report.h"

/* Exit statuses of this command: a gate's verdict must not be mistaken for a broken input. */
enum
{
  COMPARE_OK = 0,
  COMPARE_FAILED_GATE = 1,
  COMPARE_BAD_INPUT = 2,
};

enum
{
  SECTION_TIMERS = 1 << 0,
  SECTION_FRAMES = 1 << 1,
  SECTION_MEMORY = 1 << 2,
  SECTION_LOG    = 1 << 3,
  SECTION_ALL    = 0xf,
};

static const struct { const char *name; const char *header; gdouble per_second; } units[] = {
  { "s", "s", 1.0 }, { "ms", "ms", 1e3 }, { "us", "us", 1e6 }, { "ns", "ns", 1e9 },
};

static const StrobeCompareMetric timer_figures[] = {
  STROBE_COMPARE_INCL, STROBE_COMPARE_EXCL, STROBE_COMPARE_MEAN, STROBE_COMPARE_MEDIAN,
  STROBE_COMPARE_P95, STROBE_COMPARE_MAX, STROBE_COMPARE_MIN,
};

static gboolean
parse_sections (const char *text, guint *out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  *out = 0;
  for (guint i = 0; parts[i]; i++)
    {
      const char *p = g_strstrip (parts[i]);

      if (g_str_equal (p, "timers"))
        *out |= SECTION_TIMERS;
      else if (g_str_equal (p, "frames"))
        *out |= SECTION_FRAMES;
      else if (g_str_equal (p, "memory"))
        *out |= SECTION_MEMORY;
      else if (g_str_equal (p, "log"))
        *out |= SECTION_LOG;
      else if (g_str_equal (p, "all"))
        *out |= SECTION_ALL;
      else
        return FALSE;
    }
  return *out != 0;
}

static gboolean
parse_range_options (const char *range, const char *frames, const char *region, const char *bookmarks,
                     StrobeCompareRange *out)
{
  memset (out, 0, sizeof *out);
  if ((range != NULL) + (frames != NULL) + (region != NULL) + (bookmarks != NULL) > 1)
    {
      g_printerr ("%s\n", _("strobe-cli: give one of --range, --frames, --region and --bookmarks"));
      return FALSE;
    }
  if (range)
    {
      g_auto(GStrv) ends = g_strsplit (range, ":", 2);

      out->kind = STROBE_COMPARE_RANGE_TIME;
      if (g_strv_length (ends) != 2 || !strobe_cli_parse_time (ends[0], &out->from)
          || !strobe_cli_parse_time (ends[1], &out->to) || out->to < out->from)
        {
          g_printerr (_("strobe-cli: --range takes FROM:TO (seconds from each trace’s start, or with ns, us, ms, s), not “%s”\n"),
                      range);
          return FALSE;
        }
    }
  else if (frames)
    {
      char *end;

      out->kind = STROBE_COMPARE_RANGE_FRAMES;
      out->first_frame = g_ascii_strtoull (frames, &end, 10);
      if (end == frames || *end != '-' || !g_ascii_isdigit (end[1]))
        goto bad_frames;
      {
        const char *m = end + 1;
        out->last_frame = g_ascii_strtoull (m, &end, 10);
      }
      if (*end != '\0' || out->last_frame < out->first_frame)
        goto bad_frames;
    }
  else if (region)
    {
      out->kind = STROBE_COMPARE_RANGE_REGION;
      out->region = g_strdup (region);
    }
  else if (bookmarks)
    {
      const char *dots = strstr (bookmarks, "..");

      if (dots == NULL || dots == bookmarks || dots[2] == '\0')
        {
          g_printerr (_("strobe-cli: --bookmarks takes FROM..TO (two bookmarks’ names), not “%s”\n"), bookmarks);
          return FALSE;
        }
      out->kind = STROBE_COMPARE_RANGE_BOOKMARKS;
      out->region = g_strndup (bookmarks, (gsize) (dots - bookmarks));
      out->until = g_strdup (dots + 2);
    }
  return TRUE;

bad_frames:
  g_printerr (_("strobe-cli: --frames takes FIRST-LAST (game frame numbers from 0), not “%s”\n"), frames);
  return FALSE;
}

typedef struct
{
  const char               *file;
  StrobeDocumentModels      models;
  const StrobeCompareRange *range;
  gboolean                  timers;     /* the timers table wanted */
  StrobeDocument           *document;
  GArray                   *stats;      /* its StrobeTimerStat, when timers */
  guint64                   depth_overflows, budget_overflows;
  GError                   *error;
} Load;

/* No timeline model keeps the scopes: the timers are computed while the trace is read
 * (strobe_cli_load_streamed, the same figures), so two billion-scope traces are compared
 * in megabytes, not twice the gigabytes the viewer takes. The whole traces in one reading;
 * a segment of each (frames, a region, bookmarks, seconds) is only known once the trace
 * was read, its timers come from a second reading. */
static gpointer
load_run (gpointer data)
{
  Load *l = data;
  StrobeCompareSpan span;
  g_autoptr(StrobeDocument) second = NULL;

  if (l->range->kind == STROBE_COMPARE_RANGE_WHOLE || !l->timers)
    {
      strobe_cli_load_streamed (l->file, l->models, 0, G_MAXUINT64, STROBE_TIMER_STATS_ALL_THREADS,
                                l->timers ? &l->stats : NULL, &l->depth_overflows, &l->budget_overflows,
                                &l->document, &l->error);
      return NULL;
    }
  strobe_cli_load_streamed (l->file, l->models, 0, 0, 0, NULL, NULL, NULL, &l->document, &l->error);
  /* A trace that did not read in full, or a segment it does not have, is said later. */
  if (l->error == NULL && strobe_compare_range_resolve (l->range, l->document, &span, NULL))
    strobe_cli_load_streamed (l->file, 0, span.t0, span.t1, STROBE_TIMER_STATS_ALL_THREADS, &l->stats,
                              &l->depth_overflows, &l->budget_overflows, &second, &l->error);
  return NULL;
}

static void
load_clear (Load *l)
{
  g_clear_error (&l->error);
  g_clear_pointer (&l->stats, g_array_unref);
}

/* Both traces read in full (a comparison of part of a trace would mislead a gate), B on a
 * thread of its own while A is read: two files take the time of the larger (the decoders
 * share the analysis' field accessors, atomic since two at once raced under TSan).
 * Errors are printed afterwards, A's first, so the output does not depend on which
 * ended first. */
static gboolean
load_both (Load *la, Load *lb)
{
  GThread *thread = g_thread_new ("strobe-cli-load", load_run, lb);

  load_run (la);
  g_thread_join (thread);
  if (la->error)
    strobe_cli_print_load_error (la->file, la->error);
  else if (lb->error)
    strobe_cli_print_load_error (lb->file, lb->error);
  return la->error == NULL && lb->error == NULL;
}

static StrobeCliCompareSection *
timer_section (const char *id, const char *title, const char *samples, GArray *table, StrobeCompareTables *t)
{
  StrobeCliCompareSection *sec = strobe_cli_compare_section_new (id, title, samples, NULL);

  for (guint i = 0; i < table->len; i++)
    {
      const StrobeCompareTimer *tr = &g_array_index (table, StrobeCompareTimer, i);
      StrobeCliCompareRow row = { 0 };

      row.name = g_strdup (tr->name);
      row.in = tr->in;
      row.samples_a = tr->a.count;
      row.samples_b = tr->b.count;
      row.figures[row.n_figures].name = "count";
      row.figures[row.n_figures].kind = STROBE_CLI_FIGURE_COUNT;
      strobe_compare_timer_pair (tr, STROBE_COMPARE_COUNT, t, &row.figures[row.n_figures].a,
                                 &row.figures[row.n_figures].b);
      row.n_figures++;
      for (guint k = 0; k < G_N_ELEMENTS (timer_figures); k++, row.n_figures++)
        {
          StrobeCliFigure *f = &row.figures[row.n_figures];

          f->name = strobe_compare_metric_name (timer_figures[k]);
          f->kind = STROBE_CLI_FIGURE_TIME;
          strobe_compare_timer_pair (tr, timer_figures[k], t, &f->a, &f->b);
        }
      g_array_append_val (sec->rows, row);
    }
  return sec;
}

static void
memory_figures (StrobeCliCompareRow *row, const StrobeMemoryCosts *a, const StrobeMemoryCosts *b)
{
  for (guint k = 0; k < STROBE_COMPARE_MEM_N_COSTS; k++, row->n_figures++)
    {
      StrobeCliFigure *f = &row->figures[row->n_figures];

      f->name = strobe_compare_memory_cost_name (k);
      f->kind = k == STROBE_COMPARE_MEM_PEAK || k == STROBE_COMPARE_MEM_LEAKED || k == STROBE_COMPARE_MEM_BYTES
                ? STROBE_CLI_FIGURE_BYTES : STROBE_CLI_FIGURE_COUNT;
      f->a = strobe_compare_memory_value (a, k);
      f->b = strobe_compare_memory_value (b, k);
    }
}

static void
memory_sections (GPtrArray *sections, StrobeCompareMemory *m, const char *by)
{
  /* The samples are the allocations, a figure of the table already. */
  StrobeCliCompareSection *total = strobe_cli_compare_section_new ("memory", _("Memory"), NULL, NULL);
  g_autofree char *title = g_strdup_printf (_("Memory by %s"), by);
  StrobeCliCompareSection *sites = strobe_cli_compare_section_new ("memory-sites", title, NULL, NULL);
  StrobeCliCompareRow row = { 0 };

  row.name = g_strdup (_("(total)"));
  row.in = STROBE_COMPARE_IN_BOTH;
  row.samples_a = m->totals_a.allocations;
  row.samples_b = m->totals_b.allocations;
  memory_figures (&row, &m->totals_a, &m->totals_b);
  g_array_append_val (total->rows, row);
  for (guint i = 0; i < m->sites->len; i++)
    {
      const StrobeCompareMemorySite *s = &g_array_index (m->sites, StrobeCompareMemorySite, i);
      StrobeCliCompareRow r = { 0 };

      r.name = g_strdup (s->name);
      r.in = s->in;
      r.samples_a = s->a.allocations;
      r.samples_b = s->b.allocations;
      memory_figures (&r, &s->a, &s->b);
      g_array_append_val (sites->rows, r);
    }
  g_ptr_array_add (sections, total);
  g_ptr_array_add (sections, sites);
}

static void
log_sections (GPtrArray *sections, StrobeCompareLog *log)
{
  StrobeCliCompareSection *counts = strobe_cli_compare_section_new ("log", _("Log messages"), _("msgs"), _("verbosity"));
  StrobeCliCompareSection *problems = strobe_cli_compare_section_new ("log-problems", _("Warnings and errors"),
                                                                      _("msgs"), _("verbosity"));

  for (guint i = 0; i < log->counts->len; i++)
    {
      const StrobeCompareLogCount *c = &g_array_index (log->counts, StrobeCompareLogCount, i);
      StrobeCliCompareRow r = { 0 };

      r.name = g_strdup (c->category);
      r.detail = g_strdup (strobe_log_verbosity_name (c->verbosity));
      r.in = c->in;
      r.samples_a = c->a;
      r.samples_b = c->b;
      r.figures[0] = (StrobeCliFigure) { "messages", STROBE_CLI_FIGURE_COUNT, (gdouble) c->a, (gdouble) c->b };
      r.n_figures = 1;
      g_array_append_val (counts->rows, r);
    }
  for (guint i = 0; i < log->problems->len; i++)
    {
      const StrobeCompareLogProblem *p = &g_array_index (log->problems, StrobeCompareLogProblem, i);
      StrobeCliCompareRow r = { 0 };

      /* The category and the first message's text: the format alone hides what happened. */
      r.name = g_strdup_printf ("%s: %s", p->category, p->text ? p->text : p->format);
      r.detail = g_strdup (strobe_log_verbosity_name (p->verbosity));
      r.in = p->in;
      r.samples_a = p->a;
      r.samples_b = p->b;
      r.figures[0] = (StrobeCliFigure) { "messages", STROBE_CLI_FIGURE_COUNT, (gdouble) p->a, (gdouble) p->b };
      r.n_figures = 1;
      g_array_append_val (problems->rows, r);
    }
  g_ptr_array_add (sections, counts);
  g_ptr_array_add (sections, problems);
}

static gint
by_incl_delta (gconstpointer x, gconstpointer y)
{
  const StrobeCliCompareRow *a = x, *b = y;
  /* figures[1] is incl: its A and B in seconds. */
  gdouble da = fabs (a->figures[1].b - a->figures[1].a), db = fabs (b->figures[1].b - b->figures[1].a);

  if (da != db)
    return da > db ? -1 : 1;
  return strcmp (a->name, b->name);
}

/* The command line as given; freed by compare_args_clear(). */
typedef struct
{
  char   *section_text, *range_text, *frames_text, *region, *bookmarks;
  char   *format, *unit_name, *per, *by_name, *sort, *metrics;
  char  **fail_if;
  gint64  min_count;
} CompareArgs;

static void
compare_args_clear (CompareArgs *args)
{
  g_free (args->section_text);
  g_free (args->range_text);
  g_free (args->frames_text);
  g_free (args->region);
  g_free (args->bookmarks);
  g_free (args->format);
  g_free (args->unit_name);
  g_free (args->per);
  g_free (args->by_name);
  g_free (args->sort);
  g_free (args->metrics);
  g_strfreev (args->fail_if);
}

/* Parses the options into @args and leaves the two traces in argv[1], argv[2]. */
static gboolean
compare_parse_args (int *argc, char ***argv, CompareArgs *args)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "section", 0, 0, G_OPTION_ARG_STRING, &args->section_text, N_("Only these tables: timers, frames, memory, log (comma-separated; default all)"), N_("LIST") },
    { "range", 0, 0, G_OPTION_ARG_STRING, &args->range_text, N_("Compare FROM:TO of each trace (seconds from its start; or 250ms…)"), N_("FROM:TO") },
    { "frames", 0, 0, G_OPTION_ARG_STRING, &args->frames_text, N_("Compare game frames FIRST to LAST of each trace"), N_("FIRST-LAST") },
    { "region", 0, 0, G_OPTION_ARG_STRING, &args->region, N_("Compare the span of the first region NAME of each trace"), N_("NAME") },
    { "bookmarks", 0, 0, G_OPTION_ARG_STRING, &args->bookmarks, N_("Compare from the first bookmark FROM to the next bookmark TO in each trace"), N_("FROM..TO") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &args->format, N_("text (default), csv or json"), N_("FORMAT") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &args->unit_name, N_("Times in s, ms (default), us or ns"), N_("UNIT") },
    { "per", 0, 0, G_OPTION_ARG_STRING, &args->per, N_("Timer totals as measured (total, default), per game frame (frame) or per call (call)"), N_("WHAT") },
    { "memory-by", 0, 0, G_OPTION_ARG_STRING, &args->by_name, N_("Allocation sites by function (default), stack, tag or heap"), N_("WHAT") },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &args->sort, N_("Timers by the size of the change in incl (delta, default) or by name"), N_("KEY") },
    { "metrics", 0, 0, G_OPTION_ARG_STRING, &args->metrics, N_("Text: the timer figures shown (default incl,mean,p95; CSV and JSON have all)"), N_("LIST") },
    { "fail-if", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args->fail_if, N_("Exit with status 1 when B crosses a threshold, e.g. 'Physics:mean>+5%' (repeatable)"), N_("CHECK") },
    { "min-count", 0, 0, G_OPTION_ARG_INT64, &args->min_count, N_("--fail-if: do not judge rows with fewer than N samples in a trace (default 0)"), N_("N") },
    { NULL },
  };

  context = g_option_context_new (_("A B — what changed between two traces"));
  g_option_context_set_summary (context,
    _("Prints, for trace A (the baseline) and trace B: per CPU scope name the count, inclusive,\n"
      "exclusive, mean, median, p95, maximum and minimum time, the frame times of each frame kind,\n"
      "heaptrack's memory costs in total and per allocation site, and log messages per category and\n"
      "verbosity with the warnings and errors only one trace has — each with B − A and the change\n"
      "in percent. Each figure is what `strobe-cli stats` or `memory` print for that trace alone."));
  g_option_context_set_description (context,
    _("Checks (--fail-if):\n"
      "  NAME:METRIC>VALUE   a scope (or a glob: *, ?) or frame.game / frame.render;\n"
      "                      METRIC: count incl excl mean median p95 max min\n"
      "  memory.COST>VALUE   COST: peak leaked allocations temporary bytes\n"
      "  log.errors>VALUE, log.warnings>VALUE\n"
      "  VALUE: +5% (of A), +1ms (a time), +1000 (counts, bytes); < instead of > for a drop.\n"
      "A percentage is not judged on a name that only B has (no baseline); a threshold in\n"
      "units counts all of it. A check that names nothing is an error.\n\n"
      "Exit status: 0 no threshold crossed, 1 a threshold crossed (the rows are printed),\n"
      "2 bad options or a trace that could not be read in full.\n\n"
      "In CI:\n"
      "  strobe-cli compare baseline.strobe new.strobe --frames 100-600 \\\n"
      "      --fail-if 'frame.game:p95>+10%' --fail-if '*:excl>+20%' --min-count 30 \\\n"
      "      --fail-if 'memory.peak>+10%'"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("strobe-cli: %s\n", error->message);
      return FALSE;
    }
  if (*argc != 3)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);
      g_printerr ("strobe-cli: %s\n\n%s", *argc < 3 ? _("compare takes two traces, A and B") : _("too many arguments"), help);
      return FALSE;
    }
  return TRUE;
}

/* --metrics: which timer figures the text table shows. */
static gboolean
parse_metrics (const char *metrics, StrobeCliCompareOutput *out)
{
  g_auto(GStrv) shown = g_strsplit (metrics ? metrics : "incl,mean,p95", ",", -1);

  for (guint i = 0; shown[i]; i++)
    {
      StrobeCompareMetric m = strobe_compare_metric_parse (g_strstrip (shown[i]));
      gboolean found = FALSE;

      /* figures[0] is count, then timer_figures in order. */
      if (m == STROBE_COMPARE_COUNT)
        found = out->text_figures[0] = TRUE;
      for (guint k = 0; k < G_N_ELEMENTS (timer_figures); k++)
        if (timer_figures[k] == m)
          found = out->text_figures[k + 1] = TRUE;
      if (!found)
        {
          g_printerr (_("strobe-cli: --metrics takes count, incl, excl, mean, median, p95, max and min, not “%s”\n"),
                      shown[i]);
          return FALSE;
        }
    }
  return TRUE;
}

/* --format, --units and --per: how the tables are printed. */
static gboolean
parse_output_options (const CompareArgs *args, StrobeCliCompareOutput *out, StrobeCompareTables *tables)
{
  out->format = STROBE_CLI_COMPARE_TEXT;
  if (args->format && g_str_equal (args->format, "csv"))
    out->format = STROBE_CLI_COMPARE_CSV;
  else if (args->format && g_str_equal (args->format, "json"))
    out->format = STROBE_CLI_COMPARE_JSON;
  else if (args->format && !g_str_equal (args->format, "text"))
    {
      g_printerr (_("strobe-cli: --format takes text, csv or json, not “%s”\n"), args->format);
      return FALSE;
    }
  out->unit = "ms";
  out->per_second = 1e3;
  if (args->unit_name)
    {
      out->unit = NULL;
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_str_equal (args->unit_name, units[i].name))
          {
            out->unit = units[i].header;
            out->per_second = units[i].per_second;
          }
      if (out->unit == NULL)
        {
          g_printerr (_("strobe-cli: unknown unit “%s” (s, ms, us or ns)\n"), args->unit_name);
          return FALSE;
        }
    }
  out->norm = "total";
  tables->norm = STROBE_COMPARE_NORM_TOTAL;
  if (args->per && g_str_equal (args->per, "frame"))
    tables->norm = STROBE_COMPARE_NORM_PER_FRAME, out->norm = "frame";
  else if (args->per && g_str_equal (args->per, "call"))
    tables->norm = STROBE_COMPARE_NORM_PER_CALL, out->norm = "call";
  else if (args->per && !g_str_equal (args->per, "total"))
    {
      g_printerr (_("strobe-cli: --per takes total, frame or call, not “%s”\n"), args->per);
      return FALSE;
    }
  return parse_metrics (args->metrics, out);
}

/* --section, --memory-by, --sort and --min-count: what is compared. */
static gboolean
parse_table_options (const CompareArgs *args, guint *sections_wanted, StrobeMemoryGroupBy *by,
                     StrobeCompareTables *tables)
{
  if (args->section_text && !parse_sections (args->section_text, sections_wanted))
    {
      g_printerr (_("strobe-cli: --section takes timers, frames, memory and log, not “%s”\n"), args->section_text);
      return FALSE;
    }
  if (args->by_name && (!strobe_cli_memory_parse_by (args->by_name, by)
                        || *by == STROBE_MEMORY_BY_SIZE || *by == STROBE_MEMORY_BY_THREAD))
    {
      g_printerr (_("strobe-cli: --memory-by takes function, stack, tag or heap, not “%s”\n"), args->by_name);
      return FALSE;
    }
  if (args->sort && !g_str_equal (args->sort, "delta") && !g_str_equal (args->sort, "name"))
    {
      g_printerr (_("strobe-cli: --sort takes delta or name, not “%s”\n"), args->sort);
      return FALSE;
    }
  if (args->min_count < 0)
    {
      g_printerr ("%s\n", _("strobe-cli: --min-count takes a number of samples, 0 or more"));
      return FALSE;
    }
  tables->min_count = (guint64) args->min_count;
  return TRUE;
}

/* The spans of A and B the tables cover. */
static gboolean
resolve_spans (StrobeCompareRange *range, StrobeDocument *a, StrobeDocument *b, StrobeCliCompareOutput *out,
               StrobeCompareTables *tables)
{
  g_autoptr(GError) error = NULL;

  if (!strobe_compare_range_resolve (range, a, &out->span_a, &error))
    {
      g_printerr ("strobe-cli: %s: %s\n", out->file_a, error->message);
      return FALSE;
    }
  if (!strobe_compare_range_resolve (range, b, &out->span_b, &error))
    {
      g_printerr ("strobe-cli: %s: %s\n", out->file_b, error->message);
      return FALSE;
    }
  out->range = strobe_compare_range_describe (range);
  tables->span_a = &out->span_a;
  tables->span_b = &out->span_b;
  strobe_document_get_clock (a, &tables->clock_a);
  strobe_document_get_clock (b, &tables->clock_b);
  return TRUE;
}

/* The wanted tables of A against B, into @tables (which owns them) and as sections to print. */
static void
build_sections (Load *la, Load *lb, const CompareArgs *args, guint wanted,
                StrobeMemoryGroupBy by, StrobeCliCompareOutput *out, StrobeCompareTables *tables,
                GPtrArray *sections)
{
  StrobeDocument *a = la->document, *b = lb->document;

  if (wanted & SECTION_TIMERS)
    {
      StrobeCliCompareSection *sec;

      strobe_cli_print_overflows (la->file, la->depth_overflows, la->budget_overflows);
      strobe_cli_print_overflows (lb->file, lb->depth_overflows, lb->budget_overflows);
      tables->timers = strobe_compare_timers_from_stats (la->stats, lb->stats);
      sec = timer_section ("timers", _("Timers"), _("calls"), tables->timers, tables);
      if (args->sort == NULL || g_str_equal (args->sort, "delta"))
        g_array_sort (sec->rows, by_incl_delta);
      g_ptr_array_add (sections, sec);
    }
  if (wanted & SECTION_FRAMES)
    {
      tables->frames = strobe_compare_frames (a, &out->span_a, b, &out->span_b);
      g_ptr_array_add (sections, timer_section ("frames", _("Frame times"), _("frames"), tables->frames, tables));
    }
  if (wanted & SECTION_MEMORY)
    {
      strobe_cli_print_memory_budget (la->file, a);
      strobe_cli_print_memory_budget (lb->file, b);
      tables->memory = strobe_compare_memory (a, &out->span_a, b, &out->span_b, by, NULL, NULL);
      memory_sections (sections, tables->memory, args->by_name ? args->by_name : "function");
    }
  if (wanted & SECTION_LOG)
    {
      tables->log = strobe_compare_log (a, &out->span_a, b, &out->span_b, NULL, NULL);
      log_sections (sections, tables->log);
    }
}

static void
tables_clear (StrobeCompareTables *tables)
{
  g_clear_pointer (&tables->timers, g_array_unref);
  g_clear_pointer (&tables->frames, g_array_unref);
  g_clear_pointer (&tables->memory, strobe_compare_memory_free);
  g_clear_pointer (&tables->log, strobe_compare_log_free);
}

/* Runs the gate (when there are checks) and prints; the command's exit status. */
static int
gate_and_print (const StrobeCliCompareOutput *out, GPtrArray *sections, const StrobeCompareCheck *checks,
                guint n_checks, StrobeCompareTables *tables)
{
  g_autoptr(GArray) gate = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = g_string_new (NULL);
  guint failed = 0;

  if (n_checks && !strobe_compare_gate_run (checks, n_checks, tables, &gate, &error))
    {
      g_printerr ("strobe-cli: --fail-if %s\n", error->message);
      return COMPARE_BAD_INPUT;
    }
  for (guint i = 0; gate && i < gate->len; i++)
    failed += g_array_index (gate, StrobeCompareGateRow, i).failed;
  strobe_cli_compare_print (s, out, sections, checks, n_checks, gate);
  if (!strobe_cli_write (stdout, s->str, s->len) || fflush (stdout) != 0)
    return COMPARE_BAD_INPUT;
  return failed ? COMPARE_FAILED_GATE : COMPARE_OK;
}

/* Parses the --fail-if checks; NULL (the error printed) on a bad one. */
static StrobeCompareCheck *
parse_checks (char **fail_if, guint *n_checks)
{
  guint n = fail_if ? g_strv_length (fail_if) : 0;
  StrobeCompareCheck *checks = g_new0 (StrobeCompareCheck, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!strobe_compare_check_parse (fail_if[i], &checks[i], &error))
        {
          g_printerr ("strobe-cli: --fail-if %s\n", error->message);
          for (guint k = 0; k < i; k++)
            strobe_compare_check_clear (&checks[k]);
          g_free (checks);
          return NULL;
        }
    }
  *n_checks = n;
  return checks;
}

int
strobe_cli_compare (int argc, char **argv)
{
  g_autoptr(StrobeDocument) a = NULL, b = NULL;
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func ((GDestroyNotify) strobe_cli_compare_section_free);
  CompareArgs args = { 0 };
  StrobeCompareRange range = { 0 };
  StrobeCompareTables tables = { 0 };
  StrobeCliCompareOutput out = { 0 };
  StrobeCompareCheck *checks = NULL;
  guint n_checks = 0, wanted = SECTION_ALL;
  StrobeDocumentModels models = STROBE_DOCUMENT_MODEL_TIMELINE;
  StrobeMemoryGroupBy by = STROBE_MEMORY_BY_FUNCTION;
  int status = COMPARE_BAD_INPUT;
  Load la = { 0 }, lb = { 0 };
  gboolean ok;

  if (!compare_parse_args (&argc, &argv, &args)
      || !parse_table_options (&args, &wanted, &by, &tables)
      || !parse_output_options (&args, &out, &tables)
      || !parse_range_options (args.range_text, args.frames_text, args.region, args.bookmarks, &range)
      || (checks = parse_checks (args.fail_if, &n_checks)) == NULL)
    goto out;
  out.file_a = argv[1];
  out.file_b = argv[2];
  if (wanted & SECTION_MEMORY)
    models |= STROBE_DOCUMENT_MODEL_MEMORY;
  if (wanted & SECTION_LOG)
    models |= STROBE_DOCUMENT_MODEL_LOG;
  la = (Load) { out.file_a, models, &range, (wanted & SECTION_TIMERS) != 0 };
  lb = (Load) { out.file_b, models, &range, (wanted & SECTION_TIMERS) != 0 };
  ok = load_both (&la, &lb);
  a = la.document;
  b = lb.document;
  if (!ok || !resolve_spans (&range, a, b, &out, &tables))
    goto out;
  build_sections (&la, &lb, &args, wanted, by, &out, &tables, sections);
  status = gate_and_print (&out, sections, checks, n_checks, &tables);

out:
  for (guint i = 0; i < n_checks; i++)
    strobe_compare_check_clear (&checks[i]);
  g_free (checks);
  g_free (out.range);
  strobe_compare_range_clear (&range);
  tables_clear (&tables);
  load_clear (&la);
  load_clear (&lb);
  compare_args_clear (&args);
  return status;
}
