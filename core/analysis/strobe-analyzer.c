/* strobe-analyzer.c — dispatch wrappers of the analyzer interface.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analyzer.h"

G_DEFINE_INTERFACE (StrobeAnalyzer, strobe_analyzer, G_TYPE_OBJECT)

static void
strobe_analyzer_default_init (StrobeAnalyzerInterface *iface)
{
}

void
strobe_analyzer_begin (StrobeAnalyzer *self, StrobeAnalysisContext *ctx)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->begin)
    iface->begin (self, ctx);
}

void
strobe_analyzer_on_metadata (StrobeAnalyzer *self, const StrobeWireMetadata *metadata)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->on_metadata)
    iface->on_metadata (self, metadata);
}

void
strobe_analyzer_on_event_type (StrobeAnalyzer *self, const StrobeEventType *type)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->on_event_type)
    iface->on_event_type (self, type);
}

void
strobe_analyzer_on_event (StrobeAnalyzer *self, guint route_id, const StrobeEvent *event)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->on_event)
    iface->on_event (self, route_id, event);
}

void
strobe_analyzer_end (StrobeAnalyzer *self, const GError *error)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->end)
    iface->end (self, error);
}

void
strobe_analyzer_flush (StrobeAnalyzer *self)
{
  StrobeAnalyzerInterface *iface;

  g_return_if_fail (STROBE_IS_ANALYZER (self));
  iface = STROBE_ANALYZER_GET_IFACE (self);
  if (iface->flush)
    iface->flush (self);
}
