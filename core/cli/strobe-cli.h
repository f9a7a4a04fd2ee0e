/* strobe-cli.h — the subcommands of strobe-cli.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

/* Exit codes shared by every subcommand. */
enum
{
  STROBE_CLI_OK = 0,
  STROBE_CLI_DECODE_ERROR = 1,
  STROBE_CLI_USAGE_ERROR = 2,
  STROBE_CLI_FAILED = 1,         /* a command that talks to a program or server failed */
};

typedef struct
{
  const char *name;
  const char *summary;   /* untranslated; translated when shown */
  int       (*run) (int argc, char **argv);
} StrobeCliCommand;

int  strobe_cli_info (int argc, char **argv);
int  strobe_cli_dump (int argc, char **argv);
int  strobe_cli_ps (int argc, char **argv);
int  strobe_cli_control (int argc, char **argv);
int  strobe_cli_serve (int argc, char **argv);

int  strobe_cli_stats (int argc, char **argv);
int  strobe_cli_log (int argc, char **argv);
int  strobe_cli_memory (int argc, char **argv);
int  strobe_cli_samples (int argc, char **argv);
int  strobe_cli_run (int argc, char **argv);
int  strobe_cli_export (int argc, char **argv);
int  strobe_cli_compare (int argc, char **argv);

/* ---- reading a trace (strobe-cli-document.c) --------------------------------------- */

#include "strobe-document.h"
#include "strobe-timer-stats.h"

/* Opens @file as a new document building @models (plus @extra, when not NULL) and reads it
 * in this thread. Returns STROBE_CLI_OK, or STROBE_CLI_DECODE_ERROR with @error set: the
 * document in *@out then holds everything before the error. */
int      strobe_cli_load             (const char *file, StrobeDocumentModels models,
                                      StrobeAnalyzer *extra, StrobeDocument **out,
                                      GError **error);
/* As strobe_cli_load(), but a timeline model among @models keeps no scope (only frames,
 * regions, bookmarks, counters), and, when @stats is not NULL, the timers of the scopes
 * overlapping [@t0, @t1] on @thread (or STROBE_TIMER_STATS_ALL_THREADS) are computed while
 * the trace is read (StrobeTimerStream, on worker lanes: read again without them when the
 * answer would depend on the order across threads): *@stats, the same figures as
 * strobe_timer_stats_compute() over a whole model, with the scopes such a model would not
 * have kept (@depth_overflows, @budget_overflows). A billion scopes in a few MB. */
int      strobe_cli_load_streamed    (const char *file, StrobeDocumentModels models,
                                      guint64 t0, guint64 t1, gint thread, GArray **stats,
                                      guint64 *depth_overflows, guint64 *budget_overflows,
                                      StrobeDocument **out, GError **error);
/* The timers of @file's scopes in --from @from to --to @to (NULL: the trace's edge) on
 * @thread, read as strobe_cli_load_streamed() reads them, into *@t0, *@t1 (ticks) and
 * *@stats; a reading error is printed. A range's seconds are the trace's own, known once
 * it has been read: its timers take a second reading. STROBE_CLI_USAGE_ERROR (said, *@out
 * NULL) for a bad range; a trace that could not be read at all: its document (FAILED) in
 * *@out, no *@stats. */
int      strobe_cli_load_timers      (const char *file, const char *from, const char *to,
                                      gint thread, guint64 *t0, guint64 *t1, GArray **stats,
                                      guint64 *depth_overflows, guint64 *budget_overflows,
                                      StrobeDocument **out);
/* What stats and compare say of scopes the nesting limits did not let a model keep. */
void     strobe_cli_print_overflows  (const char *file, guint64 depth_overflows,
                                      guint64 budget_overflows);
/* What compare says of a trace whose memory model reached its budget (nothing when not). */
void     strobe_cli_print_memory_budget (const char *file, StrobeDocument *document);
/* "strobe-cli: FILE: message" on stderr. */
void     strobe_cli_print_load_error (const char *file, const GError *error);
/* "1.5", "1.5s", "250ms", "10us", "5ns" → seconds. */
gboolean strobe_cli_parse_time       (const char *s, gdouble *seconds);
/* The one of @names a typo of @word most likely meant: within two edits (any case), or
 * the only one @word starts, or the only one holding @word ("Render": "LogRender"); NULL
 * when none is close. */
const char *strobe_cli_closest       (const char *word, const char *const *names, guint n_names);
/* "%.6f" of @seconds, locale-independent. Free with g_free. */
char    *strobe_cli_format_seconds   (gdouble seconds);
/* The value of a time option (seconds from the trace's start) → ticks; prints the problem
 * and returns FALSE when it is not a time or lies outside the trace. */
gboolean strobe_cli_parse_trace_time (StrobeDocument *document, const char *option,
                                      const char *value, guint64 *ticks);
/* --from/--to (either may be NULL) → ticks (0 and G_MAXUINT64 when not given). */
gboolean strobe_cli_time_range       (StrobeDocument *document, const char *from, const char *to,
                                      guint64 *t0, guint64 *t1);

