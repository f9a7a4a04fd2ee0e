/* strobe-analysis-context.c — subscriptions by name, resolved to routes per event type.
 *
 * Names are compared only when a schema arrives; the decoder keeps the resulting routes
 * in its uid-indexed table, so no string is looked at per event.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis-context-private.h"

typedef struct
{
  StrobeAnalyzer *analyzer;   /* borrowed: the decoder holds the reference */
  guint           route_id;
  char           *logger;
  char           *event;
  gboolean        last;       /* delivered after the others */
} Subscription;

struct _StrobeAnalysisContext
{
  GArray                   *subscriptions;
  StrobeAnalyzer           *current;
  const StrobeWireMetadata *metadata;
  guint                     generation;
};

static void
subscription_clear (gpointer data)
{
  Subscription *sub = data;

  g_free (sub->logger);
  g_free (sub->event);
}

StrobeAnalysisContext *
strobe_analysis_context_new (void)
{
  StrobeAnalysisContext *ctx = g_new0 (StrobeAnalysisContext, 1);

  ctx->subscriptions = g_array_new (FALSE, FALSE, sizeof (Subscription));
  g_array_set_clear_func (ctx->subscriptions, subscription_clear);
  return ctx;
}

void
strobe_analysis_context_free (StrobeAnalysisContext *ctx)
{
  if (ctx == NULL)
    return;
  g_array_unref (ctx->subscriptions);
  g_free (ctx);
}

void
strobe_analysis_context_set_current (StrobeAnalysisContext *ctx, StrobeAnalyzer *analyzer)
{
  ctx->current = analyzer;
}

void
strobe_analysis_context_set_metadata (StrobeAnalysisContext *ctx, const StrobeWireMetadata *metadata)
{
  ctx->metadata = metadata;
}

const StrobeWireMetadata *
strobe_analysis_context_get_metadata (StrobeAnalysisContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  return ctx->metadata;
}

guint
strobe_analysis_context_get_generation (StrobeAnalysisContext *ctx)
{
  return ctx->generation;
}

static void
subscribe (StrobeAnalysisContext *ctx,
           guint                  route_id,
           const char            *logger,
           const char            *event,
           gboolean               last)
{
  Subscription sub;

  g_return_if_fail (ctx != NULL);
  g_return_if_fail (logger != NULL);
  g_return_if_fail (event != NULL);
  g_return_if_fail (ctx->current != NULL);

  sub.analyzer = ctx->current;
  sub.route_id = route_id;
  sub.logger = g_strdup (logger);
  sub.event = g_strdup (event);
  sub.last = last;
  g_array_append_val (ctx->subscriptions, sub);
  ctx->generation++;
}

void
strobe_analysis_context_subscribe (StrobeAnalysisContext *ctx,
                                   guint                  route_id,
                                   const char            *logger,
                                   const char            *event)
{
  subscribe (ctx, route_id, logger, event, FALSE);
}

void
strobe_analysis_context_subscribe_last (StrobeAnalysisContext *ctx,
                                        guint                  route_id,
                                        const char            *logger,
                                        const char            *event)
{
  subscribe (ctx, route_id, logger, event, TRUE);
}

static gboolean
subscription_matches (const Subscription *sub, const StrobeEventType *type)
{
  if (strcmp (sub->logger, "*") == 0)
    return TRUE;
  if (strcmp (sub->logger, type->logger) != 0)
    return FALSE;
  return strcmp (sub->event, "*") == 0 || strcmp (sub->event, type->name) == 0;
}

StrobeRoute *
strobe_analysis_context_build_routes (StrobeAnalysisContext *ctx,
                                      const StrobeEventType *type,
                                      guint                 *n_routes)
{
  g_autoptr(GArray) routes = g_array_new (FALSE, FALSE, sizeof (StrobeRoute));

  /* Twice over the subscriptions: the ordinary ones, then those that come last. */
  for (guint i = 0; i < 2 * ctx->subscriptions->len; i++)
    {
      const Subscription *sub = &g_array_index (ctx->subscriptions, Subscription, i % ctx->subscriptions->len);
      StrobeRoute route;
      gboolean dup = FALSE;

      if (sub->last != (i >= ctx->subscriptions->len) || !subscription_matches (sub, type))
        continue;
      /* Overlapping patterns with the same route id would deliver an event twice. */
      for (guint j = 0; j < routes->len && !dup; j++)
        {
          const StrobeRoute *r = &g_array_index (routes, StrobeRoute, j);
          dup = r->analyzer == sub->analyzer && r->route_id == sub->route_id;
        }
      if (dup)
        continue;
      route.analyzer = sub->analyzer;
      route.route_id = sub->route_id;
      route.on_event = STROBE_ANALYZER_GET_IFACE (sub->analyzer)->on_event;
      if (route.on_event == NULL)
        continue;
      g_array_append_val (routes, route);
    }

  *n_routes = routes->len;
  if (routes->len == 0)
    return NULL;
  return (StrobeRoute *) g_array_free (g_steal_pointer (&routes), FALSE);
}
