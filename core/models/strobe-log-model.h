/* strobe-log-model.h — the Log channel as a queryable model: every message as a compact
 * record (time, thread, site, where its encoded arguments are: left in the trace file
 * when it was read from one), formatted only when asked.
 *
 * The model is a StrobeAnalyzer: add it to a decoder and it grows while the trace
 * streams in. Every query may run on another thread meanwhile; it sees the messages
 * recorded when it started (or when it took each batch, for filters).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"
#include "strobe-log-search.h"

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
  gboolean       categories_excluded;  /* @categories are the ones to drop, not to keep */
  gboolean       threads_excluded;     /* @threads likewise */
  StrobeLogSearch *search;         /* another text test (Tracy's syntax, a regex); NULL: any */
} StrobeLogFilter;

/* A deep copy (arrays, text, a reference on the search); NULL stays NULL. */
StrobeLogFilter         *strobe_log_filter_copy            (const StrobeLogFilter *filter);
void                     strobe_log_filter_free            (StrobeLogFilter       *filter);
/* TRUE when @filter (NULL too) lets every message through. */
gboolean                 strobe_log_filter_is_empty        (const StrobeLogFilter *filter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeLogFilter, strobe_log_filter_free)

/* How many messages one category (or thread) has: see strobe_log_model_count_by_category. */
typedef struct
{
  guint32 id;
  guint64 count;
} StrobeLogCount;

#define STROBE_TYPE_LOG_MODEL (strobe_log_model_get_type ())
G_DECLARE_FINAL_TYPE (StrobeLogModel, strobe_log_model, STROBE, LOG_MODEL, GObject)

StrobeLogModel          *strobe_log_model_new              (void);

/* Messages are indexed by their position in time order (then arrival order). Threads'
 * messages arrive interleaved by packet; the model sorts what arrived on the decoder's
 * thread once per chunk it was fed, so queries see the messages up to the decoder's last
 * chunk. While a live trace grows, a late message of one thread can shift the positions
 * after it (StrobeLogList says where, with items-changed). */
guint64                  strobe_log_model_get_count        (StrobeLogModel *self);
/*
 * Fills @msg for message @index; FALSE when out of range. Free msg->text. */
gboolean                 strobe_log_model_get_message      (StrobeLogModel   *self,
                                                            guint64           index,
                                                            StrobeLogMessage *msg);
/* Messages @indexes[0 .. @n) into @out (free each text), in one pass: the order taken
 * once, the records read under one lock, and the texts formatted without the model's
 * cache (get_message keeps the last 64 Ki texts for a view's repeated reads; a printer
 * of millions would only churn it). Returns how many were filled: the first index out of
 * range stops it. The same texts as get_message. */
guint                    strobe_log_model_get_messages     (StrobeLogModel   *self,
                                                            const guint64    *indexes,
                                                            guint             n,
                                                            StrobeLogMessage *out);
/* Indexes (guint64) of the messages in [@from, @to) that pass @filter (NULL: all), in
 * order. @to beyond the count is clamped: pass G_MAXUINT64 for "to the end". Formats
 * only the messages that pass the other tests, and only when @filter->text is set. */
GArray                  *strobe_log_model_filter           (StrobeLogModel        *self,
                                                            const StrobeLogFilter *filter,
                                                            guint64                from,
                                                            guint64                to);

/* The position of the first message at or after @time (ticks); the count when none is. */
guint64                  strobe_log_model_find_time        (StrobeLogModel *self,
                                                            guint64         time);
/* Messages per category id (0: messages whose site is unknown), and per thread id; arrays
 * of StrobeLogCount sorted by id, only ids with messages. */
GArray                  *strobe_log_model_count_by_category (StrobeLogModel *self);
GArray                  *strobe_log_model_count_by_thread  (StrobeLogModel *self);

/* What the model takes in memory, in bytes. */
typedef struct
{
  guint64 messages;
  guint64 records;     /* 8 per message, and a segment per run of a packet's messages */
  guint64 order;       /* the time order: 4 per message, in chunks */
  guint64 arguments;   /* the messages' encoded arguments held in memory: the arena (a
                        * trace without a file to read them from again) and the
                        * decoded packets cached */
  guint64 tables;      /* sites, categories, per-thread counts, the text cache (estimated) */
  guint64 total;
} StrobeLogModelMemory;

void                     strobe_log_model_get_memory       (StrobeLogModel       *self,
                                                            StrobeLogModelMemory *out);

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
