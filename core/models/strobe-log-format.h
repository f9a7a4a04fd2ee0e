/* strobe-log-format.h — deferred formatting: a log message's format string applied to
 * its encoded arguments (Logging.LogMessage.FormatArgs, see core/protocol/strobe-printf.h),
 * with the C library's printf, so the text is exactly what printf would have written in
 * the C locale.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends the formatted message to @out. Returns FALSE when the arguments do not fit the
 * format (too few, wrong kinds, malformed bytes): what could be formatted is appended, a
 * missing value shows as "(?)". */
gboolean strobe_log_format (const char   *format,
                            const guint8 *args,
                            gsize         len,
                            GString      *out);

/* Number of encoded arguments, or -1 when @args is malformed. */
gint     strobe_log_args_count (const guint8 *args, gsize len);

G_END_DECLS
