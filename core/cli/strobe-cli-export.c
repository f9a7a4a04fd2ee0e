/* strobe-cli-export.c — `strobe-cli export --format=F [--what=W] FILE`: a table of
 * exporters, one row per (format, what). To add one (the log, say), write its function
 * elsewhere, declare it in strobe-cli.h and add a row to `exporters` below.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"

static const StrobeCliExporter exporters[] = {
  /* format        what (the first row of a format is its default), models it needs,
   * timers (computed while reading: a billion scopes' timers need no model) */
  { "chrome-json", "timeline", STROBE_DOCUMENT_MODEL_TIMELINE, FALSE, N_("CPU scopes, threads, frames, bookmarks, regions and counters in Chrome's trace event format (Perfetto opens it)"), strobe_cli_export_chrome_json },
  { "csv",         "timers",   0,                              TRUE,  N_("timer statistics per scope name"), strobe_cli_export_timers_csv },
  { "csv",         "scopes",   STROBE_DOCUMENT_MODEL_TIMELINE, FALSE, N_("every CPU scope: thread, depth, begin, end, name"), strobe_cli_export_scopes_csv },
  { "csv",         "log",      STROBE_DOCUMENT_MODEL_LOG,      FALSE, N_("every log message: time, thread, category, verbosity, file, line, text"), strobe_cli_export_log_csv },
};

/* ---- helpers ------------------------------------------------------------------------ */

static void
append_double (GString *out, const char *format, gdouble v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, format, v));
}

static gboolean
flush_out (StrobeCliExportArgs *a, GString *s)
{
  gboolean ok = strobe_cli_write (a->out, s->str, s->len);
  g_string_truncate (s, 0);
  return ok;
}

/* Microseconds since the start of the trace, with ns precision. */
static void
append_us (GString *out, StrobeCliExportArgs *a, guint64 ticks)
{
  append_double (out, "%.3f", strobe_trace_clock_to_seconds (&a->clock, ticks) * 1e6);
}

static void
append_dur_us (GString *out, StrobeCliExportArgs *a, guint64 ticks)
{
  append_double (out, "%.3f", strobe_trace_clock_duration (&a->clock, ticks) * 1e6);
}

/* ---- chrome-json -------------------------------------------------------------------- */

#define TID_GAME_FRAMES   1
#define TID_RENDER_FRAMES 2

