/* strobe-cli-stats.c — `strobe-cli stats FILE`: timer statistics per scope name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-timer-stream.h"

typedef struct
{
  const char *name;
  const char *header;
  gdouble     per_tick;   /* 0: ticks, else multiply seconds by this */
} Unit;

static const Unit units[] = {
  { "s", "s", 1.0 },
  { "ms", "ms", 1e3 },
  { "us", "us", 1e6 },
  { "ns", "ns", 1e9 },
  { "ticks", "ticks", 0 },
};

static void
format_time (GString *out, gdouble ticks, const Unit *u, const StrobeTraceClock *clock)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (u->per_tick == 0)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.1f", ticks));
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f",
                                       strobe_trace_clock_ticks_to_seconds (clock, ticks) * u->per_tick));
}

static gint
cmp_count (gconstpointer x, gconstpointer y)
{
  const StrobeTimerStat *a = x, *b = y;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return strcmp (a->name, b->name);
}

static gint
cmp_exclusive (gconstpointer x, gconstpointer y)
{
  const StrobeTimerStat *a = x, *b = y;
  if (a->exclusive != b->exclusive)
    return a->exclusive > b->exclusive ? -1 : 1;
  return strcmp (a->name, b->name);
}

static gint
cmp_name (gconstpointer x, gconstpointer y)
{
  return strcmp (((const StrobeTimerStat *) x)->name, ((const StrobeTimerStat *) y)->name);
}

/* The table, one row a name, times in @unit. */
static GString *
print_table (GArray *stats, const Unit *unit, const StrobeTraceClock *clock)
{
  GString *out = g_string_new (NULL);
  gsize width = 4;

  for (guint i = 0; i < stats->len; i++)
    width = MAX (width, strlen (g_array_index (stats, StrobeTimerStat, i).name));
  {
    g_autofree char *h_incl = g_strdup_printf ("%s(%s)", _("Incl"), unit->header);
    g_autofree char *h_excl = g_strdup_printf ("%s(%s)", _("Excl"), unit->header);
    g_autofree char *h_min = g_strdup_printf ("%s(%s)", _("Min"), unit->header);
    g_autofree char *h_max = g_strdup_printf ("%s(%s)", _("Max"), unit->header);
    g_autofree char *h_mean = g_strdup_printf ("%s(%s)", _("Mean"), unit->header);
    g_autofree char *h_median = g_strdup_printf ("%s(%s)", _("Median"), unit->header);
    g_string_append_printf (out, "%-*s %10s %14s %14s %14s %14s %14s %14s\n", (int) width, _("Name"),
                            _("Count"), h_incl, h_excl, h_min, h_max, h_mean, h_median);
  }
  for (guint i = 0; i < stats->len; i++)
    {
      StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      gdouble v[] = { (gdouble) s->inclusive, (gdouble) s->exclusive, (gdouble) s->min,
                      (gdouble) s->max, s->mean, s->median };

      g_autofree char *name = strobe_text_escape (s->name, STROBE_TEXT_PLAIN);

      g_string_append_printf (out, "%-*s %10" G_GUINT64_FORMAT, (int) width, name, s->count);
      for (guint k = 0; k < G_N_ELEMENTS (v); k++)
        {
          GString *cell = g_string_new (NULL);
          format_time (cell, v[k], unit, clock);
          g_string_append_printf (out, " %14s", cell->str);
          g_string_free (cell, TRUE);
        }
      g_string_append_c (out, '\n');
    }
  return out;
}

/* --thread: a stream id, or a thread's name (any case), found by reading the trace's
 * threads first — the statistics are worked out while the trace is decoded, for one thread
 * id given before. A name no thread has, or several have, is said. */
