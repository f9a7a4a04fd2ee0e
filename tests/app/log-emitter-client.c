/* log-emitter-client.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "log-emitter-client.h"
#include "strobe-services.h"

void
log_emitter_say (LogEmitter *e,
                 const char *line,
                 const char *expect_prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  g_output_stream_write_all (g_subprocess_get_stdin_pipe (e->proc), line, strlen (line), NULL, NULL, &error);
  g_assert_no_error (error);
  if (expect_prefix == NULL)
    return;
  reply = g_data_input_stream_read_line (e->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (reply, expect_prefix));
}

static char *
live_path (StrobeApplication *app,
           guint32            pid)
{
  GListModel *traces = strobe_store_get_traces (strobe_services_get_store (strobe_application_get_services (app)));

  for (guint i = 0; i < g_list_model_get_n_items (traces); i++)
    {
      g_autoptr(StrobeTrace) trace = g_list_model_get_item (traces, i);

      if (strobe_trace_get_pid (trace) == pid && strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_LIVE)
        return g_strdup (strobe_trace_get_path (trace));
    }
  return NULL;
}

void
log_emitter_start (LogEmitter        *e,
                   StrobeApplication *app,
                   guint              first)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  StrobeRecorder *recorder = strobe_services_get_recorder (strobe_application_get_services (app));
  g_autofree char *host = g_strdup_printf ("127.0.0.1:%u", strobe_recorder_get_port (recorder));
  g_autofree char *line = NULL;
  g_autofree char *burst = g_strdup_printf ("burst %u\n", first);
  g_autofree char *done = g_strdup_printf ("done %u", first);
  g_autoptr(GError) error = NULL;
  gint64 deadline;

  memset (e, 0, sizeof *e);
  g_subprocess_launcher_setenv (launcher, "STROBE_TRACEHOST", host, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  e->proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("LOG_EMITTER"), NULL);
  g_assert_no_error (error);
  e->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (e->proc));
  line = g_data_input_stream_read_line (e->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ready");
  e->pid = (guint32) g_ascii_strtoull (g_subprocess_get_identifier (e->proc), NULL, 10);
  log_emitter_say (e, burst, done);

  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((e->path = live_path (app, e->pid)) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for the emitter's live trace");
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
}

void
log_emitter_stop (LogEmitter *e)
{
  g_autoptr(GError) error = NULL;

  log_emitter_say (e, "quit\n", NULL);
  g_subprocess_wait (e->proc, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&e->out);
  g_clear_object (&e->proc);
  g_clear_pointer (&e->path, g_free);
}
