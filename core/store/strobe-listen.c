/* strobe-listen.c — one listening policy for every Strobe server.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-listen.h"

static GSocketService *
listen_on (GInetAddress  *address,
           guint16        port,
           GCallback      incoming,
           gpointer       instance,
           guint16       *bound_port,
           GError       **error)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, port);
  g_autoptr(GSocketAddress) effective = NULL;

  /* Many runtimes may start at once (a test farm, a launcher); the default backlog of 10
   * makes the rest retry their SYN after a second or more. One service per address: a
   * single GSocketService on both 127.0.0.1 and ::1 lost 1 of 32 simultaneous
   * connections under GLib 2.74. */
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (service), 128);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), socket_address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, &effective, error))
    return NULL;
  *bound_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_signal_connect_object (service, "incoming", incoming, instance, 0);
  g_socket_service_start (service);
  return g_steal_pointer (&service);
}

gboolean
strobe_listen_tcp (const char  *listen_address,
                   guint16      port,
                   GCallback    incoming,
                   gpointer     instance,
                   GPtrArray   *services,
                   guint16     *bound_port,
                   GError     **error)
{
  g_autoptr(GInetAddress) address = NULL;
  GSocketService *service;

  if (listen_address != NULL)
    {
      address = g_inet_address_new_from_string (listen_address);
      if (address == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not an IP address"), listen_address);
          return FALSE;
        }
    }
  else
    address = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);

  service = listen_on (address, port, incoming, instance, bound_port, error);
  if (service == NULL)
    return FALSE;
  g_ptr_array_add (services, service);

  if (listen_address == NULL)
    {
      /* IPv6 loopback on the same port too; "localhost" may resolve to either. Not fatal:
       * many containers have no ::1. */
      g_autoptr(GInetAddress) address6 = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV6);
      guint16 port6;

      service = listen_on (address6, *bound_port, incoming, instance, &port6, NULL);
      if (service != NULL)
        g_ptr_array_add (services, service);
    }
  return TRUE;
}