static void
meta_event (GString *out, const char *what, guint pid, gint tid, const char *key, const char *name, gint value)
{
  g_string_append_printf (out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,", what, pid);
  if (tid >= 0)
    g_string_append_printf (out, "\"tid\":%d,", tid);
  g_string_append_printf (out, "\"args\":{\"%s\":", key);
  if (name)
    strobe_cli_append_json_string (out, name);
  else
    g_string_append_printf (out, "%d", value);
  g_string_append (out, "}},\n");
}

/* One process: its name, threads, scopes, frames, bookmarks, regions and counters, as
 * @pid, with @a's document, clock and range. */
static gboolean
append_process (StrobeCliExportArgs *a, GString *out, guint pid, gint sort_index)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (a->document);
  StrobeThreadsModel *threads = strobe_document_get_threads (a->document);
  g_autofree char *process = strobe_threads_model_dup_process_name (threads);
  g_autoptr(GArray) thread_infos = strobe_threads_model_get_threads (threads);
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (timeline);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineFrame));
  g_autoptr(GArray) bookmarks = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineBookmark));
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineRegion));
  g_autoptr(GArray) counters = strobe_timeline_model_get_counters (timeline);
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (StrobeCounterSample));
  gboolean ok = TRUE;

  meta_event (out, "process_name", pid, -1, "name", process, 0);
  if (sort_index > 0)   /* the first process's closes the file (see below) */
    meta_event (out, "process_sort_index", pid, -1, "sort_index", NULL, sort_index);
  for (guint i = 0; i < thread_infos->len; i++)
    {
      StrobeThreadInfo *t = &g_array_index (thread_infos, StrobeThreadInfo, i);
      g_autofree char *label = *t->group ? g_strdup_printf ("%s (%s)", *t->name ? t->name : "thread", t->group)
                                         : g_strdup (*t->name ? t->name : "thread");
      meta_event (out, "thread_name", pid, t->id, "name", label, 0);
      meta_event (out, "thread_sort_index", pid, t->id, "sort_index", NULL, (gint) t->order + 10);
    }

  /* Scopes: per thread, depth by depth, so a parent comes before its children when they
   * begin at the same time (the importer's sort is stable). */
  for (guint i = 0; i < tids->len && ok; i++)
    {
      guint16 tid = g_array_index (tids, guint16, i);
      guint depths = strobe_timeline_model_get_depth_count (timeline, tid);

      for (guint d = 0; d < depths && ok; d++)
        {
          g_array_set_size (scopes, 0);
          strobe_timeline_model_get_scopes (timeline, tid, d, a->t0, a->t1, scopes);
          for (guint k = 0; k < scopes->len; k++)
            {
              StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, k);
              guint64 b = MAX (s->begin, a->t0), e = MIN (s->end, a->t1);

              g_string_append (out, "{\"name\":");
              strobe_cli_append_json_string (out, strobe_timeline_model_get_name (timeline, s->name_id));
              g_string_append (out, ",\"ph\":\"X\",\"ts\":");
              append_us (out, a, b);
              g_string_append (out, ",\"dur\":");
              append_dur_us (out, a, e >= b ? e - b : 0);
              g_string_append_printf (out, ",\"pid\":%u,\"tid\":%u", pid, tid);
              if (s->flags)
                g_string_append (out, ",\"args\":{\"open_at_end\":true}");
              g_string_append (out, "},\n");
              if (out->len > (1 << 20))
                ok = flush_out (a, out);
            }
        }
    }

  /* Frames on two pseudo threads. */
  for (guint8 type = 0; type < 2; type++)
    {
      gint tid = type == 0 ? TID_GAME_FRAMES : TID_RENDER_FRAMES;

      g_array_set_size (frames, 0);
      if (strobe_timeline_model_get_frames (timeline, type, a->t0, a->t1, frames) == 0)
        continue;
      meta_event (out, "thread_name", pid, tid, "name", type == 0 ? "Frames (game)" : "Frames (render)", 0);
      meta_event (out, "thread_sort_index", pid, tid, "sort_index", NULL, type);
      for (guint k = 0; k < frames->len; k++)
        {
          StrobeTimelineFrame *f = &g_array_index (frames, StrobeTimelineFrame, k);
          g_string_append_printf (out, "{\"name\":\"Frame %u\",\"ph\":\"X\",\"ts\":", f->index);
          append_us (out, a, f->begin);
          g_string_append (out, ",\"dur\":");
          append_dur_us (out, a, f->end - f->begin);
          g_string_append_printf (out, ",\"pid\":%u,\"tid\":%d},\n", pid, tid);
        }
    }

  strobe_timeline_model_get_bookmarks (timeline, a->t0, a->t1, bookmarks);
  for (guint k = 0; k < bookmarks->len; k++)
    {
      StrobeTimelineBookmark *b = &g_array_index (bookmarks, StrobeTimelineBookmark, k);
      g_string_append (out, "{\"name\":");
      strobe_cli_append_json_string (out, strobe_timeline_model_get_name (timeline, b->name_id));
      g_string_append (out, ",\"cat\":\"bookmark\",\"ph\":\"i\",\"s\":\"g\",\"ts\":");
      append_us (out, a, b->time);
      g_string_append_printf (out, ",\"pid\":%u,\"tid\":%u},\n", pid, b->thread_id);
    }

  strobe_timeline_model_get_regions (timeline, a->t0, a->t1, regions);
  for (guint k = 0; k < regions->len; k++)
    {
      StrobeTimelineRegion *r = &g_array_index (regions, StrobeTimelineRegion, k);
      for (int edge = 0; edge < 2; edge++)
        {
          g_string_append (out, "{\"name\":");
          strobe_cli_append_json_string (out, strobe_timeline_model_get_name (timeline, r->name_id));
          g_string_append_printf (out, ",\"cat\":\"region\",\"ph\":\"%s\",\"id\":%u,\"ts\":", edge ? "e" : "b", k + 1);
          append_us (out, a, edge ? r->end : r->begin);
          g_string_append_printf (out, ",\"pid\":%u},\n", pid);
        }
    }

  for (guint c = 0; c < counters->len && ok; c++)
    {
      StrobeTimelineCounter *tc = &g_array_index (counters, StrobeTimelineCounter, c);

      g_array_set_size (samples, 0);
      strobe_timeline_model_get_counter_samples (timeline, tc->index, a->t0, a->t1, samples);
      for (guint k = 0; k < samples->len; k++)
        {
          StrobeCounterSample *s = &g_array_index (samples, StrobeCounterSample, k);
          g_string_append (out, "{\"name\":");
          strobe_cli_append_json_string (out, tc->name);
          g_string_append (out, ",\"ph\":\"C\",\"ts\":");
          append_us (out, a, s->time);
          g_string_append_printf (out, ",\"pid\":%u,\"args\":{\"value\":", pid);
          if (tc->type == STROBE_TIMELINE_COUNTER_INT)
            g_string_append_printf (out, "%" G_GINT64_FORMAT, s->int_value);
          else
            append_double (out, "%.17g", isfinite (s->value) ? s->value : 0.0);
          g_string_append (out, "}},\n");
        }
    }

  return ok;
}

