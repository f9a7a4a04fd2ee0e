/* strobe-output-private.h — where the consumer's packets go: the one output (a file or a
 * connection to a recorder), the tail ring of recent history replayed to late outputs,
 * and one-off snapshots. Not installed.
 *
 * Lock: everything here runs under strobe__update_lock (strobe-buffers-private.h), the
 * consumer's lock: the output's descriptor, its write buffer and its counters, and the
 * tail ring's packets, change only while a round or an output change holds it. Functions
 * named *_locked expect the caller to hold it; the others take it. */
#pragma once

#include "strobe-private.h"

/* ---- the output (strobe-output.c) -------------------------------------------------- */

/* Sinks one packet's payload; with no output it is discarded. */
void   strobe__out_packet (uint16_t thread_id, const uint8_t *data, size_t len);
/* The codec of outputs started later: "lz4", "zstd" or "zstd:LEVEL" (STROBE_COMPRESSION). */
bool   strobe__out_set_compression (const char *spec);
bool   strobe__out_active (void);
/* Why the last output could not be opened, for strobe_output_error(). */
void   strobe__out_set_error (int err);
void   strobe__out_write_pending (void);
/* Too many bytes the peer has not taken yet: the updater leaves data in the threads' blocks. */
bool   strobe__out_backed_up (void);
bool   strobe__out_start_locked (int fd, bool is_socket);
void   strobe__out_stop_locked (void);
void   strobe__out_add_sent (size_t n);
uint64_t strobe__out_bytes_sent (void);
/* Starts an output on @fd (taken over), described as "KIND:WHAT" in status replies. */
bool   strobe__out_start_described (int fd, bool is_socket, const char *kind, const char *what);
/* Connects to "host[:port]" (port 1980, 3 s timeout); -1 with errno. */
int    strobe__connect_host (const char *host_port);
/* Why the calling thread's last strobe__connect_host() failed (@err: its errno). */
const char *strobe__connect_error (int err);
/* NULL when @host_port is a valid HOST[:PORT], else why not (core/protocol/strobe-host-port.h). */
const char *strobe__host_port_problem (const char *host_port);
/* A one-off copy: handshake, important cache, Sync, tail, End, written to @fd (closed). */
bool   strobe__snapshot_fd (int fd, bool is_socket);
/* What the current output is, for the control server's status ("" when none). */
void   strobe__out_describe (char *buf, size_t size);
/* In a fork()ed child: closes its copy of the parent's output, writing nothing, and says
 * what it was (for STROBE_FOLLOW_FORK). */
void   strobe__out_forget_child_locked (char *kind, size_t kind_size, char *what, size_t what_size);

/* ---- tail ring (strobe-tail.c) ----------------------------------------------------- */

void     strobe__tail_configure (size_t limit_bytes);
/* @sent: an output receives it as well. */
void     strobe__tail_keep_newest (size_t bytes);
void     strobe__tail_add (uint16_t thread_id, const uint8_t *data, size_t len, bool sent);
void     strobe__tail_stats (size_t *bytes, size_t *packets, size_t *limit);
uint32_t strobe__tail_start_serial (uint32_t fallback, bool unsent_only);
bool     strobe__tail_foreach (bool unsent_only, bool (*fn) (uint16_t thread_id, const uint8_t *data, size_t len,
                                           void *user),
                               void *user);
void     strobe__tail_clear_locked (void);
