/* strobe-live-stop.c — the viewer's Stop for a live trace.
 *
 * Why through the program's control server rather than by closing the recorder's
 * connection: `stop` makes the runtime ship everything committed and write End, so the
 * trace ends complete ("finished"), and the program goes on running untraced — what
 * Tracy's and Insights' Stop do. The live connection is marked first, so the recorder
 * records the ending as the user's (Stopped), not the program's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-control-client.h"
#include "strobe-live-stop.h"

gboolean
strobe_live_find_control (StrobeDocument         *document,
                          char                  **host,
                          guint16                *port,
                          StrobeLiveConnection  **session)
{
  StrobeStore *store;
  const char *trace_id;
  g_autofree char *found_host = NULL;
  guint16 found_port = 0;

  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (host != NULL && port != NULL, FALSE);

  store = strobe_document_get_store (document);
  trace_id = strobe_document_get_trace_id (document);
  if (session != NULL)
    *session = NULL;
  for (guint i = 0; store != NULL && i < g_list_model_get_n_items (strobe_store_get_sessions (store)); i++)
    {
      g_autoptr(StrobeLiveConnection) live = g_list_model_get_item (strobe_store_get_sessions (store), i);
      g_autoptr(GSocketConnectable) peer = NULL;

      if (g_strcmp0 (strobe_live_connection_get_trace_id (live), trace_id) != 0)
        continue;
      peer = g_network_address_parse (strobe_live_connection_get_peer_address (live), 0, NULL);
      if (peer != NULL)
        found_host = g_strdup (g_network_address_get_hostname (G_NETWORK_ADDRESS (peer)));
      found_port = strobe_live_connection_get_control_port (live);
      if (session != NULL)
        *session = g_steal_pointer (&live);
      break;
    }
  /* The recorder may register the session before it has read the handshake: the stream
   * itself says which port the program's control server took. */
  if (found_port == 0 && strobe_document_get_metadata (document) != NULL)
    found_port = strobe_document_get_metadata (document)->control_port;
  if (found_host == NULL || found_port == 0)
    {
      if (session != NULL)
        g_clear_object (session);
      return FALSE;
    }
  *host = g_steal_pointer (&found_host);
  *port = found_port;
  return TRUE;
}

static void
stop_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = strobe_control_client_send_finish (STROBE_CONTROL_CLIENT (object), result, &error);

  strobe_control_client_close (STROBE_CONTROL_CLIENT (object));
  if (reply == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               /* Translators: %s says why (the control server's answer or the network's) */
                               _("The program did not stop tracing: %s"), error->message);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

void
strobe_live_stop_async (StrobeDocument      *document,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(StrobeLiveConnection) session = NULL;
  g_autofree char *host = NULL;
  StrobeControlClient *client;
  guint16 port = 0;

  g_return_if_fail (STROBE_IS_DOCUMENT (document));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, strobe_live_stop_async);
  if (!strobe_document_is_live (document))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("This trace is no longer being recorded"));
      return;
    }
  if (!strobe_live_find_control (document, &host, &port, &session))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("This program runs without a control server (STROBE_CONTROL_PORT=0), so "
                                 "its tracing cannot be stopped from here: end the program, or "
                                 "close the tab and keep it recording."));
      return;
    }
  if (session != NULL)
    strobe_live_connection_request_stop (session);
  client = strobe_control_client_new (host, port);
  strobe_control_client_set_timeout (client, 3);
  g_task_set_task_data (task, client, g_object_unref);
  strobe_control_client_send_async (client, "stop", cancellable, stop_sent_cb, g_steal_pointer (&task));
}

gboolean
strobe_live_stop_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
