/* strobe-clock-offset.h — how far a traced program's clock is from ours, estimated over
 * its control connection (core/protocol/PROTOCOL.md §1, "Traces on one clock"): the
 * `clock` command several times, the round trip with the shortest delay kept. The program
 * read its clock between our send and our receive, so the offset lies within half that
 * round trip of the estimate, whatever the delays each way: the stated uncertainty always
 * contains the true offset.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-control-client.h"

G_BEGIN_DECLS

/* One round trip: our clock (ns) when the command went and when the reply came, and the
 * program's clock then, in ns. */
typedef struct
{
  gint64 sent_ns;
  gint64 received_ns;
  gint64 remote_ns;
} StrobeClockSample;

typedef struct
{
  gint64  offset_ns;        /* the program's clock minus ours */
  guint64 uncertainty_ns;   /* the true offset is within this of offset_ns */
  guint   samples;          /* round trips it rests on */
} StrobeClockOffset;

/* The best of @n samples; FALSE when none is usable (a reply before its request). */
gboolean strobe_clock_offset_from_samples (const StrobeClockSample *samples,
                                           guint                    n,
                                           StrobeClockOffset       *offset);

/* @rounds round trips of `clock` to @client's program (blocking), our clock being
 * g_get_monotonic_time() in ns, the program's the `ns` of its reply. */
gboolean strobe_control_client_measure_clock (StrobeControlClient *client,
                                              guint                rounds,
                                              StrobeClockOffset   *offset,
                                              GError             **error);

G_END_DECLS
