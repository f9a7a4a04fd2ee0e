/* strobe-cli-compare.h — `strobe-cli compare`'s tables in one shape (rows of figures A
 * and B), so that text, CSV and JSON print the same thing (strobe-cli-compare-print.c).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <stdio.h>

#include "strobe-compare-gate.h"

G_BEGIN_DECLS

#define STROBE_CLI_COMPARE_MAX_FIGURES 8

typedef enum
{
  STROBE_CLI_FIGURE_COUNT,   /* a number of things */
  STROBE_CLI_FIGURE_BYTES,
  STROBE_CLI_FIGURE_TIME,    /* seconds */
} StrobeCliFigureKind;

typedef struct
{
  const char          *name;   /* "incl", "peak"… */
  StrobeCliFigureKind  kind;
  gdouble              a, b;
} StrobeCliFigure;

typedef struct
{
  char            *name;
  char            *detail;      /* a second column (log: the verbosity), or NULL */
  StrobeCompareIn  in;
  guint64          samples_a, samples_b;
  guint            n_figures;
  StrobeCliFigure  figures[STROBE_CLI_COMPARE_MAX_FIGURES];
} StrobeCliCompareRow;

typedef struct
{
  const char *id;       /* "timers", "frames", "memory", "memory-sites", "log", "log-problems" */
  char       *title;    /* for text */
  const char *samples;  /* what a row's samples are: "calls", "frames"…; NULL: one of its
                         * figures already counts them (memory: allocations), so the text
                         * table shows no column of its own for them */
  const char *detail;   /* the detail column's heading, or NULL */
  GArray     *rows;     /* StrobeCliCompareRow */
} StrobeCliCompareSection;

typedef enum
{
  STROBE_CLI_COMPARE_TEXT,
  STROBE_CLI_COMPARE_CSV,
  STROBE_CLI_COMPARE_JSON,
} StrobeCliCompareFormat;

typedef struct
{
  StrobeCliCompareFormat format;
  const char            *unit;        /* "s", "ms", "us", "ns" */
  gdouble                per_second;  /* seconds × this = the unit */
  const char            *file_a, *file_b;
  char                  *range;       /* described */
  StrobeCompareSpan      span_a, span_b;
  const char            *norm;        /* "total", "frame", "call" */
  gboolean               text_figures[STROBE_CLI_COMPARE_MAX_FIGURES];  /* timer figures text shows */
} StrobeCliCompareOutput;

StrobeCliCompareSection *strobe_cli_compare_section_new  (const char *id, const char *title,
                                                          const char *samples, const char *detail);
void                     strobe_cli_compare_section_free (StrobeCliCompareSection *section);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeCliCompareSection, strobe_cli_compare_section_free)

/* The sections (and the gate's rows, checks and verdict when @gate is not NULL) in
 * @out's format, into @s. */
void strobe_cli_compare_print (GString *s, const StrobeCliCompareOutput *out, GPtrArray *sections,
                               const StrobeCompareCheck *checks, guint n_checks, GArray *gate);

G_END_DECLS
