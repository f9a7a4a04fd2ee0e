/* strobe-clock-measures.c — a trace's $Trace.ClockOffset events.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "strobe-clock-measures.h"

enum { ROUTE_CLOCK_OFFSET = 1 };

struct _StrobeClockMeasures
{
  GObject              parent_instance;
  GMutex               mutex;      /* guards best: the viewer copies it while a live trace grows */
  GArray              *best;       /* StrobeClockMeasure, one per peer domain */
  StrobeFieldAccessor  offset_f, uncertainty_f, rounds_f, source_f, domain_f;
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrobeClockMeasures, strobe_clock_measures, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static void
strobe_clock_measures_finalize (GObject *object)
{
  StrobeClockMeasures *self = STROBE_CLOCK_MEASURES (object);

  g_array_unref (self->best);
  g_mutex_clear (&self->mutex);
  G_OBJECT_CLASS (strobe_clock_measures_parent_class)->finalize (object);
}

static void
strobe_clock_measures_class_init (StrobeClockMeasuresClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_clock_measures_finalize;
}

static void
strobe_clock_measures_init (StrobeClockMeasures *self)
{
  g_mutex_init (&self->mutex);
  self->best = g_array_new (FALSE, FALSE, sizeof (StrobeClockMeasure));
  self->offset_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("Offset");
  self->uncertainty_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("Uncertainty");
  self->rounds_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("RoundTrips");
  self->source_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("PeerSource");
  self->domain_f = (StrobeFieldAccessor) STROBE_FIELD_ACCESSOR_INIT ("PeerDomain");
}

static void
measures_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_CLOCK_OFFSET, "$Trace", "ClockOffset");
}

static void
measures_on_event (StrobeAnalyzer *analyzer, guint route_id, const StrobeEvent *ev)
{
  /* Called per event: an unchecked cast (the checked one was 2 % of `log --count`). */
  StrobeClockMeasures *self = (StrobeClockMeasures *) analyzer;
  g_autofree char *domain = strobe_event_get_string (ev, &self->domain_f);
  StrobeClockMeasure m = { { 0 } };
  guint i;

  if (strobe_event_get_uint (ev, &self->source_f) != 0 || domain == NULL || strlen (domain) != 32
      || strspn (domain, "0123456789abcdefABCDEF") != 32)
    return;
  for (int k = 0; k < 32; k++)
    m.domain[k] = g_ascii_tolower (domain[k]);
  m.offset_ns = strobe_event_get_int (ev, &self->offset_f);
  m.uncertainty_ns = strobe_event_get_uint (ev, &self->uncertainty_f);
  m.rounds = (guint32) MIN (strobe_event_get_uint (ev, &self->rounds_f), G_MAXUINT32);
  g_mutex_lock (&self->mutex);
  for (i = 0; i < self->best->len; i++)
    if (strcmp (g_array_index (self->best, StrobeClockMeasure, i).domain, m.domain) == 0)
      break;
  if (i == self->best->len)
    g_array_append_val (self->best, m);
  else if (m.uncertainty_ns <= g_array_index (self->best, StrobeClockMeasure, i).uncertainty_ns)
    g_array_index (self->best, StrobeClockMeasure, i) = m;
  g_mutex_unlock (&self->mutex);
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = measures_begin;
  iface->on_event = measures_on_event;
}

StrobeClockMeasures *
strobe_clock_measures_new (void)
{
  return g_object_new (STROBE_TYPE_CLOCK_MEASURES, NULL);
}

GArray *
strobe_clock_measures_dup (StrobeClockMeasures *self)
{
  GArray *copy;

  g_return_val_if_fail (STROBE_IS_CLOCK_MEASURES (self), NULL);
  g_mutex_lock (&self->mutex);
  copy = g_array_sized_new (FALSE, FALSE, sizeof (StrobeClockMeasure), self->best->len);
  g_array_append_vals (copy, self->best->data, self->best->len);
  g_mutex_unlock (&self->mutex);
  return copy;
}
