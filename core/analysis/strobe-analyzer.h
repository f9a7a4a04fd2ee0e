/* strobe-analyzer.h — the interface an analysis implements (after Unreal's IAnalyzer).
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

#include "strobe-event.h"

G_BEGIN_DECLS

/* Handed to begin(): where an analyzer subscribes. Owned by the decoder. */
typedef struct _StrobeAnalysisContext StrobeAnalysisContext;

#define STROBE_TYPE_ANALYZER (strobe_analyzer_get_type ())
G_DECLARE_INTERFACE (StrobeAnalyzer, strobe_analyzer, STROBE, ANALYZER, GObject)

struct _StrobeAnalyzerInterface
{
  GTypeInterface parent_iface;

  /* Before any event: subscribe here with strobe_analysis_context_subscribe(). */
  void (*begin)         (StrobeAnalyzer            *self,
                         StrobeAnalysisContext     *ctx);
  /* After the handshake. Optional. The metadata lives as long as the decoder. */
  void (*on_metadata)   (StrobeAnalyzer            *self,
                         const StrobeWireMetadata  *metadata);
  /* When a schema arrives, whether or not this analyzer subscribed to it. Optional. */
  void (*on_event_type) (StrobeAnalyzer            *self,
                         const StrobeEventType     *type);
  /* One call per subscription the event matches. Hot path: keep it cheap. */
  void (*on_event)      (StrobeAnalyzer            *self,
                         guint                      route_id,
                         const StrobeEvent         *event);
  /* Once, when the input is finished (@error NULL) or decoding failed. Optional. */
  void (*end)           (StrobeAnalyzer            *self,
                         const GError              *error);
  /* After each chunk the decoder was fed (not per event). Optional: an analyzer that
   * batches its updates for readers on other threads publishes them here (and in end). */
  void (*flush)         (StrobeAnalyzer            *self);
};

/* Routes events of @logger.@event to on_event() with @route_id. "*" as @event matches
 * every event of @logger; "*" as @logger matches everything. Only valid inside begin()
 * or on_metadata(). */
void                      strobe_analysis_context_subscribe    (StrobeAnalysisContext *ctx,
                                                                guint                  route_id,
                                                                const char            *logger,
                                                                const char            *event);
/* The same, but delivered after every other subscriber's route of the event: for an
 * analyzer that uses what another one leaves on it (strobe_cpu_batch_recall_extent). */
void                      strobe_analysis_context_subscribe_last (StrobeAnalysisContext *ctx,
                                                                  guint                  route_id,
                                                                  const char            *logger,
                                                                  const char            *event);
/* NULL until the handshake has been read. */
const StrobeWireMetadata *strobe_analysis_context_get_metadata (StrobeAnalysisContext *ctx);

void strobe_analyzer_begin         (StrobeAnalyzer *self, StrobeAnalysisContext *ctx);
void strobe_analyzer_on_metadata   (StrobeAnalyzer *self, const StrobeWireMetadata *metadata);
void strobe_analyzer_on_event_type (StrobeAnalyzer *self, const StrobeEventType *type);
void strobe_analyzer_on_event      (StrobeAnalyzer *self, guint route_id, const StrobeEvent *event);
void strobe_analyzer_end           (StrobeAnalyzer *self, const GError *error);
void strobe_analyzer_flush         (StrobeAnalyzer *self);

G_END_DECLS