/* Flows between the members' scopes: Chrome's flow events, "s" at the begin, "t" at each
 * step, "f" at the end, each bound to the slice that encloses it ("bp":"e"), so Perfetto
 * draws the arrows between the scopes. Ids are the flows' own numbers here (a program's id
 * may come back in another flow); its id goes in args. */
static void
append_flows (StrobeCliExportArgs *a, GString *out)
{
  g_autoptr(GArray) hops = g_array_new (FALSE, FALSE, sizeof (StrobeFlowHop));
  g_autoptr(GPtrArray) flows = NULL;
  gdouble from = 0, to = 0;

  if (a->from)
    strobe_cli_parse_time (a->from, &from);
  if (a->to)
    strobe_cli_parse_time (a->to, &to);

  for (guint i = 0; i < a->members->len; i++)
    {
      StrobeCliMember *m = g_ptr_array_index (a->members, i);
      const GArray *points = m->flows ? strobe_flow_points_get_points (m->flows) : NULL;

      for (guint k = 0; points && k < points->len; k++)
        {
          StrobeFlowHop h;

          h.point = g_array_index (points, StrobeFlowPoint, k);
          h.seconds = strobe_trace_clock_to_seconds (&m->clock, h.point.time);
          h.trace = i;
          if ((a->from == NULL || h.seconds >= from) && (a->to == NULL || h.seconds <= to))
            g_array_append_val (hops, h);
        }
    }
  flows = strobe_flow_points_link (hops);
  for (guint f = 0; f < flows->len; f++)
    {
      StrobeFlow *flow = g_ptr_array_index (flows, f);

      if (flow->hops->len < 2)
        continue;   /* an arrow needs two ends */
      for (guint k = 0; k < flow->hops->len; k++)
        {
          StrobeFlowHop *h = &g_array_index (flow->hops, StrobeFlowHop, k);
          StrobeCliMember *m = g_ptr_array_index (a->members, h->trace);
          const char *ph = k == 0 ? "s" : k + 1 == flow->hops->len ? "f" : "t";

          g_string_append_printf (out, "{\"name\":\"flow\",\"cat\":\"flow\",\"ph\":\"%s\",\"id\":%u,", ph, f + 1);
          if (k > 0)
            g_string_append (out, "\"bp\":\"e\",");
          g_string_append (out, "\"ts\":");
          append_double (out, "%.3f", h->seconds * 1e6);
          g_string_append_printf (out, ",\"pid\":%u,\"tid\":%u,\"args\":{\"flow_id\":%" G_GUINT64_FORMAT "}},\n",
                                  m->export_pid, h->point.thread_id, flow->id);
        }
    }
}

