/* strobe-timer-row.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timer-row.h"

struct _StrobeTimerRow
{
  GObject         parent_instance;
  StrobeTimerStat stat;
  gdouble         share;
  StrobeTraceClock clock;
};

G_DEFINE_FINAL_TYPE (StrobeTimerRow, strobe_timer_row, G_TYPE_OBJECT)

static void
strobe_timer_row_finalize (GObject *object)
{
  g_free (STROBE_TIMER_ROW (object)->stat.name);
  G_OBJECT_CLASS (strobe_timer_row_parent_class)->finalize (object);
}

static void
strobe_timer_row_class_init (StrobeTimerRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_timer_row_finalize;
}

static void
strobe_timer_row_init (StrobeTimerRow *self)
{
}

StrobeTimerRow *
strobe_timer_row_new (const StrobeTimerStat *stat, gdouble share, const StrobeTraceClock *clock)
{
  StrobeTimerRow *self;

  g_return_val_if_fail (stat != NULL, NULL);

  self = g_object_new (STROBE_TYPE_TIMER_ROW, NULL);
  self->stat = *stat;
  self->stat.name = g_strdup (stat->name ? stat->name : "");
  self->share = share;
  if (clock)
    self->clock = *clock;
  else
    strobe_trace_clock_init (&self->clock, NULL);
  return self;
}

const StrobeTimerStat *
strobe_timer_row_get_stat (StrobeTimerRow *self)
{
  g_return_val_if_fail (STROBE_IS_TIMER_ROW (self), NULL);
  return &self->stat;
}

gdouble
strobe_timer_row_get_share (StrobeTimerRow *self)
{
  g_return_val_if_fail (STROBE_IS_TIMER_ROW (self), 0);
  return self->share;
}

const StrobeTraceClock *
strobe_timer_row_get_clock (StrobeTimerRow *self)
{
  g_return_val_if_fail (STROBE_IS_TIMER_ROW (self), NULL);
  return &self->clock;
}