static gboolean
resolve_thread (const char *file, const char *spec, gint *thread)
{
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  g_autofree const char **names = NULL;
  g_autoptr(GString) list = g_string_new (NULL);
  guint64 id;
  guint found = 0;
  const char *closest;

  if (g_ascii_string_to_unsigned (spec, 10, 0, G_MAXUINT16, &id, NULL))
    {
      *thread = (gint) id;
      return TRUE;
    }
  strobe_cli_load (file, 0, NULL, &document, &error);
  /* Unreadable: the reading proper says so, as without --thread. */
  if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return TRUE;
  all = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  names = g_new (const char *, all->len + 1);
  for (guint t = 0; t < all->len; t++)
    {
      const StrobeThreadInfo *info = &g_array_index (all, StrobeThreadInfo, t);

      names[t] = info->name;
      g_string_append_printf (list, "%s%u %s", t ? ", " : "", info->id, info->name);
      if (g_ascii_strcasecmp (info->name, spec) == 0)
        {
          *thread = info->id;
          found++;
        }
    }
  if (found == 1)
    return TRUE;
  if (found > 1)
    /* Translators: a thread name, then the file's threads (id and name each) */
    g_printerr (_("strobe-cli: several threads are named “%s”: give its id (threads: %s)\n"), spec, list->str);
  else
    {
      g_printerr (_("strobe-cli: no thread named “%s” in %s (its threads: %s)\n"), spec, file, list->str);
      if ((closest = strobe_cli_closest (spec, names, all->len)) != NULL)
        g_printerr (_("Did you mean “%s”?\n"), closest);
    }
  return FALSE;
}

int
strobe_cli_stats (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(GStrv) original = g_strdupv (argv);   /* for several FILEs: each again */
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) stats = NULL;
  guint64 depth_overflows = 0, budget_overflows = 0;
  StrobeTraceClock clock;
  g_autofree char *from = NULL, *to = NULL, *unit_name = NULL, *sort = NULL;
  gint thread = STROBE_TIMER_STATS_ALL_THREADS;
  g_autofree char *thread_spec = NULL;
  const Unit *unit = &units[1];
  const char *file;
  guint64 t0, t1;
  int status;
  GString *out;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Only the part of the trace after TIME (seconds from its start; or 250ms, 10us…)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("Only the part of the trace before TIME"), N_("TIME") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread_spec, N_("Only this thread: its stream id or its name"), N_("THREAD") },
    { "units", 0, 0, G_OPTION_ARG_STRING, &unit_name, N_("Times in s, ms (default), us, ns or ticks"), N_("UNIT") },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort, N_("Order by incl (default), excl, count or name"), N_("KEY") },
    { NULL },
  };

  context = g_option_context_new (_("FILE — timer statistics per scope name"));
  g_option_context_set_summary (context,
    _("Prints, for each CPU scope name: count, inclusive and exclusive total time, and the\n"
      "minimum, maximum, mean and median of the inclusive time (exact up to a thousand scopes\n"
      "a name, then within 1/256). With --from/--to, scopes that overlap the range count with\n"
      "their time clipped to it."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  if (files->len > 1)
    return strobe_cli_run_per_file (original, files, strobe_cli_stats);
  file = g_ptr_array_index (files, 0);
  if (unit_name)
    {
      unit = NULL;
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_str_equal (unit_name, units[i].name))
          unit = &units[i];
      if (unit == NULL)
        {
          g_printerr (_("strobe-cli: unknown unit “%s” (s, ms, us, ns or ticks)\n"), unit_name);
          return STROBE_CLI_USAGE_ERROR;
        }
    }
  if (sort && !g_str_equal (sort, "incl") && !g_str_equal (sort, "excl") && !g_str_equal (sort, "count")
      && !g_str_equal (sort, "name"))
    {
      g_printerr (_("strobe-cli: unknown sort key “%s” (incl, excl, count or name)\n"), sort);
      return STROBE_CLI_USAGE_ERROR;
    }

  if (thread_spec != NULL && !resolve_thread (file, thread_spec, &thread))
    return STROBE_CLI_USAGE_ERROR;

  /* Computed while the trace is decoded, no timeline model kept (a billion scopes in a
   * few MB; medians within 1/256 past a thousand scopes a name). */
  status = strobe_cli_load_timers (file, from, to, thread, &t0, &t1, &stats, &depth_overflows, &budget_overflows,
                                   &document);
  if (document == NULL || strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
    return status;
  strobe_cli_print_overflows (file, depth_overflows, budget_overflows);
  if (sort && g_str_equal (sort, "excl"))
    g_array_sort (stats, cmp_exclusive);
  else if (sort && g_str_equal (sort, "count"))
    g_array_sort (stats, cmp_count);
  else if (sort && g_str_equal (sort, "name"))
    g_array_sort (stats, cmp_name);
  strobe_document_get_clock (document, &clock);

  out = print_table (stats, unit, &clock);
  fwrite (out->str, 1, out->len, stdout);
  g_string_free (out, TRUE);
  if (fflush (stdout) != 0)
    return STROBE_CLI_DECODE_ERROR;
  return status;
}