int
strobe_cli_export_chrome_json (StrobeCliExportArgs *a)
{
  GString *out = g_string_sized_new (1 << 20);
  gboolean ok = TRUE;
  guint first_pid;

  g_string_append (out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  if (a->members == NULL)
    {
      first_pid = strobe_threads_model_get_process_id (strobe_document_get_threads (a->document));
      ok = append_process (a, out, first_pid, 0);
    }
  else
    {
      /* Every process on the one axis, in the order they started, each its own pid. */
      for (guint i = 0; i < a->members->len && ok; i++)
        {
          StrobeCliMember *m = g_ptr_array_index (a->members, i);

          gdouble from = 0, to = 0;

          a->document = m->document;
          a->clock = m->clock;
          /* --from/--to are seconds on the group's axis: ticks of each member's clock. */
          a->t0 = a->from && strobe_cli_parse_time (a->from, &from) ? strobe_trace_clock_from_seconds (&m->clock, from) : 0;
          a->t1 = a->to && strobe_cli_parse_time (a->to, &to) ? strobe_trace_clock_from_seconds (&m->clock, to) : G_MAXUINT64;
          ok = append_process (a, out, m->export_pid, (gint) i);
        }
      append_flows (a, out);
      first_pid = ((StrobeCliMember *) g_ptr_array_index (a->members, 0))->export_pid;
    }
  /* The last event ends without a comma: a closing metadata record. */
  g_string_append_printf (out, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"sort_index\":0}}\n]}\n", first_pid);
  ok = ok && flush_out (a, out);
  g_string_free (out, TRUE);
  return ok ? STROBE_CLI_OK : STROBE_CLI_DECODE_ERROR;
}

/* ---- csv ---------------------------------------------------------------------------- */

int
strobe_cli_export_timers_csv (StrobeCliExportArgs *a)
{
  GArray *stats = a->timers;
  GString *out = g_string_new ("name,count,inclusive_s,exclusive_s,min_s,max_s,mean_s,median_s\n");
  gboolean ok;

  for (guint i = 0; i < stats->len; i++)
    {
      StrobeTimerStat *s = &g_array_index (stats, StrobeTimerStat, i);
      gdouble v[] = { (gdouble) s->inclusive, (gdouble) s->exclusive, (gdouble) s->min,
                      (gdouble) s->max, s->mean, s->median };

      strobe_cli_append_csv_field (out, s->name);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT, s->count);
      for (guint k = 0; k < G_N_ELEMENTS (v); k++)
        {
          g_string_append_c (out, ',');
          append_double (out, "%.9f", strobe_trace_clock_ticks_to_seconds (&a->clock, v[k]));
        }
      g_string_append_c (out, '\n');
    }
  ok = flush_out (a, out);
  g_string_free (out, TRUE);
  return ok ? STROBE_CLI_OK : STROBE_CLI_DECODE_ERROR;
}

int
strobe_cli_export_scopes_csv (StrobeCliExportArgs *a)
{
  StrobeTimelineModel *timeline = strobe_document_get_timeline (a->document);
  g_autoptr(GArray) tids = strobe_timeline_model_get_threads (timeline);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (StrobeTimelineScope));
  GString *out = g_string_new ("thread,depth,begin_s,end_s,duration_s,name,closed_at_end\n");
  gboolean ok = TRUE;

  for (guint i = 0; i < tids->len && ok; i++)
    {
      guint16 tid = g_array_index (tids, guint16, i);
      guint depths = strobe_timeline_model_get_depth_count (timeline, tid);

      for (guint d = 0; d < depths && ok; d++)
        {
          g_array_set_size (scopes, 0);
          strobe_timeline_model_get_scopes (timeline, tid, d, a->t0, a->t1, scopes);
          for (guint k = 0; k < scopes->len; k++)
            {
              StrobeTimelineScope *s = &g_array_index (scopes, StrobeTimelineScope, k);
              g_string_append_printf (out, "%u,%u,", tid, d);
              append_double (out, "%.9f", strobe_trace_clock_to_seconds (&a->clock, s->begin));
              g_string_append_c (out, ',');
              append_double (out, "%.9f", strobe_trace_clock_to_seconds (&a->clock, s->end));
              g_string_append_c (out, ',');
              append_double (out, "%.9f", strobe_trace_clock_duration (&a->clock, s->end - s->begin));
              g_string_append_c (out, ',');
              strobe_cli_append_csv_field (out, strobe_timeline_model_get_name (timeline, s->name_id));
              g_string_append (out, s->flags ? ",1\n" : ",0\n");
              if (out->len > (1 << 20))
                ok = flush_out (a, out);
            }
        }
    }
  ok = ok && flush_out (a, out);
  g_string_free (out, TRUE);
  return ok ? STROBE_CLI_OK : STROBE_CLI_DECODE_ERROR;
}

/* ---- the subcommand ----------------------------------------------------------------- */

