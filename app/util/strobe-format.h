/* strobe-format.h — how the viewer writes numbers, sizes, times and command lines.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "1.5 s", "12.3 ms", "850 µs"; "—" for a negative value (unknown). */
char *strobe_format_duration_s     (double       seconds);
/* Local time, "2026-11-30 05:26:59"; "—" when @unix_ns is 0. */
char *strobe_format_wall_time      (guint64      unix_ns);
/* Thousands grouped per the locale: "1 234 567". */
char *strobe_format_count          (guint64      n);
/* "1.9 kB" (g_format_size) */
char *strobe_format_size           (guint64      bytes);

G_END_DECLS
