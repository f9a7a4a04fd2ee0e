/* strobe-info-analyzer.h — the overview of a trace: metadata, event types with counts,
 * channels, the runtime's own statistics, events per thread and the trace's extent.
 *
 * It follows the rule every model follows: it locks internally and hands out copies, so
 * another thread may ask while a decoder feeds it. Updates are published once per chunk
 * the decoder is fed (the analyzer's flush), not per event.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

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

/* A span of a channel's recording left out: toggled off at @begin, on again at @end (ticks;
 * G_MAXUINT64 while it is still off). */
typedef struct
{
  guint64 begin;
  guint64 end;
} StrobeInfoGap;

/* Deep copies and frees, GBoxedCopyFunc / GDestroyNotify shaped. */
gpointer strobe_info_event_type_copy (gpointer src);
void     strobe_info_event_type_free (gpointer      type);
gpointer strobe_info_channel_copy    (gpointer src);
void     strobe_info_channel_free    (gpointer      channel);

#define STROBE_TYPE_INFO_ANALYZER (strobe_info_analyzer_get_type ())
G_DECLARE_FINAL_TYPE (StrobeInfoAnalyzer, strobe_info_analyzer, STROBE, INFO_ANALYZER, GObject)

StrobeInfoAnalyzer       *strobe_info_analyzer_new              (void);
/* A copy that stays valid (and unchanged) for the analyzer's life once it is not NULL;
 * NULL before the handshake. */
const StrobeWireMetadata *strobe_info_analyzer_get_metadata     (StrobeInfoAnalyzer *self);
/* New arrays of copies (free with g_ptr_array_unref): event types and channels by name. */
GPtrArray                *strobe_info_analyzer_dup_event_types  (StrobeInfoAnalyzer *self);
GPtrArray                *strobe_info_analyzer_dup_channels     (StrobeInfoAnalyzer *self);
void                      strobe_info_analyzer_get_stats        (StrobeInfoAnalyzer *self,
                                                                 StrobeInfoStats    *out);
/* When the channel named @name (as announced: "Memory", "Counters"…) was off after having
 * been on in the trace — what it did then was not recorded, and a view must not draw it as
 * data: a new array of StrobeInfoGap in time order (free with g_array_unref). */
GArray                   *strobe_info_analyzer_dup_channel_gaps (StrobeInfoAnalyzer *self,
                                                                 const char         *name);
/* Whether two such arrays hold the same spans (NULL counts as none): a view redraws its
 * hatching only when they changed. */
gboolean                  strobe_info_gaps_equal                (const GArray       *a,
                                                                 const GArray       *b);
/* Every event decoded, importants included. */
guint64                   strobe_info_analyzer_get_event_count  (StrobeInfoAnalyzer *self);
/* Events a thread stream carried (0 for a thread never seen). */
guint64                   strobe_info_analyzer_get_thread_events (StrobeInfoAnalyzer *self,
                                                                  guint16             thread_id);
/* The trace's extent: the first and last timestamp of any event (every uint64 "Cycle" or
 * "Timestamp" field, and the scopes inside Cpu.EventBatch); FALSE while there is none. */
gboolean                  strobe_info_analyzer_get_time_range   (StrobeInfoAnalyzer *self,
                                                                 guint64            *first,
                                                                 guint64            *last);
/* Grows whenever something above changed: a reader polls it to know there is news. */
guint64                   strobe_info_analyzer_get_generation   (StrobeInfoAnalyzer *self);

G_END_DECLS
