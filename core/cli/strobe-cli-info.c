/* strobe-cli-info.c — `strobe-cli info FILE`: the overview of a trace.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"
#include "strobe-timer-stream.h"

static void
print_info (StrobeDocument *document, StrobeTimerStream *nesting, const GError *error)
{
  const StrobeWireMetadata *meta = strobe_document_get_metadata (document);
  StrobeInfoAnalyzer *info = strobe_document_get_info (document);
  StrobeInfoStats stats;
  StrobeDecoderStats dstats;
  guint64 depth_overflows = 0, budget_overflows = 0;
  StrobeTraceClock clock;
  g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  g_autoptr(GPtrArray) types = strobe_info_analyzer_dup_event_types (info);
  g_autoptr(GPtrArray) channels = strobe_info_analyzer_dup_channels (info);
  guint64 first, last;

  strobe_document_get_decoder_stats (document, &dstats);
  strobe_document_get_clock (document, &clock);
  strobe_info_analyzer_get_stats (info, &stats);

  if (meta != NULL)
    {
      g_autofree char *cmdline_raw = strobe_metadata_dup_command_line (meta);
      /* Every name below comes from the trace: escaped, so none can drive the terminal. */
      g_autofree char *cmdline = strobe_text_escape (cmdline_raw, STROBE_TEXT_PLAIN);
      GString *program = g_string_new (NULL);
      g_autofree char *start_str = strobe_wall_time_format (meta->start_time_ns,
                                                            STROBE_WALL_ISO8601_UTC);
      strobe_text_append_escaped (program, meta->program_name, (gssize) meta->program_name_len,
                                  STROBE_TEXT_PLAIN);
      printf ("%-16s %s\n", _("Program:"), program->str);
      g_string_free (program, TRUE);
      printf ("%-16s %u\n", _("Process id:"), meta->process_id);
      if (meta->parent_process_id)
        printf ("%-16s %u\n", _("Parent process:"), meta->parent_process_id);
      if (meta->session_name_len)
        {
          GString *session = g_string_new (NULL);
          strobe_text_append_escaped (session, meta->session_name, (gssize) meta->session_name_len,
                                      STROBE_TEXT_PLAIN);
          printf ("%-16s %s\n", _("Session:"), session->str);
          g_string_free (session, TRUE);
        }
      printf ("%-16s %s\n", _("Command line:"), cmdline);
      printf ("%-16s %s\n", _("Start time:"), start_str ? start_str : "?");
      if (clock.frequency_valid)
        printf ("%-16s %" G_GUINT64_FORMAT " Hz (%s)\n", _("Clock:"), meta->clock_frequency,
                strobe_metadata_clock_source_name (meta->clock_source));
      else
        printf ("%-16s %" G_GUINT64_FORMAT " Hz (%s) — %s\n", _("Clock:"), meta->clock_frequency,
                strobe_metadata_clock_source_name (meta->clock_source),
                _("not a usable frequency: times assume 1 GHz"));
      if (strobe_document_get_extent (document, &first, &last))
        {
          g_autofree char *dur = strobe_cli_format_seconds (strobe_trace_clock_duration (&clock, last - first));
          printf ("%-16s %s s\n", _("Duration:"), dur);
        }
      else
        printf ("%-16s %s\n", _("Duration:"), _("unknown (no timestamps)"));
    }

  if (error)
    printf ("%-16s %s\n", _("Status:"), _("unreadable past the error below"));
  else if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_FINISHED)
    printf ("%-16s %s\n", _("Status:"), _("finished"));
  else
    printf ("%-16s %s\n", _("Status:"), _("cut off (no end marker: the program or recorder stopped)"));
  printf ("%-16s %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
          " decoded, %" G_GUINT64_FORMAT " LZ4 packets)\n", _("Packets:"), dstats.packets,
          strobe_document_get_bytes_read (document), dstats.raw_bytes, dstats.packets_lz4);
  printf ("%-16s %" G_GUINT64_FORMAT "\n", _("Events:"), strobe_info_analyzer_get_event_count (info));
  if (stats.valid)
    printf ("%-16s %" G_GUINT64_FORMAT "\n", _("Events dropped:"), stats.events_dropped);
  else
    printf ("%-16s %s\n", _("Events dropped:"), _("unknown (no statistics in the trace)"));
  if (dstats.gaps || dstats.late_events)
    printf ("%-16s %" G_GUINT64_FORMAT " gaps, %" G_GUINT64_FORMAT " late events\n",
            _("Ordering:"), dstats.gaps, dstats.late_events);
  strobe_timer_stream_get_overflows (nesting, &depth_overflows, &budget_overflows);
  if (depth_overflows || budget_overflows)
    /* Translators: scopes the viewer does not keep: nested too deep on one thread, and
     * past the nesting budget of all threads together */
    printf (_("%-16s %" PRIu64 " deeper than %d levels on a thread, %" PRIu64
              " past %d levels on all threads together\n"),
            _("Scopes not kept:"), depth_overflows, STROBE_TIMELINE_MAX_DEPTH,
            budget_overflows, STROBE_TIMELINE_MAX_LEVELS);

  printf ("\n%s (%u)\n", _("Threads"), threads->len);
  for (guint i = 0; i < threads->len; i++)
    {
      const StrobeThreadInfo *t = &g_array_index (threads, StrobeThreadInfo, i);
      g_autofree char *name = strobe_text_escape (*t->name ? t->name : "?", STROBE_TEXT_PLAIN);
      g_autofree char *group = strobe_text_escape (*t->group ? t->group : "-", STROBE_TEXT_PLAIN);

      printf ("  %5u  %-20s  %s %-10" G_GUINT64_FORMAT "  %s %-12s  %" G_GUINT64_FORMAT " %s, %s\n",
              t->id, name, _("os"), t->system_id, _("group"), group,
              strobe_info_analyzer_get_thread_events (info, t->id),
              _("events"), strobe_thread_state_to_string (t->state));
    }

  printf ("\n%s (%u)\n", _("Event types"), types->len);
  for (guint i = 0; i < types->len; i++)
    {
      const StrobeInfoEventType *et = g_ptr_array_index (types, i);
      g_autofree char *full_name = strobe_text_escape (et->full_name, STROBE_TEXT_PLAIN);

      printf ("  %-40s %s %-5u %-10s %12" G_GUINT64_FORMAT "\n", full_name, _("uid"), et->uid,
              (et->flags & STROBE_EVENT_FLAG_IMPORTANT) ? _("important")
              : (et->flags & STROBE_EVENT_FLAG_NOSYNC) ? _("nosync") : _("sync"),
              et->count);
    }

  printf ("\n%s (%u)\n", _("Channels"), channels->len);
  for (guint i = 0; i < channels->len; i++)
    {
      const StrobeInfoChannel *c = g_ptr_array_index (channels, i);
      g_autofree char *name = strobe_text_escape (c->name ? c->name : "?", STROBE_TEXT_PLAIN);

      printf ("  %-24s 0x%08x  %-8s  %u %s\n", name, c->id,
              c->enabled ? _("enabled") : _("disabled"), c->toggles, _("toggles"));
    }
}