/* ---- several traces (strobe-cli-group.c) ------------------------------------------ */

#include "strobe-clock-align.h"
#include "strobe-clock-measures.h"
#include "strobe-flow-points.h"
#include "strobe-timer-stream.h"

/* One trace of several, on the one time axis. */
typedef struct
{
  char                *file;
  char                *label;        /* "program (pid N)" */
  StrobeDocument      *document;
  StrobeFlowPoints    *flows;        /* when asked for */
  StrobeTimerStream   *nesting;      /* when asked for: a nesting-only stream */
  StrobeTraceClock     clock;        /* aligned: seconds on the group's axis */
  StrobeClockAlignment alignment;
  char                *alignment_text;   /* how, for people (strobe_clock_align_describe) */
  StrobeClockMeasures *measures;     /* its $Trace.ClockOffset events */
  guint32              pid;
  guint32              export_pid;   /* unique among the members */
  int                  status;       /* its strobe_cli_load() code */
} StrobeCliMember;

/* Adds --group NAME and --store DIR to @context, parses it, and returns the FILE
 * arguments, or the paths of the group's traces (oldest first); prints the problem and
 * returns FALSE on a usage error. */
gboolean   strobe_cli_parse_files_args    (GOptionContext *context, int *argc, char ***argv,
                                           GPtrArray **files);
void       strobe_cli_add_group_options   (GOptionContext *context);
/* What a member reads besides its models. */
typedef enum
{
  STROBE_CLI_MEMBER_FLOWS   = 1 << 0,   /* its flow points */
  STROBE_CLI_MEMBER_NESTING = 1 << 1,   /* the scopes a model would not keep, without one */
} StrobeCliMemberReads;

/* Opens every file (building @models, and what @reads asks for) and aligns their clocks;
 * @status: STROBE_CLI_OK or the first error's code (each member keeps its own). */
GPtrArray *strobe_cli_load_members        (GPtrArray *files, StrobeDocumentModels models,
                                           StrobeCliMemberReads reads, int *status);
void       strobe_cli_member_free         (StrobeCliMember *member);
/* `memory` of several traces: a line per process and the total (strobe-cli-memory-total.c). */
void       strobe_cli_memory_print_total  (GPtrArray *files);
/* Runs @run once per file of @files with the options of @original (the command's argv as
 * it came, copied before parsing), each part under a header: what `stats`, `log` and
 * `memory` do for several traces. Returns the worst exit code. */
int        strobe_cli_run_per_file        (char **original, GPtrArray *files,
                                           int (*run) (int argc, char **argv));
gboolean   strobe_cli_is_group_option     (const char *arg, gboolean *takes_value);
/* "== Process 2 of 3: server (pid 41) — server.strobe (same clock)" */
void       strobe_cli_print_member_header (StrobeCliMember *member, guint index, guint n);

/* ---- export (strobe-cli-export.c): one row per --format/--what -------------------- */

typedef struct
{
  const char          *file;
  FILE                *out;
  const char          *from;        /* the raw options, NULL when not given */
  const char          *to;
  StrobeDocument      *document;    /* built with the exporter's models */
  StrobeTraceClock     clock;
  guint64              t0, t1;      /* ticks; 0 and G_MAXUINT64 when not given */
  GPtrArray           *members;     /* StrobeCliMember: several traces (chrome-json), or NULL */
  GArray              *timers;      /* StrobeTimerStat of [t0, t1] for an exporter that wants
                                     * them: computed while the trace was read, no model */
} StrobeCliExportArgs;

typedef struct
{
  const char *format;
  const char *what;
  StrobeDocumentModels models;
  gboolean    timers;                 /* wants StrobeCliExportArgs.timers */
  const char *summary;                /* untranslated */
  int       (*run) (StrobeCliExportArgs *args);   /* a STROBE_CLI_* code */
} StrobeCliExporter;

int  strobe_cli_export_chrome_json (StrobeCliExportArgs *args);
int  strobe_cli_export_timers_csv  (StrobeCliExportArgs *args);
int  strobe_cli_export_scopes_csv  (StrobeCliExportArgs *args);
int  strobe_cli_export_log_csv     (StrobeCliExportArgs *args);   /* strobe-cli-log.c */

/* Writes an export's bytes to @out; to standard output or a terminal, what the trace put
 * in them is escaped (strobe-text.h) so that it cannot drive a terminal. */
gboolean strobe_cli_write (FILE *out, const char *data, gsize len);
/* One CSV field (RFC 4180 quoting when it holds , " CR or LF); strobe_cli_write() then
 * escapes what would drive a terminal. */
void     strobe_cli_append_csv_field (GString *out, const char *s);
/* @s (NULL: "") as a quoted JSON string, made valid UTF-8, terminal controls escaped. */
void     strobe_cli_append_json_string (GString *out, const char *s);

/* Parses the subcommand's options and its single FILE argument; prints the problem and
 * returns FALSE on a usage error. */
gboolean strobe_cli_parse_file_args (GOptionContext *context, int *argc, char ***argv,
                                     const char **file);

G_END_DECLS
