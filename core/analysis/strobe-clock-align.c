/* strobe-clock-align.c — several traces on one time axis.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "strobe-clock-align.h"

static gboolean
domain_is (const StrobeWireMetadata *meta, const char *hex)
{
  char mine[33];

  if (meta == NULL || strlen (hex) != 32)
    return FALSE;
  for (int i = 0; i < 16; i++)
    g_snprintf (mine + 2 * i, 3, "%02x", meta->clock_domain[i]);
  return strcmp (mine, hex) == 0 && strspn (mine, "0") != 32;
}

/* A CLOCK_MONOTONIC trace of @domain: its clock is the one a peer of that machine
 * measures others against, so its offset to that peer is 0, exactly. */
static gboolean
monotonic_of (const StrobeClockAlignMember *m, const char *domain)
{
  return m->metadata != NULL && m->metadata->clock_source == 0 && domain_is (m->metadata, domain);
}

/* @m's clock minus @ref's, in ns, from measures by one peer: both measured, or one of them
 * the peer's own clock. The pair with the smallest uncertainty. */
static gboolean
measured_offset (StrobeClockAlignMember *m, const StrobeClockAlignMember *ref)
{
  gboolean found = FALSE;

  for (guint i = 0; i < m->n_measures; i++)
    {
      const StrobeClockMeasure *a = &m->measures[i];

      if (monotonic_of (ref, a->domain) && (!found || a->uncertainty_ns < m->uncertainty_ns))
        {
          m->offset_ns = a->offset_ns;
          m->uncertainty_ns = a->uncertainty_ns;
          m->rounds = a->rounds;
          found = TRUE;
        }
      for (guint k = 0; k < ref->n_measures; k++)
        {
          const StrobeClockMeasure *b = &ref->measures[k];

          if (strcmp (a->domain, b->domain) == 0 && (!found || a->uncertainty_ns + b->uncertainty_ns < m->uncertainty_ns))
            {
              m->offset_ns = a->offset_ns - b->offset_ns;
              m->uncertainty_ns = a->uncertainty_ns + b->uncertainty_ns;
              m->rounds = a->rounds + b->rounds;
              found = TRUE;
            }
        }
    }
  for (guint k = 0; k < ref->n_measures; k++)
    {
      const StrobeClockMeasure *b = &ref->measures[k];

      if (monotonic_of (m, b->domain) && (!found || b->uncertainty_ns < m->uncertainty_ns))
        {
          m->offset_ns = -b->offset_ns;
          m->uncertainty_ns = b->uncertainty_ns;
          m->rounds = b->rounds;
          found = TRUE;
        }
    }
  return found;
}

/* ns to add to ns from @m's origin to get ns from the reference's origin (not for SHARED
 * members, which are placed in ticks). */
static gdouble
shift_ns (const StrobeClockAlignMember *m, const StrobeClockAlignMember *ref)
{
  gint64 shift = m->adjust_ns;

  if (m->alignment == STROBE_CLOCK_ALIGN_OFFSET)
    shift += strobe_trace_clock_origin_ns (&m->clock) - strobe_trace_clock_origin_ns (&ref->clock) - m->offset_ns;
  else if (m->alignment == STROBE_CLOCK_ALIGN_WALL)
    shift += (gint64) m->clock.start_time_ns - (gint64) ref->clock.start_time_ns;
  return (gdouble) shift;
}

static gboolean
in_ref_ticks (const StrobeClockAlignMember *m)
{
  return m->alignment == STROBE_CLOCK_ALIGN_REFERENCE || m->alignment == STROBE_CLOCK_ALIGN_SHARED;
}

/* @m's ticks → the reference's ticks. */
static gdouble
to_reference (const StrobeClockAlignMember *m, const StrobeClockAlignMember *ref, gdouble ticks)
{
  if (in_ref_ticks (m))
    return ticks + strobe_trace_clock_ticks_for_ns (&ref->clock, (gdouble) m->adjust_ns);
  return strobe_trace_clock_ticks_from_origin (&ref->clock,
                                               strobe_trace_clock_ns_from_origin (&m->clock, ticks) + shift_ns (m, ref));
}

static void
classify (StrobeClockAlignMember *m, const StrobeClockAlignMember *ref)
{
  m->offset_ns = 0;
  m->uncertainty_ns = 0;
  m->rounds = 0;
  if (m == ref)
    m->alignment = STROBE_CLOCK_ALIGN_REFERENCE;
  else if (strobe_wire_metadata_same_clock (m->metadata, ref->metadata))
    m->alignment = STROBE_CLOCK_ALIGN_SHARED;
  else
    m->alignment = measured_offset (m, ref) ? STROBE_CLOCK_ALIGN_OFFSET : STROBE_CLOCK_ALIGN_WALL;
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
  ref->adjust_ns = 0;   /* the others move against it */
  for (guint i = 0; i < n; i++)
    {
      StrobeClockAlignMember *m = &members[i];

      classify (m, ref);
      if (m->has_extent)
        zero = MIN (zero, to_reference (m, ref, (gdouble) m->first));
    }
  if (!isfinite (zero))
    zero = (gdouble) ref->clock.base;
  zero = MAX (zero, 0.0);

  for (guint i = 0; i < n; i++)
    {
      StrobeClockAlignMember *m = &members[i];

      if (in_ref_ticks (m))
        {
          /* One frequency for all: each process's estimate of the TSC's differs a little,
           * which would stretch one trace against the other. */
          gdouble base = zero - strobe_trace_clock_ticks_for_ns (&ref->clock, (gdouble) m->adjust_ns);

          m->clock.frequency = ref->clock.frequency;
          m->clock.frequency_valid = ref->clock.frequency_valid;
          m->clock.origin = ref->clock.origin;
          m->clock.start_time_ns = ref->clock.start_time_ns;
          m->clock.base = base <= 0 ? 0 : base >= 1.8e19 ? G_MAXUINT64 : (guint64) llround (base);
        }
      else
        {
          /* The tick of this clock at the reference's zero. */
          gdouble zero_ns = strobe_trace_clock_ns_from_origin (&ref->clock, zero);
          gdouble base = strobe_trace_clock_ticks_from_origin (&m->clock, zero_ns - shift_ns (m, ref));

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

char *
strobe_clock_align_describe (const StrobeClockAlignMember *member)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (member != NULL, NULL);
  if (member->alignment == STROBE_CLOCK_ALIGN_OFFSET)
    /* Translators: a process's clock against the group's reference: the measured offset in
     * ms, its uncertainty in µs, and the round trips it rests on */
    g_string_append_printf (s, _("offset %+.6f ms ± %.1f µs (%u round trips)"), member->offset_ns / 1e6,
                            member->uncertainty_ns / 1e3, member->rounds);
  else
    g_string_append (s, strobe_clock_alignment_name (member->alignment));
  if (member->adjust_ns != 0)
    /* Translators: after how a process's clock was aligned: how far the user moved it */
    g_string_append_printf (s, _(", moved %+.6f ms by hand"), member->adjust_ns / 1e6);
  return g_string_free (s, FALSE);
}
