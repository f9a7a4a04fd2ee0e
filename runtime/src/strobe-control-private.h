/* strobe-control-private.h — the control server (strobe-control.c; its line protocol is
 * runtime/CONTROL.md) and the discovery file that announces it (strobe-discovery-file.c).
 * Not installed.
 *
 * Locks:
 *   strobe__discovery_lock  this process's discovery file: its path, and every write,
 *                           rewrite and removal of it.
 * The control server's own state (its listening socket, its peers) belongs to its thread;
 * starting and stopping it happens under strobe__init_lock. Commands that change outputs
 * take strobe__update_lock (strobe-buffers-private.h) like any other caller. */
#pragma once

#include "strobe-private.h"

extern pthread_mutex_t strobe__discovery_lock;   /* strobe-runtime-hooks.c */

void strobe__control_start (const StrobeInitOptions *options);
void strobe__control_stop (void);
bool strobe__control_running (void);
void strobe__control_after_fork_child (void);

/* Writes (or rewrites) this process's discovery file. */
void strobe__discovery_publish (uint16_t control_port, bool listen_all, bool tracing,
                                const char *secret);
void strobe__discovery_remove (void);
