/* strobe-discovery.h — the instrumented programs running on this machine, from the
 * discovery files they write (runtime/CONTROL.md, "Discovery"). Stale entries (of
 * processes that are gone) are skipped and deleted.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One running program. */
#define STROBE_TYPE_PROCESS_INFO (strobe_process_info_get_type ())
G_DECLARE_FINAL_TYPE (StrobeProcessInfo, strobe_process_info, STROBE, PROCESS_INFO, GObject)

const char *strobe_process_info_get_program         (StrobeProcessInfo *self);
guint       strobe_process_info_get_pid             (StrobeProcessInfo *self);
guint16     strobe_process_info_get_control_port    (StrobeProcessInfo *self);
/* The address to connect to: 127.0.0.1 (servers listening on every interface too). */
const char *strobe_process_info_get_control_address (StrobeProcessInfo *self);
gboolean    strobe_process_info_get_tracing         (StrobeProcessInfo *self);
/* "host:HOST:PORT", "file:PATH" or "" when not tracing. */
const char *strobe_process_info_get_output          (StrobeProcessInfo *self);
/* Unix seconds. */
gint64      strobe_process_info_get_start_time      (StrobeProcessInfo *self);
/* What `auth` must send to its control server (NULL: the file had none). */
const char *strobe_process_info_get_control_secret  (StrobeProcessInfo *self);

/* Parses one discovery file's text; NULL when it is not one. */
StrobeProcessInfo *strobe_process_info_parse        (const char *text,
                                                     gsize       len);

/* A GListModel of StrobeProcessInfo, sorted by pid. */
#define STROBE_TYPE_DISCOVERY (strobe_discovery_get_type ())
G_DECLARE_FINAL_TYPE (StrobeDiscovery, strobe_discovery, STROBE, DISCOVERY, GObject)

/* $XDG_RUNTIME_DIR/strobe, else /tmp/strobe-UID (the runtime's rule). */
char            *strobe_discovery_dup_default_directory (void);

/* @directory NULL: the default. Reads it once; call strobe_discovery_watch() to follow. */
StrobeDiscovery *strobe_discovery_new       (const char       *directory);
const char      *strobe_discovery_get_directory (StrobeDiscovery *self);
/* Why the directory was not read at the last refresh (another user's, shared, a symbolic
 * link…: core/protocol/strobe-discovery-dir.h), as a sentence; NULL when it was, or does
 * not exist yet. */
const char      *strobe_discovery_get_problem (StrobeDiscovery *self);
/* Reads the directory again (also deletes stale entries); emits items-changed if the
 * list changed. */
void             strobe_discovery_refresh   (StrobeDiscovery  *self);
/* Follows the directory (file monitor, plus a re-check every 2 s for processes that were
 * killed) on the thread-default main context. */
gboolean         strobe_discovery_watch     (StrobeDiscovery  *self,
                                             GError          **error);

/* The listed program (with a control secret) whose control server is on @port, or NULL.
 * Transfer full. */
StrobeProcessInfo *strobe_discovery_lookup_port (StrobeDiscovery *self,
                                                 guint16          port);

/* TARGET → host and port: a pid, "host:port" ("[v6]:port"), or a program name (must
 * match exactly one running program). */
gboolean         strobe_discovery_resolve   (StrobeDiscovery  *self,
                                             const char       *target,
                                             char            **host,
                                             guint16          *port,
                                             GError          **error);

G_END_DECLS