int
strobe_cli_export (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GArray) timers = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format = NULL, *what = NULL, *output = NULL, *from = NULL, *to = NULL;
  const StrobeCliExporter *exporter = NULL;
  StrobeCliExportArgs args = { 0 };
  g_autoptr(GString) list = g_string_new (NULL);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) members = NULL;
  const char *file;
  int status, written;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, N_("Output format: chrome-json or csv"), N_("FORMAT") },
    { "what", 'w', 0, G_OPTION_ARG_STRING, &what, N_("What to export (see below; each format has a default)"), N_("WHAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to FILE instead of standard output"), N_("FILE") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Only the part of the trace after TIME (seconds from its start; or 250ms, 10us…)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("Only the part of the trace before TIME"), N_("TIME") },
    { NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (exporters); i++)
    g_string_append_printf (list, "  --format=%-12s --what=%-9s %s\n", exporters[i].format, exporters[i].what,
                            _(exporters[i].summary));
  context = g_option_context_new (_("FILE… — convert a trace (or several, on one time axis) for other tools"));
  g_option_context_set_summary (context, _("Exports:"));
  g_option_context_set_description (context, list->str);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  file = g_ptr_array_index (files, 0);
  if (format == NULL)
    {
      g_printerr ("%s\n", _("strobe-cli: --format is required (chrome-json or csv)"));
      return STROBE_CLI_USAGE_ERROR;
    }
  for (guint i = 0; i < G_N_ELEMENTS (exporters) && !exporter; i++)
    if (g_str_equal (format, exporters[i].format) && (what == NULL || g_str_equal (what, exporters[i].what)))
      exporter = &exporters[i];
  if (exporter == NULL)
    {
      g_printerr (_("strobe-cli: no export --format=%s --what=%s; these exist:\n%s"), format,
                  what ? what : "", list->str);
      return STROBE_CLI_USAGE_ERROR;
    }

  args.file = file;
  args.from = from;
  args.to = to;
  if (files->len > 1)
    {
      gdouble seconds;

      if (exporter->run != strobe_cli_export_chrome_json)
        {
          g_printerr ("%s\n", _("strobe-cli: only --format=chrome-json takes several traces"));
          return STROBE_CLI_USAGE_ERROR;
        }
      if ((from && !strobe_cli_parse_time (from, &seconds)) || (to && !strobe_cli_parse_time (to, &seconds)))
        {
          g_printerr ("%s\n", _("strobe-cli: --from and --to take a time (seconds, or with ns, us, ms, s)"));
          return STROBE_CLI_USAGE_ERROR;
        }
      members = strobe_cli_load_members (files, exporter->models, STROBE_CLI_MEMBER_FLOWS, &status);
      for (guint i = 0; i < members->len; i++)
        if (strobe_document_get_status (((StrobeCliMember *) g_ptr_array_index (members, i))->document)
            == STROBE_DOCUMENT_STATUS_FAILED)
          return status;
      args.members = members;
    }
  else if (exporter->timers)
    {
      status = strobe_cli_load_timers (file, from, to, STROBE_TIMER_STATS_ALL_THREADS, &args.t0, &args.t1,
                                       &timers, NULL, NULL, &document);
      if (document == NULL || strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
        return status;
      args.document = document;
      args.timers = timers;
      strobe_document_get_clock (document, &args.clock);
    }
  else
    {
      status = strobe_cli_load (file, exporter->models, NULL, &document, &error);
      if (error != NULL)
        strobe_cli_print_load_error (file, error);
      if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FAILED)
        return status;
      args.document = document;
      strobe_document_get_clock (document, &args.clock);
      if (!strobe_cli_time_range (document, from, to, &args.t0, &args.t1))
        return STROBE_CLI_USAGE_ERROR;
    }
  args.out = output ? fopen (output, "wb") : stdout;
  if (args.out == NULL)
    {
      g_printerr ("strobe-cli: %s: %s\n", output, g_strerror (errno));
      return STROBE_CLI_DECODE_ERROR;
    }
  written = exporter->run (&args);
  if ((output ? fclose (args.out) : fflush (args.out)) != 0 && written == STROBE_CLI_OK)
    written = STROBE_CLI_DECODE_ERROR;
  if (written != STROBE_CLI_OK)
    g_printerr ("strobe-cli: %s: %s\n", output ? output : _("standard output"), _("write failed"));
  return written != STROBE_CLI_OK ? written : status;
}
