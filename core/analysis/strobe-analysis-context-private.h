/* strobe-analysis-context-private.h — the subscription table, as the decoder uses it.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-analyzer.h"

G_BEGIN_DECLS

typedef void (*StrobeOnEventFunc) (StrobeAnalyzer *, guint, const StrobeEvent *);

/* One subscriber of one event type: the vfunc is looked up once, when the route is
 * built, so delivering an event is a single indirect call. */
typedef struct
{
  StrobeOnEventFunc  on_event;
  StrobeAnalyzer    *analyzer;
  guint              route_id;
} StrobeRoute;

StrobeAnalysisContext *strobe_analysis_context_new           (void);
void                   strobe_analysis_context_free          (StrobeAnalysisContext *ctx);
void                   strobe_analysis_context_set_current   (StrobeAnalysisContext *ctx,
                                                              StrobeAnalyzer        *analyzer);
void                   strobe_analysis_context_set_metadata  (StrobeAnalysisContext    *ctx,
                                                              const StrobeWireMetadata *metadata);
/* Bumped by every subscription: the decoder rebuilds its routes when it changes. */
guint                  strobe_analysis_context_get_generation (StrobeAnalysisContext *ctx);
/* The routes for @type, newly allocated (NULL when none). */
StrobeRoute           *strobe_analysis_context_build_routes  (StrobeAnalysisContext *ctx,
                                                              const StrobeEventType *type,
                                                              guint                 *n_routes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeAnalysisContext, strobe_analysis_context_free)

G_END_DECLS
