/* strobe-log-export.h — log messages as CSV or TSV rows: the log view's Copy (the selected
 * rows, TSV) and Export (every row a StrobeLogList shows, to a file, on a worker thread).
 *
 * Columns: time_s (seconds from the trace's start, 9 decimals, a '.' whatever the locale),
 * thread (the stream id), thread_name, category, verbosity, file, line, message (the text
 * as printf wrote it). CSV quotes as RFC 4180 says; TSV writes a tab, a newline, a
 * carriage return and a backslash in a field as \t \n \r \\.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

#include "strobe-log-list.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_LOG_EXPORT_CSV,
  STROBE_LOG_EXPORT_TSV,
} StrobeLogExportFormat;

/* The header line, with its newline. */
void     strobe_log_export_append_header (GString                *out,
                                          StrobeLogExportFormat   format);
/* One row, with its newline. @thread_name may be NULL. */
void     strobe_log_export_append_item   (GString                *out,
                                          StrobeLogExportFormat   format,
                                          StrobeLogItem          *item,
                                          const StrobeTraceClock *clock,
                                          const char             *thread_name);
/* Writes the header and every item of @list as it is now into @file (replaced), on a
 * worker thread. @thread_names: guint16 id (GUINT_TO_POINTER) → name, copied; may be NULL. */
void     strobe_log_export_async         (StrobeLogList          *list,
                                          StrobeLogExportFormat   format,
                                          const StrobeTraceClock *clock,
                                          GHashTable             *thread_names,
                                          GFile                  *file,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
/* The number of rows written (without the header). */
gboolean strobe_log_export_finish        (GAsyncResult           *result,
                                          guint64                *rows,
                                          GError                **error);

G_END_DECLS
