/* strobe-raw.h — a minimal raw reader for runtime tests: splits a trace file into its
 * handshake, the importants stream and each thread's event records, using only the
 * core/protocol primitives (the real decoder lives in core/analysis). */
#pragma once

#include <glib.h>
#include "strobe-wire.h"

typedef struct
{
  uint16_t uid;
  uint16_t thread_id;   /* 1 for importants */
  uint32_t serial;      /* G_MAXUINT32 when the type is NoSync or Important */
  const uint8_t *payload;
  size_t payload_size;
  GPtrArray *aux;       /* of GBytes, indexed by field; NULL entries for unset fields */
} RawEvent;

typedef struct
{
  GBytes            *file;
  StrobeWireMetadata meta;
  GHashTable        *schemas;     /* uid -> StrobeWireSchema* */
  GArray            *events;      /* RawEvent, importants and thread events in stream order */
  GArray            *controls;    /* guint8 kinds, in order */
  GArray            *sync_serials;
  guint              packets;
  guint              lz4_packets;
  GPtrArray         *buffers;     /* decoded packet payloads the events point into */
  GHashTable        *threads;     /* thread ids that sent data */
} RawTrace;

RawTrace *raw_trace_load (const char *path, GError **error);
void      raw_trace_free (RawTrace *trace);
/* The schema named logger.event, or NULL. */
const StrobeWireSchema *raw_trace_find_schema (RawTrace *trace, const char *logger, const char *event);
/* Events of a schema name (several uids may share it), in stream order. */
GPtrArray *raw_trace_events_named (RawTrace *trace, const char *logger, const char *event);
/* Scalar field @name of @ev as an unsigned integer (0 when absent). */
guint64    raw_event_uint (RawTrace *trace, const RawEvent *ev, const char *name);
/* Aux field @name of @ev, or NULL. */
GBytes    *raw_event_aux (RawTrace *trace, const RawEvent *ev, const char *name);
