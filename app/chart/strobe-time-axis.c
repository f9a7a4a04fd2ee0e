/* strobe-time-axis.c
 *
 * The axis keeps no clock: the document's changes move its base (the first event), so it
 * is asked for each time (strobe_document_get_clock copies a few integers).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-format.h"
#include "strobe-time-axis.h"

struct _StrobeTimeAxis
{
  GObject          parent_instance;

  StrobeDocument  *document;
  StrobeViewState *state;
  guint64          first, last;
  gboolean         has_bounds;
};

G_DEFINE_FINAL_TYPE (StrobeTimeAxis, strobe_time_axis, G_TYPE_OBJECT)

enum
{
  RANGE_CHANGED,
  MARKS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
range_changed_cb (StrobeTimeAxis *self)
{
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

static void
marks_changed_cb (StrobeTimeAxis *self)
{
  g_signal_emit (self, signals[MARKS_CHANGED], 0);
}

static void
document_changed_cb (StrobeTimeAxis *self)
{
  /* Without bounds of its own the axis spans the document, which may have grown. */
  if (!self->has_bounds)
    range_changed_cb (self);
}

StrobeTimeAxis *
strobe_time_axis_new (StrobeDocument  *document,
                      StrobeViewState *state)
{
  StrobeTimeAxis *self;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (state), NULL);

  self = g_object_new (STROBE_TYPE_TIME_AXIS, NULL);
  self->document = g_object_ref (document);
  self->state = g_object_ref (state);
  g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::visible-start", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::visible-end", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selection-start", G_CALLBACK (marks_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::selection-end", G_CALLBACK (marks_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::has-selection", G_CALLBACK (marks_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::cursor", G_CALLBACK (marks_changed_cb), self, G_CONNECT_SWAPPED);
  return self;
}

StrobeDocument *
strobe_time_axis_get_document (StrobeTimeAxis *self)
{
  g_return_val_if_fail (STROBE_IS_TIME_AXIS (self), NULL);
  return self->document;
}

StrobeViewState *
strobe_time_axis_get_state (StrobeTimeAxis *self)
{
  g_return_val_if_fail (STROBE_IS_TIME_AXIS (self), NULL);
  return self->state;
}

/* ---- the clock ------------------------------------------------------------------------------- */

void
strobe_time_axis_get_clock (StrobeTimeAxis   *self,
                            StrobeTraceClock *clock)
{
  g_return_if_fail (STROBE_IS_TIME_AXIS (self));
  g_return_if_fail (clock != NULL);
  strobe_document_get_clock (self->document, clock);
}

gdouble
strobe_time_axis_to_seconds (StrobeTimeAxis *self,
                             guint64         time)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self, &clock);
  return strobe_trace_clock_to_seconds (&clock, time);
}

gdouble
strobe_time_axis_duration (StrobeTimeAxis *self,
                           guint64         ticks)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self, &clock);
  return strobe_trace_clock_duration (&clock, ticks);
}

guint64
strobe_time_axis_duration_ticks (StrobeTimeAxis *self,
                                 gdouble         seconds)
{
  StrobeTraceClock clock;

  strobe_time_axis_get_clock (self, &clock);
  return strobe_trace_clock_ticks (&clock, seconds);
}

char *
strobe_time_axis_format_time (StrobeTimeAxis *self,
                              guint64         time)
{
  return strobe_format_duration_s (strobe_time_axis_to_seconds (self, time));
}

/* ---- the range -------------------------------------------------------------------------------- */

void
strobe_time_axis_set_bounds (StrobeTimeAxis *self,
                             guint64         first,
                             guint64         last)
{
  g_return_if_fail (STROBE_IS_TIME_AXIS (self));

  last = MAX (last, first);
  if (self->has_bounds && self->first == first && self->last == last)
    return;
  self->first = first;
  self->last = last;
  self->has_bounds = TRUE;
  range_changed_cb (self);
}

gboolean
strobe_time_axis_get_bounds (StrobeTimeAxis *self,
                             guint64        *first,
                             guint64        *last)
{
  guint64 a, b;

  g_return_val_if_fail (STROBE_IS_TIME_AXIS (self), FALSE);
  if (self->has_bounds)
    {
      a = self->first;
      b = self->last;
    }
  else if (!strobe_document_get_extent (self->document, &a, &b))
    return FALSE;
  if (first)
    *first = a;
  if (last)
    *last = b;
  return TRUE;
}

gboolean
strobe_time_axis_get_range (StrobeTimeAxis *self,
                            guint64        *start,
                            guint64        *end)
{
  guint64 first, last, a, b;

  g_return_val_if_fail (STROBE_IS_TIME_AXIS (self), FALSE);
  if (!strobe_time_axis_get_bounds (self, &first, &last))
    return FALSE;
  strobe_view_state_get_visible_range (self->state, &a, &b);
  /* Nobody set a range that meets the bounds: all of them. */
  if (b <= first || a > last || b <= a)
    {
      a = first;
      b = last + 1;
    }
  if (start)
    *start = a;
  if (end)
    *end = MAX (b, a + 1);
  return TRUE;
}

gboolean
strobe_time_axis_get_scale (StrobeTimeAxis  *self,
                            int              width,
                            StrobeTimeScale *scale)
{
  guint64 a, b;

  g_return_val_if_fail (scale != NULL, FALSE);
  if (!strobe_time_axis_get_range (self, &a, &b))
    return FALSE;
  strobe_time_scale_init (scale, a, b, width);
  return TRUE;
}

GArray *
strobe_time_axis_ticks (StrobeTimeAxis        *self,
                        const StrobeTimeScale *scale,
                        gdouble                min_px,
                        gdouble               *step)
{
  StrobeTraceClock clock;

  g_return_val_if_fail (scale != NULL, NULL);
  strobe_time_axis_get_clock (self, &clock);
  return strobe_ruler_ticks (&clock, scale, min_px, step);
}

char *
strobe_time_axis_tick_label (StrobeTimeAxis        *self,
                             const StrobeTimeScale *scale,
                             const StrobeRulerTick *tick,
                             gdouble                step)
{
  StrobeTraceClock clock;

  g_return_val_if_fail (scale != NULL && tick != NULL, NULL);
  strobe_time_axis_get_clock (self, &clock);
  return strobe_ruler_label (strobe_trace_clock_to_seconds (&clock, tick->time), step,
                             strobe_trace_clock_to_seconds (&clock, strobe_time_scale_end (scale)));
}

/* ---- the object ------------------------------------------------------------------------------- */

static void
strobe_time_axis_finalize (GObject *object)
{
  StrobeTimeAxis *self = STROBE_TIME_AXIS (object);

  g_clear_object (&self->document);
  g_clear_object (&self->state);
  G_OBJECT_CLASS (strobe_time_axis_parent_class)->finalize (object);
}

static void
strobe_time_axis_class_init (StrobeTimeAxisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strobe_time_axis_finalize;

  signals[RANGE_CHANGED] = g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MARKS_CHANGED] = g_signal_new ("marks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strobe_time_axis_init (StrobeTimeAxis *self)
{
}
