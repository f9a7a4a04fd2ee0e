/* log-stream.h — hand-made traces of the Log channel (categories, sites, messages on
 * several threads, in packets that interleave), for the log model's and the log view's
 * tests. Built on tests/analysis/test-stream-builder.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "test-stream-builder.h"

G_BEGIN_DECLS

/* A stream with the handshake (1 GHz clock), the $Trace and Logging event types. */
Tsb    *log_stream_new      (void);
void    log_stream_category (Tsb *b, guint32 id, const char *name, guint8 default_verbosity);
void    log_stream_spec     (Tsb *b, guint32 id, guint32 category_id, const char *file,
                             gint32 line, guint8 verbosity, const char *format);
/* A message in @tid's pending packet: @args are FormatArgs bytes (log_args). */
void    log_stream_message  (Tsb *b, guint16 tid, guint64 time, guint32 spec_id,
                             GBytes *args);
/* The same with FormatArgs in two AuxData records, cut after @cut bytes. */
void    log_stream_message_split (Tsb *b, guint16 tid, guint64 time, guint32 spec_id,
                                  GBytes *args, gsize cut);
/* Encoded arguments, one letter per value: 'i' int32, 'l' int64, 'd' double, 's' string
 * (const char *), 'p' pointer64; e.g. log_args ("is", 42, "x"). */
GBytes *log_args            (const char *types, ...);

G_END_DECLS
