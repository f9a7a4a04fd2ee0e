/* strobe-cli-dump.c — `strobe-cli dump FILE`: every event, one line each, in delivery
 * order (see strobe_event_format() for the line format).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "strobe-analysis.h"
#include "strobe-cli.h"

#define DUMP_FLUSH_SIZE (256 * 1024)

#define STROBE_CLI_TYPE_DUMP_ANALYZER (strobe_cli_dump_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (StrobeCliDumpAnalyzer, strobe_cli_dump_analyzer, STROBE_CLI, DUMP_ANALYZER, GObject)

struct _StrobeCliDumpAnalyzer
{
  GObject  parent_instance;
  GString *out;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeCliDumpAnalyzer, strobe_cli_dump_analyzer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

/* Exactly PROTOCOL.md §10 into a file or a pipe; on a terminal, the bidirectional
 * formatting characters §10 leaves as they are are escaped too. */
static void
dump_flush (StrobeCliDumpAnalyzer *self)
{
  strobe_cli_write (stdout, self->out->str, self->out->len);
  g_string_truncate (self->out, 0);
}

static void
dump_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "*", "*");
}

static void
dump_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeCliDumpAnalyzer *self = (StrobeCliDumpAnalyzer *) analyzer;

  strobe_event_format (ev, self->out);
  g_string_append_c (self->out, '\n');
  if (self->out->len >= DUMP_FLUSH_SIZE)
    dump_flush (self);
}

static void
dump_end (StrobeAnalyzer *analyzer, const GError *error)
{
  dump_flush (STROBE_CLI_DUMP_ANALYZER (analyzer));
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = dump_begin;
  iface->on_event = dump_on_event;
  iface->end = dump_end;
}

static void
strobe_cli_dump_analyzer_finalize (GObject *object)
{
  StrobeCliDumpAnalyzer *self = STROBE_CLI_DUMP_ANALYZER (object);

  dump_flush (self);
  g_string_free (self->out, TRUE);
  G_OBJECT_CLASS (strobe_cli_dump_analyzer_parent_class)->finalize (object);
}

static void
strobe_cli_dump_analyzer_class_init (StrobeCliDumpAnalyzerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_cli_dump_analyzer_finalize;
}

static void
strobe_cli_dump_analyzer_init (StrobeCliDumpAnalyzer *self)
{
  self->out = g_string_sized_new (DUMP_FLUSH_SIZE + 4096);
}

int
strobe_cli_dump (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(StrobeDocument) document = NULL;
  g_autoptr(StrobeCliDumpAnalyzer) dump = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *status_line = NULL;
  gboolean status = FALSE;
  const char *file;
  gboolean ok;
  const GOptionEntry entries[] = {
    { "status", 0, 0, G_OPTION_ARG_NONE, &status, N_("End with a line saying how the stream ended: “# end”, “# no-end” or “# error CLASS OFFSET”"), NULL },
    { NULL },
  };

  context = g_option_context_new (_("FILE — print every event"));
  g_option_context_set_summary (context,
    _("Prints one line per event in delivery order: thread id, serial (or “-”),\n"
      "Logger.Event, then Field=value for every field."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!strobe_cli_parse_file_args (context, &argc, &argv, &file))
    return STROBE_CLI_USAGE_ERROR;

  dump = g_object_new (STROBE_CLI_TYPE_DUMP_ANALYZER, NULL);
  /* Only the printer besides what every document has: no models to build. */
  ok = strobe_cli_load (file, 0, STROBE_ANALYZER (dump), &document, &error) == STROBE_CLI_OK;
  dump_flush (dump);
  /* The conformance suite's form of the outcome (tests/conformance/README.md). */
  if (status)
    {
      status_line = strobe_decoder_format_status (strobe_document_get_status (document)
                                                  == STROBE_DOCUMENT_STATUS_FINISHED, error);
      printf ("%s\n", status_line);
    }
  if (!ok)
    {
      fflush (stdout);
      strobe_cli_print_load_error (file, error);
      return STROBE_CLI_DECODE_ERROR;
    }
  if (fflush (stdout) != 0)
    return STROBE_CLI_DECODE_ERROR;
  return STROBE_CLI_OK;
}
