/* strobe-clock-offset.c — a program's clock against ours, over its control connection.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <time.h>

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
  offset->domain[0] = '\0';
  return TRUE;
}

/* The clock the runtime's samples are converted from, and the one a recorded offset is
 * against (PROTOCOL.md §5, ClockOffset: PeerSource 0); ns, unlike g_get_monotonic_time(). */
static gint64
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gboolean
is_domain (const char *hex)
{
  return hex != NULL && strlen (hex) == 32 && strspn (hex, "0123456789abcdef") == 32
         && strspn (hex, "0") != 32;
}

gboolean
strobe_control_client_measure_clock (StrobeControlClient *client,
                                     guint                rounds,
                                     StrobeClockOffset   *offset,
                                     GError             **error)
{
  g_autofree StrobeClockSample *samples = NULL;
  g_autofree char *domain = NULL;
  guint8 source;

  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (client), FALSE);
  g_return_val_if_fail (rounds > 0 && rounds <= 1000, FALSE);
  g_return_val_if_fail (offset != NULL, FALSE);

  /* The connection first: its handshake is no part of a round trip. */
  if (!strobe_control_client_connect (client, NULL, error))
    return FALSE;
  samples = g_new0 (StrobeClockSample, rounds);
  for (guint i = 0; i < rounds; i++)
    {
      gint64 sent = monotonic_ns ();
      g_autofree char *reply = strobe_control_client_send (client, "clock", NULL, error);
      gint64 received = monotonic_ns ();
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
      if (domain == NULL)
        {
          const char *src = g_hash_table_lookup (pairs, "source");
          guint64 value = 0;

          domain = g_ascii_strdown (g_hash_table_lookup (pairs, "domain") ?: "", -1);
          if (src != NULL)
            g_ascii_string_to_unsigned (src, 10, 0, 255, &value, NULL);
          offset->source = (guint8) value;
        }
      samples[i].sent_ns = sent;
      samples[i].received_ns = received;
      samples[i].remote_ns = (gint64) remote;
    }
  source = offset->source;
  if (!strobe_clock_offset_from_samples (samples, rounds, offset))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("No round trip to the program could be timed"));
      return FALSE;
    }
  if (is_domain (domain))
    g_strlcpy (offset->domain, domain, sizeof offset->domain);
  offset->source = source;
  return TRUE;
}

gboolean
strobe_clock_local_domain (char domain[33])
{
  g_autofree char *text = NULL;
  GString *hex = g_string_new (NULL);

  domain[0] = '\0';
  if (g_file_get_contents ("/proc/sys/kernel/random/boot_id", &text, NULL, NULL))
    for (const char *p = text; *p && hex->len < 32; p++)
      if (g_ascii_isxdigit (*p))
        g_string_append_c (hex, g_ascii_tolower (*p));
  if (is_domain (hex->str))
    g_strlcpy (domain, hex->str, 33);
  g_string_free (hex, TRUE);
  return domain[0] != '\0';
}

gboolean
strobe_control_client_record_clock (StrobeControlClient     *client,
                                    const StrobeClockOffset *offset,
                                    GError                 **error)
{
  char ours[33];
  g_autofree char *command = NULL;
  g_autofree char *reply = NULL;

  g_return_val_if_fail (STROBE_IS_CONTROL_CLIENT (client), FALSE);
  g_return_val_if_fail (offset != NULL, FALSE);
  if (!strobe_clock_local_domain (ours))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("This machine's boot id cannot be read: an offset against its clock could not be told apart from another machine's"));
      return FALSE;
    }
  command = g_strdup_printf ("clock-offset domain=%s offset=%" G_GINT64_FORMAT " uncertainty=%"
                             G_GUINT64_FORMAT " rounds=%u", ours, offset->offset_ns,
                             offset->uncertainty_ns, MAX (offset->samples, 1));
  reply = strobe_control_client_send (client, command, NULL, error);
  return reply != NULL;
}

gboolean
strobe_control_client_sync_clock (StrobeControlClient *client,
                                  guint                rounds,
                                  gboolean             always,
                                  StrobeClockOffset   *offset,
                                  gboolean            *recorded,
                                  GError             **error)
{
  char ours[33];

  if (recorded != NULL)
    *recorded = FALSE;
  if (!strobe_control_client_measure_clock (client, rounds, offset, error))
    return FALSE;
  /* Our very clock: the offset is 0 to within the measure, and a reader knows it without
   * (PROTOCOL.md §1). */
  if (!always && offset->source == 0 && strobe_clock_local_domain (ours) && g_str_equal (ours, offset->domain))
    return TRUE;
  if (!strobe_control_client_record_clock (client, offset, error))
    return FALSE;
  if (recorded != NULL)
    *recorded = TRUE;
  return TRUE;
}

typedef struct
{
  guint             rounds;
  gboolean          always;
  gboolean          recorded;
  StrobeClockOffset offset;
} SyncJob;

static void
sync_job (GTask *task, StrobeControlClient *client)
{
  SyncJob *job = g_task_get_task_data (task);
  GError *error = NULL;

  if (strobe_control_client_sync_clock (client, job->rounds, job->always, &job->offset, &job->recorded, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
strobe_control_client_sync_clock_async (StrobeControlClient *client,
                                        guint                rounds,
                                        gboolean             always,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GTask *task;
  SyncJob *job = g_new0 (SyncJob, 1);

  g_return_if_fail (STROBE_IS_CONTROL_CLIENT (client));
  job->rounds = rounds;
  job->always = always;
  task = g_task_new (client, NULL, callback, user_data);
  g_task_set_source_tag (task, strobe_control_client_sync_clock_async);
  g_task_set_task_data (task, job, g_free);
  strobe_control_client_queue_job (client, task, sync_job);
}

gboolean
strobe_control_client_sync_clock_finish (StrobeControlClient *client,
                                         GAsyncResult        *result,
                                         StrobeClockOffset   *offset,
                                         gboolean            *recorded,
                                         GError             **error)
{
  SyncJob *job;

  g_return_val_if_fail (g_task_is_valid (result, client), FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  job = g_task_get_task_data (G_TASK (result));
  if (offset != NULL)
    *offset = job->offset;
  if (recorded != NULL)
    *recorded = job->recorded;
  return TRUE;
}
