/* strobe-info-analyzer.h — the overview of a trace: metadata, threads, event types,
 * channels and the runtime's own statistics.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef struct
{
  guint16  id;
  guint64  system_id;
  gint32   sort_hint;
  char    *name;        /* NULL when no ThreadInfo was seen */
  char    *group;
  gboolean ended;
  guint64  end_timestamp;
  guint64  events;
} StrobeInfoThread;

/* Copied out of the schema, so it outlives the decoder. */
typedef struct
{
  char    *full_name;   /* "Logger.Event" */
  guint16  uid;
  guint8   flags;       /* STROBE_EVENT_FLAG_* */
  guint    n_fields;
  guint64  count;
} StrobeInfoEventType;

typedef struct
{
  guint32  id;
  char    *name;
  gboolean enabled;
  guint    toggles;
} StrobeInfoChannel;

typedef struct
{
  gboolean valid;       /* FALSE until a $Trace.Stats event was seen */
  guint64  timestamp;
  guint64  bytes_emitted;
  guint64  bytes_sent;
  guint64  events_emitted;
  guint64  events_dropped;
  guint64  buffer_memory;
} StrobeInfoStats;

/* Deep copies and frees of the structs above, for callers that keep rows beyond the
 * analyzer's lock (a view of a live trace). GBoxedCopyFunc / GDestroyNotify shaped. */
gpointer strobe_info_thread_copy     (gpointer src);
void     strobe_info_thread_free     (gpointer      thread);
gpointer strobe_info_event_type_copy (gpointer src);
void     strobe_info_event_type_free (gpointer      type);
gpointer strobe_info_channel_copy    (gpointer src);
void     strobe_info_channel_free    (gpointer      channel);

#define STROBE_TYPE_INFO_ANALYZER (strobe_info_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (StrobeInfoAnalyzer, strobe_info_analyzer, STROBE, INFO_ANALYZER, GObject)

StrobeInfoAnalyzer       *strobe_info_analyzer_new             (void);
/* A copy that stays valid after the decoder is gone; NULL before the handshake. */
const StrobeWireMetadata *strobe_info_analyzer_get_metadata    (StrobeInfoAnalyzer *self);
/* Arrays of the structs above, owned by the analyzer. Threads are sorted by sort hint
 * then id, event types and channels by name. */
GPtrArray                *strobe_info_analyzer_get_threads     (StrobeInfoAnalyzer *self);
GPtrArray                *strobe_info_analyzer_get_event_types (StrobeInfoAnalyzer *self);
GPtrArray                *strobe_info_analyzer_get_channels    (StrobeInfoAnalyzer *self);
const StrobeInfoStats    *strobe_info_analyzer_get_stats       (StrobeInfoAnalyzer *self);
guint64                   strobe_info_analyzer_get_event_count (StrobeInfoAnalyzer *self);
/* The smallest and largest value of any "Timestamp" field; FALSE when there was none. */
gboolean                  strobe_info_analyzer_get_time_range  (StrobeInfoAnalyzer *self,
                                                                guint64            *first,
                                                                guint64            *last);

G_END_DECLS