int
strobe_cli_info (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  /* What the timeline would not keep of a trace nested too deep, from the nesting alone:
   * info reads a billion scopes at the decoder's pace, keeping none of them. */
  g_autoptr(StrobeTimerStream) nesting = strobe_timer_stream_new_nesting_only ();
  g_autoptr(GPtrArray) files = NULL;
  const char *file;
  int status;

  context = g_option_context_new (_("FILE… — print an overview of a trace (of each, for several)"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_files_args (context, &argc, &argv, &files))
    return STROBE_CLI_USAGE_ERROR;
  file = g_ptr_array_index (files, 0);
  if (files->len > 1)
    {
      g_autoptr(GPtrArray) members = strobe_cli_load_members (files, 0, STROBE_CLI_MEMBER_NESTING, &status);

      for (guint i = 0; i < members->len; i++)
        {
          StrobeCliMember *m = g_ptr_array_index (members, i);
          guint64 first, last;

          strobe_cli_print_member_header (m, i, members->len);
          if (strobe_document_get_extent (m->document, &first, &last))
            {
              g_autofree char *from = strobe_cli_format_seconds (strobe_trace_clock_to_seconds (&m->clock, first));
              g_autofree char *to = strobe_cli_format_seconds (strobe_trace_clock_to_seconds (&m->clock, last));
              /* Translators: where this process's trace lies on the time axis all the
               * processes share, in seconds */
              printf ("%-16s %s – %s s\n", _("On the group axis:"), from, to);
            }
          print_info (m->document, m->nesting, NULL);
        }
      fflush (stdout);
      return status;
    }

  status = strobe_cli_load (file, 0, STROBE_ANALYZER (nesting), &document, &error);
  /* Nothing to show when the file could not be read at all. */
  if (error != NULL && error->domain != STROBE_DECODER_ERROR)
    {
      strobe_cli_print_load_error (file, error);
      return STROBE_CLI_DECODE_ERROR;
    }
  print_info (document, nesting, error);
  fflush (stdout);
  if (error != NULL)
    strobe_cli_print_load_error (file, error);
  return status;
}
