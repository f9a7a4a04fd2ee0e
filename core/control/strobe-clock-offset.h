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
  char    domain[33];       /* the program's clock domain (its boot id, 32 hex digits), from
                             * its reply; "" when it gave none */
  guint8  source;           /* its clock source (metadata clock_source): 0 CLOCK_MONOTONIC */
} StrobeClockOffset;

/* The best of @n samples; FALSE when none is usable (a reply before its request). */
gboolean strobe_clock_offset_from_samples (const StrobeClockSample *samples,
                                           guint                    n,
                                           StrobeClockOffset       *offset);

/* @rounds round trips of `clock` to @client's program (blocking), our clock being
 * CLOCK_MONOTONIC in ns, the program's the `ns` of its reply. */
gboolean strobe_control_client_measure_clock (StrobeControlClient *client,
                                              guint                rounds,
                                              StrobeClockOffset   *offset,
                                              GError             **error);

/* This machine's boot id in the form of the `clock` reply (32 lower-case hex digits), the
 * domain of our CLOCK_MONOTONIC; FALSE (and "") when it cannot be read. */
gboolean strobe_clock_local_domain           (char                 domain[33]);

/* Tells the program what was measured (`clock-offset`, runtime/CONTROL.md), so that its
 * trace carries it as $Trace.ClockOffset (PROTOCOL.md §5) and a reader can align it with
 * traces of this machine. */
gboolean strobe_control_client_record_clock  (StrobeControlClient *client,
                                              const StrobeClockOffset *offset,
                                              GError             **error);

/* What a tool does as it connects to a program: measures (@rounds round trips) and
 * records the offset in its trace unless the program reads our very clock — this
 * machine's, this boot's CLOCK_MONOTONIC —, or always with @always. A program of this
 * machine on the TSC is recorded too: its trace can then be placed against one of another
 * machine measured from here (the two offsets are against one clock). *@recorded says
 * whether it did. */
gboolean strobe_control_client_sync_clock    (StrobeControlClient *client,
                                              guint                rounds,
                                              gboolean             always,
                                              StrobeClockOffset   *offset,
                                              gboolean            *recorded,
                                              GError             **error);
/* The same on the client's thread of async commands, in turn with them (queue it before
 * `send-to`, and the first bytes the recorder gets carry the offset). */
void     strobe_control_client_sync_clock_async  (StrobeControlClient *client,
                                                  guint                rounds,
                                                  gboolean             always,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean strobe_control_client_sync_clock_finish (StrobeControlClient *client,
                                                  GAsyncResult        *result,
                                                  StrobeClockOffset   *offset,
                                                  gboolean            *recorded,
                                                  GError             **error);

G_END_DECLS
