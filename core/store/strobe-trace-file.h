/* strobe-trace-file.h — private: what a trace file and its sidecars say about it.
 *
 * Everything here works on paths and file descriptors only, touches no shared state and
 * is therefore safe from any thread: the recorder's connection threads and the store's
 * main context both use it. The layout is documented in README.md beside this file.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-trace.h"

G_BEGIN_DECLS

#define STROBE_TRACE_SUFFIX      ".strobe"
#define STROBE_TRACE_INFO_SUFFIX ".strobe.info"
#define STROBE_TRACE_LIVE_SUFFIX ".strobe.live"

typedef struct
{
  char              *id;             /* from the .info sidecar; NULL when it has none */
  char              *program;
  guint32            pid;
  guint32            parent_pid;     /* 0 when the handshake does not say */
  char              *session;        /* the session group (handshake); NULL: none */
  guint64            start_time_ns;
  guint64            end_time_ns;    /* when the recorder finished it; 0 when unknown */
  guint64            size;
  StrobeTraceStatus  status;
  char              *reason;         /* why invalid or cut off; NULL otherwise */
  char              *peer_address;   /* who sent it, when a recorder wrote it */
  gboolean           stopped;        /* ended on purpose by a user (strobe_trace_get_stopped) */
  gboolean           external;       /* set by the store: a file outside its directory */
} StrobeTraceProbe;

void     strobe_trace_probe_clear        (StrobeTraceProbe *probe);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (StrobeTraceProbe, strobe_trace_probe_clear)

/* Reads the file's handshake and sidecars and decides its status. When @repair is set and
 * the trace is not live, brings the .info sidecar up to date (so the next probe is cheap)
 * and removes a .live marker whose recorder is gone. FALSE only when the file cannot be
 * opened (typically: it was just removed). */
gboolean strobe_trace_file_probe         (const char        *path,
                                          gboolean           repair,
                                          StrobeTraceProbe  *probe,
                                          GError           **error);

/* TRUE while a .live marker exists whose recorder process still runs (or runs on another
 * host, which we cannot check). */
gboolean strobe_trace_file_is_live       (const char        *path);

/* Writes the .live marker naming this process; fails if one exists (O_EXCL), which is how
 * a recorder claims a name. */
gboolean strobe_trace_file_claim_live    (const char        *path,
                                          GError           **error);

/* Writes the .info sidecar atomically: @probe's id, status, size, reason, peer address,
 * end time and stopped flag. @with_status FALSE writes no status (a live trace). */
gboolean strobe_trace_file_write_info    (const char              *path,
                                          const StrobeTraceProbe  *probe,
                                          gboolean                 with_status,
                                          GError                 **error);

/* Renames or removes a trace together with its sidecars. */
gboolean strobe_trace_file_rename        (const char        *path,
                                          const char        *new_path,
                                          GError           **error);
gboolean strobe_trace_file_delete        (const char        *path,
                                          GError           **error);

char    *strobe_trace_file_new_id        (void);
char    *strobe_trace_file_sidecar_path  (const char        *path,
                                          const char        *suffix);

G_END_DECLS
