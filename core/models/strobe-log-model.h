/* strobe-log-model.h — the Log channel as a queryable model: every message as a compact
 * record (time, thread, site, its encoded arguments), formatted only when asked.
 *
 * The model is a StrobeAnalyzer: add it to a decoder and it grows while the trace
 * streams in. Every query may run on another thread meanwhile; it sees the messages
 * recorded when it started (or when it took each batch, for filters).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef struct
{
  guint32     id;                  /* as in the trace (Logging.LogCategory.Id) */
  const char *name;
  guint8      default_verbosity;
} StrobeLogCategoryInfo;

typedef struct
{
  guint32                      id;  /* Logging.LogMessageSpec.Id */
  const StrobeLogCategoryInfo *category;   /* NULL when its category was never announced */
  const char                  *file;
  gint32                       line;
  guint8                       verbosity;
  const char                  *format;
} StrobeLogSpecInfo;

/* One message, as returned by strobe_log_model_get_message(). */
typedef struct
{
  guint64                  index;
  guint64                  time;       /* trace clock ticks */
  guint16                  thread_id;
  guint8                   verbosity;
  const StrobeLogSpecInfo *spec;       /* owned by the model, valid for its lifetime; NULL if unknown */
  char                    *text;       /* formatted; owned by the caller (g_free) */
} StrobeLogMessage;

typedef struct
{
  guint8         max_verbosity;    /* keep messages with verbosity <= this; 0: any */
  const guint32 *categories;       /* category ids to keep; NULL: any */
  guint          n_categories;
  const guint16 *threads;          /* thread ids to keep; NULL: any */
  guint          n_threads;
  const char    *text;             /* substring of the formatted message; NULL: any */
  gboolean       ignore_case;      /* for @text (ASCII case folding) */
  guint64        time_min;         /* inclusive; 0 */
  guint64        time_max;         /* inclusive; 0: no upper bound */
} StrobeLogFilter;

#define STROBE_TYPE_LOG_MODEL (strobe_log_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogModel, strobe_log_model, STROBE, LOG_MODEL, GObject)

StrobeLogModel          *strobe_log_model_new              (void);

guint64                  strobe_log_model_get_count        (StrobeLogModel *self);
/* Messages are indexed by their position in time order (threads' messages arrive
 * interleaved by packet; the model sorts them when a query needs it). While a live trace
 * grows, a late message of one thread can shift the positions after it.
 *
 * Fills @msg for message @index; FALSE when out of range. Free msg->text. */
gboolean                 strobe_log_model_get_message      (StrobeLogModel   *self,
                                                            guint64           index,
                                                            StrobeLogMessage *msg);
/* Indexes (guint64) of the messages in [@from, @to) that pass @filter (NULL: all), in
 * order. @to beyond the count is clamped: pass G_MAXUINT64 for "to the end". Formats
 * only the messages that pass the other tests, and only when @filter->text is set. */
GArray                  *strobe_log_model_filter           (StrobeLogModel        *self,
                                                            const StrobeLogFilter *filter,
                                                            guint64                from,
                                                            guint64                to);

/* Categories by name (NULL when unknown) and all of them, sorted by name. */
const StrobeLogCategoryInfo *strobe_log_model_find_category (StrobeLogModel *self,
                                                             const char     *name);
GPtrArray               *strobe_log_model_get_categories   (StrobeLogModel *self);
/* Grows with every change (a message, a category, a site). */
guint64                  strobe_log_model_get_generation   (StrobeLogModel *self);
/* Messages whose site was never announced, or whose arguments did not match the format. */
guint64                  strobe_log_model_get_format_errors (StrobeLogModel *self);

/* "fatal", "error", … "very-verbose"; "?" out of range. */
const char              *strobe_log_verbosity_name         (guint8 verbosity);
/* Parses a name above (also "veryverbose", "very_verbose", a digit 1-7); 0 when unknown. */
guint8                   strobe_log_verbosity_parse        (const char *name);

G_END_DECLS
