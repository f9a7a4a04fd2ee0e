/* strobe-clock-align.c — several traces on one time axis.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-clock-align.h"

/* ns from the reference's wall-clock start to @ticks of @m's clock, by their wall-clock
 * starts (corrected by a measured offset). Relative: a double holds epoch ns only to
 * 256 ns. */
static gdouble
ns_from_reference_start (const StrobeClockAlignMember *m, const StrobeClockAlignMember *ref, gdouble ticks)
{
  gdouble starts = (gdouble) ((gint64) m->clock.start_time_ns - (gint64) ref->clock.start_time_ns);

  return starts + strobe_trace_clock_ns_from_origin (&m->clock, ticks)
         - (m->has_offset ? (gdouble) m->offset_ns : 0.0);
}

/* @m's ticks → the reference's ticks. */
static gdouble
to_reference (const StrobeClockAlignMember *m, const StrobeClockAlignMember *ref, gdouble ticks)
{
  if (m == ref || m->alignment == STROBE_CLOCK_ALIGN_SHARED)
    return ticks;
  return strobe_trace_clock_ticks_from_origin (&ref->clock, ns_from_reference_start (m, ref, ticks));
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
          gdouble zero_ns = strobe_trace_clock_ns_from_origin (&ref->clock, zero);
          gdouble starts = (gdouble) ((gint64) m->clock.start_time_ns - (gint64) ref->clock.start_time_ns);
          gdouble base = strobe_trace_clock_ticks_from_origin (
            &m->clock, zero_ns - starts + (m->has_offset ? (gdouble) m->offset_ns : 0.0));

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
