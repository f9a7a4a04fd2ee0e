/* test-counters-model.c
 *
 * The reading thread adds samples while the main thread copies them out: one mutex, held
 * for an event or a copy, never across a feed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "test-counters-model.h"

enum { ROUTE_SPEC, ROUTE_INT, ROUTE_FLOAT };

struct _TestCountersModel
{
  GObject  parent_instance;

  GMutex   mutex;
  GArray  *counters;   /* TestCounter, in the order first seen */
};

static void analyzer_iface_init (StrobeAnalyzerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCountersModel, test_counters_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, analyzer_iface_init))

static void
counter_clear (gpointer data)
{
  g_free (((TestCounter *) data)->name);
}

static TestCounter *
get_counter (TestCountersModel *self,
             guint32            id)
{
  TestCounter c = { id, NULL, 0, 0, 0, 0 };

  for (guint i = 0; i < self->counters->len; i++)
    if (g_array_index (self->counters, TestCounter, i).id == id)
      return &g_array_index (self->counters, TestCounter, i);
  c.name = g_strdup_printf ("(counter %u)", id);
  g_array_append_val (self->counters, c);
  return &g_array_index (self->counters, TestCounter, self->counters->len - 1);
}

static void
counters_begin (StrobeAnalyzer        *analyzer,
                StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, ROUTE_SPEC, "Counters", "Spec");
  strobe_analysis_context_subscribe (ctx, ROUTE_INT, "Counters", "SetInt");
  strobe_analysis_context_subscribe (ctx, ROUTE_FLOAT, "Counters", "SetFloat");
}

static void
counters_on_event (StrobeAnalyzer    *analyzer,
                   guint              route,
                   const StrobeEvent *ev)
{
  static StrobeFieldAccessor id_f = STROBE_FIELD_ACCESSOR_INIT ("Id");
  static StrobeFieldAccessor name_f = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor value_f = STROBE_FIELD_ACCESSOR_INIT ("Value");
  TestCountersModel *self = TEST_COUNTERS_MODEL (analyzer);
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->mutex);
  TestCounter *c = get_counter (self, (guint32) strobe_event_get_uint (ev, &id_f));
  double value;

  if (route == ROUTE_SPEC)
    {
      g_free (c->name);
      c->name = strobe_event_get_string (ev, &name_f);
      return;
    }
  value = route == ROUTE_INT ? (double) strobe_event_get_int (ev, &value_f)
                             : strobe_event_get_double (ev, &value_f);
  c->min = c->samples == 0 ? value : MIN (c->min, value);
  c->max = c->samples == 0 ? value : MAX (c->max, value);
  c->last = value;
  c->samples++;
}

static void
analyzer_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = counters_begin;
  iface->on_event = counters_on_event;
}

GArray *
test_counters_model_dup_counters (TestCountersModel *self)
{
  g_autoptr(GMutexLocker) locker = NULL;
  GArray *copy;

  g_return_val_if_fail (TEST_IS_COUNTERS_MODEL (self), NULL);

  locker = g_mutex_locker_new (&self->mutex);
  copy = g_array_sized_new (FALSE, FALSE, sizeof (TestCounter), self->counters->len);
  g_array_set_clear_func (copy, counter_clear);
  for (guint i = 0; i < self->counters->len; i++)
    {
      TestCounter c = g_array_index (self->counters, TestCounter, i);

      c.name = g_strdup (c.name);
      g_array_append_val (copy, c);
    }
  return copy;
}

static void
test_counters_model_finalize (GObject *object)
{
  TestCountersModel *self = TEST_COUNTERS_MODEL (object);

  g_array_unref (self->counters);
  g_mutex_clear (&self->mutex);
  G_OBJECT_CLASS (test_counters_model_parent_class)->finalize (object);
}

static void
test_counters_model_class_init (TestCountersModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_counters_model_finalize;
}

static void
test_counters_model_init (TestCountersModel *self)
{
  g_mutex_init (&self->mutex);
  self->counters = g_array_new (FALSE, FALSE, sizeof (TestCounter));
  g_array_set_clear_func (self->counters, counter_clear);
}
