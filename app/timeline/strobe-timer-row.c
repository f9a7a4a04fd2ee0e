/* strobe-timer-row.c
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "strobe-timeline-geometry.h"
#include "strobe-timer-row.h"

struct _StrobeTimerRow
{
  GObject         parent_instance;
  StrobeTimerStat stat;
  gdouble         share;
  StrobeTimeAxis *axis;
};

G_DEFINE_FINAL_TYPE (StrobeTimerRow, strobe_timer_row, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STAT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
strobe_timer_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_STAT:
      g_value_set_pointer (value, &STROBE_TIMER_ROW (object)->stat);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_timer_row_finalize (GObject *object)
{
  g_free (STROBE_TIMER_ROW (object)->stat.name);
  g_clear_object (&STROBE_TIMER_ROW (object)->axis);
  G_OBJECT_CLASS (strobe_timer_row_parent_class)->finalize (object);
}

static void
strobe_timer_row_class_init (StrobeTimerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strobe_timer_row_finalize;
  object_class->get_property = strobe_timer_row_get_property;
  /* Read-only: notified when the figures change (the table's cells follow it). */
  properties[PROP_STAT] =
    g_param_spec_pointer ("stat", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_timer_row_init (StrobeTimerRow *self)
{
}

StrobeTimerRow *
strobe_timer_row_new (const StrobeTimerStat *stat, gdouble share, StrobeTimeAxis *axis)
{
  StrobeTimerRow *self;

  g_return_val_if_fail (stat != NULL, NULL);
  g_return_val_if_fail (STROBE_IS_TIME_AXIS (axis), NULL);

  self = g_object_new (STROBE_TYPE_TIMER_ROW, NULL);
  self->stat = *stat;
  self->stat.name = g_strdup (stat->name ? stat->name : "");
  self->share = share;
  self->axis = g_object_ref (axis);
  return self;
}

gboolean
strobe_timer_row_update (StrobeTimerRow *self, const StrobeTimerStat *stat, gdouble share)
{
  char *name;

  g_return_val_if_fail (STROBE_IS_TIMER_ROW (self), FALSE);
  g_return_val_if_fail (stat != NULL, FALSE);

  if (self->share == share && memcmp (&self->stat.count, &stat->count,
                                      sizeof *stat - G_STRUCT_OFFSET (StrobeTimerStat, count)) == 0)
    return FALSE;
  name = self->stat.name;
  self->stat = *stat;
  self->stat.name = name;
  self->share = share;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAT]);
  return TRUE;
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

char *
strobe_timer_row_format_ticks (StrobeTimerRow *self,
                               guint64         ticks)
{
  StrobeTraceClock clock;

  g_return_val_if_fail (STROBE_IS_TIMER_ROW (self), NULL);
  strobe_time_axis_get_clock (self->axis, &clock);
  return strobe_format_ticks (&clock, ticks);
}
