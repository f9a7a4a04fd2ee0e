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

/* A format parsed once, for formatting many messages of one site: the same text as
 * strobe_log_format() with it, without finding the conversions again each time. */
typedef struct _StrobeLogFormatPlan StrobeLogFormatPlan;

StrobeLogFormatPlan *strobe_log_format_plan_new        (const char                *format);
void                 strobe_log_format_plan_free       (StrobeLogFormatPlan       *plan);
const char          *strobe_log_format_plan_get_format (const StrobeLogFormatPlan *plan);
gboolean             strobe_log_format_plan_apply      (const StrobeLogFormatPlan *plan,
                                                        const guint8              *args,
                                                        gsize                      len,
                                                        GString                   *out);
/* The same with the conversions of bit k of @barriers (the k-th conversion of the
 * format, the first 64) not formatted: a byte 0x01 in their place when their arguments
 * are there, "(?)" as ever when they are not. A text filter's shortcut past numbers no
 * term can overlap (strobe_log_search_barriers). */
gboolean             strobe_log_format_plan_apply_masked (const StrobeLogFormatPlan *plan,
                                                          const guint8              *args,
                                                          gsize                      len,
                                                          guint64                    barriers,
                                                          GString                   *out);

/* Appends "%.<@precision>f" of @d as glibc's printf writes it in the C locale, without
 * printf (several times faster); FALSE, nothing appended, for what it does not cover (not
 * finite, |d|·10^precision ≥ 2^63, precision over 18, a rounding mode not to nearest):
 * the C library's then. */
gboolean strobe_log_format_fixed (GString *out,
                                  double   d,
                                  int      precision);

/* Number of encoded arguments, or -1 when @args is malformed. */
gint     strobe_log_args_count (const guint8 *args, gsize len);

/* One encoded argument: its type byte (STROBE_LOG_ARG_*) and its value's bytes. */
typedef struct
{
  guint8        type;
  const guint8 *value;
  gsize         size;
} StrobeLogArg;

/* Appends the encoded arguments to @out (StrobeLogArg, pointing into @args). FALSE when
 * @args is malformed or has bytes left over: @out then holds the values before the
 * fault. */
gboolean strobe_log_args_split (const guint8 *args,
                                gsize         len,
                                GArray       *out);
/* "int32", "string"…; NULL for a type byte the format does not define. */
const char *strobe_log_arg_type_name (guint8 type);
/* The value as a person reads it: integers in decimal and hex, floats exactly
 * (%.17g), strings quoted and escaped (strobe_text_escape). */
char    *strobe_log_arg_to_string (const StrobeLogArg *arg);

G_END_DECLS
