/* strobe-clock-offset.c — a program's clock against ours, over its control connection.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-clock-offset.h"

gboolean
strobe_clock_offset_from_samples (const StrobeClockSample *samples,
                                  guint                    n,
                                  StrobeClockOffset       *offset)
{
  const StrobeClockSample *best = NULL;

  g_return_val_if_fail (samples != NULL || n == 0, FALSE);
  g_return_val_if_fail (offset != NULL, FALSE);
  for (guint i = 0; i < n; i++)
    {
      const StrobeClockSample *s = &samples[i];

      if (s->received_ns < s->sent_ns)
        continue;
      if (best == NULL || s->received_ns - s->sent_ns < best->received_ns - best->sent_ns)
        best = s;
    }
  if (best == NULL)
    return FALSE;
  /* The remote read lies in [sent, received]: the offset in [remote - received,
   * remote - sent]; its middle, ± half the round trip (rounded up, so it still holds). */
  offset->offset_ns = best->remote_ns - best->sent_ns - (best->received_ns - best->sent_ns) / 2;
  offset->uncertainty_ns = (guint64) (best->received_ns - best->sent_ns + 1) / 2;
  offset->samples = n;
  return TRUE;
}

gboolean
strobe_control_client_measure_clock (StrobeControlClient *client,
                                     guint                rounds,
                                     StrobeClockOffset   *offset,
                                     GError             **error)
{
  g_autofree StrobeClockSample *samples = NULL;

  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (client), FALSE);
  g_return_val_if_fail (rounds > 0 && rounds <= 1000, FALSE);
  g_return_val_if_fail (offset != NULL, FALSE);

  /* The connection first: its handshake is no part of a round trip. */
  if (!strobe_control_client_connect (client, NULL, error))
    return FALSE;
  samples = g_new0 (StrobeClockSample, rounds);
  for (guint i = 0; i < rounds; i++)
    {
      gint64 sent = g_get_monotonic_time ();
      g_autofree char *reply = strobe_control_client_send (client, "clock", NULL, error);
      gint64 received = g_get_monotonic_time ();
      g_autoptr(GHashTable) pairs = NULL;
      const char *ns;
      guint64 remote;

      if (reply == NULL)
        return FALSE;
      pairs = strobe_control_parse_pairs (reply);
      ns = g_hash_table_lookup (pairs, "ns");
      if (!ns || !g_ascii_string_to_unsigned (ns, 10, 0, G_MAXINT64, &remote, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The program answered “clock” with “%s”"), reply);
          return FALSE;
        }
      samples[i].sent_ns = sent * 1000;
      samples[i].received_ns = received * 1000;
      samples[i].remote_ns = (gint64) remote;
    }
  return strobe_clock_offset_from_samples (samples, rounds, offset);
}
