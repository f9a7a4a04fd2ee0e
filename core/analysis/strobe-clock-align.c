/* strobe-clock-align.c — several traces on one time axis.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-clock-align.h"

/* Wall-clock ns of @ticks of @m's own clock, corrected by its measured offset. */
static gdouble
wall_of (const StrobeClockAlignMember *m, gdouble ticks)
{
  gdouble wall = (gdouble) m->clock.start_time_ns
                 + (ticks - (gdouble) m->clock.origin) * 1e9 / (gdouble) m->clock.frequency;

  return m->has_offset ? wall - (gdouble) m->offset_ns : wall;
}

/* @m's ticks → the reference's ticks. */
static gdouble
to_reference (const StrobeClockAlignMember *m, const StrobeClockAlignMember *ref, gdouble ticks)
{
  if (m == ref || m->alignment == STROBE_CLOCK_ALIGN_SHARED)
    return ticks;
  return (gdouble) ref->clock.origin
         + (wall_of (m, ticks) - (gdouble) ref->clock.start_time_ns) * (gdouble) ref->clock.frequency / 1e9;
}

void
strobe_clock_align (StrobeClockAlignMember *members,
                    guint                   n)
{
  StrobeClockAlignMember *ref = NULL;
  gdouble zero = INFINITY;

  g_return_if_fail (members != NULL || n == 0);
  for (guint i = 0; i < n; i++)
    if (ref == NULL || members[i].clock.start_time_ns < ref->clock.start_time_ns)
      ref = &members[i];
  if (ref == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      StrobeClockAlignMember *m = &members[i];

      if (m == ref)
        m->alignment = STROBE_CLOCK_ALIGN_REFERENCE;
      else if (strobe_wire_metadata_same_clock (m->metadata, ref->metadata))
        m->alignment = STROBE_CLOCK_ALIGN_SHARED;
      else
        m->alignment = m->has_offset ? STROBE_CLOCK_ALIGN_OFFSET : STROBE_CLOCK_ALIGN_WALL;
      if (m->has_extent)
        zero = MIN (zero, to_reference (m, ref, (gdouble) m->first));
    }
  if (!isfinite (zero))
    zero = (gdouble) ref->clock.base;
  zero = MAX (zero, 0.0);

  for (guint i = 0; i < n; i++)
    {
      StrobeClockAlignMember *m = &members[i];

      if (m == ref || m->alignment == STROBE_CLOCK_ALIGN_SHARED)
        {
          /* One frequency for all: each process's estimate of the TSC's differs a little,
           * which would stretch one trace against the other. */
          m->clock.frequency = ref->clock.frequency;
          m->clock.frequency_valid = ref->clock.frequency_valid;
          m->clock.origin = ref->clock.origin;
          m->clock.start_time_ns = ref->clock.start_time_ns;
          m->clock.base = (guint64) zero;
        }
      else
        {
          /* The tick of this clock at the reference's zero. */
          gdouble wall0 = (gdouble) ref->clock.start_time_ns
                          + (zero - (gdouble) ref->clock.origin) * 1e9 / (gdouble) ref->clock.frequency;
          gdouble own = wall0 + (m->has_offset ? (gdouble) m->offset_ns : 0.0);
          gdouble base = (gdouble) m->clock.origin
                         + (own - (gdouble) m->clock.start_time_ns) * (gdouble) m->clock.frequency / 1e9;

          m->clock.base = base <= 0 ? 0 : base >= 1.8e19 ? G_MAXUINT64 : (guint64) llround (base);
        }
    }
}

const char *
strobe_clock_alignment_name (StrobeClockAlignment alignment)
{
  switch (alignment)
    {
    case STROBE_CLOCK_ALIGN_REFERENCE: return _("reference clock");
    case STROBE_CLOCK_ALIGN_SHARED:    return _("same clock");
    case STROBE_CLOCK_ALIGN_OFFSET:    return _("measured offset");
    case STROBE_CLOCK_ALIGN_WALL:      return _("wall-clock start only");
    default:                           return "?";
    }
}
