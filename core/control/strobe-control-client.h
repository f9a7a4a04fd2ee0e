/* strobe-control-client.h — talks to the control server of a running instrumented program
 * (runtime/CONTROL.md): one text command per line, one `ok …`/`error …` reply per command.
 *
 * Every call has a blocking form (for the CLI and tests) and an async form (for the
 * viewer). Async commands run in order, one at a time, on a private worker thread; their
 * callbacks run on the thread-default main context of the caller. Do not mix blocking
 * and async calls on one client while async ones are pending.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STROBE_CONTROL_DEFAULT_PORT 1985
/* Longest reply line read from a program (a program's own replies are under 2 KiB). */
#define STROBE_CONTROL_MAX_REPLY    (64u * 1024u)

#define STROBE_CONTROL_ERROR (strobe_control_error_quark ())

typedef enum
{
  STROBE_CONTROL_ERROR_REFUSED,     /* the program answered `error …` (the message is its text) */
  STROBE_CONTROL_ERROR_PROTOCOL,    /* no reply, or a reply that is neither ok nor error */
  STROBE_CONTROL_ERROR_NOT_FOUND,   /* no running program matches the target */
  STROBE_CONTROL_ERROR_AMBIGUOUS,   /* several programs match the target */
  STROBE_CONTROL_ERROR_INVALID,     /* a target or command that cannot be sent */
  STROBE_CONTROL_ERROR_BUSY,        /* the program turned the connection away for now (evicted
                                     * for a newcomer, too many connections, authentication
                                     * paused); connect() retried before giving up */
  STROBE_CONTROL_ERROR_NOT_AUTHENTIC, /* the listener could not prove it knows the program's
                                     * secret: not the program; nothing was revealed to it */
} StrobeControlError;

GQuark strobe_control_error_quark (void);

#define STROBE_TYPE_CONTROL_CLIENT (strobe_control_client_get_type ())
G_DECLARE_FINAL_TYPE (StrobeControlClient, strobe_control_client, STROBE, CONTROL_CLIENT, GObject)

StrobeControlClient *strobe_control_client_new            (const char           *host,
                                                          guint16               port);
const char          *strobe_control_client_get_host       (StrobeControlClient  *self);
guint16              strobe_control_client_get_port       (StrobeControlClient  *self);
/* Seconds to wait for a connection or a reply (default 10). */
void                 strobe_control_client_set_timeout    (StrobeControlClient  *self,
                                                          guint                 seconds);
/* The secret each connection proves it knows (runtime/CONTROL.md, "Authentication"; it is
 * never sent; closes the current connection). Default: STROBE_CONTROL_SECRET, else (for a
 * program on this machine) control_secret from the discovery file of the program on that
 * port, in @directory (set_discovery_directory; NULL: the default one). A program on this
 * machine is reached at the address its discovery file names, whatever loopback name
 * the client was given. */
void                 strobe_control_client_set_secret     (StrobeControlClient  *self,
                                                          const char           *secret);
void                 strobe_control_client_set_discovery_directory (StrobeControlClient *self,
                                                                   const char          *directory);

/* Connects if not connected yet (send() does it too). */
gboolean             strobe_control_client_connect        (StrobeControlClient  *self,
                                                          GCancellable         *cancellable,
                                                          GError              **error);
void                 strobe_control_client_close          (StrobeControlClient  *self);

/* Sends one command line and returns the text after "ok" (possibly ""), or NULL with
 * STROBE_CONTROL_ERROR_REFUSED carrying the program's error text. */
char                *strobe_control_client_send           (StrobeControlClient  *self,
                                                          const char           *command,
                                                          GCancellable         *cancellable,
                                                          GError              **error);
void                 strobe_control_client_send_async     (StrobeControlClient  *self,
                                                          const char           *command,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
char                *strobe_control_client_send_finish    (StrobeControlClient  *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

/* Blocking helpers for the commands. */
/* Runs @job (which returns @task's result) on the thread of the async commands, in turn
 * with them: for exchanges of several commands (strobe-clock-offset.h). Takes @task. */
typedef void (*StrobeControlJobFunc) (GTask *task, StrobeControlClient *client);
void                 strobe_control_client_queue_job      (StrobeControlClient  *self,
                                                           GTask                *task,
                                                           StrobeControlJobFunc  job);

gboolean             strobe_control_client_send_to        (StrobeControlClient  *self,
                                                          const char           *host_port,
                                                          GError              **error);
char                *strobe_control_format_send_to        (const char           *host_port,
                                                          gint64                tail_bytes);
/* The same, replaying at most @tail_bytes of recent history (-1: all the tail holds). */
gboolean             strobe_control_client_send_to_tail   (StrobeControlClient  *self,
                                                          const char           *host_port,
                                                          gint64                tail_bytes,
                                                          GError              **error);
gboolean             strobe_control_client_write_to       (StrobeControlClient  *self,
                                                          const char           *path,
                                                          GError              **error);
gboolean             strobe_control_client_set_channels   (StrobeControlClient  *self,
                                                          const char           *list,
                                                          gboolean              enabled,
                                                          GError              **error);
/* Channel name → "on"/"off". */
GHashTable          *strobe_control_client_list_channels  (StrobeControlClient  *self,
                                                          GError              **error);
gboolean             strobe_control_client_stop           (StrobeControlClient  *self,
                                                          GError              **error);
gboolean             strobe_control_client_snapshot_send_to  (StrobeControlClient *self,
                                                             const char          *host_port,
                                                             GError             **error);
gboolean             strobe_control_client_snapshot_write_to (StrobeControlClient *self,
                                                             const char          *path,
                                                             GError             **error);
/* The `status` reply as key → value (program, pid, port, tracing, output, tail_bytes,
 * malformed, oversize, refused, …). */
GHashTable          *strobe_control_client_status         (StrobeControlClient  *self,
                                                          GError              **error);

/* Splits a reply of space-separated key=value words into a table. */
GHashTable          *strobe_control_parse_pairs           (const char           *reply);

G_END_DECLS
